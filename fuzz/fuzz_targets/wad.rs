//! A WAD file: `wad::read` on any bytes (every `info`, `import`, `copy`, `check` starts there).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = wadforge_fuzz::within_allowance(data.len(), || wadforge_format::wad::read(data));
});
