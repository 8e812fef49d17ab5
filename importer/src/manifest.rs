//! Model → object manifests: everything glTF cannot carry, with frames relative to each
//! animation's first frame and animations referred to by name (another object's by that
//! object's id and its place in that object's list).

use std::collections::HashMap;

use wadforge_format::catalog::{self, Game};
use wadforge_format::pose::{AngleSets, Transform};
use wadforge_format::references::{AnimationRef, Targets};
use wadforge_format::{Animation, BoundingBox, Command, Mesh, MoveableIndex, Rotation, Shading, Static, Wad};
use wadforge_manifests::*;

pub(crate) fn mesh_info(mesh: &Mesh, same_as: Option<MeshRef>) -> MeshInfo {
    MeshInfo {
        sphere: Sphere {
            center: mesh.sphere.center,
            radius: mesh.sphere.radius,
            flag: mesh.sphere.flag,
        },
        lighting: match mesh.shading {
            Shading::Normals(_) => Lighting::Normals,
            Shading::Shades(_) => Lighting::Shades,
        },
        fingerprint: Some(format!("{:016x}", mesh.positions_fingerprint())),
        recompute_normals: false,
        same_as,
    }
}

pub(crate) fn bounds(b: BoundingBox) -> BoxBounds {
    BoxBounds {
        min: b.min,
        max: b.max,
    }
}

fn state(game: Game, moveable: u32, id: u16) -> StateRef {
    StateRef {
        id,
        name: catalog::state_name(game, moveable, id).map(str::to_string),
    }
}

/// What a reference names in the manifest, and the first frame its frame counts from: one of
/// this object's animations by name, another object's by that object's id and its place in that
/// object's list (`t`, resolved in the file's table), or, naming no animation of the file, the
/// index as stored (`relative`) with its frame as it stands.
fn target(
    (wad, owner): (&Wad, MoveableIndex),
    names: &[String],
    relative: i32,
    t: Option<AnimationRef>,
) -> (AnimationName, i32) {
    let Some(t) = t else {
        return (AnimationName::Index(relative), 0);
    };
    let m = &wad.moveables[t.moveable];
    let first = i32::from(m.animations[t.animation].frame_start);
    if t.moveable == owner {
        return (AnimationName::Name(names[t.animation].clone()), first);
    }
    let other = OtherAnimation {
        moveable: m.id,
        index: u32::try_from(t.animation).unwrap_or(u32::MAX),
    };
    (AnimationName::Other(other), first)
}

/// The manifest animations of moveable `i` of `wad`, whose references point at `targets`.
pub(crate) fn animations(
    game: Game,
    (wad, i): (&Wad, MoveableIndex),
    targets: &[Targets],
    names: &[String],
) -> Vec<AnimationManifest> {
    let m = &wad.moveables[i];
    let mut sets_of = AngleSetsOf::default();
    m.animations
        .iter()
        .zip(names)
        .zip(targets)
        .map(|((a, name), t)| {
            let first = a.frame_start as i32;
            let (next, next_first) = target((wad, i), names, a.next_animation, t.next);
            AnimationManifest {
                name: name.clone(),
                state: state(game, m.id, a.state),
                frame_duration: a.frame_duration,
                first_frame: Some(a.frame_start),
                frames: a.frame_end.wrapping_sub(a.frame_start).wrapping_add(1),
                speed: a.speed.to_f64(),
                acceleration: a.acceleration.to_f64(),
                lateral_speed: a.lateral_speed.to_f64(),
                lateral_acceleration: a.lateral_acceleration.to_f64(),
                next: AnimationTarget {
                    animation: next,
                    frame: a.next_frame as i32 - next_first,
                },
                state_changes: a
                    .state_changes
                    .iter()
                    .zip(&t.dispatches)
                    .map(|(c, ts)| StateChangeManifest {
                        state: state(game, m.id, c.state),
                        dispatches: c
                            .dispatches
                            .iter()
                            .zip(ts)
                            .map(|(d, &dt)| {
                                let (animation, target_first) = target((wad, i), names, d.next_animation, dt);
                                DispatchManifest {
                                    frames: [d.frame_start as i32 - first, d.frame_end as i32 - first],
                                    animation,
                                    frame: d.next_frame as i32 - target_first,
                                }
                            })
                            .collect(),
                    })
                    .collect(),
                commands: a.commands.iter().map(|c| command(c, first)).collect(),
                undecodable: a.undecodable_keyframes.as_ref().map(|stored| {
                    format!(
                        "{}; the game reads these words as they are, Blender shows no action for it, and \
                         build keeps them as stored",
                        stored.why(a.played_keyframes(), m.meshes.len())
                    )
                }),
                kept_exactly: KeptExactly {
                    pose_fingerprint: (!a.keyframes.is_empty())
                        .then(|| format!("{:016x}", a.poses_fingerprint())),
                    exact_angles: exact_angles(a, &mut sets_of),
                    keyframe_boxes: a.keyframes.iter().map(|k| bounds(k.bounding_box)).collect(),
                    undecodable_keyframes: a.undecodable_keyframes.as_ref().map(|stored| StoredKeyframes {
                        size: stored.size,
                        words: HexWords(stored.words.clone()),
                    }),
                    no_keyframes: a.keyframes.is_empty() && a.undecodable_keyframes.is_none(),
                },
            }
        })
        .collect()
}

/// The angle sets of each rotation's matrix, by its angles (modulo a turn): an object's animations
/// repeat their rotations (on the TR4-shaped fixture, 135 000 rotations hold 13 000 distinct; the
/// real TR1 level's 51 000, 25 000), and the matrix and its decomposition cost a thousand
/// instructions.
type AngleSetsOf = HashMap<(u16, u16, u16), AngleSets, foldhash::fast::RandomState>;
/// Entries of an [`AngleSetsOf`]: about 5 MB.
const MOST_ANGLE_SETS_KEPT: usize = 1 << 16;

/// The angle sets build would not get back by decomposing the rotations (it takes the set nearest
/// the previous keyframe's, which it then has exactly).
fn exact_angles(a: &Animation, sets_of: &mut AngleSetsOf) -> Vec<ExactAngles> {
    let mut out = Vec::new();
    for (k, keyframe) in a.keyframes.iter().enumerate() {
        for (j, r) in keyframe.rotations.iter().enumerate() {
            let previous = k.checked_sub(1).and_then(|p| a.keyframes[p].rotations.get(j));
            let turn = Rotation::FULL_TURN as u16;
            let key = (r.x % turn, r.y % turn, r.z % turn);
            let sets = match sets_of.get(&key) {
                Some(sets) => *sets,
                None => {
                    let t = Transform::rotation_yxz(r);
                    let sets = AngleSets::of_matrix([0, 1, 2].map(|i| [t.m[i][0], t.m[i][1], t.m[i][2]]));
                    // Bounded: a file of distinct angles would otherwise take memory for each.
                    if sets_of.len() < MOST_ANGLE_SETS_KEPT {
                        sets_of.insert(key, sets);
                    }
                    sets
                }
            };
            let decoded = sets.nearest(previous);
            let same = [(decoded.x, r.x), (decoded.y, r.y), (decoded.z, r.z)]
                .iter()
                .all(|&(d, o)| {
                    let diff = (d as i32 - (o % 4096) as i32).rem_euclid(4096);
                    diff.min(4096 - diff) <= 1
                });
            if !same {
                out.push(ExactAngles {
                    keyframe: k as u16,
                    mesh: j as u16,
                    x: r.x,
                    y: r.y,
                    z: r.z,
                });
            }
        }
    }
    out
}

fn command(c: &Command, first: i32) -> CommandManifest {
    match *c {
        Command::SetPosition { x, y, z } => CommandManifest::SetPosition([x, y, z]),
        Command::JumpVelocity { vertical, horizontal } => CommandManifest::Jump { vertical, horizontal },
        Command::EmptyHands => CommandManifest::EmptyHands,
        Command::Kill => CommandManifest::Kill,
        Command::PlaySound {
            frame,
            sound,
            on_land,
            in_water,
        } => CommandManifest::Sound {
            frame: frame as i32 - first,
            id: sound,
            on: match (on_land, in_water) {
                (false, false) => SoundPlace::Anywhere,
                (true, false) => SoundPlace::Land,
                (false, true) => SoundPlace::Water,
                (true, true) => SoundPlace::LandAndWater,
            },
        },
        Command::Effect { frame, effect } => CommandManifest::Effect {
            frame: frame as i32 - first,
            id: effect,
            name: effect_name(effect).map(str::to_string),
        },
    }
}

/// TR4 flip effects triggered from animations (the WAD document's command table).
fn effect_name(effect: u16) -> Option<&'static str> {
    Some(match effect {
        0 => "ROTATE_180",
        1 => "FLOOR_SHAKE",
        2 => "FLOOD_SOUND",
        3 => "LARA_BUBBLES",
        4 => "FINISH_LEVEL",
        5 => "ACTIVATE_CAMERA",
        6 => "ACTIVATE_KEY",
        7 => "HEAVY_EARTHQUAKE",
        8 => "GET_CROWBAR",
        11 => "SOFT_EARTHQUAKE",
        12 => "DISABLE_GUNS",
        14 => "GET_RIGHT_GUN",
        15 => "GET_LEFT_GUN",
        16 => "FIRE_RIGHT_GUN",
        17 => "FIRE_LEFT_GUN",
        18 => "MESHSWAP_1",
        19 => "MESHSWAP_2",
        20 => "MESHSWAP_3",
        23 => "HIDE_OBJECT",
        24 => "SHOW_OBJECT",
        26 => "REMOVE_PONYTAIL",
        43 => "GET_WATERSKIN",
        44 => "PUT_BACK_WATERSKIN",
        _ => return None,
    })
}

pub(crate) fn static_manifest(
    s: &Static,
    slot: &str,
    gltf: String,
    mesh: &Mesh,
    same_as: Option<MeshRef>,
) -> StaticManifest {
    StaticManifest {
        id: s.id,
        slot: slot.to_string(),
        gltf,
        mesh: mesh_info(mesh, same_as),
        visibility_box: bounds(s.visibility),
        collision_box: bounds(s.collision),
        flags: s.flags,
    }
}
