//! `check` judges a file for the engine it names: a Wad2 for its W2SuggestedGameVersion (Tomb
//! Engine clamps next frames; Tomb Editor's compiler normalises normals), a classic WAD by its bytes.
//! The fixture is the standard one with what moving objects between engines changes: a next frame
//! past its animation and normals at half TR's length, written as a WAD, a TRLE Wad2 and a Tomb
//! Engine Wad2 (made in the test, with the format's own writers).

use std::path::{Path, PathBuf};

use serde_json::Value;
use wadforge_format::catalog::Game;
use wadforge_format::{wad2, Shading, SkewedCorners, Wad};

use crate::common::{s, stderr, wadforge};

/// The standard fixture's CROCODILE, which Tomb Engine's SNOWMOBILE stands for in its Wad2.
const CROCODILE: u32 = 51;

/// The standard fixture with CROCODILE's first animation going on to its own first frame past
/// its end + 40, and every normal at half TR's length.
fn fixture() -> Wad {
    let mut wad = wadforge_fixtures::standard();
    let croc = wad.moveables.iter().position(|m| m.id == CROCODILE).unwrap();
    let first = &mut wad.moveables[croc].animations[0];
    // The model numbers a next animation within its object.
    first.next_animation = 0;
    first.next_frame = first.frame_end + 40;
    for mesh in &mut wad.meshes {
        if let Shading::Normals(normals) = &mut mesh.shading {
            normals.iter_mut().for_each(|n| *n = n.map(|c| c / 2));
        }
    }
    assert!(
        wad.meshes
            .iter()
            .any(|m| matches!(m.shading, Shading::Normals(_))),
        "no mesh lit by normals"
    );
    wad
}

/// `model` (TR4 ids) as a Wad2 of `game`'s ids naming `version`; CROCODILE moves to TEN's
/// SNOWMOBILE (no TR4 slot) when `game` is Tomb Engine.
fn write_wad2(path: &Path, model: &Wad, game: Game, version: i64) -> PathBuf {
    let mut model = model.clone();
    if game == Game::Ten {
        let lost = wadforge_edit::move_ids(
            &mut model,
            Game::Tr4,
            Game::Ten,
            true,
            &["CROCODILE=SNOWMOBILE".into()],
        )
        .unwrap();
        assert!(lost.is_empty(), "{lost:?}");
    }
    let mut made = wad2::from_model(&model, &SkewedCorners::new(), game).unwrap();
    made.document.game_version = Some(version);
    std::fs::write(path, wad2::write_document(&made.document)).unwrap();
    path.to_path_buf()
}

/// `check --json` of `file`: its findings and whether it exited 1 (an error).
fn check(file: &Path) -> (Vec<Value>, bool) {
    let o = wadforge(&["check", "--json", s(file)]);
    let code = o.status.code();
    assert!(matches!(code, Some(0 | 1)), "{}: {}", file.display(), stderr(&o));
    (serde_json::from_slice(&o.stdout).unwrap(), code == Some(1))
}

/// The severities of `rule`'s findings whose place starts with `place`.
fn severities(findings: &[Value], rule: &str, place: &str) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f["rule"] == rule && f["place"].as_str().unwrap().starts_with(place))
        .map(|f| f["severity"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_wad2_is_judged_for_the_engine_it_names_and_a_wad_by_its_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let model = fixture();
    let wad = crate::common::files::write_wad(&tmp.path().join("fixture.wad"), &model);
    let trle = write_wad2(&tmp.path().join("trle.wad2"), &model, Game::Tr4, 4);
    let trng = write_wad2(&tmp.path().join("trng.wad2"), &model, Game::Tr4, 16);
    let ten = write_wad2(&tmp.path().join("ten.wad2"), &model, Game::Ten, 18);

    // (file, CROCODILE's name there, next-frame, normal-length, exit 1)
    let expected = [
        (&wad, "CROCODILE", "error", "warning", true),
        (&trle, "CROCODILE", "error", "note", true),
        (&trng, "CROCODILE", "error", "note", true),
        (&ten, "SNOWMOBILE", "warning", "note", false),
    ];
    for (file, crocodile, next_frame, normals, fails) in expected {
        let (findings, failed) = check(file);
        let name = file.file_name().unwrap().to_string_lossy();
        let place = format!("{crocodile} (moveable {CROCODILE}), animation 0");
        assert_eq!(
            severities(&findings, "next-frame", &place),
            [next_frame],
            "{name}: {findings:#?}"
        );
        let normal_lengths = severities(&findings, "normal-length", "mesh ");
        assert!(!normal_lengths.is_empty(), "{name}: no normal-length finding");
        assert!(
            normal_lengths.iter().all(|s| s == normals),
            "{name}: {normal_lengths:?}"
        );
        assert_eq!(failed, fails, "{name}: {findings:#?}");
    }
    // The text names the engine a Wad2 is judged for.
    let o = wadforge(&["check", s(&ten)]);
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("ten.wad2: judged for Tomb Engine (W2SuggestedGameVersion 18)"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// The standard fixture's PUZZLE_ITEM1, whose one-keyframe animation is made to run 30 frames.
const PUZZLE_ITEM1: u32 = 175;

/// [`fixture`] with PUZZLE_ITEM1's animation 30 frames past its one keyframe.
fn fixture_with_frames_past_keyframes() -> Wad {
    let mut wad = fixture();
    let puzzle = wad.moveables.iter_mut().find(|m| m.id == PUZZLE_ITEM1).unwrap();
    assert_eq!(puzzle.animations[0].keyframes.len(), 1);
    puzzle.animations[0].frame_end += 30;
    wad
}

/// Every line `convert` printed after `prefix` (`changed: `, `lost: `), sorted.
fn convert_lines(stderr: &str, prefix: &str) -> Vec<String> {
    let mut lines: Vec<String> = (stderr.lines())
        .filter_map(|l| l.strip_prefix(prefix))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

/// Every line of `key` (`changed`, `lost`) in a `check --for --json` report, the objects' and the
/// file's, sorted.
fn report_lines(report: &Value, key: &str) -> Vec<String> {
    let objects = report["objects"].as_array().unwrap();
    let mut lines: Vec<String> = (objects.iter().map(|o| &o[key]))
        .chain([&report[key]])
        .flat_map(|l| l.as_array().unwrap())
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    lines.sort();
    lines
}

#[test]
fn check_for_tr4_lists_each_change_and_loss_and_convert_then_does_exactly_that() {
    let tmp = tempfile::tempdir().unwrap();
    let ten = write_wad2(
        &tmp.path().join("ten.wad2"),
        &fixture_with_frames_past_keyframes(),
        Game::Ten,
        18,
    );
    let o = wadforge(&["check", "--for", "tr4", "--json", s(&ten)]);
    assert_eq!(o.status.code(), Some(1), "something is lost: {}", stderr(&o));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let objects = report["objects"].as_array().unwrap();
    let object = |name: &str| objects.iter().find(|o| o["object"] == name).unwrap();

    // SNOWMOBILE (the fixture's CROCODILE), which TR4 has no slot for: left out, said so.
    let snowmobile = object("SNOWMOBILE (moveable 51)");
    assert!(snowmobile["slot"].is_null(), "{snowmobile:#}");
    let lost = snowmobile["lost"][0].as_str().unwrap();
    assert!(
        lost.contains("TR4 has no moveable slot for TEN's SNOWMOBILE; left out") && lost.contains("--as"),
        "{lost}"
    );
    // Every other object lands in its TR4 slot.
    let placed: Vec<&Value> = objects.iter().filter(|o| !o["slot"].is_null()).collect();
    assert_eq!(placed.len(), objects.len() - 1, "{objects:#?}");
    // Tomb Engine's PUZZLE_ITEM1 goes back to TR4's.
    let puzzle = (objects.iter())
        .find(|o| o["slot"] == "PUZZLE_ITEM1 (moveable 175)")
        .unwrap();
    // The normals at half TR's length, brought to it, and the frames past the keyframe, clamped.
    let changed = report_lines(&report, "changed");
    assert!(
        changed
            .iter()
            .any(|l| l.contains("normals brought to TR's length")),
        "{changed:#?}"
    );
    let clamped = (puzzle["changed"].as_array().unwrap().iter())
        .filter(|l| l.as_str().unwrap().contains("animation 0's frames"))
        .count();
    assert_eq!(clamped, 1, "{puzzle:#}");

    // `convert` then does exactly what the report listed: the same lines, nothing else.
    let wad = tmp.path().join("out.wad");
    let o = wadforge(&["convert", s(&ten), s(&wad)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(convert_lines(&stderr(&o), "changed: "), changed);
    assert_eq!(
        convert_lines(&stderr(&o), "lost: "),
        report_lines(&report, "lost")
    );
    let written = crate::common::files::read(&wad);
    assert!(
        !written.moveables.iter().any(|m| m.id == CROCODILE),
        "nothing in TR4's 51"
    );
    let puzzle = written.moveables.iter().find(|m| m.id == PUZZLE_ITEM1).unwrap();
    let animation = &puzzle.animations[0];
    assert_eq!(
        animation.frame_end, animation.frame_start,
        "one keyframe, one frame"
    );
    for mesh in &written.meshes {
        if let Shading::Normals(normals) = &mesh.shading {
            for n in normals.iter().filter(|n| **n != [0; 3]) {
                let length = n.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
                assert!((length - Shading::NORMAL_LENGTH).abs() < 163.0, "{length}");
            }
        }
    }
}

#[test]
fn check_for_ten_lists_what_a_wad2_cannot_hold_writes_nothing_and_exits_0_when_nothing_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let wad = crate::common::files::write_wad(&tmp.path().join("fixture.wad"), &fixture());
    let ten = write_wad2(&tmp.path().join("ten.wad2"), &fixture(), Game::Ten, 18);
    let before = std::fs::read_dir(tmp.path()).unwrap().count();
    let o = wadforge(&["check", "--for", "ten", s(&wad)]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        text.contains("for Tomb Engine: what `wadforge convert")
            && text.contains("CROCODILE (moveable 51) → CROCODILE (moveable 117)")
            && text.contains("14 objects in slots, 0 left out"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        before,
        "nothing written"
    );
    // The fixture holds what a Wad2 has no place for (sphere flags, attribute bits): listed,
    // exit code 1, and `convert` loses just that.
    assert_eq!(o.status.code(), Some(1), "{text}");
    let json = wadforge(&["check", "--for", "ten", "--json", s(&wad)]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let out = tmp.path().join("out.wad2");
    let converted = wadforge(&["convert", s(&wad), s(&out), "--game", "ten"]);
    assert!(converted.status.success(), "{}", stderr(&converted));
    let lost = report_lines(&report, "lost");
    assert!(!lost.is_empty());
    assert_eq!(convert_lines(&stderr(&converted), "lost: "), lost);
    assert_eq!(
        convert_lines(&stderr(&converted), "changed: "),
        report_lines(&report, "changed")
    );
    // A Tomb Engine Wad2 moved to Tomb Engine loses nothing: exit code 0.
    let o = wadforge(&["check", "--for", "ten", s(&ten)]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
}
