//! Assembling a WAD from a destination's objects, minus some, plus objects of a source: the one
//! step behind `copy` (replace or join) and `remove` (drop).
//!
//! The destination's other objects keep their meshes, animations and samples exactly; what only
//! the dropped objects used goes, what the incoming objects need comes along (meshes shared
//! between them stay shared), and animation references across objects are resolved before and
//! encoded again after, so they keep naming the same animation.

use std::collections::{BTreeSet, HashMap, HashSet};

use wadforge_format::catalog::Game;
use wadforge_format::{MeshIndex, Static, Wad};

use crate::references::{self, AnimationRef, Targets};
use crate::select::ObjectRef;
use crate::texture::{self, TextureReport};
use crate::EditError;

/// A WAD or level's objects, with what is needed to read their cross-object references.
pub struct Input<'a> {
    pub wad: &'a Wad,
    /// The game whose catalogue names the objects (TR4 for WADs).
    pub game: Game,
    /// Where each moveable's animations started in the file's animation table (see
    /// [`references::layout_starts`] and [`references::canonical_starts`]).
    pub starts: Vec<usize>,
}

impl<'a> Input<'a> {
    /// Objects whose animation table is laid out canonically (levels, and WADs written canonically).
    pub fn canonical(wad: &'a Wad, game: Game) -> Self {
        Input {
            wad,
            game,
            starts: references::canonical_starts(&wad.moveables),
        }
    }
}

/// An animation reference that lost its target.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BrokenReference {
    /// The object holding the reference, e.g. `BEAR (moveable 8)`.
    pub object: String,
    pub animation: usize,
    /// `next animation`, or `state change 1 (state 3), dispatch 0`.
    pub reference: String,
    /// What it named, e.g. `animation 0 of WOLF (moveable 7) in the source`.
    pub target: String,
}

impl std::fmt::Display for BrokenReference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, animation {}, {}: named {}, which is not in the output; it now points at animation {} itself",
            self.object, self.animation, self.reference, self.target, self.animation
        )
    }
}

/// The assembled WAD and what happened on the way.
pub struct Merged {
    pub wad: Wad,
    pub broken: Vec<BrokenReference>,
    pub textures: TextureReport,
    /// Meshes, samples and pages of the destination that nothing used any more.
    pub dropped_meshes: usize,
    pub dropped_samples: usize,
    pub dropped_pages: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Entry {
    Dest(usize),
    /// An incoming object: its position in the source list and its id in the output.
    Src(usize, u32),
}

/// `dest` without the objects of `drop` and without those of the same kind and id as an
/// incoming one, with the incoming objects of `src` (each with its id in the output): a
/// replacing object takes the place of the one it replaces, a joining one goes before the first
/// object of a higher id.
pub fn merge(
    dest: &Input,
    drop: &[ObjectRef],
    src: Option<(&Input, &[(ObjectRef, u32)])>,
) -> Result<Merged, EditError> {
    let d = dest.wad;
    let incoming: &[(ObjectRef, u32)] = src.map_or(&[], |(_, objects)| objects);
    let incoming_moveables: Vec<(usize, u32)> = incoming
        .iter()
        .filter_map(|&(o, id)| match o {
            ObjectRef::Moveable(j) => Some((j, id)),
            _ => None,
        })
        .collect();
    let incoming_statics: Vec<(usize, u32)> = incoming
        .iter()
        .filter_map(|&(o, id)| match o {
            ObjectRef::Static(j) => Some((j, id)),
            _ => None,
        })
        .collect();
    let dropped: HashSet<ObjectRef> = drop.iter().copied().collect();
    let moveable_entries = entries(
        d.moveables.iter().map(|m| m.id),
        |i| dropped.contains(&ObjectRef::Moveable(i)),
        &incoming_moveables,
    );
    let static_entries = entries(
        d.statics.iter().map(|s| s.id),
        |i| dropped.contains(&ObjectRef::Static(i)),
        &incoming_statics,
    );

    // Meshes and samples of the destination: kept unless only dropped objects used them.
    let kept_moveables: HashSet<usize> = dest_positions(&moveable_entries).collect();
    let kept_statics: HashSet<usize> = dest_positions(&static_entries).collect();
    let mut used_by_kept = vec![false; d.meshes.len()];
    let mut used_by_dropped = vec![false; d.meshes.len()];
    for (i, m) in d.moveables.iter().enumerate() {
        let used = if kept_moveables.contains(&i) {
            &mut used_by_kept
        } else {
            &mut used_by_dropped
        };
        for &k in &m.meshes {
            if let Some(u) = used.get_mut(k) {
                *u = true;
            }
        }
    }
    for (i, s) in d.statics.iter().enumerate() {
        let used = if kept_statics.contains(&i) {
            &mut used_by_kept
        } else {
            &mut used_by_dropped
        };
        if s.mesh < used.len() {
            used[s.mesh] = true;
        }
    }
    let keep_mesh: Vec<bool> = (0..d.meshes.len())
        .map(|k| used_by_kept[k] || !used_by_dropped[k])
        .collect();
    let mut sample_kept = vec![false; d.samples.len()];
    let mut sample_dropped = vec![false; d.samples.len()];
    for (k, mesh) in d.meshes.iter().enumerate() {
        let used = if keep_mesh[k] {
            &mut sample_kept
        } else {
            &mut sample_dropped
        };
        for p in &mesh.polygons {
            if let Some(u) = used.get_mut(p.texture.sample as usize) {
                *u = true;
            }
        }
    }
    let keep_sample: Vec<bool> = (0..d.samples.len())
        .map(|s| sample_kept[s] || !sample_dropped[s])
        .collect();
    let sample_map = renumber(&keep_sample);
    let mesh_map = renumber(&keep_mesh);

    let mut out = Wad {
        version: d.version,
        samples: d
            .samples
            .iter()
            .zip(&keep_sample)
            .filter(|(_, &k)| k)
            .map(|(s, _)| *s)
            .collect(),
        pages: d.pages.clone(),
        meshes: Vec::new(),
        moveables: Vec::new(),
        statics: Vec::new(),
    };
    for (mesh, _) in d.meshes.iter().zip(&keep_mesh).filter(|(_, &k)| k) {
        let mut mesh = mesh.clone();
        for p in &mut mesh.polygons {
            if let Some(Some(s)) = sample_map.get(p.texture.sample as usize) {
                p.texture.sample = *s as u16;
            }
        }
        out.meshes.push(mesh);
    }

    // The incoming objects' meshes (shared ones once) and samples (by texels).
    let mut src_mesh_map: HashMap<MeshIndex, MeshIndex> = HashMap::new();
    let mut textures = TextureReport::default();
    if let Some((s, _)) = src {
        let w = s.wad;
        let mut order: Vec<MeshIndex> = Vec::new();
        let mut seen = HashSet::new();
        for &(o, _) in incoming {
            let meshes: Vec<MeshIndex> = match o {
                ObjectRef::Moveable(j) => w.moveables[j].meshes.clone(),
                ObjectRef::Static(j) => vec![w.statics[j].mesh],
            };
            for k in meshes {
                if k >= w.meshes.len() {
                    return Err(EditError::NoMesh {
                        object: o.describe(w, s.game),
                        mesh: k,
                        meshes: w.meshes.len(),
                    });
                }
                if seen.insert(k) {
                    order.push(k);
                }
            }
        }
        let used_samples: BTreeSet<usize> = order
            .iter()
            .flat_map(|&k| w.meshes[k].polygons.iter().map(|p| p.texture.sample as usize))
            .collect();
        let used_samples: Vec<usize> = used_samples.into_iter().collect();
        let wanted = used_samples
            .iter()
            .map(|&i| Ok((texture::texels(w, i)?, w.samples[i])))
            .collect::<Result<Vec<_>, EditError>>()?;
        let (placed, report) = texture::place(&mut out, &wanted)?;
        textures = report;
        let sample_of: HashMap<usize, usize> = used_samples.into_iter().zip(placed).collect();
        for k in order {
            let mut mesh = w.meshes[k].clone();
            for p in &mut mesh.polygons {
                p.texture.sample = to_sample_index(
                    sample_of[&(p.texture.sample as usize)],
                    p.is_quad,
                    p.texture.flipped,
                )?;
            }
            src_mesh_map.insert(k, out.meshes.len());
            out.meshes.push(mesh);
        }
    }

    // Pages that only dropped samples used.
    let mut page_used = vec![false; out.pages.len()];
    let mut page_was_used = vec![false; out.pages.len()];
    for s in &out.samples {
        if let Some(u) = page_used.get_mut(s.page as usize) {
            *u = true;
        }
    }
    for s in &d.samples {
        if let Some(u) = page_was_used.get_mut(s.page as usize) {
            *u = true;
        }
    }
    let keep_page: Vec<bool> = (0..out.pages.len())
        .map(|p| page_used[p] || !page_was_used[p])
        .collect();
    let page_map = renumber(&keep_page);
    let dropped_pages = keep_page.iter().filter(|k| !**k).count();
    if dropped_pages > 0 {
        out.pages = std::mem::take(&mut out.pages)
            .into_iter()
            .zip(&keep_page)
            .filter(|(_, &k)| k)
            .map(|(p, _)| p)
            .collect();
        for s in &mut out.samples {
            if let Some(Some(p)) = page_map.get(s.page as usize) {
                s.page = *p as u16;
            }
        }
    }

    // Objects, and their animation references.
    let dest_targets = references::resolve(&d.moveables, &dest.starts);
    let src_targets = src.map(|(s, _)| references::resolve(&s.wad.moveables, &s.starts));
    let new_position: HashMap<Entry, usize> = moveable_entries
        .iter()
        .enumerate()
        .map(|(n, &e)| (e, n))
        .collect();
    let dest_by_id = |id: u32| {
        moveable_entries
            .iter()
            .position(|e| matches!(*e, Entry::Src(_, i) if i == id))
    };
    let mut broken = Vec::new();
    let mut all_targets = Vec::with_capacity(moveable_entries.len());
    for &entry in &moveable_entries {
        let (moveable, targets, owner) = match entry {
            Entry::Dest(i) => {
                let mut m = d.moveables[i].clone();
                m.meshes.iter_mut().for_each(|k| *k = mesh_map[*k].unwrap_or(*k));
                (m, &dest_targets[i], ObjectRef::Moveable(i).describe(d, dest.game))
            }
            Entry::Src(j, id) => {
                let (s, _) = src.expect("incoming objects come with a source");
                let mut m = s.wad.moveables[j].clone();
                m.id = id;
                m.meshes.iter_mut().for_each(|k| *k = src_mesh_map[k]);
                (
                    m,
                    &src_targets.as_ref().expect("source targets")[j],
                    ObjectRef::Moveable(j).describe(s.wad, s.game),
                )
            }
        };
        // Where a target now is: the same object, or for a replaced destination object the
        // object that replaced it, if it has that animation.
        let map = |t: AnimationRef| -> Option<AnimationRef> {
            let position = match entry {
                Entry::Dest(_) => new_position
                    .get(&Entry::Dest(t.moveable))
                    .copied()
                    .or_else(|| dest_by_id(d.moveables[t.moveable].id)),
                Entry::Src(..) => moveable_entries
                    .iter()
                    .position(|e| matches!(*e, Entry::Src(j, _) if j == t.moveable)),
            }?;
            let length = match moveable_entries[position] {
                Entry::Dest(i) => d.moveables[i].animations.len(),
                Entry::Src(j, _) => src.map_or(0, |(s, _)| s.wad.moveables[j].animations.len()),
            };
            (t.animation < length).then_some(AnimationRef {
                moveable: position,
                animation: t.animation,
            })
        };
        let name_target = |t: Option<AnimationRef>| -> String {
            match (t, entry) {
                (None, _) => "no animation of its file".to_string(),
                (Some(t), Entry::Dest(_)) => format!(
                    "animation {} of {}",
                    t.animation,
                    ObjectRef::Moveable(t.moveable).describe(d, dest.game)
                ),
                (Some(t), Entry::Src(..)) => {
                    let (s, _) = src.expect("source");
                    format!(
                        "animation {} of {} in the source",
                        t.animation,
                        ObjectRef::Moveable(t.moveable).describe(s.wad, s.game)
                    )
                }
            }
        };
        let mut new_targets = Vec::with_capacity(targets.len());
        for (a, t) in targets.iter().enumerate() {
            let mut check = |t: Option<AnimationRef>, reference: String| {
                let mapped = t.and_then(map);
                if mapped.is_none() {
                    broken.push(BrokenReference {
                        object: owner.clone(),
                        animation: a,
                        reference,
                        target: name_target(t),
                    });
                }
                mapped
            };
            let next = check(t.next, "next animation".into());
            let dispatches = t
                .dispatches
                .iter()
                .enumerate()
                .map(|(c, ds)| {
                    ds.iter()
                        .enumerate()
                        .map(|(k, &t)| {
                            let state = moveable.animations[a].state_changes[c].state;
                            check(t, format!("state change {c} (state {state}), dispatch {k}"))
                        })
                        .collect()
                })
                .collect();
            new_targets.push(Targets { next, dispatches });
        }
        all_targets.push(new_targets);
        out.moveables.push(moveable);
    }
    references::encode(&mut out.moveables, &all_targets);

    for &entry in &static_entries {
        out.statics.push(match entry {
            Entry::Dest(i) => {
                let s = d.statics[i];
                Static {
                    mesh: mesh_map[s.mesh].unwrap_or(s.mesh),
                    ..s
                }
            }
            Entry::Src(j, id) => {
                let (src, _) = src.expect("incoming objects come with a source");
                let s = src.wad.statics[j];
                Static {
                    id,
                    mesh: src_mesh_map[&s.mesh],
                    ..s
                }
            }
        });
    }
    Ok(Merged {
        wad: out,
        broken,
        textures,
        dropped_meshes: keep_mesh.iter().filter(|k| !**k).count(),
        dropped_samples: keep_sample.iter().filter(|k| !**k).count(),
        dropped_pages,
    })
}

/// The output's object list for one kind: destination objects in order, a replacing incoming
/// object where the first object of its id was, the others before the first higher id.
fn entries(
    dest_ids: impl Iterator<Item = u32>,
    dropped: impl Fn(usize) -> bool,
    incoming: &[(usize, u32)],
) -> Vec<Entry> {
    let dest_ids: Vec<u32> = dest_ids.collect();
    let mut placed = vec![false; incoming.len()];
    let mut list = Vec::new();
    for (i, &id) in dest_ids.iter().enumerate() {
        match incoming.iter().position(|&(_, new)| new == id) {
            // A second destination object of the same id is dropped with the first.
            Some(n) if !placed[n] => {
                placed[n] = true;
                list.push(Entry::Src(incoming[n].0, id));
            }
            Some(_) => {}
            None if !dropped(i) => list.push(Entry::Dest(i)),
            None => {}
        }
    }
    let id_of = |e: &Entry| match *e {
        Entry::Dest(i) => dest_ids[i],
        Entry::Src(_, id) => id,
    };
    for (n, &(j, id)) in incoming.iter().enumerate() {
        if !placed[n] {
            let at = list.iter().position(|e| id_of(e) > id).unwrap_or(list.len());
            list.insert(at, Entry::Src(j, id));
        }
    }
    list
}

fn dest_positions(entries: &[Entry]) -> impl Iterator<Item = usize> + '_ {
    entries.iter().filter_map(|e| match *e {
        Entry::Dest(i) => Some(i),
        Entry::Src(..) => None,
    })
}

/// New positions of the kept items, `None` for dropped ones.
fn renumber(keep: &[bool]) -> Vec<Option<usize>> {
    let mut next = 0;
    keep.iter()
        .map(|&k| {
            k.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Triangles reach samples 0..4096, quads 0..32768 (a flipped quad's index is negated, so not 0).
fn to_sample_index(index: usize, is_quad: bool, flipped: bool) -> Result<u16, EditError> {
    let limit = if is_quad { 0x8000 } else { 0x1000 };
    if index >= limit || (is_quad && flipped && index == 0) {
        return Err(EditError::SampleUnreachable {
            sample: index,
            polygon: if is_quad { "quad" } else { "triangle" },
            limit,
        });
    }
    Ok(index as u16)
}
