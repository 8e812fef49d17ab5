//! `wadforge check FOLDER|FILES...`: every object file checked, on every core, with the findings
//! per file and one summary table; a file that cannot be read is reported and the run goes on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use wadforge_edit::check::{Finding, Severity};

use crate::collection::{each_file, object_files, Outcome};

/// What checking one file gave: its findings, or why it could not be read.
type Checked = Outcome<Vec<Finding>>;

/// How many findings of a severity a file has.
trait Counted {
    fn count(&self, severity: Severity) -> usize;
}

impl Counted for Checked {
    fn count(&self, severity: Severity) -> usize {
        let findings = self.result.as_ref().map_or(&[][..], Vec::as_slice);
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
    let checked = each_file(files, "checking", false, |file| check_one(&file.path));
    if json {
        print_json(&checked)?;
    } else {
        print_text(&checked);
    }
    let failed = checked.iter().any(|c| c.result.is_err());
    let errors = checked.iter().any(|c| c.count(Severity::Error) > 0);
    Ok(ExitCode::from(if failed { 2 } else { u8::from(errors) }))
}

fn check_one(path: &Path) -> anyhow::Result<Vec<Finding>> {
    let objects = crate::input::read(path)?;
    let starts = objects.animation_starts();
    let mut findings = wadforge_edit::check::check(
        &objects.model,
        objects.game,
        &starts,
        super::container(&objects),
        objects.file_bytes,
    );
    findings.extend(crate::sound_files::undefined_sounds(path, &objects)?);
    Ok(findings)
}

fn print_text(checked: &[Checked]) {
    for c in checked {
        match &c.result {
            Ok(findings) if findings.is_empty() => {}
            Ok(findings) => {
                println!("{}:", c.file.path.display());
                for f in findings {
                    println!("  {f}");
                }
            }
            Err(why) => println!("{}: cannot be read: {why}", c.file.path.display()),
        }
    }
    let width = checked
        .iter()
        .map(|c| c.file.path.display().to_string().len())
        .max()
        .unwrap_or(4)
        .max(4);
    println!();
    println!("{:width$}  errors  warnings  notes", "file");
    for c in checked {
        match &c.result {
            Ok(_) => println!(
                "{:width$}  {:>6}  {:>8}  {:>5}",
                c.file.path.display(),
                c.count(Severity::Error),
                c.count(Severity::Warning),
                c.count(Severity::Note)
            ),
            Err(_) => println!("{:width$}  cannot be read", c.file.path.display()),
        }
    }
    let failed: Vec<String> = checked
        .iter()
        .filter(|c| c.result.is_err())
        .map(|c| c.file.path.display().to_string())
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
        .map(|c| match &c.result {
            Ok(findings) => serde_json::json!({
                "file": c.file.path.display().to_string(),
                "errors": c.count(Severity::Error),
                "warnings": c.count(Severity::Warning),
                "notes": c.count(Severity::Note),
                "findings": findings,
            }),
            Err(why) => serde_json::json!({"file": c.file.path.display().to_string(), "unreadable": why}),
        })
        .collect();
    println!("{}", serde_json::to_string_pretty(&files)?);
    Ok(())
}
