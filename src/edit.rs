//! `wadforge copy`, `wadforge remove` and `wadforge check`: WADs and Wad2 files edited directly,
//! objects moved or dropped exactly, and checked (and repaired).

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_edit::sounds::SoundTable;
use wadforge_edit::Input;
use wadforge_format::catalog::Game;
use wadforge_format::selection::ObjectRef;
use wadforge_format::{wad, wad2, FileKind, Opened};

use crate::build::same_file;
use crate::edited::Edited;
use crate::input;

pub struct CopyArgs<'a> {
    pub src: &'a Path,
    pub dest: &'a Path,
    pub out: &'a Path,
    pub only: Vec<String>,
    pub as_slot: Option<String>,
    pub quiet: bool,
}

pub fn copy(args: CopyArgs) -> anyhow::Result<()> {
    refuse_overwrite(args.out, &[args.src, args.dest])?;
    let src = input::read(args.src)?;
    let dest = read_editable(args.dest)?;
    let selection = wadforge_edit::select(&src.model, src.game, &args.only)?;
    let as_id = args
        .as_slot
        .as_deref()
        .map(|name| {
            let moveable = matches!(selection.first(), Some(wadforge_edit::ObjectRef::Moveable(_)));
            wadforge_edit::slot_id(dest.game, moveable, name)
        })
        .transpose()?;
    let copied = wadforge_edit::copy(&edit_input(&src), &selection, &edit_input(&dest), as_id)?;
    let model_losses = copied_losses(&src, &dest, &copied.objects);
    let size = Edited {
        out: args.out,
        base: (args.dest, &dest),
        copied_detail: src.wad2.as_ref().map(|document| {
            let ids = selection
                .iter()
                .map(|o| as_id.unwrap_or_else(|| o.id(&src.model)));
            copied_detail(document, &selection, ids)
        }),
        model_losses,
        quiet: args.quiet,
    }
    .write(&copied.wad)?;
    if args.quiet {
        return Ok(());
    }
    for o in &copied.objects {
        let how = if o.replaced { "replaced" } else { "added" };
        eprintln!("copied {} -> {} ({how})", o.from, o.to);
        let slot = |d: &str| d.split(" (").next().unwrap_or_default().to_string();
        if src.game != dest.game && args.as_slot.is_none() && slot(&o.from) != slot(&o.to) {
            eprintln!(
                "note: the id of {} ({}) is {} in {}; pass --as to put it into another slot",
                o.from,
                src.game.name(),
                slot(&o.to),
                match dest.game {
                    Game::Tr4 => "a TR4 WAD".to_string(),
                    game => format!("a {} file", game.name()),
                }
            );
        }
    }
    let t = copied.textures;
    eprintln!(
        "samples: {} reused (same texels), {} in free page space, {} on {} new pages",
        t.reused, t.in_free_space, t.on_new_pages, t.new_pages
    );
    for b in &copied.broken {
        eprintln!("warning: {b}");
    }
    if copied.broken_unlisted > 0 {
        eprintln!(
            "warning: {} more references lost their target and now point at their own animation (not listed)",
            copied.broken_unlisted
        );
    }
    report_sounds(args.dest, &copied.sounds);
    eprintln!(
        "wrote {}: {} moveables, {} statics, {} pages, {} samples, {size} bytes",
        args.out.display(),
        copied.wad.moveables.len(),
        copied.wad.statics.len(),
        copied.wad.pages.len(),
        copied.wad.samples.len(),
    );
    Ok(())
}

/// What the model could not hold of the objects a copy writes (from Wad2 inputs): the
/// destination's but those replaced, and the copied objects'.
fn copied_losses(src: &Opened, dest: &Opened, copied: &[wadforge_edit::CopiedObject]) -> Vec<String> {
    let replaced: Vec<&str> = (copied.iter())
        .filter(|o| o.replaced)
        .map(|o| o.to.as_str())
        .collect();
    let copied_from: Vec<&str> = copied.iter().map(|o| o.from.as_str()).collect();
    (dest.losses.iter())
        .filter(|l| !replaced.contains(&l.object.as_str()))
        .chain((src.losses.iter()).filter(|l| copied_from.contains(&l.object.as_str())))
        .map(ToString::to_string)
        .collect()
}

/// The Tomb Editor detail of the `selection` of a Wad2 (its document's objects, one for each
/// of the model's, in order), under the ids `ids` they take in the output.
fn copied_detail(
    document: &wad2::Document,
    selection: &[ObjectRef],
    ids: impl Iterator<Item = u32>,
) -> wad2::Document {
    // Its textures, which the objects' polygons name by number (those left unused are left out).
    let mut detail = wad2::Document {
        textures: document.textures.clone(),
        ..wad2::Document::default()
    };
    for (object, id) in selection.iter().zip(ids) {
        match *object {
            ObjectRef::Moveable(i) => detail.moveables.extend(document.moveables.get(i).map(|m| {
                let mut m = m.clone();
                m.id = i64::from(id);
                m
            })),
            ObjectRef::Static(i) => detail.statics.extend(document.statics.get(i).map(|s| {
                let mut s = s.clone();
                s.id = i64::from(id);
                s
            })),
        }
    }
    detail
}

pub struct RemoveArgs<'a> {
    pub wad: &'a Path,
    pub out: &'a Path,
    pub only: Vec<String>,
    pub quiet: bool,
}

pub fn remove(args: RemoveArgs) -> anyhow::Result<()> {
    refuse_overwrite(args.out, &[args.wad])?;
    let objects = read_editable(args.wad)?;
    let selection = wadforge_edit::select(&objects.model, objects.game, &args.only)?;
    let removed = wadforge_edit::remove(&edit_input(&objects), &selection)?;
    let size = Edited {
        out: args.out,
        base: (args.wad, &objects),
        copied_detail: None,
        model_losses: (objects.losses.iter())
            .filter(|l| !removed.removed.contains(&l.object))
            .map(ToString::to_string)
            .collect(),
        quiet: args.quiet,
    }
    .write(&removed.wad)?;
    if args.quiet {
        return Ok(());
    }
    for r in &removed.removed {
        eprintln!("removed {r}");
    }
    eprintln!(
        "dropped {} meshes, {} samples and {} pages that nothing used any more{}",
        removed.dropped_meshes,
        removed.dropped_samples,
        removed.dropped_pages,
        if removed.repacked {
            " (samples packed again)"
        } else {
            ""
        }
    );
    for b in &removed.broken {
        eprintln!("warning: {b}");
    }
    if removed.broken_unlisted > 0 {
        eprintln!(
            "warning: {} more references lost their target and now point at their own animation (not listed)",
            removed.broken_unlisted
        );
    }
    eprintln!(
        "wrote {}: {} moveables, {} statics, {} pages, {} samples, {size} bytes",
        args.out.display(),
        removed.wad.moveables.len(),
        removed.wad.statics.len(),
        removed.wad.pages.len(),
        removed.wad.samples.len(),
    );
    Ok(())
}

/// A WAD or a Wad2, refusing levels: a level's objects are edited by converting them first.
fn read_editable(path: &Path) -> anyhow::Result<Opened> {
    let objects = input::read(path)?;
    if !editable(&objects) {
        bail!(
            "{} is a {}; only a WAD or a Wad2 can be edited (a level can be the source of `wadforge \
             copy`, or `wadforge convert` makes a WAD of it)",
            path.display(),
            objects.description()
        );
    }
    Ok(objects)
}

fn editable(objects: &Opened) -> bool {
    matches!(objects.kind, FileKind::Wad | FileKind::Wad2)
}

fn edit_input(o: &Opened) -> Input<'_> {
    Input {
        wad: &o.model,
        game: o.game,
        starts: o.animation_starts(),
    }
}

/// Refuses an output that is an input, or that shares a name (and so the `.was`, `.swd`, `.sam`
/// and `.sfx`) with one.
fn refuse_overwrite(out: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    crate::output::refuse_companion_extension(out)?;
    for input in inputs {
        let stem = |p: &Path| p.with_extension("");
        if out == *input
            || same_file(out, input)
            || stem(out) == stem(input)
            || (out.exists() && same_file(&stem(out), &stem(input)))
            || same_file(&out.with_extension("was"), &input.with_extension("was"))
        {
            bail!(
                "{} would overwrite the input {} (or the files beside it); write into another file \
                 (wadforge never writes over its inputs)",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Lists the sound ids the copied animations play that the destination's `.sfx` does not define.
fn report_sounds(dest: &Path, sounds: &std::collections::BTreeMap<u16, std::collections::BTreeSet<String>>) {
    if sounds.is_empty() {
        return;
    }
    let list = |ids: &[(&u16, &std::collections::BTreeSet<String>)]| {
        ids.iter()
            .map(|(id, who)| format!("{id} ({})", who.iter().cloned().collect::<Vec<_>>().join(", ")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sfx_path = dest.with_extension("sfx");
    let table = wadforge_files::input::read(&sfx_path).ok().map(|sfx| {
        let sam = wadforge_files::input::read_to_string(&dest.with_extension("sam")).ok();
        SoundTable::read(&sfx, sam.as_deref())
    });
    let all: Vec<_> = sounds.iter().collect();
    match table {
        Some(Some(table)) => {
            let missing: Vec<_> = sounds.iter().filter(|(id, _)| !table.defines(**id)).collect();
            if missing.is_empty() {
                eprintln!(
                    "sounds: every sound the copied animations play is defined in {}",
                    sfx_path.display()
                );
            } else {
                eprintln!(
                    "sounds the copied animations play that {} does not define (add them to the level's sounds): {}",
                    sfx_path.display(),
                    list(&missing)
                );
            }
        }
        Some(None) => eprintln!(
            "sounds the copied animations play (not checked: {} is not a sound map wadforge can read): {}",
            sfx_path.display(),
            list(&all)
        ),
        None => eprintln!(
            "sounds the copied animations play (not checked: the destination has no {}): {}",
            sfx_path.display(),
            list(&all)
        ),
    }
}

pub struct CheckArgs<'a> {
    pub file: &'a Path,
    pub json: bool,
    pub fix: bool,
    pub out: Option<&'a Path>,
}

/// Returns whether an error was found (exit code 1).
pub fn check(args: CheckArgs) -> anyhow::Result<bool> {
    if args.fix != args.out.is_some() {
        bail!("--fix needs -o OUT (the repaired WAD or Wad2), and -o is only for --fix");
    }
    if let Some(out) = args.out {
        refuse_overwrite(out, &[args.file])?;
    }
    let objects = input::read(args.file)?;
    let input = edit_input(&objects);
    let findings = wadforge_edit::check::check(
        &objects.model,
        objects.game,
        &input.starts,
        objects.layout.as_ref(),
        objects.file_bytes,
    );
    let errors = wadforge_edit::check::has_errors(&findings);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&findings)?);
    } else {
        for f in &findings {
            println!("{f}");
        }
        let count = |s| -> usize {
            findings
                .iter()
                .filter(|f| f.severity == s)
                .map(|f| f.count())
                .sum()
        };
        use wadforge_edit::check::Severity;
        println!(
            "{}: {} errors, {} warnings, {} notes",
            args.file.display(),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Note)
        );
    }
    if let Some(out) = args.out {
        if !editable(&objects) {
            bail!(
                "--fix repairs a WAD or a Wad2, and {} is a {}: `wadforge convert` makes a WAD of it",
                args.file.display(),
                objects.description()
            );
        }
        let mut model = objects.model.clone();
        let fixed = wadforge_edit::check::fix(&mut model, objects.game, objects.file_bytes)
            .with_context(|| format!("cannot recompute the keyframe boxes of {}", args.file.display()))?;
        Edited {
            out,
            base: (args.file, &objects),
            copied_detail: None,
            model_losses: objects.losses.iter().map(ToString::to_string).collect(),
            quiet: false,
        }
        .write(&model)?;
        // The canonical layout gives every animation keyframe words of its own.
        let relaid = (objects.layout.as_ref()).map_or(0, |layout| {
            wad::miscounted_animations(&objects.model, layout).len()
        });
        eprintln!(
            "fixed {} bounding spheres, {} keyframe boxes, {} normals, the keyframe layout of {relaid} \
             animations; wrote {}",
            fixed.spheres,
            fixed.keyframe_boxes,
            fixed.normals,
            out.display()
        );
    }
    Ok(errors)
}
