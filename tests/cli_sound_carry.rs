//! `copy` and `remove` carry sounds (issue 45): an object copied out of a TR1–TR4 level brings
//! the level's own sounds it plays into the output's sound files, under DEST's game's ids; a
//! removal drops from the sound files the sounds only the removed objects played.

use std::collections::BTreeSet;
use std::path::Path;

use wadforge_fixtures::levels::{tr1_level, TR1_PLAYED_SOUND};
use wadforge_fixtures::sounds::{played, played_by, sound_files_for, UNPLAYED};
use wadforge_format::catalog::{self, Game};
use wadforge_format::sounds::{sfx, xml, Sounds};

use crate::common::files::{standard_wad, write_wad};
use crate::common::{s, stderr, wadforge};

fn sounds_beside(wad: &Path) -> Sounds {
    let sam = std::fs::read_to_string(wad.with_extension("sam")).unwrap();
    sfx::read(&std::fs::read(wad.with_extension("sfx")).unwrap(), &sam).unwrap()
}

/// The sounds the level's own tables define, as the format crate reads them (samples named
/// after the level's file name).
fn level_sounds(level: &Path) -> Sounds {
    let opened = wadforge_format::open(&std::fs::read(level).unwrap()).unwrap();
    let stem = level.file_stem().unwrap().to_string_lossy();
    opened
        .sounds
        .expect("a TR1 level has its own sounds")
        .named(&stem)
}

/// TR4's id for TR1's sound `id`, by the catalogues.
fn tr4_id(id: u16) -> u16 {
    let found = catalog::sound_in(Game::Tr1, u32::from(id), Game::Tr4).unwrap();
    u16::try_from(found).unwrap()
}

/// Copies the TR1 fixture level's WOLF into the standard WAD (no sound files beside it) as
/// ANIMATING1, written as `out`; the command's messages.
fn copy_wolf(level: &Path, dest: &Path, out: &Path) -> String {
    let o = wadforge(&[
        "copy",
        s(level),
        s(dest),
        "-o",
        s(out),
        "--only",
        "WOLF",
        "--as",
        "ANIMATING1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

#[test]
fn an_object_copied_from_a_level_into_a_wad_without_sound_files_brings_the_levels_sounds_it_plays() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, tr1_level()).unwrap();
    let dest = standard_wad(tmp.path());
    assert!(!dest.with_extension("sfx").exists());
    let own = level_sounds(&level);
    let tr4_played = tr4_id(TR1_PLAYED_SOUND);

    let out = tmp.path().join("out.wad");
    let messages = copy_wolf(&level, &dest, &out);
    let written = sounds_beside(&out);
    // Only the sound the WOLF plays (not the level's other one), under TR4's id, with the
    // level's info and samples.
    assert_eq!(written.sounds.keys().copied().collect::<Vec<_>>(), [tr4_played]);
    let info = &written.sounds[&tr4_played];
    let from_level = &own.sounds[&TR1_PLAYED_SOUND];
    assert_eq!(info.samples, ["LEVEL1_0.wav", "LEVEL1_1.wav"]);
    assert_eq!(
        (
            info.volume,
            info.range,
            info.chance,
            info.pitch,
            info.flags,
            &info.samples
        ),
        (
            from_level.volume,
            from_level.range,
            from_level.chance,
            from_level.pitch,
            from_level.flags,
            &from_level.samples
        )
    );
    assert!(
        messages.contains(&format!("sounds added beside {} from the level", out.display())),
        "{messages}"
    );

    // A Wad2 written gets them in its XML catalogue.
    let wad2 = tmp.path().join("out.wad2");
    copy_wolf(&level, &dest, &wad2);
    let catalogue = xml::read(&std::fs::read_to_string(wad2.with_extension("xml")).unwrap()).unwrap();
    assert_eq!(catalogue.sounds.keys().copied().collect::<Vec<_>>(), [tr4_played]);
    assert_eq!(catalogue.sounds[&tr4_played].samples, info.samples);
}

#[test]
fn an_object_copied_from_a_level_keeps_the_sounds_dest_already_defines() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, tr1_level()).unwrap();
    let fixture = wadforge_fixtures::standard();
    let dest = write_wad(&tmp.path().join("dest.wad"), &fixture);
    let ids = BTreeSet::from([tr4_id(TR1_PLAYED_SOUND)]);
    let files = wadforge_fixtures::sounds::sound_files(&ids);
    std::fs::write(dest.with_extension("sfx"), &files.sfx).unwrap();
    std::fs::write(dest.with_extension("sam"), &files.sam).unwrap();
    let out = tmp.path().join("out.wad");
    let messages = copy_wolf(&level, &dest, &out);
    assert_eq!(
        std::fs::read(out.with_extension("sfx")).unwrap(),
        files.sfx,
        "DEST's sound files as they were"
    );
    assert!(
        messages.contains("sounds the destination already defines"),
        "{messages}"
    );
}

/// The ids a line listing sounds names (`LARA_FEET (0), 71` after its colon).
fn listed_ids(line: &str) -> BTreeSet<u16> {
    let (_, list) = line.split_once(": ").unwrap();
    list.split(", ")
        .map(|sound| {
            let id = sound
                .rsplit_once(" (")
                .map_or(sound, |(_, id)| id.trim_end_matches(')'));
            id.parse().unwrap()
        })
        .collect()
}

#[test]
fn remove_drops_exactly_the_sounds_only_the_removed_object_played() {
    let tmp = tempfile::tempdir().unwrap();
    let (fixture, _) = wadforge_fixtures::sounds::sharing_a_crocodile_sound(wadforge_fixtures::standard());
    let wad = write_wad(&tmp.path().join("level.wad"), &fixture);
    let files = sound_files_for(&fixture);
    std::fs::write(wad.with_extension("sfx"), &files.sfx).unwrap();
    std::fs::write(wad.with_extension("sam"), &files.sam).unwrap();
    let source = sfx::read(&files.sfx, &files.sam).unwrap();

    let crocodile = played_by(&fixture, 51);
    let mut others = fixture.clone();
    others.moveables.retain(|m| m.id != 51);
    let still_played = played(&others);
    let only_crocodile: BTreeSet<u16> = crocodile.difference(&still_played).copied().collect();
    assert!(
        !only_crocodile.is_empty(),
        "the crocodile plays sounds of its own"
    );
    assert!(
        crocodile.iter().any(|id| still_played.contains(id)),
        "and sounds the others play too"
    );

    let out = tmp.path().join("out.wad");
    let o = wadforge(&["remove", s(&wad), "-o", s(&out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = sounds_beside(&out);
    let mut expected = source.clone();
    expected.sounds.retain(|id, _| !only_crocodile.contains(id));
    assert_eq!(written, expected);
    for id in UNPLAYED {
        assert!(
            written.sounds.contains_key(&id),
            "{id}: no animation plays it, it stays"
        );
    }
    let messages = stderr(&o);
    let listed = format!("sounds dropped from {}", out.with_extension("sfx").display());
    let line = messages.lines().find(|l| l.starts_with(&listed));
    assert_eq!(line.map(listed_ids), Some(only_crocodile), "{messages}");
    assert_eq!(
        std::fs::read(wad.with_extension("sfx")).unwrap(),
        files.sfx,
        "input untouched"
    );

    // Without sound files beside the input, none beside the output.
    let plain = standard_wad(tmp.path());
    let plain_out = tmp.path().join("plain_out.wad");
    let o = wadforge(&["remove", s(&plain), "-o", s(&plain_out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!plain_out.with_extension("sfx").exists());
    assert!(!stderr(&o).contains("sounds dropped"), "{}", stderr(&o));
}

#[test]
fn remove_from_a_wad2_drops_the_removed_objects_sounds_from_its_xml_catalogue() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = wadforge_fixtures::standard();
    let wad = write_wad(&tmp.path().join("level.wad"), &fixture);
    let files = sound_files_for(&fixture);
    std::fs::write(wad.with_extension("sfx"), &files.sfx).unwrap();
    std::fs::write(wad.with_extension("sam"), &files.sam).unwrap();
    let wad2 = tmp.path().join("level.wad2");
    let o = wadforge(&["convert", s(&wad), s(&wad2), "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read_xml =
        |path: &Path| xml::read(&std::fs::read_to_string(path.with_extension("xml")).unwrap()).unwrap();
    let before = read_xml(&wad2);
    let crocodile = played_by(&fixture, 51);
    assert!(
        crocodile.iter().all(|id| before.sounds.contains_key(id)),
        "{crocodile:?}"
    );

    let out = tmp.path().join("out.wad2");
    let o = wadforge(&["remove", s(&wad2), "-o", s(&out), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut others = fixture.clone();
    others.moveables.retain(|m| m.id != 51);
    let mut expected = before.clone();
    expected
        .sounds
        .retain(|id, _| !crocodile.contains(id) || played(&others).contains(id));
    assert_ne!(expected, before, "the crocodile plays sounds of its own");
    assert_eq!(read_xml(&out), expected);
}
