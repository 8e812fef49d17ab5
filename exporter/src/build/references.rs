//! References across objects in the model build writes: a next animation or dispatch that names
//! another object's animation follows that animation wherever the tables put it.
//!
//! - The base's objects (`build --base`): their references, resolved in the base's own table,
//!   name the same object's animation in the output (the directory's object where it replaced
//!   the base's), at a frame as far from that animation's first frame as before.
//! - The directory's objects: a reference to another object's animation ([`OtherTarget`]) names
//!   that animation of the first moveable of that id in the output.
//!
//! A target the output does not have is a warning naming object, animation and reference, and
//! the reference loops to its own animation at its first frame, as `copy` does: a WAD can only
//! name animations it holds, and a partial build (one object, to copy into a WAD later) is a
//! build people make.

use std::collections::HashMap;

use wadforge_format::catalog::Game;
use wadforge_format::references::{canonical_starts, follow_frame, AnimationRef, Targets};
use wadforge_format::{Animation, MoveableIndex, ObjectKind, ObjectName, Wad};

use super::PendingMoveable;
use crate::states::{OtherTarget, Reference};

/// Warnings listed; past them, one says how many more there are.
const LISTED: usize = 200;

/// Where a moveable of the output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Origin {
    /// The base's moveable of this index, kept.
    Base(MoveableIndex),
    /// The directory's moveable of this index, in the place of the base's it replaced.
    Directory {
        index: usize,
        replaced: Option<MoveableIndex>,
    },
}

/// The base a build patches, with its references resolved in its own table.
pub(super) struct BaseTargets<'a> {
    pub wad: &'a Wad,
    pub targets: Vec<Vec<Targets>>,
}

/// Points every reference of `out`'s moveables (which came from `origins`) at its target in
/// `out`'s table as `wad::write` lays it out; returns the warnings for targets not in `out`.
pub(super) fn relink(
    out: &mut Wad,
    origins: &[Origin],
    base: Option<&BaseTargets>,
    directory: &[PendingMoveable],
    game: Game,
) -> Vec<String> {
    let starts = canonical_starts(&out.moveables);
    let mut base_to_out = HashMap::new();
    let mut first_of_id = HashMap::new();
    for (p, origin) in origins.iter().enumerate() {
        first_of_id.entry(out.moveables[p].id).or_insert(p);
        match *origin {
            Origin::Base(i)
            | Origin::Directory {
                replaced: Some(i), ..
            } => {
                base_to_out.insert(i, p);
            }
            Origin::Directory { replaced: None, .. } => {}
        }
    }
    let mut linker = Linker {
        starts: &starts,
        warnings: Vec::new(),
        unlisted: 0,
    };
    let mut relinked = Vec::new();
    for (p, origin) in origins.iter().enumerate() {
        let found = match (*origin, base) {
            (Origin::Base(i), Some(base)) => {
                let place_of = |t: AnimationRef| base_to_out.get(&t.moveable).map(|&q| (q, t.animation));
                linker.base_targets(out, p, (base, i), &place_of, game)
            }
            (Origin::Base(_), None) => Vec::new(),
            (Origin::Directory { index, .. }, _) => {
                let place_of = |id: u32| first_of_id.get(&id).copied();
                linker.other_targets(out, p, &directory[index], &place_of, game)
            }
        };
        relinked.push((p, found));
    }
    for (p, found) in relinked {
        for (animation, reference, target, frame) in found {
            let (next_animation, next_frame) =
                reference_of(&mut out.moveables[p].animations[animation], reference);
            *next_animation = target;
            *next_frame = frame;
        }
    }
    if linker.unlisted > 0 {
        linker.warnings.push(format!(
            "{} more references lost their target and now point at their own animation (not listed)",
            linker.unlisted
        ));
    }
    linker.warnings
}

/// One reference pointed anew: (animation, reference, target relative to the owner's first
/// animation, frame).
type Relinked = (usize, Reference, i32, u16);

struct Linker<'a> {
    starts: &'a [usize],
    warnings: Vec<String>,
    unlisted: usize,
}

impl Linker<'_> {
    /// The references of the base's moveable `i`, now at `p` in `out`: each target placed by
    /// `place_of` (its place in `out`), its frame following that animation. A reference that
    /// named no animation of the base keeps its index, as it was.
    fn base_targets(
        &mut self,
        out: &Wad,
        p: usize,
        (base, i): (&BaseTargets, MoveableIndex),
        place_of: &dyn Fn(AnimationRef) -> Option<(usize, usize)>,
        game: Game,
    ) -> Vec<Relinked> {
        let owner = &out.moveables[p];
        let mut found = Vec::new();
        for (a, t) in base.targets[i.0].iter().enumerate() {
            let animation = &owner.animations[a];
            let references = std::iter::once((Reference::Next, t.next, animation.next_frame)).chain(
                (t.dispatches.iter().enumerate()).flat_map(|(change, ds)| {
                    ds.iter().enumerate().map(move |(dispatch, &d)| {
                        let frame = animation.state_changes[change].dispatches[dispatch].next_frame;
                        (Reference::Dispatch { change, dispatch }, d, frame)
                    })
                }),
            );
            for (reference, target, frame) in references {
                let Some(target) = target else { continue };
                let was = &base.wad.moveables[target.moveable].animations[target.animation];
                let placed = place_of(target)
                    .filter(|&(q, k)| k < out.moveables[q].animations.len())
                    .map(|(q, k)| (q, k, follow_frame(frame, was, &out.moveables[q].animations[k])));
                let named = || {
                    let id = base.wad.moveables[target.moveable].id;
                    let name = ObjectName::new(game, ObjectKind::Moveable, id);
                    format!("animation {} of {name}", target.animation)
                };
                let object = || ObjectName::new(game, ObjectKind::Moveable, owner.id).to_string();
                found.push(self.placed(p, (a, animation), reference, placed, (&object, &named)));
            }
        }
        found
    }

    /// The references of the directory's moveable `m`, at `p` in `out`, to other objects'
    /// animations: each the first moveable of that id in `out` (`place_of`).
    fn other_targets(
        &mut self,
        out: &Wad,
        p: usize,
        m: &PendingMoveable,
        place_of: &dyn Fn(u32) -> Option<usize>,
        game: Game,
    ) -> Vec<Relinked> {
        let owner = &out.moveables[p];
        let mut found = Vec::new();
        for o in &m.other_targets {
            let OtherTarget {
                animation: a,
                reference,
                target,
                frame,
            } = *o;
            let k = target.index as usize;
            let placed = place_of(target.moveable)
                .filter(|&q| k < out.moveables[q].animations.len())
                .map(|q| (q, k, frame_after(&out.moveables[q].animations[k], frame)));
            let named = || {
                let name = ObjectName::new(game, ObjectKind::Moveable, target.moveable);
                format!(
                    "animation {k} of {name} (`{{moveable: {}, index: {k}}}`)",
                    target.moveable
                )
            };
            let object = || format!("{}: {}", m.place.file.display(), m.place.object);
            found.push(self.placed(p, (a, &owner.animations[a]), reference, placed, (&object, &named)));
        }
        found
    }

    /// Reference `reference` of animation `a` of the moveable at `p`, pointed at `placed`
    /// (moveable, animation, frame in `out`), or, with a warning, at its own animation.
    fn placed(
        &mut self,
        p: usize,
        (a, animation): (usize, &Animation),
        reference: Reference,
        placed: Option<(usize, usize, u16)>,
        (object, named): (&dyn Fn() -> String, &dyn Fn() -> String),
    ) -> Relinked {
        match placed {
            Some((q, k, frame)) => {
                let relative = (self.starts[q] + k) as i64 - self.starts[p] as i64;
                (a, reference, relative as i32, frame)
            }
            None => {
                if self.warnings.len() < LISTED {
                    self.warnings.push(format!(
                        "{}, animation {a}, {}: named {}, which is not in the output; it now points at animation \
                         {a} itself (build on a base that has it: build --base)",
                        object(),
                        describe(animation, reference),
                        named()
                    ));
                } else {
                    self.unlisted += 1;
                }
                (a, reference, a as i32, animation.frame_start)
            }
        }
    }
}

/// The frame `relative` frames after `to`'s first, modulo 65536 as the file's frames.
fn frame_after(to: &Animation, relative: i32) -> u16 {
    (i64::from(to.frame_start) + i64::from(relative)).rem_euclid(1 << 16) as u16
}

/// `next animation`, or `state change 1 (state 3), dispatch 0`.
fn describe(animation: &Animation, reference: Reference) -> String {
    match reference {
        Reference::Next => "next animation".into(),
        Reference::Dispatch { change, dispatch } => format!(
            "state change {change} (state {}), dispatch {dispatch}",
            animation.state_changes[change].state
        ),
    }
}

/// The target and frame fields of `reference` of `animation`.
fn reference_of(animation: &mut Animation, reference: Reference) -> (&mut i32, &mut u16) {
    match reference {
        Reference::Next => (&mut animation.next_animation, &mut animation.next_frame),
        Reference::Dispatch { change, dispatch } => {
            let d = &mut animation.state_changes[change].dispatches[dispatch];
            (&mut d.next_animation, &mut d.next_frame)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_after_wrap_as_the_files_frames() {
        let a = Animation {
            frame_start: 100,
            ..Animation::default()
        };
        assert_eq!(frame_after(&a, 5), 105);
        assert_eq!(frame_after(&a, 65_464 - 100), 65_464);
        assert_eq!(frame_after(&a, 65_500), 64);
        assert_eq!(frame_after(&a, -101), 65_535);
    }
}
