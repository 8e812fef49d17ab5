//! The skeleton of a moveable's glTF: joints matched to the manifest's bones by name, their
//! hierarchy in depth-first order, and link offsets from the bind pose.
//!
//! Offsets come from the inverse bind matrices, never from rest rotations: Blender changes bone
//! rest orientation on import and bakes it back on export, but bind positions are what the
//! vertices were skinned against.

use std::collections::HashMap;

use wadforge_format::pose::Transform;
use wadforge_format::Link;

use crate::input::{MeshNode, Scene};
use crate::math;

pub(crate) struct Skeleton {
    /// Bone names in TR mesh order (depth-first).
    pub names: Vec<String>,
    /// glTF node of each joint.
    pub nodes: Vec<usize>,
    /// TR joint of each skin joint index of each skinned mesh node: `skin_to_tr[mesh][joint]`.
    pub skin_to_tr: HashMap<usize, Vec<Option<usize>>>,
    /// Parent of each joint (the root's is 0).
    pub parents: Vec<usize>,
    pub inverse_binds: Vec<Transform>,
    /// Bind-pose pivot of each joint in glTF space.
    pub bind_positions: Vec<[f64; 3]>,
}

/// TR axes from glTF axes (a 180° turn about Z is its own inverse).
pub(crate) fn to_tr(v: [f64; 3]) -> [f64; 3] {
    [-v[0], -v[1], v[2]]
}

/// Builds the skeleton of the skinned mesh nodes `meshes` for the manifest's bone names.
/// Returns it and a note when the bones had to be reordered.
pub(crate) fn skeleton(
    scene: &Scene,
    meshes: &[&MeshNode],
    bones: &[String],
) -> Result<(Skeleton, Option<String>), String> {
    let skins: Vec<&MeshNode> = meshes.iter().copied().filter(|m| m.skin.is_some()).collect();
    let inverse_of_node = inverse_binds_by_node(scene, &skins, bones)?;
    let nodes = joint_nodes(scene, &inverse_of_node, bones)?;
    let parents_in_manifest = parents_of(scene, &nodes);
    let order = depth_first(&parents_in_manifest, bones)?;
    let note = (order != (0..nodes.len()).collect::<Vec<_>>()).then(|| {
        format!(
            "bones reordered depth-first for TR's link stack: {}",
            order
                .iter()
                .map(|&i| bones[i].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    let tr_of_manifest: HashMap<usize, usize> = order.iter().enumerate().map(|(t, &m)| (m, t)).collect();

    let inverse_binds: Vec<Transform> = order.iter().map(|&m| inverse_of_node[&nodes[m]]).collect();
    let bind_positions = inverse_binds
        .iter()
        .map(|ib| {
            let bind = math::inverse(ib)
                .ok_or("a joint's inverse bind matrix is singular; apply the armature's scale in Blender")?;
            Ok([bind.m[0][3], bind.m[1][3], bind.m[2][3]])
        })
        .collect::<Result<Vec<_>, String>>()?;
    let parents = order
        .iter()
        .map(|&m| parents_in_manifest[m].map_or(0, |p| tr_of_manifest[&p]))
        .collect();
    let tr_nodes: Vec<usize> = order.iter().map(|&m| nodes[m]).collect();
    let mut tr_of_node = HashMap::new();
    for (t, &n) in tr_nodes.iter().enumerate() {
        tr_of_node.entry(n).or_insert(t);
    }
    let mut skin_to_tr = HashMap::new();
    for m in &skins {
        let skin = m.skin.as_ref().expect("filtered to skinned meshes");
        let map = skin.joints.iter().map(|n| tr_of_node.get(n).copied()).collect();
        skin_to_tr.insert(m.node, map);
    }
    Ok((
        Skeleton {
            names: order.iter().map(|&m| bones[m].clone()).collect(),
            nodes: tr_nodes,
            skin_to_tr,
            parents,
            inverse_binds,
            bind_positions,
        },
        note,
    ))
}

/// The inverse bind matrix of every joint node: from whichever skin names the joint first, or,
/// without a skin, of the nodes named like the bones.
fn inverse_binds_by_node(
    scene: &Scene,
    skins: &[&MeshNode],
    bones: &[String],
) -> Result<HashMap<usize, Transform>, String> {
    let mut inverse_of_node: HashMap<usize, Transform> = HashMap::new();
    for m in skins {
        let skin = m.skin.as_ref().expect("filtered to skinned meshes");
        for (j, &node) in skin.joints.iter().enumerate() {
            inverse_of_node.entry(node).or_insert(skin.inverse_binds[j]);
        }
    }
    if skins.is_empty() {
        // No skin (every mesh parented to a bone): the bones are the nodes named like them, and
        // their rest pose is the bind pose.
        for b in bones {
            let node = scene.nodes.iter().position(|n| &n.name == b).ok_or_else(|| {
                format!("the glTF has no skin and no node named {b}: export the armature with the meshes")
            })?;
            let rest = world_rest(scene, node);
            let inverse = math::inverse(&rest)
                .ok_or("a bone's rest transform is singular; apply its scale in Blender")?;
            inverse_of_node.insert(node, inverse);
        }
    }
    Ok(inverse_of_node)
}

/// The joint node of each manifest bone, matched by name; every joint must be a bone.
fn joint_nodes(
    scene: &Scene,
    inverse_of_node: &HashMap<usize, Transform>,
    bones: &[String],
) -> Result<Vec<usize>, String> {
    let by_name: HashMap<&str, usize> = inverse_of_node
        .keys()
        .map(|&n| (scene.nodes[n].name.as_str(), n))
        .collect();
    let mut nodes = Vec::with_capacity(bones.len());
    for b in bones {
        let node = by_name.get(b.as_str()).copied().ok_or_else(|| {
            let mut known: Vec<&str> = by_name.keys().copied().collect();
            known.sort();
            format!("bone {b} of the manifest is not a joint of the glTF's skin (joints: {}); rename the bone in Blender or in the manifest", known.join(", "))
        })?;
        nodes.push(node);
    }
    if by_name.len() != bones.len() {
        let extra: Vec<&str> = by_name
            .keys()
            .copied()
            .filter(|n| !bones.iter().any(|b| b == n))
            .collect();
        return Err(format!(
            "the glTF's skin has joints the manifest does not list ({}); a TR moveable has one mesh per bone: add them to `bones:` or remove them",
            extra.join(", ")
        ));
    }
    Ok(nodes)
}

/// Parent of each manifest bone (by index): its nearest ancestor node that is a joint.
fn parents_of(scene: &Scene, nodes: &[usize]) -> Vec<Option<usize>> {
    let index_of_node: HashMap<usize, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let above = joints_above(scene, &index_of_node);
    nodes.iter().map(|&n| above.get(n).copied().flatten()).collect()
}

/// The joint each node of `scene` hangs from: its nearest ancestor that `joints` (node → joint)
/// holds. Each node is walked once (walking up from every bone, or every vertex of a mesh, under
/// a long chain of nodes took a build billions of steps); the reader refused cycles.
pub(crate) fn joints_above(scene: &Scene, joints: &HashMap<usize, usize>) -> Vec<Option<usize>> {
    let count = scene.nodes.len();
    let mut above: Vec<Option<Option<usize>>> = vec![None; count];
    let mut chain = Vec::new();
    for start in 0..count {
        // Up from `start` to a node whose answer is known, a joint's child, or a root.
        let mut n = Some(start);
        let mut found = None;
        while let Some(i) = n {
            if let Some(known) = above[i] {
                found = known;
                break;
            }
            chain.push(i);
            match scene.nodes[i].parent {
                Some(p) if joints.contains_key(&p) => {
                    found = Some(joints[&p]);
                    break;
                }
                parent => n = parent,
            }
        }
        // Every node walked hangs from what the top of the walk found.
        for i in chain.drain(..) {
            above[i] = Some(found);
        }
    }
    above.into_iter().map(Option::flatten).collect()
}

/// The manifest bones in depth-first order from their one root, children in manifest order: the
/// order TR's link stack can express.
fn depth_first(parents_in_manifest: &[Option<usize>], bones: &[String]) -> Result<Vec<usize>, String> {
    let count = parents_in_manifest.len();
    let roots: Vec<usize> = (0..count).filter(|&i| parents_in_manifest[i].is_none()).collect();
    if roots.len() != 1 {
        let names: Vec<&str> = roots.iter().map(|&r| bones[r].as_str()).collect();
        return Err(format!(
            "the armature has {} root bones ({}); a TR moveable hangs every mesh from one root: parent them in Blender",
            roots.len(),
            names.join(", ")
        ));
    }
    // Each bone's children in manifest order, gathered once (filtering all bones for each bone
    // made a skeleton of 65 000 bones take billions of steps).
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (c, parent) in parents_in_manifest.iter().enumerate() {
        if let Some(p) = *parent {
            children[p].push(c);
        }
    }
    let mut order = Vec::with_capacity(count);
    let mut stack = vec![roots[0]];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    Ok(order)
}

/// A node's world transform in the rest pose.
pub(crate) fn world_rest(scene: &Scene, node: usize) -> Transform {
    let mut t = scene.nodes[node].local();
    let mut n = scene.nodes[node].parent;
    let mut depth = 0;
    while let Some(p) = n.filter(|_| depth < 1024) {
        t = scene.nodes[p].local().then(&t);
        n = scene.nodes[p].parent;
        depth += 1;
    }
    t
}

impl Skeleton {
    /// Links in TR units: each joint's bind pivot relative to its parent's, in model-aligned axes
    /// (TR's rest pose has no rotations).
    pub fn links(&self, tr_units_per_metre: f64) -> Result<Vec<Link>, String> {
        (1..self.nodes.len())
            .map(|j| {
                let p = self.parents[j];
                let d = to_tr([0, 1, 2].map(|k| self.bind_positions[j][k] - self.bind_positions[p][k]));
                let offset = d.map(|c| (c * tr_units_per_metre).round());
                if offset.iter().any(|c| c.abs() > i32::MAX as f64) {
                    return Err(format!("bone {} is too far from its parent", self.names[j]));
                }
                Ok(Link {
                    parent: p,
                    offset: offset.map(|c| c as i32),
                })
            })
            .collect()
    }
}
