//! A TR5 level file as it is: TR4's header and textile chunks, TR5's 32 bytes, the level data
//! stored uncompressed (so mutations reach its rooms and object tables), sound samples.
#![no_main]
use wadforge_format::level;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let file = wadforge_fuzz::with_version(data, level::TR4_VERSIONS[0]);
    let _ = wadforge_fuzz::within_allowance(file.len(), || level::read(&file));
});
