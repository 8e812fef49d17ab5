//! A TR2 level: `level::read` on any bytes headed by TR2's version word.
#![no_main]
use wadforge_format::level;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let file = wadforge_fuzz::with_version(data, level::TR2_VERSION);
    let _ = wadforge_fuzz::within_allowance(file.len(), || level::read(&file));
});
