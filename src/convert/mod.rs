//! `wadforge convert`: any file of objects (a TRLE WAD, a TR1–TR4 level, a Tomb Editor Wad2) into
//! a classic WAD or a Wad2, in one step, saying what the output cannot hold.

mod ids;

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_format::catalog::Game;
use wadforge_format::selection::{all_objects, ObjectRef};
use wadforge_format::{wad, wad2, Opened, Wad};

use crate::output::{refuse_companion_extension, write_atomically, write_slot_names, write_wad_atomically};
pub use ids::TargetGame;

pub struct ConvertArgs<'a> {
    pub input: &'a Path,
    pub out: &'a Path,
    /// Convert only these objects (slot names or ids).
    pub only: Option<Vec<String>>,
    /// The game of a Wad2 that names none, and of a Wad2 written.
    pub game: Option<TargetGame>,
    /// `NAME=SLOT`: the slot an object takes in the output where its name finds none.
    pub as_slots: Vec<String>,
    /// Refuse, writing nothing, when the output cannot hold everything.
    pub strict: bool,
    pub quiet: bool,
}

/// The kinds of file convert writes, by the output's extension.
enum Output {
    Wad,
    Wad2,
}

pub fn run(args: ConvertArgs) -> anyhow::Result<()> {
    let output = output_kind(args.out)?;
    refuse_companion_extension(args.out)?;
    if crate::build::same_file(args.input, args.out) || args.input == args.out {
        bail!(
            "{} is the input; convert into another file (wadforge never writes over its inputs)",
            args.out.display()
        );
    }
    let mut opened = crate::input::read(args.input)?;
    let (document, lost) = convert(&mut opened, &args, &output)?;
    if args.strict && !lost.is_empty() {
        bail!(
            "{} cannot hold everything of {} (--strict):\n  {}",
            args.out.display(),
            args.input.display(),
            lost.join("\n  ")
        );
    }
    match &document {
        None => write_wad(&opened.model, args.out)?,
        Some(document) => write_atomically(args.out, &wad2::write_document(document))?,
    }
    if !args.quiet {
        for line in &lost {
            eprintln!("lost: {line}");
        }
        eprintln!(
            "converted {} ({}) into {}: {} moveables, {} statics",
            args.input.display(),
            opened.description(),
            args.out.display(),
            opened.model.moveables.len(),
            opened.model.statics.len()
        );
    }
    Ok(())
}

/// The kind of file to write, by `out`'s extension.
fn output_kind(out: &Path) -> anyhow::Result<Output> {
    match out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .as_deref()
    {
        Some("wad") => Ok(Output::Wad),
        Some("wad2") => Ok(Output::Wad2),
        _ => bail!(
            "{}: name the output .wad (a classic WAD) or .wad2 (a Tomb Editor Wad2)",
            out.display()
        ),
    }
}

/// `opened`'s chosen objects in the output's terms (ids moved, a Wad2's document made), and
/// what the output cannot hold of them, as lines; `None` for a WAD, which is `opened.model`.
fn convert(
    opened: &mut Opened,
    args: &ConvertArgs,
    output: &Output,
) -> anyhow::Result<(Option<wad2::Document>, Vec<String>)> {
    // A Wad2 that names no game holds the ids of the one asked for.
    let names_no_game = opened.wad2.as_ref().is_some_and(|d| d.game_version.is_none());
    if let (Some(game), true) = (args.game, names_no_game) {
        opened.game = game.catalogue();
    }
    let chosen = match &args.only {
        Some(only) => wadforge_format::selection::select(&opened.model, opened.game, only)?,
        None => all_objects(&opened.model).collect(),
    };
    let skewed = skewed_of(opened, &chosen);
    let model_losses = losses_of(opened, &chosen);
    if args.only.is_some() {
        keep_only(opened, &chosen, output)?;
    }
    let to = match output {
        Output::Wad => Game::Tr4,
        Output::Wad2 => args.game.map_or(opened.game, TargetGame::catalogue),
    };
    // A classic WAD holds TR4's ids (or its own classic game's), a Wad2 its game's.
    let by_name = match output {
        Output::Wad => opened.game == Game::Ten,
        Output::Wad2 => (opened.game == Game::Ten) != (to == Game::Ten),
    };
    let mut lost = Vec::new();
    if by_name || !args.as_slots.is_empty() {
        let to = if by_name { to } else { opened.game };
        lost.extend(ids::move_ids(opened, to, by_name, &args.as_slots)?);
    }
    let document = match output {
        Output::Wad => {
            lost.extend(model_losses);
            if skewed > 0 {
                lost.push(format!(
                    "{skewed} polygons map their texture skewed: a classic WAD shows the sample round their \
                     corners (import and build resample them instead)"
                ));
            }
            None
        }
        Output::Wad2 => {
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
    Ok((document, lost))
}

/// Drops every object `only` does not name, as import's `--only` chooses. A WAD written drops
/// with them what only they used (meshes, samples, pages: `remove`); a Wad2 writes only what
/// its objects use.
fn keep_only(opened: &mut Opened, chosen: &[ObjectRef], output: &Output) -> anyhow::Result<()> {
    let dropped: Vec<ObjectRef> = all_objects(&opened.model)
        .filter(|o| !chosen.contains(o))
        .collect();
    match output {
        Output::Wad => {
            let input = wadforge_edit::Input {
                wad: &opened.model,
                game: opened.game,
                starts: opened.animation_starts(),
            };
            let removed = wadforge_edit::remove(&input, &dropped)?;
            opened.model = removed.wad;
            opened.skewed = Default::default();
        }
        Output::Wad2 => {
            // Mesh indices stay, so each polygon's skewed corners still find it.
            let model = &mut opened.model;
            let mut keep = (0..model.moveables.len()).map(|i| chosen.contains(&ObjectRef::Moveable(i)));
            model.moveables.retain(|_| keep.next().unwrap_or(false));
            let mut keep = (0..model.statics.len()).map(|i| chosen.contains(&ObjectRef::Static(i)));
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
