//! A dressed skeleton's meshes (TR4's LARA in LARA_SKIN, TR3's in LARA_TRUE_APPEARANCE): its
//! glTF shows the dressing body, which is built into the dressing object, so the skeleton's own
//! meshes come from `same_as`, or from its placeholders glTF when no other object shows them.

use wadforge_format::{ObjectKind, ObjectName};
use wadforge_manifests::{Dressing, ManifestDir, MoveableManifest, ObjectManifest};

use super::object::ObjectWork;
use crate::bone_meshes::BoneMeshes;
use crate::error::{BuildError, Place};
use crate::geometry::RawMesh;
use crate::input::MeshNode;
use crate::skeleton::Skeleton;

/// The skeleton's own mesh of each bone: from its placeholders glTF, or empty (the bones take
/// theirs from `same_as`). `shown` are the meshes its glTF shows: a note says so when they differ
/// from the dressing body's.
pub(super) fn dressed_meshes(
    work: &mut ObjectWork,
    place: &Place,
    skeleton: &Skeleton,
    dressing: &Dressing,
    shown: &[RawMesh],
) -> Result<Vec<RawMesh>, BuildError> {
    if let Some((body, edited)) = edited_dressing(work.dir, dressing.body, &skeleton.names, shown) {
        work.notes.push(format!(
            "{}: the meshes in its glTF differ from those of {} that dresses it (bone {edited}); \
             a dressed skeleton's meshes are not built from its glTF: edit the dressing object's glTF instead",
            place.object,
            ObjectName::with_slot(&body.slot, ObjectKind::Moveable, body.id)
        ));
    }
    match &dressing.placeholders {
        Some(file) => placeholders(work, place, skeleton, file),
        None => Ok(shown.iter().map(|_| RawMesh::default()).collect()),
    }
}

/// The meshes of the placeholders glTF `file` (beside the manifest at `place`), one per bone
/// of `skeleton`.
fn placeholders(
    work: &mut ObjectWork,
    place: &Place,
    skeleton: &Skeleton,
    file: &str,
) -> Result<Vec<RawMesh>, BuildError> {
    let path = place.file.parent().unwrap_or(&work.dir.root).join(file);
    let placeholders_place = Place {
        file: path.clone(),
        object: place.object.clone(),
    };
    let fail = |e: String| placeholders_place.error(None, e);
    let scene = work.read(&path).map_err(fail)?;
    let skinned: Vec<&MeshNode> = scene.meshes.iter().filter(|n| n.skin.is_some()).collect();
    let (own, _) = crate::skeleton::skeleton(&scene, &skinned, &skeleton.names).map_err(fail)?;
    let placeholders = BoneMeshes::new(&scene, &own, work.tr_units_per_metre, &mut work.images);
    placeholders.gather(&placeholders.shown()).map_err(fail)
}

/// The dressing body's manifest and the first bone whose mesh in a dressed skeleton's glTF
/// differs from the body's mesh (by positions fingerprint), when the body is in the directory.
fn edited_dressing<'d>(
    dir: &'d ManifestDir,
    body: u32,
    bones: &[String],
    shown: &[RawMesh],
) -> Option<(&'d MoveableManifest, String)> {
    let body = dir.objects.iter().find_map(|o| match &o.manifest {
        ObjectManifest::Moveable(m) if m.id == body => Some(m),
        _ => None,
    })?;
    for ((bone, raw), body_bone) in bones.iter().zip(shown).zip(&body.bones) {
        let expected = body_bone.mesh.fingerprint.as_deref()?;
        let mesh = raw.untextured();
        if format!("{:016x}", mesh.positions_fingerprint()) != expected {
            return Some((body, bone.clone()));
        }
    }
    None
}
