//! `wadforge check FILE --for tr4|trng|ten`: what moving FILE's objects to an engine changes,
//! fixes and loses, per object, before anything is written. The objects go through the code
//! `convert` writes from ([`crate::porting`]), in memory, and its lines are reported as they are.

use std::path::Path;

use serde::Serialize;
use wadforge_format::OutputKind;

use crate::porting::{self, starts_with_object, Landing, Ported, Request, TargetGame};

/// The engine `check --for` reports on, named as the issue names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// TRLE's TR4 engine: a classic WAD, TR4's slots (`convert FILE OUT.wad`).
    Tr4,
    /// TRNG, which runs TR4's engine: a classic WAD, TR4's slots, as for tr4.
    Trng,
    /// Tomb Engine: a Wad2 of its slots (`convert FILE OUT.wad2 --game ten`).
    Ten,
}

impl Engine {
    /// The kind of file `convert` writes for this engine, and the game of a Wad2 it writes.
    fn output(self) -> (OutputKind, Option<TargetGame>) {
        match self {
            Engine::Tr4 | Engine::Trng => (OutputKind::Wad, None),
            Engine::Ten => (OutputKind::Wad2, Some(TargetGame::Ten)),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Engine::Tr4 => "TR4 (TRLE)",
            Engine::Trng => "TRNG",
            Engine::Ten => "Tomb Engine",
        }
    }

    /// The conversion this report is the report of.
    fn convert_command(self, file: &Path) -> String {
        match self {
            Engine::Tr4 | Engine::Trng => format!("wadforge convert {} OUT.wad", file.display()),
            Engine::Ten => format!("wadforge convert {} OUT.wad2 --game ten", file.display()),
        }
    }
}

/// One object of the input: where it lands and the lines about it (each as `convert` prints it,
/// after `changed: ` or `lost: `).
#[derive(Debug, Serialize)]
struct ObjectReport {
    #[serde(flatten)]
    landing: Landing,
    changed: Vec<String>,
    lost: Vec<String>,
}

/// The whole report: per object, then what is about the file.
#[derive(Debug, Serialize)]
struct Report {
    path: String,
    #[serde(rename = "for")]
    engine: &'static str,
    convert: String,
    objects: Vec<ObjectReport>,
    /// Lines about the file rather than one object (texture pages, skewed polygons).
    changed: Vec<String>,
    lost: Vec<String>,
    /// Why `convert` would write nothing (a classic WAD cannot hold the objects).
    refused: Option<String>,
}

impl Report {
    /// Whether moving the objects loses anything (exit code 1).
    fn loses(&self) -> bool {
        self.refused.is_some() || !self.lost.is_empty() || self.objects.iter().any(|o| !o.lost.is_empty())
    }
}

/// Reports what moving `file`'s objects to `engine` changes and loses; whether something
/// would be lost.
pub fn run(file: &Path, engine: Engine, json: bool) -> anyhow::Result<bool> {
    let mut opened = crate::input::read(file)?;
    let (output, game) = engine.output();
    let request = Request {
        only: None,
        as_slots: &[],
        game,
    };
    let ported = porting::port(&mut opened, &request, output)?;
    let refused = match output {
        OutputKind::Wad => porting::encode_wad(&opened.model).err().map(|e| format!("{e:#}")),
        OutputKind::Wad2 => None,
    };
    let report = grouped(file, engine, ported, refused);
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report);
    }
    Ok(report.loses())
}

/// `ported`'s lines under the object each is about; those about none, the file's.
fn grouped(file: &Path, engine: Engine, ported: Ported, refused: Option<String>) -> Report {
    let mut objects: Vec<ObjectReport> = (ported.landings.into_iter())
        .map(|landing| ObjectReport {
            landing,
            changed: Vec::new(),
            lost: Vec::new(),
        })
        .collect();
    let mut report = Report {
        path: file.display().to_string(),
        engine: engine.name(),
        convert: engine.convert_command(file),
        objects: Vec::new(),
        changed: Vec::new(),
        lost: Vec::new(),
        refused,
    };
    for (line, lost) in
        (ported.changed.into_iter().map(|l| (l, false))).chain(ported.lost.into_iter().map(|l| (l, true)))
    {
        let about = objects.iter_mut().find(|o| {
            starts_with_object(&line, &o.landing.object)
                || o.landing
                    .slot
                    .as_deref()
                    .is_some_and(|slot| starts_with_object(&line, slot))
        });
        match (about, lost) {
            (Some(o), false) => o.changed.push(line),
            (Some(o), true) => o.lost.push(line),
            (None, false) => report.changed.push(line),
            (None, true) => report.lost.push(line),
        }
    }
    report.objects = objects;
    report
}

fn print_text(report: &Report) {
    println!(
        "{} for {}: what `{}` does",
        report.path, report.engine, report.convert
    );
    for o in &report.objects {
        match &o.landing.slot {
            Some(slot) if *slot == o.landing.object => println!("{}: stays {slot}", o.landing.object),
            Some(slot) => println!("{} → {slot}", o.landing.object),
            None => println!("{}: left out", o.landing.object),
        }
        print_lines(o, &o.landing);
    }
    if !report.changed.is_empty() || !report.lost.is_empty() {
        println!("the file:");
        let short = |line: &str| line.strip_prefix("file: ").unwrap_or(line).to_string();
        report
            .changed
            .iter()
            .for_each(|l| println!("  changed: {}", short(l)));
        report.lost.iter().for_each(|l| println!("  lost: {}", short(l)));
    }
    if let Some(why) = &report.refused {
        println!("refused: convert writes nothing: {why}");
    }
    let placed = report.objects.iter().filter(|o| o.landing.slot.is_some()).count();
    let count = |lines: fn(&ObjectReport) -> usize| report.objects.iter().map(lines).sum::<usize>();
    println!(
        "{} for {}: {placed} objects in slots, {} left out; {} changes, {} losses",
        report.path,
        report.engine,
        report.objects.len() - placed,
        count(|o| o.changed.len()) + report.changed.len(),
        count(|o| o.lost.len()) + report.lost.len(),
    );
}

/// An object's lines, without the object's name they start with.
fn print_lines(o: &ObjectReport, landing: &Landing) {
    let short = |line: &str| -> String {
        let names = std::iter::once(landing.object.as_str()).chain(landing.slot.as_deref());
        names
            .filter_map(|name| line.strip_prefix(name)?.strip_prefix(": "))
            .next()
            .unwrap_or(line)
            .to_string()
    };
    o.changed.iter().for_each(|l| println!("  changed: {}", short(l)));
    o.lost.iter().for_each(|l| println!("  lost: {}", short(l)));
}
