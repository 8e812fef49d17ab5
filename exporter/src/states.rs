//! Manifest animations → the model's state machine: the exact inverse of the importer's
//! `manifest::animations`.
//!
//! The manifest names animations and counts frames from each animation's first frame; the model
//! (and the file) numbers animations within the moveable and frames on the object's own timeline.
//!
//! - `frame_start` is `first_frame` when given; otherwise the animation follows the previous one
//!   (`previous frame_start + previous frames`, i.e. the previous `frame_end + 1`; 0 for the
//!   first).
//! - `frame_end` is `frame_start + frames − 1` **modulo 65536**, the inverse of the importer's
//!   `frame_end − frame_start + 1` (wrapping): files whose `frame_end` lies before `frame_start`
//!   come back unchanged. This is the only value that wraps; every other value that does not fit
//!   its field is an error naming the animation.
//! - Targets (`next`, dispatches) named by animation resolve to that animation's index, and their
//!   frame is relative to its `frame_start`. An [`AnimationName::Other`] (another object's
//!   animation) is left to the assembly, which finds that object in the model it writes
//!   ([`OtherTarget`]). An [`AnimationName::Index`] is kept as the index; when it names one of
//!   this moveable's animations its frame is relative to that animation's `frame_start` too,
//!   otherwise (an index outside the list, as directories of schema 1 and 2 hold for another
//!   object's animation) the frame is taken as it stands on the timeline.
//! - Dispatch ranges and the frames of sound and effect commands are relative to this animation's
//!   `frame_start`.

use std::collections::HashMap;

use wadforge_format::{Animation, Command, Dispatch, Fixed16, StateChange};
use wadforge_manifests::{
    AnimationManifest, AnimationName, CommandManifest, MoveableManifest, OtherAnimation, SoundPlace,
};

use crate::{BuildError, Place};

/// Largest sound id a sound command holds (bits 14 and 15 of its word are the land/water flags).
const MAX_SOUND_ID: u16 = 0x3FFF;

/// Which reference of an animation: its next animation, or a dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    Next,
    Dispatch { change: usize, dispatch: usize },
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reference::Next => f.write_str("next animation"),
            Reference::Dispatch { change, dispatch } => {
                write!(f, "state change {change}, dispatch {dispatch}")
            }
        }
    }
}

/// A reference to another object's animation, for the assembly to point at it in the model it
/// writes; until then the reference names its own animation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherTarget {
    /// The animation holding the reference, and which of its references.
    pub animation: usize,
    pub reference: Reference,
    pub target: OtherAnimation,
    /// Frames after the target's first frame (modulo 65536, as the file's 16-bit frames).
    pub frame: i32,
}

/// The moveable's animations as the model holds them (keyframes left empty: the glTF side fills
/// them), from its manifest: names resolved to indices, relative frames back on the object's own
/// timeline, commands typed; and the references to other objects' animations, which the
/// assembly resolves.
pub fn animations(
    m: &MoveableManifest,
    place: &Place,
) -> Result<(Vec<Animation>, Vec<OtherTarget>), BuildError> {
    let here = |a: &AnimationManifest| Some(format!("animation {}", a.name));

    let mut index_of: HashMap<&str, usize> = HashMap::with_capacity(m.animations.len());
    for (i, a) in m.animations.iter().enumerate() {
        if index_of.insert(a.name.as_str(), i).is_some() {
            return Err(place.error(
                here(a),
                "another animation of this object has the same name; give each animation its own name",
            ));
        }
    }

    // First frames, in order (later animations may follow earlier ones).
    let mut starts = Vec::with_capacity(m.animations.len());
    let mut follow: u32 = 0;
    for a in &m.animations {
        let start = match a.first_frame {
            Some(f) => f,
            None => u16::try_from(follow).map_err(|_| {
                place.error(
                    here(a),
                    format!(
                        "without first_frame this animation would start at frame {follow}, after the \
                         previous one, but frames are numbered up to {}; set first_frame or shorten \
                         the animations before it",
                        u16::MAX
                    ),
                )
            })?,
        };
        starts.push(start);
        follow = u32::from(start) + u32::from(a.frames);
    }

    let ctx = Context {
        m,
        place,
        index_of: &index_of,
        starts: &starts,
    };
    let animations = m
        .animations
        .iter()
        .enumerate()
        .zip(&starts)
        .map(|((i, a), &start)| ctx.animation(i, a, start))
        .collect::<Result<_, _>>()?;
    Ok((animations, other_targets(m)))
}

/// Every reference of `m`'s animations to another object's animation.
fn other_targets(m: &MoveableManifest) -> Vec<OtherTarget> {
    let mut found = Vec::new();
    for (animation, a) in m.animations.iter().enumerate() {
        let mut add = |reference, name: &AnimationName, frame| {
            if let AnimationName::Other(target) = *name {
                found.push(OtherTarget {
                    animation,
                    reference,
                    target,
                    frame,
                });
            }
        };
        add(Reference::Next, &a.next.animation, a.next.frame);
        for (change, c) in a.state_changes.iter().enumerate() {
            for (dispatch, d) in c.dispatches.iter().enumerate() {
                add(Reference::Dispatch { change, dispatch }, &d.animation, d.frame);
            }
        }
    }
    found
}

struct Context<'a> {
    m: &'a MoveableManifest,
    place: &'a Place,
    index_of: &'a HashMap<&'a str, usize>,
    starts: &'a [u16],
}

impl Context<'_> {
    fn error(&self, a: &AnimationManifest, message: impl Into<String>) -> BuildError {
        self.place.error(Some(format!("animation {}", a.name)), message)
    }

    fn animation(&self, i: usize, a: &AnimationManifest, start: u16) -> Result<Animation, BuildError> {
        let own = (i, start);
        let (next_animation, next_frame) = self.target(a, own, &a.next.animation, a.next.frame, "next ")?;
        let state_changes = a
            .state_changes
            .iter()
            .enumerate()
            .map(|(c, change)| {
                let dispatches = change
                    .dispatches
                    .iter()
                    .enumerate()
                    .map(|(d, dispatch)| {
                        let what = format!("state change {c} (state {}), dispatch {d}", change.state.id);
                        let frame_start =
                            self.frame(a, start, dispatch.frames[0], &format!("{what}: frames[0]"))?;
                        let frame_end =
                            self.frame(a, start, dispatch.frames[1], &format!("{what}: frames[1]"))?;
                        let (next_animation, next_frame) =
                            self.target(a, own, &dispatch.animation, dispatch.frame, &format!("{what}: "))?;
                        Ok(Dispatch {
                            frame_start,
                            frame_end,
                            next_animation,
                            next_frame,
                        })
                    })
                    .collect::<Result<_, BuildError>>()?;
                Ok(StateChange {
                    state: change.state.id,
                    dispatches,
                })
            })
            .collect::<Result<_, BuildError>>()?;
        let commands = a
            .commands
            .iter()
            .enumerate()
            .map(|(i, c)| self.command(a, start, i, c))
            .collect::<Result<_, BuildError>>()?;
        Ok(Animation {
            frame_duration: a.frame_duration,
            state: a.state.id,
            speed: self.fixed(a, a.speed, "speed")?,
            acceleration: self.fixed(a, a.acceleration, "acceleration")?,
            lateral_speed: self.fixed(a, a.lateral_speed, "lateral_speed")?,
            lateral_acceleration: self.fixed(a, a.lateral_acceleration, "lateral_acceleration")?,
            frame_start: start,
            // The importer's `frames` is `frame_end − frame_start + 1` modulo 65536; this is its
            // inverse, so every stored pair comes back.
            frame_end: start.wrapping_add(a.frames).wrapping_sub(1),
            next_animation,
            next_frame,
            state_changes,
            commands,
            keyframes: Vec::new(),
            undecodable_keyframes: None,
        })
    }

    /// A 16.16 fixed-point value; values outside its range (±32768) are errors, not saturated.
    fn fixed(&self, a: &AnimationManifest, v: f64, field: &str) -> Result<Fixed16, BuildError> {
        let raw = (v * 65536.0).round();
        if !(raw.is_finite() && raw >= i32::MIN as f64 && raw <= i32::MAX as f64) {
            return Err(self.error(
                a,
                format!(
                    "{field} is {v}, which a 16.16 fixed-point field cannot hold; use a value from \
                     -32768 to 32767.99998"
                ),
            ));
        }
        Ok(Fixed16::from_f64(v))
    }

    /// `relative` frames after `first`, on the object's timeline.
    fn frame(&self, a: &AnimationManifest, first: u16, relative: i32, what: &str) -> Result<u16, BuildError> {
        let absolute = i64::from(first) + i64::from(relative);
        u16::try_from(absolute).map_err(|_| {
            self.error(
                a,
                format!(
                    "{what} is {relative}, counted from frame {first}: frame {absolute} of the \
                     object's timeline, which must be from 0 to {}; use a frame from {} to {}",
                    u16::MAX,
                    -i64::from(first),
                    i64::from(u16::MAX) - i64::from(first)
                ),
            )
        })
    }

    /// The index of a target animation and its frame on the object's timeline; `what` prefixes
    /// `animation` and `frame` in messages (`next `, `state change 0 (state 3), dispatch 1: `).
    /// Another object's animation is left to the assembly: until then the reference names `own`
    /// (this animation's index and first frame).
    fn target(
        &self,
        a: &AnimationManifest,
        own: (usize, u16),
        target: &AnimationName,
        frame: i32,
        what: &str,
    ) -> Result<(i32, u16), BuildError> {
        let (index, first) = match target {
            AnimationName::Other(_) => return Ok((own.0 as i32, own.1)),
            AnimationName::Name(name) => {
                let Some(&i) = self.index_of.get(name.as_str()) else {
                    return Err(self.error(
                        a,
                        format!(
                            "{what}animation `{name}` is not an animation of this object ({} has {} \
                             animations); name one of them, e.g. `{}`",
                            self.m.slot,
                            self.m.animations.len(),
                            self.m.animations.first().map(|a| a.name.as_str()).unwrap_or("?")
                        ),
                    ));
                };
                let index = i32::try_from(i).map_err(|_| {
                    self.error(
                        a,
                        format!("{what}animation `{name}` has an index beyond the i32 range"),
                    )
                })?;
                (index, self.starts[i])
            }
            AnimationName::Index(i) => (
                *i,
                usize::try_from(*i)
                    .ok()
                    .and_then(|i| self.starts.get(i))
                    .copied()
                    .unwrap_or(0),
            ),
        };
        let frame = self.frame(a, first, frame, &format!("{what}frame"))?;
        Ok((index, frame))
    }

    fn command(
        &self,
        a: &AnimationManifest,
        start: u16,
        i: usize,
        c: &CommandManifest,
    ) -> Result<Command, BuildError> {
        Ok(match *c {
            CommandManifest::SetPosition([x, y, z]) => Command::SetPosition { x, y, z },
            CommandManifest::Jump { vertical, horizontal } => Command::JumpVelocity { vertical, horizontal },
            CommandManifest::EmptyHands => Command::EmptyHands,
            CommandManifest::Kill => Command::Kill,
            CommandManifest::Sound { frame, id, on } => {
                if id > MAX_SOUND_ID {
                    return Err(self.error(
                        a,
                        format!(
                            "command {i} (sound) has id {id}, but a sound command holds ids up to \
                             {MAX_SOUND_ID} (the top two bits are the land/water flags: use `on`)"
                        ),
                    ));
                }
                let (on_land, in_water) = match on {
                    SoundPlace::Anywhere => (false, false),
                    SoundPlace::Land => (true, false),
                    SoundPlace::Water => (false, true),
                    SoundPlace::LandAndWater => (true, true),
                };
                Command::PlaySound {
                    frame: self.frame(a, start, frame, &format!("command {i} (sound) frame"))?,
                    sound: id,
                    on_land,
                    in_water,
                }
            }
            CommandManifest::Effect { frame, id, .. } => Command::Effect {
                frame: self.frame(a, start, frame, &format!("command {i} (effect) frame"))?,
                effect: id,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_manifests::{AnimationTarget, DispatchManifest, StateChangeManifest, StateRef};

    fn place() -> Place {
        Place {
            file: "moveables/051_CROCODILE.yaml".into(),
            object: "CROCODILE (moveable 51)".into(),
        }
    }

    fn anim(name: &str, first_frame: Option<u16>, frames: u16, next: &str) -> AnimationManifest {
        AnimationManifest {
            name: name.into(),
            state: StateRef { id: 1, name: None },
            frame_duration: 1,
            first_frame,
            frames,
            speed: 0.0,
            acceleration: 0.0,
            lateral_speed: 0.0,
            lateral_acceleration: 0.0,
            next: AnimationTarget {
                animation: AnimationName::Name(next.into()),
                frame: 0,
            },
            state_changes: Vec::new(),
            commands: Vec::new(),
            undecodable: None,
            kept_exactly: wadforge_manifests::KeptExactly::default(),
        }
    }

    fn moveable(animations: Vec<AnimationManifest>) -> MoveableManifest {
        MoveableManifest {
            id: 51,
            slot: "CROCODILE".into(),
            gltf: "051_CROCODILE.glb".into(),
            dressed_by: None,
            bones: Vec::new(),
            animations,
        }
    }

    #[test]
    fn frame_end_wraps_like_the_importer() {
        // Stored frame_end before frame_start: the importer writes frames = 65532.
        let m = moveable(vec![anim(
            "A",
            Some(10),
            5u16.wrapping_sub(10).wrapping_add(1),
            "A",
        )]);
        let a = &animations(&m, &place()).unwrap().0[0];
        assert_eq!((a.frame_start, a.frame_end), (10, 5));
    }

    #[test]
    fn index_targets_are_kept() {
        let mut a = anim("A", Some(100), 10, "A");
        a.next = AnimationTarget {
            animation: AnimationName::Index(-3),
            frame: 4000,
        };
        a.state_changes.push(StateChangeManifest {
            state: StateRef { id: 2, name: None },
            dispatches: vec![DispatchManifest {
                frames: [1, 3],
                animation: AnimationName::Index(0),
                frame: 2,
            }],
        });
        let out = animations(&moveable(vec![a]), &place()).unwrap().0;
        assert_eq!((out[0].next_animation, out[0].next_frame), (-3, 4000));
        let d = out[0].state_changes[0].dispatches[0];
        assert_eq!(
            (d.frame_start, d.frame_end, d.next_animation, d.next_frame),
            (101, 103, 0, 102)
        );
    }

    #[test]
    fn speeds_out_of_range_fail() {
        let mut a = anim("A", None, 1, "A");
        a.speed = 40000.0;
        let e = animations(&moveable(vec![a.clone()]), &place())
            .unwrap_err()
            .to_string();
        assert!(e.contains("animation A") && e.contains("speed"), "{e}");
        a.speed = f64::NAN;
        assert!(animations(&moveable(vec![a]), &place()).is_err());
    }

    #[test]
    fn sound_ids_must_leave_the_flag_bits() {
        let mut a = anim("A", None, 1, "A");
        a.commands.push(CommandManifest::Sound {
            frame: 0,
            id: 0x4000,
            on: SoundPlace::Anywhere,
        });
        let e = animations(&moveable(vec![a]), &place()).unwrap_err().to_string();
        assert!(e.contains("animation A") && e.contains("sound"), "{e}");
    }

    #[test]
    fn following_past_the_timeline_fails() {
        let m = moveable(vec![anim("A", Some(65530), 6, "A"), anim("B", None, 1, "A")]);
        let e = animations(&m, &place()).unwrap_err().to_string();
        assert!(e.contains("animation B") && e.contains("first_frame"), "{e}");
    }
}
