//! Files of two games compared object by object: each game numbers its slots its own way (TR1's
//! WOLF is moveable 7, TR4's 7 is FLARE_ANIM), so both sides are brought into one game's ids by
//! the catalogue, the move `build` and `convert` make ([`crate::porting::move_to_game`]).

use std::path::Path;

use wadforge_diff::Unmatched;
use wadforge_format::catalog::{self, Game};
use wadforge_format::selection::{all_objects, ObjectRef};
use wadforge_format::{FileKind, ObjectKind, Opened};

/// Two files read, their objects in the ids of `game`, with the objects of either that `game`
/// has no slot for (left out of the comparison, each differing).
pub(super) struct InOneGame {
    pub a: Opened,
    pub b: Opened,
    pub game: Game,
    pub unmatched: Vec<Unmatched>,
}

/// Reads `a` and `b` and brings them into one game's ids: a classic WAD's (TR4's) when either is
/// one, since everything wadforge writes as a WAD holds TR4's ids, else A's. The `--as` rules
/// (`NAME=SLOT`, as `build` and `convert` take them) place objects of the side moved, else of A.
pub(super) fn read_in_one_game(a: &Path, b: &Path, as_slots: &[String]) -> anyhow::Result<InOneGame> {
    let (mut a, mut b) = (crate::input::read(a)?, crate::input::read(b)?);
    let game = match [&a, &b].into_iter().any(|o| o.kind == FileKind::Wad) {
        true => FileKind::Wad.game(),
        false => a.game,
    };
    // At most one side is in another game than `game`: B unless A is.
    let (a_rules, b_rules) = match b.game != game {
        true => (&[][..], as_slots),
        false => (as_slots, &[][..]),
    };
    let mut unmatched = into_game(&mut a, game, ("A", a_rules))?;
    unmatched.extend(into_game(&mut b, game, ("B", b_rules))?);
    Ok(InOneGame {
        a,
        b,
        game,
        unmatched,
    })
}

/// Moves `opened`'s objects into `game`'s ids, `rules` first (nothing when they are in them and
/// no rule asks); returns those `game` has no slot for and no rule places, which the move leaves
/// out.
fn into_game(
    opened: &mut Opened,
    game: Game,
    (side, rules): (&str, &[String]),
) -> anyhow::Result<Vec<Unmatched>> {
    let from = opened.game;
    if from == game && rules.is_empty() {
        return Ok(Vec::new());
    }
    // The objects the rules name, by slot name or id, as the move finds them.
    let placed_by_rule = |slot: &str, id: u32| {
        rules.iter().any(|rule| {
            let object = rule.split_once('=').map_or("", |(object, _)| object.trim());
            object == slot || object.parse::<u32>() == Ok(id)
        })
    };
    let unmatched = all_objects(&opened.model)
        .filter_map(|object| {
            let id = object.id(&opened.model);
            let (kind, placed, slot) = match object {
                ObjectRef::Moveable(_) => (
                    ObjectKind::Moveable,
                    catalog::moveable_in(from, id, game),
                    catalog::moveable_slot(from, id),
                ),
                ObjectRef::Static(_) => (
                    ObjectKind::Static,
                    catalog::static_in(from, id, game),
                    catalog::static_slot(from, id),
                ),
            };
            (placed.is_none() && !placed_by_rule(&slot, id)).then(|| Unmatched {
                side: side.to_string(),
                object: object.name(&opened.model, from).to_string(),
                why: format!(
                    "{} has no {kind} slot for {}'s {slot} (convert and build leave it out; --as {slot}=SLOT \
                     places it)",
                    game.name(),
                    from.name(),
                ),
            })
        })
        .collect();
    let moveables = opened.model.moveables.len();
    crate::porting::move_to_game(&mut opened.model, from, game, rules)?;
    opened.game = game;
    if opened.model.moveables.len() != moveables {
        // Moveables left out: the references of the others now count in the model's own table,
        // moveable after moveable, not in the file's.
        opened.layout = None;
    }
    Ok(unmatched)
}
