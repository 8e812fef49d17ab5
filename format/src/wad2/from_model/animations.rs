//! Model animations as Wad2 animations: frames from each one's own first frame, rotations in
//! degrees (Y up), speeds and accelerations as start and end velocities.

use wadforge_model::{Animation, Command, Rotation};

use super::meshes::flip;
use crate::wad2::document::{
    self, AnimationVersion, BoundingBox, Dispatch, Keyframe, StateChange, UnknownChunks,
};

pub(crate) fn animations(animations: &[Animation]) -> Vec<document::Animation> {
    let start_of = |target: i32| -> i64 {
        usize::try_from(target)
            .ok()
            .and_then(|t| animations.get(t))
            .map_or(0, |a| i64::from(a.frame_start))
    };
    animations
        .iter()
        .map(|animation| {
            let start = i64::from(animation.frame_start);
            document::Animation {
                version: AnimationVersion::Current,
                state: i64::from(animation.state),
                end_frame: (i64::from(animation.frame_end) - start).max(0),
                frame_rate: i64::from(animation.frame_duration),
                next_animation: i64::from(animation.next_animation),
                next_frame: i64::from(animation.next_frame) - start_of(animation.next_animation),
                curve: None,
                name: None,
                keyframes: animation.keyframes.iter().map(keyframe).collect(),
                state_changes: animation
                    .state_changes
                    .iter()
                    .map(|change| StateChange {
                        state: i64::from(change.state),
                        dispatches: change
                            .dispatches
                            .iter()
                            .map(|d| Dispatch {
                                in_frame: i64::from(d.frame_start) - start,
                                out_frame: i64::from(d.frame_end) - start,
                                next_animation: i64::from(d.next_animation),
                                next_frame: i64::from(d.next_frame) - start_of(d.next_animation),
                                blend: None,
                            })
                            .collect(),
                        unknown: UnknownChunks::default(),
                    })
                    .collect(),
                commands: animation.commands.iter().map(|c| command(c, start)).collect(),
                velocities: Some(velocities(animation)),
                unknown: UnknownChunks::default(),
            }
        })
        .collect()
}

/// Start and end velocities (TombLib: end = start + acceleration × (keyframes − 1) × rate).
fn velocities(animation: &Animation) -> [f32; 4] {
    let steps = animation.keyframes.len().saturating_sub(1) as f64 * f64::from(animation.frame_duration);
    let start = animation.speed.to_f64();
    let lateral = animation.lateral_speed.to_f64();
    [
        start,
        start + animation.acceleration.to_f64() * steps,
        lateral,
        lateral + animation.lateral_acceleration.to_f64() * steps,
    ]
    .map(|v| v as f32)
}

fn keyframe(keyframe: &wadforge_model::Keyframe) -> Keyframe {
    let b = keyframe.bounding_box;
    Keyframe {
        offset: flip(keyframe.offset.map(f32::from)),
        // Not sorted after negating Y, as Tomb Editor keeps keyframe boxes.
        bounding_box: BoundingBox {
            min: flip(b.min.map(f32::from)),
            max: flip(b.max.map(f32::from)),
        },
        angles: keyframe.rotations.iter().map(degrees).collect(),
        unknown: UnknownChunks::default(),
    }
}

/// A rotation in 4096ths of a turn (Y down) as degrees in [0, 360) about X, Y, Z (Y up: X and
/// Z negated).
fn degrees(rotation: &Rotation) -> [f32; 3] {
    let turn =
        |units: u16, sign: f64| ((sign * f64::from(units % 4096) * 360.0 / 4096.0).rem_euclid(360.0)) as f32;
    [
        turn(rotation.x, -1.0),
        turn(rotation.y, 1.0),
        turn(rotation.z, -1.0),
    ]
}

/// A command as W2Cmd2: frames from the animation's first, a sound's environment apart.
fn command(command: &Command, start: i64) -> document::Command {
    let frame = |f: u16| i64::from(f) - start;
    let (kind, parameters) = match *command {
        Command::SetPosition { x, y, z } => (1, [x, y, z].map(i64::from)),
        Command::JumpVelocity { vertical, horizontal } => {
            (2, [i64::from(vertical), i64::from(horizontal), 0])
        }
        Command::EmptyHands => (3, [0; 3]),
        Command::Kill => (4, [0; 3]),
        Command::PlaySound {
            frame: f,
            sound,
            on_land,
            in_water,
        } => {
            // TombLib's WadSoundEnvironmentType: 0 always, 1 land, 2 water.
            let environment = if in_water { 2 } else { i64::from(on_land) };
            (5, [frame(f), i64::from(sound), environment])
        }
        Command::Effect { frame: f, effect } => (6, [frame(f), i64::from(effect), 0]),
    };
    document::Command {
        legacy: false,
        kind,
        parameters,
        sound_info: Some(-1),
        unknown: UnknownChunks::default(),
    }
}
