//! Tomb Editor's Wad2 (`.wad2`) container: the header, signed LEB128 numbers and the chunk tree.
//!
//! [`read`] gives a file's top-level chunks with every chunk's exact bytes, [`children`] reads a
//! parent's child stream on demand, and [`write`] gives an unmodified file back byte for byte.
//! What the chunks mean (moveables, meshes, animations, textures) is a later layer's job.

mod chunks;
mod container;
mod error;
pub mod leb128;

pub use chunks::{children, write_stream, Chunk, ChunkContent, Widths, MAX_DEPTH};
pub use container::{read, write, Wad2File};
pub use error::{Wad2Error, Wad2Problem};
