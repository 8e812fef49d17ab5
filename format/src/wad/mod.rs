//! The TRLE WAD format (version 129; 130 reads the same).
//!
//! [`read`] decodes a file into a [`Wad`] and the [`Layout`] it had; [`write`](fn@write) encodes a model,
//! following a layout when given one (byte-identical round trip) and canonically otherwise
//! (meshes deduplicated by content, link packs, keyframes and tables contiguous per object,
//! every animation's keyframes its own, at offsets that increase in table order).

mod bytes;
mod canonical;
mod document_count;
mod error;
mod layout;
mod mesh;
mod package;
mod reader;
mod undecodable_apart;
mod writer;

pub use document_count::{miscounted_animations, Miscounted};
pub use error::{Problem, ReadError, Section, WriteError};
pub use layout::{layout_starts, AnimationLayout, Gap, Layout, MoveableLayout, Package};
pub use writer::EncodedWad;

use wadforge_model::{Mesh, Wad};

/// The version words a WAD begins with: TRLE's 129, and 130, which reads the same.
pub const VERSIONS: [u32; 2] = [129, 130];

/// Decodes a WAD file.
pub fn read(bytes: &[u8]) -> Result<(Wad, Layout), ReadError> {
    reader::read(bytes)
}

/// Encodes a model as a WAD file. With the layout [`read`] returned for this model, the output is
/// the file that was read; without one, the model is laid out canonically.
pub fn write(wad: &Wad, layout: Option<&Layout>) -> Result<Vec<u8>, WriteError> {
    Ok(encode(wad, layout)?.to_vec())
}

/// Encodes a model as [`write`](fn@write) does, as parts to write out one by one (the texture pages are
/// not copied): a large WAD is never held in memory a second time. Every error comes from here,
/// before anything is written.
pub fn encode<'a>(wad: &'a Wad, layout: Option<&Layout>) -> Result<EncodedWad<'a>, WriteError> {
    match layout {
        Some(layout) => writer::encode(wad, layout),
        None => {
            let mut layout = canonical::layout(wad)?;
            undecodable_apart::keep_apart(wad, &mut layout)?;
            writer::encode(wad, &layout)
        }
    }
}

/// Encodes one mesh as a WAD mesh record (sphere, vertices, normals or shades, polygons), for
/// tools that carry a mesh on its own: the importer keeps each mesh as stored beside its glTF so
/// that build can give an unedited mesh back exactly.
pub fn encode_mesh(mesh: &Mesh) -> Result<Vec<u8>, WriteError> {
    let mut record = mesh::encode(mesh)?;
    // An odd number of quads is followed by a padding word, as in a WAD.
    record.resize(mesh::encoded_size(mesh), 0);
    Ok(record)
}

/// Decodes one mesh record written by [`encode_mesh`]; texture words are taken as they are (no
/// sample table to check them against). Errors give the byte offset within `bytes`.
pub fn decode_mesh(bytes: &[u8]) -> Result<Mesh, ReadError> {
    let view = bytes::View::new(bytes, 0, Section::Meshes);
    let decoded = mesh::decode(&view, 0, usize::MAX)?;
    if decoded.end != bytes.len() {
        return Err(view.error(
            decoded.end,
            Problem::TrailingBytes((bytes.len() - decoded.end) as u64),
        ));
    }
    Ok(decoded.mesh)
}
