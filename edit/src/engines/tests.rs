use wadforge_format::catalog::{self, Game};
use wadforge_format::{Animation, Keyframe, Link, Mesh, Moveable, Rotation, Wad};

use super::{mesh_sources, reshape_for_engine, reshape_moveable};

/// A mesh told apart by its one vertex.
fn marked_mesh(mark: i16) -> Mesh {
    Mesh {
        vertices: vec![[mark, 10 * mark, -mark]],
        ..Mesh::default()
    }
}

/// A moveable of `game`'s slot `name` with `count` meshes, mesh `i` the wad's mesh `first + i`,
/// each hung 10·i units below the root, and one keyframe whose rotation `i` turns by `i`.
fn moveable(game: Game, name: &str, first: usize, count: usize) -> Moveable {
    Moveable {
        id: catalog::moveable_id(game, name).expect("a slot of the game"),
        meshes: (first..first + count).collect(),
        links: (1..count)
            .map(|i| Link {
                parent: 0,
                offset: [0, 10 * i as i32, 0],
            })
            .collect(),
        animations: vec![Animation {
            keyframes: vec![Keyframe {
                rotations: (0..count)
                    .map(|i| Rotation {
                        x: i as u16,
                        ..Rotation::default()
                    })
                    .collect(),
                ..Keyframe::default()
            }],
            ..Animation::default()
        }],
    }
}

/// A file holding `objects` (game, slot name, mesh count), each with meshes of its own marked
/// 100·(its position) + (mesh number).
fn file_of(objects: &[(Game, &str, usize)]) -> Wad {
    let mut wad = Wad::default();
    for (n, &(game, name, count)) in objects.iter().enumerate() {
        let first = wad.meshes.len();
        wad.meshes
            .extend((0..count).map(|i| marked_mesh(100 * n as i16 + i as i16)));
        wad.moveables.push(moveable(game, name, first, count));
    }
    wad
}

/// The marks of moveable `index`'s meshes, `None` for an empty mesh.
fn marks(wad: &Wad, index: usize) -> Vec<Option<i16>> {
    (wad.moveables[index].meshes.iter())
        .map(|&m| wad.meshes[m].vertices.first().map(|v| v[0]))
        .collect()
}

fn turns(wad: &Wad, index: usize) -> Vec<u16> {
    wad.moveables[index].animations[0].keyframes[0]
        .rotations
        .iter()
        .map(|r| r.x)
        .collect()
}

#[test]
fn classic_holsters_move_from_meshes_4_and_8_to_1_and_4_of_15() {
    let mut wad = file_of(&[(Game::Ten, "LARA_HOLSTERS_PISTOLS", 17)]);
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    let mut expected = vec![None; 15];
    expected[1] = Some(4);
    expected[4] = Some(8);
    assert_eq!(marks(&wad, 0), expected);
    let mut rotations = vec![0; 15];
    rotations[1] = 4;
    rotations[4] = 8;
    assert_eq!(turns(&wad, 0), rotations);
    assert_eq!(wad.moveables[0].links.len(), 14);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("LARA_HOLSTERS_PISTOLS (moveable 18): 17 meshes → 15"),
        "{lines:?}"
    );
}

#[test]
fn holsters_hang_from_laras_links_when_the_file_holds_lara() {
    let mut wad = file_of(&[(Game::Ten, "LARA", 15), (Game::Ten, "LARA_HOLSTERS", 17)]);
    wad.moveables[0].links[3].offset = [7, 8, 9];
    let lara_links = wad.moveables[0].links.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad.moveables[1].links, lara_links);
    assert!(lines.iter().any(|l| l.contains("LARA's links")), "{lines:?}");
}

#[test]
fn tomb_engine_holsters_go_back_to_meshes_4_and_8_of_17_where_they_were() {
    let mut wad = file_of(&[(Game::Tr4, "LARA_HOLSTERS_UZIS", 15)]);
    let before = wad.moveables[0].bind_origins();
    let lines = reshape_for_engine(&mut wad, Game::Ten, Game::Tr4);
    let mut expected = vec![None; 17];
    expected[4] = Some(1);
    expected[8] = Some(4);
    assert_eq!(marks(&wad, 0), expected);
    let after = wad.moveables[0].bind_origins();
    assert_eq!((after[4], after[8]), (before[1], before[4]));
    assert_eq!(lines.len(), 1, "{lines:?}");
}

#[test]
fn holsters_there_and_back_keep_their_meshes() {
    let mut wad = file_of(&[(Game::Ten, "LARA_HOLSTERS", 17)]);
    let holsters = (marks(&wad, 0)[4], marks(&wad, 0)[8]);
    reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    wad.moveables[0].id = catalog::moveable_id(Game::Tr4, "LARA_HOLSTERS").expect("TR4 slot");
    reshape_for_engine(&mut wad, Game::Ten, Game::Tr4);
    let back = marks(&wad, 0);
    assert_eq!(back.len(), 17);
    assert_eq!((back[4], back[8]), holsters);
}

#[test]
fn holsters_without_the_meshes_are_left_and_listed() {
    let mut wad = file_of(&[(Game::Ten, "LARA_HOLSTERS", 8)]);
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad, before);
    assert!(lines[0].contains("left as it is: 8 meshes"), "{lines:?}");
}

#[test]
fn the_back_weapon_moves_from_mesh_14_to_7_and_up_to_the_torso() {
    let mut wad = file_of(&[(Game::Ten, "SHOTGUN_ANIM", 15)]);
    let gun = wad.meshes[14].clone();
    let torso = wad.moveables[0].meshes[7];
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    let moveable = &wad.moveables[0];
    assert_eq!(moveable.meshes[14], torso);
    let moved = &wad.meshes[moveable.meshes[7]];
    let v = gun.vertices[0];
    assert_eq!(moved.vertices, vec![[v[0], v[1] - 200, v[2] - 20]]);
    assert_eq!(wad.meshes[14], gun, "the original mesh, perhaps shared, stays");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("SHOTGUN_ANIM (moveable 4): the back weapon moved from mesh 14 to mesh 7"));
}

#[test]
fn the_back_weapon_goes_back_to_mesh_14_where_it_was() {
    let mut wad = file_of(&[(Game::Ten, "CROSSBOW_ANIM", 15)]);
    let gun = wad.meshes[14].vertices.clone();
    reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    wad.moveables[0].id = catalog::moveable_id(Game::Tr4, "CROSSBOW_ANIM").expect("TR4 slot");
    reshape_for_engine(&mut wad, Game::Ten, Game::Tr4);
    let moveable = &wad.moveables[0];
    assert_eq!(wad.meshes[moveable.meshes[14]].vertices, gun);
    assert_eq!(moveable.meshes[7], 7);
}

#[test]
fn a_back_weapon_past_16_bits_is_left_and_listed() {
    let mut wad = file_of(&[(Game::Ten, "SHOTGUN_ANIM", 15)]);
    wad.meshes[14].vertices[0][1] = i16::MIN + 10;
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad, before);
    assert!(lines[0].contains("left as it is"), "{lines:?}");
}

#[test]
fn hair_and_one_handed_weapons_stay_as_they_are() {
    let mut wad = file_of(&[(Game::Ten, "HAIR_PRIMARY", 6), (Game::Ten, "PISTOLS_ANIM", 15)]);
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad, before);
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn lara_and_mesh_swaps_are_listed_as_kept() {
    let mut wad = file_of(&[(Game::Ten, "LARA", 15), (Game::Ten, "MESHSWAP2", 15)]);
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad, before);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("LARA (moveable 0): kept as it is"));
    assert!(lines[1].contains("--as MESHSWAP2=MESHSWAP_<ENEMY>"), "{lines:?}");
}

#[test]
fn between_classic_games_nothing_changes() {
    let mut wad = file_of(&[(Game::Tr4, "LARA_HOLSTERS", 17), (Game::Tr4, "SHOTGUN_ANIM", 15)]);
    let before = wad.clone();
    assert!(reshape_for_engine(&mut wad, Game::Tr4, Game::Tr4).is_empty());
    assert!(reshape_for_engine(&mut wad, Game::Tr3, Game::Tr4).is_empty());
    assert_eq!(wad, before);
}

#[test]
fn tr1s_back_shotgun_is_a_torso_and_is_left_and_listed_both_ways() {
    let mut wad = file_of(&[(Game::Ten, "SHOTGUN_ANIM", 15)]);
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr1, Game::Ten);
    assert_eq!(wad, before);
    assert!(
        lines[0].contains("kept as it is: TR1 carries the shotgun"),
        "{lines:?}"
    );
    wad.moveables[0].id = catalog::moveable_in(Game::Ten, wad.moveables[0].id, Game::Tr1).expect("TR1 slot");
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Ten, Game::Tr1);
    assert_eq!(wad, before);
    assert!(
        lines[0].contains("kept as it is: TR1 carries the shotgun"),
        "{lines:?}"
    );
}

#[test]
fn a_back_weapon_naming_no_mesh_is_left_and_listed() {
    let mut wad = file_of(&[(Game::Ten, "SHOTGUN_ANIM", 15)]);
    wad.moveables[0].meshes[14] = 99;
    let before = wad.clone();
    let lines = reshape_for_engine(&mut wad, Game::Tr4, Game::Ten);
    assert_eq!(wad, before);
    assert!(
        lines[0].contains("names mesh 99, but the file has 15 meshes"),
        "{lines:?}"
    );
}

#[test]
fn each_reshaped_mesh_names_the_mesh_it_came_from() {
    let mut wad = file_of(&[(Game::Tr4, "LARA_HOLSTERS", 17), (Game::Tr4, "SHOTGUN_ANIM", 15)]);
    for (index, name) in [(0, "LARA_HOLSTERS"), (1, "SHOTGUN_ANIM")] {
        wad.moveables[index].id = catalog::moveable_in(Game::Tr4, wad.moveables[index].id, Game::Ten)
            .unwrap_or_else(|| panic!("{name} has a Tomb Engine slot"));
    }
    let before: Vec<Vec<usize>> = wad.moveables.iter().map(|m| m.meshes.clone()).collect();
    for index in 0..2 {
        assert!(!reshape_moveable(&mut wad, index, Game::Tr4, Game::Ten).is_empty());
    }
    let holsters = mesh_sources(&wad, &before[0], &wad.moveables[0].meshes);
    let mut expected = vec![None; 15];
    (expected[1], expected[4]) = (Some(4), Some(8));
    assert_eq!(
        holsters, expected,
        "the holsters from 4 and 8, the empty meshes from nowhere"
    );
    let gun = mesh_sources(&wad, &before[1], &wad.moveables[1].meshes);
    let mut expected: Vec<Option<usize>> = (0..15).map(Some).collect();
    expected.swap(7, 14);
    assert_eq!(gun, expected, "the moved copy of the back weapon from mesh 14");
}
