//! The dressing rule: which moveables a skeleton wears.

use wadforge_model::catalog::Game;
use wadforge_model::dressing::{dressings, worn_body, Dressing};
use wadforge_model::Wad;

fn index(wad: &Wad, id: u32) -> usize {
    wad.moveables
        .iter()
        .position(|m| m.id == id)
        .expect("the moveable is there")
}

#[test]
fn tr4_lara_wears_lara_skin_and_its_joints_and_no_one_else_is_dressed() {
    let wad = wadforge_fixtures::standard();
    let (lara, skin, joints) = (index(&wad, 0), index(&wad, 8), index(&wad, 9));
    let d = dressings(&wad, Game::Tr4);
    let dressed: Vec<usize> = (0..d.len()).filter(|&i| d[i].is_some()).collect();
    assert_eq!(dressed, [lara]);
    assert_eq!(
        d[lara],
        Some(Dressing {
            body: skin,
            joints: Some(joints)
        })
    );
    assert!(std::ptr::eq(
        worn_body(&wad, &wad.moveables[lara], d[lara]),
        &wad.moveables[skin]
    ));
    let shown: Vec<usize> = d[lara].unwrap().meshes(&wad).collect();
    let expected: Vec<usize> = [skin, joints]
        .iter()
        .flat_map(|&i| wad.moveables[i].meshes.clone())
        .collect();
    assert_eq!(shown, expected);
}

#[test]
fn tr3_lara_wears_lara_true_appearance() {
    let wad = wadforge_fixtures::levels::tr3_fixture().model;
    let d = dressings(&wad, Game::Tr3);
    assert_eq!(
        d[index(&wad, 0)],
        Some(Dressing {
            body: index(&wad, 315),
            joints: None
        })
    );
}

#[test]
fn a_skeleton_with_meshes_of_its_own_or_another_mesh_count_stays_undressed() {
    let mut own = wadforge_fixtures::standard();
    let lara = index(&own, 0);
    // Meshes no other object shows, each different: hers, not placeholders.
    let first = own.meshes.len();
    let count = own.moveables[lara].meshes.len();
    own.meshes
        .extend(std::iter::repeat_n(own.meshes[0].clone(), count));
    own.moveables[lara].meshes = (first..first + count).collect();
    assert_eq!(dressings(&own, Game::Tr4)[lara], None);
    assert!(std::ptr::eq(
        worn_body(&own, &own.moveables[lara], None),
        &own.moveables[lara]
    ));

    let mut fewer = wadforge_fixtures::standard();
    let skin = index(&fewer, 8);
    fewer.moveables[skin].meshes.pop();
    assert_eq!(dressings(&fewer, Game::Tr4)[lara], None);
}
