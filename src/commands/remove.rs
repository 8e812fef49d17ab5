//! `wadforge remove`: objects out of a WAD or Wad2, with the meshes, samples and pages only they
//! used; the other objects keep their exact content.

use std::path::PathBuf;

use wadforge_edit::ObjectRef;
use wadforge_format::{Opened, Wad};

use crate::edited::{edit_input, read_editable, refuse_overwrite, Edited};

/// Remove objects from a WAD or Wad2; meshes, samples and pages nothing uses any more go too,
/// and the other objects keep their exact content. The sounds only the removed objects played
/// leave the sound files written beside the output (.sfx/.sam, or a Wad2's .xml); sounds no
/// object plays stay, as the level may play them itself.
#[derive(clap::Args)]
pub struct Args {
    /// The WAD or Wad2 to remove from (never modified).
    wad: PathBuf,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never the input.
    #[arg(short, long)]
    out: PathBuf,
    /// The objects to remove: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    only: Vec<String>,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    refuse_overwrite(&args.out, &[args.wad.as_path()])?;
    let objects = read_editable(&args.wad)?;
    let selection = wadforge_edit::select(&objects.model, objects.game, &args.only)?;
    let removed = wadforge_edit::remove(&edit_input(&objects), &selection)?;
    let size = Edited {
        out: &args.out,
        base: (&args.wad, &objects),
        copied_detail: None,
        model_losses: (objects.losses.iter())
            .filter(|l| !removed.removed.contains(&l.object))
            .map(ToString::to_string)
            .collect(),
        quiet: args.quiet,
    }
    .write(&removed.wad)?;
    let sound_lines = drop_unplayed_sounds(args, &objects, &selection, &removed.wad)?;
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
    for line in &sound_lines {
        eprintln!("{line}");
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

/// Drops from the sound files beside the output the sounds only the removed moveables played
/// (kept objects' sounds, and those no animation plays, stay); the lines saying what went.
fn drop_unplayed_sounds(
    args: &Args,
    objects: &Opened,
    selection: &[ObjectRef],
    kept: &Wad,
) -> anyhow::Result<Vec<String>> {
    let removed = selection.iter().filter_map(|o| match o {
        ObjectRef::Moveable(i) => objects.model.moveables.get(i.0),
        ObjectRef::Static(_) => None,
    });
    let unplayed = wadforge_edit::sounds::sounds_only_removed_play(removed, kept);
    crate::sound_files::drop_sounds(&args.wad, &args.out, objects.game, &unplayed)
}
