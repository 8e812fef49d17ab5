//! Which objects a list of names means: slot names or ids, as `import --only` takes them.

use wadforge_format::catalog::{self, Game};
use wadforge_format::Wad;

use crate::EditError;

/// One object of a WAD, by kind and position in its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectRef {
    Moveable(usize),
    Static(usize),
}

impl ObjectRef {
    /// `LARA (moveable 0)`, as the rest of wadforge names objects.
    pub fn describe(self, wad: &Wad, game: Game) -> String {
        match self {
            ObjectRef::Moveable(i) => {
                let id = wad.moveables[i].id;
                format!("{} (moveable {id})", catalog::moveable_slot(game, id))
            }
            ObjectRef::Static(i) => {
                let id = wad.statics[i].id;
                format!("{} (static {id})", catalog::static_slot(game, id))
            }
        }
    }
}

/// The objects of `wad` that `names` (slot names of `game`, or ids) name, moveables first, each
/// once. A name that matches no object is an error listing what the file has; an id held by a
/// moveable and a static selects both, as `import --only` does.
pub fn select(wad: &Wad, game: Game, names: &[String]) -> Result<Vec<ObjectRef>, EditError> {
    let all = (0..wad.moveables.len())
        .map(ObjectRef::Moveable)
        .chain((0..wad.statics.len()).map(ObjectRef::Static));
    let matches = |o: ObjectRef, name: &str| match o {
        ObjectRef::Moveable(i) => {
            let id = wad.moveables[i].id;
            catalog::moveable_slot(game, id) == name || id.to_string() == name
        }
        ObjectRef::Static(i) => {
            let id = wad.statics[i].id;
            catalog::static_slot(game, id) == name || id.to_string() == name
        }
    };
    let names: Vec<&str> = names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err(EditError::NothingSelected);
    }
    for name in &names {
        if !all.clone().any(|o| matches(o, name)) {
            let known = all
                .clone()
                .map(|o| slot_name(wad, game, o))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(EditError::UnknownObject {
                name: name.to_string(),
                known,
            });
        }
    }
    Ok(all.filter(|&o| names.iter().any(|n| matches(o, n))).collect())
}

fn slot_name(wad: &Wad, game: Game, o: ObjectRef) -> String {
    match o {
        ObjectRef::Moveable(i) => catalog::moveable_slot(game, wad.moveables[i].id),
        ObjectRef::Static(i) => catalog::static_slot(game, wad.statics[i].id),
    }
}

/// The slot id `name` means for an object of this kind in `game`: a slot name of the catalogue
/// or a number.
pub fn slot_id(game: Game, moveable: bool, name: &str) -> Result<u32, EditError> {
    let name = name.trim();
    if let Ok(id) = name.parse::<u32>() {
        return Ok(id);
    }
    // Names are not unique (TR1 has eight DOORs); the catalogue's first id with the name wins.
    let found = (0..=u16::MAX as u32).find(|&id| {
        if moveable {
            catalog::moveable_name(game, id) == Some(name)
        } else {
            catalog::static_name(game, id) == Some(name)
        }
    });
    found.ok_or_else(|| EditError::UnknownSlot {
        name: name.to_string(),
        kind: if moveable { "moveable" } else { "static" },
        game: game.name(),
    })
}
