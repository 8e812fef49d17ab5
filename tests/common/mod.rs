//! What the end-to-end tests share: running the built `wadforge`, and reading what it wrote.
// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

use wadforge_format::{wad, Wad};

/// The built binary, run with `args`.
pub fn wadforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wadforge"))
        .args(args)
        .output()
        .unwrap()
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The WAD at `path`, read.
pub fn read(path: &Path) -> Wad {
    wad::read(&std::fs::read(path).unwrap()).unwrap().0
}
