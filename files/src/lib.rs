//! wadforge's file infrastructure, shared by the domain crates and the command-line program.
//!
//! - [`input`]: reading a file that came from a stranger: only regular files, and relative
//!   paths that stay inside their folder.
//! - writing outputs atomically ([`write_atomically`], [`write_atomically_with`],
//!   [`write_directory`] of [`OutputFile`]s), and where an output goes ([`resolved`]).
//! - [`in_parallel`]: independent jobs on rayon's threads, their results in order.
//! - [`files_under`]: the files under a folder, for commands that take folders.

#![warn(clippy::too_many_lines)]

pub mod input;
mod output;
mod parallel;
mod walk;

pub use output::{resolved, write_atomically, write_atomically_with, write_directory, OutputFile};
pub use parallel::in_parallel;
pub use walk::files_under;
