//! `wadforge diff`: are the objects of two WADs, Wad2 files or levels the same, value by value?
//! Of two folders, each pair of files of the same path inside them (`folder`).

mod folder;
mod games;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use wadforge_diff::{Difference, ObjectKind, Options, Report, Scope};
use wadforge_format::catalog::{self, Game};

/// Compare the objects of two WADs, Wad2 files or TR1–TR4 levels, value by value, whatever the
/// file layout: per object `identical` or each difference (mesh, vertex, normal, polygon, texel,
/// link, animation, state change, dispatch, command, keyframe, angle) with both values, then a
/// summary line; of two folders, each pair of files of the same path in them, then a summary
/// table. Exit code 0 when the objects are the same, 1 when they differ, 2 on an error.
#[derive(clap::Args)]
#[command(after_help = "Example: wadforge diff LEVEL2.PHD rebuilt.wad | tail -n 1")]
pub struct Args {
    /// The first .wad, .wad2 or TR1–TR4 level, or a folder (never modified).
    a: PathBuf,
    /// The second .wad, .wad2 or TR1–TR4 level, or a folder whose files are matched with A's by
    /// their paths inside them (never modified).
    b: PathBuf,
    /// Print the report as JSON, every difference listed (up to 100 000; more are counted).
    #[arg(long)]
    json: bool,
    /// Normals still equal when each component differs by at most this (16300 = unit length).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    normal_tolerance: i32,
    /// Keyframe angles still equal when each differs by at most this (4096 = a turn).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
    angle_tolerance: i32,
    /// Compare only geometry: meshes (positions, lighting, polygons, textures) and statics' boxes.
    #[arg(long, conflicts_with = "animation")]
    geometry: bool,
    /// Compare only links and animations.
    #[arg(long)]
    animation: bool,
    /// NAME=SLOT: files of two games are compared in one game's slots (TR4's beside a WAD);
    /// place an object the catalogue gives none there as `build --as` or `convert --as` placed
    /// it, e.g. --as WOLF=DOG (names or ids; repeat or separate with commas).
    #[arg(long = "as", value_delimiter = ',', value_name = "NAME=SLOT")]
    as_slots: Vec<String>,
}

impl Args {
    /// What to compare, and how strictly.
    fn options(&self) -> Options {
        let scope = match (self.geometry, self.animation) {
            (true, _) => Scope::Geometry,
            (_, true) => Scope::Animation,
            _ => Scope::All,
        };
        Options {
            normal_tolerance: self.normal_tolerance,
            angle_tolerance: self.angle_tolerance,
            scope,
        }
    }
}

/// Difference lines shown per object in text; JSON lists them all, up to
/// [`wadforge_diff::LISTED_DIFFERENCES`] in the report (each object counts the rest).
const LINES_PER_OBJECT: usize = 20;

/// Compares the files (or folders) and prints the report; `Ok(true)` when their objects are the
/// same.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    if args.a.is_dir() || args.b.is_dir() {
        return folder::run(args);
    }
    let (report, game) = compare(&args.a, &args.b, args)?;
    let printed = if args.json {
        print_json(args, game, &report)
    } else {
        report.write_text(
            &mut io::stdout().lock(),
            |kind, id| slot(game, kind, id),
            LINES_PER_OBJECT,
        )
    };
    match printed {
        // `wadforge diff A B | head`: the reader has what it wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        other => other?,
    }
    Ok(report.is_identical())
}

/// The report of `a` against `b`, their objects compared in one game's ids, and that game.
fn compare(a: &Path, b: &Path, args: &Args) -> anyhow::Result<(Report, Game)> {
    let sides = games::read_in_one_game(a, b, &args.as_slots)?;
    let (a, b) = (&sides.a, &sides.b);
    let (starts_a, starts_b) = (a.animation_starts(), b.animation_starts());
    let mut report =
        wadforge_diff::diff_tables((&a.model, &starts_a), (&b.model, &starts_b), &args.options());
    report.unmatched = sides.unmatched;
    Ok((report, sides.game))
}

fn slot(game: Game, kind: ObjectKind, id: u32) -> String {
    match kind {
        ObjectKind::Moveable => catalog::moveable_slot(game, id),
        ObjectKind::Static => catalog::static_slot(game, id),
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    a: String,
    b: String,
    identical: bool,
    summary: String,
    objects: Vec<JsonObject<'a>>,
    /// Objects of one file the other's game has no slot for.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    unmatched: &'a [wadforge_diff::Unmatched],
}

#[derive(Serialize)]
struct JsonObject<'a> {
    kind: ObjectKind,
    id: u32,
    slot: String,
    identical: bool,
    differences: &'a [Difference],
    /// Differences past the 100 000 a report lists: counted only.
    #[serde(skip_serializing_if = "is_zero")]
    unlisted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn print_json(args: &Args, game: Game, report: &Report) -> io::Result<()> {
    let json = JsonReport {
        a: args.a.display().to_string(),
        b: args.b.display().to_string(),
        identical: report.is_identical(),
        summary: report.summary(),
        objects: json_objects(game, report),
        unmatched: &report.unmatched,
    };
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json).map_err(io::Error::from)?;
    writeln!(out)
}

/// Every object of `report` as JSON records, named by `game`'s slots.
fn json_objects(game: Game, report: &Report) -> Vec<JsonObject<'_>> {
    report
        .objects
        .iter()
        .map(|object| JsonObject {
            kind: object.kind,
            id: object.id,
            slot: slot(game, object.kind, object.id),
            identical: object.is_identical(),
            differences: &object.differences,
            unlisted: object.unlisted,
        })
        .collect()
}
