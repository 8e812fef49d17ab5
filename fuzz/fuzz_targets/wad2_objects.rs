//! A Wad2's typed layer and its objects: `wad2::read_document` on any bytes, the document written
//! and read again, and its objects mapped into the model (`wad2::to_model`), as every command
//! that opens a Wad2 does.
#![no_main]
use wadforge_format::wad2;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = wadforge_fuzz::within_allowance(data.len(), || {
        wad2::read_document(data).map(|document| {
            let written = wad2::write_document(&document);
            let again = wad2::read_document(&written);
            assert!(again.is_ok(), "a written document reads again");
            wad2::to_model(&document).map(|objects| objects.model.meshes.len())
        })
    });
});
