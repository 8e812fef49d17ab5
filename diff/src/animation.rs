//! A moveable's skeleton and motion: links, and every field of every animation in order (timing,
//! motion, frames, state changes with their dispatches, commands, keyframes with their angles).

use std::fmt;

use wadforge_model::references::{AnimationRef, Targets};
use wadforge_model::{
    Animation, Command, Dispatch, Fixed16, Keyframe, Link, Moveable, MoveableIndex, Rotation, StateChange,
    UndecodableKeyframes,
};

use crate::report::{at, BoxText, Field, Recorder, Triple};

pub(crate) fn links(r: &mut Recorder, a: &[Link], b: &[Link]) {
    r.count("", Field::LinkCount, a.len(), b.len());
    for (i, (la, lb)) in a.iter().zip(b).enumerate() {
        // links[i] places mesh i + 1.
        let place = format!("mesh {}", i + 1);
        r.compare(&place, Field::LinkParent, la.parent, lb.parent);
        r.compare(&place, Field::LinkOffset, Triple(la.offset), Triple(lb.offset));
    }
}

/// One side's moveable with where its animations' references point in its file.
pub(crate) struct Side<'a> {
    pub moveables: &'a [Moveable],
    pub owner: MoveableIndex,
    pub targets: &'a [Targets],
}

impl Side<'_> {
    /// What `relative` (a reference of animation `animation`, resolved to `target`) names:
    /// within the object, its number; in another object, that object and animation, whatever
    /// number the file's table order gave it.
    fn reference(&self, relative: i32, target: Option<AnimationRef>) -> Reference {
        match target {
            Some(t) if t.moveable == self.owner => Reference::Own(relative),
            Some(t) => Reference::Other {
                id: self.moveables[t.moveable].id,
                animation: t.animation,
            },
            None => Reference::Nowhere(relative),
        }
    }

    fn next(&self, animation: usize, relative: i32) -> Reference {
        self.reference(relative, self.targets.get(animation).and_then(|t| t.next))
    }

    fn dispatch(&self, at: (usize, usize, usize), relative: i32) -> Reference {
        let (animation, change, dispatch) = at;
        let target = self
            .targets
            .get(animation)
            .and_then(|t| t.dispatches.get(change))
            .and_then(|d| d.get(dispatch))
            .copied()
            .flatten();
        self.reference(relative, target)
    }
}

/// The animation a next animation or dispatch names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    Own(i32),
    Other { id: u32, animation: usize },
    Nowhere(i32),
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Own(n) => write!(f, "{n}"),
            Reference::Other { id, animation } => write!(f, "animation {animation} of moveable {id}"),
            Reference::Nowhere(n) => write!(f, "{n} (no animation of the file)"),
        }
    }
}

pub(crate) fn animations(r: &mut Recorder, angle_tolerance: i32, a: &Side, b: &Side) {
    let (x, y) = (&a.moveables[a.owner].animations, &b.moveables[b.owner].animations);
    r.count("", Field::AnimationCount, x.len(), y.len());
    for (i, (x, y)) in x.iter().zip(y).enumerate() {
        animation(r, angle_tolerance, &format!("animation {i}"), (a, b, i), x, y);
    }
}

type Sides<'s, 'a> = (&'s Side<'a>, &'s Side<'a>, usize);

fn animation(
    r: &mut Recorder,
    angle_tolerance: i32,
    place: &str,
    sides: Sides,
    a: &Animation,
    b: &Animation,
) {
    let (side_a, side_b, index) = sides;
    r.compare(place, Field::FrameDuration, a.frame_duration, b.frame_duration);
    r.compare(place, Field::State, a.state, b.state);
    let fixed = |f: Fixed16| Decimal(f);
    r.compare(place, Field::Speed, fixed(a.speed), fixed(b.speed));
    r.compare(
        place,
        Field::Acceleration,
        fixed(a.acceleration),
        fixed(b.acceleration),
    );
    r.compare(
        place,
        Field::LateralSpeed,
        fixed(a.lateral_speed),
        fixed(b.lateral_speed),
    );
    r.compare(
        place,
        Field::LateralAcceleration,
        fixed(a.lateral_acceleration),
        fixed(b.lateral_acceleration),
    );
    r.compare(place, Field::FrameStart, a.frame_start, b.frame_start);
    r.compare(place, Field::FrameEnd, a.frame_end, b.frame_end);
    r.compare(
        place,
        Field::NextAnimation,
        side_a.next(index, a.next_animation),
        side_b.next(index, b.next_animation),
    );
    r.compare(place, Field::NextFrame, a.next_frame, b.next_frame);

    r.count(
        place,
        Field::StateChangeCount,
        a.state_changes.len(),
        b.state_changes.len(),
    );
    for (i, (x, y)) in a.state_changes.iter().zip(&b.state_changes).enumerate() {
        state_change(r, &at(place, format_args!("state change {i}")), (sides, i), x, y);
    }

    r.count(place, Field::CommandCount, a.commands.len(), b.commands.len());
    for (i, (x, y)) in a.commands.iter().zip(&b.commands).enumerate() {
        r.compare(
            &at(place, format_args!("command {i}")),
            Field::Command,
            CommandText(*x),
            CommandText(*y),
        );
    }

    r.count(place, Field::KeyframeCount, a.keyframes.len(), b.keyframes.len());
    for (i, (x, y)) in a.keyframes.iter().zip(&b.keyframes).enumerate() {
        keyframe(r, angle_tolerance, &at(place, format_args!("keyframe {i}")), x, y);
    }
    r.compare(
        place,
        Field::UndecodableKeyframes,
        StoredWords(a.undecodable_keyframes.as_ref()),
        StoredWords(b.undecodable_keyframes.as_ref()),
    );
}

/// Undecodable keyframe words, compared word for word and shown by size, length and a hash.
#[derive(PartialEq)]
struct StoredWords<'a>(Option<&'a UndecodableKeyframes>);

impl fmt::Display for StoredWords<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(stored) = self.0 else {
            return f.write_str("none");
        };
        // FNV-1a: two lists of the same length that differ show different hashes.
        let hash = (stored.words.iter().flat_map(|w| w.to_le_bytes()))
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
            });
        write!(
            f,
            "size {}, {} words (hash {hash:016x})",
            stored.size,
            stored.words.len()
        )
    }
}

fn state_change(r: &mut Recorder, place: &str, at_change: (Sides, usize), a: &StateChange, b: &StateChange) {
    let ((side_a, side_b, animation), change) = at_change;
    r.compare(place, Field::StateChangeState, a.state, b.state);
    r.count(
        place,
        Field::DispatchCount,
        a.dispatches.len(),
        b.dispatches.len(),
    );
    for (i, (x, y)) in a.dispatches.iter().zip(&b.dispatches).enumerate() {
        let targets = (
            side_a.dispatch((animation, change, i), x.next_animation),
            side_b.dispatch((animation, change, i), y.next_animation),
        );
        dispatch(r, &at(place, format_args!("dispatch {i}")), targets, x, y);
    }
}

fn dispatch(r: &mut Recorder, place: &str, targets: (Reference, Reference), a: &Dispatch, b: &Dispatch) {
    r.compare(place, Field::DispatchFrameStart, a.frame_start, b.frame_start);
    r.compare(place, Field::DispatchFrameEnd, a.frame_end, b.frame_end);
    r.compare(place, Field::DispatchNextAnimation, targets.0, targets.1);
    r.compare(place, Field::DispatchNextFrame, a.next_frame, b.next_frame);
}

fn keyframe(r: &mut Recorder, angle_tolerance: i32, place: &str, a: &Keyframe, b: &Keyframe) {
    r.compare(place, Field::KeyframeOffset, Triple(a.offset), Triple(b.offset));
    r.compare(
        place,
        Field::KeyframeBox,
        BoxText(a.bounding_box),
        BoxText(b.bounding_box),
    );
    r.count(place, Field::RotationCount, a.rotations.len(), b.rotations.len());
    for (i, (x, y)) in a.rotations.iter().zip(&b.rotations).enumerate() {
        if !angles_close(x, y, angle_tolerance) {
            r.differ(
                &at(place, format_args!("mesh {i}")),
                Field::Angles,
                Triple(angles(x)),
                Triple(angles(y)),
            );
        }
    }
}

/// A rotation's angles, each modulo a turn. How the file encoded them (one axis or three) is
/// layout: the game turns the mesh the same.
fn angles(r: &Rotation) -> [u32; 3] {
    [r.x, r.y, r.z].map(|a| u32::from(a) % Rotation::FULL_TURN)
}

/// Each angle within `tolerance` of the other's, the short way round the turn.
fn angles_close(a: &Rotation, b: &Rotation, tolerance: i32) -> bool {
    let turn = Rotation::FULL_TURN as i32;
    angles(a).iter().zip(angles(b)).all(|(&x, y)| {
        let d = (x as i32 - y as i32).rem_euclid(turn);
        d.min(turn - d) <= tolerance.max(0)
    })
}

/// A 16.16 value as a decimal (exact: every 16.16 value has a short decimal form).
#[derive(PartialEq)]
struct Decimal(Fixed16);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.to_f64())
    }
}

#[derive(PartialEq)]
struct CommandText(Command);

impl fmt::Display for CommandText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Command::SetPosition { x, y, z } => write!(f, "set position {}", Triple([x, y, z])),
            Command::JumpVelocity { vertical, horizontal } => {
                write!(f, "jump (vertical {vertical}, horizontal {horizontal})")
            }
            Command::EmptyHands => f.write_str("empty hands"),
            Command::Kill => f.write_str("kill"),
            Command::PlaySound {
                frame,
                sound,
                on_land,
                in_water,
            } => {
                write!(f, "sound {sound} at frame {frame}")?;
                match (on_land, in_water) {
                    (true, true) => f.write_str(" on land and in water"),
                    (true, false) => f.write_str(" on land"),
                    (false, true) => f.write_str(" in water"),
                    (false, false) => Ok(()),
                }
            }
            Command::Effect { frame, effect } => write!(f, "effect {effect} at frame {frame}"),
        }
    }
}
