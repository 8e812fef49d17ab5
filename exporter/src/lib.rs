//! Build: a manifest directory → a model ready for the WAD writer.
//!
//! - `texture`: polygons' UV corners on their material images → texture samples (exact when the
//!   corners sit on a sample rectangle, resampled otherwise), deduplicated and packed into pages.
//! - `states`: manifest animations (names, relative frames) → the model's state machine.
//! - `spheres`: bounding spheres kept from the manifest when they still enclose the mesh.
//! - the glTF side (skeleton, geometry, keyframes) and the assembly of the model.

// Functions stay readable top to bottom; clippy.toml sets the threshold.
#![warn(clippy::too_many_lines)]

mod bone_meshes;
mod build;
mod decoded_images;
mod error;
pub mod foreign;
mod geometry;
mod image_bounds;
mod input;
mod keyframes;
mod math;
mod reader_guards;
pub mod retarget;
mod skeleton;
pub mod spheres;
pub mod states;
pub mod texture;

/// A hash map on a hot path whose keys the files choose (UVs, node indices, texel hashes):
/// foldhash, several times SipHash's speed, seeded per map so that a file cannot choose
/// collisions.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// A hash set as [`FastMap`].
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

pub use build::{build, build_on, Base, BuildOutput, BuildPhases};
pub use error::{BuildError, Place};
