//! Tomb Editor's real Wad2 files beside the project (`../shared/wad2/`, GPL-3.0, never in it)
//! through the command line: info names their objects from the catalogue of the game the file
//! names, import says what a classic WAD cannot hold, and import → build gives a WAD whose objects
//! compare equal with the Wad2's (but for polygons that map their texture skewed, which build
//! resamples). Each test says so and passes when the files are absent.

use std::path::{Path, PathBuf};

use wadforge_format::catalog::{self, Game};

use crate::common::files::{read_objects, repo};
use crate::common::{s, stderr, stdout, succeeds, wadforge};

fn real_wad2_files() -> Vec<PathBuf> {
    wadforge_fixtures::harness::real_wad2_files()
}

fn named(files: &[PathBuf], name: &str) -> Option<PathBuf> {
    files
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == name))
        .cloned()
}

#[test]
fn info_names_wad2_objects_from_their_games_catalogue() {
    let files = real_wad2_files();
    // Tomb Engine's ids, not TR4's: TR4 calls 12 LARA_REVOLVER_LASER and 830 nothing.
    for (name, expected) in [
        ("TR1_Lara_Gold.wad2", ["Tomb Editor Wad2", "12  LARA_SKIN"]),
        ("TEN_Pulley.wad2", ["Tomb Editor Wad2", "830  PULLEY"]),
    ] {
        let Some(path) = named(&files, name) else { continue };
        let out = succeeds(&["info", s(&path)]);
        for text in expected {
            assert!(out.contains(text), "{name}: no {text:?} in\n{out}");
        }
    }
}

#[test]
fn import_lists_what_a_classic_wad_cannot_hold() {
    let files = real_wad2_files();
    let Some(pulley) = named(&files, "TEN_Pulley.wad2") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let o = wadforge(&["import", s(&pulley), "-o", s(&tmp.path().join("pulley"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for text in [
        "wad2_detail.wad2 keeps what this Tomb Editor Wad2 holds",
        "a classic WAD built from the directory cannot hold",
        "PULLEY (moveable 830): 4 × animation commands of type 7",
        "STATIC_10 (static 10): 36 × vertex colours that are not grey",
    ] {
        assert!(err.contains(text), "no {text:?} in\n{err}");
    }
}

/// import → build → diff against the Wad2: the summary line and the differing objects' lines.
fn round_trip(tmp: &Path, file: &Path) -> (String, Vec<String>) {
    let name = file.file_stem().unwrap().to_string_lossy().into_owned();
    let dir = tmp.join(&name);
    succeeds(&["import", "-q", s(file), "-o", s(&dir)]);
    let wad = tmp.join(format!("{name}.wad"));
    succeeds(&["build", "-q", s(&dir), "-o", s(&wad)]);
    wadforge_fixtures::assert_other_tools_read_as_the_game(&name, &std::fs::read(&wad).unwrap());
    let out = stdout(&wadforge(&["diff", s(file), s(&wad)]));
    let summary = out.lines().last().unwrap_or_default().to_owned();
    let differences = out
        .lines()
        .filter(|l| l.starts_with("    ") && !l.contains("… and"))
        .map(str::to_owned)
        .collect();
    (summary, differences)
}

#[test]
fn import_then_build_gives_every_wad2_object_back() {
    let tmp = tempfile::tempdir().unwrap();
    for file in real_wad2_files() {
        let (summary, differences) = round_trip(tmp.path(), &file);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        // TombEngine_Weapons maps 86 polygons skewed (UVs no classic arrangement gives): build
        // resamples those, so their samples' sizes differ and nothing else does.
        let resampled = differences.iter().all(|d| d.contains("sample size"));
        assert!(
            summary.contains("identical")
                && (differences.is_empty() || name == "TombEngine_Weapons.wad2" && resampled),
            "{name}: {summary}\n{}",
            differences.join("\n")
        );
        println!("{name}: {summary}");
    }
}

/// The typed documents of two Wad2 files are the same but for their textures.
fn assert_same_but_textures(name: &str, a: &Path, b: &Path) {
    let read = |p: &Path| wadforge_format::wad2::read_document(&std::fs::read(p).unwrap()).unwrap();
    wadforge_fixtures::wad2_compare::same_but_textures(&read(a), &read(b))
        .unwrap_or_else(|d| panic!("{name}: {} and {} differ: {d}", a.display(), b.display()));
}

#[test]
fn import_then_build_wad2_gives_every_wad2_back_with_its_detail() {
    let tmp = tempfile::tempdir().unwrap();
    for file in real_wad2_files() {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = tmp.path().join(&name);
        succeeds(&["import", "-q", s(&file), "-o", s(&dir)]);
        assert!(dir.join("wad2_detail.wad2").is_file(), "{name}: no detail file");
        let built = tmp.path().join(format!("{name}.wad2"));
        let out = wadforge(&["build", s(&dir), "-o", s(&built)]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("kept the Tomb Editor detail of") && !stderr(&out).contains("edited"),
            "{name}: {}",
            stderr(&out)
        );
        // Colours, weights, glow and movement, blend curves, static lights, unknown chunks
        // (TR2_Falling_Sandbag's W2AniRM), exact floats: all there, as the file had them.
        assert_same_but_textures(&name, &file, &built);
        let diff = stdout(&wadforge(&["diff", s(&file), s(&built)]));
        let summary = diff.lines().last().unwrap_or_default();
        let all_same = summary.contains("identical") && !summary.contains("differ");
        assert!(
            all_same || name == "TombEngine_Weapons" && summary.contains("41 of 44"),
            "{name}: {summary}"
        );
        // The directory keeps the file's textures: unedited, it builds back to the file itself
        // (TombEngine_Weapons' skewed polygons are resampled into samples of their own).
        if all_same {
            let same = std::fs::read(&file).unwrap() == std::fs::read(&built).unwrap();
            assert!(same, "{name}: not the file itself");
        }
        if let Some(summary) = crate::common::files::python_wad2_summary(&built) {
            assert!(
                summary["moveables"].is_array(),
                "{name}: the second reader reads it"
            );
        }
    }
}

#[test]
fn a_wad2_converts_into_itself_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    for file in real_wad2_files() {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let out = tmp.path().join(format!("{name}.wad2"));
        let o = wadforge(&["convert", "--strict", s(&file), s(&out)]);
        assert!(o.status.success(), "{name}: nothing is lost: {}", stderr(&o));
        assert_same_but_textures(&name, &file, &out);
        // Its textures too: every polygon takes its own back.
        assert!(
            std::fs::read(&file).unwrap() == std::fs::read(&out).unwrap(),
            "{name}: not the file itself"
        );
    }
}

#[test]
fn build_patches_a_base_wad2_keeping_the_detail_of_every_object() {
    let files = real_wad2_files();
    let Some(skidoo) = named(&files, "TEN_Skidoo.wad2") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // One object of three imported: the others come from the base, with its sprites.
    let dir = tmp.path().join("snowmobile");
    succeeds(&["import", "-q", s(&skidoo), "-o", s(&dir), "--only", "SNOWMOBILE"]);
    let built = tmp.path().join("patched.wad2");
    succeeds(&["build", "-q", s(&dir), "-o", s(&built), "--base", s(&skidoo)]);
    assert_same_but_textures("TEN_Skidoo", &skidoo, &built);
    assert!(
        std::fs::read(&skidoo).unwrap() == std::fs::read(&built).unwrap(),
        "not the file itself"
    );
    let refused = wadforge(&["build", s(&dir), "-o", s(&skidoo), "--base", s(&skidoo)]);
    assert!(!refused.status.success(), "the base is never written over");
}

/// Asserts that every difference `wadforge diff --json A B` finds is of what a Wad2 cannot hold
/// and convert lists as lost: sphere flag words, attribute bits, a sound both on land and in water,
/// keyframe words that do not decode.
fn only_what_wad2_cannot_hold_differs(a: &Path, b: &Path) {
    let out = stdout(&wadforge(&["diff", "--json", s(a), s(b)]));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let lost = |d: &serde_json::Value| match d["what"].as_str() {
        Some("sphere_flag" | "attributes" | "undecodable_keyframes") => true,
        Some("command") => d["a"]
            .as_str()
            .is_some_and(|a| a.contains("on land and in water")),
        _ => false,
    };
    let others: Vec<String> = report["objects"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|o| o["differences"].as_array().unwrap())
        .filter(|d| !lost(d))
        .map(ToString::to_string)
        .collect();
    assert!(
        others.is_empty(),
        "{} vs {}:\n{}",
        a.display(),
        b.display(),
        others.join("\n")
    );
}

#[test]
fn the_real_level_converts_to_wad2_and_back_with_every_object() {
    let level = repo().join("../shared/real/LEVEL2_DEMO.PHD");
    if !level.is_file() {
        eprintln!("skipped: {} is absent", level.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let wad2 = tmp.path().join("level.wad2");
    let o = wadforge(&["convert", s(&level), s(&wad2)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("flag word is set"),
        "the flags lost are listed: {}",
        stderr(&o)
    );
    only_what_wad2_cannot_hold_differs(&level, &wad2);
    if let Some(summary) = crate::common::files::python_wad2_summary(&wad2) {
        assert_eq!(summary["moveables"].as_array().unwrap().len(), 49);
        assert_eq!(summary["statics"].as_array().unwrap().len(), 10);
        assert_eq!(summary["game_version"], 1, "a TR1 level's Wad2 names TR1");
    }
    // And back to a classic WAD: the same objects as the Wad2's in TR4's slots, read by
    // wadblender too; those TR4 has no slot for are left out, each named.
    let wad = tmp.path().join("level.wad");
    succeeds(&["convert", "-q", s(&wad2), s(&wad)]);
    wadforge_fixtures::assert_other_tools_read_as_the_game("level", &std::fs::read(&wad).unwrap());
    let model = read_objects(&level);
    let no_slot = model
        .moveables
        .iter()
        .filter(|m| catalog::moveable_in(Game::Tr1, m.id, Game::Tr4).is_none())
        .count()
        + model
            .statics
            .iter()
            .filter(|m| catalog::static_in(Game::Tr1, m.id, Game::Tr4).is_none())
            .count();
    assert!(no_slot > 0, "TR4 has no WOLF");
    let summary = stdout(&wadforge(&["diff", s(&wad2), s(&wad)]));
    assert!(
        summary.ends_with(&format!(
            "{} of 59 objects identical ({no_slot} differ: {no_slot} with no slot in the other's game)\n",
            59 - no_slot
        )),
        "{summary}"
    );
}

/// Every fixture as a file: the WAD fixtures, their quirky variants and the TR1–TR4 levels.
fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = wadforge_fixtures::all()
        .iter()
        .map(|(name, model)| crate::common::files::write_wad(&dir.join(format!("{name}.wad")), model))
        .collect();
    use wadforge_fixtures::levels;
    let named_bytes = wadforge_fixtures::quirky_files()
        .into_iter()
        .map(|(n, b)| (format!("{n}.wad"), b))
        .chain([
            ("tr1.phd".to_owned(), levels::tr1_level()),
            ("tr2.tr2".to_owned(), levels::tr2_level()),
            ("tr3.tr2".to_owned(), levels::tr3_level()),
            ("tr4.tr4".to_owned(), levels::tr4_level()),
        ]);
    for (name, bytes) in named_bytes {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        files.push(path);
    }
    files
}

#[test]
fn every_fixture_converts_to_wad2_and_back_saying_what_it_lost() {
    let tmp = tempfile::tempdir().unwrap();
    for file in fixture_files(tmp.path()) {
        let wad2 = file.with_extension("wad2");
        let o = wadforge(&["convert", s(&file), s(&wad2)]);
        assert!(o.status.success(), "{}: {}", file.display(), stderr(&o));
        only_what_wad2_cannot_hold_differs(&file, &wad2);
        // Check finds no keyframe box off in the Wad2 that fits in the file: LARA wears LARA_SKIN
        // there too (the copies of her placeholder a Wad2 holds are one mesh again).
        let boxes_off = |path: &Path| {
            stdout(&wadforge(&["check", s(path)]))
                .matches("[keyframe-box]")
                .count()
        };
        assert_eq!(boxes_off(&wad2), boxes_off(&file), "{}", file.display());
        // What differs is listed as lost.
        let differs = stdout(&wadforge(&["diff", s(&file), s(&wad2)]));
        for (difference, listed) in [
            ("sphere flag", "flag word is set"),
            ("attributes", "attribute bits"),
            ("on land and in water", "flagged both on land and in water"),
            ("undecodable keyframe words", "keyframe words do not decode"),
        ] {
            if differs.contains(difference) {
                assert!(
                    stderr(&o).contains(listed),
                    "{}: {difference} not listed:\n{}",
                    file.display(),
                    stderr(&o)
                );
            }
        }
        if let Some(summary) = crate::common::files::python_wad2_summary(&wad2) {
            assert_eq!(summary["sound_system"], 1, "TombLib refuses a Wad2 without it");
        }
        // And back: the Wad2's objects exactly, in a WAD wadblender reads.
        let back = tmp.path().join("back.wad");
        succeeds(&["convert", "-q", s(&wad2), s(&back)]);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        wadforge_fixtures::assert_other_tools_read_as_the_game(&name, &std::fs::read(&back).unwrap());
        // A level's objects TR4 has no slot for are left out of the WAD; nothing else differs.
        let o = wadforge(&["diff", s(&wad2), s(&back)]);
        assert!(
            only_objects_without_a_slot_differ(&stdout(&o)),
            "{name}: {}",
            stdout(&o)
        );
    }
}

/// Whether a diff's summary (its last line) says the objects are the same but for those the other
/// file's game has no slot for: `57 of 59 objects identical (2 differ: 2 with no slot ...)`.
fn only_objects_without_a_slot_differ(report: &str) -> bool {
    let last = report.lines().last().unwrap_or_default();
    let Some((_, counts)) = last.split_once('(') else {
        return last.ends_with("objects identical");
    };
    let mut numbers = counts
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty());
    let (differ, no_slot) = (numbers.next(), numbers.next());
    differ.is_some() && differ == no_slot && counts.contains("with no slot in the other's game")
}

#[test]
fn the_example_builds_into_a_wad2_with_every_object() {
    let tmp = tempfile::tempdir().unwrap();
    let example = crate::common::files::example();
    let (built_wad, built_wad2) = (tmp.path().join("example.wad"), tmp.path().join("example.wad2"));
    succeeds(&["build", "-q", s(&example), "-o", s(&built_wad)]);
    succeeds(&["build", "-q", s(&example), "-o", s(&built_wad2)]);
    only_what_wad2_cannot_hold_differs(&built_wad, &built_wad2);
    if let Some(summary) = crate::common::files::python_wad2_summary(&built_wad2) {
        assert_eq!(summary["moveables"].as_array().unwrap().len(), 1);
        assert_eq!(summary["statics"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn a_tomb_engine_wad2_converts_to_tr4_slots_and_says_what_it_lost() {
    let files = real_wad2_files();
    let Some(pulley) = named(&files, "TEN_Pulley.wad2") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let wad = tmp.path().join("pulley.wad");
    let refused = wadforge(&["convert", "--strict", s(&pulley), s(&wad)]);
    assert!(
        !refused.status.success() && !wad.exists(),
        "--strict writes nothing when something is lost"
    );
    assert!(
        stderr(&refused).contains("cannot hold everything"),
        "{}",
        stderr(&refused)
    );
    let o = wadforge(&["convert", s(&pulley), s(&wad)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = "lost: PULLEY (moveable 830): 4 × animation commands of type 7";
    assert!(stderr(&o).contains(text), "no {text:?} in\n{}", stderr(&o));
    // TEN's PULLEY (830) is TR4's PULLEY (321); TEN's statics are numbered, so static 10 stays
    // static 10.
    assert!(!stderr(&o).contains("has no static slot"), "{}", stderr(&o));
    let info = succeeds(&["info", s(&wad)]);
    assert!(info.contains("321  PULLEY"), "{info}");
    assert!(info.contains("10  FURNITURE0"), "{info}");
    wadforge_fixtures::assert_other_tools_read_as_the_game("pulley", &std::fs::read(&wad).unwrap());
}

#[test]
fn convert_takes_only_the_objects_asked_for_into_the_slots_asked_for() {
    let files = real_wad2_files();
    let Some(skidoo) = named(&files, "TEN_Skidoo.wad2") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let wad = tmp.path().join("snowmobile.wad");
    // TR4 has no SNOWMOBILE: --as gives it ANIMATING1 (427); the other two stay behind.
    let o = wadforge(&[
        "convert",
        s(&skidoo),
        s(&wad),
        "--only",
        "SNOWMOBILE",
        "--as",
        "SNOWMOBILE=ANIMATING1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("has no moveable slot"), "{}", stderr(&o));
    let info = succeeds(&["info", s(&wad)]);
    assert!(
        info.contains("Moveables (1)") && info.contains("427  ANIMATING1"),
        "{info}"
    );
    wadforge_fixtures::assert_other_tools_read_as_the_game("snowmobile", &std::fs::read(&wad).unwrap());
    // Without --as it is left out (it used to keep its id 51, TR4's CROCODILE), and the message
    // says how to place it.
    let o = wadforge(&["convert", s(&skidoo), s(&wad), "--only", "51"]);
    assert!(
        stderr(&o).contains(
            "SNOWMOBILE (moveable 51): TR4 has no moveable slot for TEN's SNOWMOBILE; left out (--as \
             SNOWMOBILE=SLOT places it)"
        ),
        "{}",
        stderr(&o)
    );
    if wad.exists() {
        let model = wadforge_format::open(&std::fs::read(&wad).unwrap())
            .unwrap()
            .model;
        assert!(model.moveables.iter().all(|m| m.id != 51));
    }
    for (args, message) in [
        (
            vec!["--as", "NOTHING=1"],
            "the input has no object of that slot name or id",
        ),
        (vec!["--as", "SNOWMOBILE"], "write NAME=SLOT"),
        (vec!["--only", "NOTHING"], "--only names NOTHING"),
    ] {
        let mut all = vec!["convert", s(&skidoo), s(&wad)];
        all.extend(args);
        let o = wadforge(&all);
        assert!(
            !o.status.success() && stderr(&o).contains(message),
            "{all:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn convert_writes_the_wad2_game_asked_for_with_its_ids() {
    let tmp = tempfile::tempdir().unwrap();
    let wad =
        crate::common::files::write_wad(&tmp.path().join("standard.wad"), &wadforge_fixtures::standard());
    let read = |p: &Path| wadforge_format::wad2::read_document(&std::fs::read(p).unwrap()).unwrap();
    for (game, version) in [("trle", 4), ("trng", 16), ("ten", 18)] {
        let out = tmp.path().join(format!("standard_{game}.wad2"));
        succeeds(&["convert", "-q", s(&wad), s(&out), "--game", game]);
        let document = read(&out);
        assert_eq!(document.game_version, Some(version), "{game}");
        // TR4's CROCODILE is moveable 51; Tomb Engine's CROCODILE has its own id.
        let crocodile = match game {
            "ten" => wadforge_format::catalog::moveable_id(wadforge_format::catalog::Game::Ten, "CROCODILE")
                .unwrap(),
            _ => 51,
        };
        assert!(
            document.moveables.iter().any(|m| m.id == i64::from(crocodile)),
            "{game}"
        );
        assert!(succeeds(&["info", s(&out)]).contains("CROCODILE"), "{game}");
    }
}

#[test]
fn each_wad2_converted_to_a_wad_compares_equal_apart_from_what_convert_lists() {
    use wadforge_format::catalog::{self, Game};
    let tmp = tempfile::tempdir().unwrap();
    for file in real_wad2_files() {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let wad = tmp.path().join(format!("{name}.wad"));
        let o = wadforge(&["convert", s(&file), s(&wad)]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let source = wadforge_format::open(&std::fs::read(&file).unwrap()).unwrap();
        let mut converted = wadforge_format::open(&std::fs::read(&wad).unwrap())
            .unwrap()
            .model;
        // Tomb Engine's ids moved to the TR4 slots the catalogue maps them to, and those TR4 has
        // no slot for left out (and listed): moved back, the objects pair with the source's
        // placed ones (statics keep their numbers).
        let mut source = source;
        if source.game == Game::Ten {
            let placed = |m: &wadforge_format::Moveable| catalog::moveable_in(Game::Ten, m.id, Game::Tr4);
            for m in &mut converted.moveables {
                let back = source.model.moveables.iter().find(|s| placed(s) == Some(m.id));
                m.id = back.expect("a source object of that slot").id;
            }
            source.model.moveables.retain(|m| placed(m).is_some());
            source
                .model
                .statics
                .retain(|st| catalog::static_in(Game::Ten, st.id, Game::Tr4).is_some());
            // Their sound commands play TR4's sound ids, those TR4 has none for dropped (listed:
            // tests/cli_slots.rs).
            let all = 0..source.model.moveables.len();
            wadforge_edit::move_sounds(&mut source.model, all, Game::Ten, Game::Tr4);
        }
        // What the model could not hold is listed; the WAD holds the model exactly, but for the
        // skewed polygons (listed too), whose sample is the rectangle round their corners.
        let skewed: Vec<(usize, usize)> = source.skewed.iter().map(|(at, _)| at).collect();
        let lost = stderr(&o);
        assert_eq!(
            !skewed.is_empty(),
            lost.contains("map their texture skewed"),
            "{name}: {lost}"
        );
        let d = wadforge_fixtures::compare::differences_except_resampled(
            &source.model,
            &converted,
            wadforge_fixtures::compare::Tolerance::default(),
            &skewed,
        );
        assert!(d.is_empty(), "{name}: {:#?}", &d[..d.len().min(8)]);
        for loss in &source.losses {
            assert!(lost.contains(&loss.to_string()), "{name}: {loss} is not listed");
        }
    }
}
