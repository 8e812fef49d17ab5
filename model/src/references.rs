//! Animation references across a file's animation table.
//!
//! The model stores a next animation or a dispatch target relative to the owning moveable's
//! first animation. Real files have references that leave the object's own range: they name an
//! animation of another moveable by its place in the file's one animation table. To move
//! objects between files, such a reference is resolved to (moveable, animation) with the
//! positions the file had, and encoded again for the positions of the file written.

use std::collections::HashMap;

use crate::{Animation, Moveable, MoveableIndex};

/// An animation of a moveable: positions in a moveable list and in its animation list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AnimationRef {
    pub moveable: MoveableIndex,
    pub animation: usize,
}

/// Where each reference of one animation points; `None` where it names no animation of the file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Targets {
    pub next: Option<AnimationRef>,
    /// Per state change, per dispatch.
    pub dispatches: Vec<Vec<Option<AnimationRef>>>,
}

/// Where each moveable's animations start in the table `wad::write(wad, None)` writes: one after
/// the other, in moveable order. Levels store their tables that way too.
pub fn canonical_starts(moveables: &[Moveable]) -> Vec<usize> {
    let mut next = 0;
    moveables
        .iter()
        .map(|m| {
            let start = next;
            next += m.animations.len();
            start
        })
        .collect()
}

/// Resolves every reference of every animation of `moveables`, whose animations started at
/// `starts` in the file's table. References within the object's own range stay its own (even
/// where another object shares the range).
pub fn resolve(moveables: &[Moveable], starts: &[usize]) -> Vec<Vec<Targets>> {
    // The first moveable (in order) whose range holds each place of the table, found at once for
    // each reference: a search of all moveables for each made many references into many
    // moveables quadratic. Ranges hold each decoded animation once, so this is as large as they.
    let mut first_owner: HashMap<usize, MoveableIndex> = HashMap::new();
    for m in MoveableIndex::all(moveables) {
        for a in 0..moveables[m].animations.len() {
            first_owner.entry(starts[m.0] + a).or_insert(m);
        }
    }
    let target = |owner: MoveableIndex, relative: i32| -> Option<AnimationRef> {
        let own = &moveables[owner];
        if relative >= 0 && (relative as usize) < own.animations.len() {
            return Some(AnimationRef {
                moveable: owner,
                animation: relative as usize,
            });
        }
        let absolute = starts[owner.0] as i64 + relative as i64;
        if absolute < 0 {
            return None;
        }
        let absolute = absolute as usize;
        first_owner.get(&absolute).map(|&m| AnimationRef {
            moveable: m,
            animation: absolute - starts[m.0],
        })
    };
    MoveableIndex::all(moveables)
        .map(|i| {
            moveables[i]
                .animations
                .iter()
                .map(|a| Targets {
                    next: target(i, a.next_animation),
                    dispatches: a
                        .state_changes
                        .iter()
                        .map(|c| c.dispatches.iter().map(|d| target(i, d.next_animation)).collect())
                        .collect(),
                })
                .collect()
        })
        .collect()
}

/// The frame a reference names in animation `to` for the `frame` it named in `from`: as far
/// from the first frame, so that a reference follows its animation when that animation's frames
/// are numbered anew. A frame outside `from` (builders' files hold such, in references the game
/// never takes) names no frame of it: it stays as it was.
pub fn follow_frame(frame: u16, from: &Animation, to: &Animation) -> u16 {
    if (from.frame_start..=from.frame_end).contains(&frame) {
        to.frame_start.wrapping_add(frame - from.frame_start)
    } else {
        frame
    }
}

/// Writes `targets` (in positions of `moveables`) into the moveables' animations for the
/// canonical table; a missing target makes the animation point at itself.
pub fn encode(moveables: &mut [Moveable], targets: &[Vec<Targets>]) {
    let starts = canonical_starts(moveables);
    let relative = |owner: usize, own: usize, t: Option<AnimationRef>| -> i32 {
        match t {
            Some(t) => (starts[t.moveable.0] + t.animation) as i32 - starts[owner] as i32,
            None => own as i32,
        }
    };
    for (i, (m, targets)) in moveables.iter_mut().zip(targets).enumerate() {
        for (a, (animation, t)) in m.animations.iter_mut().zip(targets).enumerate() {
            animation.next_animation = relative(i, a, t.next);
            for (change, ts) in animation.state_changes.iter_mut().zip(&t.dispatches) {
                for (d, &t) in change.dispatches.iter_mut().zip(ts) {
                    d.next_animation = relative(i, a, t);
                }
            }
        }
    }
}
