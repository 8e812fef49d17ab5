//! TR4's level data (rooms, meshes, animations, object textures…): the input is the inflated
//! chunk, wrapped into a TR4 file with valid zlib so that every mutation reaches the walk.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let file = wadforge_fuzz::tr4_file(data);
    let _ = wadforge_fuzz::within_allowance(file.len(), || wadforge_format::level::read(&file));
});
