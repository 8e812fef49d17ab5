//! A base Wad2 under the ids its objects took in the file made from it: `convert` between games
//! (or with `--as`) moves objects to other slots, and each made object finds its base object's
//! detail by kind and id.

use std::borrow::Cow;
use std::collections::HashMap;

use wadforge_model::ObjectKind;

use crate::wad2::document::Document;

/// `base` with each object under the id `ids` maps its (kind, id) to, those it does not map left
/// out (not in the made file, and their old id may be another object's now); `base` itself when
/// every id maps to itself.
pub fn under_ids<'a>(base: &'a Document, ids: &HashMap<(ObjectKind, i64), i64>) -> Cow<'a, Document> {
    if ids.iter().all(|(&(_, old), &new)| old == new) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wad2::document::{Moveable, Static};

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
        let moved = under_ids(&base, &ids);
        let moveables: Vec<i64> = moved.moveables.iter().map(|m| m.id).collect();
        assert_eq!(moveables, [6, 9], "moveable 7 is not written");
        assert_eq!(moved.statics.len(), 1);
        let same = HashMap::from([((ObjectKind::Moveable, 5), 5)]);
        assert!(matches!(under_ids(&base, &same), Cow::Borrowed(_)));
    }
}
