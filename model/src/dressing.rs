//! Which moveables a skeleton wears: the game shows some skeletons in other moveables' meshes
//! (TR4's LARA in LARA_SKIN and LARA_SKIN_JOINTS, her own meshes being placeholders that are
//! LARA_SKIN's; TR3's LARA in LARA_TRUE_APPEARANCE). Import, the gallery, `check` and the fixtures
//! all pose and show a moveable in what this rule says it wears.

use std::collections::HashMap;

use crate::catalog::{self, Game};
use crate::{MeshIndex, Moveable, Wad};

/// What dresses a moveable shown in other moveables' meshes: indices into the model's moveables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dressing {
    /// The moveable whose mesh is shown at each joint (TR4's LARA_SKIN, TR3's LARA_TRUE_APPEARANCE).
    pub body: usize,
    /// The moveable whose joint meshes are shown too (TR4's LARA_SKIN_JOINTS).
    pub joints: Option<usize>,
}

impl Dressing {
    /// The meshes the dressing shows: the body's, then the joints'.
    pub fn meshes<'w>(&self, wad: &'w Wad) -> impl Iterator<Item = MeshIndex> + 'w {
        let of = |i: usize| wad.moveables.get(i).map_or(&[][..], |m| &m.meshes[..]);
        let joints = self.joints.map_or(&[][..], of);
        of(self.body).iter().chain(joints).copied()
    }
}

/// The moveable whose meshes `moveable`, dressed in `dressing`, is posed in: its body, or itself
/// when undressed.
pub fn worn_body<'w>(wad: &'w Wad, moveable: &'w Moveable, dressing: Option<Dressing>) -> &'w Moveable {
    dressing
        .and_then(|d| wad.moveables.get(d.body))
        .unwrap_or(moveable)
}

/// For each moveable, what dresses it: its catalogue body (and joints) when they are in the file
/// with the same mesh count and its own meshes are placeholders: every one shown by an undressed
/// object (TR4's LARA wears LARA_SKIN's thigh at every joint), or one mesh at every joint (TR3's
/// LARA: a holstered thigh, which the game swaps for LARA_TRUE_APPEARANCE's meshes). A moveable
/// with meshes of its own (a weapon animation's hands holding guns) stays undressed and shows
/// them.
pub fn dressings(wad: &Wad, game: Game) -> Vec<Option<Dressing>> {
    let mut dressing = candidates(wad, game);
    let one_placeholder = |m: &Moveable| m.meshes.len() > 1 && m.meshes.iter().all(|&k| k == m.meshes[0]);
    // Undressing a candidate shows its meshes, which may be another's placeholders: repeat until
    // no candidate changes.
    loop {
        let mut shown = vec![false; wad.meshes.len()];
        let undressed = wad.moveables.iter().zip(&dressing).filter(|(_, d)| d.is_none());
        for k in undressed
            .flat_map(|(m, _)| &m.meshes)
            .chain(wad.statics.iter().map(|s| &s.mesh))
        {
            if let Some(s) = shown.get_mut(*k) {
                *s = true;
            }
        }
        let mut changed = false;
        for (d, m) in dressing.iter_mut().zip(&wad.moveables) {
            let all_placeholders =
                one_placeholder(m) || m.meshes.iter().all(|&k| shown.get(k) == Some(&true));
            if d.is_some() && !all_placeholders {
                *d = None;
                changed = true;
            }
        }
        if !changed {
            return dressing;
        }
    }
}

/// For each moveable, its catalogue body and joints when they are in the file with its mesh
/// count, whatever its own meshes are.
fn candidates(wad: &Wad, game: Game) -> Vec<Option<Dressing>> {
    // The first moveable of each id, found at once: searching for each moveable's body made a
    // file of many moveables of one id take a search of all for each.
    let mut first_of_id = HashMap::new();
    for (i, m) in wad.moveables.iter().enumerate() {
        first_of_id.entry(m.id).or_insert(i);
    }
    let index_of = |id: u32| first_of_id.get(&id).copied();
    wad.moveables
        .iter()
        .map(|m| {
            let body = catalog::body_from(game, m.id).and_then(index_of)?;
            let fits = |i: usize| wad.moveables[i].meshes.len() == m.meshes.len();
            if !fits(body) || std::ptr::eq(&wad.moveables[body], m) {
                return None;
            }
            let joints = catalog::joints_from(game, wad.moveables[body].id)
                .and_then(index_of)
                .filter(|&j| fits(j));
            Some(Dressing { body, joints })
        })
        .collect()
}
