//! `wadforge info` end to end: the binary on fixture WADs written to disk.

use wadforge_format::catalog;

use crate::common::files::{standard_wad, write_wad};
use crate::common::{s, stderr, stdout, wadforge, wadforge_command};

#[test]
fn info_lists_every_object_by_slot_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = standard_wad(dir.path());
    let output = wadforge(&["info", s(&path)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    let model = wadforge_fixtures::standard();
    assert!(text.contains("version 129"), "{text}");
    assert!(
        text.contains(&format!(
            "{} texture pages, {} samples",
            model.pages.len(),
            model.samples.len()
        )),
        "{text}"
    );
    for m in &model.moveables {
        let line = text
            .lines()
            .find(|l| {
                l.split_whitespace().next() == Some(&m.id.to_string())
                    && l.contains(&catalog::moveable_slot(catalog::Game::Tr4, m.id))
            })
            .unwrap_or_else(|| panic!("no line for moveable {} in\n{text}", m.id));
        assert!(line.contains(&m.animations.len().to_string()), "{line}");
    }
    assert!(text.contains("LARA_SKIN"), "{text}");
}

#[test]
fn info_json_matches_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let path = standard_wad(dir.path());
    let output = wadforge(&["info", "--json", s(&path)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--json prints JSON");
    let model = wadforge_fixtures::standard();
    assert_eq!(json["version"], 129);
    assert_eq!(json["pages"], model.pages.len());
    assert_eq!(json["samples"], model.samples.len());
    assert_eq!(json["polygons"], model.polygon_count());
    let moveables = json["moveables"].as_array().unwrap();
    assert_eq!(moveables.len(), model.moveables.len());
    for (j, m) in moveables.iter().zip(&model.moveables) {
        assert_eq!(j["id"], m.id);
        assert_eq!(j["slot"], catalog::moveable_slot(catalog::Game::Tr4, m.id));
        assert_eq!(j["meshes"], m.meshes.len());
        assert_eq!(j["animations"], m.animations.len());
        assert_eq!(
            j["keyframes"],
            m.animations.iter().map(|a| a.keyframes.len()).sum::<usize>()
        );
    }
    let statics = json["statics"].as_array().unwrap();
    assert_eq!(statics.len(), model.statics.len());
    for (j, s) in statics.iter().zip(&model.statics) {
        assert_eq!(j["id"], s.id);
        assert_eq!(j["polygons"], model.meshes[s.mesh].polygons.len());
    }
}

#[test]
fn info_on_a_damaged_file_names_the_file_section_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let path = standard_wad(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&path, &bytes).unwrap();
    let output = wadforge(&["info", s(&path)]);
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("standard.wad"), "{err}");
    assert!(err.contains("statics section, byte"), "{err}");
}

#[test]
fn info_on_a_missing_file_says_so() {
    let output = wadforge(&["info", "/nonexistent/x.wad"]);
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("cannot read /nonexistent/x.wad"), "{err}");
}

#[test]
fn info_into_a_closed_pipe_ends_quietly() {
    // `wadforge info FILE | head`: the reader closes the pipe before info writes (reading the
    // file comes first), so every write meets a broken pipe.
    let dir = tempfile::tempdir().unwrap();
    let path = write_wad(&dir.path().join("largest.wad"), &wadforge_fixtures::largest());
    for json in [false, true] {
        let mut command = wadforge_command();
        command.arg("info").arg(&path);
        if json {
            command.arg("--json");
        }
        let mut child = command
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = stderr(&output);
        assert!(stderr.is_empty(), "json {json}: {stderr}");
        assert!(output.status.success(), "json {json}: {:?}", output.status);
    }
}

#[test]
fn every_command_shows_an_example_and_names_all_level_formats() {
    for command in ["info", "import", "build", "diff"] {
        let output = wadforge(&[command, "--help"]);
        let help = stdout(&output);
        let example = help.contains("Example: wadforge ") || help.contains("Examples:\n  wadforge ");
        assert!(example, "{command}: {help}");
        assert!(!help.contains("TR1 level)"), "{command}: {help}");
    }
    let help = wadforge(&["import", "--help"]);
    assert!(stdout(&help).contains("TR1–TR4"));
}

#[test]
fn every_command_names_what_it_takes() {
    // Every command that reads objects reads Wad2 files; those that take folders say so.
    for (command, takes_folders) in [
        ("info", true),
        ("import", true),
        ("build", false),
        ("copy", false),
        ("remove", false),
        ("check", true),
        ("gallery", true),
        ("diff", true),
        ("convert", true),
    ] {
        let help = stdout(&wadforge(&[command, "--help"]));
        assert!(help.contains("Wad2"), "{command}: {help}");
        assert!(!takes_folders || help.contains("folders"), "{command}: {help}");
        assert!(
            !help.contains("WAD or level") && !help.contains("WADs or levels"),
            "{command}: {help}"
        );
    }
}
