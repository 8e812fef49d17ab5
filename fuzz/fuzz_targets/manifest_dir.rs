//! A manifest directory: the input is the bundled example's five files (top-level YAML, then
//! each object's YAML and GLB) joined by `FILE_SEPARATOR`; they are written to a scratch
//! directory and built as `wadforge build` builds it (load, build, write the WAD in memory).
#![no_main]
use std::sync::OnceLock;

use wadforge_fuzz::{build, manifest_files, scratch, MANIFEST_FILES};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| scratch("manifest_dir"));
    let mut files = manifest_files(data);
    for name in MANIFEST_FILES {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, files.next().unwrap_or_default()).unwrap();
    }
    build(dir, data.len());
});
