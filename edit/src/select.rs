//! Which objects a list of names means: slot names or ids, as `import --only` takes them.

use wadforge_format::catalog::{self, Game};
use wadforge_format::selection::{self, ObjectRef};
use wadforge_format::Wad;

use crate::EditError;

/// The objects of `wad` that `names` (slot names of `game`, or ids, trimmed; empty ones are
/// skipped) name, moveables first, each once; see [`selection::select`]. Naming nothing at all
/// is an error too.
pub fn select(wad: &Wad, game: Game, names: &[String]) -> Result<Vec<ObjectRef>, EditError> {
    let names: Vec<&str> = names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err(EditError::NothingSelected);
    }
    Ok(selection::select(wad, game, &names)?)
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
