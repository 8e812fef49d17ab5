//! Bounding spheres and boxes, which meshes, keyframes and statics share.

use super::fields::{self, parent, Fields, UnknownChunks};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::Wad2Error;

/// W2MeshSphere: W2SphC, W2SphR.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sphere {
    pub centre: [f32; 3],
    pub radius: f64,
}

/// W2BBox, W2KfBB, W2StaticVB, W2StaticCB: W2BBMin, W2BBMax. Keyframe boxes keep the corners
/// as stored (Tomb Editor does not sort them after negating Y).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BoundingBox {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

pub(super) fn read_sphere(chunk: &ChunkRef, unknown: &mut UnknownChunks) -> Result<Sphere, Wad2Error> {
    let mut sphere = Sphere::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2SphC" => sphere.centre = fields::vector(&child)?,
            "W2SphR" => sphere.radius = fields::float(&child)?,
            _ => unknown.keep(chunk.id, &child),
        }
    }
    Ok(sphere)
}

pub(super) fn read_box(chunk: &ChunkRef, unknown: &mut UnknownChunks) -> Result<BoundingBox, Wad2Error> {
    let mut found = BoundingBox::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2BBMin" => found.min = fields::vector(&child)?,
            "W2BBMax" => found.max = fields::vector(&child)?,
            _ => unknown.keep(chunk.id, &child),
        }
    }
    Ok(found)
}

pub(super) fn write_sphere(sphere: &Sphere, unknown: &UnknownChunks) -> Chunk {
    let known = vec![
        fields::vector_leaf("W2SphC", &sphere.centre),
        fields::float_leaf("W2SphR", sphere.radius),
    ];
    parent("W2MeshSphere", &[], &unknown.with("W2MeshSphere", known))
}

pub(super) fn write_box(id: &str, bounding_box: &BoundingBox, unknown: &UnknownChunks) -> Chunk {
    let known = vec![
        fields::vector_leaf("W2BBMin", &bounding_box.min),
        fields::vector_leaf("W2BBMax", &bounding_box.max),
    ];
    parent(id, &[], &unknown.with(id, known))
}
