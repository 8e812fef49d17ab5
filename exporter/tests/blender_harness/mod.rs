//! What the Blender tests share: the harness's Python, importing a fixture, running a harness
//! script, editing a glTF in Blender as an artist would, building, and comparing strictly.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;

use wadforge_format::catalog::Game;
use wadforge_format::Wad;
use wadforge_importer::ImportOptions;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn python() -> PathBuf {
    wadforge_fixtures::harness::python().expect("the harness's Python: test with harness_ready() first")
}

/// Whether Blender is installed (each test returns early, saying so, when not).
pub fn harness_ready() -> bool {
    wadforge_fixtures::harness::python().is_some()
}

pub fn import(model: &Wad) -> tempfile::TempDir {
    import_game(model, Game::Tr4)
}

/// Imports with `game`'s catalogue, as a level of that game is imported.
pub fn import_game(model: &Wad, game: Game) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::wad("fixture.wad", 129);
    options.game = game;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    dir
}

pub fn run(script: &str, args: &[String]) -> serde_json::Value {
    let output = Command::new(python())
        .arg(repo().join("tests/harness").join(script))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .rev()
            .take(25)
            .collect::<Vec<_>>()
            .join("\n")
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Edits `KIND/FILE` (`moveables` or `statics`) of the directory in Blender with
/// `blender_edit.py OPTIONS` and exports it over the original; returns the script's report.
pub fn edit_file_in_blender(dir: &Path, kind: &str, file: &str, options: &[&str]) -> serde_json::Value {
    let glb = dir.join(kind).join(file);
    let edited = glb.with_extension("edited.glb");
    let mut args = vec![
        glb.to_string_lossy().into_owned(),
        edited.to_string_lossy().into_owned(),
    ];
    args.extend(options.iter().map(|o| o.to_string()));
    let report = run("blender_edit.py", &args);
    std::fs::rename(&edited, &glb).unwrap();
    report
}

/// Edits `moveables/FILE` of the directory in Blender with `blender_edit.py OPTIONS` and exports it
/// over the original, as an artist saves their work; returns the script's report.
pub fn edit_in_blender(dir: &Path, file: &str, options: &[&str]) -> serde_json::Value {
    edit_file_in_blender(dir, "moveables", file, options)
}

/// Every glTF of the directory replaced by Blender's own export of it.
pub fn through_blender(dir: &Path) {
    let mut args = vec!["--batch".to_string()];
    let mut renames = Vec::new();
    for kind in ["moveables", "statics"] {
        // A file without statics (or moveables) has no directory for them.
        let Ok(entries) = std::fs::read_dir(dir.join(kind)) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "glb") {
                let out = p.with_extension("blender.glb");
                args.push(p.to_string_lossy().into_owned());
                args.push(out.to_string_lossy().into_owned());
                renames.push((out, p));
            }
        }
    }
    let report = run("blender_roundtrip.py", &args);
    for entry in report.as_array().unwrap() {
        assert!(
            entry["missing_keywords"].as_array().is_none_or(|m| m.is_empty()),
            "{entry}"
        );
    }
    for (from, to) in renames {
        std::fs::rename(from, to).unwrap();
    }
}

pub fn build(dir: &Path) -> wadforge_exporter::BuildOutput {
    let manifests = wadforge_manifests::load(dir).unwrap();
    wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}
/// `wadforge diff` with angles within 1 unit (Blender's float noise), everything else exact.
pub fn strict_differences(expected: &Wad, actual: &Wad) -> wadforge_diff::Report {
    let options = wadforge_diff::Options {
        angle_tolerance: 1,
        ..Default::default()
    };
    wadforge_diff::diff(expected, actual, &options)
}

pub fn assert_identical(name: &str, expected: &Wad, actual: &Wad) {
    let report = strict_differences(expected, actual);
    assert!(
        report.is_identical(),
        "{name}: {}\n{}",
        report.summary(),
        report.differing_text(5)
    );
}
