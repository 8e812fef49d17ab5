//! A TR4 level file as it is: header, zlib chunks (refused or inflated within their bounds),
//! sound samples. Mutations rarely keep zlib valid; `tr4_level_data` reaches past it.
#![no_main]
use wadforge_format::level;
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let file = wadforge_fuzz::with_version(data, level::TR4_VERSIONS[0]);
    let _ = wadforge_fuzz::within_allowance(file.len(), || level::read(&file));
});
