//! Tomb Raider binary formats.
//!
//! - [`model`]: the in-memory model of objects (texture samples and pages, meshes, moveables with
//!   their links, animations and keyframes, statics), free of any file layout.
//! - [`wad`]: the TRLE WAD reader and writer. Reading then writing gives back the input byte for
//!   byte; a model without a [`wad::Layout`] is laid out canonically.
//! - [`catalog`]: object ids → slot names (and state names, skins) per game, as data of ours.
//! - [`pose`]: poses a moveable's meshes for a keyframe, TR's own rule.
//! - [`dressing`]: which moveables' meshes a skeleton wears (TR4's LARA in LARA_SKIN).
//! - [`file_names`], [`dressed_draws`]: what import and the gallery share about
//!   the files they make of objects: their names, how many, what they may draw.
//! - [`level`]: the TR1–TR4 level readers, into the same model.
//! - [`limits`]: what a tool may spend on an input, in one table ([`Limits`]).
//! - [`open()`]: a file's objects whatever it is, its kind known by its first bytes ([`kind_of`]);
//!   [`OutputKind`]: the kind of file a path asks to be written (WAD or Wad2), known by its extension.
//! - [`selection`]: which objects `--only`'s slot names or ids choose.
//! - [`ObjectName`]: how every message names an object, `LARA (moveable 0)`.
//! - [`texture_corners`]: which sample corner each polygon vertex maps by shape and flip (the
//!   table of `docs/format-facts.md`), and back from corner points to shape and flip.
//!
//! No glTF and no YAML here: those belong to the importer, build and manifests crates.

// Functions stay readable top to bottom: a longer one says why beside its #[allow].
#![warn(clippy::too_many_lines)]

mod angles;
mod bytes;
pub mod catalog;
pub mod dressed_draws;
pub mod dressing;
mod file_kind;
pub mod file_names;
pub mod level;
pub mod limits;
mod links;
mod mesh_draws;
pub mod model;
mod object_name;
mod open;
mod output_kind;
pub mod pose;
mod records;
pub mod references;
mod sample_texels;
pub mod selection;
pub mod texture_corners;
mod too_much_work;
pub mod wad;
pub mod wad2;

pub use file_kind::{kind_of, FileKind};
pub use limits::{Bound, Limits, TooMuch, TooMuchAt};
pub use model::*;
pub use object_name::{ObjectKind, ObjectName};
pub use open::{open, OpenError, Opened};
pub use output_kind::OutputKind;
pub use too_much_work::TooMuchWork;
