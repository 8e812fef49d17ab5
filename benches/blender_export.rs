//! The extension's export of an imported WAD of 100+ objects, unchanged (issue 43): `cargo bench
//! --bench blender_export`. Blender runs through the suite's harness (bpy 5.0.1 under
//! target/harness, see tests/harness/setup.sh; without it the benchmark says so and stops):
//! tests/harness/blender_new_objects.py in its `bench` mode installs the extension's zip, imports
//! the TR4-shaped fixture (109 moveables, 30 statics) and times three exports through
//! File → Export → Tomb Raider objects: unchanged, unchanged again, and with "Export all" (every
//! collection re-exported, what every export did before exports took only changed collections).
//! Each time is one run of a whole export (the glTF files it writes and `wadforge build`); the
//! target: an unchanged export under 20 s.

use std::path::PathBuf;
use std::process::Command;

const WADFORGE: &str = env!("CARGO_BIN_EXE_wadforge");
const TARGET_SECONDS: f64 = 20.0;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn main() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        eprintln!("blender_export: bpy is not installed under target/harness (bash tests/harness/setup.sh): skipped");
        return;
    };
    let zip = Command::new("bash")
        .arg(repo().join("scripts/blender-extension.sh"))
        .output()
        .expect("bash runs scripts/blender-extension.sh");
    assert!(zip.status.success(), "{}", String::from_utf8_lossy(&zip.stderr));
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let wad = tmp.path().join("TR4_SHAPED.WAD");
    let bytes =
        wadforge_format::wad::write(&wadforge_fixtures::tr4_shaped(), None).expect("the fixture writes");
    std::fs::write(&wad, bytes).expect("the fixture is written");
    let zip_path = repo().join("target/wadforge-blender.zip");
    let out = Command::new(python)
        .arg(repo().join("tests/harness/blender_new_objects.py"))
        .args([
            &zip_path,
            &PathBuf::from(WADFORGE),
            &wad,
            &tmp.path().to_path_buf(),
        ])
        .arg("bench")
        .env("BLENDER_USER_RESOURCES", tmp.path().join("blender-user"))
        .output()
        .expect("the harness's python runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    println!(
        "objects imported: {}, import {:.1} s",
        report["objects"],
        report["import_seconds"].as_f64().unwrap_or(f64::NAN)
    );
    println!("| export | seconds | glTF files rewritten | target |");
    println!("|---|---|---|---|");
    for (step, target) in [
        ("unchanged", true),
        ("unchanged_again", true),
        ("everything", false),
    ] {
        let seconds = report[step]["seconds"].as_f64().unwrap_or(f64::NAN);
        let verdict = match (target, seconds < TARGET_SECONDS) {
            (false, _) => "(before: every collection)",
            (true, true) => "MET",
            (true, false) => "MISSED",
        };
        let ok = report[step]["result"]["result"] == serde_json::json!(["FINISHED"]);
        let rewrote = &report[step]["rewrote"];
        let seconds = if ok {
            format!("{seconds:.2}")
        } else {
            format!("failed: {}", report[step]["result"])
        };
        println!("| {step} | {seconds} | {rewrote} | {verdict} |");
    }
}
