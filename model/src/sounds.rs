//! The sounds beside an object file: which sound ids it defines, and for each how the game plays
//! it (volume, range, chance, pitch, flags) and the sample files it picks from.
//!
//! The values are kept in TRLE's own units (the `.sfx` bytes), so that a `.sfx` read and written
//! again says the same; Tomb Editor's XML catalogues speak in percentages, which its codec
//! converts (`docs/sounds.md`). Animations play these sounds by id (command 5, `PlaySound`).

use std::collections::{BTreeMap, BTreeSet};

use crate::catalog::{self, Game};
use crate::{Command, Moveable};

/// The sounds of one object file: sound id → how the game plays it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sounds {
    /// How many ids a `.sfx` written from these maps: TRLE's 370 or TRNG's 2048.
    pub map: SoundMap,
    pub sounds: BTreeMap<u16, SoundInfo>,
}

/// The size of a `.sfx` sound map: one word per sound id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SoundMap {
    /// TRLE's (and Tomb Editor's TR4 catalogue's) 370 ids.
    #[default]
    Trle,
    /// TRNG's 2048 ids.
    Trng,
}

impl SoundMap {
    pub const fn ids(self) -> usize {
        match self {
            SoundMap::Trle => 370,
            SoundMap::Trng => 2048,
        }
    }

    /// The smallest map that holds `id`, `None` past TRNG's.
    pub fn holding(id: u16) -> Option<SoundMap> {
        [SoundMap::Trle, SoundMap::Trng]
            .into_iter()
            .find(|m| usize::from(id) < m.ids())
    }
}

/// How the game plays one sound, in TRLE's units (a `.sfx` info).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundInfo {
    /// The sound's name as a catalogue or Tomb Editor names it (`LARA_FEET`); `None` when the
    /// file does not say (a `.sfx` stores none).
    pub name: Option<String>,
    /// 0–255, full at 255.
    pub volume: u8,
    /// How far it carries, in sectors (1024 units).
    pub range: u8,
    /// How often it plays when asked, out of 255; 0 means always (TRLE's legacy value).
    pub chance: u8,
    /// Pitch change, a signed byte: −128..127 is −100%..+99%.
    pub pitch: i8,
    /// The `.sfx` characteristics word without its sample count (bits 2–7): bits 0–1 the loop
    /// mode, 0x1000 no panning, 0x2000 random pitch, 0x4000 random volume; other bits kept.
    pub flags: u16,
    /// The sample file names the game picks from (the WAVs in TRLE's sample folder).
    pub samples: Vec<String>,
    /// Tomb Editor's "global" and "indexed" marks (XML catalogues only; a `.sfx` has neither).
    pub global: bool,
    pub indexed: bool,
}

impl SoundInfo {
    /// The characteristics bits that count the samples.
    pub const SAMPLE_COUNT_BITS: u16 = 0x00FC;
    pub const NO_PANNING: u16 = 0x1000;
    pub const RANDOM_PITCH: u16 = 0x2000;
    pub const RANDOM_VOLUME: u16 = 0x4000;
    /// At most this many samples: the count has six bits.
    pub const MAX_SAMPLES: usize = 63;

    /// The loop mode, bits 0–1 of the flags.
    pub fn loop_mode(&self) -> LoopMode {
        LoopMode::from_bits(self.flags)
    }
}

/// What the game does when a sound is asked for again while it plays (bits 0–1 of the flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopMode {
    None,
    /// The new request is ignored until the sound ends.
    OneShotWait,
    /// The sound starts again.
    OneShotRewound,
    /// The sound loops until the engine stops it.
    Looped,
}

impl LoopMode {
    pub const ALL: [LoopMode; 4] = [
        LoopMode::None,
        LoopMode::OneShotWait,
        LoopMode::OneShotRewound,
        LoopMode::Looped,
    ];

    pub fn from_bits(flags: u16) -> LoopMode {
        Self::ALL[usize::from(flags & 3)]
    }

    pub fn bits(self) -> u16 {
        self as u16
    }

    /// Tomb Editor's name of the mode (its XML's `LoopBehaviour`).
    pub fn name(self) -> &'static str {
        match self {
            LoopMode::None => "None",
            LoopMode::OneShotWait => "OneShotWait",
            LoopMode::OneShotRewound => "OneShotRewound",
            LoopMode::Looped => "Looped",
        }
    }

    pub fn from_name(name: &str) -> Option<LoopMode> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

impl Sounds {
    /// Names the sounds that have no name by `game`'s catalogue (`LARA_FEET`).
    pub fn name_by_catalogue(&mut self, game: Game) {
        for (&id, info) in &mut self.sounds {
            if info.name.is_none() {
                info.name = catalog::sound_name(game, u32::from(id)).map(str::to_owned);
            }
        }
    }

    /// These sounds with `other`'s added, `other`'s replacing those of the same id; the map is
    /// the larger of the two.
    pub fn merged_with(&self, other: &Sounds) -> Sounds {
        let mut sounds = self.sounds.clone();
        sounds.extend(other.sounds.iter().map(|(&id, info)| (id, info.clone())));
        let map = if self.map == SoundMap::Trng || other.map == SoundMap::Trng {
            SoundMap::Trng
        } else {
            SoundMap::Trle
        };
        Sounds { map, sounds }
    }

    /// Only the sounds of `ids`.
    pub fn only(&self, ids: &BTreeSet<u16>) -> Sounds {
        let sounds = self
            .sounds
            .iter()
            .filter(|(id, _)| ids.contains(id))
            .map(|(&id, i)| (id, i.clone()))
            .collect();
        Sounds {
            map: self.map,
            sounds,
        }
    }
}

/// Every sound id the moveables' animations play (command 5), whatever the land/water bits.
pub fn played_sounds<'a>(moveables: impl IntoIterator<Item = &'a Moveable>) -> BTreeSet<u16> {
    moveables
        .into_iter()
        .flat_map(|m| &m.animations)
        .flat_map(|a| &a.commands)
        .filter_map(|c| match c {
            Command::PlaySound { sound, .. } => Some(*sound),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(volume: u8) -> SoundInfo {
        SoundInfo {
            name: None,
            volume,
            range: 8,
            chance: 0,
            pitch: 0,
            flags: 0,
            samples: vec!["a.wav".into()],
            global: false,
            indexed: false,
        }
    }

    #[test]
    fn merging_keeps_the_base_and_lets_the_other_add_and_replace_by_id() {
        let base = Sounds {
            map: SoundMap::Trle,
            sounds: BTreeMap::from([(1, info(10)), (2, info(20))]),
        };
        let other = Sounds {
            map: SoundMap::Trng,
            sounds: BTreeMap::from([(2, info(99)), (900, info(30))]),
        };
        let merged = base.merged_with(&other);
        assert_eq!(merged.map, SoundMap::Trng);
        let volumes: Vec<(u16, u8)> = merged.sounds.iter().map(|(&id, i)| (id, i.volume)).collect();
        assert_eq!(volumes, [(1, 10), (2, 99), (900, 30)]);
    }

    #[test]
    fn the_loop_mode_is_the_low_two_bits_by_tomb_editors_names() {
        for mode in LoopMode::ALL {
            assert_eq!(LoopMode::from_bits(0x3000 | mode.bits()), mode);
            assert_eq!(LoopMode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(SoundMap::holding(369), Some(SoundMap::Trle));
        assert_eq!(SoundMap::holding(370), Some(SoundMap::Trng));
        assert_eq!(SoundMap::holding(2048), None);
    }
}
