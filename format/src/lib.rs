//! Tomb Raider binary formats: the codecs that read files into the object model of
//! `wadforge-model` and write it back. The model is re-exported here whole (its types at the
//! root, its modules by their names), so a user of the codecs needs this crate only.
//!
//! - [`wad`]: the TRLE WAD reader and writer. Reading then writing gives back the input byte for
//!   byte; a model without a [`wad::Layout`] is laid out canonically.
//! - [`level`]: the TR1–TR5 level readers, into the same model.
//! - [`wad2`]: Tomb Editor's Wad2: the container, the typed document layer, the mapping of its
//!   objects into the model with what it loses.
//! - [`open()`]: a file's objects whatever it is, its kind known by its first bytes ([`kind_of`]);
//!   [`OutputKind`]: the kind of file a path asks to be written (WAD or Wad2), known by its extension.
//! - [`references`]: the model's animation references, with where a WAD read with its layout
//!   started each moveable's animations.
//! - [`sounds`]: the sound files beside an object file: TRLE's `.sfx`/`.sam`, Tomb Editor's XML
//!   sound catalogue.
//! - [`TooMuchWork`]: what a file's records may ask of more work than its size allows, as every
//!   reader refuses it.
//!
//! No glTF and no YAML here: those belong to the importer, build and manifests crates.

// Functions stay readable top to bottom: a longer one says why beside its #[allow].
#![warn(clippy::too_many_lines)]

mod angles;
mod bytes;
mod file_kind;
pub mod level;
mod mesh_draws;
mod open;
mod output_kind;
mod records;
mod sample_texels;
pub mod sounds;
mod too_much_work;
pub mod wad;
pub mod wad2;

pub use wadforge_model::*;

pub use file_kind::{kind_of, FileKind};
pub use open::{open, OpenError, Opened};
pub use output_kind::OutputKind;
pub use too_much_work::TooMuchWork;

/// Animation references across a file's animation table: the model's, and where a WAD read with
/// its [`wad::Layout`] started each moveable's animations.
pub mod references {
    pub use crate::wad::layout_starts;
    pub use wadforge_model::references::*;
}
