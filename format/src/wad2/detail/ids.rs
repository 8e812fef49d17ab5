//! A base Wad2 under the ids its objects took in the file made from it: `convert` between games
//! (or with `--as`) moves objects to other slots, and each made object finds its base object's
//! detail by kind and id.

use std::borrow::Cow;
use std::collections::HashMap;

use wadforge_model::ObjectKind;

use crate::wad2::document::{Document, Moveable};

/// `base` with each object under the id `ids` maps its (kind, id) to, those it does not map left
/// out (not in the made file, and their old id may be another object's now), and the moveables
/// `remeshed` (by new id: their meshes laid out anew for another engine, each made mesh's base
/// mesh or none) with their meshes in the new order (none: an empty mesh), their bones and skin
/// left out (they no longer fit); `base` itself when every id maps to itself and nothing was
/// remeshed.
pub fn under_ids<'a>(
    base: &'a Document,
    ids: &HashMap<(ObjectKind, i64), i64>,
    remeshed: &[(i64, Vec<Option<usize>>)],
) -> Cow<'a, Document> {
    if remeshed.is_empty() && ids.iter().all(|(&(_, old), &new)| old == new) {
        return Cow::Borrowed(base);
    }
    let new_id = |kind, id| ids.get(&(kind, id)).copied();
    let mut moved = Document {
        compressed: base.compressed,
        game_version: base.game_version,
        sound_system: base.sound_system,
        textures: base.textures.clone(),
        sprites: base.sprites.clone(),
        sprite_sequences: base.sprite_sequences.clone(),
        moveables: Vec::new(),
        statics: Vec::new(),
        metadata: base.metadata.clone(),
        animated_texture_sets: base.animated_texture_sets.clone(),
        unknown: base.unknown.clone(),
    };
    for m in &base.moveables {
        if let Some(id) = new_id(ObjectKind::Moveable, m.id) {
            let mut m = m.clone();
            m.id = id;
            if let Some((_, sources)) = remeshed.iter().find(|(r, _)| *r == id) {
                remesh(&mut m, sources);
            }
            moved.moveables.push(m);
        }
    }
    for s in &base.statics {
        if let Some(id) = new_id(ObjectKind::Static, s.id) {
            let mut s = s.clone();
            s.id = id;
            moved.statics.push(s);
        }
    }
    Cow::Owned(moved)
}

/// Lays `moveable`'s meshes out as an engine's reshaping laid out the model's: mesh `i` its old
/// mesh `sources[i]`, or an empty one; its bones and skin left out, as they no longer fit.
pub fn remesh(moveable: &mut Moveable, sources: &[Option<usize>]) {
    let meshes = std::mem::take(&mut moveable.meshes);
    moveable.meshes = (sources.iter())
        .map(|s| s.and_then(|s| meshes.get(s)).cloned().unwrap_or_default())
        .collect();
    (moveable.bones, moveable.skin) = (Vec::new(), None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wad2::document::Static;

    fn document() -> Document {
        let moveable = |id| Moveable {
            id,
            ..Moveable::default()
        };
        Document {
            moveables: vec![moveable(5), moveable(6), moveable(7)],
            statics: vec![Static {
                id: 5,
                ..Static::default()
            }],
            ..Document::default()
        }
    }

    #[test]
    fn objects_take_their_new_ids_and_those_not_written_are_left_out() {
        let base = document();
        let ids = HashMap::from([
            ((ObjectKind::Moveable, 5), 6),
            ((ObjectKind::Moveable, 6), 9),
            ((ObjectKind::Static, 5), 5),
        ]);
        let moved = under_ids(&base, &ids, &[]);
        let moveables: Vec<i64> = moved.moveables.iter().map(|m| m.id).collect();
        assert_eq!(moveables, [6, 9], "moveable 7 is not written");
        assert_eq!(moved.statics.len(), 1);
        let same = HashMap::from([((ObjectKind::Moveable, 5), 5)]);
        assert!(matches!(under_ids(&base, &same, &[]), Cow::Borrowed(_)));
    }

    #[test]
    fn remeshed_moveables_take_their_base_meshes_in_the_new_order() {
        let mut base = document();
        for m in &mut base.moveables {
            m.meshes = ["a", "b"]
                .map(|name| crate::wad2::document::Mesh {
                    name: name.into(),
                    ..Default::default()
                })
                .to_vec();
            m.bones = vec![Default::default(); 2];
        }
        let same = HashMap::from([((ObjectKind::Moveable, 5), 5), ((ObjectKind::Moveable, 6), 6)]);
        let moved = under_ids(&base, &same, &[(6, vec![None, Some(1), Some(0)])]);
        let names = |m: &Moveable| m.meshes.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&moved.moveables[0]), ["a", "b"], "not remeshed");
        assert_eq!(names(&moved.moveables[1]), ["", "b", "a"]);
        assert!(moved.moveables[1].bones.is_empty(), "its bones no longer fit");
        assert_eq!(moved.moveables[0].bones.len(), 2);
    }
}
