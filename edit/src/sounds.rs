//! Which sound ids a TRLE WAD's sound files define: `NAME.sfx` (the sound map and the sound
//! infos) with `NAME.sam` (the sample file names, one a line).
//!
//! `.sfx` layout, as Tomb Editor reads it (`TombLib/Wad/WadSounds.cs`): a map of int16, one per
//! sound id (370 ids in TRLE's files, 2048 in TRNG's), each the index of a sound info or −1;
//! a uint32 count; then that many 8-byte infos: uint16 first sample (a line of `.sam`), volume,
//! range, chance, pitch (one byte each), uint16 characteristics whose bits 2..7 count the
//! samples. The map size is the one that makes the file's length add up.

use std::collections::BTreeSet;

/// The sound ids a `.sfx` (and, when given, its `.sam`) define.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundTable {
    defined: BTreeSet<u16>,
}

impl SoundTable {
    /// Reads a `.sfx`; `sam` is the text of the `.sam` beside it, if there is one. A sound
    /// counts as defined when its map entry names an info and, with a `.sam`, all of that
    /// info's samples are lines of it. `None` when the file is not a sound map of either size.
    pub fn read(sfx: &[u8], sam: Option<&str>) -> Option<Self> {
        let word = |at: usize| sfx.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
        let map_size = [370usize, 2048].into_iter().find(|&n| {
            sfx.get(2 * n..2 * n + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
                .is_some_and(|count| count.checked_mul(8).map(|b| b + 2 * n + 4) == Some(sfx.len()))
        })?;
        let infos = 2 * map_size + 4;
        let count = (sfx.len() - infos) / 8;
        let sam_lines = sam.map(|s| s.lines().count());
        let defined = (0..map_size)
            .filter(|&id| {
                let Some(entry) = word(2 * id).map(|w| w as i16) else {
                    return false;
                };
                if entry < 0 || entry as usize >= count {
                    return false;
                }
                let at = infos + 8 * entry as usize;
                let (Some(first), Some(characteristics)) = (word(at), word(at + 6)) else {
                    return false;
                };
                let samples = ((characteristics & 0x00FC) >> 2) as usize;
                sam_lines.is_none_or(|lines| samples > 0 && first as usize + samples <= lines)
            })
            .map(|id| id as u16)
            .collect();
        Some(SoundTable { defined })
    }

    pub fn defines(&self, sound: u16) -> bool {
        self.defined.contains(&sound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sfx(map_size: usize, map: &[(usize, i16)], infos: &[(u16, u16)]) -> Vec<u8> {
        let mut words = vec![-1i16; map_size];
        for &(id, entry) in map {
            words[id] = entry;
        }
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.extend((infos.len() as u32).to_le_bytes());
        for &(sample, characteristics) in infos {
            bytes.extend(sample.to_le_bytes());
            bytes.extend([200, 10, 0, 0]);
            bytes.extend(characteristics.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn a_trle_sound_map_defines_the_ids_whose_entry_names_an_info_with_samples_in_the_sam() {
        // Sound 0: info 0, two samples (lines 0 and 1); sound 5: info 1, sample line 2;
        // sound 7: info 1 too; sound 9: an info past the table.
        let bytes = sfx(
            370,
            &[(0, 0), (5, 1), (7, 1), (9, 4)],
            &[(0, 2 << 2), (2, 1 << 2)],
        );
        let table = SoundTable::read(&bytes, Some("a.wav\nb.wav\nc.wav\n")).unwrap();
        let defined: Vec<u16> = (0..370).filter(|&s| table.defines(s)).collect();
        assert_eq!(defined, [0, 5, 7]);
        // With only two sample lines, sound 5's sample (line 2) is missing.
        let table = SoundTable::read(&bytes, Some("a.wav\nb.wav\n")).unwrap();
        assert!(table.defines(0) && !table.defines(5));
    }

    #[test]
    fn a_trng_sound_map_of_2048_ids_is_recognised_by_its_length() {
        let bytes = sfx(2048, &[(1500, 0)], &[(0, 1 << 2)]);
        let table = SoundTable::read(&bytes, None).unwrap();
        assert!(table.defines(1500) && !table.defines(0));
    }

    #[test]
    fn a_file_whose_length_fits_no_sound_map_is_not_read() {
        assert_eq!(SoundTable::read(b"RIFF....WAVE", None), None);
        let mut bytes = sfx(370, &[], &[(0, 4)]);
        bytes.push(0);
        assert_eq!(SoundTable::read(&bytes, None), None);
    }
}
