//! `wadforge convert`: any file of objects (a TRLE WAD, a TR1–TR4 level, a Tomb Editor Wad2) into
//! a classic WAD or a Wad2, in one step, saying what the output cannot hold.

use std::path::Path;

use anyhow::{bail, Context};
use wadforge_format::catalog::{self, Game};
use wadforge_format::{wad, wad2, Opened, Wad};

use crate::output::{refuse_companion_extension, write_atomically, write_slot_names, write_wad_atomically};

pub struct ConvertArgs<'a> {
    pub input: &'a Path,
    pub out: &'a Path,
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
    let output = match args
        .out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .as_deref()
    {
        Some("wad") => Output::Wad,
        Some("wad2") => Output::Wad2,
        _ => bail!(
            "{}: name the output .wad (a classic WAD) or .wad2 (a Tomb Editor Wad2)",
            args.out.display()
        ),
    };
    refuse_companion_extension(args.out)?;
    if crate::build::same_file(args.input, args.out) || args.input == args.out {
        bail!(
            "{} is the input; convert into another file (wadforge never writes over its inputs)",
            args.out.display()
        );
    }
    let mut opened = crate::input::read(args.input)?;
    let mut lost: Vec<String> = opened.losses.iter().map(ToString::to_string).collect();
    let document = match output {
        Output::Wad => {
            lost.extend(to_tr4_ids(&mut opened));
            None
        }
        Output::Wad2 => {
            let mut made = wad2::from_model(&opened.model, &opened.skewed, opened.game)?;
            lost.extend(made.losses.iter().map(ToString::to_string));
            // A Wad2 into a Wad2: what the model has no place for comes from the input itself.
            if let Some(input) = &opened.wad2 {
                let kept = wad2::keep_detail(&mut made.document, input);
                lost = kept.dropped;
            }
            Some(made.document)
        }
    };
    if !opened.skewed.is_empty() && matches!(output, Output::Wad) {
        lost.push(format!(
            "{} polygons map their texture skewed: a classic WAD shows the sample round their corners \
             (import and build resample them instead)",
            opened.skewed.len()
        ));
    }
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

/// A classic WAD holds TR4's slot ids: a Tomb Engine file's objects move to the TR4 slot of the
/// same name. Those TR4 has no slot of that name for keep their id, which the returned lines say.
fn to_tr4_ids(opened: &mut Opened) -> Vec<String> {
    if opened.game != Game::Ten {
        return Vec::new();
    }
    let mut kept = Vec::new();
    for moveable in &mut opened.model.moveables {
        let name = catalog::moveable_slot(Game::Ten, moveable.id);
        match catalog::moveable_id(Game::Tr4, &name) {
            Some(id) => moveable.id = id,
            None => kept.push(format!(
                "{name} (moveable {}): TR4 has no slot of that name; its id is kept",
                moveable.id
            )),
        }
    }
    for found in &mut opened.model.statics {
        let name = catalog::static_slot(Game::Ten, found.id);
        match catalog::static_id(Game::Tr4, &name) {
            Some(id) => found.id = id,
            None => kept.push(format!(
                "{name} (static {}): TR4 has no static of that name; its id is kept",
                found.id
            )),
        }
    }
    opened.game = Game::Tr4;
    kept
}

fn write_wad(model: &Wad, out: &Path) -> anyhow::Result<()> {
    let encoded = wad::encode(model, None).context("the objects cannot be written as a WAD")?;
    write_wad_atomically(out, &encoded)?;
    write_slot_names(out, model)
}
