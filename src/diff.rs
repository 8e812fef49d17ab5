//! `wadforge diff`: are the objects of two WADs or levels the same, value by value?

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;
use wadforge_diff::{Difference, ObjectKind, Options, Report};
use wadforge_format::catalog::{self, Game};

use wadforge_format::{FileKind, Opened};

/// Difference lines shown per object in text; JSON lists them all, up to
/// [`wadforge_diff::LISTED_DIFFERENCES`] in the report (each object counts the rest).
pub(crate) const LINES_PER_OBJECT: usize = 20;

pub struct DiffArgs<'a> {
    pub a: &'a Path,
    pub b: &'a Path,
    pub json: bool,
    pub options: Options,
}

/// Compares the files and prints the report; `Ok(true)` when their objects are the same.
pub fn run(args: DiffArgs) -> anyhow::Result<bool> {
    if args.a.is_dir() || args.b.is_dir() {
        return crate::diff_collection::run(args);
    }
    let a = crate::input::read(args.a)?;
    let b = crate::input::read(args.b)?;
    let (starts_a, starts_b) = (a.animation_starts(), b.animation_starts());
    let report = wadforge_diff::diff_tables((&a.model, &starts_a), (&b.model, &starts_b), &args.options);
    let game = naming_game(&a, &b);
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

/// The game whose catalogue names the objects: a level's (ids keep their game's meaning, also in a
/// WAD built from an imported level), TR4's for two WADs.
pub(crate) fn naming_game(a: &Opened, b: &Opened) -> Game {
    [a, b]
        .into_iter()
        .find(|o| o.kind != FileKind::Wad)
        .map_or(Game::Tr4, |o| o.game)
}

pub(crate) fn slot(game: Game, kind: ObjectKind, id: u32) -> String {
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
}

#[derive(Serialize)]
pub(crate) struct JsonObject<'a> {
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

fn print_json(args: DiffArgs, game: Game, report: &Report) -> io::Result<()> {
    let json = JsonReport {
        a: args.a.display().to_string(),
        b: args.b.display().to_string(),
        identical: report.is_identical(),
        summary: report.summary(),
        objects: json_objects(game, report),
    };
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json).map_err(io::Error::from)?;
    writeln!(out)
}

/// Every object of `report` as JSON records, named by `game`'s slots.
pub(crate) fn json_objects(game: Game, report: &Report) -> Vec<JsonObject<'_>> {
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
