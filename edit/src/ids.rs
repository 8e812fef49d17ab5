//! Object ids from one game's catalogue to another's (`wadforge convert`): by slot name, and by
//! `--as NAME=SLOT` rules for the objects the other catalogue has no slot of that name for.

use std::collections::BTreeMap;

use wadforge_format::catalog::{self, Game};
use wadforge_format::{ObjectKind, Wad};

use crate::{slot_id, EditError};

/// Gives each object of `wad` (ids of `from`'s catalogue) its id in `to`'s: the slot an
/// `as_slots` rule names for it, else (when `by_name`) the slot of its name in `to`, else the
/// id it has. A rule is `NAME=SLOT`: the object by its slot name or id in `from`, the slot by
/// its name or id in `to`; every rule must find an object.
///
/// Returns a line for each object that keeps its id because `to` has no slot of its name, as
/// `convert` lists it. Two objects of a kind given the same id are an error; on an error `wad`
/// may be half renumbered.
pub fn move_ids(
    wad: &mut Wad,
    from: Game,
    to: Game,
    by_name: bool,
    as_slots: &[String],
) -> Result<Vec<String>, EditError> {
    let mut rules = parse_rules(as_slots)?;
    let mut kept = Vec::new();
    let lists: [(ObjectKind, Vec<&mut u32>); 2] = [
        (
            ObjectKind::Moveable,
            wad.moveables.iter_mut().map(|m| &mut m.id).collect(),
        ),
        (
            ObjectKind::Static,
            wad.statics.iter_mut().map(|s| &mut s.id).collect(),
        ),
    ];
    for (kind, ids) in lists {
        let mut taken = BTreeMap::new();
        for id in ids {
            let name = slot(kind, from, *id);
            let rule = rules
                .iter_mut()
                .find(|r| r.object == name || r.object.parse::<u32>() == Ok(*id));
            let new = match rule {
                Some(rule) => {
                    rule.used = true;
                    Some(slot_id(to, kind == ObjectKind::Moveable, &rule.slot)?)
                }
                None if by_name => id_of(kind, to, &name),
                None => Some(*id),
            };
            match new {
                Some(new) => *id = new,
                None => kept.push(format!(
                    "{name} ({kind} {id}): {} has no {kind} of that name; its id is kept (--as {name}=SLOT gives \
                     it one)",
                    to.name(),
                )),
            }
            if let Some(first) = taken.insert(*id, name.clone()) {
                return Err(EditError::SameId {
                    first,
                    second: name,
                    kind,
                    id: *id,
                });
            }
        }
    }
    match rules.into_iter().find(|r| !r.used) {
        Some(unused) => Err(EditError::AsFindsNoObject {
            object: unused.object,
            slot: unused.slot,
        }),
        None => Ok(kept),
    }
}

/// One `--as NAME=SLOT`: the object (slot name or id in the input's game) and its slot in the
/// output's (name or id).
struct Rule {
    object: String,
    slot: String,
    used: bool,
}

fn parse_rules(as_slots: &[String]) -> Result<Vec<Rule>, EditError> {
    as_slots
        .iter()
        .map(|rule| match rule.split_once('=') {
            Some((object, slot)) if !object.trim().is_empty() && !slot.trim().is_empty() => Ok(Rule {
                object: object.trim().to_owned(),
                slot: slot.trim().to_owned(),
                used: false,
            }),
            _ => Err(EditError::AsRule(rule.clone())),
        })
        .collect()
}

fn slot(kind: ObjectKind, game: Game, id: u32) -> String {
    match kind {
        ObjectKind::Moveable => catalog::moveable_slot(game, id),
        ObjectKind::Static => catalog::static_slot(game, id),
    }
}

fn id_of(kind: ObjectKind, game: Game, name: &str) -> Option<u32> {
    match kind {
        ObjectKind::Moveable => catalog::moveable_id(game, name),
        ObjectKind::Static => catalog::static_id(game, name),
    }
}

#[cfg(test)]
mod tests {
    use wadforge_format::{Moveable, Static};

    use super::*;

    /// A model of moveables and statics of these ids, nothing else.
    fn objects(moveables: &[u32], statics: &[u32]) -> Wad {
        Wad {
            moveables: (moveables.iter())
                .map(|&id| Moveable {
                    id,
                    ..Moveable::default()
                })
                .collect(),
            statics: (statics.iter())
                .map(|&id| Static {
                    id,
                    ..Static::default()
                })
                .collect(),
            ..Wad::default()
        }
    }

    fn ids(wad: &Wad) -> (Vec<u32>, Vec<u32>) {
        (
            wad.moveables.iter().map(|m| m.id).collect(),
            wad.statics.iter().map(|s| s.id).collect(),
        )
    }

    fn rules(rules: &[&str]) -> Vec<String> {
        rules.iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn objects_move_to_the_slots_of_their_names() {
        // Tomb Engine's PULLEY is 830, TR4's 321; LARA is 0 in both.
        let mut wad = objects(&[830, 0], &[]);
        let kept = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad).0, [321, 0]);
        assert!(kept.is_empty(), "{kept:?}");
        // And back.
        let kept = move_ids(&mut wad, Game::Tr4, Game::Ten, true, &[]).unwrap();
        assert_eq!(ids(&wad).0, [830, 0]);
        assert!(kept.is_empty(), "{kept:?}");
    }

    #[test]
    fn an_object_whose_name_the_other_game_lacks_keeps_its_id_and_is_listed() {
        // TR4 has no SNOWMOBILE (TEN's 51) and no static named as TEN's static 10.
        let mut wad = objects(&[51], &[10]);
        let kept = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad), (vec![51], vec![10]));
        assert_eq!(
            kept,
            [
                "SNOWMOBILE (moveable 51): TR4 has no moveable of that name; its id is kept (--as \
                 SNOWMOBILE=SLOT gives it one)",
                "STATIC_10 (static 10): TR4 has no static of that name; its id is kept (--as STATIC_10=SLOT \
                 gives it one)",
            ]
        );
    }

    #[test]
    fn a_rule_gives_an_object_the_slot_it_names_by_name_or_id() {
        let animating1 = catalog::moveable_id(Game::Tr4, "ANIMATING1").unwrap();
        assert_eq!(animating1, 427);
        for rule in ["SNOWMOBILE=ANIMATING1", "51=ANIMATING1", " SNOWMOBILE = 427 "] {
            let mut wad = objects(&[51, 830], &[]);
            let kept = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &rules(&[rule])).unwrap();
            assert_eq!(ids(&wad).0, [427, 321], "{rule}");
            assert!(kept.is_empty(), "{rule}: {kept:?}");
        }
    }

    #[test]
    fn without_moving_by_name_only_the_rules_move_objects() {
        // TR4 into TR4: CROCODILE (51) into ANIMATING1, static PLANT0 (0) into PLANT1 (1).
        let mut wad = objects(&[0, 51], &[0, 10]);
        let kept = move_ids(
            &mut wad,
            Game::Tr4,
            Game::Tr4,
            false,
            &rules(&["CROCODILE=ANIMATING1", "PLANT0=PLANT1"]),
        )
        .unwrap();
        assert_eq!(ids(&wad), (vec![0, 427], vec![1, 10]));
        assert!(kept.is_empty(), "{kept:?}");
    }

    #[test]
    fn a_rule_by_id_applies_to_every_object_of_that_id() {
        // Moveable 0 and static 0 both match `0=1`: each kind looks the slot up in its own list.
        let mut wad = objects(&[0], &[0]);
        move_ids(&mut wad, Game::Tr4, Game::Tr4, false, &rules(&["0=1"])).unwrap();
        assert_eq!(ids(&wad), (vec![1], vec![1]));
    }

    #[test]
    fn a_rule_must_name_an_object_and_a_slot() {
        for rule in ["SNOWMOBILE", "=ANIMATING1", "SNOWMOBILE=", " = "] {
            let mut wad = objects(&[51], &[]);
            let error = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &rules(&[rule])).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("--as {rule}: write NAME=SLOT (slot names or ids), e.g. --as LASER_BEAM=ANIMATING1")
            );
        }
    }

    #[test]
    fn a_rule_that_finds_no_object_is_an_error() {
        let mut wad = objects(&[51], &[]);
        let error = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &rules(&["NOTHING=1"])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--as NOTHING=1: the input has no object of that slot name or id"
        );
    }

    #[test]
    fn a_rule_naming_no_slot_of_the_output_is_an_error() {
        let mut wad = objects(&[51], &[]);
        let error = move_ids(
            &mut wad,
            Game::Ten,
            Game::Tr4,
            true,
            &rules(&["SNOWMOBILE=NOSLOT"]),
        );
        assert!(matches!(error, Err(EditError::UnknownSlot { .. })), "{error:?}");
    }

    #[test]
    fn two_objects_of_a_kind_on_one_id_are_an_error() {
        let mut wad = objects(&[0, 51], &[]);
        let error = move_ids(&mut wad, Game::Tr4, Game::Tr4, false, &rules(&["CROCODILE=0"])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "LARA and CROCODILE would both be moveable 0 in the output; give one another slot with --as"
        );
        // A moveable and a static may share an id.
        let mut wad = objects(&[0], &[0]);
        assert!(move_ids(&mut wad, Game::Tr4, Game::Tr4, false, &[]).is_ok());
    }
}
