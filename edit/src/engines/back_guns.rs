//! The back weapon of the two-handed weapons' animation objects: the classic engines draw the
//! weapon on Lara's back from mesh 14 (the head's pivot) of the weapon's animation object, Tomb
//! Engine from mesh 7 (the torso's). Tomb Editor's converter swaps the two meshes and moves the
//! back weapon's vertices 200 units up and 20 back, from the head's pivot to the torso's
//! (`TombEngineConverter.ConvertMoveable`, in Wad2 space: Y up, so −200 in TR's Y-down units).

use wadforge_format::catalog::Game;
use wadforge_format::{Mesh, Wad};

use super::Direction;

/// Tomb Engine's names of the objects whose mesh carries the weapon on Lara's back.
const BACK_GUN_OBJECTS: [&str; 6] = [
    "SHOTGUN_ANIM",
    "CROSSBOW_ANIM",
    "HK_ANIM",
    "HARPOON_ANIM",
    "GRENADE_ANIM",
    "ROCKET_ANIM",
];

/// The back weapon's mesh in the classic engines, and in Tomb Engine.
const CLASSIC_MESH: usize = 14;
const TOMB_ENGINE_MESH: usize = 7;
/// How far the back weapon's vertices move from the classic layout to Tomb Engine's (TR units,
/// +Y down).
const TO_TOMB_ENGINE: [i16; 3] = [0, -200, -20];

/// Whether `ten_name` (a slot's Tomb Engine name) is an object whose mesh carries a back weapon.
pub(super) fn carries_back_gun(ten_name: &str) -> bool {
    BACK_GUN_OBJECTS.contains(&ten_name)
}

/// Swaps the back weapon of moveable `index` into the mesh the written engine draws it from,
/// moved to that mesh's pivot, and says what it did, or why it left the object as it is (as when
/// the `classic` game is TR1, which has no back weapon mesh). The links and keyframes stay: in
/// both engines meshes 7 and 14 hang at the torso's and the head's pivots.
pub(super) fn reshape(wad: &mut Wad, index: usize, direction: Direction, classic: Game) -> Vec<String> {
    if classic == Game::Tr1 {
        // TRX's `Gun_SetLaraBackMesh`: TR1 swaps Lara's torso for the object's (`LM_TORSO`).
        return vec![format!(
            "kept as it is: TR1 carries the shotgun on Lara's back as a whole torso (mesh {TOMB_ENGINE_MESH}, swapped \
             for hers), not as a mesh of its own at mesh {CLASSIC_MESH} as TR2-TR4 do; Tomb Engine draws mesh \
             {TOMB_ENGINE_MESH} as the weapon alone: cut the weapon out of that torso by hand"
        )];
    }
    let (from, to, shift) = match direction {
        Direction::ToTombEngine => (CLASSIC_MESH, TOMB_ENGINE_MESH, TO_TOMB_ENGINE),
        Direction::ToClassic => (TOMB_ENGINE_MESH, CLASSIC_MESH, TO_TOMB_ENGINE.map(|c| -c)),
    };
    let meshes = &wad.moveables[index].meshes;
    if meshes.len() <= CLASSIC_MESH {
        return vec![format!(
            "left as it is: {} meshes, so no mesh {CLASSIC_MESH} (the engines draw the back weapon from mesh \
             {CLASSIC_MESH} or {TOMB_ENGINE_MESH} of 15)",
            meshes.len()
        )];
    }
    let (gun, other) = (meshes[from], meshes[to]);
    let Some(mesh) = wad.meshes.get(gun) else {
        return vec![format!(
            "left as it is: its mesh {from} names mesh {gun}, but the file has {} meshes; the source is damaged \
             (run wadforge check on it)",
            wad.meshes.len()
        )];
    };
    let Some(moved) = shifted(mesh, shift) else {
        return vec![format!(
            "left as it is: the back weapon (mesh {from}) would lie past TR's 16-bit coordinates once moved \
             by {shift:?}; move it nearer its pivot and convert again"
        )];
    };
    wad.meshes.push(moved);
    let moveable = &mut wad.moveables[index];
    moveable.meshes[to] = wad.meshes.len() - 1;
    moveable.meshes[from] = other;
    vec![format!(
        "the back weapon moved from mesh {from} to mesh {to} (where {} draws it), its vertices by {shift:?} to \
         that mesh's pivot; mesh {to}'s old mesh is now mesh {from}",
        direction.engine()
    )]
}

/// A copy of `mesh` (the original may be shared) with its vertices and sphere moved by `shift`;
/// `None` when a coordinate would leave 16 bits.
fn shifted(mesh: &Mesh, shift: [i16; 3]) -> Option<Mesh> {
    let add = |v: [i16; 3]| -> Option<[i16; 3]> {
        Some([
            v[0].checked_add(shift[0])?,
            v[1].checked_add(shift[1])?,
            v[2].checked_add(shift[2])?,
        ])
    };
    let mut moved = mesh.clone();
    for vertex in &mut moved.vertices {
        *vertex = add(*vertex)?;
    }
    moved.sphere.center = add(moved.sphere.center)?;
    Some(moved)
}
