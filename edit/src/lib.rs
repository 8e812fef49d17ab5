//! Editing WADs directly, on the model, without a trip through glTF: what level builders do in
//! WadMerger.
//!
//! - [`copy()`]: objects of a WAD or a TR1–TR4 level into a WAD, exactly (meshes, links,
//!   animations with their state machine and commands, keyframes, texels, statics' boxes and
//!   flags), replacing the object of the same id or joining; `as_id` puts one object into another
//!   slot.
//! - [`remove()`]: objects out of a WAD, with the meshes, samples and pages only they used.
//! - [`check::check`] / [`check::fix`]: the rules TRLE and the TR4 engine depend on; recomputing
//!   spheres, keyframe boxes and normal lengths.
//! - [`select()`]: which objects a list of slot names or ids means.
//! - [`move_ids()`]: objects from one game's ids to another's, by slot name or as told
//!   (`wadforge convert`).
//! - [`sounds`]: which sound ids a WAD's `.sfx`/`.sam` define.
//! - [`animations::bring`]: animations of one object into another's of the same slot (animation packs).
//! - [`port::port`]: what `convert` changes of objects on their way (pages of used texels only,
//!   [`repack`]; normals at TR's length; frame ranges clamped to the keyframes), listed.
//!
//! Both edits go through [`merge::merge`]: the destination's other objects keep their content
//! exactly; animation references that point into another object's animations are resolved
//! (see [`references`]) and written again so they name the same animation.

#![warn(clippy::too_many_lines)]

pub mod animations;
pub mod check;
pub mod copy;
pub mod engines;
mod ids;
pub mod merge;
pub mod port;
pub use wadforge_format::references;
pub mod remove;
pub mod repack;
pub mod select;
pub mod sounds;
mod stitching;
pub mod texture;

pub use copy::{copy, Copied, CopiedObject};
pub use ids::{move_ids, move_sounds, SoundsMoved};
pub use merge::{BrokenReference, Input};
pub use remove::{remove, Removed};
pub use select::{select, slot_id};
pub use texture::TextureReport;
pub use wadforge_format::selection::ObjectRef;

/// What went wrong, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    #[error("--only names no object; give slot names or ids, separated by commas")]
    NothingSelected,
    #[error(transparent)]
    UnknownObject(#[from] wadforge_format::selection::UnknownObject),
    #[error("{name} is neither an id nor a {kind} slot name of {game}'s catalogue")]
    UnknownSlot {
        name: String,
        kind: &'static str,
        game: &'static str,
    },
    #[error(
        "--as puts one object into another slot, but --only selects several: {0}; copy them one at a time"
    )]
    AsNeedsOneObject(String),
    #[error("{first} and {second} would both become object {id}; copy them one at a time")]
    DuplicateIncoming { first: String, second: String, id: u32 },
    #[error("{object} names mesh {mesh}, but the file has {meshes} meshes; the source is damaged")]
    NoMesh {
        object: String,
        mesh: usize,
        meshes: usize,
    },
    #[error(
        "a polygon names sample {sample}, but the file has {samples}; run `wadforge check` on the source"
    )]
    NoSample { sample: usize, samples: usize },
    #[error("sample {sample} does not lie on its page: {detail}; run `wadforge check` on the source")]
    SampleOffPage { sample: usize, detail: String },
    #[error(
        "a copied {polygon} would need sample {sample}, beyond what a {polygon} can address (fewer than {limit}); \
         remove unused objects from the destination first"
    )]
    SampleUnreachable {
        sample: usize,
        polygon: &'static str,
        limit: usize,
    },
    #[error("cannot pack the new samples onto pages: {0}")]
    Pack(String),
    #[error("--as {0}: write NAME=SLOT (slot names or ids), e.g. --as LASER_BEAM=ANIMATING1")]
    AsRule(String),
    #[error("--as {object}={slot}: the input has no object of that slot name or id")]
    AsFindsNoObject { object: String, slot: String },
    #[error("{first} and {second} would both be {kind} {id} in the output; give one another slot with --as")]
    SameId {
        first: String,
        second: String,
        kind: wadforge_format::ObjectKind,
        id: u32,
    },
    #[error(
        "{game} has no slot for some of the objects to copy, and an object is never written under \
         another game's id:\n  {objects}\ncopy such an object alone with --as SLOT (a slot name of {game} or \
         an id) to put it into one"
    )]
    NoSlotInDestination { objects: String, game: &'static str },
}
