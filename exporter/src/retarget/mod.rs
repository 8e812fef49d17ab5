//! Retargeting: the animations of a rigged glTF of any humanoid (Mixamo, VRM, a Blender rig)
//! given to a moveable of another skeleton, appended after its own ([`retarget`]).
//!
//! - `source`: the glTF's joints at rest and its animations sampled at 30 keyframes a second, as
//!   world transforms.
//! - `map`: which joint drives which TR bone ([`BoneMap`]: a YAML map, or the built-in names).
//! - `solve`: each driven bone turned in world space as its joint turns away from its rest pose,
//!   from the bone's bind pose, then back to TR's Y·X·Z keyframe angles.
//!
//! Proportions follow the target: the root's motion is scaled by the ratio of the target's leg
//! (hips to the lowest driven bone, in its bind pose) to the source's, becomes the root offset of
//! each keyframe, and its mean forward velocity the animation's speed (the offsets keep what is
//! left, so the animation plays in place while the engine moves the object).

pub mod map;
mod solve;
mod source;

use std::path::Path;

use wadforge_format::pose::{posed_bounding_box, Transform};
use wadforge_format::references::{self, canonical_starts, AnimationRef, Targets};
use wadforge_format::{Animation, Fixed16, Keyframe, Mesh, Moveable, MoveableIndex, Rotation, Wad};

use crate::error::{BuildError, Place};
pub use map::BoneMap;
use source::{Motion, Source};

/// What to retarget onto which object.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The rigged glTF (`.glb`, or `.gltf` with its files).
    pub source: &'a Path,
    pub map: &'a BoneMap,
    /// The source's animations to bring, by name; all without it.
    pub only: Option<&'a [String]>,
    /// The target moveable's bone names, one per mesh (as the manifest names them).
    pub bones: &'a [String],
    /// The target object as messages name it.
    pub object: String,
    /// TR units per glTF metre.
    pub tr_units_per_metre: f64,
    /// Where each moveable's animations started in the target file's animation table, which
    /// references into another object's animations count in; `None`: one after the other.
    pub starts: Option<&'a [usize]>,
}

/// What a retargeting did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Each bone a joint drives: (TR bone, source joint).
    pub mapped: Vec<(String, String)>,
    /// The bones no joint drives, left at their rest angles.
    pub at_rest: Vec<String>,
    /// The target's leg length over the source's: how the root's motion was scaled.
    pub proportion: f64,
    pub added: Vec<Added>,
    /// References of other animations whose stored numbers changed to keep their targets (the
    /// table grew under them); the model is laid out one object's animations after another's.
    pub renumbered: Vec<Renumbered>,
    pub notes: Vec<String>,
}

/// A reference renumbered: in animation `animation` of moveable `moveable` (positions in the
/// model), its next animation or a dispatch, from one stored number to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renumbered {
    pub moveable: usize,
    pub animation: usize,
    /// `next`, or `state change C, dispatch D`.
    pub reference: String,
    pub from: i32,
    pub to: i32,
}

/// One animation appended.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// Its index among the object's animations.
    pub index: usize,
    /// The source animation's name (`ANIM` without one).
    pub name: String,
    pub keyframes: usize,
    /// TR units a frame forward.
    pub speed: f64,
    /// Its state, one of its own; its next animation is itself (at its first frame).
    pub state: u16,
}

/// Appends the source's animations, retargeted, to `wad.moveables[moveable]` (see the module
/// documentation); its own animations are untouched.
pub fn retarget(request: &Request, wad: &mut Wad, moveable: usize) -> Result<Report, BuildError> {
    let place = Place {
        file: request.source.to_path_buf(),
        object: request.object.clone(),
    };
    let fail = |e: String| place.error(None, e);
    let input_bytes = std::fs::metadata(request.source).map(|m| m.len()).unwrap_or(0);
    let source = source::read(request.source, input_bytes).map_err(fail)?;
    let motions = chosen(&source, request.only).map_err(fail)?;
    let target = wad
        .moveables
        .get(moveable)
        .ok_or_else(|| fail(format!("the target has no moveable {moveable}")))?;
    if request.bones.len() != target.meshes.len() {
        return Err(fail(format!(
            "{} bone names for the target's {} meshes; name one bone a mesh",
            request.bones.len(),
            target.meshes.len()
        )));
    }
    let (driven, mut notes) = request.map.resolve(&source.names, request.bones).map_err(fail)?;
    if driven.iter().all(Option::is_none) {
        return Err(fail(format!(
            "no joint of the source drives a bone of the target (its joints: {}); write a map of them to \
             the target's bones ({}) and give it with --map",
            source.names.join(", "),
            request.bones.join(", ")
        )));
    }
    let rig = Rig::new(&source, target, &driven, request.tr_units_per_metre);
    if rig.faces_back {
        notes.push(
            "the source faces −Z (its left is where the target's right is): its motion is turned a half \
             turn about the vertical to face as the target does"
                .into(),
        );
    }
    let (added, renumbered) = append_all(wad, moveable, &rig, &motions, request.starts).map_err(fail)?;
    Ok(Report {
        mapped: (driven.iter().zip(request.bones))
            .filter_map(|(j, b)| j.map(|j| (b.clone(), source.names[j].clone())))
            .collect(),
        at_rest: (driven.iter().zip(request.bones))
            .filter(|(j, _)| j.is_none())
            .map(|(_, b)| b.clone())
            .collect(),
        proportion: rig.proportion,
        added,
        renumbered,
        notes,
    })
}

/// Appends each of `motions` retargeted by `rig` to `wad.moveables[moveable]`, every reference
/// across objects (resolved with `starts`, or one object's animations after another's) keeping
/// its target as the table grows; the animations added and the references renumbered.
fn append_all(
    wad: &mut Wad,
    moveable: usize,
    rig: &Rig,
    motions: &[&Motion],
    starts: Option<&[usize]>,
) -> Result<(Vec<Added>, Vec<Renumbered>), String> {
    let starts = starts.map_or_else(|| canonical_starts(&wad.moveables), <[usize]>::to_vec);
    let mut targets = references::resolve(&wad.moveables, &starts);
    let stored = stored_references(&wad.moveables);
    let own = wad.moveables[moveable].animations.len();
    let mut added = Vec::with_capacity(motions.len());
    for motion in motions {
        let keyframes = rig
            .keyframes(motion)
            .map_err(|e| format!("animation {}: {e}", motion.name))?;
        let one = append(wad, moveable, keyframes, &motion.name)?;
        let itself = AnimationRef {
            moveable: MoveableIndex(moveable),
            animation: one.index,
        };
        targets[moveable].push(Targets {
            next: Some(itself),
            dispatches: Vec::new(),
        });
        added.push(one);
    }
    references::encode(&mut wad.moveables, &targets);
    // The new animations' references are their own, not renumbered ones.
    let after = (stored_references(&wad.moveables).into_iter())
        .filter(|r| r.moveable != moveable || r.animation < own);
    let renumbered = (stored.into_iter().zip(after))
        .filter(|(before, after)| before.from != after.from)
        .map(|(before, after)| Renumbered {
            to: after.from,
            ..before
        })
        .collect();
    Ok((added, renumbered))
}

/// Every reference of every animation of `moveables` as it is stored (in `from` and `to`), in
/// order.
fn stored_references(moveables: &[Moveable]) -> Vec<Renumbered> {
    let mut stored = Vec::new();
    for (m, moveable) in moveables.iter().enumerate() {
        for (a, animation) in moveable.animations.iter().enumerate() {
            let mut one = |reference: String, number: i32| {
                stored.push(Renumbered {
                    moveable: m,
                    animation: a,
                    reference,
                    from: number,
                    to: number,
                })
            };
            one("next".into(), animation.next_animation);
            for (c, change) in animation.state_changes.iter().enumerate() {
                for (d, dispatch) in change.dispatches.iter().enumerate() {
                    one(format!("state change {c}, dispatch {d}"), dispatch.next_animation);
                }
            }
        }
    }
    stored
}

/// The source's animations `only` names (all without it); an error for a name it has not.
fn chosen<'s>(source: &'s Source, only: Option<&[String]>) -> Result<Vec<&'s Motion>, String> {
    let names = || {
        let all: Vec<&str> = source.animations.iter().map(|a| a.name.as_str()).collect();
        all.join(", ")
    };
    if source.animations.is_empty() {
        return Err("it has no animation: export the actions with it (in Blender, Animation ticked)".into());
    }
    let Some(only) = only else {
        return Ok(source.animations.iter().collect());
    };
    only.iter()
        .map(|name| {
            source
                .animations
                .iter()
                .find(|a| a.name == name.trim())
                .ok_or_else(|| {
                    format!(
                        "--only names {name}, which is no animation of the source (its animations: {})",
                        names()
                    )
                })
        })
        .collect()
}

/// The source's skeleton laid on the target's: which joint drives each bone, the bones' parents,
/// and how the root's motion is scaled.
struct Rig<'a> {
    source: &'a Source,
    driven: &'a [Option<usize>],
    parents: Vec<usize>,
    /// The joint whose motion is the root's: the one driving the root bone, else the skeleton's
    /// top joint.
    hips: usize,
    /// TR units of the target per metre of the source's motion.
    scale: f64,
    proportion: f64,
    /// The source hips' rest height over its floor, in the target's TR units.
    hip_height: f64,
    /// Whether the source faces the other way (its left is the target's right): its motion is
    /// turned a half turn about the vertical.
    faces_back: bool,
}

impl<'a> Rig<'a> {
    fn new(source: &'a Source, target: &Moveable, driven: &'a [Option<usize>], units: f64) -> Self {
        let parents: Vec<usize> = std::iter::once(0)
            .chain(target.links.iter().map(|l| l.parent))
            .collect();
        let hips = driven[0].or(source.roots.first().copied()).unwrap_or(0);
        let height = |t: &Transform| t.m[1][3];
        let hip_y = height(&source.rest[hips]);
        // The bind pose has no rotations: each bone sits at its links' offsets from the root.
        let mut bind = vec![[0.0f64; 3]; parents.len()];
        for b in 1..parents.len() {
            let (above, offset) = (bind[parents[b].min(b - 1)], target.links[b - 1].offset);
            bind[b] = [0, 1, 2].map(|i| above[i] + f64::from(offset[i]));
        }
        // Sideways (TR X: glTF −X), the source's driven joints should sit where their bones do.
        let hip_x = source.rest[hips].m[0][3];
        let agreement: f64 = (1..parents.len())
            .filter_map(|b| driven[b].map(|j| bind[b][0] * (hip_x - source.rest[j].m[0][3])))
            .sum();
        let legs = (1..parents.len())
            .filter_map(|b| driven[b].map(|j| (bind[b][1], (hip_y - height(&source.rest[j])) * units)))
            .filter(|&(t, s)| t > 0.0 && s > 1e-6)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let proportion = legs.map_or(1.0, |(t, s)| t / s);
        // The source stands on its origin, or on its lowest joint when that is lower.
        let floor = source.rest.iter().map(height).fold(0.0, f64::min);
        Rig {
            source,
            driven,
            parents,
            hips,
            scale: units * proportion,
            proportion,
            hip_height: (hip_y - floor) * units * proportion,
            faces_back: agreement < 0.0,
        }
    }

    /// The target's keyframes of `motion`, with the speed its root's mean forward velocity gives.
    fn keyframes(&self, motion: &Motion) -> Result<(Vec<Keyframe>, f64), String> {
        let mut keyframes: Vec<Keyframe> = Vec::with_capacity(motion.frames.len());
        for frame in &motion.frames {
            let world: Vec<Option<solve::Matrix>> = (self.driven.iter())
                .map(|j| j.map(|j| self.facing(solve::world_delta(&frame[j], &self.source.rest[j]))))
                .collect();
            let previous = keyframes.last().map(|k| k.rotations.as_slice());
            let rotations = solve::keyframe_angles(&self.parents, &world, previous);
            keyframes.push(Keyframe {
                rotations,
                ..Keyframe::default()
            });
        }
        let moved: Vec<[f64; 3]> = motion
            .frames
            .iter()
            .map(|f| self.root_motion(&f[self.hips]))
            .collect();
        let speed = forward_speed(&moved);
        for (k, (keyframe, m)) in keyframes.iter_mut().zip(&moved).enumerate() {
            // The engine moves the object `speed` a frame: the offset keeps the rest of the motion.
            let forward = m[2] - moved[0][2] - speed * k as f64;
            let offset = [m[0], m[1] - self.hip_height, forward];
            if offset.iter().any(|c| c.abs() > f64::from(i16::MAX)) {
                return Err(format!(
                    "keyframe {k}: the root moves {offset:?} TR units away, past TR's ±32767; check the \
                     source's scale (its hips {:.2} m over its floor)",
                    self.hip_height / self.scale
                ));
            }
            keyframe.offset = offset.map(|c| c.round() as i16);
        }
        Ok((keyframes, speed))
    }

    /// The root's move from its rest place to `now`'s, in the target's TR units and axes (and
    /// facing).
    fn root_motion(&self, now: &Transform) -> [f64; 3] {
        let rest = &self.source.rest[self.hips];
        let d = [0, 1, 2].map(|i| (now.m[i][3] - rest.m[i][3]) * self.scale);
        if self.faces_back {
            [d[0], -d[1], -d[2]]
        } else {
            [-d[0], -d[1], d[2]]
        }
    }

    /// A world delta (TR axes) as the target faces.
    fn facing(&self, delta: solve::Matrix) -> solve::Matrix {
        if self.faces_back {
            solve::half_turned(delta)
        } else {
            delta
        }
    }
}

/// The mean forward (TR +Z) velocity of the root's path `moved`, TR units a frame.
fn forward_speed(moved: &[[f64; 3]]) -> f64 {
    match (moved.first(), moved.last()) {
        (Some(first), Some(last)) if moved.len() > 1 => (last[2] - first[2]) / (moved.len() - 1) as f64,
        _ => 0.0,
    }
}

/// Appends an animation of `keyframes` (and speed) named `name` to `wad.moveables[moveable]`:
/// after its timeline, one tick a keyframe, a state of its own, itself next, keyframe boxes from
/// the posed meshes.
fn append(
    wad: &mut Wad,
    moveable: usize,
    (mut keyframes, speed): (Vec<Keyframe>, f64),
    name: &str,
) -> Result<Added, String> {
    let m = &wad.moveables[moveable];
    let meshes: Vec<&Mesh> = m.meshes.iter().filter_map(|&i| wad.meshes.get(i)).collect();
    for k in &mut keyframes {
        k.bounding_box = posed_bounding_box(&m.links, k, &meshes);
    }
    let start = (m.animations.iter())
        .map(|a| u32::from(a.frame_end) + 1)
        .max()
        .unwrap_or(0);
    let end = start + keyframes.len().max(1) as u32 - 1;
    if end > i16::MAX as u32 {
        return Err(format!(
            "it would end at frame {end} of the object's timeline, past the 32767 the engine's signed frame \
             numbers reach; bring fewer or shorter animations (--only)"
        ));
    }
    let state = (m.animations.iter())
        .map(|a| a.state)
        .max()
        .map_or(0, |s| s.saturating_add(1));
    let index = m.animations.len();
    if keyframes.is_empty() {
        keyframes.push(Keyframe {
            rotations: vec![Rotation::default(); m.meshes.len()],
            ..Keyframe::default()
        });
    }
    let count = keyframes.len();
    wad.moveables[moveable].animations.push(Animation {
        frame_duration: 1,
        state,
        speed: Fixed16::from_f64(speed),
        frame_start: start as u16,
        frame_end: end as u16,
        next_animation: index as i32,
        next_frame: start as u16,
        keyframes,
        ..Animation::default()
    });
    Ok(Added {
        index,
        name: if name.trim().is_empty() {
            "ANIM".into()
        } else {
            name.to_string()
        },
        keyframes: count,
        speed,
        state,
    })
}
