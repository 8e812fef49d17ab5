//! `wadforge check FOLDER|FILES...`: every object file checked, on every core, with the findings
//! per file and one summary table; a file that cannot be read is reported and the run goes on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use wadforge_edit::check::{Finding, Severity};

use crate::collection::object_files;
use crate::progress::Progress;

/// What checking one file gave: its findings, or why it could not be read.
struct Checked {
    path: PathBuf,
    outcome: Result<Vec<Finding>, String>,
}

impl Checked {
    fn count(&self, severity: Severity) -> usize {
        let findings = self.outcome.as_ref().map_or(&[][..], Vec::as_slice);
        findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(Finding::count)
            .sum()
    }
}

/// Checks the object files of `paths`; exit code 2 when some could not be read, else 1 when an
/// error was found, else 0.
pub fn run(paths: &[PathBuf], json: bool) -> anyhow::Result<ExitCode> {
    let files = object_files(paths)?;
    let progress = Progress::new(files.len() as u64, "checking", false);
    let checked = wadforge_files::in_parallel(
        &files,
        |path| Checked {
            path: path.clone(),
            outcome: check_one(path),
        },
        |c| Some(c.path.display().to_string()),
        &mut |done, _, name| progress.set(done as u64, name),
    );
    progress.finish();
    if json {
        print_json(&checked)?;
    } else {
        print_text(&checked);
    }
    let failed = checked.iter().any(|c| c.outcome.is_err());
    let errors = checked.iter().any(|c| c.count(Severity::Error) > 0);
    Ok(ExitCode::from(if failed { 2 } else { u8::from(errors) }))
}

fn check_one(path: &Path) -> Result<Vec<Finding>, String> {
    let objects = crate::input::read(path).map_err(|e| format!("{e:#}"))?;
    let starts = objects.animation_starts();
    Ok(wadforge_edit::check::check(
        &objects.model,
        objects.game,
        &starts,
        objects.layout.as_ref(),
        objects.file_bytes,
    ))
}

fn print_text(checked: &[Checked]) {
    for c in checked {
        match &c.outcome {
            Ok(findings) if findings.is_empty() => {}
            Ok(findings) => {
                println!("{}:", c.path.display());
                for f in findings {
                    println!("  {f}");
                }
            }
            Err(why) => println!("{}: cannot be read: {why}", c.path.display()),
        }
    }
    let width = checked
        .iter()
        .map(|c| c.path.display().to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!();
    println!("{:width$}  errors  warnings  notes", "file");
    for c in checked {
        match &c.outcome {
            Ok(_) => println!(
                "{:width$}  {:>6}  {:>8}  {:>5}",
                c.path.display(),
                c.count(Severity::Error),
                c.count(Severity::Warning),
                c.count(Severity::Note)
            ),
            Err(_) => println!("{:width$}  cannot be read", c.path.display()),
        }
    }
    let failed: Vec<String> = checked
        .iter()
        .filter(|c| c.outcome.is_err())
        .map(|c| c.path.display().to_string())
        .collect();
    let with_errors = checked.iter().filter(|c| c.count(Severity::Error) > 0).count();
    println!(
        "{} files checked: {with_errors} with errors, {} cannot be read{}",
        checked.len(),
        failed.len(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(" ({})", failed.join(", "))
        }
    );
}

fn print_json(checked: &[Checked]) -> anyhow::Result<()> {
    let files: Vec<serde_json::Value> = checked
        .iter()
        .map(|c| match &c.outcome {
            Ok(findings) => serde_json::json!({
                "file": c.path.display().to_string(),
                "errors": c.count(Severity::Error),
                "warnings": c.count(Severity::Warning),
                "notes": c.count(Severity::Note),
                "findings": findings,
            }),
            Err(why) => serde_json::json!({"file": c.path.display().to_string(), "unreadable": why}),
        })
        .collect();
    println!("{}", serde_json::to_string_pretty(&files)?);
    Ok(())
}
