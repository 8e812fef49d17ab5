//! A file's objects, whatever kind of file it is: the one entry for every command, test and tool
//! that takes "a WAD or a level". [`crate::kind_of`] says what the file is; that kind's reader
//! reads it.

use wadforge_model::catalog::Game;
use wadforge_model::Wad;

use crate::file_kind::{kind_of, FileKind};
use crate::level::{self, LevelError, SkewedCorners};
use crate::references;
use crate::wad::{self, Layout};
use crate::wad2::{self, Loss};

/// A file's objects and what the file was.
#[derive(Debug, Clone)]
pub struct Opened {
    pub kind: FileKind,
    pub model: Wad,
    /// The game whose catalogue names the objects ([`FileKind::game`]).
    pub game: Game,
    /// The file's version word.
    pub version: u32,
    /// Where a WAD's records sat (its animation table's order, for references across objects);
    /// `None` for a level.
    pub layout: Option<Layout>,
    /// A level's polygons whose texture is skewed on its sample, with their exact UV corners
    /// (empty for a WAD).
    pub skewed: SkewedCorners,
    /// What the model could not hold of the file's objects (a Wad2's colours, blend modes…);
    /// empty for WADs and levels.
    pub losses: Vec<Loss>,
    /// The file's size in bytes (what work on its objects may cost grows with it).
    pub file_bytes: u64,
    /// A Wad2's typed document: its detail, which the model has no place for, for writing a Wad2
    /// again ([`wad2::keep_detail`]); `None` for WADs and levels.
    pub wad2: Option<wad2::Document>,
    /// Data an engine appended after a level proper (TRX's injections), passed over; `None`
    /// for WADs, Wad2s and levels without.
    pub appended: Option<level::Appended>,
    /// A level's own sounds (its sound map and details); `None` for WADs and Wad2s, whose
    /// sounds are in files beside them.
    pub sounds: Option<level::LevelSounds>,
}

impl Opened {
    /// What people call the file: `TRLE WAD`, `TR1 level`.
    pub fn description(&self) -> &'static str {
        self.kind.description()
    }

    /// Where each moveable's animations start in the file's animation table, which references
    /// into another object's animations count in.
    pub fn animation_starts(&self) -> Vec<usize> {
        match &self.layout {
            Some(layout) => references::layout_starts(&self.model, layout),
            None => references::canonical_starts(&self.model.moveables),
        }
    }
}

/// Why a file's objects cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// A WAD by its first bytes that its reader refuses.
    #[error(transparent)]
    Wad(wad::ReadError),
    /// A level by its first bytes that its reader refuses.
    #[error(transparent)]
    Level(LevelError),
    /// No kind wadforge reads begins so: the level reader's account of the first bytes (a
    /// version word no game has, or too few bytes for one), which names them.
    #[error(transparent)]
    Unknown(LevelError),
    #[error(transparent)]
    Wad2(wad2::Wad2Error),
    #[error(transparent)]
    Wad2Objects(wad2::ObjectError),
}

/// Reads the objects of `bytes`, whatever kind of file they are ([`kind_of`]).
pub fn open(bytes: &[u8]) -> Result<Opened, OpenError> {
    let file_bytes = bytes.len() as u64;
    match kind_of(bytes) {
        Some(kind @ FileKind::Wad) => {
            let (model, layout) = wad::read(bytes).map_err(OpenError::Wad)?;
            Ok(Opened {
                kind,
                game: kind.game(),
                version: model.version,
                model,
                layout: Some(layout),
                skewed: SkewedCorners::new(),
                losses: Vec::new(),
                file_bytes,
                wad2: None,
                appended: None,
                sounds: None,
            })
        }
        Some(kind @ FileKind::Wad2) => {
            let document = wad2::read_document(bytes).map_err(OpenError::Wad2)?;
            let objects = wad2::to_model(&document).map_err(OpenError::Wad2Objects)?;
            Ok(Opened {
                kind,
                game: wad2::game_of(&document),
                version: objects.model.version,
                model: objects.model,
                layout: None,
                skewed: objects.skewed,
                losses: objects.losses,
                file_bytes,
                wad2: Some(document),
                appended: None,
                sounds: None,
            })
        }
        // No kind at all goes to the level reader too: it names the version word it does not know.
        kind => {
            let level = level::read(bytes).map_err(|e| match kind {
                Some(_) => OpenError::Level(e),
                None => OpenError::Unknown(e),
            })?;
            Ok(Opened {
                kind: FileKind::Level(level.game),
                game: level.game,
                version: level.version,
                model: level.wad,
                layout: None,
                skewed: level.skewed,
                losses: Vec::new(),
                file_bytes,
                wad2: None,
                appended: level.appended,
                sounds: level.sounds,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_no_kind_is_named_by_its_version_word() {
        let e = open(&[1, 2, 3, 4, 5]).unwrap_err();
        assert!(matches!(e, OpenError::Unknown(_)));
        assert!(e.to_string().contains("is not a Tomb Raider level"), "{e}");
    }
}
