//! The assembly, once for all objects: the model (the base WAD, or an empty one) takes the new
//! samples, pages and meshes; each bone and static takes its mesh (shared ones resolved); the
//! moveables get their keyframe boxes; the directory's objects replace the base's of the same
//! id, or are added (on a base, before its first object of a higher id, as `copy` adds them);
//! references across objects are pointed at their animations ([`super::references`]); and the
//! slot names of the model's objects.

use std::collections::HashMap;
use std::path::Path;

use wadforge_format::catalog::{self, Game};
use wadforge_format::references::resolve;
use wadforge_format::{BoundingBox, Moveable, MoveableIndex, ObjectKind, ObjectName, Static, Wad};

use super::keyframe_boxes::with_keyframe_boxes;
use super::meshes::add_meshes;
use super::references::{relink, BaseTargets, Origin};
use super::shared_meshes::SharedMeshes;
use super::{Base, Objects, PendingMoveable, PendingStatic};
use crate::error::{BuildError, Place};
use crate::texture::Textures;

/// What the assembly tells the user: what it recomputed (notes), and references whose target
/// the output does not have (warnings).
pub(super) struct Told<'a> {
    pub notes: &'a mut Vec<String>,
    pub warnings: &'a mut Vec<String>,
}

/// The model of `objects` textured by `textures`, on top of `base` when given, and its slot
/// names (moveables then statics); `root` is the directory, for errors; `input_bytes`, the
/// build's input, bounds its posing.
pub(super) fn assemble(
    root: &Path,
    base: Option<&Base>,
    game: Game,
    objects: Objects,
    textures: Textures,
    (told, input_bytes): (Told, u64),
) -> Result<(Wad, Vec<String>), BuildError> {
    // The base's references, resolved in its own table before its objects move.
    let base_targets = base.map(|b| BaseTargets {
        wad: b.model,
        targets: resolve(&b.model.moveables, &b.starts),
    });
    let base = base.map(|b| b.model);
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
        told.notes.push(format!(
            "{recomputed} keyframe bounding boxes were recomputed from the posed meshes (edited poses)"
        ));
    }
    let statics = (objects.statics.iter())
        .map(|s| finish_static(root, &shared, s))
        .collect::<Result<Vec<_>, _>>()?;

    let origins = put_objects(&mut wad, moveables, statics, base.is_some());
    let warnings = relink(
        &mut wad,
        &origins,
        base_targets.as_ref(),
        &objects.moveables,
        game,
    );
    told.warnings.extend(warnings);
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

/// Objects of the directory replace the model's of the same id, or are added: on a base
/// (`by_id`), before its first object of a higher id, as `copy` adds them (and a moveable with
/// keyframes before one whose keyframes stay last, [`wadforge_format::moveable_insertion_point`]);
/// otherwise in the directory's order. Where each moveable of the model came from.
fn put_objects(wad: &mut Wad, moveables: Vec<Moveable>, statics: Vec<Static>, by_id: bool) -> Vec<Origin> {
    let mut origins: Vec<Origin> = MoveableIndex::all(&wad.moveables).map(Origin::Base).collect();
    for (index, m) in moveables.into_iter().enumerate() {
        match wad.moveables.iter().position(|x| x.id == m.id) {
            Some(p) => {
                let replaced = match origins[p] {
                    Origin::Base(i) => Some(i),
                    Origin::Directory { replaced, .. } => replaced,
                };
                wad.moveables[p] = m;
                origins[p] = Origin::Directory { index, replaced };
            }
            None => {
                let at = if by_id {
                    let placed = wad.moveables.iter().map(|x| (x.id, x.keyframes_stay_last()));
                    wadforge_format::moveable_insertion_point(placed, m.id, m.has_keyframe_words())
                } else {
                    wad.moveables.len()
                };
                wad.moveables.insert(at, m);
                origins.insert(
                    at,
                    Origin::Directory {
                        index,
                        replaced: None,
                    },
                );
            }
        }
    }
    for s in statics {
        match wad.statics.iter_mut().find(|x| x.id == s.id) {
            Some(existing) => *existing = s,
            None => {
                let at = insertion_point(wad.statics.iter().map(|x| x.id), s.id, by_id);
                wad.statics.insert(at, s);
            }
        }
    }
    origins
}

/// Where an object of id `id` joins objects of `ids`: before the first of a higher id when
/// `by_id`, else last.
fn insertion_point(mut ids: impl ExactSizeIterator<Item = u32>, id: u32, by_id: bool) -> usize {
    let count = ids.len();
    if !by_id {
        return count;
    }
    ids.position(|x| x > id).unwrap_or(count)
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
