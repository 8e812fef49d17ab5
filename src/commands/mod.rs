//! One module per command, as cargo's `src/bin/cargo/commands/<verb>.rs`: each holds its
//! arguments (`Args`, with the help text `wadforge <verb> --help` shows) and its `run`, and, for
//! a command that also takes folders or several files, that form too (a `folder` submodule, or
//! in the same file). The work itself is in the libraries; what commands share about files is
//! in the crate's other modules (`collection`, `input`, `output`, `edited`).

pub mod animations;
pub mod build;
pub mod check;
pub mod convert;
pub mod copy;
pub mod diff;
pub mod gallery;
pub mod import;
pub mod info;
pub mod remove;
pub mod retarget;
