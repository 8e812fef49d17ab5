//! The source of a retargeting: a rigged glTF's joints (those of its one skin), each one's world
//! rest transform with the nodes above the skeleton applied, and its animations sampled at 30
//! keyframes a second as the joints' world transforms, read and sampled as `foreign` and build
//! read them.

use std::collections::HashMap;
use std::path::Path;

use wadforge_format::pose::Transform;
use wadforge_format::Limits;

use crate::decoded_images::DecodedImages;
use crate::keyframes::{keyframe_count, Posing};
use crate::skeleton::{joints_above, world_rest};
use crate::{foreign, input};

/// Most keyframes a TR animation of one tick a keyframe plays: frames 0 to 32 767.
const MOST_KEYFRAMES: usize = i16::MAX as usize + 1;

/// A source skeleton and its motion.
pub(super) struct Source {
    /// Each joint's name (its node's), in skin order.
    pub names: Vec<String>,
    /// Each joint's world rest transform (glTF axes, metres).
    pub rest: Vec<Transform>,
    /// The joints no other joint is above.
    pub roots: Vec<usize>,
    pub animations: Vec<Motion>,
}

/// One animation: its glTF name and, per keyframe, each joint's world transform.
pub(super) struct Motion {
    pub name: String,
    pub frames: Vec<Vec<Transform>>,
}

/// The source at `path`; `input_bytes` (its size) bounds the keyframes it may ask to sample.
pub(super) fn read(path: &Path, input_bytes: u64) -> Result<Source, String> {
    let scene = input::read(path, &DecodedImages::default())?;
    let joints = foreign::skin_joints(&scene)?.ok_or(
        "it has no skin: export the model with its armature (in Blender, the armature and the meshes \
         parented to it)",
    )?;
    let index: HashMap<usize, usize> = joints.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let above = joints_above(&scene, &index);
    let roots = (0..joints.len())
        .filter(|&j| above[joints[j]].is_none())
        .collect();
    let names = joints.iter().map(|&n| scene.nodes[n].name.clone()).collect();
    let rest = joints.iter().map(|&n| world_rest(&scene, n)).collect();
    let counts = (scene.animations.iter().enumerate())
        .map(|(i, a)| sampled_count(a, i))
        .collect::<Result<Vec<usize>, String>>()?;
    // Bounded before sampling: two keys an hour apart ask for 108 000 keyframes.
    let asked: u64 = counts.iter().map(|&c| c as u64 * joints.len() as u64).sum();
    Limits::DEFAULT
        .keyframe_bones
        .check(asked, input_bytes)
        .map_err(|e| e.to_string())?;
    let animations = (scene.animations.iter().zip(counts))
        .map(|(a, count)| {
            let posing = Posing::new(&scene, a);
            let frames = (0..count)
                .map(|k| posing.world_transforms(&joints, (k as f64 / 30.0) as f32))
                .collect();
            Motion {
                name: a.name.clone(),
                frames,
            }
        })
        .collect();
    Ok(Source {
        names,
        rest,
        roots,
        animations,
    })
}

/// Keyframes of the `i`th animation `a` at 30 a second, its last key included; an error past what
/// a TR animation plays.
fn sampled_count(a: &input::Animation, i: usize) -> Result<usize, String> {
    // `keyframe_count` refuses counts past 65 535 with its own words: both are too long here.
    match keyframe_count(a, 1) {
        Ok(count) if count <= MOST_KEYFRAMES => Ok(count),
        _ => Err(format!(
            "animation {i} ({}) is longer than the {MOST_KEYFRAMES} keyframes at 30 a second (18 min) a TR \
             animation plays (the engine's frame numbers are signed 16-bit); shorten it, or leave it out \
             with --only",
            a.name
        )),
    }
}
