//! The assembly, once for all objects: the model (the base WAD, or an empty one) takes the new
//! samples, pages and meshes; each bone and static takes its mesh (shared ones resolved); the
//! moveables get their keyframe boxes; the directory's objects replace the base's of the same
//! id, or are added; and the slot names of the model's objects.

use std::collections::HashMap;
use std::path::Path;

use wadforge_format::catalog::{self, Game};
use wadforge_format::{BoundingBox, Moveable, ObjectKind, ObjectName, Static, Wad};

use super::keyframe_boxes::with_keyframe_boxes;
use super::meshes::add_meshes;
use super::shared_meshes::SharedMeshes;
use super::{Objects, PendingMoveable, PendingStatic};
use crate::error::{BuildError, Place};
use crate::texture::Textures;

/// The model of `objects` textured by `textures`, on top of `base` when given, and its slot
/// names (moveables then statics); `root` is the directory, for errors; notes what it
/// recomputed; `input_bytes`, the build's input, bounds its posing.
pub(super) fn assemble(
    root: &Path,
    base: Option<&Wad>,
    game: Game,
    objects: Objects,
    textures: Textures,
    (notes, input_bytes): (&mut Vec<String>, u64),
) -> Result<(Wad, Vec<String>), BuildError> {
    let mut wad = base.cloned().unwrap_or(Wad {
        version: Wad::VERSION,
        ..Wad::default()
    });
    wad.samples.extend(textures.samples);
    wad.pages.extend(textures.pages);
    let built = add_meshes(&mut wad, objects.meshes, textures.polygons);

    let shared = SharedMeshes::new(&objects.moveables, &objects.statics, &built, base, game);
    let mut resolved = Vec::with_capacity(objects.moveables.len());
    for m in &objects.moveables {
        resolved.push((m, shared.moveable_meshes(m)?));
    }
    let (moveables, recomputed) = with_keyframe_boxes(&wad, &resolved, input_bytes)?;
    if recomputed > 0 {
        notes.push(format!(
            "{recomputed} keyframe bounding boxes were recomputed from the posed meshes (edited poses)"
        ));
    }
    let statics = (objects.statics.iter())
        .map(|s| finish_static(root, &shared, s))
        .collect::<Result<Vec<_>, _>>()?;

    put_objects(&mut wad, moveables, statics);
    let names = slot_names(&wad, &objects.moveables, &objects.statics, game);
    Ok((wad, names))
}

/// A static of the directory with its mesh resolved.
fn finish_static(root: &Path, shared: &SharedMeshes, s: &PendingStatic) -> Result<Static, BuildError> {
    let place = Place {
        file: root.to_path_buf(),
        object: ObjectName::with_slot(&s.manifest.slot, ObjectKind::Static, s.manifest.id).to_string(),
    };
    let mesh = shared.resolve(&s.mesh, &place, "mesh")?;
    Ok(Static {
        id: s.manifest.id,
        mesh,
        visibility: BoundingBox {
            min: s.manifest.visibility_box.min,
            max: s.manifest.visibility_box.max,
        },
        collision: BoundingBox {
            min: s.manifest.collision_box.min,
            max: s.manifest.collision_box.max,
        },
        flags: s.manifest.flags,
    })
}

/// Objects of the directory replace the model's of the same id, or are added.
fn put_objects(wad: &mut Wad, moveables: Vec<Moveable>, statics: Vec<Static>) {
    for m in moveables {
        match wad.moveables.iter_mut().find(|x| x.id == m.id) {
            Some(existing) => *existing = m,
            None => wad.moveables.push(m),
        }
    }
    for s in statics {
        match wad.statics.iter_mut().find(|x| x.id == s.id) {
            Some(existing) => *existing = s,
            None => wad.statics.push(s),
        }
    }
}

/// The slot name of every object of `wad` in file order, moveables then statics: the
/// directory's, else the catalogue's (a base WAD's objects).
fn slot_names(
    wad: &Wad,
    moveables: &[PendingMoveable],
    statics: &[PendingStatic],
    game: Game,
) -> Vec<String> {
    let slot_of: HashMap<u32, &str> = moveables.iter().map(|m| (m.id, m.slot.as_str())).collect();
    let static_slot_of: HashMap<u32, &str> = statics
        .iter()
        .map(|s| (s.manifest.id, s.manifest.slot.as_str()))
        .collect();
    wad.moveables
        .iter()
        .map(|m| {
            slot_of
                .get(&m.id)
                .map_or_else(|| catalog::moveable_slot(game, m.id), |s| s.to_string())
        })
        .chain(wad.statics.iter().map(|s| {
            static_slot_of
                .get(&s.id)
                .map_or_else(|| catalog::static_slot(game, s.id), |n| n.to_string())
        }))
        .collect()
}
