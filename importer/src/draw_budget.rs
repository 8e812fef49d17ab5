//! What the objects of an import (or a gallery) draw, dressing included, checked before any
//! object is made.
//!
//! The readers bound how often objects draw the file's meshes through their own mesh pointers.
//! A dressed moveable shows another's meshes too (TR4's LARA wears LARA_SKIN), which no pointer
//! counts: 65 000 moveables of Lara's id on one empty mesh, each dressed in a 64 000-polygon body
//! (a 2 MB WAD), would have an import write 4 billion polygons. So the objects may draw, dressed,
//! at most [`DRAWS_PER_STORED`] times the vertices and polygons the file's meshes hold (each
//! mesh drawn counting one more), plus [`SLACK`]; real files draw theirs about once over, and a
//! dressed Lara twice over her body.

use wadforge_format::{Moveable, Wad};

use crate::Dressing;

/// How many times over the objects may draw the file's meshes, dressing included.
pub const DRAWS_PER_STORED: usize = 3;
/// Vertices and polygons the objects may draw whatever the file holds.
pub const SLACK: usize = 65_536;

/// Objects that, dressed, draw more than their file's meshes allow.
#[derive(Debug, thiserror::Error)]
#[error(
    "{object}: the objects up to this one draw {drawn} vertices and polygons, dressing included, more than \
     the {allowed} the file's meshes allow ({} times what they hold, plus {}); objects are dressed in one body \
     far more often than in any game file: the file is corrupt or made to cost far more than its size \
     (import the others with --only, or leave objects out with `wadforge remove`)",
    DRAWS_PER_STORED,
    SLACK
)]
pub struct DrawsTooMany {
    pub object: String,
    pub drawn: usize,
    pub allowed: usize,
}

/// The meshes `m` draws dressed in `dressing`: its own (a dressed skeleton's placeholders are
/// written too), its body's and its body's joints'.
pub(crate) fn drawn_meshes<'w>(
    wad: &'w Wad,
    m: &'w Moveable,
    dressing: Option<Dressing>,
) -> impl Iterator<Item = usize> + 'w {
    let dressed = dressing.into_iter().flat_map(move |d| {
        let body = wad.moveables[d.body].meshes.iter();
        let joints = d
            .joints
            .into_iter()
            .flat_map(move |j| wad.moveables[j].meshes.iter());
        body.chain(joints)
    });
    m.meshes.iter().chain(dressed).copied()
}

/// Checks what `objects` (each object's name and the meshes it draws) draw, in order.
pub(crate) fn check(
    wad: &Wad,
    objects: impl IntoIterator<Item = (String, Vec<usize>)>,
) -> Result<(), DrawsTooMany> {
    let weight = |k: usize| {
        wad.meshes
            .get(k)
            .map_or(1, |m| 1 + m.vertices.len() + m.polygons.len())
    };
    let stored: usize = (0..wad.meshes.len()).map(weight).sum();
    let allowed = stored.saturating_mul(DRAWS_PER_STORED).saturating_add(SLACK);
    let mut drawn = 0usize;
    for (object, meshes) in objects {
        drawn = meshes.into_iter().map(weight).fold(drawn, usize::saturating_add);
        if drawn > allowed {
            return Err(DrawsTooMany {
                object,
                drawn,
                allowed,
            });
        }
    }
    Ok(())
}
