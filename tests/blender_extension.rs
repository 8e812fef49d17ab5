//! The Blender extension (blender/wadforge, zipped by scripts/blender-extension.sh), installed in
//! bpy 5.0.1 as a user installs it and driven through its operators (tests/harness/
//! blender_extension.py): the real level imported and exported unchanged is the level's objects;
//! one bone turned in one keyframe changes that animation only; a real Wad2 comes back as itself
//! but for its textures; no wadforge program gives a message, not a traceback; a file dropped on
//! the 3D viewport imports through the extension; Blender's own validator finds no error in the zip.

use std::path::{Path, PathBuf};
use std::process::Command;

use wadforge_format::catalog::{self, Game};

use crate::common::extension::{extension_zip, finished, run_script};
use crate::common::files::{repo, write_wad};
use crate::common::{s, stdout, succeeds, wadforge};

/// Blender's command-line tool for extensions in the harness's bpy (what `blender --command
/// extension` runs), and Blender's list of the extensions platform's tags, which that command gives it.
fn blender_extension_tool(python: &Path) -> (PathBuf, PathBuf) {
    const TOOL: &str = "addons_core/bl_pkg/cli/blender_ext.py";
    let lib = python.parent().unwrap().parent().unwrap().join("lib");
    let scripts = children(&lib)
        .flat_map(|version| children(&version.join("site-packages/bpy")))
        .map(|blender| blender.join("scripts"))
        .find(|scripts| scripts.join(TOOL).is_file())
        .unwrap_or_else(|| panic!("the harness's bpy under {} has no {TOOL}", lib.display()));
    let tags = scripts.join("modules/_bpy_internal/extensions/tags.py");
    (scripts.join(TOOL), tags)
}

fn children(dir: &Path) -> impl Iterator<Item = PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
}

#[test]
fn the_extension_passes_blenders_own_validator() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let (tool, tags) = blender_extension_tool(&python);
    let zip = extension_zip();
    let out = Command::new(&python)
        .arg(&tool)
        .args(["validate", "--valid-tags", s(&tags), s(&zip)])
        .output()
        .unwrap();
    let said = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    // The zip's path aside, which could hold any word.
    let words = said.replace(s(&zip), "ZIP").to_lowercase();
    assert!(
        out.status.success() && words.contains("success") && !words.contains("error"),
        "Blender's extension validator on {}:\n{said}",
        zip.display()
    );
}

#[test]
fn a_file_dropped_on_the_viewport_imports_through_the_extension() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // Upper case, as TRLE's files often are: Blender's file handlers match extensions in any case.
    let model = wadforge_fixtures::standard();
    let file = write_wad(&tmp.path().join("STANDARD.WAD"), &model);
    let report = run_script(&python, "blender_extension.py", &file, tmp.path(), &["drop"]);
    let handler = &report["file_handler"];
    assert_eq!(handler["operator"], "import_scene.wadforge", "{handler}");
    let extensions: Vec<&str> = handler["extensions"]
        .as_array()
        .unwrap_or_else(|| panic!("the extension registers no file handler: {report}"))
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(extensions, [".wad", ".wad2", ".phd", ".tr2", ".tr4"]);
    // The 3D viewport and the Outliner take a drop, as the glTF add-on's do; other areas do not.
    let poll = &handler["poll"];
    assert_eq!(poll["VIEW_3D"], true, "{poll}");
    assert_eq!(poll["OUTLINER"], true, "{poll}");
    assert_eq!(poll["PROPERTIES"], false, "{poll}");
    // The drop imports as File > Import does: every object, into FILE_wadforge beside the file.
    finished(&report, "drop");
    let scene = &report["scene"];
    assert_eq!(
        scene["collections"].as_array().unwrap().len(),
        model.moveables.len() + model.statics.len(),
        "{scene}"
    );
    assert_eq!(scene["armatures"], model.moveables.len());
    let directory = tmp.path().join("STANDARD_wadforge");
    assert_eq!(report["directories"], serde_json::json!([s(&directory)]));
    assert_eq!(report["source"], s(&file));
}

#[test]
fn the_extension_imports_and_exports_the_real_level_as_it_is() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let level = repo().join("../shared/real/LEVEL2_DEMO.PHD");
    if !level.is_file() {
        eprintln!("skipped: {} is absent", level.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let report = run_script(
        &python,
        "blender_extension.py",
        &level,
        tmp.path(),
        &["wad", "000_", "5", "HIPS"],
    );
    assert_eq!(
        report["settings_match"], true,
        "the extension's glTF settings are the round trip's"
    );
    finished(&report, "import");
    // One collection and mesh object per object, one armature per moveable, one action per
    // animation, at 30 frames a second.
    let info: serde_json::Value = serde_json::from_str(&succeeds(&["info", "--json", s(&level)])).unwrap();
    let moveables = info["moveables"].as_array().unwrap();
    let statics = info["statics"].as_array().unwrap();
    let animations: u64 = moveables.iter().map(|m| m["animations"].as_u64().unwrap()).sum();
    let scene = &report["scene"];
    assert_eq!(
        scene["collections"].as_array().unwrap().len(),
        moveables.len() + statics.len()
    );
    assert_eq!(scene["armatures"], moveables.len());
    assert_eq!(scene["meshes"], moveables.len() + statics.len());
    assert_eq!(scene["actions"], animations);
    assert_eq!(scene["fps"], 30);
    // Unchanged: the level's objects in TR4's slots, every one identical; only those TR4 has no
    // slot for (left out of a WAD) differ.
    finished(&report, "export_unchanged");
    let unchanged = tmp.path().join("unchanged.wad");
    let diff: serde_json::Value =
        serde_json::from_str(&stdout(&wadforge(&["diff", "--json", s(&level), s(&unchanged)]))).unwrap();
    let no_slot = moveables
        .iter()
        .filter(|m| catalog::moveable_in(Game::Tr1, m["id"].as_u64().unwrap() as u32, Game::Tr4).is_none())
        .count();
    assert_eq!(
        diff["unmatched"].as_array().map_or(0, Vec::len),
        no_slot,
        "{diff:#}"
    );
    let objects = diff["objects"].as_array().unwrap();
    assert!(objects.iter().all(|o| o["identical"] == true), "{diff:#}");
    assert_eq!(objects.len() + no_slot, moveables.len() + statics.len());
    // One bone turned in one keyframe: that animation of LARA differs, nothing else.
    finished(&report, "export_edited");
    let edited = tmp.path().join("edited.wad");
    let diff: serde_json::Value =
        serde_json::from_str(&stdout(&wadforge(&["diff", "--json", s(&level), s(&edited)]))).unwrap();
    let differing: Vec<&serde_json::Value> = diff["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| !o["differences"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(differing.len(), 1, "{differing:#?}");
    assert_eq!(differing[0]["slot"], "LARA");
    for d in differing[0]["differences"].as_array().unwrap() {
        assert!(d.to_string().contains("animation 5,"), "{d}");
    }
    // Some objects: those --only names; the import panel lists every object to pick, by what
    // --only takes.
    finished(&report, "import_only");
    assert_eq!(report["only_collections"], 2);
    finished(&report, "export_only");
    // TR1's BAT takes TR4's BAT slot in the WAD; TR4 has no WOLF, so it is left out.
    let only: serde_json::Value =
        serde_json::from_str(&succeeds(&["info", "--json", s(&tmp.path().join("only.wad"))])).unwrap();
    let ids: Vec<u64> = only["moveables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    let bat = catalog::moveable_in(Game::Tr1, 9, Game::Tr4).expect("TR4 has a BAT");
    assert_eq!(ids, [u64::from(bat)]);
    let listed = report["listed"].as_array().unwrap();
    assert_eq!(listed.len(), moveables.len() + statics.len());
    assert!(
        listed.contains(&serde_json::json!(["WOLF (moveable 7)", "WOLF"])),
        "{listed:?}"
    );
    // No program: a message saying what to do, the operator cancelled, nothing written.
    for (step, says) in [
        ("missing_configured", "is not an executable file"),
        ("missing_on_path", "is not on PATH"),
    ] {
        let message = report[step]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(says) && !message.contains("Traceback"),
            "{step}: {message}"
        );
    }
    assert_eq!(report["never_written"], false);
}

#[test]
fn the_extension_exports_a_real_wad2_as_it_was_imported_or_as_edited() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let files = wadforge_fixtures::harness::real_wad2_files();
    let Some(file) = files.iter().find(|p| p.ends_with("TR2_Falling_Sandbag.wad2")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let report = run_script(&python, "blender_extension.py", file, tmp.path(), &["wad2"]);
    finished(&report, "import");
    finished(&report, "export_unchanged");
    let read = |p: &Path| wadforge_format::wad2::read_document(&std::fs::read(p).unwrap()).unwrap();
    wadforge_fixtures::wad2_compare::same_but_textures(
        &read(file),
        &read(&tmp.path().join("unchanged.wad2")),
    )
    .unwrap_or_else(|d| panic!("{d}"));
}
