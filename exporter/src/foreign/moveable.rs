//! A foreign skeleton → a TR moveable: its joints named uniquely, ordered depth-first with links
//! from the rest pose, one mesh per bone (each vertex to its heaviest joint, each triangle to the
//! bone most of its corners follow), and every glTF animation sampled at 30 keyframes a second.

use wadforge_format::{Animation, Keyframe, Limits, Link};
use wadforge_manifests::{AnimationManifest, AnimationName, AnimationTarget, KeptExactly, StateRef};

use super::rest;
use crate::bone_meshes::BoneMeshes;
use crate::geometry::RawMesh;
use crate::input::{self, Scene};
use crate::keyframes;
use crate::skeleton::{skeleton, Skeleton};
use crate::texture::RgbaImage;
use std::sync::Arc;

/// Most bones a TR moveable can have: an animation record stores its keyframe size in one byte
/// (255 words), and a keyframe is 9 header words plus up to two words per bone.
pub const MOST_BONES: usize = (255 - wadforge_format::KEYFRAME_HEADER_WORDS) / 2;

/// Refuses a skeleton of more joints than a TR moveable has bones, before any work on them.
pub(super) fn bones_fit(joints: &[usize]) -> Result<(), String> {
    if joints.len() > MOST_BONES {
        return Err(format!(
            "the skin has {} joints; a TR moveable has at most {MOST_BONES} bones (a keyframe of 9 words \
             and two a bone fits in 255 words): merge bones in Blender, or weight the mesh to fewer",
            joints.len()
        ));
    }
    Ok(())
}

/// A moveable's parts before texturing.
pub(super) struct Parts {
    /// The bones' names in TR mesh order.
    pub bones: Vec<String>,
    pub links: Vec<Link>,
    pub meshes: Vec<RawMesh>,
    pub images: Vec<Arc<RgbaImage>>,
    /// Each animation's name in the glTF ("" when it has none) and its keyframes (boxes left
    /// empty).
    pub animations: Vec<(String, Vec<Keyframe>)>,
    pub notes: Vec<String>,
}

/// The moveable of `scene`, whose one skin has the joint nodes `joints` (its vertices already at
/// their rest places, [`rest::to_rest_pose`]).
/// `input_bytes` (the file's size) bounds the keyframes it may sample.
pub(super) fn skinned_parts(
    scene: &mut Scene,
    joints: &[usize],
    scale: f64,
    input_bytes: u64,
) -> Result<Parts, String> {
    let names = name_joints(scene, joints);
    let skinned = rest::skinned(scene);
    let (skeleton, note) = skeleton(scene, &skinned, &names)?;
    let links = skeleton.links(scale)?;
    let mut images = Vec::new();
    let shown = BoneMeshes::new(scene, &skeleton, scale, &mut images);
    let shown_nodes = shown.shown();
    let meshes = shown.gather(&shown_nodes)?;
    let left = scene.meshes.len() - shown_nodes.len();
    let left_out = (left > 0).then(|| {
        format!(
            "{left} mesh nodes neither skinned nor parented to a joint are left out: a moveable's meshes \
             move with its bones (parent them to a bone, or weight them to the armature, in Blender)"
        )
    });
    // Bounded before sampling: two keys an hour apart ask for 65 536 keyframes.
    let asked: u64 = (scene.animations.iter())
        .map(|a| keyframe_count(a).unwrap_or(0) as u64 * (skeleton.nodes.len() as u64 + 1))
        .sum();
    Limits::DEFAULT
        .keyframe_bones
        .check(asked, input_bytes)
        .map_err(|e| e.to_string())?;
    let animations = sampled_animations(scene, &skeleton, scale)?;
    Ok(Parts {
        bones: skeleton.names,
        links,
        meshes,
        images,
        animations,
        notes: note.into_iter().chain(left_out).collect(),
    })
}

/// Gives each joint node a name of its own (its name when it has one no other joint has,
/// `bone_NN` otherwise), which the skeleton matches bones by; the names in skin order.
fn name_joints(scene: &mut Scene, joints: &[usize]) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(joints.len());
    for (i, &j) in joints.iter().enumerate() {
        let own = fitting(scene.nodes[j].name.trim());
        let taken = |n: &str| {
            names.iter().any(|m| m == n) || joints.iter().any(|&o| o != j && scene.nodes[o].name == n)
        };
        let name = if own.is_empty() || taken(own) {
            let mut k = i;
            loop {
                let candidate = format!("bone_{k:02}");
                if !taken(&candidate) {
                    break candidate;
                }
                k += joints.len();
            }
        } else {
            own.to_string()
        };
        names.push(name);
    }
    for (&j, name) in joints.iter().zip(&names) {
        scene.nodes[j].name = name.clone();
    }
    names
}

/// Longest bone name Blender keeps whole, in bytes.
const LONGEST_NAME: usize = 63;

/// `name` cut to [`LONGEST_NAME`] bytes at a character's edge.
fn fitting(name: &str) -> &str {
    let mut end = name.len().min(LONGEST_NAME);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Each glTF animation sampled every 1/30 s over its length (its last key), the end included:
/// a 1 s animation gives 31 keyframes.
fn sampled_animations(
    scene: &Scene,
    skeleton: &Skeleton,
    scale: f64,
) -> Result<Vec<(String, Vec<Keyframe>)>, String> {
    let mut sampled = Vec::with_capacity(scene.animations.len());
    for (i, a) in scene.animations.iter().enumerate() {
        let what = if a.name.is_empty() {
            format!("animation {i}")
        } else {
            format!("animation {i} ({})", a.name)
        };
        let count = keyframe_count(a).ok_or_else(|| {
            format!(
                "{what} lasts longer than the {MOST_KEYFRAMES} keyframes at 30 a second a TR animation \
                 plays (the engine's frame numbers are signed 16-bit); shorten it"
            )
        })?;
        let tr = Animation {
            frame_duration: 1,
            frame_end: (count - 1) as u16,
            ..Animation::default()
        };
        let keyframes = keyframes::keyframes(scene, skeleton, a, &tr, scale, &sampling(count))
            .map_err(|e| format!("{what}: {e}"))?;
        sampled.push((a.name.clone(), keyframes));
    }
    Ok(sampled)
}

/// Most keyframes one animation of one tick a keyframe plays: frames 0 to 32 767.
const MOST_KEYFRAMES: usize = i16::MAX as usize + 1;

/// Keyframes of `a` at 30 a second, its last key's time included; `None` past
/// [`MOST_KEYFRAMES`] (or a time that is not a number).
pub(super) fn keyframe_count(a: &input::Animation) -> Option<usize> {
    let end = (a.channels.iter().filter_map(|c| c.times.last())).fold(0.0f32, |a, &b| a.max(b)) as f64;
    let count = (end.max(0.0) * 30.0).round() + 1.0;
    (count.is_finite() && count <= MOST_KEYFRAMES as f64).then_some(count as usize)
}

/// What the keyframe sampler reads of a manifest animation for a new one: its frame count,
/// nothing kept exactly.
fn sampling(count: usize) -> AnimationManifest {
    AnimationManifest {
        name: String::new(),
        state: StateRef { id: 0, name: None },
        frame_duration: 1,
        first_frame: None,
        frames: count as u16,
        speed: 0.0,
        acceleration: 0.0,
        lateral_speed: 0.0,
        lateral_acceleration: 0.0,
        next: AnimationTarget {
            animation: AnimationName::Index(0),
            frame: 0,
        },
        state_changes: Vec::new(),
        commands: Vec::new(),
        undecodable: None,
        kept_exactly: KeptExactly::default(),
    }
}
