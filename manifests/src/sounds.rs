//! `sounds.yaml` of a manifest directory: the sounds its objects' animations play, each by the
//! catalogue's name with its id, how the game plays it (TRLE's units, as in a `.sfx`) and its
//! sample file names. `import` writes it from the sound files beside the input; `build` writes
//! them beside the output from it. Optional: a directory without it builds as before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use wadforge_model::sounds::{LoopMode, SoundInfo, SoundMap, Sounds};

use crate::ManifestError;

/// The file's name inside a manifest directory.
pub const SOUNDS_FILE: &str = "sounds.yaml";

/// The file: the `.sfx` map's size and the sounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundsManifest {
    /// How many ids the `.sfx` build writes maps: 370 (TRLE) or 2048 (TRNG).
    pub map: u16,
    pub sounds: Vec<SoundEntry>,
}

/// One sound, in TRLE's units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundEntry {
    /// The catalogue's (or Tomb Editor's) name, for people: the id is what animations play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub id: u16,
    /// 0–255.
    pub volume: u8,
    /// In sectors.
    pub range: u8,
    /// Out of 255; 0 means always.
    pub chance: u8,
    /// −128..127 is −100%..+99%.
    pub pitch: i8,
    /// None, OneShotWait, OneShotRewound or Looped.
    #[serde(rename = "loop")]
    pub loop_mode: String,
    #[serde(default)]
    pub random_pitch: bool,
    #[serde(default)]
    pub random_volume: bool,
    #[serde(default)]
    pub no_panning: bool,
    /// Characteristics bits none of the above name, kept as the file had them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_flags: u16,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub global: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub indexed: bool,
    pub samples: Vec<String>,
}

fn is_zero(value: &u16) -> bool {
    *value == 0
}

const NAMED_FLAGS: u16 = 3 | SoundInfo::NO_PANNING | SoundInfo::RANDOM_PITCH | SoundInfo::RANDOM_VOLUME;

impl SoundsManifest {
    pub fn of(sounds: &Sounds) -> SoundsManifest {
        let entries = sounds.sounds.iter().map(|(&id, info)| SoundEntry {
            name: info.name.clone(),
            id,
            volume: info.volume,
            range: info.range,
            chance: info.chance,
            pitch: info.pitch,
            loop_mode: info.loop_mode().name().into(),
            random_pitch: info.flags & SoundInfo::RANDOM_PITCH != 0,
            random_volume: info.flags & SoundInfo::RANDOM_VOLUME != 0,
            no_panning: info.flags & SoundInfo::NO_PANNING != 0,
            other_flags: info.flags & !NAMED_FLAGS & !SoundInfo::SAMPLE_COUNT_BITS,
            global: info.global,
            indexed: info.indexed,
            samples: info.samples.clone(),
        });
        SoundsManifest {
            map: sounds.map.ids() as u16,
            sounds: entries.collect(),
        }
    }

    /// The sounds it describes; `path` names the file in errors.
    pub fn sounds(&self, path: &Path) -> Result<Sounds, ManifestError> {
        let invalid = |what: String| ManifestError::Invalid {
            path: path.to_path_buf(),
            what,
        };
        let map = match self.map {
            370 => SoundMap::Trle,
            2048 => SoundMap::Trng,
            other => {
                return Err(invalid(format!(
                    "map: {other} is no .sfx map size: write 370 (TRLE) or 2048 (TRNG)"
                )))
            }
        };
        let mut sounds = BTreeMap::new();
        for entry in &self.sounds {
            let info = entry
                .info()
                .map_err(|what| invalid(format!("sound {}: {what}", entry.id)))?;
            if sounds.insert(entry.id, info).is_some() {
                return Err(invalid(format!("sound {} is listed twice: keep one", entry.id)));
            }
        }
        Ok(Sounds { map, sounds })
    }
}

impl SoundEntry {
    fn info(&self) -> Result<SoundInfo, String> {
        let loop_mode = LoopMode::from_name(&self.loop_mode).ok_or_else(|| {
            format!(
                "loop: {:?} is none of None, OneShotWait, OneShotRewound, Looped",
                self.loop_mode
            )
        })?;
        if self.other_flags & (NAMED_FLAGS | SoundInfo::SAMPLE_COUNT_BITS) != 0 {
            return Err(format!(
                "other_flags: {:#06x} holds bits named by loop, random_pitch, random_volume, no_panning or the sample \
                 count: set those by their names",
                self.other_flags
            ));
        }
        if self.samples.len() > SoundInfo::MAX_SAMPLES {
            return Err(format!(
                "{} samples, more than the {} a sound may have",
                self.samples.len(),
                SoundInfo::MAX_SAMPLES
            ));
        }
        let flag = |on: bool, bit: u16| if on { bit } else { 0 };
        Ok(SoundInfo {
            name: self.name.clone(),
            volume: self.volume,
            range: self.range,
            chance: self.chance,
            pitch: self.pitch,
            flags: loop_mode.bits()
                | flag(self.random_pitch, SoundInfo::RANDOM_PITCH)
                | flag(self.random_volume, SoundInfo::RANDOM_VOLUME)
                | flag(self.no_panning, SoundInfo::NO_PANNING)
                | self.other_flags,
            samples: self.samples.clone(),
            global: self.global,
            indexed: self.indexed,
        })
    }
}

/// The text of `sounds.yaml` for `sounds`.
pub fn sounds_yaml(sounds: &Sounds) -> String {
    crate::write_yaml(
        &SoundsManifest::of(sounds),
        "The sounds this directory's animations play (wadforge import), by id: build writes them beside the\n\
         output (.sfx/.sam beside a WAD, the XML catalogue beside a Wad2). Volume, chance 0-255 (chance 0: always),\n\
         range in sectors, pitch -128..127; samples are file names in TRLE's sample folder.",
    )
}

/// The sounds of the directory `dir`, `None` when it has no `sounds.yaml`.
pub fn load_sounds(dir: &Path) -> Result<Option<Sounds>, ManifestError> {
    let path: PathBuf = dir.join(SOUNDS_FILE);
    let text = match wadforge_files::input::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ManifestError::Io { path, source }),
    };
    let manifest: SoundsManifest = crate::load::parse_yaml(&path, &text)?;
    manifest.sounds(&path).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sounds_written_to_yaml_and_loaded_are_the_same() {
        let info = SoundInfo {
            name: Some("LARA_FEET".into()),
            volume: 200,
            range: 8,
            chance: 0,
            pitch: -12,
            flags: 2 | SoundInfo::RANDOM_PITCH | 0x0100,
            samples: vec!["FEET1.wav".into(), "FEET2.wav".into()],
            global: false,
            indexed: true,
        };
        let sounds = Sounds {
            map: SoundMap::Trng,
            sounds: BTreeMap::from([(0, info.clone()), (1500, info)]),
        };
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SOUNDS_FILE), sounds_yaml(&sounds)).unwrap();
        assert_eq!(load_sounds(dir.path()).unwrap(), Some(sounds));
        assert_eq!(load_sounds(&dir.path().join("missing")).unwrap(), None);
    }

    #[test]
    fn impossible_sounds_are_refused_naming_the_sound_and_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SOUNDS_FILE);
        for (text, expected) in [
            ("map: 371\nsounds: []\n", "map: 371"),
            ("map: 370\nsounds:\n- {id: 3, volume: 1, range: 1, chance: 1, pitch: 0, loop: Forever, samples: []}\n", "sound 3: loop"),
            ("map: 370\nsounds:\n- {id: 3, volume: 300, range: 1, chance: 1, pitch: 0, loop: None, samples: []}\n", "sounds.yaml:"),
            ("map: 370\nsounds:\n- {id: 3, volume: 1, range: 1, chance: 1, pitch: 0, loop: None, other_flags: 3, samples: []}\n", "other_flags"),
        ] {
            std::fs::write(&path, text).unwrap();
            let error = load_sounds(dir.path()).unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
