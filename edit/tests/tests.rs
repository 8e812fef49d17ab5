//! The crate's integration tests as one binary (one link of the workspace, not one per file):
//! each file of this folder is a module.

mod check;
mod check_engines;
mod common;
mod copy;
mod port;
mod remove;
mod stitching;
