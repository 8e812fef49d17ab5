//! What the engines need to differ, done on conversion and listed (`wadforge convert` between a
//! classic game's ids and Tomb Engine's): Lara's holster objects (17 meshes with the holsters at
//! 4 and 8 in the classic games, 15 with them at 1 and 4 in Tomb Engine) and the back weapon of
//! the two-handed weapons' animation objects (mesh 14 in the classic games, 7 in Tomb Engine),
//! as Tomb Editor's converter (`TombEngineConverter.ConvertMoveable`) reshapes them; and what
//! stays as it is but differs (Lara herself, the mesh-swap objects). Hair needs nothing: both
//! engines weld it to the same head vertices. The evidence: `docs/engines.md`.

mod back_guns;
mod holsters;

use wadforge_format::catalog::{self, Game};
use wadforge_format::{Link, Mesh, Rotation, Wad};

/// Which way objects go between the engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// From a classic game (TR1–TR4, TRLE, TRNG) into Tomb Engine.
    ToTombEngine,
    /// From Tomb Engine into a classic game.
    ToClassic,
}

impl Direction {
    /// The engine objects are written for, as lines name it.
    fn engine(self) -> &'static str {
        match self {
            Direction::ToTombEngine => "Tomb Engine",
            Direction::ToClassic => "the classic engine",
        }
    }
}

/// Reshapes the objects of `wad` (ids already of `written`'s catalogue: call after
/// [`crate::move_ids`]) that the engine of `written` needs other than the engine of `read` does,
/// and returns a line per object and difference: its slot and id, then what changed or, for what
/// differs but cannot be changed here, what stays and why. Between two classic games, or two
/// Tomb Engine files, nothing differs and nothing is listed.
pub fn reshape_for_engine(wad: &mut Wad, read: Game, written: Game) -> Vec<String> {
    (0..wad.moveables.len())
        .flat_map(|index| reshape_moveable(wad, index, read, written))
        .collect()
}

/// [`reshape_for_engine`] of moveable `index` of `wad` alone (its id already of `written`'s
/// catalogue): what `copy` does to each object it brings from a file of another engine. The
/// rest of `wad` is read (its LARA's links) and added to (an empty mesh, a moved copy of a
/// shared mesh), never changed.
pub fn reshape_moveable(wad: &mut Wad, index: usize, read: Game, written: Game) -> Vec<String> {
    let direction = match (read == Game::Ten, written == Game::Ten) {
        (false, true) => Direction::ToTombEngine,
        (true, false) => Direction::ToClassic,
        _ => return Vec::new(),
    };
    let Some(id) = wad.moveables.get(index).map(|m| m.id) else {
        return Vec::new();
    };
    let Some(name) = ten_name(written, id) else {
        return Vec::new();
    };
    let what = if holsters::is_holster(name) {
        holsters::reshape(wad, index, direction)
    } else if back_guns::carries_back_gun(name) {
        let classic = if direction == Direction::ToTombEngine {
            read
        } else {
            written
        };
        back_guns::reshape(wad, index, direction, classic)
    } else {
        kept_as_it_is(name, direction).into_iter().collect()
    };
    let label = format!("{} (moveable {id})", catalog::moveable_slot(written, id));
    what.into_iter().map(|w| format!("{label}: {w}")).collect()
}

/// Where each mesh of a moveable reshaped by [`reshape_moveable`] came from: its mesh list
/// `before` and `after`, in `wad` after. A mesh still there keeps its place in `before`; a new
/// mesh that is not empty (the back weapon, moved on a copy) came from the place in `before` whose
/// mesh is gone, in order; an empty one from nowhere. For the detail a Wad2 holds per mesh.
pub fn mesh_sources(wad: &Wad, before: &[usize], after: &[usize]) -> Vec<Option<usize>> {
    let mut gone = (0..before.len()).filter(|&j| !after.contains(&before[j]));
    (after.iter())
        .map(|mesh| match before.iter().position(|m| m == mesh) {
            Some(j) => Some(j),
            None => {
                let empty =
                    (wad.meshes.get(*mesh)).is_none_or(|m| m.vertices.is_empty() && m.polygons.is_empty());
                if empty {
                    None
                } else {
                    gone.next()
                }
            }
        })
        .collect()
}

/// The Tomb Engine name of `game`'s moveable slot `id`: its own name in Tomb Engine, the
/// catalogue's counterpart in a classic game.
fn ten_name(game: Game, id: u32) -> Option<&'static str> {
    match game {
        Game::Ten => catalog::moveable_name(game, id),
        _ => catalog::ten_name(game, id),
    }
}

/// What differs between the engines for an object that conversion leaves as it is.
fn kept_as_it_is(name: &str, direction: Direction) -> Option<String> {
    match (name, direction) {
        // Tomb Editor puts its reference Wad2's LARA in place of a classic one: Tomb Engine's
        // LARA has animations and states a classic one lacks. wadforge carries no such file.
        ("LARA", Direction::ToTombEngine) => Some(
            "kept as it is: Tomb Engine expects its own LARA (animations and states a classic LARA lacks); \
             Tomb Editor's converter puts in the one of its reference Wad2 (TombEngine.wad2), which wadforge \
             does not carry: copy it from there"
                .to_owned(),
        ),
        ("MESHSWAP1" | "MESHSWAP2" | "MESHSWAP3", Direction::ToTombEngine) => Some(format!(
            "kept as it is: classic enemies (BADDY_1, VON_CROY, MONKEY, ...) take their swapped meshes from \
             MESHSWAP1-3, Tomb Engine's from their own slots (MESHSWAP_BADDY1, MESHSWAP_MAFIA2, ...); if this \
             one serves an enemy, convert again with --as {name}=MESHSWAP_<ENEMY>"
        )),
        _ => None,
    }
}

/// Gives moveable `index` of `wad` new meshes: mesh `i` becomes its old mesh `sources[i]`, or an
/// empty mesh for `None`, hung by `links`; every decoded keyframe's rotations follow the meshes
/// (an empty mesh's is zero). Returns how many animations keep keyframe words that do not decode
/// (as stored: no pose to move).
fn remesh(wad: &mut Wad, index: usize, sources: &[Option<usize>], links: Vec<Link>) -> usize {
    let empty = sources.iter().any(Option::is_none).then(|| empty_mesh(wad));
    let moveable = &mut wad.moveables[index];
    let old = moveable.meshes.clone();
    moveable.meshes = (sources.iter())
        .map(|s| s.and_then(|s| old.get(s).copied()).or(empty).unwrap_or_default())
        .collect();
    moveable.links = links;
    let mut undecoded = 0;
    for animation in &mut moveable.animations {
        undecoded += usize::from(animation.keyframes.is_empty() && animation.undecodable_keyframes.is_some());
        for keyframe in &mut animation.keyframes {
            let rotations = std::mem::take(&mut keyframe.rotations);
            keyframe.rotations = (sources.iter())
                .map(|s| {
                    s.and_then(|s| rotations.get(s).copied())
                        .unwrap_or(Rotation::default())
                })
                .collect();
        }
    }
    undecoded
}

/// The index of a mesh with no vertices and no polygons in `wad`, added when there is none: what
/// an object holds where the engine draws nothing.
fn empty_mesh(wad: &mut Wad) -> usize {
    match (wad.meshes.iter()).position(|m| m.vertices.is_empty() && m.polygons.is_empty()) {
        Some(index) => index,
        None => {
            wad.meshes.push(Mesh::default());
            wad.meshes.len() - 1
        }
    }
}

#[cfg(test)]
mod tests;
