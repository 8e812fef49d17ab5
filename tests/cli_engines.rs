//! What the engines need to differ, done by `convert` and listed (`docs/engines.md`): a classic
//! WAD's holsters (meshes 4 and 8 of 17) go to meshes 1 and 4 of 15 in a Tomb Engine Wad2 and
//! back, the shotgun's back weapon from mesh 14 to mesh 7 (200 units up, 20 back) and back, hair
//! stays as it is, and every object lands in its catalogue slot or is listed as left out.

use std::path::Path;

use wadforge_fixtures::engines::{
    self, BACK_GUN_SHIFT, CLASSIC_BACK_GUN, CLASSIC_HOLSTERS, TOMB_ENGINE_BACK_GUN, TOMB_ENGINE_HOLSTERS,
};
use wadforge_format::catalog::{self, Game};
use wadforge_format::{Moveable, Vertex, Wad};

use crate::common::files::write_wad;
use crate::common::{s, stderr, wadforge};

fn model_of(path: &Path) -> Wad {
    wadforge_format::open(&std::fs::read(path).unwrap())
        .unwrap()
        .model
}

fn moveable<'a>(wad: &'a Wad, game: Game, name: &str) -> &'a Moveable {
    let id = catalog::moveable_id(game, name).unwrap();
    (wad.moveables.iter())
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no {name} ({id})"))
}

/// The vertices of each mesh of `game`'s object `name` in `wad`.
fn meshes_of(wad: &Wad, game: Game, name: &str) -> Vec<Vec<Vertex>> {
    (moveable(wad, game, name).meshes.iter())
        .map(|&m| wad.meshes[m].vertices.clone())
        .collect()
}

/// Converts `input` into `out` (with `args`), and returns what it wrote to stderr.
fn convert(input: &Path, out: &Path, args: &[&str]) -> String {
    let o = wadforge(&[&["convert", s(input), s(out)], args].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
}

/// Every moveable of `source` (`from`'s ids) is in its `to` slot in `converted`, or listed in
/// `listed` as left out; returns how many were left out.
fn assert_in_slots_or_left_out(source: &Wad, from: Game, converted: &Wad, to: Game, listed: &str) -> usize {
    let mut left_out = 0;
    for m in &source.moveables {
        let name = catalog::moveable_slot(from, m.id);
        match catalog::moveable_in(from, m.id, to) {
            Some(id) => assert!(
                converted.moveables.iter().any(|c| c.id == id),
                "{name} is not in slot {id}"
            ),
            None => {
                let line = format!("{name} (moveable {}): {} has no moveable slot", m.id, to.name());
                assert!(listed.contains(&line), "no {line:?} in\n{listed}");
                left_out += 1;
            }
        }
    }
    assert_eq!(converted.moveables.len(), source.moveables.len() - left_out);
    left_out
}

fn shifted(vertices: &[Vertex], by: [i16; 3]) -> Vec<Vertex> {
    vertices.iter().map(|v| [0, 1, 2].map(|k| v[k] + by[k])).collect()
}

#[test]
fn a_classic_wads_holsters_and_back_weapon_move_where_tomb_engine_draws_them() {
    let tmp = tempfile::tempdir().unwrap();
    let source = engines::classic();
    let wad = write_wad(&tmp.path().join("classic.wad"), &source);
    let out = tmp.path().join("ten.wad2");
    let listed = convert(&wad, &out, &["--game", "ten"]);
    let converted = model_of(&out);
    assert_in_slots_or_left_out(&source, Game::Tr4, &converted, Game::Ten, &listed);

    let ([classic_left, classic_right], classic_count) = CLASSIC_HOLSTERS;
    let ([left, right], count) = TOMB_ENGINE_HOLSTERS;
    for name in ["LARA_HOLSTERS", "LARA_HOLSTERS_PISTOLS"] {
        let before = meshes_of(&source, Game::Tr4, name);
        let after = meshes_of(&converted, Game::Ten, name);
        assert_eq!((before.len(), after.len()), (classic_count, count), "{name}");
        assert_eq!(after[left], before[classic_left], "{name}: left holster");
        assert_eq!(after[right], before[classic_right], "{name}: right holster");
        let empty = (0..count).filter(|&i| i != left && i != right);
        assert!(empty.clone().all(|i| after[i].is_empty()), "{name}: {after:?}");
        let id = catalog::moveable_id(Game::Ten, name).unwrap();
        let line = format!("changed: {name} (moveable {id}): 17 meshes → 15: the holsters moved from meshes 4 and 8 to 1 and 4");
        assert!(listed.contains(&line), "no {line:?} in\n{listed}");
    }

    let gun = &meshes_of(&source, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN];
    let after = meshes_of(&converted, Game::Ten, "SHOTGUN_ANIM");
    assert_eq!(after[TOMB_ENGINE_BACK_GUN], shifted(gun, BACK_GUN_SHIFT));
    assert!(
        listed.contains("changed: SHOTGUN_ANIM (moveable 4): the back weapon moved from mesh 14 to mesh 7")
    );
    // One-handed weapons have no back weapon: UZI_ANIM keeps its meshes.
    assert_eq!(
        meshes_of(&converted, Game::Ten, "UZI_ANIM"),
        meshes_of(&source, Game::Tr4, "UZI_ANIM")
    );

    // Hair: the same meshes and links (both engines weld it to the same head vertices).
    assert_eq!(
        meshes_of(&converted, Game::Ten, "HAIR_PRIMARY"),
        meshes_of(&source, Game::Tr4, "HAIR")
    );
    assert_eq!(
        moveable(&converted, Game::Ten, "HAIR_PRIMARY").links,
        moveable(&source, Game::Tr4, "HAIR").links
    );
    assert!(!listed.contains("changed: HAIR"), "{listed}");
    for kept in [
        "LARA (moveable 0): kept as it is",
        "MESHSWAP1 (moveable 1100): kept as it is",
    ] {
        assert!(
            listed.contains(&format!("changed: {kept}")),
            "no {kept:?} in\n{listed}"
        );
    }
}

#[test]
fn a_tomb_engine_wad2s_holsters_and_back_weapon_go_where_the_classic_engine_draws_them() {
    let tmp = tempfile::tempdir().unwrap();
    let wad2 = tmp.path().join("ten.wad2");
    std::fs::write(&wad2, engines::tomb_engine_wad2()).unwrap();
    let source = model_of(&wad2);
    let out = tmp.path().join("classic.wad");
    let listed = convert(&wad2, &out, &[]);
    let converted = model_of(&out);
    let left_out = assert_in_slots_or_left_out(&source, Game::Ten, &converted, Game::Tr4, &listed);
    assert!(left_out >= 2, "HAIR_SECONDARY and MESHSWAP4: {listed}");

    let before = meshes_of(&source, Game::Ten, "LARA_HOLSTERS");
    let after = meshes_of(&converted, Game::Tr4, "LARA_HOLSTERS");
    let ([left, right], count) = CLASSIC_HOLSTERS;
    let ([ten_left, ten_right], ten_count) = TOMB_ENGINE_HOLSTERS;
    assert_eq!((before.len(), after.len()), (ten_count, count));
    assert_eq!(
        (&after[left], &after[right]),
        (&before[ten_left], &before[ten_right])
    );
    assert_eq!(after.iter().filter(|m| m.is_empty()).count(), count - 2);
    // The holsters hang where they hung (the classic holster object has no LARA to borrow from).
    let (origins_before, origins_after) = (
        moveable(&source, Game::Ten, "LARA_HOLSTERS").bind_origins(),
        moveable(&converted, Game::Tr4, "LARA_HOLSTERS").bind_origins(),
    );
    assert_eq!(
        (origins_after[left], origins_after[right]),
        (origins_before[ten_left], origins_before[ten_right])
    );
    assert!(
        listed.contains("changed: LARA_HOLSTERS (moveable 13): 15 meshes → 17"),
        "{listed}"
    );

    let gun = &meshes_of(&source, Game::Ten, "SHOTGUN_ANIM")[TOMB_ENGINE_BACK_GUN];
    let after = meshes_of(&converted, Game::Tr4, "SHOTGUN_ANIM");
    assert_eq!(after[CLASSIC_BACK_GUN], shifted(gun, BACK_GUN_SHIFT.map(|c| -c)));
    assert!(
        listed.contains("changed: SHOTGUN_ANIM (moveable 3): the back weapon moved from mesh 7 to mesh 14")
    );
    assert_eq!(
        meshes_of(&converted, Game::Tr4, "HAIR"),
        meshes_of(&source, Game::Ten, "HAIR_PRIMARY")
    );
}

#[test]
fn there_and_back_the_holsters_and_back_weapon_are_where_they_were() {
    let tmp = tempfile::tempdir().unwrap();
    let source = engines::classic();
    let wad = write_wad(&tmp.path().join("classic.wad"), &source);
    let ten = tmp.path().join("ten.wad2");
    convert(&wad, &ten, &["--game", "ten", "-q"]);
    let back = tmp.path().join("back.wad");
    let quiet = convert(&ten, &back, &["-q"]);
    assert!(!quiet.contains("changed:"), "--quiet lists nothing: {quiet}");
    let converted = model_of(&back);
    let ([left, right], count) = CLASSIC_HOLSTERS;
    for name in ["LARA_HOLSTERS", "LARA_HOLSTERS_PISTOLS"] {
        let (before, after) = (
            meshes_of(&source, Game::Tr4, name),
            meshes_of(&converted, Game::Tr4, name),
        );
        assert_eq!(after.len(), count);
        assert_eq!(
            (&after[left], &after[right]),
            (&before[left], &before[right]),
            "{name}"
        );
    }
    assert_eq!(
        meshes_of(&converted, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN],
        meshes_of(&source, Game::Tr4, "SHOTGUN_ANIM")[CLASSIC_BACK_GUN]
    );
    assert_eq!(
        meshes_of(&converted, Game::Tr4, "HAIR"),
        meshes_of(&source, Game::Tr4, "HAIR")
    );
}
