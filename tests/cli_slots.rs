//! Objects move between engines' slots by the catalogues (`convert`): a Tomb Engine object goes to
//! the TR4 slot whose catalogue `ten=` names it (BADDY1 to BADDY_1, HAIR_PRIMARY to HAIR), and one
//! TR4 has no slot for is left out and listed, never written under a foreign id. The fixture test
//! makes its Tomb Engine Wad2 from the standard fixture; the real packs' test passes when
//! `../shared/wad2/` is absent.

use std::path::Path;

use wadforge_format::catalog::{self, Game};
use wadforge_format::Wad;

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
            eprintln!(
                "{name}: {placed} placed, {left_out} left out; {wrong_before} in another's slot before"
            );
        } else {
            // A classic game's Wad2 keeps its own ids in a classic WAD.
            let ids = |w: &Wad| w.moveables.iter().map(|m| m.id).collect::<Vec<_>>();
            assert_eq!(ids(&converted), ids(&source), "{name}");
        }
    }
}
