//! `wadforge convert`: any file of objects (a TRLE WAD, a TR1–TR4 level, a Tomb Editor Wad2) into
//! a classic WAD or a Wad2, in one step, saying what the output cannot hold.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::bail;
use wadforge_format::{wad2, OutputKind, Wad};

use crate::collection::{
    each_file, failed_files, is_collection, mirrored, names_held, object_files, refuse_output_inside_inputs,
    report_failures,
};
use crate::output::{
    prepare_output_dir, refuse_companion_extension, same_file, write_atomically, write_slot_names,
    write_wad_atomically,
};
use crate::porting::{self, Ported, Request, TargetGame};

/// Convert a WAD, TR1–TR4 level or Wad2 into a classic WAD (OUT.wad) or a Tomb Editor Wad2
/// (OUT.wad2) in one step, or the files of folders into DIR (-o DIR --to wad|wad2); what OUT
/// cannot hold is listed (`lost: ...`), or with --strict refused. A Tomb Engine Wad2's objects
/// move to the TR4 slots the catalogue maps them to in a WAD; one TR4 has no slot for is left out
/// and listed (--as places it).
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge convert TEN_Pulley.wad2 pulley.wad")]
pub struct Args {
    /// IN OUT: the .wad, TR1–TR4 level or .wad2 to convert (never modified) and the file to write
    /// (.wad or .wad2; never the input). With -o DIR --to KIND: files and folders to convert
    /// (folders walked, files known by their first bytes), each into DIR, the tree mirrored.
    #[arg(required = true, value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// The file to write, or the folder to write the files of a collection into (new or empty,
    /// see --force).
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// The kind of file to write of each file of a collection.
    #[arg(long, value_parser = output_kinds())]
    to: Option<OutputKind>,
    /// Write into an output folder that already holds files (same-named files are replaced).
    #[arg(long)]
    force: bool,
    /// Convert only these objects: slot names or ids, comma-separated.
    #[arg(long, value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// The game of a Wad2 written (its ids and W2SuggestedGameVersion), and of a Wad2 read that
    /// names none. Tomb Engine's ids differ from TRLE's and TRNG's: objects move by the
    /// catalogue's slot mapping.
    #[arg(long, value_enum)]
    game: Option<TargetGame>,
    /// NAME=SLOT: the slot an object takes in OUT, e.g. one OUT's game has no slot for, which is
    /// otherwise left out (names or ids; repeat or separate with commas), e.g. --as
    /// LASER_BEAM=ANIMATING1.
    #[arg(long = "as", value_delimiter = ',', value_name = "NAME=SLOT")]
    as_slots: Vec<String>,
    /// Write nothing, and fail, when OUT cannot hold everything of the input.
    #[arg(long)]
    strict: bool,
    /// No summary and no list of what was lost or changed.
    #[arg(short, long)]
    quiet: bool,
}

/// `--to wad|wad2`: the kinds of file convert writes, named by their extensions.
fn output_kinds() -> impl clap::builder::TypedValueParser<Value = OutputKind> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new(OutputKind::Wad.extension()).help("A classic TRLE WAD"),
        PossibleValue::new(OutputKind::Wad2.extension()).help("A Tomb Editor Wad2"),
    ])
    .map(|extension| OutputKind::from_extension(extension).expect("each possible value names a kind"))
}

/// What converting one file gave.
struct Converted {
    lost: Vec<String>,
    /// Values changed on the way (pages repacked, normals rescaled, frame ranges clamped).
    changed: Vec<String>,
    description: &'static str,
    moveables: usize,
    statics: usize,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (input, out) = match (args.paths.as_slice(), args.out.as_deref()) {
        (paths, Some(out)) if is_collection(paths) => return run_collection(args, out),
        ([input], Some(out)) => (input, out),
        ([input, out], None) if !input.is_dir() => (input, out.as_path()),
        ([input], None) if input.is_dir() => {
            bail!("to convert the files of a folder, name the output folder with -o and the kind with --to wad|wad2")
        }
        _ => bail!("name the file to convert and the file to write (wadforge convert IN.wad OUT.wad2), or the files and folders to convert with -o DIR --to wad|wad2"),
    };
    let output = output_kind(out)?;
    if args.to.is_some_and(|to| to != output) {
        bail!(
            "{} is not a .{} file, which --to asks for",
            out.display(),
            output.extension()
        );
    }
    let converted = convert_file(input, out, output, args, false)?.expect("one file converts or fails");
    if !args.quiet {
        for line in &converted.lost {
            eprintln!("lost: {line}");
        }
        for line in &converted.changed {
            eprintln!("changed: {line}");
        }
        eprintln!(
            "converted {} ({}) into {}: {} moveables, {} statics",
            input.display(),
            converted.description,
            out.display(),
            converted.moveables,
            converted.statics
        );
    }
    Ok(())
}

/// Converts `input` into `out`, a file of the kind `output`. With `only_held` (a file of a
/// collection), `--only` picks the objects the file holds, and a file holding none is not
/// converted (`None`).
fn convert_file(
    input: &Path,
    out: &Path,
    output: OutputKind,
    args: &Args,
    only_held: bool,
) -> anyhow::Result<Option<Converted>> {
    refuse_companion_extension(out)?;
    if same_file(input, out) || input == out {
        bail!(
            "{} is the input; convert into another file (wadforge never writes over its inputs)",
            out.display()
        );
    }
    let mut opened = crate::input::read(input)?;
    let only = match (&args.only, only_held) {
        (Some(only), true) => match names_held(&opened.model, opened.game, only) {
            held if held.is_empty() => return Ok(None),
            held => Some(held),
        },
        (only, _) => only.clone(),
    };
    let request = Request {
        only: only.as_deref(),
        as_slots: &args.as_slots,
        game: args.game,
    };
    // The input's sound ids are its game's; port moves the objects' to the output's.
    let from = opened.game;
    let Ported {
        document,
        lost,
        mut changed,
        ..
    } = porting::port(&mut opened, &request, output)?;
    if args.strict && !lost.is_empty() {
        bail!(
            "{} cannot hold everything of {} (--strict):\n  {}",
            out.display(),
            input.display(),
            lost.join("\n  ")
        );
    }
    match &document {
        None => write_wad(&opened.model, out)?,
        Some(document) => write_atomically(out, &wad2::write_document(document))?,
    }
    let sounds = crate::sound_files::convert_sounds(
        (input, from, opened.sounds.as_ref()),
        (out, opened.game),
        &opened.model,
    )?;
    changed.extend(sounds);
    changed.extend(crate::sound_files::level_samples_beside(
        (input, opened.sounds.as_ref()),
        out,
        None,
    )?);
    Ok(Some(Converted {
        lost,
        changed,
        description: opened.description(),
        moveables: opened.model.moveables.len(),
        statics: opened.model.statics.len(),
    }))
}

/// Converts every object file of the folders and files named into a file of the kind `--to`
/// under `out`, the folders' tree mirrored (`enemies/croc.wad` → `OUT/enemies/croc.wad2`).
fn run_collection(args: &Args, out: &Path) -> anyhow::Result<()> {
    let Some(to) = args.to else {
        bail!("converting several files: name the kind to write with --to wad or --to wad2");
    };
    let files = object_files(&args.paths)?;
    refuse_output_inside_inputs(out, &args.paths)?;
    prepare_output_dir(out, args.force)?;
    let outputs = mirrored(&files, Some(to.extension()))?;
    let output_of: HashMap<PathBuf, PathBuf> = files
        .iter()
        .zip(outputs)
        .map(|(f, o)| (f.relative.clone(), out.join(o)))
        .collect();
    // Folders are made as files are written: a file that fails leaves none behind.
    let outcomes = each_file(files, "converting", args.quiet, |file| {
        let output = &output_of[&file.relative];
        convert_file(&file.path, output, to, args, true)
    });
    report_failures(&outcomes);
    if !args.quiet {
        for o in &outcomes {
            for c in o.result.iter().flatten() {
                for line in &c.lost {
                    eprintln!("lost: {}: {line}", o.file.path.display());
                }
                for line in &c.changed {
                    eprintln!("changed: {}: {line}", o.file.path.display());
                }
            }
        }
        let converted = outcomes
            .iter()
            .filter(|o| matches!(o.result, Ok(Some(_))))
            .count();
        let without = outcomes.iter().filter(|o| matches!(o.result, Ok(None))).count();
        eprintln!(
            "converted {converted} files into {} (.{}){}",
            out.display(),
            to.extension(),
            if without == 0 {
                String::new()
            } else {
                format!("; {without} files hold none of the objects --only names")
            }
        );
    }
    failed_files(&outcomes)
}

/// The kind of file to write, by `out`'s extension.
fn output_kind(out: &Path) -> anyhow::Result<OutputKind> {
    match OutputKind::from_path(out) {
        Some(kind) => Ok(kind),
        None => bail!(
            "{}: name the output .wad (a classic WAD) or .wad2 (a Tomb Editor Wad2)",
            out.display()
        ),
    }
}

fn write_wad(model: &Wad, out: &Path) -> anyhow::Result<()> {
    let encoded = porting::encode_wad(model)?;
    write_wad_atomically(out, &encoded)?;
    write_slot_names(out, model)
}
