//! Tomb Editor's XML sound catalogue beside a Wad2 (any bytes, read as UTF-8 with what is not
//! replaced, as the reader only ever sees text). `xml::read`; a catalogue it accepts is written
//! and read again, and that writes the same text (the first writing names the unnamed sounds);
//! its `.sfx`/`.sam` (what `convert` writes beside a WAD), when a `.sfx` can hold it, must read
//! back with the same samples (white space ending a name aside: a `.sam` line's is dropped).
#![no_main]
use wadforge_format::sounds::{sfx, xml};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    wadforge_fuzz::within_allowance(text.len(), || {
        let Ok(sounds) = xml::read(&text) else {
            return;
        };
        let written = xml::write(&sounds);
        match xml::read(&written) {
            Ok(again) => assert_eq!(
                xml::write(&again),
                written,
                "a written catalogue writes itself again"
            ),
            Err(e) => panic!("a written catalogue does not read: {e}"),
        }
        // Refused, saying so, past what a .sfx holds or for a name holding a line break.
        if let Ok(files) = sfx::write(&sounds) {
            let back = sfx::read(&files.sfx, &files.sam).expect("a written sound map reads");
            for (id, info) in &sounds.sounds {
                let names: Vec<&str> = info.samples.iter().map(|s| s.trim_end()).collect();
                assert_eq!(
                    back.sounds[id].samples, names,
                    "sound {id}'s samples through a .sam"
                );
            }
        }
    });
});
