//! A humanoid as Mixamo exports one, made here as a GLB for retargeting: 22 joints named
//! `mixamorig:Hips`, `mixamorig:LeftUpLeg`, ... (Lara has 15 bones), each with a rest rotation of
//! its own (none is the identity), under an `Armature` node scaled 0.01 (joint places in
//! centimetres), facing +Z, and one animation, `Walk`: one second of a stride, keyed at every
//! 1/30 s, the hips moving 0.8 m forward.
//!
//! The walk is made of world turns: each joint turns as its parent does, then by its own turn
//! (thighs swing about X, shins bend, the hips turn a little about Y); [`thigh_direction`] gives
//! a thigh's world direction at a keyframe from the same turns, for a test to compare against.

use serde_json::{json, Value};

use super::rigged_figure::glb;

type Matrix = [[f64; 3]; 3];

/// Keyframes of the walk: 0 to 30, one every 1/30 s.
pub const KEYFRAMES: usize = 31;
/// How far the hips move forward over the walk, in metres.
pub const FORWARD_METRES: f64 = 0.8;
/// The hips' rest height over the floor (the origin), in metres.
pub const HIP_HEIGHT_METRES: f64 = 1.0;
/// Largest forward swing of a thigh, radians.
pub const SWING: f64 = 0.5;

/// Joints: name (after `mixamorig:`), parent, rest place in the armature (centimetres, Y up).
const JOINTS: [(&str, Option<usize>, [f64; 3]); 22] = [
    ("Hips", None, [0.0, 100.0, 0.0]),
    ("Spine", Some(0), [0.0, 110.0, 0.0]),
    ("Spine1", Some(1), [0.0, 122.0, 0.0]),
    ("Spine2", Some(2), [0.0, 135.0, 0.0]),
    ("Neck", Some(3), [0.0, 150.0, 0.0]),
    ("Head", Some(4), [0.0, 160.0, 0.0]),
    ("LeftShoulder", Some(3), [5.0, 145.0, 0.0]),
    ("LeftArm", Some(6), [18.0, 145.0, 0.0]),
    ("LeftForeArm", Some(7), [45.0, 145.0, 0.0]),
    ("LeftHand", Some(8), [70.0, 145.0, 0.0]),
    ("RightShoulder", Some(3), [-5.0, 145.0, 0.0]),
    ("RightArm", Some(10), [-18.0, 145.0, 0.0]),
    ("RightForeArm", Some(11), [-45.0, 145.0, 0.0]),
    ("RightHand", Some(12), [-70.0, 145.0, 0.0]),
    ("LeftUpLeg", Some(0), [10.0, 95.0, 0.0]),
    ("LeftLeg", Some(14), [10.0, 52.0, 0.0]),
    ("LeftFoot", Some(15), [10.0, 8.0, 0.0]),
    ("LeftToeBase", Some(16), [10.0, 0.0, 12.0]),
    ("RightUpLeg", Some(0), [-10.0, 95.0, 0.0]),
    ("RightLeg", Some(18), [-10.0, 52.0, 0.0]),
    ("RightFoot", Some(19), [-10.0, 8.0, 0.0]),
    ("RightToeBase", Some(20), [-10.0, 0.0, 12.0]),
];

const HIPS: usize = 0;
const LEFT_UP_LEG: usize = 14;
const RIGHT_UP_LEG: usize = 18;

/// The humanoid as GLB bytes.
pub fn walking_humanoid() -> Vec<u8> {
    walking_humanoid_facing(false)
}

/// The humanoid as GLB bytes, facing −Z with `back` (its armature turned a half turn about Y, as
/// VRM 0.x avatars face): the same walk, turned.
pub fn walking_humanoid_facing(back: bool) -> Vec<u8> {
    let turn = if back { HALF_TURN } else { IDENTITY };
    let mut bin = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut put = |values: &[f32], kind: &str, count: usize, component: u32| {
        put_accessor(
            &mut bin,
            &mut views,
            &mut accessors,
            values,
            kind,
            count,
            component,
        )
    };
    let (positions, joints, weights, indices) = skin_triangles(turn);
    let position = put(&positions, "VEC3", positions.len() / 3, 5126);
    let joint = put(&joints, "VEC4", joints.len() / 4, 5123);
    let weight = put(&weights, "VEC4", weights.len() / 4, 5126);
    let index = put(&indices, "SCALAR", indices.len(), 5125);
    let inverse_binds: Vec<f32> = (0..JOINTS.len()).flat_map(|j| inverse_bind(j, turn)).collect();
    let ibm = put(&inverse_binds, "MAT4", JOINTS.len(), 5126);
    let times: Vec<f32> = (0..KEYFRAMES).map(|k| k as f32 / 30.0).collect();
    let time = put(&times, "SCALAR", KEYFRAMES, 5126);
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    for j in 0..JOINTS.len() {
        let turns: Vec<f32> = (0..KEYFRAMES)
            .flat_map(|k| quaternion(local_rotation(j, k)))
            .collect();
        samplers.push(json!({"input": time, "output": put(&turns, "VEC4", KEYFRAMES, 5126)}));
        channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": j + 1, "path": "rotation"}}));
    }
    let moves: Vec<f32> = (0..KEYFRAMES)
        .flat_map(|k| hips_place(k).map(|c| c as f32))
        .collect();
    samplers.push(json!({"input": time, "output": put(&moves, "VEC3", KEYFRAMES, 5126)}));
    channels
        .push(json!({"sampler": samplers.len() - 1, "target": {"node": HIPS + 1, "path": "translation"}}));
    let document = json!({
        "asset": {"version": "2.0", "generator": "wadforge tests: walking_humanoid"},
        "scene": 0,
        "scenes": [{"nodes": [0, JOINTS.len() + 1]}],
        "nodes": nodes(back),
        "meshes": [{"primitives": [{
            "attributes": {"POSITION": position, "JOINTS_0": joint, "WEIGHTS_0": weight},
            "indices": index, "material": 0
        }]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.6, 0.5, 1.0]}}],
        "skins": [{"joints": (1..=JOINTS.len()).collect::<Vec<_>>(), "inverseBindMatrices": ibm, "skeleton": 1}],
        "animations": [{"name": "Walk", "channels": channels, "samplers": samplers}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bin.len()}],
    });
    glb(&serde_json::to_vec(&document).unwrap(), &bin)
}

/// The world direction (glTF axes, unit length) of the left or right thigh, from its joint to
/// the knee's, at keyframe `k`.
pub fn thigh_direction(left: bool, k: usize) -> [f64; 3] {
    let thigh = if left { LEFT_UP_LEG } else { RIGHT_UP_LEG };
    let bone = sub(JOINTS[thigh + 1].2, JOINTS[thigh].2);
    let d = apply(world_turn(thigh, k), bone);
    let length = d.iter().map(|c| c * c).sum::<f64>().sqrt();
    d.map(|c| c / length)
}

/// The nodes: the armature (0), the joints (1..=22), the skinned mesh (23).
fn nodes(back: bool) -> Vec<Value> {
    let mut armature = json!({"name": "Armature", "scale": [0.01, 0.01, 0.01], "children": [1]});
    if back {
        armature["rotation"] = json!([0.0, 1.0, 0.0, 0.0]);
    }
    let mut nodes = vec![armature];
    for (j, (name, parent, _)) in JOINTS.iter().enumerate() {
        let children: Vec<usize> = (0..JOINTS.len())
            .filter(|&c| JOINTS[c].1 == Some(j))
            .map(|c| c + 1)
            .collect();
        let translation = match parent {
            Some(p) => apply(transpose(rest_turn(*p)), sub(JOINTS[j].2, JOINTS[*p].2)),
            None => JOINTS[j].2,
        };
        let mut node = json!({
            "name": format!("mixamorig:{name}"),
            "translation": translation,
            "rotation": quaternion(rest_local(j)),
        });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        nodes.push(node);
    }
    nodes.push(json!({"name": "Body", "mesh": 0, "skin": 0}));
    nodes
}

/// Joint `j`'s rest rotation in the armature: a turn of its own about a slanted axis (a
/// different one for each joint, never the identity).
fn rest_turn(j: usize) -> Matrix {
    let a = j as f64;
    axis_angle([a.sin(), a.cos(), 0.5], 0.4 + 0.37 * a)
}

/// Joint `j`'s node rotation at rest: its rest rotation relative to its parent's.
fn rest_local(j: usize) -> Matrix {
    match JOINTS[j].1 {
        Some(p) => multiply(transpose(rest_turn(p)), rest_turn(j)),
        None => rest_turn(j),
    }
}

/// Joint `j`'s own turn at keyframe `k` of the walk, in world space.
fn own_turn(j: usize, k: usize) -> Matrix {
    let phase = std::f64::consts::TAU * k as f64 / (KEYFRAMES - 1) as f64;
    let stride = |side: f64| SWING * side * phase.sin();
    match JOINTS[j].0 {
        "Hips" => axis_angle([0.0, 1.0, 0.0], 0.1 * phase.sin()),
        // A thigh swinging forward (its knee towards +Z) turns about −X.
        "LeftUpLeg" => axis_angle([1.0, 0.0, 0.0], -stride(1.0)),
        "RightUpLeg" => axis_angle([1.0, 0.0, 0.0], -stride(-1.0)),
        "LeftLeg" => axis_angle([1.0, 0.0, 0.0], 0.3 + 0.3 * phase.cos()),
        "RightLeg" => axis_angle([1.0, 0.0, 0.0], 0.3 - 0.3 * phase.cos()),
        "LeftArm" => axis_angle([0.0, 0.0, 1.0], -1.2 + 0.2 * phase.sin()),
        "RightArm" => axis_angle([0.0, 0.0, 1.0], 1.2 + 0.2 * phase.sin()),
        "Spine2" => axis_angle([0.0, 1.0, 0.0], -0.1 * phase.sin()),
        _ => IDENTITY,
    }
}

/// Joint `j`'s world turn from its rest at keyframe `k`: its parent's, then its own.
fn world_turn(j: usize, k: usize) -> Matrix {
    let above = JOINTS[j].1.map_or(IDENTITY, |p| world_turn(p, k));
    multiply(above, own_turn(j, k))
}

/// Joint `j`'s node rotation at keyframe `k`: its parent's world rotation undone from its own
/// (world rotation = world turn · rest rotation, and a world turn is the parent's then its own).
fn local_rotation(j: usize, k: usize) -> Matrix {
    let world = |i: usize| multiply(world_turn(i, k), rest_turn(i));
    match JOINTS[j].1 {
        Some(p) => multiply(transpose(world(p)), world(j)),
        None => world(j),
    }
}

/// The hips' place in the armature (centimetres) at keyframe `k`: bobbing, moving forward.
fn hips_place(k: usize) -> [f64; 3] {
    let t = k as f64 / (KEYFRAMES - 1) as f64;
    let bob = 2.0 * (2.0 * std::f64::consts::TAU * t).cos();
    [0.0, 100.0 * HIP_HEIGHT_METRES + bob, 100.0 * FORWARD_METRES * t]
}

/// The inverse of joint `j`'s rest world transform (the armature's `turn` and scale included),
/// column-major.
fn inverse_bind(j: usize, turn: Matrix) -> [f32; 16] {
    let r = transpose(rest_turn(j));
    let linear = multiply(r, transpose(turn));
    let p = JOINTS[j].2.map(|c| c * 0.01);
    let t = apply(r, p).map(|c| -c);
    let s = 100.0;
    let mut m = [0.0f32; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[col * 4 + row] = (linear[row][col] * s) as f32;
        }
    }
    for row in 0..3 {
        m[12 + row] = (t[row] * s) as f32;
    }
    m[15] = 1.0;
    m
}

/// A small triangle at each joint (metres, world, the armature's `turn` applied), weighted wholly
/// to it.
fn skin_triangles(turn: Matrix) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut positions, mut joints, mut weights, mut indices) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (j, (_, _, place)) in JOINTS.iter().enumerate() {
        for corner in [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, -3.0, 1.0]] {
            let at = apply(turn, [0, 1, 2].map(|i| (place[i] + corner[i]) * 0.01));
            positions.extend(at.map(|c| c as f32));
            joints.extend([j as f32, 0.0, 0.0, 0.0]);
            weights.extend([1.0f32, 0.0, 0.0, 0.0]);
            indices.push((positions.len() / 3 - 1) as f32);
        }
    }
    (positions, joints, weights, indices)
}

/// Appends `values` as an accessor (floats, or whole numbers stored as `component`'s type).
fn put_accessor(
    bin: &mut Vec<u8>,
    views: &mut Vec<Value>,
    accessors: &mut Vec<Value>,
    values: &[f32],
    kind: &str,
    count: usize,
    component: u32,
) -> usize {
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let start = bin.len();
    for &v in values {
        match component {
            5123 => bin.extend((v as u16).to_le_bytes()),
            5125 => bin.extend((v as u32).to_le_bytes()),
            _ => bin.extend(v.to_le_bytes()),
        }
    }
    views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": bin.len() - start}));
    let mut accessor =
        json!({"bufferView": views.len() - 1, "componentType": component, "count": count, "type": kind});
    if kind == "VEC3" && accessors.is_empty() {
        // POSITION needs its bounds.
        let axis = |i: usize| values.iter().skip(i).step_by(3).copied();
        accessor["min"] = json!((0..3)
            .map(|i| axis(i).fold(f32::MAX, f32::min))
            .collect::<Vec<_>>());
        accessor["max"] = json!((0..3)
            .map(|i| axis(i).fold(f32::MIN, f32::max))
            .collect::<Vec<_>>());
    }
    if kind == "SCALAR" && component == 5126 {
        accessor["min"] = json!([values.first().copied().unwrap_or(0.0)]);
        accessor["max"] = json!([values.last().copied().unwrap_or(0.0)]);
    }
    accessors.push(accessor);
    accessors.len() - 1
}

/// A half turn about Y.
const HALF_TURN: Matrix = [[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]];

const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn axis_angle(axis: [f64; 3], angle: f64) -> Matrix {
    let length = axis.iter().map(|c| c * c).sum::<f64>().sqrt();
    let [x, y, z] = axis.map(|c| c / length);
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ]
}

fn multiply(a: Matrix, b: Matrix) -> Matrix {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
}

fn transpose(a: Matrix) -> Matrix {
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| a[c][r]))
}

fn apply(a: Matrix, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| (0..3).map(|k| a[r][k] * v[k]).sum())
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| a[i] - b[i])
}

/// The glTF quaternion (x, y, z, w) of a rotation matrix.
fn quaternion(m: Matrix) -> [f32; 4] {
    let trace = m[0][0] + m[1][1] + m[2][2];
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [
            (m[2][1] - m[1][2]) / s,
            (m[0][2] - m[2][0]) / s,
            (m[1][0] - m[0][1]) / s,
            s / 4.0,
        ]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
        [
            s / 4.0,
            (m[0][1] + m[1][0]) / s,
            (m[0][2] + m[2][0]) / s,
            (m[2][1] - m[1][2]) / s,
        ]
    } else if m[1][1] > m[2][2] {
        let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
        [
            (m[0][1] + m[1][0]) / s,
            s / 4.0,
            (m[1][2] + m[2][1]) / s,
            (m[0][2] - m[2][0]) / s,
        ]
    } else {
        let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
        [
            (m[0][2] + m[2][0]) / s,
            (m[1][2] + m[2][1]) / s,
            s / 4.0,
            (m[1][0] - m[0][1]) / s,
        ]
    };
    q.map(|c| c as f32)
}
