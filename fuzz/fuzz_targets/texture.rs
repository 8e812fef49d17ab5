//! The texture path: the input is the PNG a glTF names (`import --gltf` of a static), decoded,
//! bounded and cut into samples by build.
#![no_main]
use std::sync::OnceLock;

use wadforge_fuzz::{build, scratch, texture_directory};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<(std::path::PathBuf, std::path::PathBuf)> = OnceLock::new();
    let (dir, png) = DIR.get_or_init(|| texture_directory(&scratch("texture")));
    std::fs::write(png, data).unwrap();
    build(dir, data.len());
});
