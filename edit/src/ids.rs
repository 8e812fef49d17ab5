//! Object ids from one game's catalogue to another's (`wadforge convert`, `wadforge copy`): by
//! the catalogue's mapping between games' slots ([`catalog::moveable_in`],
//! [`catalog::static_in`]), and by `--as NAME=SLOT` rules for the objects the other game has no
//! slot for; and the sound ids their animations play, by the sound catalogues
//! ([`catalog::sound_in`]).

use std::collections::BTreeMap;

use wadforge_format::catalog::{self, Game};
use wadforge_format::{Command, ObjectKind, Wad};

use crate::{slot_id, EditError};

/// Gives each object of `wad` (ids of `from`'s catalogue) its id in `to`'s: the slot an
/// `as_slots` rule names for it, else (when `by_name`) the slot the catalogue maps it to in `to`
/// (TR4's BADDY_1 is TEN's BADDY1), else the id it has. A rule is `NAME=SLOT`: the object by its
/// slot name or id in `from`, the slot by its name or id in `to`; every rule must find an object.
///
/// An object `to` has no slot for is never written under a foreign id: it is left out of `wad`,
/// and a line names it, the nearest slots of `to` and the `--as` that places it, as `convert`
/// lists it (and refuses with `--strict`). The sound commands of the objects kept move to `to`'s
/// sound ids ([`move_sounds`]), those `to` has no sound for dropped and listed the same way.
/// Two objects of a kind given the same id are an error; on an error `wad` may be half
/// renumbered.
pub fn move_ids(
    wad: &mut Wad,
    from: Game,
    to: Game,
    by_name: bool,
    as_slots: &[String],
) -> Result<Vec<String>, EditError> {
    let mut rules = parse_rules(as_slots)?;
    let mut left_out = Vec::new();
    let mut dropped_moveables = Vec::new();
    let mut dropped_statics = Vec::new();
    let lists: [(ObjectKind, Vec<&mut u32>, &mut Vec<usize>); 2] = [
        (
            ObjectKind::Moveable,
            wad.moveables.iter_mut().map(|m| &mut m.id).collect(),
            &mut dropped_moveables,
        ),
        (
            ObjectKind::Static,
            wad.statics.iter_mut().map(|s| &mut s.id).collect(),
            &mut dropped_statics,
        ),
    ];
    for (kind, ids, dropped) in lists {
        let mut taken = BTreeMap::new();
        for (index, id) in ids.into_iter().enumerate() {
            let name = slot(kind, from, *id);
            let rule = rules
                .iter_mut()
                .find(|r| r.object == name || r.object.parse::<u32>() == Ok(*id));
            let new = match rule {
                Some(rule) => {
                    rule.used = true;
                    Some(slot_id(to, kind == ObjectKind::Moveable, &rule.slot)?)
                }
                None if by_name => slot_in(kind, from, *id, to),
                None => Some(*id),
            };
            let Some(new) = new else {
                left_out.push(left_out_line(kind, from, *id, to, &name));
                dropped.push(index);
                continue;
            };
            *id = new;
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
    if let Some(unused) = rules.into_iter().find(|r| !r.used) {
        return Err(EditError::AsFindsNoObject {
            object: unused.object,
            slot: unused.slot,
        });
    }
    drop_moveables(wad, &dropped_moveables);
    let mut index = 0;
    wad.statics.retain(|_| {
        index += 1;
        !dropped_statics.contains(&(index - 1))
    });
    left_out.extend(move_sounds(wad, 0..wad.moveables.len(), from, to).dropped_lines);
    Ok(left_out)
}

/// What [`move_sounds`] did to the sound commands it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoundsMoved {
    /// Commands whose sound took another id.
    pub moved: usize,
    /// Commands whose sound has the same id in both games (TR4's and TEN's share theirs).
    pub kept: usize,
    /// Commands dropped: their sound has no id in the output's game.
    pub dropped: usize,
    /// One line per object and sound dropped: the sound, and the animations that played it.
    pub dropped_lines: Vec<String>,
}

/// Moves each sound command of the moveables of `wad` at `positions` (ids of `to`'s catalogue,
/// their sounds still `from`'s) to the sound `to` has for it ([`catalog::sound_in`]: TR1's
/// T-Rex roar, 71, plays TEN's 394), keeping its frame and its land and water bits. A command
/// whose sound `to` has none for is dropped, not kept under the old id, which names another
/// sound or none in `to` (a wrong sound is worse than none), and listed.
pub fn move_sounds(
    wad: &mut Wad,
    positions: impl IntoIterator<Item = usize>,
    from: Game,
    to: Game,
) -> SoundsMoved {
    let mut result = SoundsMoved::default();
    for position in positions {
        let Some(moveable) = wad.moveables.get_mut(position) else {
            continue;
        };
        // Per sound dropped, the animations that played it, in order.
        let mut dropped: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
        for (a, animation) in moveable.animations.iter_mut().enumerate() {
            animation.commands.retain_mut(|command| {
                let Command::PlaySound { sound, .. } = command else {
                    return true;
                };
                match sound_id_in(from, *sound, to) {
                    Some(new) => {
                        if new == *sound {
                            result.kept += 1;
                        } else {
                            result.moved += 1;
                        }
                        *sound = new;
                        true
                    }
                    None => {
                        result.dropped += 1;
                        let animations = dropped.entry(*sound).or_default();
                        if animations.last() != Some(&a) {
                            animations.push(a);
                        }
                        false
                    }
                }
            });
        }
        let object = format!(
            "{} (moveable {})",
            catalog::moveable_slot(to, moveable.id),
            moveable.id
        );
        for (sound, animations) in dropped {
            result
                .dropped_lines
                .push(dropped_sound_line(&object, from, sound, to, &animations));
        }
    }
    result
}

/// Sound `sound` of `from` as `to`'s sound id: one a sound command can hold (14 bits: the
/// word's top two bits are the land and water flags), else none.
fn sound_id_in(from: Game, sound: u16, to: Game) -> Option<u16> {
    let new = catalog::sound_in(from, u32::from(sound), to)?;
    u16::try_from(new).ok().filter(|&new| new <= SOUND_ID_MAX)
}

/// The highest sound id a sound command holds: the low 14 bits of its word.
const SOUND_ID_MAX: u16 = 0x3FFF;

/// What `convert` and `copy` list for the commands of one object playing a sound `to` has none for.
fn dropped_sound_line(object: &str, from: Game, sound: u16, to: Game, animations: &[usize]) -> String {
    let name = catalog::sound_name(from, u32::from(sound)).unwrap_or("a sound the catalogue does not name");
    let animations: Vec<String> = animations.iter().map(ToString::to_string).collect();
    let (noun, these) = match animations.len() {
        1 => ("animation", "its sound command is"),
        _ => ("animations", "their sound commands are"),
    };
    format!(
        "{object}: {} has no sound for {}'s sound {sound} ({name}), which {noun} {} played; {these} \
         dropped (a wrong sound is worse than none)",
        to.name(),
        from.name(),
        animations.join(", "),
    )
}

/// What `convert` lists for an object `to` has no slot for.
fn left_out_line(kind: ObjectKind, from: Game, id: u32, to: Game, name: &str) -> String {
    let nearest = nearest_slots_text(kind, to, name).map_or_else(String::new, |n| format!("{n}; "));
    format!(
        "{name} ({kind} {id}): {} has no {kind} slot for {}'s {name}; left out ({nearest}--as {name}=SLOT \
         places it)",
        to.name(),
        from.name(),
    )
}

/// `nearest slots: A, B, C`: the slots of `to` most like `name` ([`catalog::nearest_slots`]),
/// for a message about an object `to` has none for; `None` where none is alike.
pub(crate) fn nearest_slots_text(kind: ObjectKind, to: Game, name: &str) -> Option<String> {
    let nearest = catalog::nearest_slots(to, name, kind == ObjectKind::Static, 3);
    (!nearest.is_empty()).then(|| format!("nearest slots: {}", nearest.join(", ")))
}

/// Drops the moveables at `dropped` (positions, ascending), keeping every animation reference of
/// the others that leaves its own moveable naming the same animation of the table written after
/// (the model stores such a reference relative to its moveable's first animation, in a table laid
/// out moveable after moveable); a reference into a dropped moveable then names its own
/// animation, as a reference that finds no animation does.
fn drop_moveables(wad: &mut Wad, dropped: &[usize]) {
    if dropped.is_empty() {
        return;
    }
    let keep: Vec<bool> = (0..wad.moveables.len()).map(|i| !dropped.contains(&i)).collect();
    // Where each moveable's animations start in the table before (every moveable) and after
    // (the kept ones; a dropped one's start is unused).
    let (mut old, mut new) = (Vec::new(), Vec::new());
    let (mut old_next, mut new_next) = (0usize, 0usize);
    for (m, moveable) in wad.moveables.iter().enumerate() {
        old.push(old_next);
        new.push(new_next);
        old_next += moveable.animations.len();
        if keep[m] {
            new_next += moveable.animations.len();
        }
    }
    let counts: Vec<usize> = wad.moveables.iter().map(|m| m.animations.len()).collect();
    // The reference `relative` of animation `own` of moveable `m`, for the table after.
    let retarget = |m: usize, own: usize, relative: i32| -> i32 {
        if relative >= 0 && (relative as usize) < counts[m] {
            return relative;
        }
        let absolute = old[m] as i64 + i64::from(relative);
        let owner = usize::try_from(absolute)
            .ok()
            .and_then(|at| (0..counts.len()).find(|&t| at >= old[t] && at - old[t] < counts[t]));
        match owner {
            Some(t) if keep[t] => (new[t] as i64 + (absolute - old[t] as i64) - new[m] as i64) as i32,
            Some(_) => own as i32,
            None => relative,
        }
    };
    for (m, moveable) in wad.moveables.iter_mut().enumerate() {
        if !keep[m] {
            continue;
        }
        for (a, animation) in moveable.animations.iter_mut().enumerate() {
            animation.next_animation = retarget(m, a, animation.next_animation);
            for change in &mut animation.state_changes {
                for dispatch in &mut change.dispatches {
                    dispatch.next_animation = retarget(m, a, dispatch.next_animation);
                }
            }
        }
    }
    let mut keep = keep.into_iter();
    wad.moveables.retain(|_| keep.next().unwrap_or(true));
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

fn slot_in(kind: ObjectKind, from: Game, id: u32, to: Game) -> Option<u32> {
    match kind {
        ObjectKind::Moveable => catalog::moveable_in(from, id, to),
        ObjectKind::Static => catalog::static_in(from, id, to),
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
    fn objects_move_to_the_slots_the_catalogue_maps_them_to() {
        // TEN's BADDY1 (id 178 there) is TR4's BADDY_1 (41), HAIR_PRIMARY (37) TR4's HAIR (30),
        // SPEEDBOAT TR4's MOTOR_BOAT (465): by the TR4 catalogue's ten= names, not by name.
        let baddy1 = catalog::moveable_id(Game::Ten, "BADDY1").unwrap();
        let speedboat = catalog::moveable_id(Game::Ten, "SPEEDBOAT").unwrap();
        let mut wad = objects(&[baddy1, 37, speedboat], &[10]);
        let listed = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad), (vec![41, 30, 465], vec![10]));
        assert!(listed.is_empty(), "{listed:?}");
        let listed = move_ids(&mut wad, Game::Tr4, Game::Ten, true, &[]).unwrap();
        assert_eq!(ids(&wad), (vec![baddy1, 37, speedboat], vec![10]));
        assert!(listed.is_empty(), "{listed:?}");
    }

    #[test]
    fn an_object_the_other_game_has_no_slot_for_is_left_out_and_listed() {
        // The old behaviour kept SNOWMOBILE's id 51, TR4's CROCODILE: TR4 has no slot for it,
        // nor for TEN's ANIMATING17 (TR4 has 16) or its static 200 (TR4's are 0-159).
        let animating17 = catalog::moveable_id(Game::Ten, "ANIMATING17").unwrap();
        let mut wad = objects(&[0, 51, 830, animating17], &[200, 3]);
        let listed = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad), (vec![0, 321], vec![3]));
        assert_eq!(
            listed,
            [
                "SNOWMOBILE (moveable 51): TR4 has no moveable slot for TEN's SNOWMOBILE; left out (--as \
                 SNOWMOBILE=SLOT places it)"
                    .to_owned(),
                format!(
                    "ANIMATING17 (moveable {animating17}): TR4 has no moveable slot for TEN's ANIMATING17; left \
                     out (nearest slots: ANIMATING1, ANIMATING10, ANIMATING11; --as ANIMATING17=SLOT places it)"
                ),
                "STATIC_200 (static 200): TR4 has no static slot for TEN's STATIC_200; left out (--as \
                 STATIC_200=SLOT places it)"
                    .to_owned(),
            ]
        );
        // `--as` still places it.
        let mut wad = objects(&[51], &[]);
        let listed = move_ids(
            &mut wad,
            Game::Ten,
            Game::Tr4,
            true,
            &rules(&["SNOWMOBILE=ANIMATING1"]),
        )
        .unwrap();
        assert_eq!(ids(&wad).0, [427]);
        assert!(listed.is_empty(), "{listed:?}");
    }

    #[test]
    fn references_across_objects_keep_their_animation_when_one_is_left_out() {
        // Three moveables of 2 animations each, laid out one after the other: LARA's animation 1
        // goes on to PULLEY's animation 0 (table place 4), past SNOWMOBILE's, which is left out;
        // PULLEY's animation 0 goes to SNOWMOBILE's (dropped: then to itself).
        let mut wad = objects(&[0, 51, 830], &[]);
        for m in &mut wad.moveables {
            m.animations = vec![Default::default(), Default::default()];
        }
        wad.moveables[0].animations[1].next_animation = 4;
        wad.moveables[2].animations[0].next_animation = -1;
        wad.moveables[2].animations[1].next_animation = -4;
        move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad).0, [0, 321]);
        assert_eq!(wad.moveables[0].animations[1].next_animation, 2, "PULLEY's first");
        assert_eq!(wad.moveables[1].animations[0].next_animation, 0, "itself");
        assert_eq!(wad.moveables[1].animations[1].next_animation, -2, "LARA's first");
    }

    /// A moveable of id `id` with one animation per list of commands.
    fn playing(id: u32, animations: &[&[Command]]) -> Moveable {
        Moveable {
            id,
            animations: (animations.iter())
                .map(|commands| wadforge_format::Animation {
                    commands: commands.to_vec(),
                    ..Default::default()
                })
                .collect(),
            ..Moveable::default()
        }
    }

    fn sound(frame: u16, sound: u16, on_land: bool) -> Command {
        Command::PlaySound {
            frame,
            sound,
            on_land,
            in_water: false,
        }
    }

    fn commands(wad: &Wad, m: usize) -> Vec<Vec<Command>> {
        wad.moveables[m]
            .animations
            .iter()
            .map(|a| a.commands.clone())
            .collect()
    }

    #[test]
    fn sound_commands_move_to_the_output_games_sound_ids() {
        // TR1's T-Rex (slot 18) roars with TR1's sound 71, TEN's 394 (TR1/Sounds.xml: `<sound
        // id="71" name="T-REX_ROAR" ten="394" />`); its footstomp, 70, is TEN's 393.
        let effect = Command::Effect { frame: 2, effect: 7 };
        let mut wad = Wad {
            moveables: vec![playing(
                18,
                &[&[sound(3, 71, true), effect], &[sound(9, 70, false)]],
            )],
            ..Wad::default()
        };
        let listed = move_ids(&mut wad, Game::Tr1, Game::Ten, true, &[]).unwrap();
        assert!(listed.is_empty(), "{listed:?}");
        assert_eq!(wad.moveables[0].id, 109, "TEN's TYRANNOSAUR");
        assert_eq!(
            commands(&wad, 0),
            [vec![sound(3, 394, true), effect], vec![sound(9, 393, false)]],
            "the frame and the land bit stay, the effect is no sound"
        );
    }

    #[test]
    fn a_sound_the_output_game_has_none_for_is_dropped_and_listed() {
        // TR4 has no T-Rex roar: the command goes, and the line names the sound and the
        // animations; LARA_FOOTSTEPS (0) is TR4's 0 and stays.
        let mut wad = objects(&[], &[]);
        wad.moveables = vec![playing(
            0,
            &[
                &[sound(1, 0, true), sound(4, 71, false)],
                &[],
                &[sound(0, 71, false)],
            ],
        )];
        let moved = move_sounds(&mut wad, 0..1, Game::Tr1, Game::Tr4);
        assert_eq!(commands(&wad, 0), [vec![sound(1, 0, true)], vec![], vec![]]);
        assert_eq!((moved.moved, moved.kept, moved.dropped), (0, 1, 2));
        assert_eq!(
            moved.dropped_lines,
            [
                "LARA (moveable 0): TR4 has no sound for TR1's sound 71 (T_REX_ROAR), which animations 0, 2 \
              played; their sound commands are dropped (a wrong sound is worse than none)"
            ]
        );
    }

    #[test]
    fn tomb_engine_sounds_move_back_by_the_classic_catalogues() {
        // TEN's 394 is TR1's 71; TEN's own sound 1150 (TEN_CUSTOM_FOOTSTEPS_1) is no TR4 sound;
        // TEN's 12 is TR4's 12 (TEN keeps TR4's ids).
        let mut wad = objects(&[], &[]);
        wad.moveables = vec![playing(
            830,
            &[&[sound(0, 394, false), sound(1, 1150, false), sound(2, 12, false)]],
        )];
        let to_tr1 = move_sounds(&mut wad.clone(), 0..1, Game::Ten, Game::Tr1);
        assert_eq!(
            (to_tr1.moved, to_tr1.dropped),
            (1, 2),
            "{:?}",
            to_tr1.dropped_lines
        );
        let listed = move_ids(&mut wad, Game::Ten, Game::Tr4, true, &[]).unwrap();
        assert_eq!(ids(&wad).0, [321], "PULLEY");
        assert_eq!(commands(&wad, 0), [vec![sound(2, 12, false)]]);
        assert_eq!(listed.len(), 2, "{listed:?}");
        assert!(listed[0].starts_with("PULLEY (moveable 321): TR4 has no sound for TEN's sound 394 (TR1_T_REX_ROAR), which animation 0 played; its sound command is dropped"), "{listed:?}");
        assert!(
            listed[1].contains("TEN's sound 1150 (TEN_CUSTOM_FOOTSTEPS_1)"),
            "{listed:?}"
        );
    }

    #[test]
    fn within_one_game_sounds_keep_their_ids() {
        // `--as` alone moves no sound: a TR4 sound the catalogue does not name stays.
        let mut wad = objects(&[], &[]);
        wad.moveables = vec![playing(51, &[&[sound(0, 2000, false)]])];
        let listed = move_ids(
            &mut wad,
            Game::Tr4,
            Game::Tr4,
            false,
            &rules(&["CROCODILE=ANIMATING1"]),
        )
        .unwrap();
        assert!(listed.is_empty(), "{listed:?}");
        assert_eq!(commands(&wad, 0), [vec![sound(0, 2000, false)]]);
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
