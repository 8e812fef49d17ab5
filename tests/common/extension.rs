//! The Blender extension run as a user runs it: its zip made once per test run (the tests of a
//! run share one `target/wadforge-blender.zip`, so it is written once, not raced), and a script
//! of `tests/harness/` run in the harness's bpy with the extension installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::files::repo;
use super::s;

/// The extension's zip, made as a user makes it (`scripts/blender-extension.sh`).
pub fn extension_zip() -> PathBuf {
    static MADE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let out = Command::new("bash")
            .arg(repo().join("scripts/blender-extension.sh"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        repo().join("target/wadforge-blender.zip")
    })
    .clone()
}

/// Runs `tests/harness/SCRIPT` in `python` (the harness's, with bpy) with the extension's zip, the
/// built `wadforge`, `file` and `work`, then `args`, and a fresh Blender user folder in `work`;
/// asserts it succeeded and returns its JSON report.
pub fn run_script(python: &Path, script: &str, file: &Path, work: &Path, args: &[&str]) -> serde_json::Value {
    let out = Command::new(python)
        .arg(repo().join("tests/harness").join(script))
        .args([
            s(&extension_zip()),
            env!("CARGO_BIN_EXE_wadforge"),
            s(file),
            s(work),
        ])
        .args(args)
        .env("BLENDER_USER_RESOURCES", work.join("blender-user"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{script}: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{script}: {e}: {stderr}"))
}

/// Asserts the operator the report's `step` ran finished.
pub fn finished(report: &serde_json::Value, step: &str) {
    assert_eq!(
        report[step]["result"],
        serde_json::json!(["FINISHED"]),
        "{step}: {}",
        report[step]
    );
}
