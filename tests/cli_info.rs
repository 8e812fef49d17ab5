//! `wadforge info` end to end: the binary on fixture WADs written to disk.

use std::process::Command;

use wadforge_format::{catalog, wad};

fn wadforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wadforge"))
}

fn standard_file(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("standard.wad");
    std::fs::write(&path, wad::write(&wadforge_fixtures::standard(), None).unwrap()).unwrap();
    path
}

#[test]
fn info_lists_every_object_by_slot_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = standard_file(&dir);
    let output = wadforge().arg("info").arg(&path).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
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
    let path = standard_file(&dir);
    let output = wadforge().args(["info", "--json"]).arg(&path).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
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
    let path = standard_file(&dir);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&path, &bytes).unwrap();
    let output = wadforge().arg("info").arg(&path).output().unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("standard.wad"), "{err}");
    assert!(err.contains("statics section, byte"), "{err}");
}

#[test]
fn info_on_a_missing_file_says_so() {
    let output = wadforge().args(["info", "/nonexistent/x.wad"]).output().unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(err.contains("cannot read /nonexistent/x.wad"), "{err}");
}

#[test]
fn info_into_a_closed_pipe_ends_quietly() {
    // `wadforge info FILE | head`: the reader closes the pipe before info writes (reading the
    // file comes first), so every write meets a broken pipe.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("largest.wad");
    std::fs::write(&path, wad::write(&wadforge_fixtures::largest(), None).unwrap()).unwrap();
    for json in [false, true] {
        let mut command = wadforge();
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
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.is_empty(), "json {json}: {stderr}");
        assert!(output.status.success(), "json {json}: {:?}", output.status);
    }
}

#[test]
fn every_command_shows_an_example_and_names_all_level_formats() {
    for command in ["info", "import", "build", "diff"] {
        let output = wadforge().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("Example: wadforge "), "{command}: {help}");
        assert!(!help.contains("TR1 level)"), "{command}: {help}");
    }
    let help = wadforge().args(["import", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("TR1–TR4"));
}
