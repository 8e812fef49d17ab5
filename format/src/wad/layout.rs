//! Where each part of a WAD sat in the file it was read from.
//!
//! The reader returns a [`Layout`] beside the [`crate::Wad`] it decodes. Writing the model again
//! with that layout reproduces the file byte for byte, including what real files carry beyond the
//! model: mesh pointers shared or unused, link packs at odd indices with garbage between them,
//! extra pops, padding words after a frame's angles, unused keyframe space. A model built from
//! scratch has no layout; the writer then lays it out canonically.

use wadforge_model::references::canonical_starts;
use wadforge_model::{MeshIndex, Wad};

/// Placement of every table record and the bytes between them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    /// Bytes of the texture map after its last whole 256×256 page.
    pub texture_tail: Vec<u8>,
    /// The mesh pointer table: the mesh each pointer names, in table order.
    pub mesh_pointers: Vec<MeshIndex>,
    /// Byte offset of each mesh of the model within the meshes package.
    pub mesh_offsets: Vec<u32>,
    pub meshes: Package,
    /// The animation table, as a package of 40-byte records.
    pub animations: Package,
    /// The state change table, as a package of 6-byte records.
    pub state_changes: Package,
    /// The dispatch table, as a package of 8-byte records.
    pub dispatches: Package,
    pub commands: Package,
    pub links: Package,
    pub keyframes: Package,
    pub moveables: Vec<MoveableLayout>,
    /// Index in the mesh pointer table of each static's mesh.
    pub statics: Vec<u16>,
}

/// A stretch of a file (a data package or a table) and the bytes of it that no record of the
/// model explains: garbage, padding, unreferenced records.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Package {
    /// Length in bytes.
    pub len: usize,
    /// Unexplained bytes, in ascending offset order, not overlapping.
    pub gaps: Vec<Gap>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// Offset from the start of the package.
    pub offset: usize,
    pub bytes: Vec<u8>,
}

/// Table positions of one moveable.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveableLayout {
    /// Index of its first mesh pointer.
    pub pointers_index: u16,
    /// Index (in 32-bit words) of its first link in the links package.
    pub links_index: u32,
    /// The stack opcode of each link as stored: files may pop more than they push, and a
    /// hierarchy has several valid opcode sequences.
    pub link_ops: Vec<i32>,
    /// The movable record's keyframe offset (bytes into the keyframes package).
    pub keyframe_offset: u32,
    /// Index of its first animation, −1 when it has none.
    pub animations_index: i16,
    pub animations: Vec<AnimationLayout>,
}

/// Table positions of one animation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnimationLayout {
    /// Bytes into the keyframes package.
    pub keyframe_offset: u32,
    /// Size of each keyframe record in 16-bit words (angles plus any padding).
    pub keyframe_size: u8,
    pub state_changes_index: u16,
    /// Index of the first dispatch of each state change.
    pub dispatch_indices: Vec<u16>,
    /// Offset in 16-bit words into the commands package.
    pub command_offset: u16,
}

/// Where each moveable's animations started in the file `layout` was read with (a WAD may
/// order its table differently from its moveables); canonical where the layout does not say.
pub fn layout_starts(wad: &Wad, layout: &Layout) -> Vec<usize> {
    let canonical = canonical_starts(&wad.moveables);
    canonical
        .iter()
        .enumerate()
        .map(|(i, &c)| match layout.moveables.get(i) {
            Some(l) if l.animations_index >= 0 => l.animations_index as usize,
            _ => c,
        })
        .collect()
}
