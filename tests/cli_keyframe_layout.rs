//! Every WAD the command line writes opens in the tools builders use: the WAD document's keyframe
//! count (Tomb Editor's WadTool, wadblender, the older tools) gives every animation the keyframes
//! the game plays. `check` warns where a file's layout does not, and `check --fix` lays it out anew.

use std::path::{Path, PathBuf};

use crate::common::files::read;
use crate::common::{assert_same_objects, s, stderr, stdout, succeeds, wadforge};
use wadforge_fixtures::{assert_other_tools_read_as_the_game, quirks};

/// The quirk file `name`, written into `dir`.
fn quirk_file(dir: &Path, name: &str) -> PathBuf {
    let quirk = quirks().into_iter().find(|q| q.name == name).unwrap();
    let path = dir.join(format!("{name}.wad"));
    std::fs::write(&path, &quirk.bytes).unwrap();
    path
}

fn assert_read_as_the_game(path: &Path) {
    assert_other_tools_read_as_the_game(&path.display().to_string(), &std::fs::read(path).unwrap());
}

#[test]
fn check_warns_about_keyframes_shared_as_core_tools_did_and_fix_gives_each_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = quirk_file(tmp.path(), "keyframes_shared_as_core_tools_wrote_them");
    // wadblender fails on such a file, as on the WADs Core's tools wrote.
    if let Ok(read) = wadforge_fixtures::wadblender::open(&shared) {
        assert!(read.is_err(), "wadblender read the shared keyframes: {read:?}");
    }
    let o = wadforge(&["check", s(&shared)]);
    assert_eq!(o.status.code(), Some(0), "warnings only: {}", stderr(&o));
    let out = stdout(&o);
    let warnings: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("warning [keyframe-layout]"))
        .collect();
    // The walk, the pickup, the death and the switches' poses: each names both counts and tools.
    assert!(warnings.len() >= 4, "{out}");
    let walk = warnings
        .iter()
        .find(|l| l.contains("LARA (moveable 0), animation 1:"))
        .unwrap_or_else(|| panic!("the walk, which the slow walk starts on: {out}"));
    assert!(
        walk.contains("gives it 0 keyframes, and the game plays 17") && walk.contains("WadTool, wadblender"),
        "{walk}"
    );

    let fixed = tmp.path().join("fixed.wad");
    let o = wadforge(&["check", s(&shared), "--fix", "-o", s(&fixed)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stderr(&o);
    let relaid = format!("the keyframe layout of {} animations", warnings.len());
    assert!(report.contains(&relaid), "{report}");
    assert_same_objects(&shared, &fixed);
    assert_read_as_the_game(&fixed);
    assert!(!succeeds(&["check", s(&fixed)]).contains("keyframe-layout"));
}

#[test]
fn copy_and_remove_write_files_every_tool_reads_as_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = quirk_file(tmp.path(), "keyframes_shared_as_core_tools_wrote_them");
    let undecodable = quirk_file(tmp.path(), "undecodable_keyframes");
    let placeholders = quirk_file(tmp.path(), "placeholder_animations_ending_before_they_start");

    // Lara and the switches out of the shared file, into one that shares too.
    let copied = tmp.path().join("copied.wad");
    succeeds(&[
        "copy",
        s(&shared),
        s(&undecodable),
        "-o",
        s(&copied),
        "--only",
        "LARA,SWITCH_TYPE1",
    ]);
    assert_read_as_the_game(&copied);
    // The undecodable words and the placeholder animations come across as they are.
    let both = tmp.path().join("both.wad");
    succeeds(&[
        "copy",
        s(&undecodable),
        s(&placeholders),
        "-o",
        s(&both),
        "--only",
        "419",
    ]);
    assert_read_as_the_game(&both);
    let wad = read(&both);
    let meshswap = wad.moveables.iter().find(|m| m.id == 419).unwrap();
    assert!(meshswap
        .animations
        .iter()
        .all(|a| a.undecodable_keyframes.is_some()));

    let removed = tmp.path().join("removed.wad");
    succeeds(&["remove", s(&shared), "-o", s(&removed), "--only", "CROCODILE"]);
    assert_read_as_the_game(&removed);
    for source in [&undecodable, &placeholders] {
        let fixed = tmp.path().join("fixed.wad");
        succeeds(&["check", s(source), "--fix", "-o", s(&fixed)]);
        assert_read_as_the_game(&fixed);
        std::fs::remove_file(&fixed).unwrap();
    }
}

#[test]
fn each_class_of_real_files_keyframes_comes_back_exact_through_import_and_build() {
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "keyframes_shared_as_core_tools_wrote_them",
        "placeholder_animations_ending_before_they_start",
        "undecodable_keyframes",
    ] {
        let source = quirk_file(tmp.path(), name);
        let dir = tmp.path().join(name);
        succeeds(&["import", "-q", s(&source), "-o", s(&dir)]);
        let built = tmp.path().join(format!("{name}_built.wad"));
        succeeds(&["build", "-q", s(&dir), "-o", s(&built)]);
        assert_same_objects(&source, &built);
        assert_read_as_the_game(&built);
        // Stable: the built file imports and builds to itself.
        let again_dir = tmp.path().join(format!("{name}_again"));
        succeeds(&["import", "-q", s(&built), "-o", s(&again_dir)]);
        let again = tmp.path().join(format!("{name}_again.wad"));
        succeeds(&["build", "-q", s(&again_dir), "-o", s(&again)]);
        assert!(
            std::fs::read(&again).unwrap() == std::fs::read(&built).unwrap(),
            "{name}: not stable"
        );
    }
    // The manifest says, where a person reads it, why an animation has no action.
    let manifest = std::fs::read_to_string(
        tmp.path()
            .join("undecodable_keyframes/moveables/419_MESHSWAP3.yaml"),
    )
    .unwrap();
    assert!(
        manifest.contains("undecodable: its keyframe size of 10 words is smaller than"),
        "{manifest}"
    );
}

/// The objects `wadforge diff` finds different between `a` and `b`, as slot names (an object only
/// in one file differs too).
fn differing_objects(a: &Path, b: &Path) -> Vec<String> {
    let o = wadforge(&["diff", "--json", s(a), s(b)]);
    assert!(o.status.code().is_some_and(|c| c < 2), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let objects = report["objects"].as_array().unwrap();
    (objects.iter())
        .filter(|object| object["identical"] != true)
        .map(|object| object["slot"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_file_written_from_a_core_made_wad_reads_right_in_every_tool_and_keeps_what_was_not_named() {
    let tmp = tempfile::tempdir().unwrap();
    let source = quirk_file(tmp.path(), "as_core_design_wrote_it");
    let out = |name: &str| tmp.path().join(name);

    // Unedited import, then build.
    succeeds(&["import", "-q", s(&source), "-o", s(&out("all"))]);
    succeeds(&["build", "-q", s(&out("all")), "-o", s(&out("built.wad"))]);
    // build --base with LARA_SKIN alone, unedited.
    succeeds(&[
        "import",
        "-q",
        s(&source),
        "-o",
        s(&out("skin")),
        "--only",
        "LARA_SKIN",
    ]);
    let (skin, patched) = (out("skin"), out("patched.wad"));
    succeeds(&["build", "-q", s(&skin), "-o", s(&patched), "--base", s(&source)]);
    // An outfit copied in, an object removed, the file fixed.
    // The outfit: the standard LARA_SKIN with its head's first vertex moved.
    let mut outfit = wadforge_fixtures::standard();
    let skin = outfit.moveables.iter().find(|m| m.id == 8).unwrap();
    let head = skin.meshes[14];
    outfit.meshes[head].vertices[0][1] -= 20;
    let outfit = crate::common::files::write_wad(&out("outfit.wad"), &outfit);
    succeeds(&[
        "copy",
        s(&outfit),
        s(&source),
        "-o",
        s(&out("copied.wad")),
        "--only",
        "LARA_SKIN",
    ]);
    succeeds(&[
        "remove",
        s(&source),
        "-o",
        s(&out("removed.wad")),
        "--only",
        "CROCODILE",
    ]);
    succeeds(&["check", s(&source), "--fix", "-o", s(&out("fixed.wad"))]);

    for (name, named) in [
        ("built.wad", &[][..]),
        ("patched.wad", &[][..]),
        ("copied.wad", &["LARA_SKIN"][..]),
        ("removed.wad", &["CROCODILE"][..]),
        ("fixed.wad", &[][..]),
    ] {
        let written = out(name);
        // The document's count reads every animation without error, the undecodable ones as
        // none; wadblender opens the file.
        assert_read_as_the_game(&written);
        let document = wadforge_fixtures::document_reader::read(&std::fs::read(&written).unwrap()).unwrap();
        let baddy = document.iter().find(|m| m.id == 41).unwrap();
        let counts: Vec<usize> = (baddy.animations.iter())
            .map(|a| a.keyframes.as_ref().map_or(usize::MAX, |k| k.len()))
            .collect();
        assert_eq!(
            counts,
            [3, 2, 4, 0, 0, 0, 0, 0, 12, 2],
            "{name}: BADDY_1 by the document's count"
        );
        assert_eq!(differing_objects(&source, &written), named, "{name}");
    }
    // check names every animation no tool can decode, and says how it is kept.
    let report = succeeds(&["check", s(&out("built.wad"))]);
    let notes: Vec<&str> = (report.lines())
        .filter(|l| l.starts_with("note [undecodable-keyframes]"))
        .collect();
    assert_eq!(notes.len(), 5 + 1 + 3, "{report}");
    assert!(
        notes
            .iter()
            .filter(|l| l.contains("every reader skips it"))
            .count()
            == 6
            && notes
                .iter()
                .filter(|l| l.contains("kept only as stored, in their place"))
                .count()
                == 3,
        "{report}"
    );
}

#[test]
fn objects_added_to_a_file_go_before_the_object_whose_keyframes_run_past_the_data() {
    // ANIMATING6's last animations play past the keyframe data: the game reads on into what
    // follows. A crocodile copied in as ANIMATING7 (439, a higher id) goes before it, so
    // ANIMATING6's keyframes stay the file's last and it plays what it played.
    let tmp = tempfile::tempdir().unwrap();
    let source = quirk_file(tmp.path(), "as_core_design_wrote_it");
    let mut enemies = wadforge_fixtures::standard();
    enemies.moveables.iter_mut().find(|m| m.id == 51).unwrap().id = 439;
    let enemies = crate::common::files::write_wad(&tmp.path().join("enemies.wad"), &enemies);
    let copied = tmp.path().join("copied.wad");
    succeeds(&["copy", s(&enemies), s(&source), "-o", s(&copied), "--only", "439"]);
    // The same through build --base, from a manifest directory of the crocodile.
    let dir = tmp.path().join("croc");
    succeeds(&["import", "-q", s(&enemies), "-o", s(&dir), "--only", "439"]);
    let built = tmp.path().join("built.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&built), "--base", s(&source)]);
    for written in [&copied, &built] {
        assert_read_as_the_game(written);
        assert_eq!(
            differing_objects(&source, written),
            ["ANIMATING7"],
            "{}",
            written.display()
        );
        let ids: Vec<u32> = read(written).moveables.iter().map(|m| m.id).collect();
        assert_eq!(ids[ids.len() - 2..], [439, 437], "{}", written.display());
    }
}
