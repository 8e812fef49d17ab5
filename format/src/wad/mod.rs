//! The TRLE WAD format (version 129; 130 reads the same).
//!
//! [`read`] decodes a file into a [`Wad`] and the [`Layout`] it had; [`write`] encodes a model,
//! following a layout when given one (byte-identical round trip) and canonically otherwise
//! (meshes deduplicated by content, link packs, keyframes and tables contiguous per object,
//! keyframe data shared where animations of an object store the same words).

mod bytes;
mod canonical;
mod error;
mod keyframe_data;
mod layout;
mod mesh;
mod package;
mod reader;
mod writer;

pub use error::{Problem, ReadError, Section, WriteError};
pub use layout::{AnimationLayout, Gap, Layout, MoveableLayout, Package};

use crate::model::Wad;

/// Decodes a WAD file.
pub fn read(bytes: &[u8]) -> Result<(Wad, Layout), ReadError> {
    reader::read(bytes)
}

/// Encodes a model as a WAD file. With the layout [`read`] returned for this model, the output is
/// the file that was read; without one, the model is laid out canonically.
pub fn write(wad: &Wad, layout: Option<&Layout>) -> Result<Vec<u8>, WriteError> {
    match layout {
        Some(layout) => writer::write(wad, layout),
        None => writer::write(wad, &canonical::layout(wad)?),
    }
}
