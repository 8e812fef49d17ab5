//! Tomb Editor's Wad2 (`.wad2`) container: the header, signed LEB128 numbers and the chunk tree.
//!
//! [`read`] gives a file's top-level chunks with every chunk's exact bytes, [`children`] reads a
//! parent's child stream on demand, and [`write`](fn@write) gives an unmodified file back byte for byte.
//! [`document`] says what the chunks mean: textures, moveables, meshes, animations, statics.

mod chunks;
mod container;
mod detail;
pub mod document;
mod error;
mod from_model;
pub mod leb128;
pub mod objects;

pub use chunks::{children, write_stream, Chunk, ChunkContent, ChunkRef, Widths, MAX_DEPTH};
pub use container::{read, write, Wad2File};
pub use detail::{
    detail_file, keep_detail, keep_object_detail, remesh, under_ids, uvs_rounded, KeptDetail, UvRounding,
};
pub use document::{decode, encode, read_document, write_document, Document};
pub use error::{Wad2Error, Wad2Problem};
pub use from_model::{from_model, FromModel, FromModelError};
pub use objects::{game_of, to_model, Loss, LossKind, ObjectError, Wad2Objects};
