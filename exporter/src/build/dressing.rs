//! A dressed skeleton's meshes (TR4's LARA in LARA_SKIN, TR3's in LARA_TRUE_APPEARANCE): its
//! glTF shows the dressing body, which is built into the dressing object, so the skeleton's own
//! meshes come from `same_as`, or from its placeholders glTF when no other object shows them.
//! The body's meshes as the dressed skeleton's glTF shows them are the body's: an edit made there
//! (on the Lara a builder sees first) is carried into the body ([`carry_dressed_edits`]).

use wadforge_format::{ObjectKind, ObjectName};
use wadforge_manifests::{Dressing, MoveableManifest, ObjectManifest};

use super::object::ObjectWork;
use crate::bone_meshes::BoneMeshes;
use crate::error::{BuildError, Place};
use crate::geometry::RawMesh;
use crate::input::MeshNode;
use crate::skeleton::Skeleton;

/// The skeleton's own mesh of each bone: from its placeholders glTF, or empty (the bones take
/// theirs from `same_as`). `shown` are the meshes its glTF shows: the dressing body's, which the
/// body's build takes ([`carry_dressed_edits`]).
pub(super) fn dressed_meshes(
    work: &mut ObjectWork,
    place: &Place,
    skeleton: &Skeleton,
    dressing: &Dressing,
    shown: &[RawMesh],
) -> Result<Vec<RawMesh>, BuildError> {
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

/// The meshes of `body` (`own`, from its glTF, in its bones' order) with each one a skeleton it
/// dresses shows edited in that skeleton's glTF (positions whose fingerprint is not the one the
/// body's manifest holds): the edit is carried into the body, with a note. A bone edited in both
/// glTFs is an error: one of the two edits would be lost.
pub(super) fn carry_dressed_edits(
    work: &mut ObjectWork,
    body_place: &Place,
    body: &MoveableManifest,
    own: &mut [RawMesh],
) -> Result<(), BuildError> {
    let dir = work.dir;
    let dressed = dir.objects.iter().filter_map(|o| match &o.manifest {
        ObjectManifest::Moveable(m) if m.dressed_by.as_ref().is_some_and(|d| d.body == body.id) => {
            Some((o, m))
        }
        _ => None,
    });
    for (object, skeleton_manifest) in dressed {
        let path = object.gltf_path(&dir.root);
        let place = Place {
            file: path.clone(),
            object: ObjectName::with_slot(
                &skeleton_manifest.slot,
                ObjectKind::Moveable,
                skeleton_manifest.id,
            )
            .to_string(),
        };
        let shown = shown_meshes(work, &place, skeleton_manifest)?;
        for (((shown, own), bone), dressed_bone) in shown
            .into_iter()
            .zip(own.iter_mut())
            .zip(&body.bones)
            .zip(&skeleton_manifest.bones)
        {
            let Some(expected) = bone.mesh.fingerprint.as_deref() else {
                continue;
            };
            // A bone the skeleton's glTF shows no mesh at has nothing to carry.
            if shown.vertices.is_empty() || fingerprint(&shown) == expected {
                continue;
            }
            if fingerprint(own) != expected {
                return Err(body_place.error(
                    Some(format!("bone {}", bone.name)),
                    format!(
                        "its mesh is edited both in its own glTF and in {} (bone {}, which it dresses); keep the \
                         edit in one of them (undo the other), or the other would be lost",
                        place.file.display(),
                        dressed_bone.name
                    ),
                ));
            }
            work.notes.push(format!(
                "{}: bone {}'s mesh edited in the glTF of {} (bone {}), which it dresses, is carried into its own",
                body_place.object, bone.name, place.object, dressed_bone.name
            ));
            *own = shown;
        }
    }
    Ok(())
}

/// The meshes the glTF of the dressed skeleton `m` shows, one per bone in its bones' order.
fn shown_meshes(
    work: &mut ObjectWork,
    place: &Place,
    m: &MoveableManifest,
) -> Result<Vec<RawMesh>, BuildError> {
    let fail = |e: String| place.error(None, e);
    let scene = work.read(&place.file).map_err(fail)?;
    let skinned: Vec<&MeshNode> = scene.meshes.iter().filter(|n| n.skin.is_some()).collect();
    let names: Vec<String> = m.bones.iter().map(|b| b.name.clone()).collect();
    let (skeleton, _) = crate::skeleton::skeleton(&scene, &skinned, &names).map_err(fail)?;
    let shown = BoneMeshes::new(&scene, &skeleton, work.tr_units_per_metre, &mut work.images);
    shown.gather(&shown.shown()).map_err(fail)
}

/// The fingerprint of a mesh's positions, as the manifest keeps it.
fn fingerprint(raw: &RawMesh) -> String {
    format!("{:016x}", raw.untextured().positions_fingerprint())
}
