//! `build --new MODEL.glb=SLOT`: a glTF no wadforge wrote (a new armature or mesh from Blender)
//! read as one new object (`foreign::read_gltf`, as `import --slot` reads it) and added to the
//! built model, so a new object reaches a WAD without a manifest written for it by hand and
//! without build writing into its input directory.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_edit::merge::Input;
use wadforge_exporter::foreign::{self, ForeignOptions, Slot};
use wadforge_format::catalog::{self, Game};
use wadforge_format::selection::ObjectRef;
use wadforge_format::{MoveableIndex, StaticIndex, Wad};
use wadforge_manifests::{ManifestDir, ObjectManifest};

/// One `--new FILE=SLOT`: the glTF and the slot name (or moveable id) it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewObject {
    pub file: PathBuf,
    pub slot: String,
}

/// Parses `FILE=SLOT` (the last `=` splits, so a file name may hold one).
pub fn parse(text: &str) -> Result<NewObject, String> {
    match text.rsplit_once('=') {
        Some((file, slot)) if !file.is_empty() && !slot.trim().is_empty() => Ok(NewObject {
            file: PathBuf::from(file),
            slot: slot.trim().to_string(),
        }),
        _ => Err(format!(
            "{text:?} is not FILE=SLOT: give the glTF and the catalogue slot it takes, e.g. \
             new/ANIMATING1.glb=ANIMATING1"
        )),
    }
}

/// What adding the new objects made: the model, the `.was` names in its order, and notes.
pub struct Added {
    pub wad: Wad,
    pub names: Vec<String>,
    pub notes: Vec<String>,
}

/// Adds each new object to `built` (whose `.was` names are `names`), in `game`'s slots. A slot
/// the manifest directory `dir_ids` already holds is refused (its object would be lost without a
/// word); a slot only the base holds is replaced, as the directory's objects replace the base's.
pub fn add(
    built: Wad,
    names: Vec<String>,
    new: &[NewObject],
    dir_ids: &DirIds,
    (game, tr_units_per_metre): (Game, f64),
) -> anyhow::Result<Added> {
    let mut wad = built;
    let mut names = names;
    let mut notes = Vec::new();
    let mut taken: Vec<Slot> = Vec::new();
    for object in new {
        let slot = Slot::named(game, &object.slot)
            .map_err(|e| anyhow::anyhow!("--new {}={}: {e}", object.file.display(), object.slot))?;
        refuse_taken(object, slot, dir_ids, &taken, game)?;
        taken.push(slot);
        let options = ForeignOptions {
            slot,
            game,
            tr_units_per_metre,
        };
        let read = foreign::read_gltf(&object.file, &options)
            .with_context(|| format!("cannot read the new object {}", object.file.display()))?;
        notes.extend(
            read.notes
                .iter()
                .map(|n| format!("{}: {n}", object.file.display())),
        );
        let selection = match slot {
            Slot::Moveable(_) => ObjectRef::Moveable(MoveableIndex(0)),
            Slot::Static(_) => ObjectRef::Static(StaticIndex(0)),
        };
        let copied = wadforge_edit::copy(
            &Input::canonical(&read.wad, game),
            &[selection],
            &Input::canonical(&wad, game),
            None,
        )
        .with_context(|| format!("cannot add the new object {} to the build", object.file.display()))?;
        names = names_after(&wad, &names, &copied.wad, game);
        notes.push(format!(
            "{} added as {}",
            object.file.display(),
            slot.object_name(game)
        ));
        wad = copied.wad;
    }
    Ok(Added { wad, names, notes })
}

/// The ids of the objects a manifest directory holds, by kind.
#[derive(Debug, Default)]
pub struct DirIds {
    pub moveables: Vec<u32>,
    pub statics: Vec<u32>,
}

impl DirIds {
    pub fn of(dir: &ManifestDir) -> DirIds {
        let mut ids = DirIds::default();
        for object in &dir.objects {
            match &object.manifest {
                ObjectManifest::Moveable(m) => ids.moveables.push(m.id),
                ObjectManifest::Static(s) => ids.statics.push(s.id),
            }
        }
        ids
    }
}

fn refuse_taken(
    object: &NewObject,
    slot: Slot,
    dir_ids: &DirIds,
    taken: &[Slot],
    game: Game,
) -> anyhow::Result<()> {
    let held = match slot {
        Slot::Moveable(id) => dir_ids.moveables.contains(&id),
        Slot::Static(id) => dir_ids.statics.contains(&id),
    };
    let name = slot.object_name(game);
    if held {
        bail!(
            "--new {}={}: the manifest directory already holds {name}; give the new object another slot, or \
             take the directory's object out of wadforge.yaml's list first",
            object.file.display(),
            object.slot
        );
    }
    if taken.contains(&slot) {
        bail!(
            "--new {}={}: another --new already takes {name}; give each new object its own slot",
            object.file.display(),
            object.slot
        );
    }
    Ok(())
}

/// The `.was` names of `after`: each object `before` had keeps its name, a new one takes the
/// catalogue's.
fn names_after(before: &Wad, names: &[String], after: &Wad, game: Game) -> Vec<String> {
    let moveables = before.moveables.len();
    let old_moveable = |id: u32| before.moveables.iter().position(|m| m.id == id);
    let old_static = |id: u32| {
        before
            .statics
            .iter()
            .position(|s| s.id == id)
            .map(|i| moveables + i)
    };
    let kept = |i: Option<usize>| i.and_then(|i| names.get(i).cloned());
    (after.moveables.iter())
        .map(|m| kept(old_moveable(m.id)).unwrap_or_else(|| catalog::moveable_slot(game, m.id).to_string()))
        .chain(
            (after.statics.iter()).map(|s| {
                kept(old_static(s.id)).unwrap_or_else(|| catalog::static_slot(game, s.id).to_string())
            }),
        )
        .collect()
}

/// Refuses a new object's file inside the output's path (never written over) or missing.
pub fn refuse_missing(new: &[NewObject], out: &Path) -> anyhow::Result<()> {
    for object in new {
        if !object.file.is_file() {
            bail!(
                "--new {}: no such file; export the new object's glTF (.glb) first",
                object.file.display()
            );
        }
        if crate::output::same_file(&object.file, out) {
            bail!(
                "{} is a new object's glTF; build into another file (wadforge never writes over its inputs)",
                out.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_splits_at_the_last_equals_sign() {
        let parsed = parse("new/a=b.glb=ANIMATING1").unwrap();
        assert_eq!(parsed.file, PathBuf::from("new/a=b.glb"));
        assert_eq!(parsed.slot, "ANIMATING1");
        assert!(parse("model.glb").is_err());
        assert!(parse("model.glb=").is_err());
    }
}
