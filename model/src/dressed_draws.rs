//! What the objects of an import (or a gallery) draw, dressing included, checked before any
//! object is made.
//!
//! The readers bound how often objects draw the file's meshes through their own mesh pointers.
//! A dressed moveable shows another's meshes too (TR4's LARA wears LARA_SKIN), which no pointer
//! counts: 65 000 moveables of Lara's id on one empty mesh, each dressed in a 64 000-polygon body
//! (a 2 MB WAD), would have an import write 4 billion polygons. So the objects may draw, dressed,
//! at most what [`Limits::dressed_draws`] allows for the vertices and polygons the file's meshes
//! hold (each mesh counting one more).

use crate::catalog::Game;
use crate::dressing::Dressing;
use crate::{Limits, ObjectKind, ObjectName, TooMuchAt};
use crate::{MeshIndex, Moveable, Wad};

/// The meshes `m` draws dressed in `dressing`: its own (a dressed skeleton's placeholders are
/// written too), its body's and its body's joints'.
pub fn drawn_meshes<'w>(
    wad: &'w Wad,
    m: &'w Moveable,
    dressing: Option<Dressing>,
) -> impl Iterator<Item = MeshIndex> + 'w {
    let dressed = dressing.into_iter().flat_map(move |d| d.meshes(wad));
    m.meshes.iter().copied().chain(dressed)
}

/// Checks what `objects` (each object's name and the meshes it draws) draw, in order.
pub fn draws_fit(
    wad: &Wad,
    objects: impl IntoIterator<Item = (String, Vec<MeshIndex>)>,
) -> Result<(), TooMuchAt> {
    let weight = |k: usize| {
        wad.meshes
            .get(k)
            .map_or(1, |m| 1 + m.vertices.len() + m.polygons.len())
    };
    let stored: usize = (0..wad.meshes.len()).map(weight).sum();
    let mut drawn = 0usize;
    for (object, meshes) in objects {
        drawn = meshes.into_iter().map(weight).fold(drawn, usize::saturating_add);
        if let Err(too_much) = Limits::DEFAULT.dressed_draws.check(drawn as u64, stored as u64) {
            return Err(TooMuchAt { object, too_much });
        }
    }
    Ok(())
}

/// Checks what the objects of `wad` (whose ids `game`'s catalogue names) draw in a picture each,
/// dressed in `dressings` (see [`crate::dressing::dressings`]), against what the file's meshes
/// allow.
pub fn dressed_draws_fit(wad: &Wad, game: Game, dressings: &[Option<Dressing>]) -> Result<(), TooMuchAt> {
    let moveables = wad.moveables.iter().enumerate().map(|(i, m)| {
        let dressing = dressings.get(i).copied().flatten();
        let name = ObjectName::new(game, ObjectKind::Moveable, m.id).to_string();
        (name, drawn_meshes(wad, m, dressing).collect())
    });
    let statics = wad.statics.iter().map(|s| {
        let name = ObjectName::new(game, ObjectKind::Static, s.id).to_string();
        (name, vec![s.mesh])
    });
    draws_fit(wad, moveables.chain(statics))
}
