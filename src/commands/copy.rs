//! `wadforge copy`: objects of a WAD, Wad2 or level into a WAD or Wad2, exactly, replacing the
//! objects of the same ids or joining them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use wadforge_edit::sounds::SoundTable;
use wadforge_format::catalog::Game;
use wadforge_format::selection::ObjectRef;
use wadforge_format::{wad2, Opened};

use crate::edited::{edit_input, read_editable, refuse_overwrite, Edited};

/// Copy objects (meshes, links, animations, keyframes, texels; statics' boxes and flags) from
/// a WAD, Wad2 or TR1–TR4 level into a WAD or Wad2, exactly: each replaces the object of its
/// slot or joins. Between files of different games (a TR1 level into a TR4 WAD, a Tomb Engine
/// Wad2 into a WAD) each goes to the slot the catalogue gives it in DEST's game, and its sound
/// commands to DEST's sound ids, those DEST's game has none for dropped and listed; an object
/// DEST's game has no slot for is refused (--as places it). Only the samples they use come
/// along, reusing texels DEST has; beside a WAD written, DEST's .swd, .sam and .sfx are copied,
/// with the sounds the objects play that DEST lacks added from SRC's (a level's own sounds, or
/// the sound files beside SRC).
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge copy enemies.wad mylevel.wad -o mylevel_new.wad --only CROCODILE")]
pub struct Args {
    /// The .wad, .wad2 or TR1–TR4 level to copy from (never modified).
    src: PathBuf,
    /// The WAD or Wad2 to copy into (never modified).
    dest: PathBuf,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// The objects to copy: slot names (of SRC's game) or ids, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    only: Vec<String>,
    /// Put the (single) object into this slot of DEST instead: a slot name of DEST's game (TR4
    /// for a WAD) or an id.
    #[arg(long = "as", value_name = "SLOT")]
    as_slot: Option<String>,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    refuse_overwrite(&args.out, &[args.src.as_path(), args.dest.as_path()])?;
    let src = crate::input::read(&args.src)?;
    let dest = read_editable(&args.dest)?;
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
        out: &args.out,
        base: (&args.dest, &dest),
        copied_detail: src.wad2.as_ref().map(|document| {
            let ids = copied.objects.iter().map(|o| o.id);
            copied_detail(document, &selection, ids, &copied.remeshed)
        }),
        model_losses,
        quiet: args.quiet,
    }
    .write(&copied.wad)?;
    let (carried, samples) = carry_sounds(args, (&src, &dest), &copied)?;
    if args.quiet {
        return Ok(());
    }
    for o in &copied.objects {
        let how = if o.replaced { "replaced" } else { "added" };
        eprintln!("copied {} -> {} ({how})", o.from, o.to);
    }
    for line in &copied.reshaped {
        eprintln!("changed: {line}");
    }
    report_moved_sounds(src.game, dest.game, &copied.sounds_moved);
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
    match carried {
        Some(carried) => report_carried(&carried, dest.game, &args.out),
        None => report_sounds(&args.dest, &copied.sounds),
    }
    if let Some(note) = samples {
        eprintln!("{note}");
    }
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

/// Carries into OUT's sound files the sounds the copied objects play that DEST does not define,
/// from SRC's (a level's own, or its sound files), and a level's samples of them into `samples/`
/// beside OUT: what was carried, and the note of the samples written.
fn carry_sounds(
    args: &Args,
    (src, dest): (&Opened, &Opened),
    copied: &wadforge_edit::Copied,
) -> anyhow::Result<(Option<crate::sound_files::Carried>, Option<String>)> {
    let played = copied.sounds.keys().copied().collect();
    let carried = crate::sound_files::carry_sounds(
        (&args.src, src.game, src.sounds.as_ref()),
        (&args.dest, dest.game),
        &args.out,
        &played,
    )?;
    // The carried sounds' samples, when they came from a level (which holds them).
    let samples = match &carried {
        Some(carried) => crate::sound_files::level_samples_beside(
            (&args.src, src.sounds.as_ref()),
            &args.out,
            Some(&carried.added),
        )?,
        None => None,
    };
    Ok((carried, samples))
}

/// Between games, how many sound commands took DEST's ids and which were dropped.
fn report_moved_sounds(from: Game, to: Game, moved: &wadforge_edit::SoundsMoved) {
    if from == to {
        return;
    }
    eprintln!(
        "sound commands: {} moved from {}'s sound ids to {}'s, {} the same in both, {} dropped",
        moved.moved,
        from.name(),
        to.name(),
        moved.kept,
        moved.dropped
    );
    for line in &moved.dropped_lines {
        eprintln!("warning: {line}");
    }
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
/// of the model's, in order), under the ids `ids` they take in the output; the moveables
/// `remeshed` (reshaped for another engine) with their meshes in the new order.
fn copied_detail(
    document: &wad2::Document,
    selection: &[ObjectRef],
    ids: impl Iterator<Item = u32>,
    remeshed: &[(u32, Vec<Option<usize>>)],
) -> wad2::Document {
    // Its textures, which the objects' polygons name by number (those left unused are left out).
    let mut detail = wad2::Document {
        textures: document.textures.clone(),
        ..wad2::Document::default()
    };
    for (object, id) in selection.iter().zip(ids) {
        match *object {
            ObjectRef::Moveable(i) => detail.moveables.extend(document.moveables.get(i.0).map(|m| {
                let mut m = m.clone();
                m.id = i64::from(id);
                if let Some((_, sources)) = remeshed.iter().find(|(r, _)| *r == id) {
                    wad2::remesh(&mut m, sources);
                }
                m
            })),
            ObjectRef::Static(i) => detail.statics.extend(document.statics.get(i.0).map(|s| {
                let mut s = s.clone();
                s.id = i64::from(id);
                s
            })),
        }
    }
    detail
}

/// Lists the sounds the copied objects brought from SRC's sounds, those DEST already had,
/// and those neither defines.
fn report_carried(carried: &crate::sound_files::Carried, game: Game, out: &Path) {
    use crate::sound_files::list;
    if !carried.added.is_empty() {
        eprintln!(
            "sounds added beside {} from {}: {}",
            out.display(),
            carried.source,
            list(&carried.added, game)
        );
    }
    if !carried.kept.is_empty() {
        eprintln!(
            "sounds the destination already defines (kept as it has them): {}",
            list(&carried.kept, game)
        );
    }
    if !carried.undefined.is_empty() {
        eprintln!(
            "warning: sounds the copied animations play that neither file's sounds define (add them to the level's \
             sounds): {}",
            list(&carried.undefined, game)
        );
    }
}

/// Lists the sound ids the copied animations play that the destination's `.sfx` does not define.
fn report_sounds(dest: &Path, sounds: &BTreeMap<u16, BTreeSet<String>>) {
    if sounds.is_empty() {
        return;
    }
    let list = |ids: &[(&u16, &BTreeSet<String>)]| {
        ids.iter()
            .map(|(id, who)| format!("{id} ({})", who.iter().cloned().collect::<Vec<_>>().join(", ")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sfx_path = dest.with_extension("sfx");
    let table = wadforge_files::input::read(&sfx_path).ok().map(|sfx| {
        let sam = wadforge_files::input::read(&dest.with_extension("sam"))
            .ok()
            .map(|bytes| wadforge_format::sounds::sam_text::decode(&bytes));
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
