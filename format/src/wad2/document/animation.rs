//! W2Ani3 / W2Ani2 and the legacy W2Ani / W2Anm: an animation's header, keyframes, state
//! changes with their dispatches, commands and velocities.

use super::fields::{self, padded_leaf, parent, FieldWriter, Fields, UnknownChunks};
use super::shapes::{read_box, write_box, BoundingBox};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::Wad2Error;

/// An animation as Tomb Editor stores it. Frames and animation numbers are relative to the
/// moveable's own first animation and each target's first frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Animation {
    pub version: AnimationVersion,
    pub state: i64,
    pub end_frame: i64,
    pub frame_rate: i64,
    pub next_animation: i64,
    pub next_frame: i64,
    /// W2CurveStart, W2CurveEnd, W2CurveHStart, W2CurveHEnd (Tomb Engine's blending).
    pub curve: Option<BlendCurve>,
    pub name: Option<String>,
    pub keyframes: Vec<Keyframe>,
    pub state_changes: Vec<StateChange>,
    pub commands: Vec<Command>,
    /// W2AniV: start speed, end speed, start lateral, end lateral (units per frame, floats).
    pub velocities: Option<[f32; 4]>,
    pub unknown: UnknownChunks,
}

/// Which header an animation chunk has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnimationVersion {
    /// W2Anm: two obsolete numbers and classic speeds (16.16) in the header; end frame one past.
    Obsolete { unused: [i64; 2], speeds: [i64; 4] },
    /// W2Ani: classic speeds (speed, acceleration, lateral speed, lateral acceleration, 16.16)
    /// in the header; the end frame one past the last.
    Legacy { speeds: [i64; 4] },
    /// W2Ani2.
    #[default]
    Current,
    /// W2Ani3: Tomb Engine's, with a blend frame count.
    Blended { blend_frames: i64 },
}

impl AnimationVersion {
    fn id(self) -> &'static str {
        match self {
            AnimationVersion::Obsolete { .. } => "W2Anm",
            AnimationVersion::Legacy { .. } => "W2Ani",
            AnimationVersion::Current => "W2Ani2",
            AnimationVersion::Blended { .. } => "W2Ani3",
        }
    }
}

/// A Bézier blend curve: start, end and their handles.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BlendCurve {
    pub start: [f32; 2],
    pub end: [f32; 2],
    pub start_handle: [f32; 2],
    pub end_handle: [f32; 2],
}

/// W2Kf: the root offset, the box, and one rotation per bone (Euler degrees X, Y, Z).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Keyframe {
    pub offset: [f32; 3],
    pub bounding_box: BoundingBox,
    pub angles: Vec<[f32; 3]>,
    pub unknown: UnknownChunks,
}

/// W2StCh: a state and the dispatches that reach it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StateChange {
    pub state: i64,
    pub dispatches: Vec<Dispatch>,
    pub unknown: UnknownChunks,
}

/// W2Disp, or Tomb Engine's W2Disp2 with a frame range and blending.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dispatch {
    pub in_frame: i64,
    pub out_frame: i64,
    pub next_animation: i64,
    pub next_frame: i64,
    /// W2Disp2's extras.
    pub blend: Option<DispatchBlend>,
}

/// What W2Disp2 adds to a dispatch.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DispatchBlend {
    pub next_frame_high: i64,
    pub blend_frames: i64,
    pub curve: BlendCurve,
    pub unknown: UnknownChunks,
}

/// W2Cmd2, or the legacy W2Cmd whose sound and effect conditions are packed in parameter 2.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Command {
    pub legacy: bool,
    /// 1 set position, 2 jump distance, 3 empty hands, 4 kill, 5 play sound, 6 flip effect,
    /// 7 disable interpolation (Tomb Engine).
    pub kind: i64,
    pub parameters: [i64; 3],
    /// W2CmdSnd, deprecated; TombLib writes −1.
    pub sound_info: Option<i64>,
    pub unknown: UnknownChunks,
}

pub(super) fn read_animation(chunk: &ChunkRef) -> Result<Animation, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut animation = Animation {
        state: fields.number()?,
        end_frame: fields.number()?,
        frame_rate: fields.number()?,
        ..Animation::default()
    };
    let mut numbers = |count: usize| (0..count).map(|_| fields.number()).collect::<Result<Vec<_>, _>>();
    let unused = if chunk.id == "W2Anm" {
        numbers(2)?
    } else {
        Vec::new()
    };
    let speeds = match chunk.id {
        "W2Anm" | "W2Ani" => numbers(4)?,
        _ => Vec::new(),
    };
    animation.next_animation = fields.number()?;
    animation.next_frame = fields.number()?;
    let four = |values: &[i64]| [values[0], values[1], values[2], values[3]];
    animation.version = match chunk.id {
        "W2Anm" => AnimationVersion::Obsolete {
            unused: [unused[0], unused[1]],
            speeds: four(&speeds),
        },
        "W2Ani" => AnimationVersion::Legacy {
            speeds: four(&speeds),
        },
        "W2Ani3" => AnimationVersion::Blended {
            blend_frames: fields.number()?,
        },
        _ => AnimationVersion::Current,
    };
    let unknown = &mut animation.unknown;
    for child in fields.children()? {
        match child.id {
            "W2CurveStart" | "W2CurveEnd" | "W2CurveHStart" | "W2CurveHEnd" => {
                read_curve_point(&child, animation.curve.get_or_insert_with(BlendCurve::default))?;
            }
            "W2AnmName" => animation.name = Some(fields::string(&child)),
            "W2AniV" => animation.velocities = Some(fields::vector(&child)?),
            "W2Kf" => animation.keyframes.push(read_keyframe(&child)?),
            "W2StCh" => animation.state_changes.push(read_state_change(&child)?),
            "W2Cmd" | "W2Cmd2" => animation.commands.push(read_command(&child)?),
            _ => unknown.keep(chunk.id, &child),
        }
    }
    Ok(animation)
}

/// Sets the point of `curve` a W2Curve* chunk holds.
fn read_curve_point(chunk: &ChunkRef, curve: &mut BlendCurve) -> Result<(), Wad2Error> {
    let point = fields::vector(chunk)?;
    match chunk.id {
        "W2CurveStart" => curve.start = point,
        "W2CurveEnd" => curve.end = point,
        "W2CurveHStart" => curve.start_handle = point,
        _ => curve.end_handle = point,
    }
    Ok(())
}

fn read_keyframe(chunk: &ChunkRef) -> Result<Keyframe, Wad2Error> {
    let mut keyframe = Keyframe::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2KfOffs" => keyframe.offset = fields::vector(&child)?,
            "W2KfBB" => keyframe.bounding_box = read_box(&child, &mut keyframe.unknown)?,
            "W2KfA" => keyframe.angles.push(fields::vector(&child)?),
            _ => keyframe.unknown.keep(chunk.id, &child),
        }
    }
    Ok(keyframe)
}

fn read_state_change(chunk: &ChunkRef) -> Result<StateChange, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut state_change = StateChange {
        state: fields.number()?,
        ..StateChange::default()
    };
    for child in fields.children()? {
        match child.id {
            "W2Disp" | "W2Disp2" => state_change.dispatches.push(read_dispatch(&child)?),
            _ => state_change.unknown.keep(chunk.id, &child),
        }
    }
    Ok(state_change)
}

fn read_dispatch(chunk: &ChunkRef) -> Result<Dispatch, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut dispatch = Dispatch {
        in_frame: fields.number()?,
        out_frame: fields.number()?,
        next_animation: fields.number()?,
        next_frame: fields.number()?,
        blend: None,
    };
    if chunk.id == "W2Disp" {
        // A leaf: no child stream follows.
        fields.end()?;
        return Ok(dispatch);
    }
    let mut blend = DispatchBlend {
        next_frame_high: fields.number()?,
        blend_frames: fields.number()?,
        ..DispatchBlend::default()
    };
    for child in fields.children()? {
        match child.id {
            "W2CurveStart" | "W2CurveEnd" | "W2CurveHStart" | "W2CurveHEnd" => {
                read_curve_point(&child, &mut blend.curve)?;
            }
            _ => blend.unknown.keep(chunk.id, &child),
        }
    }
    dispatch.blend = Some(blend);
    Ok(dispatch)
}

fn read_command(chunk: &ChunkRef) -> Result<Command, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut command = Command {
        legacy: chunk.id == "W2Cmd",
        kind: fields.number()?,
        parameters: [fields.number()?, fields.number()?, fields.number()?],
        ..Command::default()
    };
    for child in fields.children()? {
        match child.id {
            "W2CmdSnd" => command.sound_info = Some(fields::int(&child)?),
            _ => command.unknown.keep(chunk.id, &child),
        }
    }
    Ok(command)
}

pub(super) fn write_animation(animation: &Animation) -> Chunk {
    let mut fields = FieldWriter::default();
    fields
        .number(animation.state)
        .number(animation.end_frame)
        .number(animation.frame_rate);
    match animation.version {
        AnimationVersion::Obsolete { unused, speeds } => {
            for value in unused.into_iter().chain(speeds) {
                fields.number(value);
            }
        }
        AnimationVersion::Legacy { speeds } => {
            for value in speeds {
                fields.number(value);
            }
        }
        AnimationVersion::Current | AnimationVersion::Blended { .. } => {}
    }
    fields
        .number(animation.next_animation)
        .number(animation.next_frame);
    if let AnimationVersion::Blended { blend_frames } = animation.version {
        fields.number(blend_frames);
    }
    let mut children = animation.curve.as_ref().map(write_curve).unwrap_or_default();
    children.extend(
        animation
            .name
            .as_deref()
            .map(|name| fields::string_leaf("W2AnmName", name)),
    );
    children.extend(animation.keyframes.iter().map(write_keyframe));
    children.extend(animation.state_changes.iter().map(write_state_change));
    children.extend(animation.commands.iter().map(write_command));
    children.extend(
        animation
            .velocities
            .map(|velocities| fields::vector_leaf("W2AniV", &velocities)),
    );
    let id = animation.version.id();
    parent(id, &fields.bytes, &animation.unknown.with(id, children))
}

fn write_curve(curve: &BlendCurve) -> Vec<Chunk> {
    vec![
        fields::vector_leaf("W2CurveStart", &curve.start),
        fields::vector_leaf("W2CurveEnd", &curve.end),
        fields::vector_leaf("W2CurveHStart", &curve.start_handle),
        fields::vector_leaf("W2CurveHEnd", &curve.end_handle),
    ]
}

fn write_keyframe(keyframe: &Keyframe) -> Chunk {
    let mut children = vec![
        fields::vector_leaf("W2KfOffs", &keyframe.offset),
        write_box("W2KfBB", &keyframe.bounding_box, &keyframe.unknown),
    ];
    children.extend(
        keyframe
            .angles
            .iter()
            .map(|angle| fields::vector_leaf("W2KfA", angle)),
    );
    parent("W2Kf", &[], &keyframe.unknown.with("W2Kf", children))
}

fn write_state_change(state_change: &StateChange) -> Chunk {
    let mut fields = FieldWriter::default();
    fields.number(state_change.state);
    let children = state_change.dispatches.iter().map(write_dispatch).collect();
    parent(
        "W2StCh",
        &fields.bytes,
        &state_change.unknown.with("W2StCh", children),
    )
}

fn write_dispatch(dispatch: &Dispatch) -> Chunk {
    let mut fields = FieldWriter::default();
    fields
        .number(dispatch.in_frame)
        .number(dispatch.out_frame)
        .number(dispatch.next_animation)
        .number(dispatch.next_frame);
    let Some(blend) = &dispatch.blend else {
        return padded_leaf("W2Disp", fields.bytes);
    };
    fields.number(blend.next_frame_high).number(blend.blend_frames);
    let children = blend.unknown.with("W2Disp2", write_curve(&blend.curve));
    parent("W2Disp2", &fields.bytes, &children)
}

fn write_command(command: &Command) -> Chunk {
    let mut fields = FieldWriter::default();
    fields.number(command.kind);
    for &parameter in &command.parameters {
        fields.number(parameter);
    }
    let id = if command.legacy { "W2Cmd" } else { "W2Cmd2" };
    let children: Vec<_> = command
        .sound_info
        .map(|sound| fields::int_leaf("W2CmdSnd", sound))
        .into_iter()
        .collect();
    parent(id, &fields.bytes, &command.unknown.with(id, children))
}
