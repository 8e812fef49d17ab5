//! A Wad2's typed layer and its objects: `wad2::read_document` on any bytes, the document written
//! and read again, its objects mapped into the model (`wad2::to_model`), as every command that
//! opens a Wad2 does, and written as a Wad2 again with the document's detail kept
//! (`wad2::keep_detail`), as `build --base` and `convert` do.
#![no_main]
use wadforge_format::wad2;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = wadforge_fuzz::within_allowance(data.len(), || {
        wad2::read_document(data).map(|document| {
            let written = wad2::write_document(&document);
            let again = wad2::read_document(&written);
            assert!(again.is_ok(), "a written document reads again");
            wad2::to_model(&document).map(|objects| {
                let game = wad2::game_of(&document);
                if let Ok(mut made) = wad2::from_model(&objects.model, &objects.skewed, game) {
                    wad2::keep_detail(&mut made.document, &document);
                }
                objects.model.meshes.len()
            })
        })
    });
});
