//! A directory imported from another game than TR4 built into a classic WAD (issue 42): TRLE
//! reads every WAD with TR4's catalogue, so its objects take TR4's slots by the catalogue, one
//! TR4 has none for is left out and named (`--as` places it, `--strict` refuses), its sounds
//! move with it; a Wad2 keeps the directory's game; a base of another game is refused.

use std::path::{Path, PathBuf};

use wadforge_fixtures::levels::{tr1_fixture, TR1_PLAYED_SOUND};
use wadforge_format::catalog::{self, Game};
use wadforge_format::sounds::sfx;

use crate::common::files::{read, read_objects, standard_wad};
use crate::common::{s, stderr, succeeds, wadforge};

const WOLF: u32 = 7;
const BAT: u32 = 9;

/// The TR1 fixture level imported into `tmp/dir`: the directory.
fn tr1_directory(tmp: &Path) -> PathBuf {
    let level = tmp.join("LEVEL1.PHD");
    std::fs::write(&level, tr1_fixture().bytes).unwrap();
    let dir = tmp.join("dir");
    succeeds(&["import", "-q", s(&level), "-o", s(&dir)]);
    dir
}

fn tr4_slot(id: u32) -> Option<u32> {
    catalog::moveable_in(Game::Tr1, id, Game::Tr4)
}

#[test]
fn a_tr1_directory_builds_into_tr4_slots_and_names_what_tr4_has_none_for() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tr1_directory(tmp.path());
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["build", s(&dir), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let built = read(&out);
    let bat = tr4_slot(BAT).expect("TR4 has a BAT");
    assert_ne!(bat, BAT, "TR4 numbers its BAT otherwise");
    assert_eq!(tr4_slot(WOLF), None, "TR4 has no WOLF");
    let ids: Vec<u32> = built.moveables.iter().map(|m| m.id).collect();
    assert_eq!(ids, [bat], "BAT in TR4's slot, nothing under TR1's ids");
    assert!(
        stderr(&o).contains("warning: WOLF (moveable 7): TR4 has no moveable slot for TR1's WOLF"),
        "{}",
        stderr(&o)
    );
    // The names beside it are TR4's.
    let was = std::fs::read_to_string(out.with_extension("was")).unwrap();
    assert!(was.lines().next() == Some("BAT"), "{was}");
    // The BAT is the level's: diff compares the level in TR4's slots (its animations; a skewed
    // texture of its mesh is resampled, as every build does).
    let o = wadforge(&["diff", "--animation", s(&tmp.path().join("LEVEL1.PHD")), s(&out)]);
    let report = crate::common::stdout(&o);
    assert!(
        report.contains(&format!("BAT (moveable {bat}): identical")),
        "{report}"
    );
}

#[test]
fn as_places_an_object_tr4_has_no_slot_for_with_its_sounds_and_strict_refuses_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tr1_directory(tmp.path());
    let strict = tmp.path().join("strict.wad");
    let o = wadforge(&["build", s(&dir), "-o", s(&strict), "--strict"]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--strict") && stderr(&o).contains("WOLF"),
        "{}",
        stderr(&o)
    );
    assert!(!strict.exists(), "nothing written");

    let out = tmp.path().join("out.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out), "--as", "WOLF=DOG"]);
    // diff places it the same way: the level's WOLF against the WAD's DOG.
    let level_path = tmp.path().join("LEVEL1.PHD");
    let o = wadforge(&["diff", "--animation", s(&level_path), s(&out), "--as", "WOLF=DOG"]);
    let report = crate::common::stdout(&o);
    assert!(o.status.success(), "{report}");
    assert!(report.contains("DOG (moveable"), "{report}");
    let o = wadforge(&["diff", "--animation", s(&level_path), s(&out)]);
    let report = crate::common::stdout(&o);
    assert!(
        report.contains("WOLF (moveable 7): only in A") && report.contains("DOG (moveable"),
        "{report}"
    );
    let o = wadforge(&["diff", s(&level_path), s(&out), "--as", "NO_SUCH=DOG"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a rule that finds no object is an error"
    );
    let built = read(&out);
    let dog = catalog::moveable_id(Game::Tr4, "DOG").unwrap();
    let level = read_objects(&tmp.path().join("LEVEL1.PHD"));
    let wolf = level.moveables.iter().find(|m| m.id == WOLF).unwrap();
    let placed = built.moveables.iter().find(|m| m.id == dog).expect("WOLF as DOG");
    assert_eq!(placed.animations.len(), wolf.animations.len());
    assert_eq!(placed.meshes.len(), wolf.meshes.len());
    // The sound it plays, under TR4's id, defined beside the WAD.
    let tr4_sound = catalog::sound_in(Game::Tr1, u32::from(TR1_PLAYED_SOUND), Game::Tr4).unwrap();
    let sam = std::fs::read_to_string(out.with_extension("sam")).unwrap();
    let sounds = sfx::read(&std::fs::read(out.with_extension("sfx")).unwrap(), &sam).unwrap();
    assert!(
        sounds.sounds.contains_key(&u16::try_from(tr4_sound).unwrap()),
        "{:?}",
        sounds.sounds.keys().collect::<Vec<_>>()
    );
}

#[test]
fn a_wad2_keeps_the_directorys_game_and_a_base_of_another_game_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tr1_directory(tmp.path());
    let out = tmp.path().join("out.wad2");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out)]);
    let ids: Vec<u32> = read_objects(&out).moveables.iter().map(|m| m.id).collect();
    assert_eq!(ids, [WOLF, BAT], "a TR1 Wad2 holds TR1's ids");

    let base = standard_wad(tmp.path());
    let patched = tmp.path().join("patched.wad");
    let o = wadforge(&["build", s(&dir), "-o", s(&patched), "--base", s(&base)]);
    assert!(!o.status.success(), "{}", stderr(&o));
    let message = stderr(&o);
    assert!(
        message.contains("holds TR1's ids") && message.contains("wadforge copy"),
        "{message}"
    );
    assert!(!patched.exists(), "nothing written");
}

#[test]
fn a_tr1_level_converted_to_a_trle_wad2_takes_tr4_slots() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, tr1_fixture().bytes).unwrap();
    let out = tmp.path().join("out.wad2");
    let o = wadforge(&["convert", s(&level), s(&out), "--game", "trle"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ids: Vec<u32> = read_objects(&out).moveables.iter().map(|m| m.id).collect();
    assert_eq!(ids, [tr4_slot(BAT).unwrap()]);
    assert!(
        stderr(&o).contains("lost: WOLF (moveable 7): TR4 has no moveable slot"),
        "{}",
        stderr(&o)
    );
}
