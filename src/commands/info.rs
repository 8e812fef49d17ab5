//! `wadforge info`: a readable (or JSON) summary of a WAD, Wad2 or level; over a folder or
//! several files, a row per file.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use wadforge_format::catalog;

use wadforge_format::Opened;

/// Summarise a WAD, Wad2 or TR1–TR5 level: version, texture pages, samples, meshes, every
/// moveable and static; of several files or folders, a row per file.
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge info tut1.wad --json > tut1.json")]
pub struct Args {
    /// The .wad, .wad2 or TR1–TR5 level (.phd, .tr2, .tr4, .trc) to read (never modified); several
    /// files, or folders (walked, files known by their first bytes), give a row per file.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Summary {
    file: String,
    bytes: u64,
    format: String,
    version: u32,
    pages: usize,
    samples: usize,
    meshes: usize,
    polygons: usize,
    moveables: Vec<MoveableSummary>,
    statics: Vec<StaticSummary>,
    /// What follows a level proper (TRX's injections), passed over.
    #[serde(skip_serializing_if = "Option::is_none")]
    after_level: Option<String>,
}

#[derive(Serialize)]
struct MoveableSummary {
    id: u32,
    slot: String,
    meshes: usize,
    animations: usize,
    keyframes: usize,
}

#[derive(Serialize)]
struct StaticSummary {
    id: u32,
    slot: String,
    polygons: usize,
}

/// Summarises the file named, or each file of a collection (a row each).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (paths, json) = (&args.files, args.json);
    if crate::collection::is_collection(paths) {
        return run_collection(paths, json);
    }
    let path = &paths[0];
    let objects = crate::input::read(path)?;
    let summary = summarise(path, &objects);
    let mut out = std::io::stdout().lock();
    if json {
        // As an io::Error, so that a closed pipe is told apart from other failures.
        serde_json::to_writer_pretty(&mut out, &summary).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        print_text(&mut out, &summary)?;
    }
    // The process ends next and the system takes its memory back at once: freeing the
    // file's keyframes one by one took an eighth of the run.
    std::mem::forget(objects);
    Ok(())
}

fn summarise(path: &Path, objects: &Opened) -> Summary {
    // Object ids keep their game's meaning (TRLE WADs hold TR4 objects).
    let (model, game) = (&objects.model, objects.game);
    Summary {
        file: path.display().to_string(),
        bytes: objects.file_bytes,
        format: objects.description().to_string(),
        version: objects.version,
        pages: model.pages.len(),
        samples: model.samples.len(),
        meshes: model.meshes.len(),
        polygons: model.polygon_count(),
        moveables: model
            .moveables
            .iter()
            .map(|m| MoveableSummary {
                id: m.id,
                slot: catalog::moveable_slot(game, m.id),
                meshes: m.meshes.len(),
                animations: m.animations.len(),
                keyframes: m.animations.iter().map(|a| a.keyframes.len()).sum(),
            })
            .collect(),
        statics: model
            .statics
            .iter()
            .map(|s| StaticSummary {
                id: s.id,
                slot: catalog::static_slot(game, s.id),
                polygons: model.meshes.get(s.mesh).map_or(0, |m| m.polygons.len()),
            })
            .collect(),
        after_level: objects.appended.as_ref().map(|a| a.to_string()),
    }
}

fn print_text(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    // Level version words read best in hex (TR3's 0xFF180038, TR4's "TR4\0" = 0x00345254).
    let version = if s.format.ends_with("level") {
        format!("{:#010x}", s.version)
    } else {
        s.version.to_string()
    };
    writeln!(out, "{}: {} version {version}", s.file, s.format)?;
    writeln!(
        out,
        "  {} texture pages, {} samples, {} unique meshes, {} polygons",
        s.pages, s.samples, s.meshes, s.polygons
    )?;
    if let Some(after) = &s.after_level {
        writeln!(out, "  {after}")?;
    }
    writeln!(out, "\nMoveables ({}):", s.moveables.len())?;
    let slot_width = s
        .moveables
        .iter()
        .map(|m| m.slot.len())
        .chain(s.statics.iter().map(|t| t.slot.len()))
        .max();
    let w = slot_width.unwrap_or(4).max(4);
    writeln!(
        out,
        "  {:>5}  {:<w$}  {:>6}  {:>10}  {:>9}",
        "id", "slot", "meshes", "animations", "keyframes"
    )?;
    for m in &s.moveables {
        writeln!(
            out,
            "  {:>5}  {:<w$}  {:>6}  {:>10}  {:>9}",
            m.id, m.slot, m.meshes, m.animations, m.keyframes
        )?;
    }
    writeln!(out, "\nStatics ({}):", s.statics.len())?;
    writeln!(out, "  {:>5}  {:<w$}  {:>8}", "id", "slot", "polygons")?;
    for t in &s.statics {
        writeln!(out, "  {:>5}  {:<w$}  {:>8}", t.id, t.slot, t.polygons)?;
    }
    Ok(())
}

/// One summary per file (`--json`: each file's whole summary, or why it cannot be read), files
/// read in parallel.
fn run_collection(paths: &[PathBuf], json: bool) -> anyhow::Result<()> {
    let files = crate::collection::object_files(paths)?;
    let outcomes = crate::collection::each_file(files, "reading", json, |file| {
        let objects = crate::input::read(&file.path)?;
        Ok(summarise(&file.path, &objects))
    });
    let mut out = std::io::stdout().lock();
    if json {
        let records: Vec<serde_json::Value> = outcomes
            .iter()
            .map(|o| match &o.result {
                Ok(summary) => serde_json::to_value(summary).unwrap_or_default(),
                Err(why) => serde_json::json!({"file": o.file.path.display().to_string(), "unreadable": why}),
            })
            .collect();
        serde_json::to_writer_pretty(&mut out, &records).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        print_rows(&mut out, &outcomes)?;
    }
    crate::collection::failed_files(&outcomes)
}

fn print_rows(out: &mut impl Write, outcomes: &[crate::collection::Outcome<Summary>]) -> std::io::Result<()> {
    let w = outcomes
        .iter()
        .map(|o| o.file.path.display().to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "{:w$}  {:<16}  {:>9}  {:>7}  {:>5}  {:>7}  {:>7}",
        "file", "format", "moveables", "statics", "pages", "samples", "MB"
    )?;
    let (mut moveables, mut statics) = (0, 0);
    for o in outcomes {
        match &o.result {
            Ok(s) => {
                moveables += s.moveables.len();
                statics += s.statics.len();
                writeln!(
                    out,
                    "{:w$}  {:<16}  {:>9}  {:>7}  {:>5}  {:>7}  {:>7.2}",
                    s.file,
                    s.format,
                    s.moveables.len(),
                    s.statics.len(),
                    s.pages,
                    s.samples,
                    s.bytes as f64 / 1e6
                )?;
            }
            Err(why) => writeln!(out, "{:w$}  cannot be read: {why}", o.file.path.display())?,
        }
    }
    let read = outcomes.iter().filter(|o| o.result.is_ok()).count();
    writeln!(
        out,
        "{} files: {read} read ({moveables} moveables, {statics} statics), {} cannot be read",
        outcomes.len(),
        outcomes.len() - read
    )
}
