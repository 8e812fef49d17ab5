//! TRLE's sound files beside a WAD: the input is the `.sfx` bytes, `FILE_SEPARATOR`, then the
//! `.sam` text (any bytes: read as UTF-8 with what is not replaced, so mutations of the names
//! still reach the reader). `sfx::read`; a sound map it accepts is written again and must read
//! back as itself, and its Tomb Editor catalogue (what `convert` writes beside a Wad2) must read.
#![no_main]
use wadforge_format::sounds::{sfx, xml};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (sfx_bytes, sam) = wadforge_fuzz::sound_files(data);
    let sam = String::from_utf8_lossy(sam);
    wadforge_fuzz::within_allowance(sfx_bytes.len() + sam.len(), || {
        let Ok(sounds) = sfx::read(sfx_bytes, &sam) else {
            return;
        };
        // Refused only past what a .sfx holds (a .sam of over 65 535 lines), saying so.
        if let Ok(files) = sfx::write(&sounds) {
            let again = sfx::read(&files.sfx, &files.sam);
            assert_eq!(
                again.as_ref(),
                Ok(&sounds),
                "a written sound map reads back as itself"
            );
        }
        let catalogue = xml::write(&sounds);
        if let Err(e) = xml::read(&catalogue) {
            panic!("the catalogue written from a sound map does not read: {e}");
        }
    });
});
