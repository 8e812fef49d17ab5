//! The crate's integration tests as one binary (one link of the workspace, not one per file):
//! each file of this folder is a module.

mod blender;
mod blender_harness;
mod dressing;
mod from_scratch;
mod new_animations;
mod round_trip;
mod states;
mod texture;
