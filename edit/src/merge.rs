//! Assembling a WAD from a destination's objects, minus some, plus objects of a source: the one
//! step behind `copy` (replace or join) and `remove` (drop).
//!
//! The destination's other objects keep their meshes, animations and samples exactly; what only
//! the dropped objects used goes, what the incoming objects need comes along (meshes shared
//! between them stay shared), and animation references across objects are resolved before and
//! encoded again after, so they keep naming the same animation.

use std::collections::{BTreeSet, HashMap, HashSet};

use wadforge_format::catalog::Game;
use wadforge_format::{Animation, MeshIndex, Moveable, MoveableIndex, Static, StaticIndex, Wad};

use crate::references::{self, AnimationRef, Targets};
use crate::texture::{self, TextureReport};
use crate::EditError;
use wadforge_format::selection::ObjectRef;

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

/// References that lost their target listed; past them, only counted (a file may hold one for
/// every 8 bytes, and each listed takes some 230 bytes).
pub const LISTED_BROKEN: usize = 200;

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
    /// The first [`LISTED_BROKEN`] references that lost their target, and how many more did.
    pub broken: Vec<BrokenReference>,
    pub broken_unlisted: usize,
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
    let dropped: HashSet<ObjectRef> = drop.iter().copied().collect();
    let src_moveables: &[Moveable] = src.map_or(&[], |(s, _)| &s.wad.moveables);
    let moveable_entries = entries(
        d.moveables.iter().map(|m| m.id),
        |i| dropped.contains(&ObjectRef::Moveable(MoveableIndex(i))),
        &incoming_of_kind(incoming, true),
        Keyframes {
            stay_last: &|e| match *e {
                Entry::Dest(i) => d.moveables[i].keyframes_stay_last(),
                Entry::Src(j, _) => src_moveables[j].keyframes_stay_last(),
            },
            stored: &|j| src_moveables[j].has_keyframe_words(),
        },
    );
    let static_entries = entries(
        d.statics.iter().map(|s| s.id),
        |i| dropped.contains(&ObjectRef::Static(StaticIndex(i))),
        &incoming_of_kind(incoming, false),
        Keyframes {
            stay_last: &|_| false,
            stored: &|_| false,
        },
    );
    let kept = Kept::new(d, &moveable_entries, &static_entries);
    let mut out = kept.destination(d);
    let (src_mesh_map, textures) = match src {
        Some((s, _)) => bring_meshes(&mut out, s, incoming)?,
        None => Default::default(),
    };
    let dropped_pages = drop_unused_pages(&mut out, d);
    let meshes = MeshMaps {
        dest: &kept.mesh_map,
        src: &src_mesh_map,
    };
    let sides = Sides::new(dest, src.map(|(s, _)| s), &moveable_entries);
    let (broken, broken_unlisted) = place_moveables(&mut out, &sides, &meshes);
    place_statics(&mut out, &sides, &static_entries, &meshes);
    Ok(Merged {
        wad: out,
        broken,
        broken_unlisted,
        textures,
        dropped_meshes: kept.keep_mesh.iter().filter(|k| !**k).count(),
        dropped_samples: kept.keep_sample.iter().filter(|k| !**k).count(),
        dropped_pages,
    })
}

/// The incoming moveables (`moveables`) or statics: their places in the source and ids in the output.
fn incoming_of_kind(incoming: &[(ObjectRef, u32)], moveables: bool) -> Vec<(usize, u32)> {
    incoming
        .iter()
        .filter_map(|&(o, id)| match o {
            ObjectRef::Moveable(MoveableIndex(j)) if moveables => Some((j, id)),
            ObjectRef::Static(StaticIndex(j)) if !moveables => Some((j, id)),
            _ => None,
        })
        .collect()
}

/// Which meshes and samples of the destination stay: all but those only dropped objects used.
struct Kept {
    keep_mesh: Vec<bool>,
    keep_sample: Vec<bool>,
    mesh_map: Vec<Option<usize>>,
    sample_map: Vec<Option<usize>>,
}

impl Kept {
    fn new(d: &Wad, moveable_entries: &[Entry], static_entries: &[Entry]) -> Kept {
        let kept_moveables: HashSet<usize> = dest_positions(moveable_entries).collect();
        let kept_statics: HashSet<usize> = dest_positions(static_entries).collect();
        let mut mesh_use = Use::new(d.meshes.len());
        for (i, m) in d.moveables.iter().enumerate() {
            for &k in &m.meshes {
                mesh_use.mark(k, kept_moveables.contains(&i));
            }
        }
        for (i, s) in d.statics.iter().enumerate() {
            mesh_use.mark(s.mesh, kept_statics.contains(&i));
        }
        let keep_mesh = mesh_use.keep();
        let mut sample_use = Use::new(d.samples.len());
        for (k, mesh) in d.meshes.iter().enumerate() {
            for p in &mesh.polygons {
                sample_use.mark(p.texture.sample as usize, keep_mesh[k]);
            }
        }
        let keep_sample = sample_use.keep();
        Kept {
            mesh_map: renumber(&keep_mesh),
            sample_map: renumber(&keep_sample),
            keep_mesh,
            keep_sample,
        }
    }

    /// The output so far: the destination's kept samples, its pages, its kept meshes.
    fn destination(&self, d: &Wad) -> Wad {
        let kept = |keep: &[bool]| {
            keep.iter()
                .enumerate()
                .filter(|(_, &k)| k)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let mut meshes = Vec::new();
        for k in kept(&self.keep_mesh) {
            let mut mesh = d.meshes[k].clone();
            for p in &mut mesh.polygons {
                if let Some(Some(s)) = self.sample_map.get(p.texture.sample as usize) {
                    p.texture.sample = *s as u16;
                }
            }
            meshes.push(mesh);
        }
        Wad {
            version: d.version,
            samples: kept(&self.keep_sample)
                .into_iter()
                .map(|s| d.samples[s])
                .collect(),
            pages: d.pages.clone(),
            meshes,
            moveables: Vec::new(),
            statics: Vec::new(),
        }
    }
}

/// Which items kept objects use and which dropped objects use.
struct Use {
    by_kept: Vec<bool>,
    by_dropped: Vec<bool>,
}

impl Use {
    fn new(n: usize) -> Use {
        Use {
            by_kept: vec![false; n],
            by_dropped: vec![false; n],
        }
    }

    /// Out-of-range items (a damaged file's) are ignored: they are nothing to keep.
    fn mark(&mut self, item: usize, by_kept: bool) {
        let used = if by_kept {
            &mut self.by_kept
        } else {
            &mut self.by_dropped
        };
        if let Some(u) = used.get_mut(item) {
            *u = true;
        }
    }

    /// Kept: what a kept object uses, or what no object uses (the destination had it; keep it).
    fn keep(&self) -> Vec<bool> {
        self.by_kept
            .iter()
            .zip(&self.by_dropped)
            .map(|(&kept, &dropped)| kept || !dropped)
            .collect()
    }
}

/// Adds the incoming objects' meshes (shared ones once) to `out`, with their samples placed by
/// texels; returns where each source mesh went.
fn bring_meshes(
    out: &mut Wad,
    s: &Input,
    incoming: &[(ObjectRef, u32)],
) -> Result<(HashMap<MeshIndex, MeshIndex>, TextureReport), EditError> {
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
                    object: o.name(w, s.game).to_string(),
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
    let (placed, textures) = texture::place(out, w, &used_samples)?;
    let sample_of: HashMap<usize, usize> = used_samples.into_iter().zip(placed).collect();
    let mut mesh_map = HashMap::new();
    for k in order {
        let mut mesh = w.meshes[k].clone();
        for p in &mut mesh.polygons {
            p.texture.sample = to_sample_index(
                sample_of[&(p.texture.sample as usize)],
                p.is_quad,
                p.texture.flipped,
            )?;
        }
        mesh_map.insert(k, out.meshes.len());
        out.meshes.push(mesh);
    }
    Ok((mesh_map, textures))
}

/// Drops the pages that only dropped samples used; returns how many.
fn drop_unused_pages(out: &mut Wad, d: &Wad) -> usize {
    let mut page_use = Use::new(out.pages.len());
    for s in &out.samples {
        page_use.mark(s.page as usize, true);
    }
    for s in &d.samples {
        page_use.mark(s.page as usize, false);
    }
    let keep_page = page_use.keep();
    let dropped_pages = keep_page.iter().filter(|k| !**k).count();
    if dropped_pages > 0 {
        let page_map = renumber(&keep_page);
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
    dropped_pages
}

/// Where the destination's kept meshes and the source's incoming meshes went in the output.
struct MeshMaps<'a> {
    dest: &'a [Option<usize>],
    src: &'a HashMap<MeshIndex, MeshIndex>,
}

/// The two inputs and the output's moveable list.
struct Sides<'a> {
    dest: &'a Input<'a>,
    src: Option<&'a Input<'a>>,
    entries: &'a [Entry],
    /// Where each entry, and the first incoming object of each id, is in `entries`: found at
    /// once for each reference (a search of all entries for each made a file of many
    /// references into many objects quadratic).
    positions: HashMap<Entry, usize>,
    first_incoming_of_id: HashMap<u32, usize>,
    incoming_at: HashMap<usize, usize>,
}

impl<'a> Sides<'a> {
    fn new(dest: &'a Input<'a>, src: Option<&'a Input<'a>>, entries: &'a [Entry]) -> Self {
        let (mut positions, mut first_incoming_of_id, mut incoming_at) =
            (HashMap::new(), HashMap::new(), HashMap::new());
        for (position, &e) in entries.iter().enumerate() {
            positions.entry(e).or_insert(position);
            if let Entry::Src(j, id) = e {
                first_incoming_of_id.entry(id).or_insert(position);
                incoming_at.entry(j).or_insert(position);
            }
        }
        Sides {
            dest,
            src,
            entries,
            positions,
            first_incoming_of_id,
            incoming_at,
        }
    }
}

impl Sides<'_> {
    fn source(&self) -> &Input<'_> {
        self.src.expect("incoming objects come with a source")
    }

    /// Where target `t` (of an object of `entry`'s input) is in the output: the same object, or
    /// for a replaced destination object the object that replaced it, if it has that animation.
    fn place_of(&self, entry: Entry, t: AnimationRef) -> Option<AnimationRef> {
        let d = self.dest.wad;
        let position = match entry {
            Entry::Dest(_) => self
                .positions
                .get(&Entry::Dest(t.moveable.0))
                .or_else(|| self.first_incoming_of_id.get(&d.moveables[t.moveable].id)),
            Entry::Src(..) => self.incoming_at.get(&t.moveable.0),
        }
        .copied()?;
        let length = match self.entries[position] {
            Entry::Dest(i) => d.moveables[i].animations.len(),
            Entry::Src(j, _) => self.src.map_or(0, |s| s.wad.moveables[j].animations.len()),
        };
        (t.animation < length).then_some(AnimationRef {
            moveable: MoveableIndex(position),
            animation: t.animation,
        })
    }

    /// Target `t` of an object of `entry`'s input, in that input.
    fn animation_of(&self, entry: Entry, t: AnimationRef) -> &Animation {
        let input = match entry {
            Entry::Dest(_) => self.dest,
            Entry::Src(..) => self.source(),
        };
        &input.wad.moveables[t.moveable].animations[t.animation]
    }

    /// Animation `p` of the output (positions in [`Sides::entries`]), in the input it comes from.
    fn output(&self, p: AnimationRef) -> &Animation {
        let m = match self.entries[p.moveable.0] {
            Entry::Dest(i) => &self.dest.wad.moveables[i],
            Entry::Src(j, _) => &self.source().wad.moveables[j],
        };
        &m.animations[p.animation]
    }

    /// What target `t` of an object of `entry`'s input named, for people.
    fn name_target(&self, entry: Entry, t: Option<AnimationRef>) -> String {
        let Some(t) = t else {
            return "no animation of its file".to_string();
        };
        let (input, where_) = match entry {
            Entry::Dest(_) => (self.dest, ""),
            Entry::Src(..) => (self.source(), " in the source"),
        };
        format!(
            "animation {} of {}{where_}",
            t.animation,
            ObjectRef::Moveable(t.moveable).name(input.wad, input.game)
        )
    }
}

/// Adds the moveables in the output's order, their references encoded for the output's table
/// (each frame as far from its target's first frame as before, which the target's new numbering
/// may move); returns the references whose target is not in the output (the first
/// [`LISTED_BROKEN`], and how many more), which now loop to their own animation's first frame.
fn place_moveables(out: &mut Wad, sides: &Sides, meshes: &MeshMaps) -> (Vec<BrokenReference>, usize) {
    let dest_targets = references::resolve(&sides.dest.wad.moveables, &sides.dest.starts);
    let src_targets = sides
        .src
        .map(|s| references::resolve(&s.wad.moveables, &s.starts));
    let mut broken = Broken::default();
    let mut all_targets = Vec::with_capacity(sides.entries.len());
    for &entry in sides.entries {
        let (mut moveable, targets, owner) = match entry {
            Entry::Dest(i) => {
                let d = sides.dest;
                let mut m = d.wad.moveables[i].clone();
                m.meshes
                    .iter_mut()
                    .for_each(|k| *k = meshes.dest[*k].unwrap_or(*k));
                (
                    m,
                    &dest_targets[i],
                    ObjectRef::Moveable(MoveableIndex(i))
                        .name(d.wad, d.game)
                        .to_string(),
                )
            }
            Entry::Src(j, id) => {
                let s = sides.source();
                let mut m = s.wad.moveables[j].clone();
                m.id = id;
                m.meshes.iter_mut().for_each(|k| *k = meshes.src[k]);
                let targets = &src_targets.as_ref().expect("source targets")[j];
                (
                    m,
                    targets,
                    ObjectRef::Moveable(MoveableIndex(j))
                        .name(s.wad, s.game)
                        .to_string(),
                )
            }
        };
        let mut new_targets = Vec::with_capacity(targets.len());
        for (a, (animation, t)) in moveable.animations.iter_mut().zip(targets).enumerate() {
            let own_first = animation.frame_start;
            let mut relink = |t: Option<AnimationRef>, frame: &mut u16, reference: String| {
                let placed = t.and_then(|t| sides.place_of(entry, t));
                match (placed, t) {
                    (Some(p), Some(t)) => {
                        *frame =
                            references::follow_frame(*frame, sides.animation_of(entry, t), sides.output(p));
                    }
                    _ => {
                        *frame = own_first;
                        broken.push(BrokenReference {
                            object: owner.clone(),
                            animation: a,
                            reference,
                            target: sides.name_target(entry, t),
                        });
                    }
                }
                placed
            };
            let next = relink(t.next, &mut animation.next_frame, "next animation".into());
            let mut dispatches = Vec::with_capacity(t.dispatches.len());
            for (c, (change, ds)) in animation.state_changes.iter_mut().zip(&t.dispatches).enumerate() {
                let state = change.state;
                let placed = (change.dispatches.iter_mut().zip(ds).enumerate()).map(|(k, (d, &t))| {
                    let reference = format!("state change {c} (state {state}), dispatch {k}");
                    relink(t, &mut d.next_frame, reference)
                });
                dispatches.push(placed.collect());
            }
            new_targets.push(Targets { next, dispatches });
        }
        all_targets.push(new_targets);
        out.moveables.push(moveable);
    }
    references::encode(&mut out.moveables, &all_targets);
    (broken.listed, broken.unlisted)
}

/// References that lost their target: the first [`LISTED_BROKEN`], and how many more.
#[derive(Default)]
struct Broken {
    listed: Vec<BrokenReference>,
    unlisted: usize,
}

impl Broken {
    fn push(&mut self, b: BrokenReference) {
        if self.listed.len() == LISTED_BROKEN {
            self.unlisted += 1;
        } else {
            self.listed.push(b);
        }
    }
}

fn place_statics(out: &mut Wad, sides: &Sides, static_entries: &[Entry], meshes: &MeshMaps) {
    for &entry in static_entries {
        out.statics.push(match entry {
            Entry::Dest(i) => {
                let s = sides.dest.wad.statics[i];
                Static {
                    mesh: meshes.dest[s.mesh].unwrap_or(s.mesh),
                    ..s
                }
            }
            Entry::Src(j, id) => {
                let s = sides.source().wad.statics[j];
                Static {
                    id,
                    mesh: meshes.src[&s.mesh],
                    ..s
                }
            }
        });
    }
}

/// What decides where joining moveables go beside keyframes that stay the file's last
/// ([`wadforge_format::moveable_insertion_point`]); nothing for statics.
struct Keyframes<'a> {
    /// Whether an entry's keyframes stay the file's last.
    stay_last: &'a dyn Fn(&Entry) -> bool,
    /// Whether incoming object `j` of the source stores keyframe words.
    stored: &'a dyn Fn(usize) -> bool,
}

/// The output's object list for one kind: destination objects in order, a replacing incoming
/// object where the first object of its id was, the others before the first higher id (and a
/// moveable with keyframes before one whose keyframes stay last).
fn entries(
    dest_ids: impl Iterator<Item = u32>,
    dropped: impl Fn(usize) -> bool,
    incoming: &[(usize, u32)],
    keyframes: Keyframes,
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
            let placed = list.iter().map(|e| (id_of(e), (keyframes.stay_last)(e)));
            let at = wadforge_format::moveable_insertion_point(placed, id, (keyframes.stored)(j));
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
