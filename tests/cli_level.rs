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
fn tr1_to_tr4_levels_import_and_build_into_a_wad_with_the_same_objects() {
    use wadforge_fixtures::levels;
    for (name, bytes, model, game) in [
        ("LEVEL1.PHD", levels::tr1_level(), levels::tr1_model(), "TR1"),
        ("WALL.TR2", levels::tr2_level(), levels::tr2_model(), "TR2"),
        ("JUNGLE.TR2", levels::tr3_level(), levels::tr3_model(), "TR3"),
        ("ANGKOR1.TR4", levels::tr4_level(), levels::tr4_model(), "TR4"),
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
fn a_tr5_level_and_a_broken_tr4_level_are_refused_with_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let tr4 = wadforge_fixtures::levels::tr4_level();
    // TR5 levels are headed "TR4\0" too; their misc textiles are followed by 28 zero bytes.
    let header_end = {
        let mut at = 10;
        for _ in 0..3 {
            at += 8 + u32::from_le_bytes(tr4[at + 4..at + 8].try_into().unwrap()) as usize;
        }
        at
    };
    let mut tr5 = tr4[..header_end].to_vec();
    tr5.extend([0u8; 96]);
    let mut cut = tr4.clone();
    cut.truncate(header_end + 20);
    for (name, bytes, expected) in [
        ("LEVEL.TRC", tr5, "TR5 levels"),
        ("CUT.TR4", cut, "level data chunk"),
    ] {
        let path = tmp.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = tmp.path().join(format!("{name}.out"));
        let o = wadforge(&["import", "-q", s(&path), "-o", s(&out)]);
        assert!(!o.status.success());
        let text = stderr(&o);
        assert!(text.contains(expected) && text.contains(name), "{name}: {text}");
        assert!(!out.exists(), "{name}: nothing is written");
    }
}
