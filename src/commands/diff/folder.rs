//! `wadforge diff FOLDER_A FOLDER_B`: the object files of two folders matched by their paths
//! inside them, each pair compared as `diff A B` compares two files, in parallel; what differs
//! per file, then one summary table.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::bail;
use wadforge_diff::Report;

use super::{json_objects, slot, Args, LINES_PER_OBJECT};
use crate::collection::{each_file, folder_files, ObjectFile, Outcome};

/// A relative path and the file it names in each folder (`None`: absent there).
struct Pair {
    a: Option<PathBuf>,
    b: Option<PathBuf>,
}

/// How one pair compared: its summary line, the text of what differs, its JSON record.
struct Compared {
    identical: bool,
    summary: String,
    text: String,
    json: serde_json::Value,
}

/// Compares the folders; `Ok(true)` when every file is in both and their objects are the same.
/// A file that cannot be read is an error of the run (exit code 2), after the report.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    if !args.as_slots.is_empty() {
        bail!("--as places objects of one file: compare the two files whose objects it names, not folders");
    }
    if !(args.a.is_dir() && args.b.is_dir()) {
        bail!(
            "{} and {}: compare a folder with a folder (files are matched by their paths inside them), or a file \
             with a file",
            args.a.display(),
            args.b.display()
        );
    }
    let pairs = pairs(args)?;
    // Each pair as a file of the run: the one in A (else B), whose size orders the work.
    let files: Vec<ObjectFile> = pairs
        .iter()
        .map(|(relative, pair)| ObjectFile {
            path: pair
                .a
                .clone()
                .or_else(|| pair.b.clone())
                .unwrap_or_else(|| relative.clone()),
            relative: relative.clone(),
        })
        .collect();
    let outcomes = each_file(files, "comparing", args.json, |file| {
        compare(&pairs[&file.relative], args)
    });
    let printed = if args.json {
        print_json(args, &pairs, &outcomes)
    } else {
        print_text(&pairs, &outcomes)
    };
    match printed {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        other => other?,
    }
    let unreadable: Vec<String> = outcomes
        .iter()
        .filter(|o| o.result.is_err())
        .map(|o| o.file.relative.display().to_string())
        .collect();
    if !unreadable.is_empty() {
        bail!(
            "{} files could not be compared: {}",
            unreadable.len(),
            unreadable.join(", ")
        );
    }
    Ok(outcomes
        .iter()
        .all(|o| o.result.as_ref().is_ok_and(|c| c.identical)))
}

/// Every object file of either folder, by its path inside it.
fn pairs(args: &Args) -> anyhow::Result<BTreeMap<PathBuf, Pair>> {
    let mut pairs: BTreeMap<PathBuf, Pair> = BTreeMap::new();
    for file in folder_files(&args.a)? {
        pairs.insert(
            file.relative,
            Pair {
                a: Some(file.path),
                b: None,
            },
        );
    }
    for file in folder_files(&args.b)? {
        pairs.entry(file.relative).or_insert(Pair { a: None, b: None }).b = Some(file.path);
    }
    Ok(pairs)
}

fn compare(pair: &Pair, args: &Args) -> anyhow::Result<Compared> {
    let (a, b) = match (&pair.a, &pair.b) {
        (Some(a), Some(b)) => (a, b),
        (a, _) => {
            let summary = format!("only in {}", if a.is_some() { "A" } else { "B" });
            return Ok(Compared {
                identical: false,
                json: serde_json::json!({"identical": false, "summary": summary}),
                text: String::new(),
                summary,
            });
        }
    };
    let (report, game) = super::compare(a, b, args)?;
    let differing = Report {
        objects: report
            .objects
            .iter()
            .filter(|o| !o.is_identical())
            .cloned()
            .collect(),
        unmatched: report.unmatched.clone(),
    };
    let mut text = Vec::new();
    if !differing.is_identical() {
        differing.write_text(&mut text, |kind, id| slot(game, kind, id), LINES_PER_OBJECT)?;
    }
    let text = String::from_utf8_lossy(&text);
    // write_text ends with the summary of what it was given: the pair's own is in the table.
    let summary_line = format!("{}\n", differing.summary());
    Ok(Compared {
        identical: report.is_identical(),
        summary: report.summary(),
        text: text.strip_suffix(&summary_line).unwrap_or(&text).to_string(),
        json: serde_json::json!({
            "identical": report.is_identical(),
            "summary": report.summary(),
            "objects": json_objects(game, &report),
            "unmatched": &report.unmatched,
        }),
    })
}

fn print_text(pairs: &BTreeMap<PathBuf, Pair>, outcomes: &[Outcome<Compared>]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    for o in outcomes {
        match &o.result {
            Ok(c) if !c.text.is_empty() => write!(out, "{}:\n{}", o.file.relative.display(), c.text)?,
            Ok(_) => {}
            Err(why) => writeln!(out, "{}: cannot be read: {why}", o.file.relative.display())?,
        }
    }
    let w = pairs
        .keys()
        .map(|p| p.display().to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(out)?;
    writeln!(out, "{:w$}  result", "file")?;
    for o in outcomes {
        let result = match &o.result {
            Ok(c) => c.summary.clone(),
            Err(_) => "cannot be read".to_string(),
        };
        writeln!(out, "{:w$}  {result}", o.file.relative.display())?;
    }
    let same = outcomes
        .iter()
        .filter(|o| o.result.as_ref().is_ok_and(|c| c.identical))
        .count();
    let unreadable = outcomes.iter().filter(|o| o.result.is_err()).count();
    writeln!(
        out,
        "{} files: {same} identical, {} differ or are in one folder only, {unreadable} cannot be read",
        outcomes.len(),
        outcomes.len() - same - unreadable
    )
}

fn print_json(
    args: &Args,
    pairs: &BTreeMap<PathBuf, Pair>,
    outcomes: &[Outcome<Compared>],
) -> io::Result<()> {
    let files: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let pair = &pairs[&o.file.relative];
            let mut record = match &o.result {
                Ok(c) => c.json.clone(),
                Err(why) => serde_json::json!({"unreadable": why}),
            };
            record["file"] = o.file.relative.display().to_string().into();
            record["a"] = pair.a.as_ref().map(|p| p.display().to_string()).into();
            record["b"] = pair.b.as_ref().map(|p| p.display().to_string()).into();
            record
        })
        .collect();
    let json = serde_json::json!({
        "a": args.a.display().to_string(),
        "b": args.b.display().to_string(),
        "identical": outcomes.iter().all(|o| o.result.as_ref().is_ok_and(|c| c.identical)),
        "files": files,
    });
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json).map_err(io::Error::from)?;
    writeln!(out)
}
