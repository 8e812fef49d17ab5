//! The dressing rule across the Wad2 codec: a WAD written as a Wad2 and read back dresses the
//! same skeletons.

use wadforge_format::catalog::Game;
use wadforge_format::dressing::dressings;
use wadforge_format::Wad;

fn index(wad: &Wad, id: u32) -> usize {
    wad.moveables
        .iter()
        .position(|m| m.id == id)
        .expect("the moveable is there")
}

#[test]
fn a_wad_written_as_a_wad2_and_read_back_dresses_the_same_skeletons_in_the_same_meshes() {
    // Tomb Editor writes each object's meshes whole: LARA's placeholders become fifteen copies of
    // LARA_SKIN's thigh, which the reader makes one mesh again.
    let wad = wadforge_fixtures::tr4_shaped();
    let written = wadforge_format::wad2::from_model(&wad, &Default::default(), Game::Tr4).unwrap();
    let read = wadforge_format::wad2::to_model(&written.document).unwrap().model;
    let before = dressings(&wad, Game::Tr4);
    let after = dressings(&read, Game::Tr4);
    assert!(before.iter().any(Option::is_some), "the fixture dresses LARA");
    assert_eq!(after, before);
    let lara = index(&read, 0);
    let placeholders = &read.moveables[lara].meshes;
    assert!(
        placeholders.iter().all(|&m| m == placeholders[0]),
        "{placeholders:?}"
    );
    assert!(read.moveables[index(&read, 8)].meshes.contains(&placeholders[0]));
    // Every object shows the same meshes as in the WAD, one mesh of the model for each mesh
    // the WAD shares (compared without the sphere flag word and attribute bit 7, which a Wad2
    // cannot hold, and sample numbers, which reading a Wad2 gives afresh).
    let unflagged = |w: &Wad, m: usize| {
        let mut mesh = w.meshes[m].clone();
        mesh.sphere.flag = 0;
        for p in &mut mesh.polygons {
            p.texture.sample = 0;
            p.attributes.unknown_bit = false;
        }
        mesh
    };
    for (a, b) in wad.moveables.iter().zip(&read.moveables) {
        for (&m, &n) in a.meshes.iter().zip(&b.meshes) {
            assert_eq!(unflagged(&wad, m), unflagged(&read, n), "moveable {}", a.id);
        }
    }
    assert!(
        read.meshes.len() <= wad.meshes.len(),
        "{} > {}",
        read.meshes.len(),
        wad.meshes.len()
    );
}
