//! How every message names an object: `LARA (moveable 0)`, `PLANT0 (static 0)`: the slot name
//! (the file's game's catalogue; WADs use TR4's), the kind and the id.

use std::fmt;

use crate::catalog::{self, Game};

/// Whether an object is a moveable or a static.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    Moveable,
    Static,
}

impl fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ObjectKind::Moveable => "moveable",
            ObjectKind::Static => "static",
        })
    }
}

/// An object as messages name it; shows as `SLOT (KIND ID)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ObjectName {
    slot: String,
    kind: ObjectKind,
    id: u32,
}

impl ObjectName {
    /// Object `id` of this kind, by `game`'s catalogue.
    pub fn new(game: Game, kind: ObjectKind, id: u32) -> Self {
        let slot = match kind {
            ObjectKind::Moveable => catalog::moveable_slot(game, id),
            ObjectKind::Static => catalog::static_slot(game, id),
        };
        ObjectName { slot, kind, id }
    }

    /// Object `id` under a slot name the caller has (a manifest's own, or one already looked up).
    pub fn with_slot(slot: impl Into<String>, kind: ObjectKind, id: u32) -> Self {
        ObjectName {
            slot: slot.into(),
            kind,
            id,
        }
    }

    /// This name for object `index` of a list of its kind whose ids are `ids` (a file's or a
    /// model's, in file order), adding the position only where the id does not tell the object
    /// apart (`LARA (moveable 0), moveable #3 in file order`): real files hold each id once.
    pub fn in_list(&self, index: usize, ids: impl IntoIterator<Item = u32>) -> String {
        if ids.into_iter().filter(|&id| id == self.id).nth(1).is_some() {
            format!("{self}, {} #{index} in file order", self.kind)
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for ObjectName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} {})", self.slot, self.kind, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_show_slot_kind_and_id() {
        assert_eq!(
            ObjectName::new(Game::Tr4, ObjectKind::Moveable, 0).to_string(),
            "LARA (moveable 0)"
        );
        assert_eq!(
            ObjectName::with_slot("CRATE", ObjectKind::Static, 10).to_string(),
            "CRATE (static 10)"
        );
    }

    #[test]
    fn the_position_is_added_only_for_a_shared_id() {
        let lara = ObjectName::new(Game::Tr4, ObjectKind::Moveable, 0);
        assert_eq!(lara.in_list(0, [0, 8]), "LARA (moveable 0)");
        assert_eq!(
            lara.in_list(2, [8, 0, 0]),
            "LARA (moveable 0), moveable #2 in file order"
        );
    }
}
