//! The TRLE WAD format (version 129; 130 reads the same).
//!
//! [`read`] decodes a file into a [`Wad`] and the [`Layout`] it had; [`write`] encodes a model,
//! following a layout when given one (byte-identical round trip) and canonically otherwise
//! (meshes deduplicated by content, link packs, keyframes and tables contiguous per object).

mod error;
mod layout;

pub use error::{Problem, ReadError, Section, WriteError};
pub use layout::{AnimationLayout, Gap, Layout, MoveableLayout, Package};

use crate::model::Wad;

/// Decodes a WAD file.
pub fn read(bytes: &[u8]) -> Result<(Wad, Layout), ReadError> {
    let _ = bytes;
    todo!("reader")
}

/// Encodes a model as a WAD file, following `layout` when given.
pub fn write(wad: &Wad, layout: Option<&Layout>) -> Result<Vec<u8>, WriteError> {
    let _ = (wad, layout);
    todo!("writer")
}
