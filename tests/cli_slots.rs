//! Objects move between engines' slots by the catalogues (`convert`, `copy`): a Tomb Engine object
//! goes to the TR4 slot whose catalogue `ten=` names it (BADDY1 to BADDY_1, HAIR_PRIMARY to HAIR),
//! and one TR4 has no slot for is left out and listed (`convert`) or refused (`copy`), never
//! written under a foreign id; their animations' sound commands move to the output game's sound
//! ids, or are dropped and listed. The fixture tests make their files from the fixtures; the real
//! packs' test passes when `../shared/wad2/` is absent.

use std::path::{Path, PathBuf};

use wadforge_format::catalog::{self, Game};
use wadforge_format::{Command, Wad};

use crate::common::{s, stderr, succeeds, wadforge};

fn model_of(path: &Path) -> (Wad, Game) {
    let opened = wadforge_format::open(&std::fs::read(path).unwrap()).unwrap();
    (opened.model, opened.game)
}

/// Checks `converted` (a classic WAD's model) against its Tomb Engine `source`: every object in
/// its catalogue slot or listed in `listed` as left out, and no object in a slot of another name.
/// Returns (placed, left out) moveables.
fn assert_in_catalogue_slots(name: &str, source: &Wad, converted: &Wad, listed: &str) -> (usize, usize) {
    let (mut placed, mut left_out) = (0, 0);
    for m in &source.moveables {
        let ten = catalog::moveable_slot(Game::Ten, m.id);
        match catalog::moveable_in(Game::Ten, m.id, Game::Tr4) {
            Some(slot) => {
                assert!(
                    converted.moveables.iter().any(|c| c.id == slot),
                    "{name}: {ten} ({}) is not in TR4 slot {slot}",
                    m.id
                );
                placed += 1;
            }
            None => {
                let line = format!(
                    "{ten} (moveable {}): TR4 has no moveable slot for TEN's {ten}; left out",
                    m.id
                );
                assert!(listed.contains(&line), "{name}: no {line:?} in\n{listed}");
                left_out += 1;
            }
        }
    }
    assert_eq!(converted.moveables.len(), placed, "{name}");
    // No object in a slot of another name: each TR4 slot written is the slot of a source object.
    for c in &converted.moveables {
        let ten = catalog::ten_name(Game::Tr4, c.id);
        assert!(
            ten.is_some_and(|ten| source
                .moveables
                .iter()
                .any(|m| catalog::moveable_name(Game::Ten, m.id) == Some(ten))),
            "{name}: TR4 slot {} ({}) holds no object of that slot",
            c.id,
            catalog::moveable_slot(Game::Tr4, c.id)
        );
    }
    for st in &source.statics {
        match catalog::static_in(Game::Ten, st.id, Game::Tr4) {
            Some(id) => assert!(
                converted.statics.iter().any(|c| c.id == id),
                "{name}: static {id}"
            ),
            None => assert!(listed.contains(&format!("(static {}): TR4 has no static slot", st.id))),
        }
    }
    (placed, left_out)
}

#[test]
fn a_tomb_engine_wad2_converts_to_a_wad_with_every_object_in_its_slot_or_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let wad =
        crate::common::files::write_wad(&tmp.path().join("standard.wad"), &wadforge_fixtures::standard());
    // A Tomb Engine Wad2 whose CROCODILE went to TEN's SNOWMOBILE, which TR4 has no slot for.
    let ten = tmp.path().join("ten.wad2");
    succeeds(&[
        "convert",
        "-q",
        s(&wad),
        s(&ten),
        "--game",
        "ten",
        "--as",
        "CROCODILE=SNOWMOBILE",
    ]);
    let (source, game) = model_of(&ten);
    assert_eq!(game, Game::Ten);
    assert!(source.moveables.iter().any(|m| m.id == 51), "SNOWMOBILE");
    assert!(source.moveables.len() > 2 && !source.statics.is_empty());

    let out = tmp.path().join("back.wad");
    let refused = wadforge(&["convert", "--strict", s(&ten), s(&out)]);
    assert!(!refused.status.success() && !out.exists(), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("SNOWMOBILE (moveable 51): TR4 has no moveable slot for TEN's SNOWMOBILE"),
        "{}",
        stderr(&refused)
    );
    let o = wadforge(&["convert", s(&ten), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (converted, _) = model_of(&out);
    let (placed, left_out) = assert_in_catalogue_slots("standard", &source, &converted, &stderr(&o));
    assert_eq!((placed, left_out), (source.moveables.len() - 1, 1));
    assert!(
        !converted.moveables.iter().any(|m| m.id == 51),
        "not under TR4's CROCODILE"
    );
    // Back in TR4, the objects are the standard fixture's (SNOWMOBILE aside).
    let standard = wadforge_fixtures::standard();
    let mut ids: Vec<u32> = converted.moveables.iter().map(|m| m.id).collect();
    let mut expected: Vec<u32> = standard
        .moveables
        .iter()
        .map(|m| m.id)
        .filter(|&id| id != 51)
        .collect();
    ids.sort_unstable();
    expected.sort_unstable();
    assert_eq!(ids, expected);

    // `--as` still places it.
    let o = wadforge(&["convert", s(&ten), s(&out), "--as", "SNOWMOBILE=ANIMATING1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("left out"), "{}", stderr(&o));
    assert!(succeeds(&["info", s(&out)]).contains("427  ANIMATING1"));
}

#[test]
fn the_real_packs_convert_to_wads_with_no_object_in_a_slot_of_another_name() {
    let tmp = tempfile::tempdir().unwrap();
    for file in wadforge_fixtures::harness::real_wad2_files() {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let wad = tmp.path().join(format!("{name}.wad"));
        let o = wadforge(&["convert", s(&file), s(&wad)]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let (source, game) = model_of(&file);
        let (converted, _) = model_of(&wad);
        if game == Game::Ten {
            // Before: by name, else the id kept.
            let wrong_before = (source.moveables.iter())
                .filter(|m| {
                    let ten = catalog::moveable_slot(Game::Ten, m.id);
                    catalog::moveable_id(Game::Tr4, &ten).is_none()
                        && catalog::moveable_name(Game::Tr4, m.id).is_some_and(|n| n != ten)
                })
                .count();
            let (placed, left_out) = assert_in_catalogue_slots(&name, &source, &converted, &stderr(&o));
            let (moved, kept, dropped) = assert_sounds_moved(&name, &source, &converted, &stderr(&o));
            let slots: Vec<String> = (source.moveables.iter())
                .map(|m| {
                    let to = catalog::moveable_in(Game::Ten, m.id, Game::Tr4);
                    let to = to.map_or("left out".into(), |t| catalog::moveable_slot(Game::Tr4, t));
                    format!("{} -> {to}", catalog::moveable_slot(Game::Ten, m.id))
                })
                .collect();
            eprintln!(
                "{name}: {placed} placed, {left_out} left out; {wrong_before} in another's slot before; \
                 sound commands {moved} moved, {kept} same id, {dropped} dropped; {}",
                slots.join(", ")
            );
        } else {
            // A classic game's Wad2 keeps its own ids in a classic WAD.
            let ids = |w: &Wad| w.moveables.iter().map(|m| m.id).collect::<Vec<_>>();
            assert_eq!(ids(&converted), ids(&source), "{name}");
        }
    }
}

/// The sound ids each animation of moveable `id` of `wad` plays, in order.
fn sounds_of(wad: &Wad, id: u32) -> Vec<Vec<u16>> {
    let m = (wad.moveables.iter()).find(|m| m.id == id);
    let m = m.unwrap_or_else(|| panic!("no moveable {id}"));
    (m.animations.iter())
        .map(|a| {
            (a.commands.iter())
                .filter_map(|c| match *c {
                    Command::PlaySound { sound, .. } => Some(sound),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Checks that each sound command of `source`'s (TEN) objects placed in `converted` (TR4) plays
/// the TR4 sound the catalogue gives it, and that those with none were dropped and listed in
/// `listed`. Returns the commands (moved to another id, kept at their id, dropped).
fn assert_sounds_moved(name: &str, source: &Wad, converted: &Wad, listed: &str) -> (usize, usize, usize) {
    let (mut moved, mut kept, mut dropped) = (0, 0, 0);
    for m in &source.moveables {
        let Some(slot) = catalog::moveable_in(Game::Ten, m.id, Game::Tr4) else {
            continue;
        };
        let before = sounds_of(source, m.id);
        let after = sounds_of(converted, slot);
        assert_eq!(before.len(), after.len(), "{name}: {} animations", m.id);
        for (a, (before, after)) in before.iter().zip(&after).enumerate() {
            let mut expected = Vec::new();
            for &sound in before {
                match catalog::sound_in(Game::Ten, u32::from(sound), Game::Tr4) {
                    Some(new) if new == u32::from(sound) => {
                        kept += 1;
                        expected.push(sound);
                    }
                    Some(new) => {
                        moved += 1;
                        expected.push(u16::try_from(new).unwrap());
                    }
                    None => {
                        dropped += 1;
                        let line = format!("TR4 has no sound for TEN's sound {sound} (");
                        assert!(listed.contains(&line), "{name}: no {line:?} in\n{listed}");
                    }
                }
            }
            assert_eq!(after, &expected, "{name}: moveable {} animation {a}", m.id);
        }
    }
    (moved, kept, dropped)
}

/// The TR1 level fixture's objects as a TR1 Wad2 (W2SuggestedGameVersion 1) at `dir/tr1.wad2`,
/// its WOLF's first animation playing TR1's CROC_FEET (92, TEN's 416: TR4's CROC_FEET, 73, by
/// name) and T_REX_ROAR (71, TEN's 394: no TR4 sound) on land.
fn tr1_wad2(dir: &Path) -> PathBuf {
    let fixture = wadforge_fixtures::levels::tr1_fixture();
    let mut model = fixture.model;
    let wolf = (model.moveables.iter_mut())
        .find(|m| m.id == 7)
        .expect("the fixture's WOLF");
    let sound = |sound| Command::PlaySound {
        frame: 2,
        sound,
        on_land: true,
        in_water: false,
    };
    wolf.animations[0].commands = vec![sound(92), sound(71)];
    let made = wadforge_format::wad2::from_model(&model, &fixture.skewed, Game::Tr1).unwrap();
    let path = dir.join("tr1.wad2");
    std::fs::write(&path, wadforge_format::wad2::write_document(&made.document)).unwrap();
    path
}

#[test]
fn copy_puts_a_tr1_levels_objects_into_a_tr4_wads_slots_or_refuses_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = crate::common::files::standard_wad(tmp.path());
    let level = tmp.path().join("level.phd");
    std::fs::write(&level, wadforge_fixtures::levels::tr1_level()).unwrap();
    // TR1's BAT (9) is TR4's BAT (90).
    let out = tmp.path().join("bat.wad");
    let o = wadforge(&["copy", s(&level), s(&dest), "-o", s(&out), "--only", "BAT"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("copied BAT (moveable 9) -> BAT (moveable 90) (added)"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("note:"),
        "no id kept with a note: {}",
        stderr(&o)
    );
    let (copied, _) = model_of(&out);
    assert!(copied.moveables.iter().any(|m| m.id == 90));
    // Joined, not put over TR4's 9 (the fixture's LARA_SKIN_JOINTS).
    let (standard, _) = model_of(&dest);
    assert_eq!(copied.moveables.len(), standard.moveables.len() + 1);

    // TR4 has no WOLF: refused, the nearest slots and --as named, nothing written.
    let never = tmp.path().join("never.wad");
    let refused = wadforge(&["copy", s(&level), s(&dest), "-o", s(&never), "--only", "WOLF,BAT"]);
    assert!(
        !refused.status.success() && !never.exists(),
        "{}",
        stderr(&refused)
    );
    let message = stderr(&refused);
    assert!(
        message.contains("WOLF (moveable 7): TR4 has no moveable slot for TR1's WOLF"),
        "{message}"
    );
    assert!(message.contains("--as SLOT"), "{message}");
    assert!(!message.contains("BAT (moveable 9)"), "BAT has a slot: {message}");

    // `--as` places it; its sound, TR1's LARA_HOLSTER (7), is TR4's 7.
    let o = wadforge(&[
        "copy",
        s(&level),
        s(&dest),
        "-o",
        s(&out),
        "--only",
        "WOLF",
        "--as",
        "ANIMATING1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("sound commands: 0 moved from TR1's sound ids to TR4's, 1 the same in both, 0 dropped"),
        "{}",
        stderr(&o)
    );
    let (copied, _) = model_of(&out);
    assert_eq!(sounds_of(&copied, 427)[0], [7]);
}

#[test]
fn copy_moves_sound_commands_to_the_destinations_ids_and_drops_the_ones_it_lacks() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = crate::common::files::standard_wad(tmp.path());
    let src = tr1_wad2(tmp.path());
    assert_eq!(model_of(&src).1, Game::Tr1);
    let out = tmp.path().join("out.wad");
    let o = wadforge(&[
        "copy",
        s(&src),
        s(&dest),
        "-o",
        s(&out),
        "--only",
        "WOLF",
        "--as",
        "ANIMATING1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = stderr(&o);
    assert!(
        printed
            .contains("sound commands: 1 moved from TR1's sound ids to TR4's, 0 the same in both, 1 dropped"),
        "{printed}"
    );
    assert!(
        printed.contains(
            "warning: ANIMATING1 (moveable 427): TR4 has no sound for TR1's sound 71 (T_REX_ROAR), which \
             animation 0 played; its sound command is dropped"
        ),
        "{printed}"
    );
    let (copied, _) = model_of(&out);
    assert_eq!(sounds_of(&copied, 427)[0], [73], "TR4's CROC_FEET");
    assert_eq!(catalog::sound_name(Game::Tr4, 73), Some("CROC_FEET"));
}

#[test]
fn copy_goes_both_ways_between_a_tomb_engine_wad2_and_a_wad() {
    let tmp = tempfile::tempdir().unwrap();
    let wad = crate::common::files::standard_wad(tmp.path());
    let ten = tmp.path().join("ten.wad2");
    succeeds(&["convert", "-q", s(&wad), s(&ten), "--game", "ten"]);
    let (ten_model, game) = model_of(&ten);
    assert_eq!(game, Game::Ten);
    let door = catalog::moveable_id(Game::Ten, "DOOR_TYPE1").unwrap();
    assert_ne!(door, 322, "TEN numbers DOOR_TYPE1 its own way");
    assert!(ten_model.moveables.iter().any(|m| m.id == door));

    // A TEN Wad2's CROCODILE into a TR4 WAD: TR4's CROCODILE (51), replaced.
    let back = tmp.path().join("back.wad");
    let o = wadforge(&["copy", s(&ten), s(&wad), "-o", s(&back), "--only", "CROCODILE"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let crocodile = catalog::moveable_id(Game::Ten, "CROCODILE").unwrap();
    assert!(
        stderr(&o).contains(&format!(
            "copied CROCODILE (moveable {crocodile}) -> CROCODILE (moveable 51) (replaced)"
        )),
        "{}",
        stderr(&o)
    );
    // A TR4 WAD's DOOR_TYPE1 (322) into the TEN Wad2: TEN's DOOR_TYPE1, replaced; no object 322.
    let into = tmp.path().join("into.wad2");
    let o = wadforge(&["copy", s(&wad), s(&ten), "-o", s(&into), "--only", "DOOR_TYPE1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "copied DOOR_TYPE1 (moveable 322) -> DOOR_TYPE1 (moveable {door}) (replaced)"
        )),
        "{}",
        stderr(&o)
    );
    let (into_model, game) = model_of(&into);
    assert_eq!(game, Game::Ten);
    assert_eq!(into_model.moveables.len(), ten_model.moveables.len());
    let id_322 = catalog::moveable_name(Game::Ten, 322);
    assert_eq!(
        into_model.moveables.iter().any(|m| m.id == 322),
        ten_model.moveables.iter().any(|m| m.id == 322),
        "TEN's 322 ({id_322:?}) is as it was"
    );
}
