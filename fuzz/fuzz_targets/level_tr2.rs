//! A TR2 level: `level::read` on any bytes headed by TR2's version word.
#![no_main]
use wadforge_format::level;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = level::read(&wadforge_fuzz::with_version(data, level::TR2_VERSION));
});
