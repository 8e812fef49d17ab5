//! Animation packs: animations of one file's object brought into another file's object of the same
//! slot (`wadforge animations`), keyframes as they were; the destination's meshes, links and own
//! animations untouched.
//!
//! The copies are appended to the destination's animations ([`Placement::Append`]) or take the
//! places of its animations of the same index ([`Placement::Replace`]: an animation pack over a
//! builder's Lara). Frame numbers are on the object's own timeline, so each copy is numbered anew
//! (past the destination's last frame, or on the frames of the animation it replaces when it fits
//! there), its dispatch ranges and command frames moved with it. Each link of a copy is settled
//! ([`Relink`]): one into another copied animation is renumbered to that copy; one into an
//! animation left behind goes to the destination's animation of the same state; one that finds
//! none goes to the copy's own first frame. References across objects are resolved before and
//! encoded after ([`crate::references`]), so every other reference of the destination keeps naming
//! the same animation; its links into a replaced animation keep its index, their frames as far
//! from its first frame as before.

use std::collections::{BTreeSet, HashMap};

use wadforge_format::catalog;
use wadforge_format::selection::ObjectRef;
use wadforge_format::{Animation, Command, Moveable, MoveableIndex, Wad};

use crate::merge::Input;
use crate::references::{self, AnimationRef, Targets};

/// Where the copies go in the destination's animation list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// After the destination's own animations, in the source's order.
    Append,
    /// Over the destination's animation of the same index.
    Replace,
}

/// What to bring: animations of one object of `src` into one object of `dest`.
pub struct Pack<'a> {
    pub src: &'a Input<'a>,
    pub src_object: MoveableIndex,
    pub dest: &'a Input<'a>,
    pub dest_object: MoveableIndex,
    /// The source object's animations to bring (see [`parse_list`]); each once, in any order.
    pub animations: &'a BTreeSet<usize>,
    pub placement: Placement,
}

/// What went wrong, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum AnimationsError {
    #[error(
        "--only {0:?} names no animations; give animation indices and ranges separated by commas, e.g. \
         --only 12,40-45"
    )]
    BadList(String),
    #[error(
        "--only names animation {index}, but {object} of the source has {count} animations (indices \
         0 to {count} - 1); give indices below {count}"
    )]
    PastSource {
        index: usize,
        object: String,
        count: usize,
    },
    #[error(
        "--replace names animation {index}, but {object} of the destination has {count} animations; \
         replace only animations it has, or leave out --replace to append them"
    )]
    PastDestination {
        index: usize,
        object: String,
        count: usize,
    },
    #[error(
        "{src} of the source has {src_meshes} meshes and {dest} of the destination has {dest_meshes}: \
         a keyframe holds one rotation per mesh, so animations move only between objects of as many \
         meshes; choose objects of the same skeleton"
    )]
    MeshCount {
        src: String,
        src_meshes: usize,
        dest: String,
        dest_meshes: usize,
    },
    #[error(
        "animation {index} of {object} in the source cannot be brought with its keyframes as they are: \
         {why}; leave it out of --only"
    )]
    Undecodable {
        index: usize,
        object: String,
        why: String,
    },
    #[error(
        "the copies would run past frame 32767 of {object}'s timeline (the game's frame numbers are \
         signed 16-bit); bring fewer animations at a time, or replace some with --replace"
    )]
    TimelineFull { object: String },
}

/// The frames of a timeline the game can number (signed 16-bit frame numbers).
const TIMELINE_FRAMES: i32 = 1 << 15;

/// The indices `list` names (`12,40-45`: indices and inclusive ranges, comma-separated), each
/// below `count`, the animations `object` has; checked before any range is expanded.
pub fn parse_list(list: &str, count: usize, object: &str) -> Result<BTreeSet<usize>, AnimationsError> {
    let bad = || AnimationsError::BadList(list.to_string());
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let mut ranges = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(part)?, number(part)?),
        };
        if first > last {
            return Err(bad());
        }
        if last >= count {
            return Err(AnimationsError::PastSource {
                index: first.max(count),
                object: object.to_string(),
                count,
            });
        }
        ranges.push(first..=last);
    }
    if ranges.is_empty() {
        return Err(bad());
    }
    Ok(ranges.into_iter().flatten().collect())
}

/// One animation brought, by its index in the source object and in the destination's.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CopiedAnimation {
    pub from: usize,
    pub to: usize,
    /// The catalogue's name of the source animation, where it has one.
    pub name: Option<String>,
    /// Whether it took the place of the destination's animation of that index.
    pub replaced: bool,
}

/// How a copy's link was settled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Relink {
    /// It named another copied animation: it names that copy.
    Renumbered,
    /// It named an animation left behind: it names the destination's animation of that state
    /// (the one of the same index when it has the state, else the first).
    ByState { state: u16 },
    /// No animation to name: it names the copy itself, at its first frame.
    OwnFrame { why: String },
}

/// A link of a copied animation, as it was settled.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RelinkedReference {
    /// The copy holding it, by its index in the destination's object.
    pub animation: usize,
    /// `next animation`, or `state change 1 (state 3), dispatch 0`.
    pub reference: String,
    /// What it named in the source: `SRC#35` (an animation of the same object), or another
    /// object's animation, or no animation.
    pub named: String,
    /// The destination's animation it names now.
    pub target: usize,
    pub how: Relink,
}

/// The destination with the animations brought, and what happened to them.
pub struct Brought {
    pub wad: Wad,
    pub copied: Vec<CopiedAnimation>,
    pub links: Vec<RelinkedReference>,
    /// References of the destination into a replaced animation: they keep its index.
    pub kept_by_index: usize,
}

/// Brings `pack`'s animations into its destination object; see the module's documentation.
pub fn bring(pack: &Pack) -> Result<Brought, AnimationsError> {
    check(pack)?;
    let src = &pack.src.wad.moveables[pack.src_object];
    let own = &pack.dest.wad.moveables[pack.dest_object].animations;
    let copy_of: HashMap<usize, usize> = (pack.animations.iter().enumerate())
        .map(|(n, &s)| match pack.placement {
            Placement::Append => (s, own.len() + n),
            Placement::Replace => (s, s),
        })
        .collect();
    let mut animations = own.clone();
    place_frames(pack, &copy_of, &mut animations)?;
    let src_targets = references::resolve(&pack.src.wad.moveables, &pack.src.starts);
    let mut targets = references::resolve(&pack.dest.wad.moveables, &pack.dest.starts);
    let settle = Settle {
        pack,
        copy_of: &copy_of,
        out: &animations,
    };
    let mut links = Vec::new();
    let mut settled: Vec<(usize, Animation, Targets)> = Vec::new();
    for &s in pack.animations {
        let to = copy_of[&s];
        let (copy, copy_targets) = settle.links(to, &src_targets[pack.src_object.0][s], &mut links);
        settled.push((to, copy, copy_targets));
    }
    let mut out = pack.dest.wad.clone();
    let object = &mut targets[pack.dest_object.0];
    for (to, copy, copy_targets) in settled {
        animations[to] = copy;
        match object.get_mut(to) {
            Some(t) => *t = copy_targets,
            None => object.push(copy_targets),
        }
    }
    out.moveables[pack.dest_object].animations = animations;
    let kept_by_index = follow_replaced(pack, &mut out.moveables, &targets);
    references::encode(&mut out.moveables, &targets);
    let copied = (pack.animations.iter())
        .map(|&s| CopiedAnimation {
            from: s,
            to: copy_of[&s],
            name: catalog::animation_name(pack.src.game, src.id, s).map(String::from),
            replaced: pack.placement == Placement::Replace,
        })
        .collect();
    Ok(Brought {
        wad: out,
        copied,
        links,
        kept_by_index,
    })
}

/// How messages call an object of an input.
fn name_of(input: &Input, object: MoveableIndex) -> String {
    ObjectRef::Moveable(object)
        .name(input.wad, input.game)
        .to_string()
}

/// Refuses objects of different skeletons, indices past either list, and animations whose
/// keyframe words do not decode (their words would be read from another animation's place).
fn check(pack: &Pack) -> Result<(), AnimationsError> {
    let src = &pack.src.wad.moveables[pack.src_object];
    let dest = &pack.dest.wad.moveables[pack.dest_object];
    if src.meshes.len() != dest.meshes.len() {
        return Err(AnimationsError::MeshCount {
            src: name_of(pack.src, pack.src_object),
            src_meshes: src.meshes.len(),
            dest: name_of(pack.dest, pack.dest_object),
            dest_meshes: dest.meshes.len(),
        });
    }
    for &index in pack.animations {
        let Some(animation) = src.animations.get(index) else {
            return Err(AnimationsError::PastSource {
                index,
                object: name_of(pack.src, pack.src_object),
                count: src.animations.len(),
            });
        };
        if pack.placement == Placement::Replace && index >= dest.animations.len() {
            return Err(AnimationsError::PastDestination {
                index,
                object: name_of(pack.dest, pack.dest_object),
                count: dest.animations.len(),
            });
        }
        if let Some(words) = &animation.undecodable_keyframes {
            return Err(AnimationsError::Undecodable {
                index,
                object: name_of(pack.src, pack.src_object),
                why: words.why(animation.played_keyframes(), src.meshes.len()),
            });
        }
    }
    Ok(())
}

/// The first frame (as the game reads it, signed) and how many frames an animation takes on its
/// timeline: at least one (placeholders end before they start).
fn span(a: &Animation) -> (i32, i32) {
    let start = i32::from(a.frame_start as i16);
    (start, (i32::from(a.frame_end as i16) - start).max(0) + 1)
}

/// Puts each copy (still with the source's links) at its place in `animations`, its frames
/// numbered anew: on the frames of the animation it replaces when it fits there, else past the
/// last frame of the timeline.
fn place_frames(
    pack: &Pack,
    copy_of: &HashMap<usize, usize>,
    animations: &mut Vec<Animation>,
) -> Result<(), AnimationsError> {
    let src = &pack.src.wad.moveables[pack.src_object].animations;
    let mut next_free = (animations.iter())
        .map(|a| {
            let (start, frames) = span(a);
            start + frames
        })
        .max()
        .unwrap_or(0)
        .max(0);
    for &s in pack.animations {
        let mut copy = src[s].clone();
        let to = copy_of[&s];
        let frames = span(&copy).1;
        let start = match animations.get(to) {
            Some(replaced) if span(replaced).0 >= 0 && span(replaced).1 >= frames => span(replaced).0,
            _ => {
                next_free += frames;
                next_free - frames
            }
        };
        if start + frames > TIMELINE_FRAMES {
            return Err(AnimationsError::TimelineFull {
                object: name_of(pack.dest, pack.dest_object),
            });
        }
        let by = (start as u16).wrapping_sub(copy.frame_start);
        shift_frames(&mut copy, by);
        match animations.get_mut(to) {
            Some(replaced) => *replaced = copy,
            None => animations.push(copy),
        }
    }
    Ok(())
}

/// Moves an animation's own frame numbers by `by` (modulo 2^16, as the file stores them): its
/// range, its dispatch ranges and its commands' frames. Its next frames name other animations'
/// frames: they are settled with its links.
fn shift_frames(a: &mut Animation, by: u16) {
    a.frame_start = a.frame_start.wrapping_add(by);
    a.frame_end = a.frame_end.wrapping_add(by);
    for d in a.state_changes.iter_mut().flat_map(|c| c.dispatches.iter_mut()) {
        d.frame_start = d.frame_start.wrapping_add(by);
        d.frame_end = d.frame_end.wrapping_add(by);
    }
    for c in &mut a.commands {
        if let Command::PlaySound { frame, .. } | Command::Effect { frame, .. } = c {
            *frame = frame.wrapping_add(by);
        }
    }
}

/// The frame of `to` as far from its first frame as `frame` is from `from`'s, within `to`; a
/// frame outside `from` names its first frame.
fn map_frame(frame: u16, from: &Animation, to: &Animation) -> u16 {
    let (from_start, from_frames) = span(from);
    let offset = i32::from(frame as i16) - from_start;
    if !(0..from_frames).contains(&offset) {
        return to.frame_start;
    }
    let (to_start, to_frames) = span(to);
    (to_start + offset.min(to_frames - 1)) as u16
}

/// What settles the links of the copies: the copies placed in the destination's list (`out`).
struct Settle<'a> {
    pack: &'a Pack<'a>,
    copy_of: &'a HashMap<usize, usize>,
    out: &'a [Animation],
}

impl Settle<'_> {
    /// Copy `to` (of the source animation whose references went to `src_targets`) with its
    /// links settled, their targets in the output, and each link listed in `links`.
    fn links(
        &self,
        to: usize,
        src_targets: &Targets,
        links: &mut Vec<RelinkedReference>,
    ) -> (Animation, Targets) {
        let mut copy = self.out[to].clone();
        let mut settle = |t: Option<AnimationRef>, asked: Option<u16>, frame: &mut u16, reference: String| {
            let (target, new_frame, how) = self.one(to, t, asked, *frame);
            *frame = new_frame;
            links.push(RelinkedReference {
                animation: to,
                reference,
                named: self.named(t),
                target,
                how,
            });
            Some(AnimationRef {
                moveable: self.pack.dest_object,
                animation: target,
            })
        };
        let next = settle(
            src_targets.next,
            None,
            &mut copy.next_frame,
            "next animation".into(),
        );
        let mut dispatches = Vec::with_capacity(copy.state_changes.len());
        for (c, (change, ts)) in copy
            .state_changes
            .iter_mut()
            .zip(&src_targets.dispatches)
            .enumerate()
        {
            let state = change.state;
            let settled = (change.dispatches.iter_mut().zip(ts).enumerate())
                .map(|(k, (d, &t))| {
                    let reference = format!("state change {c} (state {state}), dispatch {k}");
                    settle(t, Some(state), &mut d.next_frame, reference)
                })
                .collect();
            dispatches.push(settled);
        }
        (copy, Targets { next, dispatches })
    }

    /// Where one link of copy `to` goes: its target, frame and how. `t` is its target in the
    /// source, `asked` the state a dispatch's state change asks for, `frame` its frame.
    fn one(
        &self,
        to: usize,
        t: Option<AnimationRef>,
        asked: Option<u16>,
        frame: u16,
    ) -> (usize, u16, Relink) {
        let src = &self.pack.src.wad.moveables[self.pack.src_object].animations;
        let in_object = t.filter(|t| t.moveable == self.pack.src_object);
        if let Some(&copy) = in_object.and_then(|t| self.copy_of.get(&t.animation)) {
            let from = &src[in_object.expect("a copied target").animation];
            return (copy, map_frame(frame, from, &self.out[copy]), Relink::Renumbered);
        }
        let state = in_object.map(|t| src[t.animation].state).or(asked);
        let own_frame = |why: String| (to, self.out[to].frame_start, Relink::OwnFrame { why });
        let Some(state) = state else {
            return own_frame(match t {
                Some(_) => "it named an animation of another object".into(),
                None => "it named no animation of its file".into(),
            });
        };
        match self.of_state(state, in_object.map(|t| t.animation)) {
            Some(k) => {
                let frame = match in_object {
                    Some(t) => map_frame(frame, &src[t.animation], &self.out[k]),
                    None => self.out[k].frame_start,
                };
                (k, frame, Relink::ByState { state })
            }
            None => own_frame(format!(
                "the destination has no animation of state {state} of its own"
            )),
        }
    }

    /// The destination's own animation (not a copy) of `state`: the one of index `same` when it
    /// has the state, else the first.
    fn of_state(&self, state: u16, same: Option<usize>) -> Option<usize> {
        let own = &self.pack.dest.wad.moveables[self.pack.dest_object].animations;
        let copies: BTreeSet<usize> = self.copy_of.values().copied().collect();
        let fits = |k: usize| k < own.len() && !copies.contains(&k) && own[k].state == state;
        same.filter(|&k| fits(k))
            .or_else(|| (0..own.len()).find(|&k| fits(k)))
    }

    /// What a source target named, for people.
    fn named(&self, t: Option<AnimationRef>) -> String {
        match t {
            Some(t) if t.moveable == self.pack.src_object => format!("SRC#{}", t.animation),
            Some(t) => format!(
                "animation {} of {} in the source",
                t.animation,
                name_of(self.pack.src, t.moveable)
            ),
            None => "no animation of the source".into(),
        }
    }
}

/// Moves the frames of the destination's references into a replaced animation onto the copy
/// that replaced it (they keep its index); returns how many there are.
fn follow_replaced(pack: &Pack, moveables: &mut [Moveable], targets: &[Vec<Targets>]) -> usize {
    if pack.placement != Placement::Replace {
        return 0;
    }
    let old = &pack.dest.wad.moveables[pack.dest_object].animations;
    let new = moveables[pack.dest_object].animations.clone();
    let replaced = |t: &Option<AnimationRef>| {
        t.filter(|t| t.moveable == pack.dest_object && pack.animations.contains(&t.animation))
            .map(|t| t.animation)
    };
    let mut kept = 0;
    for (m, (moveable, targets)) in moveables.iter_mut().zip(targets).enumerate() {
        for (a, (animation, t)) in moveable.animations.iter_mut().zip(targets).enumerate() {
            if m == pack.dest_object.0 && pack.animations.contains(&a) {
                continue;
            }
            if let Some(r) = replaced(&t.next) {
                animation.next_frame = map_frame(animation.next_frame, &old[r], &new[r]);
                kept += 1;
            }
            let dispatches = animation
                .state_changes
                .iter_mut()
                .flat_map(|c| c.dispatches.iter_mut());
            for (d, t) in dispatches.zip(t.dispatches.iter().flatten()) {
                if let Some(r) = replaced(t) {
                    d.next_frame = map_frame(d.next_frame, &old[r], &new[r]);
                    kept += 1;
                }
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_format::catalog::Game;
    use wadforge_format::references::{canonical_starts, resolve};

    const LARA: MoveableIndex = MoveableIndex(0);
    /// The state of the fixture Lara's death (the last of each set of twelve) and fall.
    const DEATH_STATE: u16 = 8;

    fn set(indices: std::ops::RangeInclusive<usize>) -> BTreeSet<usize> {
        indices.collect()
    }

    fn bring_into(src: &Wad, dest: &Wad, animations: &BTreeSet<usize>, placement: Placement) -> Brought {
        let (src, dest) = (
            Input::canonical(src, Game::Tr4),
            Input::canonical(dest, Game::Tr4),
        );
        let pack = Pack {
            src: &src,
            src_object: LARA,
            dest: &dest,
            dest_object: LARA,
            animations,
            placement,
        };
        bring(&pack).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Where each reference of the output's Lara points, as (animation, frames from its start).
    fn targets_of(wad: &Wad, animation: usize) -> Vec<(usize, i32)> {
        let targets = &resolve(&wad.moveables, &canonical_starts(&wad.moveables))[0][animation];
        let a = &wad.moveables[0].animations;
        let at = |t: Option<AnimationRef>, frame: u16| {
            let t = t.expect("a target").animation;
            (t, i32::from(frame) - i32::from(a[t].frame_start))
        };
        let mut list = vec![at(targets.next, a[animation].next_frame)];
        for (c, ts) in a[animation].state_changes.iter().zip(&targets.dispatches) {
            list.extend(c.dispatches.iter().zip(ts).map(|(d, &t)| at(t, d.next_frame)));
        }
        list
    }

    #[test]
    fn the_list_takes_indices_and_ranges_and_refuses_what_is_past_the_count() {
        let list = parse_list("12, 40-45", 50, "LARA").unwrap();
        assert_eq!(list.into_iter().collect::<Vec<_>>(), [12, 40, 41, 42, 43, 44, 45]);
        for bad in ["", "x", "5-3", "1-", ",,"] {
            assert!(
                matches!(parse_list(bad, 50, "LARA"), Err(AnimationsError::BadList(_))),
                "{bad}"
            );
        }
        // A huge range is refused before anything is expanded, naming the count.
        let e = parse_list("3,10-18446744073709551615", 12, "LARA (moveable 0)").unwrap_err();
        assert!(
            matches!(
                e,
                AnimationsError::PastSource {
                    index: 12,
                    count: 12,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("has 12 animations"), "{e}");
    }

    #[test]
    fn appended_copies_keep_their_keyframes_and_links_among_them_and_the_destination_its_own() {
        let (src, dest) = (wadforge_fixtures::tr4_shaped(), wadforge_fixtures::standard());
        // The third set of twelve but its death: eleven animations, each a little apart from the
        // destination's own.
        let brought = bring_into(&src, &dest, &set(24..=34), Placement::Append);
        let (own, out) = (
            &dest.moveables[0].animations,
            &brought.wad.moveables[0].animations,
        );
        assert_eq!(out.len(), own.len() + 11);
        assert_eq!(&out[..own.len()], &own[..], "the destination's own animations");
        assert_eq!(brought.wad.moveables[1..], dest.moveables[1..]);
        assert_eq!(brought.wad.meshes, dest.meshes);
        let timeline_end = own.iter().map(|a| a.frame_end).max().unwrap();
        // The death left behind: the destination's first animation of its state (the fall).
        let death = own.iter().position(|a| a.state == DEATH_STATE).unwrap();
        let death_frames = i32::from(own[death].frame_end - own[death].frame_start);
        for (n, s) in (24..=34).enumerate() {
            let (was, copy) = (&src.moveables[0].animations[s], &out[own.len() + n]);
            assert_eq!(copy.keyframes, was.keyframes, "animation {s}");
            assert_ne!(copy.keyframes, own[s - 24].keyframes, "the fixture's sets differ");
            assert_eq!(copy.commands.len(), was.commands.len());
            assert!(
                copy.frame_start > timeline_end,
                "animation {s} numbered past the timeline"
            );
            // Each link among the copies names the copy, as far into it as before; the links
            // into the death left behind name the destination's animation of its state.
            let expected: Vec<(usize, i32)> = (targets_of(&src, s).into_iter())
                .map(|(t, frames)| match t {
                    24..=34 => (t - 24 + own.len(), frames),
                    35 => (death, frames.min(death_frames)),
                    other => panic!("animation {s} of the source names {other}"),
                })
                .collect();
            assert_eq!(targets_of(&brought.wad, own.len() + n), expected, "animation {s}");
        }
        let renumbered = brought
            .links
            .iter()
            .filter(|l| l.how == Relink::Renumbered)
            .count();
        let by_state = (brought.links.iter())
            .filter(|l| l.how == Relink::ByState { state: DEATH_STATE })
            .count();
        assert_eq!(renumbered + by_state, brought.links.len());
        assert!(
            renumbered > 20 && by_state >= 4,
            "{renumbered} renumbered, {by_state} to the death"
        );
    }

    #[test]
    fn a_link_to_a_state_the_destination_lacks_goes_to_the_copy_own_first_frame() {
        let src = wadforge_fixtures::tr4_shaped();
        let mut dest = wadforge_fixtures::standard();
        for a in &mut dest.moveables[0].animations {
            if a.state == DEATH_STATE {
                a.state = 999;
            }
        }
        let brought = bring_into(&src, &dest, &set(24..=34), Placement::Append);
        let out = &brought.wad.moveables[0].animations;
        // The fall (34, the eleventh copy) enters the death: now itself, at its first frame.
        let fall = dest.moveables[0].animations.len() + 10;
        assert_eq!(out[fall].next_animation, fall as i32);
        assert_eq!(out[fall].next_frame, out[fall].frame_start);
        let own_frame = (brought.links.iter())
            .filter(|l| matches!(&l.how, Relink::OwnFrame { why } if why.contains("state 8")))
            .count();
        assert!(own_frame >= 4, "{:?}", brought.links);
    }

    #[test]
    fn references_across_objects_keep_their_targets_as_the_table_grows() {
        let src = wadforge_fixtures::tr4_shaped();
        let mut dest = wadforge_fixtures::standard();
        let crocodile = dest.moveables.iter().position(|m| m.id == 51).unwrap();
        let starts = canonical_starts(&dest.moveables);
        // The crocodile's first animation goes on into Lara's stand (4), as real files hold such.
        let stand = &dest.moveables[0].animations[4];
        let (stand_start, crocodile_start) = (stand.frame_start, starts[crocodile]);
        let a = &mut dest.moveables[crocodile].animations[0];
        a.next_animation = 4 - crocodile_start as i32;
        a.next_frame = stand_start + 3;
        let brought = bring_into(&src, &dest, &set(24..=34), Placement::Append);
        let out = &brought.wad.moveables;
        let targets = resolve(out, &canonical_starts(out));
        assert_eq!(
            targets[crocodile][0].next,
            Some(AnimationRef {
                moveable: LARA,
                animation: 4
            })
        );
        assert_eq!(out[crocodile].animations[0].next_frame, stand_start + 3);
        assert_ne!(
            out[crocodile].animations[0].next_animation,
            4 - crocodile_start as i32
        );
    }

    #[test]
    fn a_copy_naming_another_object_goes_to_its_own_first_frame_and_other_skeletons_are_refused() {
        let mut src = wadforge_fixtures::standard();
        let crocodile = src.moveables.iter().position(|m| m.id == 51).unwrap();
        let crocodile_start = canonical_starts(&src.moveables)[crocodile];
        // Lara's jump (5) goes on into the crocodile's first animation.
        src.moveables[0].animations[5].next_animation = crocodile_start as i32;
        let dest = wadforge_fixtures::standard();
        let brought = bring_into(&src, &dest, &set(5..=5), Placement::Append);
        let next = &brought.links[0];
        assert_eq!((next.reference.as_str(), next.target), ("next animation", 12));
        assert!(next.named.contains("CROCODILE"), "{next:?}");
        assert!(matches!(&next.how, Relink::OwnFrame { why } if why.contains("another object")));
        let (src, dest) = (
            Input::canonical(&src, Game::Tr4),
            Input::canonical(&dest, Game::Tr4),
        );
        let pack = Pack {
            src: &src,
            src_object: MoveableIndex(crocodile),
            dest: &dest,
            dest_object: LARA,
            animations: &set(0..=0),
            placement: Placement::Append,
        };
        let e = bring(&pack)
            .err()
            .expect("a crocodile's animations refused on Lara");
        assert!(
            matches!(
                e,
                AnimationsError::MeshCount {
                    src_meshes: 21,
                    dest_meshes: 15,
                    ..
                }
            ),
            "{e}"
        );
    }
}
