//! Wad2 animations → the model's: frames from each animation's own count to the moveable's
//! timeline, rotations from degrees (Y up) to 4096ths of a turn (Y down), velocities to 16.16
//! speeds and accelerations, commands to the classic opcodes.

use wadforge_model::{
    AngleEncoding, Animation, BoundingBox, Command, Dispatch, Fixed16, Keyframe, Rotation, StateChange,
};

use super::losses::{LossKind, Losses};
use super::meshes::point;
use crate::wad2::document::{self, AnimationVersion};

/// Rotations within this many degrees of 0 are 0 (TombLib's test for a single-axis rotation).
const ABOUT_ZERO: f32 = 1.0 / 2048.0;

/// The model animations of a moveable's Wad2 animations, whose keyframes hold `bones` angles.
pub(crate) fn animations(animations: &[document::Animation], losses: &mut Losses) -> Vec<Animation> {
    // Each animation's first frame on the moveable's timeline.
    let mut starts = Vec::with_capacity(animations.len());
    let mut next_start: i64 = 0;
    for animation in animations {
        starts.push(next_start);
        next_start += end_frame(animation) + 1;
    }
    let frame_of = |target: i64, frame: i64| -> u16 {
        let start = usize::try_from(target)
            .ok()
            .and_then(|t| starts.get(t))
            .copied()
            .unwrap_or(0);
        (start + frame).clamp(0, i64::from(u16::MAX)) as u16
    };
    animations
        .iter()
        .enumerate()
        .map(|(i, animation)| {
            let start = starts[i];
            let mut model = header(animation, start, losses);
            model.next_frame = frame_of(animation.next_animation, animation.next_frame);
            model.keyframes = animation.keyframes.iter().map(|k| keyframe(k, losses)).collect();
            model.state_changes = animation
                .state_changes
                .iter()
                .map(|change| StateChange {
                    state: change.state.clamp(0, i64::from(u16::MAX)) as u16,
                    dispatches: change
                        .dispatches
                        .iter()
                        .map(|d| {
                            losses.add(LossKind::BlendCurves, usize::from(d.blend.is_some()));
                            Dispatch {
                                frame_start: frame_of(i as i64, d.in_frame),
                                frame_end: frame_of(i as i64, d.out_frame),
                                next_animation: clamp_i32(d.next_animation),
                                next_frame: frame_of(d.next_animation, d.next_frame),
                            }
                        })
                        .collect(),
                })
                .collect();
            model.commands = animation
                .commands
                .iter()
                .filter_map(|c| command(c, start, losses))
                .collect();
            model
        })
        .collect()
}

/// The end frame as TombLib reads it: legacy chunks stored one past the last frame.
fn end_frame(animation: &document::Animation) -> i64 {
    let stored = animation.end_frame.max(0);
    match animation.version {
        AnimationVersion::Obsolete { .. } | AnimationVersion::Legacy { .. } => (stored - 1).max(0),
        AnimationVersion::Current | AnimationVersion::Blended { .. } => stored,
    }
}

fn clamp_i32(value: i64) -> i32 {
    value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The animation's state, timing and speeds, starting at frame `start` of the timeline.
fn header(animation: &document::Animation, start: i64, losses: &mut Losses) -> Animation {
    let rate = animation.frame_rate.clamp(1, 255);
    let frame = |value: i64| value.clamp(0, i64::from(u16::MAX)) as u16;
    let speeds = match animation.version {
        AnimationVersion::Obsolete { speeds, .. } | AnimationVersion::Legacy { speeds } => {
            speeds.map(|s| Fixed16(clamp_i32(s)))
        }
        AnimationVersion::Current | AnimationVersion::Blended { .. } => velocities(animation, rate, losses),
    };
    let blended =
        matches!(animation.version, AnimationVersion::Blended { blend_frames } if blend_frames != 0);
    losses.add(LossKind::BlendCurves, usize::from(blended));
    Animation {
        frame_duration: rate as u8,
        state: frame(animation.state),
        speed: speeds[0],
        acceleration: speeds[1],
        lateral_speed: speeds[2],
        lateral_acceleration: speeds[3],
        frame_start: frame(start),
        frame_end: frame(start + end_frame(animation)),
        next_animation: clamp_i32(animation.next_animation),
        ..Animation::default()
    }
}

/// Speed, acceleration, lateral speed and lateral acceleration from start and end velocities
/// (TombLib: end = start + acceleration × (keyframes − 1) × frame rate).
fn velocities(animation: &document::Animation, rate: i64, losses: &mut Losses) -> [Fixed16; 4] {
    let [start, end, lateral_start, lateral_end] = animation.velocities.unwrap_or_default().map(f64::from);
    let steps = (animation.keyframes.len().saturating_sub(1) as i64 * rate) as f64;
    let acceleration = |from: f64, to: f64| if steps > 0.0 { (to - from) / steps } else { 0.0 };
    let speeds = [
        start,
        acceleration(start, end),
        lateral_start,
        acceleration(lateral_start, lateral_end),
    ]
    .map(Fixed16::from_f64);
    // What the game reaches at the last keyframe with those speeds, against what the file says.
    let reached = |speed: Fixed16, acceleration: Fixed16| speed.to_f64() + acceleration.to_f64() * steps;
    let off = |reached: f64, wanted: f64| usize::from((reached - wanted).abs() > 1.0 / 256.0);
    let steps_end = if steps > 0.0 { end } else { start };
    let lateral_end = if steps > 0.0 { lateral_end } else { lateral_start };
    let approximated =
        off(reached(speeds[0], speeds[1]), steps_end) + off(reached(speeds[2], speeds[3]), lateral_end);
    losses.add(LossKind::VelocitiesApproximated, usize::from(approximated > 0));
    speeds
}

fn keyframe(keyframe: &document::Keyframe, losses: &mut Losses) -> Keyframe {
    let [min, max] =
        [keyframe.bounding_box.min, keyframe.bounding_box.max].map(|corner| point(corner, losses));
    Keyframe {
        bounding_box: BoundingBox { min, max },
        offset: point(keyframe.offset, losses),
        rotations: keyframe.angles.iter().map(|a| rotation(*a, losses)).collect(),
    }
}

/// Degrees about X, Y, Z (Y up) as the classic rotation (X and Z negated with Y): one axis in
/// 4096ths of a turn when the others are 0, else three axes in 1024ths (TombLib's rule).
fn rotation(degrees: [f32; 3], losses: &mut Losses) -> Rotation {
    let [x, y, z] = [-degrees[0], degrees[1], -degrees[2]];
    let zero = |v: f32| v.abs() <= ABOUT_ZERO || !v.is_finite();
    let steps = |v: f32, per_turn: f64| -> u16 {
        let turns = if v.is_finite() { f64::from(v) / 360.0 } else { 0.0 };
        ((turns * per_turn).round().rem_euclid(per_turn) as u32 % per_turn as u32) as u16
    };
    let single = |encoding, value: f32| {
        let units = steps(value, 4096.0);
        let mut rotation = Rotation {
            encoding,
            ..Rotation::default()
        };
        match encoding {
            AngleEncoding::X => rotation.x = units,
            AngleEncoding::Y => rotation.y = units,
            _ => rotation.z = units,
        }
        rotation
    };
    match (zero(x), zero(y), zero(z)) {
        (_, true, true) => single(AngleEncoding::X, x),
        (true, _, true) => single(AngleEncoding::Y, y),
        (true, true, _) => single(AngleEncoding::Z, z),
        _ => {
            let units = [x, y, z].map(|v| steps(v, 1024.0) * 4);
            let exact = [x, y, z].iter().zip(units).all(|(&v, u)| steps(v, 4096.0) == u);
            losses.add(LossKind::RotationsRounded, usize::from(!exact));
            Rotation {
                x: units[0],
                y: units[1],
                z: units[2],
                encoding: AngleEncoding::ThreeAxes,
            }
        }
    }
}

/// The classic command of `command`, on the timeline from `start`; None (a loss) for what a
/// classic WAD has no opcode for.
pub(crate) fn command(command: &document::Command, start: i64, losses: &mut Losses) -> Option<Command> {
    let [p1, p2, p3] = command.parameters;
    let short = |value: i64| value.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
    let frame = (start + p1).clamp(0, i64::from(u16::MAX)) as u16;
    let found = match command.kind {
        1 => Command::SetPosition {
            x: short(p1),
            y: short(p2),
            z: short(p3),
        },
        2 => Command::JumpVelocity {
            vertical: short(p1),
            horizontal: short(p2),
        },
        3 => Command::EmptyHands,
        4 => Command::Kill,
        5 => sound(command, frame, losses),
        6 => Command::Effect {
            frame,
            effect: p2 as u16,
        },
        kind => {
            losses.add(LossKind::Command(kind), 1);
            return None;
        }
    };
    Some(found)
}

/// A play-sound command: the legacy chunk packs land (bit 14) and water (bit 15) in the sound
/// word; W2Cmd2 gives the environment apart (0 always, 1 land, 2 water, 3 quicksand,
/// 4 under water: TombLib's WadSoundEnvironmentType).
fn sound(command: &document::Command, frame: u16, losses: &mut Losses) -> Command {
    let [_, p2, p3] = command.parameters;
    let word = p2 as u16;
    if command.legacy {
        return Command::PlaySound {
            frame,
            sound: word & 0x3FFF,
            on_land: word & 0x4000 != 0,
            in_water: word & 0x8000 != 0,
        };
    }
    if p3 > 2 {
        losses.add(LossKind::Command(5), 1);
    }
    Command::PlaySound {
        frame,
        sound: word & 0x3FFF,
        on_land: p3 == 1,
        in_water: p3 == 2,
    }
}
