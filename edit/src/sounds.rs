//! Which sound ids a TRLE WAD's sound files define: `NAME.sfx` (the sound map and the sound
//! infos) with `NAME.sam` (the sample file names, one a line).
//!
//! `.sfx` layout, as Tomb Editor reads it (`TombLib/Wad/WadSounds.cs`): a map of int16, one per
//! sound id (370 ids in TRLE's files, 2048 in TRNG's), each the index of a sound info or −1;
//! a uint32 count; then that many 8-byte infos: uint16 first sample (a line of `.sam`), volume,
//! range, chance, pitch (one byte each), uint16 characteristics whose bits 2..7 count the
//! samples. The map size is the one that makes the file's length add up.
//!
//! Also `check`'s rule of sounds played but not defined ([`undefined_sound_findings`]), and
//! which sounds a removal leaves no object playing ([`sounds_only_removed_play`]).

use std::collections::{BTreeMap, BTreeSet};

use wadforge_format::catalog::{sound_name, Game};
use wadforge_format::sounds::{played_sounds, Sounds};
use wadforge_format::{Command, Moveable, ObjectKind, ObjectName, Wad};

use crate::check::{Finding, Severity};

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

/// Where the sounds a file's animations play are defined: the sound files beside a WAD or Wad2,
/// or a level's own sound map and details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoundsOf {
    SoundFiles,
    Level,
}

/// The `undefined-sound` rule of `check`: a warning for each object whose animations play a
/// sound that `sounds` (`of` the sound files beside the file, or the level's own) do not define,
/// listing the sounds; the game then plays nothing there. Only asked when the file has sounds:
/// a WAD without sound files gets them from the level it is built into, which check cannot see.
pub fn undefined_sound_findings(wad: &Wad, game: Game, (sounds, of): (&Sounds, SoundsOf)) -> Vec<Finding> {
    let mut findings = Vec::new();
    for m in &wad.moveables {
        let mut missing: BTreeMap<u16, BTreeSet<usize>> = BTreeMap::new();
        for (a, animation) in m.animations.iter().enumerate() {
            for command in &animation.commands {
                if let Command::PlaySound { sound, .. } = *command {
                    if !sounds.sounds.contains_key(&sound) {
                        missing.entry(sound).or_default().insert(a);
                    }
                }
            }
        }
        if missing.is_empty() {
            continue;
        }
        let list: Vec<String> = missing
            .iter()
            .map(|(&id, animations)| {
                let name = sound_name(game, u32::from(id)).map_or(String::new(), |n| format!("{n} "));
                let animations: Vec<String> = animations.iter().map(usize::to_string).collect();
                format!("{name}({id}, animations {})", animations.join(" "))
            })
            .collect();
        findings.push(Finding {
            severity: Severity::Warning,
            rule: "undefined-sound",
            place: ObjectName::new(game, ObjectKind::Moveable, m.id).to_string(),
            message: match of {
                SoundsOf::SoundFiles => {
                    format!("its animations play sounds the file's sound files do not define: {}", list.join(", "))
                }
                SoundsOf::Level => format!(
                    "its animations play sounds the level's sound map does not define (the game plays nothing \
                     there): {}",
                    list.join(", ")
                ),
            },
            fix: match of {
                SoundsOf::SoundFiles => "add them to the sound files (wadforge copy brings an object's sounds from \
                                         its source) or remove the commands",
                SoundsOf::Level => "build the level with these sounds in its .sfx/.sam (or Tomb Editor's sound \
                                    catalogue), or remove the commands",
            }
            .into(),
            more: 0,
        });
    }
    findings
}

/// The sounds `remove` drops from the file's sounds: those the `removed` moveables' animations
/// play that no moveable of `kept` (the file after the removal) plays. A sound no animation
/// played at all is not among them: the level may play it itself (ambience, a door's noise).
pub fn sounds_only_removed_play<'a>(
    removed: impl IntoIterator<Item = &'a Moveable>,
    kept: &Wad,
) -> BTreeSet<u16> {
    let still_played = played_sounds(&kept.moveables);
    played_sounds(removed)
        .difference(&still_played)
        .copied()
        .collect()
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
    fn an_object_playing_a_sound_the_files_do_not_define_is_warned_once_with_its_animations() {
        let wad = wadforge_fixtures::standard();
        let played: BTreeSet<u16> = wadforge_fixtures::sounds::played(&wad);
        let mut defined = played.clone();
        let undefined = *played.iter().find(|&&id| crocodile_plays(&wad, id)).unwrap();
        defined.remove(&undefined);
        let files = wadforge_fixtures::sounds::sound_files(&defined);
        let sounds = wadforge_format::sounds::sfx::read(&files.sfx, &files.sam).unwrap();
        let findings = undefined_sound_findings(&wad, Game::Tr4, (&sounds, SoundsOf::SoundFiles));
        assert!(!findings.is_empty());
        assert!(findings
            .iter()
            .all(|f| f.rule == "undefined-sound" && f.message.contains(&format!("({undefined},"))));
        assert!(
            findings.iter().any(|f| f.place == "CROCODILE (moveable 51)"),
            "{findings:?}"
        );
        let all = wadforge_fixtures::sounds::sound_files(&played);
        let sounds = wadforge_format::sounds::sfx::read(&all.sfx, &all.sam).unwrap();
        assert_eq!(
            undefined_sound_findings(&wad, Game::Tr4, (&sounds, SoundsOf::SoundFiles)),
            []
        );
    }

    #[test]
    fn a_levels_undefined_sound_is_said_of_its_sound_map_not_of_sound_files() {
        let wad = wadforge_fixtures::standard();
        let none = wadforge_fixtures::sounds::sound_files(&BTreeSet::new());
        let sounds = wadforge_format::sounds::sfx::read(&none.sfx, &none.sam).unwrap();
        let of_level = undefined_sound_findings(&wad, Game::Tr4, (&sounds, SoundsOf::Level));
        let of_files = undefined_sound_findings(&wad, Game::Tr4, (&sounds, SoundsOf::SoundFiles));
        assert_eq!(of_level.len(), of_files.len());
        assert!(!of_level.is_empty());
        for (level, files) in of_level.iter().zip(&of_files) {
            assert!(
                level.message.contains("the level's sound map does not define"),
                "{}",
                level.message
            );
            assert!(!level.message.contains("sound files"), "{}", level.message);
            assert!(
                files.message.contains("the file's sound files do not define"),
                "{}",
                files.message
            );
            assert_ne!(level.fix, files.fix);
        }
    }

    fn crocodile_plays(wad: &Wad, id: u16) -> bool {
        let croc = wad.moveables.iter().find(|m| m.id == 51).unwrap();
        croc.animations
            .iter()
            .flat_map(|a| &a.commands)
            .any(|c| matches!(c, Command::PlaySound { sound, .. } if *sound == id))
    }

    #[test]
    fn a_removal_drops_the_sounds_only_removed_moveables_played() {
        // Another moveable plays the crocodile's first sound too.
        let (wad, shared) =
            wadforge_fixtures::sounds::sharing_a_crocodile_sound(wadforge_fixtures::standard());
        let (removed, kept): (Vec<_>, Vec<_>) = wad.moveables.iter().cloned().partition(|m| m.id == 51);
        let kept = Wad {
            moveables: kept,
            ..wad.clone()
        };
        let dropped = sounds_only_removed_play(&removed, &kept);
        let crocodile = played_sounds(&removed);
        let still = played_sounds(&kept.moveables);
        assert!(
            !dropped.is_empty(),
            "the crocodile plays sounds of its own: {crocodile:?}"
        );
        assert!(!dropped.contains(&shared), "another object still plays {shared}");
        for id in &crocodile {
            assert_eq!(dropped.contains(id), !still.contains(id), "sound {id}");
        }
        assert!(dropped.is_subset(&crocodile));
        // Removing nothing drops nothing.
        assert!(sounds_only_removed_play(&[], &wad).is_empty());
    }

    #[test]
    fn a_file_whose_length_fits_no_sound_map_is_not_read() {
        assert_eq!(SoundTable::read(b"RIFF....WAVE", None), None);
        let mut bytes = sfx(370, &[], &[(0, 4)]);
        bytes.push(0);
        assert_eq!(SoundTable::read(&bytes, None), None);
    }
}
