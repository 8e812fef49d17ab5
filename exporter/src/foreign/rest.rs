//! A foreign glTF's skin brought to the shape build reads: each skinned vertex where the rest
//! pose shows it (the nodes above the skeleton applied: a root node's rotation, a scale), and
//! each joint's inverse bind the inverse of its rest world transform, so that the rest pose is
//! the bind pose TR's meshes are made in.
//!
//! wadforge's own files bind in world space with identity nodes above the skeleton; other
//! exporters often do not (a COLLADA conversion turns a Z-up model with a rotated root node and
//! binds relative to it), and taking their inverse binds as they are lays the model on its back.

use std::collections::HashMap;

use crate::input::{MeshNode, Primitive, Scene, Skin};
use crate::math;
use crate::skeleton::world_rest;
use wadforge_format::pose::Transform;

/// The one skin of `scene` (its joint nodes), `None` without one; an error for several.
pub(super) fn the_skin(scene: &Scene) -> Result<Option<Vec<usize>>, String> {
    let mut skins: Vec<&Vec<usize>> = Vec::new();
    for node in &scene.meshes {
        if let Some(skin) = &node.skin {
            whole(skin).map_err(|e| format!("the skin of mesh node {}: {e}", node.node))?;
            if !skins.contains(&&skin.joints) {
                skins.push(&skin.joints);
            }
        }
    }
    match skins.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some((*one).clone())),
        several => Err(format!(
            "the glTF has {} skins; a TR moveable is one skeleton: join the armatures into one (and its \
             meshes to it) in Blender, or export one of them",
            several.len()
        )),
    }
}

/// Refuses a skin that lists a node twice among its joints: bones are told apart by their nodes.
/// (The reader has checked that it has an inverse bind for each joint.)
fn whole(skin: &Skin) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    match skin.joints.iter().find(|&&j| !seen.insert(j)) {
        Some(j) => Err(format!(
            "it lists node {j} twice among its joints; export the armature again"
        )),
        None => Ok(()),
    }
}

/// Moves every skinned vertex of `scene` to its rest-pose place and makes each joint's inverse
/// bind the inverse of its rest world transform (see the module documentation).
pub(super) fn to_rest_pose(scene: &mut Scene) -> Result<(), String> {
    // The rest transforms of the joints alone: a file may hold any number of other nodes.
    let mut rest: HashMap<usize, Transform> = HashMap::new();
    for skin in scene.meshes.iter().filter_map(|n| n.skin.as_ref()) {
        for &j in &skin.joints {
            rest.entry(j).or_insert_with(|| world_rest(scene, j));
        }
    }
    for node in scene.meshes.iter_mut() {
        let Some(skin) = node.skin.as_mut() else { continue };
        let skinning: Vec<Transform> = (skin.joints.iter().zip(&skin.inverse_binds))
            .map(|(j, ib)| rest[j].then(ib))
            .collect();
        for (pi, p) in node.primitives.iter_mut().enumerate() {
            skin_to_rest(p, &skinning)
                .map_err(|e| format!("mesh node {}, primitive {pi}: {e}", node.node))?;
        }
        rebind(skin, &rest)?;
    }
    Ok(())
}

/// The inverse bind of each joint: the inverse of its rest world transform.
fn rebind(skin: &mut Skin, rest: &HashMap<usize, Transform>) -> Result<(), String> {
    for (ib, joint) in skin.inverse_binds.iter_mut().zip(&skin.joints) {
        *ib = math::inverse(&rest[joint]).ok_or_else(|| {
            format!(
                "joint node {joint}'s rest transform is singular (a scale of 0 on it or above it); \
                 apply the scale in Blender"
            )
        })?;
    }
    Ok(())
}

/// Each vertex of `p` (and its normal) by the blend of its joints' skinning transforms.
fn skin_to_rest(p: &mut Primitive, skinning: &[Transform]) -> Result<(), String> {
    let (Some(joints), Some(weights)) = (&p.joints, &p.weights) else {
        return Err("it is skinned but has no JOINTS_0 and WEIGHTS_0: weight it to the armature".into());
    };
    for v in 0..p.positions.len() {
        let blend = blended(joints[v], weights[v], skinning)
            .ok_or_else(|| format!("vertex {v} names a joint the skin does not have"))?;
        p.positions[v] = blend.apply(p.positions[v].map(f64::from)).map(|c| c as f32);
        if let Some(n) = p.normals.as_mut().and_then(|n| n.get_mut(v)) {
            let l = math::linear(&blend);
            let m = [0, 1, 2].map(|r| (0..3).map(|c| l[r][c] * f64::from(n[c])).sum::<f64>());
            *n = m.map(|c| c as f32);
        }
    }
    Ok(())
}

/// The weighted sum of the skinning transforms of a vertex's joints (weights normalised; all
/// zero: its first joint alone); `None` when it names a joint past the skin.
fn blended(joints: [u16; 4], weights: [f32; 4], skinning: &[Transform]) -> Option<Transform> {
    let total: f64 = weights.iter().map(|&w| f64::from(w.max(0.0))).sum();
    let mut m = [[0.0; 4]; 3];
    for k in 0..4 {
        let w = if total > 0.0 {
            f64::from(weights[k].max(0.0)) / total
        } else if k == 0 {
            1.0
        } else {
            0.0
        };
        if w == 0.0 {
            continue;
        }
        let s = skinning.get(joints[k] as usize)?;
        for (r, row) in m.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell += w * s.m[r][c];
            }
        }
    }
    Some(Transform { m })
}

/// The mesh nodes of `scene` that are skinned.
pub(super) fn skinned(scene: &Scene) -> Vec<&MeshNode> {
    scene.meshes.iter().filter(|n| n.skin.is_some()).collect()
}
