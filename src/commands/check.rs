//! `wadforge check`: a file checked against the rules the engine it names depends on (a Wad2's
//! W2SuggestedGameVersion; TRLE's and TR4's for a WAD or a level), each finding naming the object
//! and what to do, and with `--fix` repaired; over folders or several files, each file's findings
//! and a summary table (`folder`).

mod folder;
mod portability;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use wadforge_edit::check::Container;
use wadforge_format::{wad, Opened};

use crate::collection::is_collection;
use crate::edited::{edit_input, editable, refuse_overwrite, Edited};

/// Check a WAD, Wad2 or TR1–TR4 level against the rules TRLE and the TR4 engine depend on (a Wad2
/// against the engine it names: TRLE, TRNG or Tomb Engine); each finding names the object,
/// animation, mesh or polygon and what to do; of several files or folders, each file's findings
/// and a summary table. Exit code 1 when an error is found, 0 when only warnings and notes (or
/// nothing), 2 when a file cannot be read.
#[derive(clap::Args)]
pub struct Args {
    /// The .wad, TR1–TR4 level or .wad2 to check (never modified); several files, or folders
    /// (walked, files known by their first bytes), give each file's findings and a summary table.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Recompute what can be recomputed (bounding spheres, keyframe boxes, normal lengths) and
    /// write the result to OUT; nothing else changes.
    #[arg(long, requires = "out")]
    fix: bool,
    /// The repaired file (with --fix): a Wad2 when it ends in .wad2, else a WAD; never the input.
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Instead of the rules: what moving the file's objects to this engine changes and loses, per
    /// object (the slot each lands in, or left out), as `convert` would, writing nothing. Exit code
    /// 1 when something would be lost, 0 otherwise.
    #[arg(long = "for", value_enum, value_name = "ENGINE", conflicts_with = "fix")]
    for_engine: Option<portability::Engine>,
}

/// Exit code 1 when an error is found, 2 when a file cannot be read.
pub fn run(args: &Args) -> ExitCode {
    if let Some(engine) = args.for_engine {
        let [file] = args.files.as_slice() else {
            eprintln!("wadforge: error: --for reports on one file; name one WAD, Wad2 or level");
            return ExitCode::from(2);
        };
        return crate::answered(portability::run(file, engine, args.json));
    }
    if is_collection(&args.files) {
        if args.fix {
            eprintln!("wadforge: error: --fix repairs one file; name one WAD");
            return ExitCode::from(2);
        }
        return folder::run(&args.files, args.json).unwrap_or_else(|e| {
            eprintln!("wadforge: error: {e:#}");
            ExitCode::from(2)
        });
    }
    crate::answered(check_file(&args.files[0], args))
}

/// Checks `file` and prints the findings (with `--fix`, writes the repaired file); returns
/// whether an error was found (exit code 1).
fn check_file(file: &Path, args: &Args) -> anyhow::Result<bool> {
    let out = args.out.as_deref();
    if args.fix != out.is_some() {
        bail!("--fix needs -o OUT (the repaired WAD or Wad2), and -o is only for --fix");
    }
    if let Some(out) = out {
        refuse_overwrite(out, &[file])?;
    }
    let objects = crate::input::read(file)?;
    let input = edit_input(&objects);
    let mut findings = wadforge_edit::check::check(
        &objects.model,
        objects.game,
        &input.starts,
        container(&objects),
        objects.file_bytes,
    );
    findings.extend(crate::sound_files::undefined_sounds(file, &objects)?);
    let errors = wadforge_edit::check::has_errors(&findings);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&findings)?);
    } else {
        if let Some(engine) = wad2_engine(&objects) {
            println!("{}: judged for {engine}", file.display());
        }
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
            file.display(),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Note)
        );
    }
    if let Some(out) = out {
        if !editable(&objects) {
            bail!(
                "--fix repairs a WAD or a Wad2, and {} is a {}: `wadforge convert` makes a WAD of it",
                file.display(),
                objects.description()
            );
        }
        let mut model = objects.model.clone();
        let fixed = wadforge_edit::check::fix(&mut model, objects.game, objects.file_bytes)
            .with_context(|| format!("cannot recompute the keyframe boxes of {}", file.display()))?;
        Edited {
            out,
            base: (file, &objects),
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

/// What the file is, for the rules that depend on it: a Wad2 is judged for the engine it names
/// and compiled by Tomb Editor, a WAD by its bytes, a level as the engine reads it.
fn container(objects: &Opened) -> Container<'_> {
    match objects.wad2 {
        Some(_) => Container::Wad2,
        None => objects.layout.as_ref().into(),
    }
}

/// The engine a Wad2 names (its W2SuggestedGameVersion), which its findings are judged for.
fn wad2_engine(objects: &Opened) -> Option<String> {
    let document = objects.wad2.as_ref()?;
    Some(match document.game_version {
        Some(4) => "TRLE (W2SuggestedGameVersion 4)".into(),
        Some(16) => "TRNG (W2SuggestedGameVersion 16), as TR4".into(),
        Some(18) => "Tomb Engine (W2SuggestedGameVersion 18)".into(),
        Some(version) => format!("{} (W2SuggestedGameVersion {version})", objects.game.name()),
        None => format!("{} (it names no engine)", objects.game.name()),
    })
}
