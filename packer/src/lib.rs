//! Texture samples and the 256×256 pages they sit on, between the WAD's terms and glTF's.
//!
//! - [`uv`]: texel-edge points ↔ glTF UVs on an atlas of whole pages stacked vertically, rounding
//!   away Blender's float32 noise, and which page a polygon's corners are on.
//! - [`pack`]: for building a WAD, deduplicating sample images and packing them into as few
//!   24-bit pages as the skyline heuristic of `texture_packer` finds, never rotated, never across
//!   a page's edge, deterministically.
//!
//! No glTF or image files here: callers bring texels and UVs as plain numbers.

#![warn(clippy::too_many_lines)]

pub mod pack;
pub mod uv;

pub use pack::{pack_samples, pages_needed, PackError, PackedPages, PixelFormat, Placement, SampleImage};
pub use uv::{corners_from_uvs, from_uv, texel_offset, to_uv};
