//! The sound files beside an object file, into and out of the model's [`Sounds`]: TRLE's
//! `NAME.sfx` + `NAME.sam` beside a `.wad` ([`sfx`]), Tomb Editor's XML sound catalogue beside
//! a `.wad2` ([`xml`]). `docs/sounds.md` describes both.

use std::fmt;

pub use wadforge_model::sounds::*;

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
