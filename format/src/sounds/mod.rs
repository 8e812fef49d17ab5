//! The sound files beside an object file, into and out of the model's [`Sounds`]: TRLE's
//! `NAME.sfx` + `NAME.sam` beside a `.wad` ([`sfx`]), Tomb Editor's XML sound catalogue beside
//! a `.wad2` ([`xml`]). `docs/sounds.md` describes both.

use std::fmt;

pub use wadforge_model::sounds::*;

pub mod sam_text;
pub mod sfx;
pub mod xml;
mod xml_tree;

/// Why a sound file could not be read or written: which file, where in it, what is wrong, and
/// what to do (in `problem`). The caller adds the file's path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SoundsError {
    pub file: SoundFile,
    pub at: Option<Location>,
    pub problem: String,
}

/// Which of the sound files an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoundFile {
    Sfx,
    Xml,
}

/// Where in a sound file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Byte(usize),
    Line(usize),
}

impl SoundsError {
    pub(crate) fn sfx(byte: usize, problem: String) -> Self {
        SoundsError {
            file: SoundFile::Sfx,
            at: Some(Location::Byte(byte)),
            problem,
        }
    }

    pub(crate) fn xml(line: usize, problem: String) -> Self {
        SoundsError {
            file: SoundFile::Xml,
            at: Some(Location::Line(line)),
            problem,
        }
    }

    pub(crate) fn write(problem: String) -> Self {
        SoundsError {
            file: SoundFile::Sfx,
            at: None,
            problem,
        }
    }
}

impl fmt::Display for SoundsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = match self.file {
            SoundFile::Sfx => "sound map (.sfx/.sam)",
            SoundFile::Xml => "Tomb Editor sound catalogue (.xml)",
        };
        match self.at {
            Some(Location::Byte(b)) => write!(f, "{file}, byte {b}: {}", self.problem),
            Some(Location::Line(l)) => write!(f, "{file}, line {l}: {}", self.problem),
            None => write!(f, "{file}: {}", self.problem),
        }
    }
}

#[cfg(test)]
mod hostile {
    use proptest::prelude::*;

    use super::{sfx, xml};

    proptest! {
        // Any bytes, and any sound map of TRLE's size with any words: an answer, never a panic.
        #[test]
        fn any_bytes_read_as_a_sound_map_or_catalogue_give_an_answer(bytes in proptest::collection::vec(any::<u8>(), 0..900), sam in ".{0,200}") {
            let _ = sfx::read(&bytes, &sam);
            let _ = xml::read(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn any_words_in_a_trle_sized_map_read_and_write_again(words in proptest::collection::vec(any::<u16>(), 370 + 2 + 4 * 5), sam in "([a-z]{1,4}\r\n){0,40}") {
            let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes[740..744].copy_from_slice(&5u32.to_le_bytes());
            if let Ok(sounds) = sfx::read(&bytes, &sam) {
                let files = sfx::write(&sounds).unwrap();
                prop_assert_eq!(sfx::read(&files.sfx, &files.sam).unwrap(), sounds);
            }
        }

        #[test]
        fn any_catalogue_text_gives_an_answer(text in "(<[A-Za-z/!?]{0,12}>|&[a-z#0-9]{0,5};|[^<&]{0,8}){0,60}") {
            if let Ok(sounds) = xml::read(&text) {
                prop_assert_eq!(xml::read(&xml::write(&sounds)).unwrap(), sounds);
            }
        }
    }
}
