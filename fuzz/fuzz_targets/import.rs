//! `wadforge import` of a WAD, short of writing: `wad::read`, then every object made into glTF and
//! YAML in memory. The reader's refusals are the `wad` target's; this one reaches what a WAD the
//! reader accepts can do to the importer.
#![no_main]
use wadforge_importer::{import, ImportOptions};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    static ONE_THREAD: std::sync::Once = std::sync::Once::new();
    ONE_THREAD.call_once(|| {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    });
    wadforge_fuzz::within_allowance(data.len(), || {
        if let Ok((wad, _)) = wadforge_format::wad::read(data) {
            let mut options = ImportOptions::wad("fuzz.wad", wad.version);
            options.input_bytes = data.len() as u64; // as wadforge import gives it
            let _ = import(&wad, &options, &mut |_, _, _| {});
        }
    });
});
