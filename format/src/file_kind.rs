//! What a file is, known from its first bytes rather than its name (as image-rs's
//! `guess_format` knows images): a table of each kind's signature.
//!
//! A new kind of file is one reader module, one [`FileKind`] case and its rows in
//! [`SIGNATURES`]; [`crate::open`] then reads it.

use wadforge_model::catalog::Game;

use crate::{level, wad};

/// A kind of file wadforge reads objects from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A TRLE WAD (TR4 objects).
    Wad,
    /// A Tomb Raider level of that game.
    Level(Game),
    /// Tomb Editor's Wad2 (its game is in the file).
    Wad2,
}

impl FileKind {
    /// The game whose catalogue names the objects: a level's own (ids keep their game's meaning),
    /// TR4's for a WAD (and for a Wad2 that names none; [`crate::open`] reads a Wad2's own).
    pub fn game(self) -> Game {
        match self {
            FileKind::Wad | FileKind::Wad2 => Game::Tr4,
            FileKind::Level(game) => game,
        }
    }

    /// The kind in a word (`wad`, `tr1` … `tr4`): what a manifest directory records as its
    /// source's format.
    pub fn short_name(self) -> &'static str {
        match self {
            FileKind::Wad => "wad",
            FileKind::Wad2 => "wad2",
            FileKind::Level(Game::Tr1) => "tr1",
            FileKind::Level(Game::Tr2) => "tr2",
            FileKind::Level(Game::Tr3) => "tr3",
            FileKind::Level(Game::Tr4) => "tr4",
            // A TR5 level is headed as TR4's: the level reader tells it apart. No TEN level is read.
            FileKind::Level(Game::Tr5) => "tr5",
            FileKind::Level(Game::Ten) => "ten",
        }
    }

    /// What people call such a file: `TRLE WAD`, `TR1 level`.
    pub fn description(self) -> &'static str {
        match self {
            FileKind::Wad => "TRLE WAD",
            FileKind::Wad2 => "Tomb Editor Wad2",
            FileKind::Level(Game::Tr1) => "TR1 level",
            FileKind::Level(Game::Tr2) => "TR2 level",
            FileKind::Level(Game::Tr3) => "TR3 level",
            FileKind::Level(Game::Tr4) => "TR4 level",
            FileKind::Level(Game::Tr5) => "TR5 level",
            FileKind::Level(Game::Ten) => "TEN level",
        }
    }
}

/// The bytes each kind of file begins with: WADs and levels with their version word
/// (little-endian), Wad2 with its magic. TR5 levels begin as TR4's do; the TR4 reader hands them
/// to the TR5 reader.
const SIGNATURES: [(&[u8], FileKind); 9] = [
    (b"WAD2", FileKind::Wad2),
    (&word(wad::VERSIONS[0]), FileKind::Wad),
    (&word(wad::VERSIONS[1]), FileKind::Wad),
    (&word(level::TR1_VERSION), FileKind::Level(Game::Tr1)),
    (&word(level::TR2_VERSION), FileKind::Level(Game::Tr2)),
    (&word(level::TR3_VERSIONS[0]), FileKind::Level(Game::Tr3)),
    (&word(level::TR3_VERSIONS[1]), FileKind::Level(Game::Tr3)),
    (&word(level::TR4_VERSIONS[0]), FileKind::Level(Game::Tr4)),
    (&word(level::TR4_VERSIONS[1]), FileKind::Level(Game::Tr4)),
];

const fn word(version: u32) -> [u8; 4] {
    version.to_le_bytes()
}

/// The kind of file `bytes` are, by their first bytes (the table of signatures); `None` for a kind
/// wadforge does not read.
pub fn kind_of(bytes: &[u8]) -> Option<FileKind> {
    SIGNATURES
        .iter()
        .find(|(signature, _)| bytes.starts_with(signature))
        .map(|&(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_known_by_their_first_bytes() {
        assert_eq!(kind_of(&[129, 0, 0, 0, 7]), Some(FileKind::Wad));
        assert_eq!(kind_of(&[130, 0, 0, 0]), Some(FileKind::Wad));
        assert_eq!(kind_of(&[0x20, 0, 0, 0]), Some(FileKind::Level(Game::Tr1)));
        assert_eq!(kind_of(&[0x2D, 0, 0, 0]), Some(FileKind::Level(Game::Tr2)));
        assert_eq!(kind_of(&[0x38, 0, 0x08, 0xFF]), Some(FileKind::Level(Game::Tr3)));
        assert_eq!(kind_of(&[0x38, 0, 0x18, 0xFF]), Some(FileKind::Level(Game::Tr3)));
        assert_eq!(kind_of(b"TR4\0"), Some(FileKind::Level(Game::Tr4)));
        assert_eq!(kind_of(b"TR4c"), Some(FileKind::Level(Game::Tr4)));
        assert_eq!(kind_of(b"WAD2\0\0\0\0"), Some(FileKind::Wad2));
        assert_eq!(kind_of(b"Wad2"), None, "the deprecated magic");
        assert_eq!(kind_of(&[129, 0, 0]), None, "too short for a version word");
    }
}
