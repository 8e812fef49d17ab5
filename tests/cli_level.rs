//! Level files through the command line: TR1 levels are summarised, imported and built into a
//! WAD with the same objects; other games are refused with a clear message.

use wadforge_fixtures::compare::{
    differences_except_resampled, resampled_texel_distance, Resampled, Tolerance,
};
use wadforge_fixtures::levels::LevelFixture;
use wadforge_format::catalog::{self, Game};
use wadforge_format::{Mesh, Wad};

use crate::common::files::read;
use crate::common::{s, stderr, stdout, wadforge};

#[test]
fn a_tr1_level_is_summarised_with_tr1_names() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, wadforge_fixtures::levels::tr1_level()).unwrap();
    let o = wadforge(&["info", "--json", s(&level)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["format"], "TR1 level");
    // The text summary gives a level's version word in hex.
    let tr4 = tmp.path().join("ANGKOR1.TR4");
    std::fs::write(&tr4, wadforge_fixtures::levels::tr4_level()).unwrap();
    let o = wadforge(&["info", s(&tr4)]);
    let text = stdout(&o);
    assert!(text.contains("TR4 level version 0x00345254"), "{text}");
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
    for (name, fixture, game) in [
        ("LEVEL1.PHD", levels::tr1_fixture(), "TR1"),
        ("WALL.TR2", levels::tr2_fixture(), "TR2"),
        ("JUNGLE.TR2", levels::tr3_fixture(), "TR3"),
        ("ANGKOR1.TR4", levels::tr4_fixture(), "TR4"),
    ] {
        level_round_trip(name, &fixture, game);
    }
}

/// level → import → build: the same objects, and the skewed textures resampled to within one
/// texel position of the level's.
fn level_round_trip(name: &str, fixture: &LevelFixture, game: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join(name);
    std::fs::write(&level, &fixture.bytes).unwrap();
    let dir = tmp.path().join("dir");
    let o = wadforge(&["import", s(&level), "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let skewed = fixture.skewed.len();
    assert!(skewed > 0, "{name}: the fixture has a skewed texture");
    let note = format!("{skewed} polygons map their texture skewed");
    assert!(stdout(&o).contains(&note) || stderr(&o).contains(&note), "{name}");
    let project = wadforge_manifests::load(&dir).unwrap().project;
    assert_eq!(
        (project.game.as_str(), project.source.format.to_uppercase()),
        (game, game.to_string())
    );
    let out = tmp.path().join("level1.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let built = read(&out);
    // A WAD holds TR4's ids: each object in the slot the catalogue gives it there, one TR4 has
    // no slot for left out and named (as convert moves them).
    let level_game = Game::from_name(game).unwrap();
    let mut in_tr4 = fixture.model.clone();
    wadforge_edit::move_ids(&mut in_tr4, level_game, Game::Tr4, true, &[]).unwrap();
    for m in &fixture.model.moveables {
        let slot = catalog::moveable_slot(level_game, m.id);
        match catalog::moveable_in(level_game, m.id, Game::Tr4) {
            Some(id) => assert!(
                built.moveables.iter().any(|b| b.id == id),
                "{name}: {slot} in TR4's {id}"
            ),
            None => assert!(
                stderr(&o).contains(&format!("{slot} (moveable {}): TR4 has no moveable slot", m.id)),
                "{name}: {slot} left out and named: {}",
                stderr(&o)
            ),
        }
    }
    let model = &in_tr4;
    // Skewed polygons come back as they are (a quad stays a quad), each resampled; those of an
    // object left out are not in the WAD.
    let used: Vec<usize> = model
        .moveables
        .iter()
        .flat_map(|m| m.meshes.iter().copied())
        .chain(model.statics.iter().map(|s| s.mesh))
        .collect();
    let resampled: Vec<Resampled> = fixture
        .skewed
        .iter()
        .filter(|((mesh, _), _)| used.contains(mesh))
        .map(|((mesh, polygon), &corners)| (mesh, polygon, corners))
        .collect();
    let places: Vec<(usize, usize)> = resampled.iter().map(|r| (r.0, r.1)).collect();
    let d = differences_except_resampled(model, &built, Tolerance { normal: 1, angle: 0 }, &places);
    assert!(d.is_empty(), "{name}: {d:#?}");
    for &(mesh, polygon, corners) in &resampled {
        let level_mesh = &model.meshes[mesh];
        let sample = model.samples[level_mesh.polygons[polygon].texture.sample as usize];
        let distance = resampled_texel_distance(
            &model.pages[sample.page as usize],
            level_mesh,
            polygon,
            &corners,
            &built,
            built_mesh_of(model, &built, mesh),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            distance <= 1,
            "{name}: a resampled texel is {distance} texels off"
        );
    }
}

/// The built WAD's mesh in the place of the model's mesh `mesh` (same object id and joint).
fn built_mesh_of<'a>(model: &Wad, built: &'a Wad, mesh: usize) -> &'a Mesh {
    for m in &model.moveables {
        if let Some(joint) = m.meshes.iter().position(|&k| k == mesh) {
            let b = built
                .moveables
                .iter()
                .find(|b| b.id == m.id)
                .expect("the moveable is built");
            return &built.meshes[b.meshes[joint]];
        }
    }
    let s = model
        .statics
        .iter()
        .find(|s| s.mesh == mesh)
        .expect("an object uses the mesh");
    &built.meshes[built
        .statics
        .iter()
        .find(|b| b.id == s.id)
        .expect("the static is built")
        .mesh]
}

#[test]
fn a_broken_tr5_level_and_a_broken_tr4_level_are_refused_with_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let tr4 = wadforge_fixtures::levels::tr4_level();
    // TR5 levels are headed "TR4\0" too; their misc textiles are followed by 28 zero bytes. Here
    // empty level data is followed by zero bytes that are no level section.
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
        ("LEVEL.TRC", tr5, "follow the level's last section"),
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
