//! A level's own sounds: its sound map (one word per sound id, −1 for none, else an index into
//! the sound details), its sound details (8 bytes each) and its sample indices, read into the
//! sounds model. TR1/TR2 details are `sample, volume, chance, characteristics` (words, volume
//! and chance out of 0x7FFF); TR3 onwards `sample, volume, range, chance, pitch` (bytes after the
//! word) and the characteristics word. A level names no sample file: each sample is named by the
//! level ([`LevelSounds::named`], `docs/sounds.md`); the WAVs themselves are read by
//! [`super::samples`].

use std::collections::BTreeMap;

use wadforge_model::catalog::Game;
use wadforge_model::sounds::{SoundInfo, SoundMap, Sounds};

use super::bytes::View;
use super::error::LevelError;
use super::samples::{self, LevelSamples, SampleTables};

/// Bytes of one sound details record (every game).
pub(super) const SOUND_DETAILS_SIZE: usize = 8;
/// The range TR1 and TR2 give every sound (their details have none), in sectors: TRLE's default.
const LEGACY_RANGE: u8 = 8;

/// The walked sound sections of a level.
pub(super) struct SoundTables<'a> {
    pub map: View<'a>,
    pub details: View<'a>,
    /// How many sample indices the level has: the samples its details may name.
    pub sample_count: usize,
    /// Where the sample WAVs are.
    pub samples: SampleTables<'a>,
}

/// A level's sounds: each sound id's info and the numbers of the level's samples it picks from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LevelSounds {
    /// How many ids the level's sound map has (370 or TR1's 256 fit TRLE's map).
    pub map: SoundMap,
    /// Sound id → its info (without sample names) and its sample numbers.
    pub sounds: BTreeMap<u16, (SoundInfo, Vec<u32>)>,
    /// The WAV files of the sample numbers (or, TR2/TR3, where in `MAIN.SFX` they are).
    pub samples: LevelSamples,
}

/// The file name of sample number `n` of the level whose file's stem is `level`:
/// `<LEVEL>_<n>.wav`, the stem keeping two levels' samples apart.
pub fn sample_name(level: &str, n: u32) -> String {
    format!("{level}_{n}.wav")
}

impl LevelSounds {
    /// The sounds with each sample named `<LEVEL>_<number>.wav`, `level` the file's stem: a
    /// level names no sample file, and its stem keeps two levels' samples apart.
    pub fn named(&self, level: &str) -> Sounds {
        let sounds = self
            .sounds
            .iter()
            .map(|(&id, (info, numbers))| {
                let samples = numbers.iter().map(|&n| sample_name(level, n)).collect();
                (
                    id,
                    SoundInfo {
                        samples,
                        ..info.clone()
                    },
                )
            })
            .collect();
        Sounds {
            map: self.map,
            sounds,
        }
    }
}

/// Reads the sounds of `t` (`game`'s details layout). Sample numbers past the level's sample
/// indices are left out of their sound (the game could not play them either).
pub(super) fn read(t: &SoundTables, game: Game) -> Result<LevelSounds, LevelError> {
    let mut sounds = BTreeMap::new();
    let detail_count = t.details.len() / SOUND_DETAILS_SIZE;
    for id in 0..t.map.len() / 2 {
        let entry = t.map.i16(id * 2)?;
        let Ok(detail) = usize::try_from(entry) else {
            continue; // −1: the level does not define this sound
        };
        if detail >= detail_count {
            continue; // a map entry past the details: nothing the game could play
        }
        let (info, numbers) = read_details(&t.details, detail * SOUND_DETAILS_SIZE, game)?;
        let numbers = numbers.filter(|&n| (n as usize) < t.sample_count).collect();
        sounds.insert(id as u16, (info, numbers));
    }
    let map = sounds
        .keys()
        .next_back()
        .and_then(|&id| SoundMap::holding(id))
        .unwrap_or_default();
    Ok(LevelSounds {
        map,
        sounds,
        samples: samples::read(&t.samples)?,
    })
}

/// One details record at `at`: the info (no samples) and its sample numbers.
fn read_details(
    v: &View,
    at: usize,
    game: Game,
) -> Result<(SoundInfo, impl Iterator<Item = u32>), LevelError> {
    let first = u32::from(v.u16(at)?);
    let characteristics = v.u16(at + 6)?;
    let (volume, range, chance, pitch) = if matches!(game, Game::Tr1 | Game::Tr2) {
        // Out of 0x7FFF there, out of 255 in the model.
        let scaled = |w: u16| (w >> 7).min(255) as u8;
        (scaled(v.u16(at + 2)?), LEGACY_RANGE, scaled(v.u16(at + 4)?), 0)
    } else {
        (v.u8(at + 2)?, v.u8(at + 3)?, v.u8(at + 4)?, v.u8(at + 5)? as i8)
    };
    let count = u32::from((characteristics & SoundInfo::SAMPLE_COUNT_BITS) >> 2);
    let info = SoundInfo {
        name: None,
        volume,
        range,
        chance,
        pitch,
        flags: characteristics & !SoundInfo::SAMPLE_COUNT_BITS,
        samples: Vec::new(),
        global: false,
        indexed: false,
    };
    Ok((info, first..first + count))
}
