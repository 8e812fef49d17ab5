//! `copy`: objects of one WAD or level into another WAD, exactly, replacing or joining.

use std::collections::{BTreeMap, BTreeSet};

use wadforge_format::catalog::Game;
use wadforge_format::{Command, MoveableIndex, StaticIndex, Wad};

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
    /// Sound ids the copied animations play, with the objects that play each.
    pub sounds: BTreeMap<u16, BTreeSet<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CopiedObject {
    /// As the source calls it, e.g. `BEAR (moveable 8)`.
    pub from: String,
    /// As the output calls it.
    pub to: String,
    pub replaced: bool,
}

/// Copies `selection` (objects of `src`) into `dest`. Each object keeps its id, or takes
/// `as_id` (only for a single object); it replaces the destination's object of that kind and id
/// or joins the list. See [`crate::merge::merge`] for what comes along.
pub fn copy(
    src: &Input,
    selection: &[ObjectRef],
    dest: &Input,
    as_id: Option<u32>,
) -> Result<Copied, EditError> {
    let incoming = incoming(src, selection, as_id)?;
    let merged = merge(dest, &[], Some((src, &incoming)))?;
    let objects = incoming
        .iter()
        .map(|&(o, id)| CopiedObject {
            from: o.name(src.wad, src.game).to_string(),
            to: name_in_output(&merged.wad, dest.game, o, id),
            replaced: match o {
                ObjectRef::Moveable(_) => dest.wad.moveables.iter().any(|m| m.id == id),
                ObjectRef::Static(_) => dest.wad.statics.iter().any(|s| s.id == id),
            },
        })
        .collect();
    Ok(Copied {
        wad: merged.wad,
        objects,
        broken: merged.broken,
        broken_unlisted: merged.broken_unlisted,
        textures: merged.textures,
        sounds: sounds_played(src, &incoming),
    })
}

/// Each selected object with its id in the output; two of one kind may not take one id.
fn incoming(
    src: &Input,
    selection: &[ObjectRef],
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
    let incoming: Vec<(ObjectRef, u32)> = selection
        .iter()
        .map(|&o| {
            let id = match o {
                ObjectRef::Moveable(j) => src.wad.moveables[j].id,
                ObjectRef::Static(j) => src.wad.statics[j].id,
            };
            (o, as_id.unwrap_or(id))
        })
        .collect();
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

/// The sound ids the incoming moveables' animations play, with the objects that play each.
fn sounds_played(src: &Input, incoming: &[(ObjectRef, u32)]) -> BTreeMap<u16, BTreeSet<String>> {
    let mut sounds: BTreeMap<u16, BTreeSet<String>> = BTreeMap::new();
    for &(o, _) in incoming {
        if let ObjectRef::Moveable(j) = o {
            for a in &src.wad.moveables[j].animations {
                for c in &a.commands {
                    if let Command::PlaySound { sound, .. } = *c {
                        sounds
                            .entry(sound)
                            .or_default()
                            .insert(o.name(src.wad, src.game).to_string());
                    }
                }
            }
        }
    }
    sounds
}
