//! `wadforge copy` and `wadforge remove`: WADs edited directly, objects moved or dropped exactly.

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_edit::sounds::SoundTable;
use wadforge_edit::Input;
use wadforge_format::catalog::Game;
use wadforge_format::wad::{self, EncodedWad};
use wadforge_format::{FileKind, Opened, Wad};

use crate::build::{copy_companions, same_file};
use crate::input;
use crate::output::{write_slot_names, write_wad_atomically};

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
    let dest = read_wad(args.dest)?;
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
    // Everything is checked and assembled before anything is written.
    let encoded = wad::encode(&copied.wad, None).context("the result cannot be written as a WAD")?;
    write_outputs(args.out, &copied.wad, &encoded, args.dest)?;
    if args.quiet {
        return Ok(());
    }
    for o in &copied.objects {
        let how = if o.replaced { "replaced" } else { "added" };
        eprintln!("copied {} -> {} ({how})", o.from, o.to);
        let slot = |d: &str| d.split(" (").next().unwrap_or_default().to_string();
        if src.game != Game::Tr4 && args.as_slot.is_none() && slot(&o.from) != slot(&o.to) {
            eprintln!(
                "note: the id of {} ({}) is {} in a TR4 WAD; pass --as to put it into another slot",
                o.from,
                src.game.name(),
                slot(&o.to)
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
        "wrote {}: {} moveables, {} statics, {} pages, {} samples, {} bytes",
        args.out.display(),
        copied.wad.moveables.len(),
        copied.wad.statics.len(),
        copied.wad.pages.len(),
        copied.wad.samples.len(),
        encoded.size()
    );
    Ok(())
}

pub struct RemoveArgs<'a> {
    pub wad: &'a Path,
    pub out: &'a Path,
    pub only: Vec<String>,
    pub quiet: bool,
}

pub fn remove(args: RemoveArgs) -> anyhow::Result<()> {
    refuse_overwrite(args.out, &[args.wad])?;
    let objects = read_wad(args.wad)?;
    let selection = wadforge_edit::select(&objects.model, objects.game, &args.only)?;
    let removed = wadforge_edit::remove(&edit_input(&objects), &selection)?;
    let encoded = wad::encode(&removed.wad, None).context("the result cannot be written as a WAD")?;
    write_outputs(args.out, &removed.wad, &encoded, args.wad)?;
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
        "wrote {}: {} moveables, {} statics, {} pages, {} samples, {} bytes",
        args.out.display(),
        removed.wad.moveables.len(),
        removed.wad.statics.len(),
        removed.wad.pages.len(),
        removed.wad.samples.len(),
        encoded.size()
    );
    Ok(())
}

/// A WAD, refusing levels: only WADs are edited.
fn read_wad(path: &Path) -> anyhow::Result<Opened> {
    let objects = input::read(path)?;
    if objects.kind != FileKind::Wad {
        bail!(
            "{} is a {}; only a WAD can be edited (a level can be the source of `wadforge copy`)",
            path.display(),
            objects.description()
        );
    }
    Ok(objects)
}

fn edit_input(o: &Opened) -> Input<'_> {
    Input {
        wad: &o.model,
        game: o.game,
        starts: o.animation_starts(),
    }
}

/// OUT, OUT.was with the slot names, and the destination's sprite and sound files beside OUT.
fn write_outputs(out: &Path, model: &Wad, encoded: &EncodedWad, base: &Path) -> anyhow::Result<()> {
    write_wad_atomically(out, encoded)?;
    write_slot_names(out, model)?;
    copy_companions(base, out)
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
        bail!("--fix needs -o OUT (the repaired WAD), and -o is only for --fix");
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
        if objects.kind != FileKind::Wad {
            bail!(
                "--fix writes a WAD, and {} is a {}",
                args.file.display(),
                objects.description()
            );
        }
        let mut model = objects.model.clone();
        let fixed = wadforge_edit::check::fix(&mut model, objects.game, objects.file_bytes)
            .with_context(|| format!("cannot recompute the keyframe boxes of {}", args.file.display()))?;
        let encoded = wad::encode(&model, None).context("the repaired model cannot be written as a WAD")?;
        write_outputs(out, &model, &encoded, args.file)?;
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
