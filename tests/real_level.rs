//! The real Tomb Raider 1 demo level beside the project (`../shared/real/LEVEL2_DEMO.PHD`, never
//! in it), end to end through the command line: import → build gives every object TR4 has a slot
//! for back in that slot (a WAD holds TR4's ids) and names the others, then every object again from
//! the real-content WAD build wrote, and an unedited patch of that WAD gives the base back with its
//! pages and samples. Each test says so and passes when the file is absent.

use std::path::{Path, PathBuf};

use wadforge_format::catalog::{self, Game};

use crate::common::files::{read_objects, repo};
use crate::common::{s, stdout, succeeds, wadforge};

fn real_level() -> Option<PathBuf> {
    let path = repo().join("../shared/real/LEVEL2_DEMO.PHD");
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

/// `wadforge diff A B` says every object is identical (exit 0), and how many there are.
fn assert_identical(a: &Path, b: &Path) -> usize {
    let o = wadforge(&["diff", s(a), s(b)]);
    let out = stdout(&o);
    assert!(
        o.status.success(),
        "{} vs {}:\n{}",
        a.display(),
        b.display(),
        differing(&out)
    );
    let model = read_objects(a);
    let objects = model.moveables.len() + model.statics.len();
    let summary = out.lines().last().unwrap_or_default();
    assert_eq!(summary, format!("{objects} of {objects} objects identical"));
    objects
}

/// The lines of a diff report about objects that are not identical (at most 40).
fn differing(report: &str) -> String {
    let lines = report.lines().filter(|l| !l.ends_with(": identical"));
    lines.take(40).collect::<Vec<_>>().join("\n")
}

/// import FILE → build: the built WAD.
fn import_build(tmp: &Path, file: &Path, name: &str) -> PathBuf {
    let dir = tmp.join(name);
    succeeds(&["import", "-q", s(file), "-o", s(&dir)]);
    let out = tmp.join(format!("{name}.wad"));
    succeeds(&["build", "-q", s(&dir), "-o", s(&out)]);
    // Every WAD build writes reads in other tools (WadTool, wadblender) as the game plays it.
    wadforge_fixtures::assert_other_tools_read_as_the_game(name, &std::fs::read(&out).unwrap());
    out
}

#[test]
fn import_then_build_gives_every_object_of_the_real_level_back() {
    let Some(level) = real_level() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let wad = import_build(tmp.path(), &level, "level");
    // Every object TR4 has a slot for is identical in it; the others are named, nothing else differs.
    let model = read_objects(&level);
    let no_slot: Vec<String> = model
        .moveables
        .iter()
        .filter(|m| catalog::moveable_in(Game::Tr1, m.id, Game::Tr4).is_none())
        .map(|m| format!("{} (moveable {})", catalog::moveable_slot(Game::Tr1, m.id), m.id))
        .collect();
    assert!(!no_slot.is_empty(), "TR4 has no WOLF");
    let o = wadforge(&["diff", s(&level), s(&wad)]);
    let out = stdout(&o);
    let objects = model.moveables.len() + model.statics.len();
    let n = no_slot.len();
    let summary = out.lines().last().unwrap_or_default();
    assert_eq!(
        summary,
        format!(
            "{} of {objects} objects identical ({n} differ: {n} with no slot in the other's game)",
            objects - n
        ),
        "{}",
        differing(&out)
    );
    for object in &no_slot {
        assert!(
            out.contains(&format!("{object}: only in A: TR4 has no moveable slot")),
            "{object}"
        );
    }
    // And from the real-content WAD build wrote, every object.
    let again = import_build(tmp.path(), &wad, "wad");
    assert_eq!(assert_identical(&wad, &again), objects - n);
}

#[test]
fn an_unedited_patch_of_the_real_wad_gives_the_base_back_with_its_pages_and_samples() {
    let Some(level) = real_level() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let base = import_build(tmp.path(), &level, "level");
    let dir = tmp.path().join("outfit");
    succeeds(&[
        "import",
        "-q",
        s(&base),
        "-o",
        s(&dir),
        "--only",
        "LARA,BAT,DOOR_TYPE1",
    ]);
    let out = tmp.path().join("patched.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out), "--base", s(&base)]);
    assert_identical(&base, &out);
    wadforge_fixtures::assert_other_tools_read_as_the_game("patched", &std::fs::read(&out).unwrap());
    let counts = |p: &Path| {
        let info = succeeds(&["info", s(p)]);
        info.lines().nth(1).unwrap_or_default().to_string()
    };
    // "N texture pages, N samples, N unique meshes, N polygons"
    let (before, after) = (counts(&base), counts(&out));
    let pages_and_samples = |line: &str| line.split(',').take(2).collect::<Vec<_>>().join(",");
    assert_eq!(pages_and_samples(&after), pages_and_samples(&before));
}

#[test]
fn the_real_laras_manifest_reads_at_a_glance() {
    // Short lists and small records on one line: 25,371 lines in one-number-a-line YAML.
    let Some(level) = real_level() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("level");
    succeeds(&["import", "-q", s(&level), "-o", s(&dir), "--only", "LARA"]);
    let text = std::fs::read_to_string(dir.join("moveables/000_LARA.yaml")).unwrap();
    let lines = text.lines().count();
    eprintln!("LARA's manifest: {lines} lines");
    assert!(lines <= 6_000, "{lines} lines");
}
