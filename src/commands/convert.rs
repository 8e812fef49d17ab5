//! `wadforge convert`: any file of objects (a TRLE WAD, a TR1–TR4 level, a Tomb Editor Wad2) into
//! a classic WAD or a Wad2, in one step, saying what the output cannot hold.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wadforge_edit::port::{port, Steps};
use wadforge_format::catalog::Game;
use wadforge_format::selection::{all_objects, ObjectRef};
use wadforge_format::{wad, wad2, FileKind, MoveableIndex, Opened, OutputKind, StaticIndex, Wad};

use crate::collection::{
    each_file, failed_files, is_collection, mirrored, names_held, object_files, refuse_output_inside_inputs,
    report_failures,
};
use crate::output::{
    prepare_output_dir, refuse_companion_extension, same_file, write_atomically, write_slot_names,
    write_wad_atomically,
};

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

/// The game of a Wad2 `convert` writes (and reads, when a Wad2 names none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TargetGame {
    /// TRLE: TR4's ids, W2SuggestedGameVersion 4.
    Trle,
    /// TRNG: TR4's ids, version 16.
    Trng,
    /// Tomb Engine: its own ids, version 18.
    Ten,
}

impl TargetGame {
    /// The catalogue whose ids the game's objects hold.
    fn catalogue(self) -> Game {
        match self {
            TargetGame::Trle | TargetGame::Trng => Game::Tr4,
            TargetGame::Ten => Game::Ten,
        }
    }

    /// Its W2SuggestedGameVersion.
    fn wad2_version(self) -> i64 {
        match self {
            TargetGame::Trle => 4,
            TargetGame::Trng => 16,
            TargetGame::Ten => 18,
        }
    }
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
    let (document, lost, changed) = convert(&mut opened, args, only.as_deref(), output)?;
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

/// `opened`'s chosen objects in the output's terms (ids moved, a Wad2's document made), what the
/// output cannot hold of them and what changed on the way, as lines; `None` for a WAD, which is
/// `opened.model`.
fn convert(
    opened: &mut Opened,
    args: &Args,
    only: Option<&[String]>,
    output: OutputKind,
) -> anyhow::Result<(Option<wad2::Document>, Vec<String>, Vec<String>)> {
    // A Wad2 that names no game holds the ids of the one asked for.
    let names_no_game = opened.wad2.as_ref().is_some_and(|d| d.game_version.is_none());
    if let (Some(game), true) = (args.game, names_no_game) {
        opened.game = game.catalogue();
    }
    let chosen = match only {
        Some(only) => wadforge_format::selection::select(&opened.model, opened.game, only)?,
        None => all_objects(&opened.model).collect(),
    };
    let skewed = skewed_of(opened, &chosen);
    let model_losses = losses_of(opened, &chosen);
    if only.is_some() {
        keep_only(opened, &chosen, output)?;
    }
    let to = match output {
        OutputKind::Wad => Game::Tr4,
        OutputKind::Wad2 => args.game.map_or(opened.game, TargetGame::catalogue),
    };
    // A classic WAD holds TR4's ids (or its own classic game's), a Wad2 its game's; TR5 and TEN
    // number their slots their own way, so objects move to or from them by the catalogue.
    let own_numbering = |game| matches!(game, Game::Tr5 | Game::Ten);
    let by_name = match output {
        OutputKind::Wad => own_numbering(opened.game),
        OutputKind::Wad2 => opened.game != to && (own_numbering(opened.game) || own_numbering(to)),
    };
    let mut lost = Vec::new();
    if by_name || !args.as_slots.is_empty() {
        let to = if by_name { to } else { opened.game };
        let from = opened.game;
        lost.extend(wadforge_edit::move_ids(
            &mut opened.model,
            from,
            to,
            by_name,
            &args.as_slots,
        )?);
        opened.game = to;
        // What the other engine needs (holsters, back weapons), after the ids it is told by.
        let changed = wadforge_edit::engines::reshape_for_engine(&mut opened.model, from, to);
        if !args.quiet {
            changed.iter().for_each(|line| eprintln!("changed: {line}"));
        }
    }
    let steps = steps(opened, output, skewed);
    let changes = port(&mut opened.model, opened.game, steps)?;
    let changed = changes.iter().map(ToString::to_string).collect();
    let document = match output {
        OutputKind::Wad => {
            lost.extend(model_losses);
            if skewed > 0 {
                lost.push(format!(
                    "{skewed} polygons map their texture skewed: a classic WAD shows the sample round their \
                     corners (import and build resample them instead)"
                ));
            }
            None
        }
        OutputKind::Wad2 => {
            let mut made = wad2::from_model(&opened.model, &opened.skewed, opened.game)?;
            lost.extend(made.losses.iter().map(ToString::to_string));
            match &opened.wad2 {
                // A Wad2 into a Wad2: what the model has no place for comes from the input itself.
                Some(input) => lost.extend(wad2::keep_detail(&mut made.document, input).dropped),
                None => lost.extend(model_losses),
            }
            if let Some(game) = args.game {
                made.document.game_version = Some(game.wad2_version());
            }
            Some(made.document)
        }
    };
    Ok((document, lost, changed))
}

/// What `convert` changes of `opened`'s objects for an `output` file (`skewed`: how many of the
/// chosen polygons map their texture skewed). Pages are packed again where they came from whole
/// Wad2 textures or a level's tiles, never a classic WAD's own (a WAD converted into a WAD stays
/// the same bytes), nor a Wad2's written as a Wad2 (it takes its textures back from the input) or
/// a level's skewed polygons' (their exact corners lie on the level's pages). A classic WAD made of
/// a Wad2 gets TR's normals and frame ranges; a Wad2 keeps what it had (Tomb Editor's compiler
/// brings them to TR's terms).
fn steps(opened: &Opened, output: OutputKind, skewed: usize) -> Steps {
    let level = matches!(opened.kind, FileKind::Level(_));
    let wad2 = opened.kind == FileKind::Wad2;
    match output {
        OutputKind::Wad => Steps {
            repack: level || wad2,
            classic: wad2,
        },
        OutputKind::Wad2 => Steps {
            repack: level && skewed == 0,
            classic: false,
        },
    }
}

/// Drops every object `only` does not name, as import's `--only` chooses. A WAD written drops
/// with them what only they used (meshes, samples, pages: `remove`); a Wad2 writes only what
/// its objects use.
fn keep_only(opened: &mut Opened, chosen: &[ObjectRef], output: OutputKind) -> anyhow::Result<()> {
    let dropped: Vec<ObjectRef> = all_objects(&opened.model)
        .filter(|o| !chosen.contains(o))
        .collect();
    match output {
        OutputKind::Wad => {
            let input = wadforge_edit::Input {
                wad: &opened.model,
                game: opened.game,
                starts: opened.animation_starts(),
            };
            let removed = wadforge_edit::remove(&input, &dropped)?;
            opened.model = removed.wad;
            opened.skewed = Default::default();
        }
        OutputKind::Wad2 => {
            // Mesh indices stay, so each polygon's skewed corners still find it.
            let model = &mut opened.model;
            let mut keep =
                MoveableIndex::all(&model.moveables).map(|i| chosen.contains(&ObjectRef::Moveable(i)));
            model.moveables.retain(|_| keep.next().unwrap_or(false));
            let mut keep = StaticIndex::all(&model.statics).map(|i| chosen.contains(&ObjectRef::Static(i)));
            model.statics.retain(|_| keep.next().unwrap_or(false));
        }
    }
    Ok(())
}

/// What the model could not hold of the `chosen` objects (and of the file), as lines.
fn losses_of(opened: &Opened, chosen: &[ObjectRef]) -> Vec<String> {
    let names: Vec<String> = chosen
        .iter()
        .map(|o| o.name(&opened.model, opened.game).to_string())
        .collect();
    let losses = opened.losses.iter();
    losses
        .filter(|l| l.object == "file" || names.contains(&l.object))
        .map(ToString::to_string)
        .collect()
}

/// How many polygons of the `chosen` objects' meshes map their texture skewed.
fn skewed_of(opened: &Opened, chosen: &[ObjectRef]) -> usize {
    let model = &opened.model;
    let meshes: std::collections::BTreeSet<usize> = chosen
        .iter()
        .flat_map(|&o| match o {
            ObjectRef::Moveable(i) => model.moveables[i].meshes.clone(),
            ObjectRef::Static(i) => vec![model.statics[i].mesh],
        })
        .collect();
    opened
        .skewed
        .iter()
        .filter(|((mesh, _), _)| meshes.contains(mesh))
        .count()
}

fn write_wad(model: &Wad, out: &Path) -> anyhow::Result<()> {
    let encoded = wad::encode(model, None).context("the objects cannot be written as a WAD")?;
    write_wad_atomically(out, &encoded)?;
    write_slot_names(out, model)
}
