//! The semantic model of a set of Tomb Raider objects, independent of any file layout.
//!
//! Every value a WAD stores has a field here, in the domain's own words. How those values were
//! laid out in a particular file (table positions, garbage between packs, padding words) lives in
//! [`crate::wad::Layout`] instead, so code that builds objects from scratch never has to invent it.

mod animation;
mod mesh;
mod object;
mod texture;

pub use animation::{
    AngleEncoding, Animation, Command, Dispatch, Fixed16, Keyframe, Rotation, StateChange, Undecodable,
    UndecodableKeyframes, KEYFRAME_BOX_TOLERANCE, KEYFRAME_HEADER_WORDS,
};
pub use mesh::{has_no_area, Attributes, BoundingSphere, Mesh, Polygon, PolygonTexture, Shading, Vertex};
pub use object::{bind_origins, moveable_insertion_point, BoundingBox, Link, Moveable, Static};
pub use texture::{Page, Sample, PAGE_BYTES, PAGE_SIZE};

/// Index of a mesh in [`Wad::meshes`].
pub type MeshIndex = usize;

/// A TRLE object library: texture samples and pages, meshes, moveables and statics.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Wad {
    /// File version: 129 is TRLE's, 130 also occurs and reads the same.
    pub version: u32,
    pub samples: Vec<Sample>,
    pub pages: Vec<Page>,
    /// Meshes shared by the objects; moveables and statics refer to them by index, and several
    /// references may name one mesh (as several mesh pointers may share one offset in a WAD).
    pub meshes: Vec<Mesh>,
    pub moveables: Vec<Moveable>,
    pub statics: Vec<Static>,
}

impl Wad {
    /// The version TRLE writes.
    pub const VERSION: u32 = 129;

    /// Number of polygons over all meshes.
    pub fn polygon_count(&self) -> usize {
        self.meshes.iter().map(|m| m.polygons.len()).sum()
    }
}
