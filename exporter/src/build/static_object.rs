//! One static from its manifest and glTF: its one mesh (every mesh node of the glTF, placed by
//! its rest transform), or the same as another object's.

use std::path::Path;

use wadforge_format::{ObjectKind, ObjectName};
use wadforge_manifests::gltf_contract::STATIC_MESH;
use wadforge_manifests::StaticManifest;

use super::object::ObjectWork;
use super::{MeshSlot, PendingMesh, PendingStatic};
use crate::bone_meshes::add_images;
use crate::error::{BuildError, Place};
use crate::geometry::{gather, RawMesh, Target};
use crate::input::{MeshNode, Scene};
use crate::skeleton::world_rest;

/// Builds the static of manifest `s` from its glTF.
pub(super) fn build_static(
    work: &mut ObjectWork,
    s: &StaticManifest,
    gltf_path: &Path,
) -> Result<PendingStatic, BuildError> {
    let place = Place {
        file: gltf_path.to_path_buf(),
        object: ObjectName::with_slot(&s.slot, ObjectKind::Static, s.id).to_string(),
    };
    let scene = work.read(gltf_path).map_err(|e| place.error(None, e))?;
    let mesh = match s.mesh.same_as.clone() {
        Some(r) => MeshSlot::Same(r),
        None => {
            let raw = static_mesh(work, &scene).map_err(|e| place.error(None, e))?;
            work.notes.extend(raw.removed_note(&place.object, "mesh"));
            work.add_mesh(PendingMesh {
                raw,
                info: s.mesh.clone(),
                place: place.clone(),
                what: "mesh".into(),
            })
        }
    };
    Ok(PendingStatic {
        manifest: s.clone(),
        mesh,
    })
}

/// The static's mesh: every mesh node of `scene` in the static's space, its images added to the
/// object's.
fn static_mesh(work: &mut ObjectWork, scene: &Scene) -> Result<RawMesh, String> {
    let nodes: Vec<&MeshNode> = scene.meshes.iter().collect();
    let (first_image, solid) = add_images(&mut work.images, scene);
    let stored = [scene.stored.get(STATIC_MESH)];
    let target = Target {
        scene,
        meshes: 1,
        tr_units_per_metre: work.tr_units_per_metre,
        pivots: &[[0.0; 3]],
        stored: &stored,
        first_image,
        solid_images: &solid,
    };
    let world = |n: &MeshNode| world_rest(scene, n.node);
    let mut gathered = gather(&target, &nodes, &|_, _, _| Some(0), &world)?;
    Ok(gathered.remove(0))
}
