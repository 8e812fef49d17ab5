//! Tomb Raider level files (TR1–TR5): their moveables and statics read into the same model the
//! WAD reader produces. TR1 (`.PHD`, version 0x20), TR2 (0x2D), TR3 (0xFF080038, 0xFF180038),
//! TR4 (`"TR4\0"`, zlib chunks) and TR5 (`.trc`, headed as TR4's; `tr5`) are read. Data TRX appends after a level (its injections,
//! [`Appended`]) is passed over and reported.
//!
//! The whole file is walked in order with every count and offset bounds-checked (no panics, no
//! allocation from a count the remaining bytes cannot hold); errors name the [`Section`], the
//! byte offset and the record concerned.
//!
//! Data flows one way: the per-game readers (`tr1`, `tr2`, `tr4`, `tr5`, sharing `tr123`) walk the file
//! into `tables::Tables` and hand them to `build`, which makes the model in stages (`pages`,
//! `meshes`, `moveables`, `frames`); no module here imports one that imports it.

mod appended;
mod build;
mod bytes;
mod error;
mod frames;
mod meshes;
mod moveables;
mod pages;
mod samples;
mod sounds;
mod tables;
pub(crate) mod texture;
mod tr1;
mod tr123;
mod tr2;
mod tr4;
mod tr5;

pub use appended::{Appended, AppendedKind, TrxChunk, TRX_MAGIC};
pub use build::Level;
pub use error::{LevelError, Problem, Section};
pub use samples::{main_sfx_wavs, HeldSamples, LevelSamples, MainSfxError};
pub use sounds::{sample_name, LevelSounds};
pub use wadforge_model::skewed::{Corners, SkewedCorners};

use wadforge_model::catalog::Game;

use crate::FileKind;

/// TR1 (`.PHD`, `.TUB`) version word.
pub const TR1_VERSION: u32 = 0x0000_0020;
/// TR2 version word.
pub const TR2_VERSION: u32 = 0x0000_002D;
/// TR3 version words (two variants occur).
pub const TR3_VERSIONS: [u32; 2] = [0xFF08_0038, 0xFF18_0038];
/// TR4 versions: `"TR4\0"`, and `"TR4c"` as some TRLE builds write it.
pub const TR4_VERSIONS: [u32; 2] = [0x0034_5254, 0x6334_5254];

/// Decodes a TR1, TR2, TR3, TR4 or TR5 level file, its game known by its version word
/// ([`crate::kind_of`]; TR5's is TR4's, told apart after the textiles).
pub fn read(bytes: &[u8]) -> Result<Level, LevelError> {
    let header = bytes::View::new(bytes, 0, Section::Version);
    let version = header.u32(0)?;
    match crate::kind_of(bytes) {
        Some(FileKind::Level(Game::Tr1)) => tr1::read(bytes),
        Some(FileKind::Level(game @ (Game::Tr2 | Game::Tr3))) => tr2::read(bytes, game),
        Some(FileKind::Level(Game::Tr4)) => tr4::read(bytes),
        // `kind_of` finds no TR5 level (headed as TR4's, the TR4 reader hands it on) nor TEN
        // level (wadforge reads none): refused as any unknown version is.
        Some(FileKind::Wad | FileKind::Wad2 | FileKind::Level(Game::Tr5 | Game::Ten)) | None => {
            Err(header.error(0, Problem::UnknownVersion(version)))
        }
    }
}
