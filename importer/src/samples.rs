//! The sample WAVs of the sounds a command writes, into a `samples/` folder: on import the level's
//! samples that `sounds.yaml` names (`DIR/samples/`), on convert those of the sounds written beside
//! the output, on build those the manifest directory's `samples/` holds (`docs/sounds.md`).
//!
//! A level's samples are its own (TR1 embeds them, TR4/TR5 append them) or, TR2/TR3, in the
//! `MAIN.SFX` beside it. Each WAV is written atomically; a file already there with other bytes is
//! kept as it is and listed, never overwritten.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use wadforge_format::level::{sample_name, HeldSamples, LevelSounds, MainSfxError};
use wadforge_format::sounds::Sounds;
use wadforge_manifests::sounds::load_sounds;

/// The folder samples are written into, in a manifest directory and beside a built or converted
/// file.
pub const SAMPLES_FOLDER: &str = "samples";
/// The file TR2 and TR3 keep their samples in, beside their levels.
const MAIN_SFX: &str = "MAIN.SFX";

/// Why samples could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("cannot write the sample {}: {source}; check the folder can be written to and has room", path.display())]
    Write { path: PathBuf, source: std::io::Error },
    #[error("cannot read the samples of {} from {}: {source}", level.display(), main_sfx.display())]
    MainSfx {
        level: PathBuf,
        main_sfx: PathBuf,
        source: MainSfxError,
    },
    #[error(transparent)]
    Manifest(#[from] wadforge_manifests::ManifestError),
}

/// What writing samples into a folder did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SamplesWritten {
    pub folder: PathBuf,
    /// WAVs written, and their bytes.
    pub written: usize,
    pub bytes: u64,
    /// Already in the folder with the same bytes.
    pub unchanged: usize,
    /// Already in the folder with other bytes: kept as they were, not written.
    pub kept: Vec<String>,
    /// Named by the sounds but not found where the samples come from.
    pub missing: Vec<String>,
    /// Names that are not a plain file name (a path, `..`): not written.
    pub refused: Vec<String>,
}

impl SamplesWritten {
    /// A line for people: what was written, kept and missing.
    pub fn note(&self) -> String {
        let mut note = format!(
            "samples: {} WAVs written to {} ({} bytes)",
            self.written,
            self.folder.display(),
            self.bytes
        );
        if self.unchanged > 0 {
            note += &format!(", {} already there", self.unchanged);
        }
        for (list, what) in [
            (
                &self.kept,
                "already there with other bytes, kept (move them away to have them written)",
            ),
            (&self.missing, "not found"),
            (&self.refused, "not plain file names, not written"),
        ] {
            if !list.is_empty() {
                note += &format!("; {what}: {}", list.join(", "));
            }
        }
        note
    }
}

/// Every sample file name `sounds` names.
pub fn sample_names(sounds: &Sounds) -> BTreeSet<String> {
    (sounds.sounds.values())
        .flat_map(|info| info.samples.iter().cloned())
        .collect()
}

/// The samples of the level `level` (its own sounds `own`): held by the level, or read from the
/// `MAIN.SFX` beside it. `Ok(None)` when they are in a `MAIN.SFX` that is not there.
pub fn level_samples<'a>(
    level: &Path,
    own: &'a LevelSounds,
) -> Result<Option<Cow<'a, HeldSamples>>, SampleError> {
    if let Some(held) = own.samples.held() {
        return Ok(Some(Cow::Borrowed(held)));
    }
    let Some(main_sfx) = main_sfx_beside(level) else {
        return Ok(None);
    };
    let bytes = wadforge_files::input::read(&main_sfx).map_err(|source| SampleError::Read {
        path: main_sfx.clone(),
        source,
    })?;
    own.samples
        .with_main_sfx(bytes)
        .map(|held| Some(Cow::Owned(held)))
        .map_err(|source| SampleError::MainSfx {
            level: level.to_path_buf(),
            main_sfx,
            source,
        })
}

/// The `MAIN.SFX` in the folder of `level`, its name in any case.
fn main_sfx_beside(level: &Path) -> Option<PathBuf> {
    let folder = match level.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(MAIN_SFX))
                && p.is_file()
        })
}

/// Writes into `folder` the samples `names` of the level `level` (named as
/// [`LevelSounds::named`] names them). `Ok(None)` when they are in a `MAIN.SFX` not beside it.
pub fn write_level_samples(
    level: &Path,
    own: &LevelSounds,
    names: &BTreeSet<String>,
    folder: &Path,
) -> Result<Option<SamplesWritten>, SampleError> {
    let Some(held) = level_samples(level, own)? else {
        return Ok(None);
    };
    let stem = level.file_stem().unwrap_or_default().to_string_lossy();
    let number_of: BTreeMap<String, u32> = (own.sounds.values())
        .flat_map(|(_, numbers)| numbers.iter().map(|&n| (sample_name(&stem, n), n)))
        .collect();
    let wavs = names.iter().map(|name| {
        let wav = number_of.get(name).and_then(|&n| held.wav(n));
        (name.as_str(), wav.map(Into::into))
    });
    write_samples(folder, wavs).map(Some)
}

/// Writes the named WAVs into `folder` (`None`: not found, listed as missing), each atomically;
/// a file already there with other bytes is kept and listed.
pub fn write_samples<'a>(
    folder: &Path,
    wavs: impl IntoIterator<Item = (&'a str, Option<Cow<'a, [u8]>>)>,
) -> Result<SamplesWritten, SampleError> {
    let mut done = SamplesWritten {
        folder: folder.to_path_buf(),
        ..SamplesWritten::default()
    };
    for (name, wav) in wavs {
        // A name from a hand-edited sounds.yaml must not reach outside the folder.
        if Path::new(name).file_name().is_none_or(|n| n != name) || name.contains(['/', '\\']) {
            done.refused.push(name.to_string());
            continue;
        }
        let Some(wav) = wav else {
            done.missing.push(name.to_string());
            continue;
        };
        let path = folder.join(name);
        match std::fs::read(&path) {
            Ok(there) if there == *wav => done.unchanged += 1,
            Ok(_) => done.kept.push(name.to_string()),
            Err(_) => {
                wadforge_files::write_atomically(&path, &wav)
                    .map_err(|source| SampleError::Write { path, source })?;
                done.written += 1;
                done.bytes += wav.len() as u64;
            }
        }
    }
    Ok(done)
}

/// On import of `file` into the manifest directory `dir`: writes into `DIR/samples/` the samples
/// the written `sounds.yaml` names, when `file` is a level (`own`, its sounds). A line for
/// people, `None` when there is nothing to say (not a level, no `sounds.yaml`).
pub fn import_samples(
    file: &Path,
    own: Option<&LevelSounds>,
    dir: &Path,
) -> Result<Option<String>, SampleError> {
    let (Some(own), Some(sounds)) = (own, load_sounds(dir)?) else {
        return Ok(None);
    };
    level_samples_note(file, own, &sample_names(&sounds), &dir.join(SAMPLES_FOLDER))
}

/// Writes the level's samples `names` into `folder` and says what it did, or where the samples
/// are when a TR2/TR3 level's `MAIN.SFX` is not beside it. A `MAIN.SFX` that does not read is said
/// too: the objects are written without their samples.
pub fn level_samples_note(
    level: &Path,
    own: &LevelSounds,
    names: &BTreeSet<String>,
    folder: &Path,
) -> Result<Option<String>, SampleError> {
    if names.is_empty() {
        return Ok(None);
    }
    match write_level_samples(level, own, names, folder) {
        Ok(Some(done)) => Ok(Some(done.note())),
        Ok(None) => Ok(Some(format!(
            "samples not written: {}'s samples are in {MAIN_SFX}, which was not found beside it; \
             copy the game's {MAIN_SFX} into its folder to have them written",
            level.display()
        ))),
        Err(e @ SampleError::MainSfx { .. }) => Ok(Some(format!("samples not written: {e}"))),
        Err(e) => Err(e),
    }
}

/// On build of the manifest directory `dir` into `out`: copies the samples its `sounds.yaml`
/// names from `DIR/samples/` into `samples/` beside `out`. `None` when `dir` has no `sounds.yaml`
/// or no `samples/` folder.
pub fn build_samples(dir: &Path, out: &Path) -> Result<Option<String>, SampleError> {
    let from = dir.join(SAMPLES_FOLDER);
    let Some(sounds) = load_sounds(dir)? else {
        return Ok(None);
    };
    if !from.is_dir() {
        return Ok(None);
    }
    let names = sample_names(&sounds);
    let read: Vec<(String, Option<Vec<u8>>)> = names
        .into_iter()
        .map(|name| {
            let wav = wadforge_files::input::read(&from.join(&name)).ok();
            (name, wav)
        })
        .collect();
    let wavs = read
        .iter()
        .map(|(name, wav)| (name.as_str(), wav.as_deref().map(Into::into)));
    write_samples(&beside(out), wavs).map(|done| Some(done.note()))
}

/// The `samples/` folder beside the output file `out`.
pub fn beside(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join(SAMPLES_FOLDER),
        _ => PathBuf::from(SAMPLES_FOLDER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wadforge_format::level::LevelSamples;

    #[test]
    fn a_different_file_already_there_is_kept_and_listed() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.wav"), b"theirs").unwrap();
        std::fs::write(tmp.path().join("b.wav"), b"same").unwrap();
        let done = write_samples(
            tmp.path(),
            [
                ("a.wav", Some(b"ours".as_slice().into())),
                ("b.wav", Some(b"same".as_slice().into())),
                ("c.wav", Some(b"new!".as_slice().into())),
                ("d.wav", None),
                ("../e.wav", Some(b"out".as_slice().into())),
            ],
        )
        .unwrap();
        assert_eq!(std::fs::read(tmp.path().join("a.wav")).unwrap(), b"theirs");
        assert_eq!(std::fs::read(tmp.path().join("c.wav")).unwrap(), b"new!");
        assert_eq!((done.written, done.bytes, done.unchanged), (1, 4, 1));
        assert_eq!(done.kept, ["a.wav"]);
        assert_eq!(done.missing, ["d.wav"]);
        assert_eq!(done.refused, ["../e.wav"]);
        assert!(!tmp.path().parent().unwrap().join("e.wav").exists());
    }

    /// A RIFF WAV of `data`.
    fn wav(data: &[u8]) -> Vec<u8> {
        [b"RIFF", &(4 + data.len() as u32).to_le_bytes()[..], b"WAVE", data].concat()
    }

    #[test]
    fn a_tr2_levels_samples_come_from_the_main_sfx_beside_it_by_number() {
        let tmp = tempfile::tempdir().unwrap();
        let (first, second) = (wav(b"first"), wav(b"second"));
        std::fs::write(
            tmp.path().join("main.sfx"),
            [first.clone(), second.clone()].concat(),
        )
        .unwrap();
        // Sound 3 plays the level's samples 0 and 1: MAIN.SFX's WAVs 1 and 0.
        let info = wadforge_format::sounds::SoundInfo {
            name: None,
            volume: 255,
            range: 8,
            chance: 0,
            pitch: 0,
            flags: 0,
            samples: Vec::new(),
            global: false,
            indexed: false,
        };
        let own = LevelSounds {
            sounds: BTreeMap::from([(3, (info, vec![0, 1]))]),
            samples: LevelSamples::InMainSfx {
                wavs: vec![1, 0],
                at: 0,
            },
            ..LevelSounds::default()
        };
        let names = BTreeSet::from(["WALL_0.wav".to_string(), "WALL_1.wav".to_string()]);
        let folder = tmp.path().join("samples");
        let done = write_level_samples(&tmp.path().join("WALL.TR2"), &own, &names, &folder)
            .unwrap()
            .expect("MAIN.SFX is beside the level");
        assert_eq!(done.written, 2);
        assert_eq!(std::fs::read(folder.join("WALL_0.wav")).unwrap(), second);
        assert_eq!(std::fs::read(folder.join("WALL_1.wav")).unwrap(), first);
    }

    #[test]
    fn a_tr2_level_without_main_sfx_beside_it_says_where_its_samples_are() {
        let tmp = tempfile::tempdir().unwrap();
        let own = LevelSounds {
            samples: LevelSamples::InMainSfx { wavs: vec![0], at: 0 },
            ..LevelSounds::default()
        };
        let names = BTreeSet::from(["LEVEL_0.wav".to_string()]);
        let level = tmp.path().join("LEVEL.TR2");
        let note = level_samples_note(&level, &own, &names, &tmp.path().join("s"))
            .unwrap()
            .unwrap();
        assert!(note.contains("MAIN.SFX, which was not found"), "{note}");
        assert!(!tmp.path().join("s").exists());
    }
}
