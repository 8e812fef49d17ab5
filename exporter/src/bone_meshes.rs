//! A moveable's glTF scene and its skeleton → one TR mesh per bone: the skinned meshes (one or
//! several) and the meshes parented to bones, each triangle going to the bone most of its
//! vertices follow.

use std::sync::Arc;

use wadforge_format::pose::Transform;
use wadforge_format::Mesh;
use wadforge_manifests::gltf_contract::MeshRole;

use crate::geometry::{gather, RawMesh, Target};
use crate::input::{MeshNode, Primitive, Scene};
use crate::skeleton::{joints_above, world_rest, Skeleton};
use crate::texture::RgbaImage;

/// A moveable's scene with its skeleton, its images added to the build's.
pub(crate) struct BoneMeshes<'a> {
    scene: &'a Scene,
    skeleton: &'a Skeleton,
    /// The joint (TR mesh index) each node hangs from: its nearest ancestor that is a joint.
    joint_above: Vec<Option<usize>>,
    first_image: usize,
    solid: Vec<(usize, usize)>,
    tr_units_per_metre: f64,
}

impl<'a> BoneMeshes<'a> {
    /// Adds the scene's images to `images` (see [`add_images`]).
    pub fn new(
        scene: &'a Scene,
        skeleton: &'a Skeleton,
        tr_units_per_metre: f64,
        images: &mut Vec<Arc<RgbaImage>>,
    ) -> Self {
        let (first_image, solid) = add_images(images, scene);
        BoneMeshes {
            scene,
            skeleton,
            joint_above: {
                let joints = skeleton.nodes.iter().enumerate().map(|(j, &n)| (n, j)).collect();
                joints_above(scene, &joints)
            },
            first_image,
            solid,
            tr_units_per_metre,
        }
    }

    /// The joint an unskinned mesh node hangs from (a mesh parented to a bone).
    fn hanging_from(&self, node: usize) -> Option<usize> {
        self.joint_above.get(node).copied().flatten()
    }

    /// The mesh nodes that show the bones' meshes: skinned ones and those parented to bones,
    /// except the joint meshes a dressed skeleton shows (they are another object's).
    pub fn shown(&self) -> Vec<&'a MeshNode> {
        self.scene
            .meshes
            .iter()
            .filter(|n| n.role.as_deref() != Some(MeshRole::Joints.name()))
            .filter(|n| n.skin.is_some() || self.hanging_from(n.node).is_some())
            .collect()
    }

    /// One TR mesh per bone from `nodes` (empty meshes for bones they do not reach).
    pub fn gather(&self, nodes: &[&MeshNode]) -> Result<Vec<RawMesh>, String> {
        let stored: Vec<Option<&Mesh>> = (self.skeleton.names.iter())
            .map(|bone| self.scene.stored.get(bone))
            .collect();
        let target = Target {
            scene: self.scene,
            meshes: self.skeleton.nodes.len(),
            tr_units_per_metre: self.tr_units_per_metre,
            pivots: &self.skeleton.bind_positions,
            stored: &stored,
            first_image: self.first_image,
            solid_images: &self.solid,
        };
        let joint_of = |node: &MeshNode, p: &Primitive, v: usize| -> Option<usize> {
            if node.skin.is_none() {
                return self.hanging_from(node.node);
            }
            let (joints, weights) = (p.joints.as_ref()?, p.weights.as_ref()?);
            let k = (0..4).max_by(|&a, &b| weights[v][a].total_cmp(&weights[v][b]).then(b.cmp(&a)))?;
            self.skeleton
                .skin_to_tr
                .get(&node.node)?
                .get(joints[v][k] as usize)
                .copied()
                .flatten()
        };
        // Skinned vertices are in bind space already; a bone's child mesh is placed by its node's
        // rest transform (the bind pose).
        let place_node = |n: &MeshNode| {
            if n.skin.is_some() {
                Transform::IDENTITY
            } else {
                world_rest(self.scene, n.node)
            }
        };
        gather(&target, nodes, &joint_of, &place_node)
    }
}

/// Adds the scene's images to the build's list, plus a solid image for each material without a
/// texture; returns the index of the scene's first image and the (material, image) pairs.
pub(crate) fn add_images(images: &mut Vec<Arc<RgbaImage>>, scene: &Scene) -> (usize, Vec<(usize, usize)>) {
    let first = images.len();
    images.extend(scene.images.iter().cloned());
    let mut solid = Vec::new();
    for (i, m) in scene
        .materials
        .iter()
        .enumerate()
        .filter(|(_, m)| m.image.is_none())
    {
        let c = m.base_colour.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
        images.push(Arc::new(RgbaImage {
            width: 8,
            height: 8,
            pixels: c.iter().copied().cycle().take(8 * 8 * 4).collect(),
        }));
        solid.push((i, images.len() - 1));
    }
    (first, solid)
}
