//! `wadforge animations`: animations of one file's object brought into another file's object of
//! the same slot (an animation pack), keyframes as they were; the destination's meshes and own
//! animations untouched.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_edit::animations::{self, Brought, Pack, Placement, Relink};
use wadforge_format::selection::ObjectRef;
use wadforge_format::{MoveableIndex, Opened};

use crate::edited::{edit_input, read_editable, refuse_overwrite, Edited};

/// Bring animations of an object of a WAD, Wad2 or TR1–TR4 level into the object of the same slot
/// of a WAD or Wad2, keyframes, speeds and commands as they were: appended after its own, or with
/// --replace over its animations of the same index. Links among the animations brought are
/// renumbered to the copies; a link to an animation left behind goes to DEST's animation of the
/// same state, else to the copy's own first frame. Both objects must have as many meshes.
/// Prints each animation brought and each link settled.
#[derive(clap::Args)]
#[command(
    after_help = "Example: wadforge animations pack.wad mylara.wad --object LARA --only 12,40-45 -o mylara_new.wad"
)]
pub struct Args {
    /// The .wad, .wad2 or TR1–TR4 level to take the animations from (never modified).
    src: PathBuf,
    /// The WAD or Wad2 whose object receives them (never modified).
    dest: PathBuf,
    /// The object: a slot name (of each file's game) or an id.
    #[arg(long, value_name = "SLOT")]
    object: String,
    /// The source object's animations: indices and ranges, comma-separated (12,40-45).
    #[arg(long, value_name = "LIST")]
    only: String,
    /// Replace DEST's animations of the same indices instead of appending.
    #[arg(long)]
    replace: bool,
    /// The file to write: a Wad2 when it ends in .wad2, else a WAD; never one of the inputs.
    #[arg(short, long)]
    out: PathBuf,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "quiet")]
    json: bool,
    /// No report.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    refuse_overwrite(&args.out, &[args.src.as_path(), args.dest.as_path()])?;
    let src = crate::input::read(&args.src)?;
    let dest = read_editable(&args.dest)?;
    let src_object = moveable(&src, &args.src, &args.object)?;
    let dest_object = moveable(&dest, &args.dest, &args.object)?;
    let object_name =
        |o: &Opened, m: MoveableIndex| ObjectRef::Moveable(m).name(&o.model, o.game).to_string();
    let chosen = animations::parse_list(
        &args.only,
        src.model.moveables[src_object].animations.len(),
        &object_name(&src, src_object),
    )?;
    let (src_input, dest_input) = (edit_input(&src), edit_input(&dest));
    let brought = animations::bring(&Pack {
        src: &src_input,
        src_object,
        dest: &dest_input,
        dest_object,
        animations: &chosen,
        placement: if args.replace {
            Placement::Replace
        } else {
            Placement::Append
        },
    })?;
    let src_name = object_name(&src, src_object);
    let size = Edited {
        out: &args.out,
        base: (&args.dest, &dest),
        copied_detail: None,
        model_losses: (dest.losses.iter())
            .chain(src.losses.iter().filter(|l| l.object == src_name))
            .map(ToString::to_string)
            .collect(),
        quiet: args.quiet || args.json,
    }
    .write(&brought.wad)?;
    if args.json {
        let report = serde_json::json!({
            "copied": brought.copied,
            "links": brought.links,
            "kept_by_index": brought.kept_by_index,
            "written": { "file": args.out.display().to_string(), "bytes": size },
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if !args.quiet {
        print_report(&brought);
        eprintln!(
            "wrote {}: {} has {} animations, {size} bytes",
            args.out.display(),
            object_name(&dest, dest_object),
            brought.wad.moveables[dest_object].animations.len(),
        );
    }
    Ok(())
}

/// The moveable of `file` (read from `path`) that `slot` names.
fn moveable(file: &Opened, path: &Path, slot: &str) -> anyhow::Result<MoveableIndex> {
    let selected = wadforge_edit::select(&file.model, file.game, &[slot.to_string()])
        .with_context(|| format!("--object {slot} in {}", path.display()))?;
    match selected.first() {
        Some(&ObjectRef::Moveable(m)) => Ok(m),
        _ => bail!(
            "--object {slot} names a static of {}, which has no animations; name a moveable",
            path.display()
        ),
    }
}

/// Each animation brought, then each link settled, one a line.
fn print_report(brought: &Brought) {
    for c in &brought.copied {
        let name = c.name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
        let replaced = if c.replaced { ", replaced" } else { "" };
        println!("SRC#{} -> DEST#{}{name}{replaced}", c.from, c.to);
    }
    for l in &brought.links {
        let how = match &l.how {
            Relink::Renumbered => "renumbered".to_string(),
            Relink::ByState { state } => format!("by state {state}"),
            Relink::OwnFrame { .. } => "own frame".to_string(),
        };
        let why = match &l.how {
            Relink::OwnFrame { why } => format!(" ({why})"),
            _ => String::new(),
        };
        println!(
            "{how}: DEST#{} {}: {} -> DEST#{}{why}",
            l.animation, l.reference, l.named, l.target
        );
    }
    if brought.kept_by_index > 0 {
        println!(
            "kept by index: {} links of DEST into replaced animations",
            brought.kept_by_index
        );
    }
}
