//! One GLB given to build: the input replaces the bundled example's moveable GLB (skin, joints,
//! animations, textures, stored meshes in the scene extras) in a directory of that moveable
//! alone, which is built.
#![no_main]
use std::sync::OnceLock;

use wadforge_fuzz::{build, copy_example_moveable, scratch};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = scratch("glb");
        copy_example_moveable(&dir);
        dir
    });
    std::fs::write(dir.join("moveables/306_SWITCH_TYPE1.glb"), data).unwrap();
    build(dir, data.len());
});
