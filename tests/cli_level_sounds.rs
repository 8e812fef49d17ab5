//! A level's own sounds travel: `convert LEVEL OUT.wad2 --game ten` writes the XML catalogue
//! beside it with the sounds its objects play under Tomb Engine's ids, and `import` of a level
//! writes `sounds.yaml`.

use wadforge_fixtures::levels::{tr1_level, TR1_PLAYED_SOUND, TR1_UNPLAYED_SOUND};
use wadforge_format::catalog::{self, Game};
use wadforge_format::sounds::xml;

use crate::common::{s, succeeds};

/// The id `game` gives TR1's sound `id`, by the catalogues.
fn id_in(game: Game, id: u16) -> u16 {
    let found = catalog::sound_in(Game::Tr1, u32::from(id), game)
        .unwrap_or_else(|| panic!("TR1 sound {id} has no {} id", game.name()));
    u16::try_from(found).unwrap()
}

#[test]
fn a_tr1_level_converted_to_tomb_engine_has_its_played_sounds_under_tens_ids_beside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, tr1_level()).unwrap();
    let out = tmp.path().join("out.wad2");
    succeeds(&["convert", s(&level), s(&out), "--game", "ten"]);
    let text = std::fs::read_to_string(out.with_extension("xml")).unwrap();
    let sounds = xml::read(&text).unwrap();
    let ids: Vec<u16> = sounds.sounds.keys().copied().collect();
    // Only the played sound travels, under TEN's id; the unplayed one stays behind.
    assert_eq!(ids, [id_in(Game::Ten, TR1_PLAYED_SOUND)]);
    assert_ne!(
        id_in(Game::Ten, TR1_PLAYED_SOUND),
        id_in(Game::Ten, TR1_UNPLAYED_SOUND)
    );
    let info = &sounds.sounds[&id_in(Game::Ten, TR1_PLAYED_SOUND)];
    assert_eq!(info.samples, ["LEVEL1_0.wav", "LEVEL1_1.wav"]);
    let ten_name = catalog::sound_name(Game::Ten, u32::from(id_in(Game::Ten, TR1_PLAYED_SOUND)));
    assert_eq!(info.name.as_deref(), ten_name);
}

#[test]
fn importing_a_tr1_level_writes_the_sounds_its_objects_play() {
    let tmp = tempfile::tempdir().unwrap();
    let level = tmp.path().join("LEVEL1.PHD");
    std::fs::write(&level, tr1_level()).unwrap();
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&level), "-o", s(&dir), "-q"]);
    let yaml = std::fs::read_to_string(dir.join("sounds.yaml")).unwrap();
    assert!(yaml.contains(&format!("\n  id: {TR1_PLAYED_SOUND}\n")), "{yaml}");
    assert!(
        !yaml.contains(&format!("\n  id: {TR1_UNPLAYED_SOUND}\n")),
        "{yaml}"
    );
    assert!(yaml.contains("LEVEL1_1.wav"), "{yaml}");
}
