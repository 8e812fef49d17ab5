//! A level's sound samples: the WAV files its sounds play, by sample number (the numbers a sound's
//! details name, `docs/sounds.md`). Where they are depends on the game:
//!
//! - TR1 embeds them after the sound details: a count of sample bytes, the WAV files one after
//!   another, then the sample indices, each the byte offset of a sample's WAV in those bytes;
//! - TR2 and TR3 keep them in `MAIN.SFX` beside the level (WAV files one after another): the
//!   sample indices give the number of each sample's WAV there ([`main_sfx_wavs`]);
//! - TR4 and TR5 append them after the level data: a count, then per sample its uncompressed
//!   size, its stored size and that many bytes of a whole WAV file; a sound's sample number
//!   counts in them directly (the compilers write the sample indices as zeros).
//!
//! A WAV is delimited by its RIFF header (`"RIFF"`, the size of what follows, `"WAVE"`), so a
//! sample whose header claims more bytes than its store holds is refused with its offset.

use std::ops::Range;

use super::bytes::View;
use super::error::{LevelError, Problem};

/// Bytes of a RIFF WAV's header: `"RIFF"`, the size of what follows, `"WAVE"`.
const RIFF_HEADER_BYTES: usize = 12;

/// Where a walked level's samples are, as its reader found them.
pub(super) enum SampleTables<'a> {
    /// TR1: the embedded WAV bytes and the sample indices (byte offsets into them).
    Embedded { wavs: View<'a>, indices: View<'a> },
    /// TR2/TR3: the sample indices, numbers of WAVs in `MAIN.SFX`.
    InMainSfx { indices: View<'a> },
    /// TR4/TR5: the appended WAV files, by sample number.
    Appended(Vec<View<'a>>),
}

/// A level's samples: held by the level (TR1, TR4, TR5, or TR2/TR3 once `MAIN.SFX` is read), or
/// waiting on `MAIN.SFX`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelSamples {
    /// The WAV files, by sample number.
    Held(HeldSamples),
    /// TR2/TR3: sample number `n` is `MAIN.SFX`'s WAV number `wavs[n]`; `at` is the file offset
    /// of the level's sample indices, for errors.
    InMainSfx { wavs: Vec<u32>, at: u64 },
}

impl Default for LevelSamples {
    fn default() -> Self {
        LevelSamples::Held(HeldSamples::default())
    }
}

/// WAV files by sample number, several numbers possibly naming one WAV.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeldSamples {
    /// The bytes the WAVs are cut from.
    bytes: Vec<u8>,
    /// Each sample number's WAV in `bytes`.
    wavs: Vec<Range<usize>>,
}

impl HeldSamples {
    /// The WAV file of sample number `n`, `None` past the samples.
    pub fn wav(&self, n: u32) -> Option<&[u8]> {
        let range = self.wavs.get(n as usize)?;
        self.bytes.get(range.clone())
    }

    /// How many sample numbers there are.
    pub fn len(&self) -> usize {
        self.wavs.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.wavs.is_empty()
    }
}

/// Why `MAIN.SFX` does not give a level's samples.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MainSfxError {
    #[error("MAIN.SFX byte {offset}: {detail}; the file is damaged or not a TR2/TR3 MAIN.SFX, copy it again from the game")]
    Damaged { offset: u64, detail: String },
    #[error("the level's sample index {sample} (level byte {at}) names WAV {wav} of MAIN.SFX, which holds {count}; the MAIN.SFX beside the level belongs to another game or version")]
    MissingWav {
        sample: usize,
        at: u64,
        wav: u32,
        count: usize,
    },
}

impl LevelSamples {
    /// The samples the level holds; `None` when they are in `MAIN.SFX` ([`Self::with_main_sfx`]).
    pub fn held(&self) -> Option<&HeldSamples> {
        match self {
            LevelSamples::Held(held) => Some(held),
            LevelSamples::InMainSfx { .. } => None,
        }
    }

    /// The samples, those in `MAIN.SFX` cut from `main_sfx` (its bytes, kept as the samples'
    /// store); held ones as they are.
    pub fn with_main_sfx(&self, main_sfx: Vec<u8>) -> Result<HeldSamples, MainSfxError> {
        let (numbers, at) = match self {
            LevelSamples::Held(held) => return Ok(held.clone()),
            LevelSamples::InMainSfx { wavs, at } => (wavs, *at),
        };
        let in_file = main_sfx_wavs(&main_sfx)?;
        let wavs = numbers
            .iter()
            .enumerate()
            .map(|(sample, &wav)| {
                in_file
                    .get(wav as usize)
                    .cloned()
                    .ok_or(MainSfxError::MissingWav {
                        sample,
                        at: at + 4 * sample as u64,
                        wav,
                        count: in_file.len(),
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(HeldSamples {
            bytes: main_sfx,
            wavs,
        })
    }
}

/// The WAV files of a `MAIN.SFX` (RIFF WAVs one after another), in order.
pub fn main_sfx_wavs(bytes: &[u8]) -> Result<Vec<Range<usize>>, MainSfxError> {
    let mut wavs = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = riff_end(bytes, at).map_err(|detail| MainSfxError::Damaged {
            offset: at as u64,
            detail: format!("WAV {}: {detail}", wavs.len()),
        })?;
        wavs.push(at..end);
        at = end;
    }
    Ok(wavs)
}

/// Where the RIFF WAV starting at `at` of `bytes` ends, or what is wrong with it.
fn riff_end(bytes: &[u8], at: usize) -> Result<usize, String> {
    let header = bytes
        .get(at..)
        .and_then(|rest| rest.get(..RIFF_HEADER_BYTES))
        .ok_or_else(|| {
            format!(
                "{} bytes left, fewer than a WAV header's {RIFF_HEADER_BYTES}",
                bytes.len().saturating_sub(at)
            )
        })?;
    if &header[..4] != b"RIFF" || &header[8..12] != b"WAVE" {
        return Err(format!(
            "not a RIFF WAV (its first bytes are {:02x?})",
            &header[..RIFF_HEADER_BYTES]
        ));
    }
    let size = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
    match (at + 8).checked_add(size) {
        Some(end) if end <= bytes.len() => Ok(end),
        _ => Err(format!(
            "its RIFF header claims {size} bytes after the first 8, but {} are left",
            bytes.len() - at - 8
        )),
    }
}

/// Reads the samples of `t`: TR1's embedded WAVs cut at their indices, TR4/TR5's appended ones
/// gathered, TR2/TR3's indices kept for `MAIN.SFX`.
pub(super) fn read(t: &SampleTables) -> Result<LevelSamples, LevelError> {
    match t {
        SampleTables::Embedded { wavs, indices } => embedded(wavs, indices).map(LevelSamples::Held),
        SampleTables::InMainSfx { indices } => Ok(LevelSamples::InMainSfx {
            wavs: words(indices)?,
            at: indices.base as u64,
        }),
        SampleTables::Appended(views) => {
            // The views lie in the file, so together they are no larger than it.
            let mut bytes = Vec::with_capacity(views.iter().map(View::len).sum());
            let mut wavs = Vec::with_capacity(views.len());
            for v in views {
                wavs.push(bytes.len()..bytes.len() + v.len());
                bytes.extend_from_slice(v.bytes);
            }
            Ok(LevelSamples::Held(HeldSamples { bytes, wavs }))
        }
    }
}

/// The u32 words of `v` (its length a multiple of 4, as the walk took it).
fn words(v: &View) -> Result<Vec<u32>, LevelError> {
    (0..v.len() / 4).map(|i| v.u32(i * 4)).collect()
}

/// TR1's embedded samples: each index the offset of a whole RIFF WAV in `wavs`.
fn embedded(wavs: &View, indices: &View) -> Result<HeldSamples, LevelError> {
    let offsets = words(indices)?;
    let mut ranges = Vec::with_capacity(offsets.len());
    for (i, &offset) in offsets.iter().enumerate() {
        let offset = offset as usize;
        if offset >= wavs.len() {
            return Err(indices.error(
                i * 4,
                Problem::IndexOutOfRange {
                    what: "sample byte offset",
                    index: offset as u64,
                    len: wavs.len() as u64,
                },
            ));
        }
        let end = riff_end(wavs.bytes, offset).map_err(|detail| {
            wavs.error(
                offset,
                Problem::Chunk {
                    what: "sound sample",
                    detail: format!("{i} ({detail})"),
                },
            )
        })?;
        ranges.push(offset..end);
    }
    Ok(HeldSamples {
        bytes: wavs.bytes.to_vec(),
        wavs: ranges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(data: &[u8]) -> Vec<u8> {
        let mut w = b"RIFF".to_vec();
        w.extend_from_slice(&(4 + data.len() as u32).to_le_bytes());
        w.extend_from_slice(b"WAVE");
        w.extend_from_slice(data);
        w
    }

    #[test]
    fn main_sfx_gives_each_sample_its_numbered_wav() {
        let (a, b) = (wav(b"first"), wav(b"second!"));
        let main_sfx = [a.clone(), b.clone()].concat();
        let samples = LevelSamples::InMainSfx {
            wavs: vec![1, 0, 1],
            at: 100,
        };
        let held = samples.with_main_sfx(main_sfx).unwrap();
        assert_eq!(held.len(), 3);
        assert_eq!(held.wav(0), Some(&b[..]));
        assert_eq!(held.wav(1), Some(&a[..]));
        assert_eq!(held.wav(3), None);
    }

    #[test]
    fn a_main_sfx_too_short_for_a_samples_wav_names_the_level_byte() {
        let main_sfx = wav(b"only");
        let samples = LevelSamples::InMainSfx {
            wavs: vec![0, 5],
            at: 100,
        };
        let e = samples.with_main_sfx(main_sfx).unwrap_err();
        assert_eq!(
            e,
            MainSfxError::MissingWav {
                sample: 1,
                at: 104,
                wav: 5,
                count: 1
            }
        );
    }

    #[test]
    fn a_cut_main_sfx_names_the_byte_of_its_damaged_wav() {
        let mut main_sfx = [wav(b"one"), wav(b"two")].concat();
        main_sfx.truncate(main_sfx.len() - 1);
        let e = main_sfx_wavs(&main_sfx).unwrap_err();
        let MainSfxError::Damaged { offset, .. } = e else {
            panic!("{e}")
        };
        assert_eq!(offset, wav(b"one").len() as u64);
    }
}
