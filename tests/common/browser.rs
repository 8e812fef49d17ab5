//! Headless Chromium for the tests of pages (installed by `tests/harness/setup.sh`; a test
//! without it is skipped with [`CHROMIUM_ABSENT`]).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a test says when it is skipped for want of Chromium.
pub const CHROMIUM_ABSENT: &str =
    "skipped: no chromium (bash tests/harness/setup.sh installs the Debian package \
     `chromium`, or set WADFORGE_CHROMIUM)";

/// Chromium from `WADFORGE_CHROMIUM` or the system's `chromium`.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WADFORGE_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    })
}

/// Headless Chromium on `page` with a fresh profile: its stdout and stderr.
pub fn run_chromium(chromium: &Path, profile: &Path, page: &Path, extra: &[String]) -> Output {
    run_chromium_at(
        chromium,
        profile,
        &format!("file://{}", page.canonicalize().unwrap().display()),
        extra,
    )
}

/// Headless Chromium on the address `url` with a fresh profile: its stdout and stderr.
pub fn run_chromium_at(chromium: &Path, profile: &Path, url: &str, extra: &[String]) -> Output {
    Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}
