//! What the end-to-end tests share: running the built `wadforge` and reading what it printed
//! (here), the files they write and read ([`files`]), and for the hostile-file tests, measured
//! runs ([`measure`]) and the forged inputs more than one of them makes ([`forge`]); headless
//! Chromium for pages ([`browser`]); the Blender extension run in bpy ([`extension`]).
// Each test file compiles this module on its own and uses only part of it (the CLI tests none of
// `measure`), so what one file leaves unused is not dead code.
#![allow(dead_code)]

pub mod browser;
pub mod extension;
pub mod files;
pub mod forge;
pub mod measure;
pub mod rigged_figure;
pub mod walking_humanoid;

use std::path::Path;
use std::process::{Command, Output};

/// The built binary, as a command to give arguments, variables or pipes.
pub fn wadforge_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wadforge"))
}

/// The built binary, run with `args`.
pub fn wadforge(args: &[&str]) -> Output {
    wadforge_command().args(args).output().unwrap()
}

/// The built binary, run with `args` and asserted to succeed; what it printed.
pub fn succeeds(args: &[&str]) -> String {
    let o = wadforge(args);
    assert!(o.status.success(), "wadforge {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `wadforge diff` finds the objects of the files `a` and `b` identical.
pub fn assert_same_objects(a: &Path, b: &Path) {
    let o = wadforge(&["diff", s(a), s(b)]);
    assert!(
        o.status.success(),
        "{} vs {}:\n{}",
        a.display(),
        b.display(),
        stdout(&o)
    );
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
