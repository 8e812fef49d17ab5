//! `copy`: objects of one WAD or level into another WAD, exactly, replacing or joining; between
//! files of different games, into the destination game's slots and sound ids.

use std::collections::{BTreeMap, BTreeSet};

use wadforge_format::catalog::{self, Game};
use wadforge_format::{Command, MoveableIndex, ObjectKind, StaticIndex, Wad};

use crate::ids::{move_sounds, nearest_slots_text, SoundsMoved};
use crate::merge::{merge, BrokenReference, Input};
use crate::texture::TextureReport;
use crate::EditError;
use wadforge_format::selection::ObjectRef;

/// The result of a copy.
pub struct Copied {
    pub wad: Wad,
    /// Each copied object as it is called in the output, and whether it replaced one.
    pub objects: Vec<CopiedObject>,
    /// Animation references of the output that lost their target.
    pub broken: Vec<BrokenReference>,
    /// References that lost their target past those listed in `broken`.
    pub broken_unlisted: usize,
    pub textures: TextureReport,
    /// Sound ids the copied animations play (the destination game's), with the objects that
    /// play each.
    pub sounds: BTreeMap<u16, BTreeSet<String>>,
    /// The copied sound commands moved to the destination game's sound ids (between files of
    /// different games), and those dropped for a sound it has none for.
    pub sounds_moved: SoundsMoved,
    /// Between a classic game and Tomb Engine, what the destination's engine needs reshaped of
    /// the copied moveables (holsters, back weapons) or keeps though it differs, a line per
    /// object and change ([`crate::engines::reshape_moveable`], as `convert` lists it).
    pub reshaped: Vec<String>,
    /// The copied moveables whose meshes that reshaping laid out anew, by id, with where each
    /// mesh came from ([`crate::engines::mesh_sources`]): the source's per-mesh detail follows.
    pub remeshed: Vec<(u32, Vec<Option<usize>>)>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CopiedObject {
    /// As the source calls it, e.g. `BEAR (moveable 8)`.
    pub from: String,
    /// As the output calls it.
    pub to: String,
    /// Its id in the output: the one it had, the slot the catalogue gives it in the
    /// destination's game, or the one `as_id` asked for.
    pub id: u32,
    pub replaced: bool,
}

/// Copies `selection` (objects of `src`) into `dest`. Each object takes its slot in the
/// destination's game: its own id within a game, the slot the catalogue maps it to between
/// games ([`catalog::moveable_in`], [`catalog::static_in`]: TR1's CROCODILE_ON_LAND is TR4's
/// CROCODILE), or `as_id` (only for a single object); it replaces the destination's object of
/// that kind and id or joins the list. An object the destination's game has no slot for is
/// refused ([`EditError::NoSlotInDestination`]), never written under a foreign id. Between games,
/// the copied sound commands move to the destination game's sound ids, those it has none for
/// dropped and listed ([`crate::ids::move_sounds`]), and between a classic game and Tomb Engine
/// the copied moveables are reshaped as the destination's engine needs ([`Copied::reshaped`]).
/// See [`crate::merge::merge`] for what comes along.
pub fn copy(
    src: &Input,
    selection: &[ObjectRef],
    dest: &Input,
    as_id: Option<u32>,
) -> Result<Copied, EditError> {
    let incoming = incoming(src, selection, dest.game, as_id)?;
    let mut merged = merge(dest, &[], Some((src, &incoming)))?;
    let copied_moveables: Vec<usize> = (incoming.iter())
        .filter(|(o, _)| matches!(o, ObjectRef::Moveable(_)))
        .filter_map(|&(_, id)| merged.wad.moveables.iter().position(|m| m.id == id))
        .collect();
    let sounds_moved = move_sounds(
        &mut merged.wad,
        copied_moveables.iter().copied(),
        src.game,
        dest.game,
    );
    // After the ids, which name the objects the destination's engine draws otherwise.
    let (mut reshaped, mut remeshed) = (Vec::new(), Vec::new());
    for &m in &copied_moveables {
        let meshes = merged.wad.moveables[m].meshes.clone();
        reshaped.extend(crate::engines::reshape_moveable(
            &mut merged.wad,
            m,
            src.game,
            dest.game,
        ));
        let moveable = &merged.wad.moveables[m];
        if moveable.meshes != meshes {
            let sources = crate::engines::mesh_sources(&merged.wad, &meshes, &moveable.meshes);
            remeshed.push((moveable.id, sources));
        }
    }
    let objects = incoming
        .iter()
        .map(|&(o, id)| CopiedObject {
            from: o.name(src.wad, src.game).to_string(),
            to: name_in_output(&merged.wad, dest.game, o, id),
            id,
            replaced: match o {
                ObjectRef::Moveable(_) => dest.wad.moveables.iter().any(|m| m.id == id),
                ObjectRef::Static(_) => dest.wad.statics.iter().any(|s| s.id == id),
            },
        })
        .collect();
    Ok(Copied {
        sounds: sounds_played(&merged.wad, dest.game, &copied_moveables),
        wad: merged.wad,
        objects,
        broken: merged.broken,
        broken_unlisted: merged.broken_unlisted,
        textures: merged.textures,
        sounds_moved,
        reshaped,
        remeshed,
    })
}

/// Each selected object with its id in the output (`to`'s game); two of one kind may not take
/// one id, and every object needs a slot of `to`.
fn incoming(
    src: &Input,
    selection: &[ObjectRef],
    to: Game,
    as_id: Option<u32>,
) -> Result<Vec<(ObjectRef, u32)>, EditError> {
    if as_id.is_some() && selection.len() != 1 {
        return Err(EditError::AsNeedsOneObject(
            selection
                .iter()
                .map(|o| o.name(src.wad, src.game).to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    let mut incoming = Vec::new();
    let mut slotless = Vec::new();
    for &o in selection {
        let (kind, id) = match o {
            ObjectRef::Moveable(j) => (ObjectKind::Moveable, src.wad.moveables[j].id),
            ObjectRef::Static(j) => (ObjectKind::Static, src.wad.statics[j].id),
        };
        let slot = match (as_id, kind) {
            (Some(as_id), _) => Some(as_id),
            (None, ObjectKind::Moveable) => catalog::moveable_in(src.game, id, to),
            (None, ObjectKind::Static) => catalog::static_in(src.game, id, to),
        };
        match slot {
            Some(slot) => incoming.push((o, slot)),
            None => slotless.push(no_slot_line(src, o, kind, to)),
        }
    }
    if !slotless.is_empty() {
        return Err(EditError::NoSlotInDestination {
            objects: slotless.join("\n  "),
            game: to.name(),
        });
    }
    for (n, &(o, id)) in incoming.iter().enumerate() {
        let twin = incoming[..n].iter().find(|&&(p, other)| {
            other == id && matches!(p, ObjectRef::Moveable(_)) == matches!(o, ObjectRef::Moveable(_))
        });
        if let Some(&(p, _)) = twin {
            return Err(EditError::DuplicateIncoming {
                first: p.name(src.wad, src.game).to_string(),
                second: o.name(src.wad, src.game).to_string(),
                id,
            });
        }
    }
    Ok(incoming)
}

/// How the output (the destination's `game`) calls the copied object of that kind and `id`.
fn name_in_output(out: &Wad, game: Game, o: ObjectRef, id: u32) -> String {
    let placed = match o {
        ObjectRef::Moveable(_) => ObjectRef::Moveable(
            out.moveables
                .iter()
                .position(|m| m.id == id)
                .map(MoveableIndex)
                .expect("copied moveable"),
        ),
        ObjectRef::Static(_) => ObjectRef::Static(
            out.statics
                .iter()
                .position(|s| s.id == id)
                .map(StaticIndex)
                .expect("copied static"),
        ),
    };
    placed.name(out, game).to_string()
}

/// What the refusal says of an object `to` has no slot for: the object, the nearest slots.
fn no_slot_line(src: &Input, o: ObjectRef, kind: ObjectKind, to: Game) -> String {
    let name = o.name(src.wad, src.game);
    let slot = name.to_string();
    let slot = slot.split(" (").next().unwrap_or_default();
    let nearest = nearest_slots_text(kind, to, slot).map_or_else(String::new, |n| format!(" ({n})"));
    format!(
        "{name}: {} has no {kind} slot for {}'s {slot}{nearest}",
        to.name(),
        src.game.name()
    )
}

/// The sound ids the copied moveables (at `copied` in `out`) play, with the objects that play
/// each, named in the output's `game`.
fn sounds_played(out: &Wad, game: Game, copied: &[usize]) -> BTreeMap<u16, BTreeSet<String>> {
    let mut sounds: BTreeMap<u16, BTreeSet<String>> = BTreeMap::new();
    for &m in copied {
        let name = ObjectRef::Moveable(MoveableIndex(m)).name(out, game).to_string();
        for a in &out.moveables[m].animations {
            for c in &a.commands {
                if let Command::PlaySound { sound, .. } = *c {
                    sounds.entry(sound).or_default().insert(name.clone());
                }
            }
        }
    }
    sounds
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard fixture, its crocodile renumbered `id` and playing only `sounds` (frame 0,
    /// on land), in its first animation.
    fn crocodile_as(id: u32, sounds: &[u16]) -> Wad {
        let mut wad = wadforge_fixtures::standard();
        let crocodile = wad
            .moveables
            .iter()
            .position(|m| m.id == 51)
            .expect("the fixture's CROCODILE");
        wad.moveables[crocodile].id = id;
        for animation in &mut wad.moveables[crocodile].animations {
            animation
                .commands
                .retain(|c| !matches!(c, Command::PlaySound { .. }));
        }
        wad.moveables[crocodile].animations[0]
            .commands
            .extend(sounds.iter().map(|&sound| Command::PlaySound {
                frame: 0,
                sound,
                on_land: true,
                in_water: false,
            }));
        wad
    }

    fn crocodile_of(wad: &Wad) -> ObjectRef {
        ObjectRef::Moveable(MoveableIndex(
            wad.moveables
                .iter()
                .position(|m| m.id == 10)
                .expect("TR1's CROCODILE_ON_LAND"),
        ))
    }

    fn sounds_of(wad: &Wad, id: u32) -> Vec<u16> {
        let m = wad
            .moveables
            .iter()
            .find(|m| m.id == id)
            .expect("the copied moveable");
        (m.animations[0].commands.iter())
            .filter_map(|c| match *c {
                Command::PlaySound { sound, on_land, .. } => on_land.then_some(sound),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn between_games_an_object_goes_to_its_slot_and_its_sounds_to_the_destinations_ids() {
        // TR1's CROCODILE_ON_LAND (10) is TR4's CROCODILE (51), whose slot the fixture fills.
        // Its sounds: LARA_FOOTSTEPS (0) is TR4's 0; CROC_FEET (92, TEN's 416) is TR4's CROC_FEET
        // (73) by name; T_REX_ROAR (71, TEN's 394) is no TR4 sound.
        let src = crocodile_as(10, &[0, 92, 71]);
        let dest = wadforge_fixtures::standard();
        let copied = copy(
            &Input::canonical(&src, Game::Tr1),
            &[crocodile_of(&src)],
            &Input::canonical(&dest, Game::Tr4),
            None,
        )
        .unwrap();
        let object = &copied.objects[0];
        assert_eq!(
            (
                object.from.as_str(),
                object.to.as_str(),
                object.id,
                object.replaced
            ),
            (
                "CROCODILE_ON_LAND (moveable 10)",
                "CROCODILE (moveable 51)",
                51,
                true
            )
        );
        assert!(
            !copied.wad.moveables.iter().any(|m| m.id == 10),
            "no TR1 id in a TR4 file"
        );
        assert_eq!(sounds_of(&copied.wad, 51), [0, 73], "the land bit kept");
        let moved = &copied.sounds_moved;
        assert_eq!((moved.moved, moved.kept, moved.dropped), (1, 1, 1));
        assert_eq!(
            moved.dropped_lines,
            ["CROCODILE (moveable 51): TR4 has no sound for TR1's sound 71 (T_REX_ROAR), which animation 0 \
              played; its sound command is dropped (a wrong sound is worse than none)"]
        );
        assert_eq!(
            copied.sounds.keys().copied().collect::<Vec<_>>(),
            [0, 73],
            "DEST's ids"
        );
    }

    #[test]
    fn an_object_the_destinations_game_has_no_slot_for_is_refused_naming_as() {
        // TR1's LARA_MAGNUM_ANIMATION (3) has no TR4 slot: not by name, not by a TEN slot.
        let src = crocodile_as(3, &[]);
        let dest = wadforge_fixtures::standard();
        let magnum = ObjectRef::Moveable(MoveableIndex(
            src.moveables.iter().position(|m| m.id == 3).unwrap(),
        ));
        let src_input = Input::canonical(&src, Game::Tr1);
        let dest_input = Input::canonical(&dest, Game::Tr4);
        let error = copy(&src_input, &[magnum], &dest_input, None)
            .err()
            .expect("refused");
        let message = error.to_string();
        assert!(
            message.contains(
                "LARA_MAGNUM_ANIMATION (moveable 3): TR4 has no moveable slot for TR1's LARA_MAGNUM_ANIMATION"
            ),
            "{message}"
        );
        assert!(
            message.contains("copy such an object alone with --as SLOT"),
            "{message}"
        );
        // `--as` places it.
        let copied = copy(&src_input, &[magnum], &dest_input, Some(427)).unwrap();
        assert_eq!(copied.objects[0].to, "ANIMATING1 (moveable 427)");
    }

    #[test]
    fn within_a_game_objects_and_sounds_keep_their_ids() {
        // TR4 into TR4: sound 2000 (no TR4 catalogue sound) stays, nothing is counted as moved.
        let src = crocodile_as(10, &[2000]);
        let dest = wadforge_fixtures::standard();
        let copied = copy(
            &Input::canonical(&src, Game::Tr4),
            &[crocodile_of(&src)],
            &Input::canonical(&dest, Game::Tr4),
            None,
        )
        .unwrap();
        assert_eq!(copied.objects[0].id, 10);
        assert_eq!(sounds_of(&copied.wad, 10), [2000]);
        assert_eq!(copied.sounds_moved.dropped, 0);
    }
}
