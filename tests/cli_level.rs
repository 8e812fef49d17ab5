//! Level files through the command line: TR1 levels are summarised, imported and built into a
//! WAD with the same objects; other games are refused with a clear message.

use std::path::Path;
use std::process::{Command, Output};

use wadforge_fixtures::compare::{differences, Tolerance};

fn wadforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wadforge"))
        .args(args)
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_tr1_level_is_summarised_with_tr1_names() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, wadforge_fixtures::levels::tr1_level()).unwrap();
    let o = wadforge(&["info", "--json", s(&level)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["format"], "TR1 level");
    let model = wadforge_fixtures::levels::tr1_model();
    let moveables = json["moveables"].as_array().unwrap();
    assert_eq!(moveables.len(), model.moveables.len());
    for (j, m) in moveables.iter().zip(&model.moveables) {
        assert_eq!(
            j["slot"],
            wadforge_format::catalog::moveable_slot(wadforge_format::catalog::Game::Tr1, m.id)
        );
    }
}

#[test]
fn tr1_to_tr3_levels_import_and_build_into_a_wad_with_the_same_objects() {
    use wadforge_fixtures::levels;
    for (name, bytes, model, game) in [
        ("LEVEL1.PHD", levels::tr1_level(), levels::tr1_model(), "TR1"),
        ("WALL.TR2", levels::tr2_level(), levels::tr2_model(), "TR2"),
        ("JUNGLE.TR2", levels::tr3_level(), levels::tr3_model(), "TR3"),
    ] {
        level_round_trip(name, &bytes, &model, game);
    }
}

fn level_round_trip(name: &str, bytes: &[u8], model: &wadforge_format::Wad, game: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join(name);
    std::fs::write(&level, bytes).unwrap();
    let dir = tmp.path().join("dir");
    let o = wadforge(&["import", "-q", s(&level), "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let project = wadforge_manifests::load(&dir).unwrap().project;
    assert_eq!(
        (project.game.as_str(), project.source.format.to_uppercase()),
        (game, game.to_string())
    );
    let out = tmp.path().join("level1.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (built, _) = wadforge_format::wad::read(&std::fs::read(&out).unwrap()).unwrap();
    let d = differences(model, &built, Tolerance { normal: 1, angle: 0 });
    assert!(d.is_empty(), "{name}: {d:#?}");
}

#[test]
fn levels_of_other_games_are_refused_until_supported() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, version) in [
        // TR2 and TR3 levels are read now.
        ("LEVEL.TR4", u32::from_le_bytes(*b"TR4\0")),
        ("LEVEL4C.TR4", u32::from_le_bytes(*b"TR4c")),
    ] {
        let path = tmp.path().join(name);
        let mut bytes = version.to_le_bytes().to_vec();
        bytes.extend([0u8; 64]);
        std::fs::write(&path, bytes).unwrap();
        let o = wadforge(&["import", "-q", s(&path), "-o", s(&tmp.path().join("out"))]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("not supported yet"), "{name}: {}", stderr(&o));
    }
}
