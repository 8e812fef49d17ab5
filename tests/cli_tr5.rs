//! TR5 levels (`.trc`) and levels with TRX's data appended, through the command line (issue 46):
//! `info` names a TR5 level and its slots; import → Blender (one action per animation) → build
//! gives the same objects, Lara dressed in LARA_SKIN; convert to a Wad2 reads back in the suite's
//! Python Wad2 reader; a TR1 level with a TRX tail reads as without it.

use std::path::{Path, PathBuf};
use std::process::Command;

use wadforge_fixtures::compare::{differences_except_resampled, Tolerance};
use wadforge_fixtures::levels::{tr1_level, tr5_fixture, trx_injection};
use wadforge_format::catalog::{self, Game};

use crate::common::files::{python_wad2_summary, read, repo};
use crate::common::{s, stderr, stdout, succeeds, wadforge};

/// The TR5 fixture written as `LEVEL.TRC` in `dir`.
fn tr5_file(dir: &Path) -> PathBuf {
    let path = dir.join("LEVEL.TRC");
    std::fs::write(&path, tr5_fixture().bytes).unwrap();
    path
}

#[test]
fn info_names_a_tr5_level_and_its_slots() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tr5_file(tmp.path());
    let o = wadforge(&["info", "--json", s(&level)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["format"], "TR5 level");
    let model = tr5_fixture().model;
    let moveables = json["moveables"].as_array().unwrap();
    assert_eq!(moveables.len(), model.moveables.len());
    for (j, m) in moveables.iter().zip(&model.moveables) {
        assert_eq!(j["slot"], catalog::moveable_slot(Game::Tr5, m.id));
        assert_eq!(j["animations"], m.animations.len());
    }
    assert_eq!(moveables[3]["slot"], "LARA_SKIN");
    // check finds nothing wrong: Lara's 15 meshes in LARA_SKIN, the creatures in TR5's slots.
    let o = wadforge(&["check", s(&level)]);
    let report = stdout(&o);
    assert!(o.status.success(), "{report}{}", stderr(&o));
    assert!(report.contains("0 errors"), "{report}");
}

#[test]
fn a_tr1_level_with_a_trx_tail_reads_as_without_it_and_info_reports_the_tail() {
    let tmp = tempfile::tempdir().unwrap();
    let plain = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&plain, tr1_level()).unwrap();
    let tailed = tmp.path().join("TRX1.PHD");
    let tail = trx_injection();
    std::fs::write(&tailed, [tr1_level(), tail.clone()].concat()).unwrap();
    let text = succeeds(&["info", s(&tailed)]);
    let line = format!(
        "{} bytes after the level: TRX injection data (version 4",
        tail.len()
    );
    assert!(text.contains(&line), "{text}");
    assert!(!succeeds(&["info", s(&plain)]).contains("after the level"));
    // Every object the same.
    let o = wadforge(&["diff", s(&plain), s(&tailed)]);
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn a_tr5_level_imports_through_blender_and_builds_into_the_same_objects() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tr5_file(tmp.path());
    let dir = tmp.path().join("dir");
    succeeds(&["import", "-q", s(&level), "-o", s(&dir)]);
    let project = wadforge_manifests::load(&dir).unwrap().project;
    assert_eq!(project.game, "TR5");
    match wadforge_fixtures::harness::python() {
        Some(python) => through_blender(&python, &dir),
        None => eprintln!("Blender part skipped: no harness (tests/harness/setup.sh)"),
    }
    let out = tmp.path().join("level.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out)]);
    // The same objects in TR4's slots (a WAD holds TR4's ids), but for the skewed polygon's
    // sample, which build resamples.
    let fixture = tr5_fixture();
    let places: Vec<(usize, usize)> = fixture.skewed.iter().map(|(place, _)| place).collect();
    assert!(!places.is_empty(), "the fixture has a skewed texture");
    let built = read(&out);
    let mut in_tr4 = fixture.model.clone();
    // TR5's DOBERMAN and CROW have no TR4 slot: left out of the WAD as of in_tr4.
    wadforge_edit::move_ids(&mut in_tr4, Game::Tr5, Game::Tr4, true, &[]).unwrap();
    let d = differences_except_resampled(&in_tr4, &built, Tolerance { normal: 1, angle: 0 }, &places);
    assert!(d.is_empty(), "{d:#?}");
    let dressed = wadforge_format::dressing::dressings(&built, Game::Tr4);
    let skin = wadforge_format::catalog::moveable_id(Game::Tr4, "LARA_SKIN").unwrap();
    assert_eq!(
        built.moveables[dressed[0].expect("LARA stays dressed").body].id,
        skin
    );
}

/// Every moveable's glTF through Blender (import, export with one action per animation), put
/// back in its place: each keeps its animations, and LARA's (dressed in LARA_SKIN) has hers.
fn through_blender(python: &Path, dir: &Path) {
    let script = repo().join("tests/harness/blender_roundtrip.py");
    let mut lara_actions = None;
    for entry in std::fs::read_dir(dir.join("moveables")).unwrap() {
        let glb = entry.unwrap().path();
        if glb.extension().is_none_or(|x| x != "glb") {
            continue;
        }
        let animations = glb_animations(&std::fs::read(&glb).unwrap());
        let exported = glb.with_extension("blender.glb");
        let o = Command::new(python)
            .arg(&script)
            .args([s(&glb), s(&exported)])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {}", glb.display(), stderr(&o));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let name = glb.file_name().unwrap().to_string_lossy().to_string();
        let actions = report["exported_counts"]["animations"]
            .as_array()
            .map_or(0, Vec::len);
        assert_eq!(actions, animations, "{name}: one action per animation");
        if name == "000_LARA.glb" {
            lara_actions = Some(actions);
        }
        std::fs::rename(&exported, &glb).unwrap();
    }
    let lara = &tr5_fixture().model.moveables[0];
    assert_eq!(
        lara_actions,
        Some(lara.animations.len()),
        "LARA's glTF has her animations"
    );
}

/// How many animations a GLB's JSON chunk lists.
fn glb_animations(glb: &[u8]) -> usize {
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json: serde_json::Value = serde_json::from_slice(&glb[20..20 + length]).unwrap();
    json["animations"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_tr5_level_converts_to_a_wad2_that_the_python_reader_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tr5_file(tmp.path());
    let wad2 = tmp.path().join("level.wad2");
    let o = wadforge(&["convert", s(&level), s(&wad2)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let model = tr5_fixture().model;
    let back = wadforge_format::open(&std::fs::read(&wad2).unwrap()).unwrap();
    assert_eq!(back.model.moveables.len(), model.moveables.len());
    if let Some(summary) = python_wad2_summary(&wad2) {
        assert_eq!(
            summary["moveables"].as_array().unwrap().len(),
            model.moveables.len()
        );
        assert_eq!(summary["statics"].as_array().unwrap().len(), model.statics.len());
    }
    // And into a TRNG WAD: the same objects wherever TR4 has a slot.
    let wad = tmp.path().join("level.wad");
    let o = wadforge(&["convert", s(&level), s(&wad)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!read(&wad).moveables.is_empty());
}

#[test]
fn a_tr5_levels_objects_convert_to_tomb_engine_and_trng_by_slot() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tr5_file(tmp.path());
    let tr5_slots: Vec<String> = tr5_fixture()
        .model
        .moveables
        .iter()
        .map(|m| catalog::moveable_slot(Game::Tr5, m.id))
        .collect();
    // TEN has a DOBERMAN (136, TR5's 41) and LARA_SKIN (12, TR5's 8); TR4 has LARA_SKIN alone.
    for (game, catalogue, extension, kept) in [
        ("ten", Game::Ten, "wad2", &["LARA", "DOBERMAN", "LARA_SKIN"][..]),
        ("trng", Game::Tr4, "wad", &["LARA", "LARA_SKIN"][..]),
    ] {
        let out = tmp.path().join(format!("level_{game}.{extension}"));
        let o = wadforge(&["convert", s(&level), s(&out), "--game", game]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let opened = wadforge_format::open(&std::fs::read(&out).unwrap()).unwrap();
        let slots: Vec<String> = opened
            .model
            .moveables
            .iter()
            .map(|m| catalog::moveable_slot(catalogue, m.id))
            .collect();
        // Each object the other game has a slot for is in it; the others are listed.
        assert_eq!(slots, kept, "{game}");
        let listed = stderr(&o) + &stdout(&o);
        for slot in &tr5_slots {
            assert!(
                slots.contains(slot) || listed.contains(slot.as_str()),
                "{game}: {slot} neither converted nor listed: {slots:?}\n{listed}"
            );
        }
    }
}
