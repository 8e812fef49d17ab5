//! glTF animations → TR keyframes: sample at k × frame duration / 30 s, take each joint's
//! rotation relative to its parent from the evaluated joint transforms and inverse bind matrices
//! (never assuming identity rest rotations), and decompose it into TR's Y·X·Z angles.
//!
//! The game plays as many keyframes as the animation's frame range holds
//! ([`wadforge_format::Animation::played_keyframes`]): the range follows the action's length
//! ([`frames_of_action`]), which the build sets before sampling.

use std::collections::HashMap;

use wadforge_format::pose::{rotation_from_matrix, Transform};
use wadforge_format::{BoundingBox, Keyframe, Rotation};

use crate::FastMap;
use wadforge_manifests::AnimationManifest;

use crate::input::{Animation, Channel, Property, Scene};
use crate::math;
use crate::skeleton::{to_tr, Skeleton};

/// Keyframes of `animation` for `tr` (its state machine built from `manifest`; bounding boxes
/// left empty for the caller).
pub(crate) fn keyframes(
    scene: &Scene,
    skeleton: &Skeleton,
    animation: &Animation,
    tr: &wadforge_format::Animation,
    tr_units_per_metre: f64,
    manifest: &AnimationManifest,
) -> Result<Vec<Keyframe>, String> {
    let (frame_duration, exact) = (tr.frame_duration, &manifest.kept_exactly.exact_angles);
    let tick = frame_duration.max(1) as f64 / 30.0;
    let count = keyframe_count(animation, frame_duration)?;
    let played = tr.played_keyframes();
    if count != played && count != manifest.kept_exactly.keyframe_boxes.len() {
        // The range follows the action (`frames_of_action`) but plays another count where it
        // crosses the engine's signed frame numbers (frame 32767 to 32768).
        return Err(format!(
            "the action has {count} keyframes, but the frame range from frame {} to {} plays {played} \
             (the engine's frame numbers are signed 16-bit); set this animation's first_frame below \
             32768 − its frames in the manifest",
            tr.frame_start, tr.frame_end
        ));
    }
    // Looked up once per keyframe and joint: by key, not by a scan of the list.
    let exact: HashMap<(usize, usize), Rotation> = exact
        .iter()
        .map(|e| {
            (
                (e.keyframe as usize, e.mesh as usize),
                Rotation::compact(e.x, e.y, e.z),
            )
        })
        .collect();
    let posing = Posing::new(scene, animation);
    let mut keyframes: Vec<Keyframe> = Vec::with_capacity(count);
    for k in 0..count {
        let t = (k as f64 * tick) as f32;
        let world = posing.world_transforms(&skeleton.nodes, t);
        // The TR frame of each mesh: the skinning transform (joint world · inverse bind), whose
        // rotation is the mesh's rotation relative to the bind (= TR rest) pose.
        let skinning: Vec<Transform> = (0..skeleton.nodes.len())
            .map(|j| world[j].then(&skeleton.inverse_binds[j]))
            .collect();
        let c = [[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]];
        let tr_rotation: Vec<[[f64; 3]; 3]> = skinning
            .iter()
            .map(|s| math::multiply(math::multiply(c, math::rotation_part(s)), c))
            .collect();
        let previous = keyframes.last().map(|k: &Keyframe| k.rotations.clone());
        let rotations: Vec<Rotation> = (0..skeleton.nodes.len())
            .map(|j| {
                let local = if j == 0 {
                    tr_rotation[0]
                } else {
                    math::multiply(math::transpose(tr_rotation[skeleton.parents[j]]), tr_rotation[j])
                };
                // The stored angle set, while the glTF still shows its rotation.
                let stored = exact.get(&(k, j)).copied();
                match stored {
                    Some(r) if same_rotation(&r, local) => r,
                    _ => rotation_from_matrix(local, previous.as_ref().and_then(|p| p.get(j))),
                }
            })
            .collect();
        let pivot = skinning[0].apply(skeleton.bind_positions[0]);
        let offset = to_tr(pivot).map(|c| c * tr_units_per_metre);
        if offset.iter().any(|c| c.abs() > i16::MAX as f64) {
            return Err(format!(
                "animation {}, keyframe {k}: the root moves {offset:?} TR units away; TR offsets reach ±32767",
                animation.name
            ));
        }
        keyframes.push(Keyframe {
            bounding_box: BoundingBox::default(),
            offset: offset.map(|c| c.round() as i16),
            rotations,
        });
    }
    Ok(keyframes)
}

/// The keyframes `animation` holds at one every `frame_duration` ticks of 1/30 s: its last key's
/// time over the tick, rounded, and the keyframe at time 0.
pub(crate) fn keyframe_count(animation: &Animation, frame_duration: u8) -> Result<usize, String> {
    let tick = frame_duration.max(1) as f64 / 30.0;
    let end = animation
        .channels
        .iter()
        .filter_map(|c| c.times.last())
        .fold(0.0f32, |a, &b| a.max(b)) as f64;
    // Saturating: a forged time (infinite, or past any count) must reach the refusal below.
    let count = ((end / tick).round() as usize).saturating_add(1);
    if count > 65535 {
        return Err(format!(
            "animation {} is {end} s long: too many keyframes",
            animation.name
        ));
    }
    Ok(count)
}

/// The `frames` an animation of `count` keyframes plays at `frame_duration`: the manifest's
/// `frames` while they play that many (or while the action keeps the shorter length the
/// animation had when imported, `imported` keyframes: the file's keyframe data ended before its
/// range did), else the range of the action's length. An action longer than the engine's signed
/// frame numbers reach is refused.
pub(crate) fn frames_of_action(
    count: usize,
    frame_duration: u8,
    frames: u16,
    imported: usize,
) -> Result<u16, String> {
    let d = frame_duration.max(1) as usize;
    let played = (frames.wrapping_sub(1) as i16).max(0) as usize;
    let played = played.div_ceil(d) + 1;
    if count == played || (count == imported && count < played) {
        return Ok(frames);
    }
    let wanted = (count.max(1) - 1) * d + 1;
    // The engine's frame numbers are signed 16-bit: a longer range ends before it starts.
    let longest = i16::MAX as usize + 1;
    u16::try_from(wanted)
        .ok()
        .filter(|&w| usize::from(w) <= longest)
        .ok_or_else(|| {
            format!(
            "the action has {count} keyframes (one every {d} ticks of 1/30 s): {wanted} frames, more than \
             the {longest} an animation can have (the engine's frame numbers are signed 16-bit); shorten \
             the action or raise its frame duration"
        )
        })
}

/// Whether the angle set `r` gives the rotation `m` (within TR's angle resolution).
fn same_rotation(r: &Rotation, m: [[f64; 3]; 3]) -> bool {
    let t = Transform::rotation_yxz(r);
    (0..3).all(|i| (0..3).all(|j| (t.m[i][j] - m[i][j]).abs() < 4e-3))
}

/// The nodes of a scene as an animation moves them: each node's rest transform, with its
/// channels (found once, by node) sampled at a time.
pub(crate) struct Posing<'a> {
    scene: &'a Scene,
    channels: FastMap<usize, Vec<&'a Channel>>,
}

impl<'a> Posing<'a> {
    pub(crate) fn new(scene: &'a Scene, animation: &'a Animation) -> Self {
        let mut channels: FastMap<usize, Vec<&Channel>> = FastMap::default();
        for c in &animation.channels {
            if c.node < scene.nodes.len() {
                channels.entry(c.node).or_default().push(c);
            }
        }
        Posing { scene, channels }
    }

    /// The world transforms of `nodes` at time `t`. Only they and their ancestors are posed:
    /// a scene may hold any number of other nodes (20 000 of them, each posed at each of 20 000
    /// keyframes, took a build 21 s).
    pub(crate) fn world_transforms(&self, nodes: &[usize], t: f32) -> Vec<Transform> {
        let mut world: FastMap<usize, Transform> = FastMap::default();
        nodes.iter().map(|&n| self.world(n, t, &mut world, 0)).collect()
    }

    fn world(&self, i: usize, t: f32, world: &mut FastMap<usize, Transform>, depth: usize) -> Transform {
        if let Some(w) = world.get(&i) {
            return *w;
        }
        let Some(node) = self.scene.nodes.get(i) else {
            return Transform::IDENTITY;
        };
        let (mut translation, mut rotation, mut scale) = (node.translation, node.rotation, node.scale);
        for c in self.channels.get(&i).into_iter().flatten() {
            let v = sample(c, t);
            match c.property {
                Property::Translation => translation = [v[0], v[1], v[2]],
                Property::Rotation => rotation = v,
                Property::Scale => scale = [v[0], v[1], v[2]],
            }
        }
        let local = math::trs(translation, rotation, scale);
        let w = match node.parent {
            // A cycle cannot come from a valid glTF; the depth guard keeps a broken one finite.
            Some(p) if depth < 1024 => self.world(p, t, world, depth + 1).then(&local),
            _ => local,
        };
        world.insert(i, w);
        w
    }
}

/// The channel's value at `t`: exact at keys, interpolated between them.
fn sample(c: &crate::input::Channel, t: f32) -> [f64; 4] {
    let times = &c.times;
    if t <= times[0] {
        return c.values[0];
    }
    let last = times.len() - 1;
    if t >= times[last] {
        return c.values[last];
    }
    let i = times.partition_point(|&k| k <= t) - 1;
    if (t - times[i]).abs() <= f32::EPSILON * times[i].abs().max(1.0) || c.step {
        return c.values[i];
    }
    let f = ((t - times[i]) / (times[i + 1] - times[i])) as f64;
    let (a, b) = (c.values[i], c.values[i + 1]);
    match c.property {
        Property::Rotation => math::slerp(a, b, f),
        _ => [0, 1, 2, 3].map(|k| a[k] + (b[k] - a[k]) * f),
    }
}
