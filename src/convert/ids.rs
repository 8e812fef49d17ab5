//! Object ids from one game's catalogue to another's: by slot name, and by `--as NAME=SLOT` for
//! what the other has no slot of that name for.

use anyhow::bail;
use wadforge_format::catalog::{self, Game};
use wadforge_format::Opened;

/// The game of a Wad2 `convert` writes (and reads, when a Wad2 names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TargetGame {
    /// TRLE: TR4's ids, W2SuggestedGameVersion 4.
    Trle,
    /// TRNG: TR4's ids, version 16.
    Trng,
    /// Tomb Engine: its own ids, version 18.
    Ten,
}

impl TargetGame {
    /// The catalogue whose ids the game's objects hold.
    pub fn catalogue(self) -> Game {
        match self {
            TargetGame::Trle | TargetGame::Trng => Game::Tr4,
            TargetGame::Ten => Game::Ten,
        }
    }

    /// Its W2SuggestedGameVersion.
    pub fn wad2_version(self) -> i64 {
        match self {
            TargetGame::Trle => 4,
            TargetGame::Trng => 16,
            TargetGame::Ten => 18,
        }
    }
}

/// An object's kind, for slot look-ups and messages.
#[derive(Clone, Copy)]
enum Kind {
    Moveable,
    Static,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Moveable => "moveable",
            Kind::Static => "static",
        }
    }

    fn slot(self, game: Game, id: u32) -> String {
        match self {
            Kind::Moveable => catalog::moveable_slot(game, id),
            Kind::Static => catalog::static_slot(game, id),
        }
    }

    fn id(self, game: Game, name: &str) -> Option<u32> {
        match self {
            Kind::Moveable => catalog::moveable_id(game, name),
            Kind::Static => catalog::static_id(game, name),
        }
    }
}

/// One `--as NAME=SLOT`: the object (slot name or id in the input's game) and its slot in the
/// output's (name or id).
struct AsSlot {
    object: String,
    slot: String,
    used: bool,
}

fn parse_as(as_slots: &[String]) -> anyhow::Result<Vec<AsSlot>> {
    as_slots
        .iter()
        .map(|rule| match rule.split_once('=') {
            Some((object, slot)) if !object.trim().is_empty() && !slot.trim().is_empty() => Ok(AsSlot {
                object: object.trim().to_owned(),
                slot: slot.trim().to_owned(),
                used: false,
            }),
            _ => bail!("--as {rule}: write NAME=SLOT (slot names or ids), e.g. --as LASER_BEAM=ANIMATING1"),
        })
        .collect()
}

/// Gives each object of `opened` its id in `to`'s catalogue: the slot `--as` names for it, else
/// (when `by_name`) the slot of its name. Returns a line for each object that keeps its id.
pub fn move_ids(
    opened: &mut Opened,
    to: Game,
    by_name: bool,
    as_slots: &[String],
) -> anyhow::Result<Vec<String>> {
    let from = opened.game;
    let mut rules = parse_as(as_slots)?;
    let mut kept = Vec::new();
    let model = &mut opened.model;
    let lists: [(Kind, Vec<&mut u32>); 2] = [
        (
            Kind::Moveable,
            model.moveables.iter_mut().map(|m| &mut m.id).collect(),
        ),
        (
            Kind::Static,
            model.statics.iter_mut().map(|s| &mut s.id).collect(),
        ),
    ];
    for (kind, ids) in lists {
        let mut taken = std::collections::BTreeMap::new();
        for id in ids {
            let name = kind.slot(from, *id);
            let rule = rules
                .iter_mut()
                .find(|r| r.object == name || r.object.parse::<u32>() == Ok(*id));
            let new = match rule {
                Some(rule) => {
                    rule.used = true;
                    Some(wadforge_edit::slot_id(
                        to,
                        matches!(kind, Kind::Moveable),
                        &rule.slot,
                    )?)
                }
                None if by_name => kind.id(to, &name),
                None => Some(*id),
            };
            match new {
                Some(new) => *id = new,
                None => kept.push(format!(
                    "{name} ({} {id}): {} has no {} of that name; its id is kept (--as {name}=SLOT gives it one)",
                    kind.word(),
                    to.name(),
                    kind.word(),
                )),
            }
            if let Some(other) = taken.insert(*id, name.clone()) {
                bail!(
                    "{other} and {name} would both be {} {id} in the output; give one another slot with --as",
                    kind.word()
                );
            }
        }
    }
    if let Some(unused) = rules.iter().find(|r| !r.used) {
        bail!(
            "--as {}={}: the input has no object of that slot name or id",
            unused.object,
            unused.slot
        );
    }
    opened.game = to;
    Ok(kept)
}
