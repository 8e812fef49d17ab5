//! A manifest directory: the input is the bundled example's five files (top-level YAML, then
//! each object's YAML and GLB) joined by `FILE_SEPARATOR`; they are written to a scratch
//! directory and built as `wadforge build` builds it (load, build, write the WAD in memory).
#![no_main]
use std::sync::OnceLock;

use wadforge_fuzz::{build, scratch, FILE_SEPARATOR, MANIFEST_FILES};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| scratch("manifest_dir"));
    let mut files = split(data);
    for name in MANIFEST_FILES {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, files.next().unwrap_or_default()).unwrap();
    }
    build(dir, data.len());
});

fn split(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.windows(FILE_SEPARATOR.len()).position(|w| w == FILE_SEPARATOR) {
            Some(i) => {
                rest = Some(&r[i + FILE_SEPARATOR.len()..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}
