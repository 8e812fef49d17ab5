//! Shared meshes: a bone or static that is `same_as` another object's takes that mesh, followed
//! through the directory's objects to a built mesh or to the base WAD's.

use std::collections::HashMap;

use wadforge_format::catalog::{self, Game};
use wadforge_format::{MeshIndex, Wad};
use wadforge_manifests::MeshRef;

use super::{MeshSlot, PendingMoveable, PendingStatic};
use crate::error::{BuildError, Place};

/// The mesh slots of the directory's objects by what a `same_as` names, the model's index of
/// each built mesh, and the base WAD.
pub(super) struct SharedMeshes<'a> {
    by_bone: HashMap<(u32, &'a str), &'a MeshSlot>,
    by_static: HashMap<u32, &'a MeshSlot>,
    built: &'a [MeshIndex],
    base: Option<&'a Wad>,
    game: Game,
}

impl<'a> SharedMeshes<'a> {
    pub(super) fn new(
        moveables: &'a [PendingMoveable],
        statics: &'a [PendingStatic],
        built: &'a [MeshIndex],
        base: Option<&'a Wad>,
        game: Game,
    ) -> Self {
        let mut by_bone: HashMap<(u32, &str), &MeshSlot> = HashMap::new();
        for m in moveables {
            for (bone, slot) in m.bones.iter().zip(&m.meshes) {
                by_bone.insert((m.id, bone.as_str()), slot);
            }
        }
        let by_static = statics.iter().map(|s| (s.manifest.id, &s.mesh)).collect();
        SharedMeshes {
            by_bone,
            by_static,
            built,
            base,
            game,
        }
    }

    /// The model's mesh of each bone of `m`.
    pub(super) fn moveable_meshes(&self, m: &PendingMoveable) -> Result<Vec<MeshIndex>, BuildError> {
        m.bones
            .iter()
            .zip(&m.meshes)
            .map(|(bone, slot)| self.resolve(slot, &m.place, &format!("bone {bone}")))
            .collect()
    }

    /// The model's mesh for `slot` (`what` of the object at `place`, for errors).
    pub(super) fn resolve(
        &self,
        slot: &MeshSlot,
        place: &Place,
        what: &str,
    ) -> Result<MeshIndex, BuildError> {
        let mut slot = slot;
        for _ in 0..64 {
            let r = match slot {
                MeshSlot::Built(i) => return Ok(self.built[*i]),
                MeshSlot::Same(r) => r,
            };
            let next = match r {
                MeshRef::Moveable { id, bone } => self.by_bone.get(&(*id, bone.as_str())).copied(),
                MeshRef::Static { id } => self.by_static.get(id).copied(),
            };
            match next {
                Some(n) => slot = n,
                None => {
                    return base_mesh(self.base, self.game, r)
                        .ok_or_else(|| place.error(Some(what.to_string()), named_nowhere(r)))
                }
            }
        }
        Err(place.error(Some(what.to_string()), "same_as references form a loop"))
    }
}

/// What to do about a `same_as` that names a mesh neither the directory nor the base WAD has.
fn named_nowhere(r: &MeshRef) -> String {
    format!(
        "same_as names {r:?}, which is neither in this directory nor in the base WAD; \
         import that object too or build with --base"
    )
}

/// A mesh of the base WAD that a `same_as` names: bones by the names import gives them.
fn base_mesh(base: Option<&Wad>, game: Game, r: &MeshRef) -> Option<MeshIndex> {
    let base = base?;
    match r {
        MeshRef::Static { id } => base.statics.iter().find(|s| s.id == *id).map(|s| s.mesh),
        MeshRef::Moveable { id, bone } => {
            let m = base.moveables.iter().find(|m| m.id == *id)?;
            let index = match catalog::mesh_names(game, *id) {
                Some(names) if names.len() == m.meshes.len() => names.iter().position(|n| n == bone),
                _ => bone.strip_prefix("mesh_").and_then(|n| n.parse().ok()),
            }?;
            m.meshes.get(index).copied()
        }
    }
}
