//! TRLE's `NAME.sfx` (the sound map and its infos) with `NAME.sam` (the sample names).
//!
//! Layout, as Tomb Editor reads it (`TombLib/Wad/WadSounds.cs`): a map of int16, one per sound
//! id (370 in TRLE's files, 2048 in TRNG's), each the index of an info or −1; a uint32 count;
//! then that many 8-byte infos: uint16 first sample (a line of `.sam`), volume, range, chance,
//! pitch (a byte each), uint16 characteristics whose bits 2–7 count the samples. The map size
//! is the one that makes the file's length add up, so no count is trusted before the length
//! has confirmed it.

use std::collections::{BTreeMap, HashMap};

use wadforge_model::sounds::{SoundInfo, SoundMap, Sounds};
use wadforge_model::Limits;

use super::SoundsError;

const INFO_BYTES: usize = 8;
/// What a sample name costs held in a sound beyond its bytes (its `String`, its place in a list).
const NAME_COST: u64 = 32;

/// Reads a `.sfx` and the text of its `.sam`. A map entry of −1 (or any negative word) or one
/// past the infos is no sound, as Tomb Editor reads it.
pub fn read(sfx: &[u8], sam: &str) -> Result<Sounds, SoundsError> {
    let map = [SoundMap::Trle, SoundMap::Trng]
        .into_iter()
        .find(|m| info_count(sfx, m.ids()).is_some())
        .ok_or_else(|| {
            SoundsError::sfx(
                0,
                format!(
                    "{} bytes is the size of no sound map (370 or 2048 ids, a count, 8 bytes an info)",
                    sfx.len()
                ),
            )
        })?;
    let count = info_count(sfx, map.ids()).unwrap_or(0);
    let infos_at = 2 * map.ids() + 4;
    let mut lines = SamLines::new(sfx.len(), sam);
    let mut sounds = BTreeMap::new();
    for id in 0..map.ids() {
        let entry = i16::from_le_bytes([sfx[2 * id], sfx[2 * id + 1]]);
        let Ok(entry) = usize::try_from(entry) else {
            continue;
        };
        if entry >= count {
            continue;
        }
        let at = infos_at + INFO_BYTES * entry;
        let info = read_info(&sfx[at..at + INFO_BYTES], &mut lines, at, id)?;
        sounds.insert(id as u16, info);
    }
    Ok(Sounds { map, sounds })
}

/// The number of infos when `sfx` is a map of `ids` ids, `None` when its length says otherwise.
fn info_count(sfx: &[u8], ids: usize) -> Option<usize> {
    let count = sfx.get(2 * ids..2 * ids + 4)?;
    let count = u32::from_le_bytes([count[0], count[1], count[2], count[3]]) as usize;
    let length = count.checked_mul(INFO_BYTES)?.checked_add(2 * ids + 4)?;
    (length == sfx.len()).then_some(count)
}

/// The lines of a `.sam`, and the bytes of names the sounds read so far hold: ids may share an
/// info and infos lines, so a small file could name its longest line thousands of times over.
struct SamLines<'a> {
    lines: Vec<&'a str>,
    /// Bytes of the `.sfx` and `.sam`, which the names held are bounded by.
    input_bytes: u64,
    held: u64,
}

impl<'a> SamLines<'a> {
    fn new(sfx_bytes: usize, sam: &'a str) -> Self {
        // Sized first: a .sam of empty lines would otherwise take up to twice a slice a byte.
        let mut lines = Vec::with_capacity(sam.lines().count());
        lines.extend(sam.lines().map(str::trim_end));
        SamLines {
            lines,
            input_bytes: (sfx_bytes + sam.len()) as u64,
            held: 0,
        }
    }

    /// Lines `first..first + count`, owned by the sound `id` whose info is at byte `at`.
    fn samples(
        &mut self,
        first: usize,
        count: usize,
        at: usize,
        id: usize,
    ) -> Result<Vec<String>, SoundsError> {
        let samples = self.lines.get(first..first + count).ok_or_else(|| {
            SoundsError::sfx(
                at,
                format!(
                    "sound {id} plays samples {first}..{} of the .sam, which has {} lines: use the .sam that \
                     came with this .sfx",
                    first + count,
                    self.lines.len()
                ),
            )
        })?;
        let cost: u64 = samples.iter().map(|s| s.len() as u64 + NAME_COST).sum();
        self.held = self.held.saturating_add(cost);
        let bound = Limits::DEFAULT.sound_sample_names;
        bound
            .check(self.held, self.input_bytes)
            .map_err(|too_much| SoundsError::sfx(at, format!("sound {id}: {too_much}")))?;
        Ok(samples.iter().map(|s| (*s).to_owned()).collect())
    }
}

fn read_info(bytes: &[u8], lines: &mut SamLines, at: usize, id: usize) -> Result<SoundInfo, SoundsError> {
    let first = usize::from(u16::from_le_bytes([bytes[0], bytes[1]]));
    let characteristics = u16::from_le_bytes([bytes[6], bytes[7]]);
    let count = usize::from((characteristics & SoundInfo::SAMPLE_COUNT_BITS) >> 2);
    let samples = lines.samples(first, count, at, id)?;
    Ok(SoundInfo {
        name: None,
        volume: bytes[2],
        range: bytes[3],
        chance: bytes[4],
        pitch: bytes[5] as i8,
        flags: characteristics & !SoundInfo::SAMPLE_COUNT_BITS,
        samples,
        global: false,
        indexed: false,
    })
}

/// A written `.sfx` and `.sam`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundFiles {
    pub sfx: Vec<u8>,
    /// One sample name a line, CRLF as TRLE's tools write them.
    pub sam: String,
}

/// Writes `sounds` as a `.sfx` and `.sam`: the map as large as `sounds.map` and the highest id
/// ask; sounds of the same values and samples share one info, and infos of the same samples one
/// run of `.sam` lines (as TRLE's own files do).
pub fn write(sounds: &Sounds) -> Result<SoundFiles, SoundsError> {
    let highest = sounds.sounds.keys().next_back().copied().unwrap_or(0);
    let map = match SoundMap::holding(highest) {
        Some(SoundMap::Trng) => SoundMap::Trng,
        Some(SoundMap::Trle) => sounds.map,
        None => {
            return Err(SoundsError::write(format!(
                "sound id {highest} is past the 2048 ids a .sfx holds: give the sound a lower id"
            )))
        }
    };
    let mut entries = vec![-1i16; map.ids()];
    let mut infos: Vec<[u8; INFO_BYTES]> = Vec::new();
    let mut info_of: HashMap<[u8; INFO_BYTES], usize> = HashMap::new();
    let mut lines: Vec<&str> = Vec::new();
    let mut run_of: HashMap<&[String], usize> = HashMap::new();
    for (&id, info) in &sounds.sounds {
        if info.samples.len() > SoundInfo::MAX_SAMPLES {
            return Err(SoundsError::write(format!(
                "sound {id} has {} samples, more than the {} a .sfx info counts: keep the first {}",
                info.samples.len(),
                SoundInfo::MAX_SAMPLES,
                SoundInfo::MAX_SAMPLES
            )));
        }
        // A name holding a line break would become two lines, and every later sound would
        // play the wrong samples.
        if let Some(name) = info.samples.iter().find(|s| s.contains(['\r', '\n'])) {
            return Err(SoundsError::write(format!(
                "sound {id}'s sample {name:?} holds a line break, which no line of a .sam can: \
                 rename the sample without it"
            )));
        }
        let first = *run_of.entry(&info.samples).or_insert_with(|| {
            lines.extend(info.samples.iter().map(String::as_str));
            lines.len() - info.samples.len()
        });
        let first = u16::try_from(first).map_err(|_| {
            SoundsError::write(format!(
                "sound {id}'s samples start past line 65535 of the .sam: use fewer samples"
            ))
        })?;
        let record = info_record(info, first);
        let index = *info_of.entry(record).or_insert_with(|| {
            infos.push(record);
            infos.len() - 1
        });
        // At most one info per id, and the map has at most 2048 ids: the index fits.
        entries[usize::from(id)] = index as i16;
    }
    let mut sfx = Vec::with_capacity(2 * map.ids() + 4 + INFO_BYTES * infos.len());
    sfx.extend(entries.iter().flat_map(|e| e.to_le_bytes()));
    sfx.extend((infos.len() as u32).to_le_bytes());
    sfx.extend(infos.iter().flatten());
    let sam = lines.iter().map(|l| format!("{l}\r\n")).collect();
    Ok(SoundFiles { sfx, sam })
}

fn info_record(info: &SoundInfo, first: u16) -> [u8; INFO_BYTES] {
    let count = (info.samples.len() as u16) << 2;
    let characteristics = (info.flags & !SoundInfo::SAMPLE_COUNT_BITS) | count;
    let [f0, f1] = first.to_le_bytes();
    let [c0, c1] = characteristics.to_le_bytes();
    [
        f0,
        f1,
        info.volume,
        info.range,
        info.chance,
        info.pitch as u8,
        c0,
        c1,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(volume: u8, samples: &[&str], flags: u16) -> SoundInfo {
        SoundInfo {
            name: None,
            volume,
            range: 10,
            chance: 0,
            pitch: -20,
            flags,
            samples: samples.iter().map(|s| (*s).to_owned()).collect(),
            global: false,
            indexed: false,
        }
    }

    fn sounds(map: SoundMap, list: &[(u16, SoundInfo)]) -> Sounds {
        Sounds {
            map,
            sounds: list.iter().cloned().collect(),
        }
    }

    #[test]
    fn a_sound_map_read_written_and_read_again_is_the_same() {
        let original = sounds(
            SoundMap::Trle,
            &[
                (0, info(200, &["feet1.wav", "feet2.wav"], 0)),
                (5, info(90, &["growl.wav"], SoundInfo::RANDOM_PITCH | 2)),
                (7, info(90, &["growl.wav"], SoundInfo::RANDOM_PITCH | 2)),
                (369, info(255, &[], SoundInfo::NO_PANNING | 0x0100)),
            ],
        );
        let files = write(&original).unwrap();
        assert_eq!(files.sfx.len(), 2 * 370 + 4 + 3 * 8, "ids 5 and 7 share one info");
        assert_eq!(files.sam, "feet1.wav\r\nfeet2.wav\r\ngrowl.wav\r\n");
        let read_back = read(&files.sfx, &files.sam).unwrap();
        assert_eq!(read_back, original);
        assert_eq!(write(&read_back).unwrap(), files);
    }

    #[test]
    fn an_id_past_trle_s_map_writes_trng_s_and_one_past_it_is_refused() {
        let trng = sounds(SoundMap::Trle, &[(1500, info(1, &["x.wav"], 0))]);
        let files = write(&trng).unwrap();
        assert_eq!(files.sfx.len(), 2 * 2048 + 4 + 8);
        assert_eq!(read(&files.sfx, &files.sam).unwrap().map, SoundMap::Trng);
        let past = sounds(SoundMap::Trle, &[(2048, info(1, &["x.wav"], 0))]);
        assert!(write(&past).unwrap_err().to_string().contains("2048"));
        let many: Vec<String> = (0..64).map(|i| format!("{i}.wav")).collect();
        let mut crowded = info(1, &[], 0);
        crowded.samples = many;
        assert!(write(&sounds(SoundMap::Trle, &[(3, crowded)]))
            .unwrap_err()
            .to_string()
            .contains("64 samples"));
    }

    #[test]
    fn a_sample_name_with_a_line_break_is_refused_not_split_into_two_lines() {
        for name in ["a\nb.wav", "a.wav\r"] {
            let broken = sounds(
                SoundMap::Trle,
                &[(1, info(9, &[name, "c.wav"], 0)), (2, info(9, &["d.wav"], 0))],
            );
            let error = write(&broken).unwrap_err().to_string();
            assert!(
                error.contains("sound 1") && error.contains("line break"),
                "{error}"
            );
        }
    }

    #[test]
    fn ids_sharing_long_sam_lines_are_refused_past_the_bound_on_names_held() {
        let long = "x".repeat(100_000);
        let many = sounds(SoundMap::Trle, &[(0, info(9, &[&long, "b.wav"], 0))]);
        let files = write(&many).unwrap();
        assert!(
            read(&files.sfx, &files.sam).is_ok(),
            "one sound holds its names once"
        );
        // Every id on the one info: 370 copies of the long line, some 37 MB from 100 kB.
        let mut shared = files.sfx.clone();
        for id in 0..370 {
            shared[2 * id..2 * id + 2].copy_from_slice(&0i16.to_le_bytes());
        }
        let bound = Limits::DEFAULT.sound_sample_names;
        let input = (shared.len() + files.sam.len()) as u64;
        let held_by_all = 370 * (files.sam.len() as u64 - 4 + 2 * NAME_COST);
        assert!(held_by_all > bound.allowed(input), "the case passes the bound");
        let error = read(&shared, &files.sam).unwrap_err().to_string();
        assert!(
            error.contains("sample names") && error.contains("byte 744"),
            "{error}"
        );
        // Short names shared by every id stay far inside it.
        let short = write(&sounds(SoundMap::Trle, &[(0, info(9, &["a.wav"; 63], 0))])).unwrap();
        let mut everywhere = short.sfx.clone();
        everywhere[..740].copy_from_slice(&[0; 740]);
        assert_eq!(read(&everywhere, &short.sam).unwrap().sounds.len(), 370);
    }

    #[test]
    fn hostile_sound_maps_are_refused_with_where_and_what() {
        let files = write(&sounds(SoundMap::Trle, &[(4, info(9, &["a.wav", "b.wav"], 0))])).unwrap();
        // Truncated: every length but the whole one fits no map.
        for cut in [0, 1, 739, 740, 743, files.sfx.len() - 1] {
            let error = read(&files.sfx[..cut], &files.sam).unwrap_err().to_string();
            assert!(error.contains("size of no sound map"), "{cut}: {error}");
        }
        // A huge count: the length does not confirm it, nothing is allocated from it.
        let mut huge = files.sfx.clone();
        huge[740..744].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read(&huge, &files.sam).is_err());
        // A .sam shorter than the info's samples.
        let error = read(&files.sfx, "a.wav\r\n").unwrap_err().to_string();
        assert!(error.contains("sound 4") && error.contains("byte 744"), "{error}");
        // A map entry past the infos is no sound, as Tomb Editor reads it.
        let mut past = files.sfx.clone();
        past[10..12].copy_from_slice(&7i16.to_le_bytes());
        assert!(read(&past, &files.sam).unwrap().sounds.contains_key(&4));
        assert!(!read(&past, &files.sam).unwrap().sounds.contains_key(&5));
    }
}
