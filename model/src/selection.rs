//! Which objects a list of names means: slot names (of the file's game) or ids, as `--only`
//! takes them in `import`, `copy` and `remove`.

use crate::catalog::{self, Game};
use crate::object_name::{ObjectKind, ObjectName};
use crate::{MoveableIndex, StaticIndex, Wad};

/// One object of a model, by kind and position in its list (not by its slot id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectRef {
    Moveable(MoveableIndex),
    Static(StaticIndex),
}

impl ObjectRef {
    /// The object's name in messages, by `game`'s catalogue: `LARA (moveable 0)`.
    pub fn name(self, wad: &Wad, game: Game) -> ObjectName {
        let kind = match self {
            ObjectRef::Moveable(_) => ObjectKind::Moveable,
            ObjectRef::Static(_) => ObjectKind::Static,
        };
        ObjectName::new(game, kind, self.id(wad))
    }

    /// The object's slot name in `game`'s catalogue.
    fn slot(self, wad: &Wad, game: Game) -> String {
        match self {
            ObjectRef::Moveable(i) => catalog::moveable_slot(game, wad.moveables[i].id),
            ObjectRef::Static(i) => catalog::static_slot(game, wad.statics[i].id),
        }
    }

    /// The object's id.
    pub fn id(self, wad: &Wad) -> u32 {
        match self {
            ObjectRef::Moveable(i) => wad.moveables[i].id,
            ObjectRef::Static(i) => wad.statics[i].id,
        }
    }
}

/// A name no object of the file has, with the slot names the file's objects do have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "--only names {name}, which is neither the slot name nor the id of an object in this file (it has: {})",
    known.join(", ")
)]
pub struct UnknownObject {
    pub name: String,
    /// Slot names in file order, moveables then statics.
    pub known: Vec<String>,
}

/// Every object of `wad`, in file order: moveables, then statics.
pub fn all_objects(wad: &Wad) -> impl Iterator<Item = ObjectRef> + Clone {
    MoveableIndex::all(&wad.moveables)
        .map(ObjectRef::Moveable)
        .chain(StaticIndex::all(&wad.statics).map(ObjectRef::Static))
}

/// The objects of `wad` that `names` (slot names of `game`, or ids, matched exactly) name, in
/// file order (moveables, then statics), each once. An id held by a moveable and a static selects
/// both; a name that matches no object is an error listing what the file has.
pub fn select<S: AsRef<str>>(wad: &Wad, game: Game, names: &[S]) -> Result<Vec<ObjectRef>, UnknownObject> {
    let slots: Vec<(ObjectRef, String)> = all_objects(wad).map(|o| (o, o.slot(wad, game))).collect();
    let matches = |(o, slot): &(ObjectRef, String), name: &str| slot == name || o.id(wad).to_string() == name;
    if let Some(name) = names
        .iter()
        .map(AsRef::as_ref)
        .find(|name| !slots.iter().any(|o| matches(o, name)))
    {
        return Err(UnknownObject {
            name: name.to_string(),
            known: slots.into_iter().map(|(_, slot)| slot).collect(),
        });
    }
    Ok(slots
        .iter()
        .filter(|o| names.iter().any(|n| matches(o, n.as_ref())))
        .map(|&(o, _)| o)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Moveable, Static};

    fn wad() -> Wad {
        Wad {
            moveables: vec![
                Moveable {
                    id: 0,
                    ..Default::default()
                },
                Moveable {
                    id: 27,
                    ..Default::default()
                },
            ],
            statics: vec![Static {
                id: 27,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn names_and_ids_select_in_file_order() {
        let wad = wad();
        let chosen = select(&wad, Game::Tr4, &["27", "LARA"]).unwrap();
        assert_eq!(
            chosen,
            [
                ObjectRef::Moveable(MoveableIndex(0)),
                ObjectRef::Moveable(MoveableIndex(1)),
                ObjectRef::Static(StaticIndex(0))
            ]
        );
        assert_eq!(select::<&str>(&wad, Game::Tr4, &[]).unwrap(), []);
    }

    #[test]
    fn an_unknown_name_lists_what_the_file_has() {
        let e = select(&wad(), Game::Tr4, &["LARA", "NOPE"]).unwrap_err();
        assert_eq!(e.name, "NOPE");
        assert_eq!(e.known.len(), 3);
        assert!(e.to_string().starts_with(
            "--only names NOPE, which is neither the slot name nor the id of an object in this file (it has: LARA, "
        ));
    }
}
