//! Tomb Raider objects in memory, free of any file layout: what every tool of wadforge works on,
//! whichever file the objects came from. The codecs (the `wadforge-format` crate: WADs, levels,
//! Wad2 files) read files into this model and write it back.
//!
//! - The model itself, at the root: [`Wad`] (texture samples and pages, meshes, moveables with
//!   their links, animations and keyframes, statics). Every value a WAD stores has a field here,
//!   in the domain's own words. How those values were laid out in a particular file (table
//!   positions, garbage between packs, padding words) is the codec's (`wad::Layout`), so code
//!   that builds objects from scratch never has to invent it.
//! - [`MoveableIndex`], [`StaticIndex`]: positions in the model's object lists, typed apart from
//!   the objects' slot ids.
//! - [`catalog`]: object ids → slot names (and state names, skins) per game, as data of ours.
//! - [`ObjectName`]: how every message names an object, `LARA (moveable 0)`.
//! - [`selection`]: which objects `--only`'s slot names or ids choose.
//! - [`pose`]: poses a moveable's meshes for a keyframe, TR's own rule.
//! - [`links`]: the link stack the game hangs a moveable's meshes by, opcodes ↔ parents.
//! - [`dressing`]: which moveables' meshes a skeleton wears (TR4's LARA in LARA_SKIN).
//! - [`references`]: animation references across objects.
//! - [`texture_corners`]: which sample corner each polygon vertex maps by shape and flip (the
//!   table of `docs/format-facts.md`), and back from corner points to shape and flip.
//! - [`SkewedCorners`]: the exact texture corners of a level's polygons that no sample maps.
//! - [`file_names`], [`dressed_draws`]: what import and the gallery share about
//!   the files they make of objects: their names, how many, what they may draw.
//! - [`sounds`]: the sounds beside an object file (sound id → volume, range, chance, pitch,
//!   flags, sample names) and which ids animations play.
//! - [`limits`]: what a tool may spend on an input, in one table ([`Limits`]).
//!
//! No bytes, no glTF and no YAML here.

// Functions stay readable top to bottom: a longer one says why beside its #[allow].
#![warn(clippy::too_many_lines)]

mod animation;
mod mesh;
mod object;
mod object_index;
mod texture;

pub mod catalog;
pub mod dressed_draws;
pub mod dressing;
pub mod file_names;
pub mod limits;
pub mod links;
mod object_name;
pub mod pose;
pub mod references;
pub mod selection;
pub mod skewed;
pub mod sounds;
pub mod texture_corners;

pub use animation::{
    AngleEncoding, Animation, Command, Dispatch, Fixed16, Keyframe, Rotation, StateChange, Undecodable,
    UndecodableKeyframes, KEYFRAME_BOX_TOLERANCE, KEYFRAME_HEADER_WORDS,
};
pub use mesh::{has_no_area, Attributes, BoundingSphere, Mesh, Polygon, PolygonTexture, Shading, Vertex};
pub use object::{bind_origins, moveable_insertion_point, BoundingBox, Link, Moveable, Static};
pub use object_index::{MoveableIndex, StaticIndex};
pub use texture::{Page, Sample, PAGE_BYTES, PAGE_SIZE};

pub use limits::{Bound, Limits, TooMuch, TooMuchAt};
pub use object_name::{ObjectKind, ObjectName};
pub use skewed::SkewedCorners;

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
