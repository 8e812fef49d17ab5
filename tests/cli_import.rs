//! `wadforge import` end to end: what it writes, and what it refuses.

use crate::common::files::{files_under, standard_wad};
use crate::common::{s, stderr, wadforge};

#[test]
fn import_writes_a_manifest_directory_that_loads() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let before = std::fs::read(&input).unwrap();
    let out = tmp.path().join("out");
    let o = wadforge(&["import", "-q", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&input).unwrap(),
        before,
        "the input is never modified"
    );
    let loaded = wadforge_manifests::load(&out).unwrap();
    let model = wadforge_fixtures::standard();
    assert_eq!(loaded.objects.len(), model.moveables.len() + model.statics.len());
    assert!(out.join("moveables/051_CROCODILE.glb").is_file());
    assert!(out.join("statics/000_PLANT0.yaml").is_file());
    let leftovers: Vec<_> = files_under(&out)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("wadforge-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind: {leftovers:?}");
}

#[test]
fn import_refuses_a_non_empty_directory_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = wadforge(&["import", "-q", s(&input), "-o", s(&out)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("already exists and is not empty") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    assert!(
        !out.join("wadforge.yaml").exists(),
        "nothing written when refused"
    );
    let o = wadforge(&["import", "-q", "--force", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine",
        "other files are left alone"
    );
    assert!(out.join("wadforge.yaml").exists());
}

#[test]
fn a_file_that_cannot_be_written_is_named_and_the_users_file_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // A file where import puts its moveables' folder.
    std::fs::write(out.join("moveables"), "mine").unwrap();
    let o = wadforge(&["import", "-q", "--force", s(&input), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let message = stderr(&o);
    assert!(
        message.contains("cannot write") && message.contains("moveables") && message.contains(".glb"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(out.join("moveables")).unwrap(), "mine");
    assert!(
        !out.join("wadforge.yaml").exists(),
        "no project file names objects it lacks"
    );
}

#[test]
fn only_imports_the_named_objects() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out");
    let o = wadforge(&["import", "-q", "--only", "CROCODILE,0", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let loaded = wadforge_manifests::load(&out).unwrap();
    let mut slots: Vec<String> = loaded
        .objects
        .iter()
        .map(|o| match &o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) => m.slot.clone(),
            wadforge_manifests::ObjectManifest::Static(s) => s.slot.clone(),
        })
        .collect();
    slots.sort();
    // Id 0 names both LARA and the static PLANT0.
    assert_eq!(slots, ["CROCODILE", "LARA", "PLANT0"]);
}

#[test]
fn only_with_an_unknown_name_lists_what_there_is() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let o = wadforge(&[
        "import",
        "-q",
        "--only",
        "DRAGON",
        s(&input),
        "-o",
        s(&tmp.path().join("out")),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("DRAGON") && stderr(&o).contains("CROCODILE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn separate_gltf_files_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out");
    let o = wadforge(&[
        "import",
        "-q",
        "--gltf",
        "--only",
        "CROCODILE",
        s(&input),
        "-o",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "051_CROCODILE.gltf",
        "051_CROCODILE.bin",
        "051_CROCODILE_0.png",
        "051_CROCODILE.yaml",
    ] {
        assert!(out.join("moveables").join(f).is_file(), "{f}");
    }
}

#[test]
fn scale_changes_units_and_is_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out");
    let o = wadforge(&["import", "-q", "--scale", "1024", s(&input), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        wadforge_manifests::load(&out)
            .unwrap()
            .project
            .units
            .tr_units_per_metre,
        1024.0
    );
    let o = wadforge(&[
        "import",
        "-q",
        "--force",
        "--scale",
        "-2",
        s(&input),
        "-o",
        s(&out),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--scale must be a positive number"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_damaged_wad_is_refused_with_its_place() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let mut bytes = std::fs::read(&input).unwrap();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&input, bytes).unwrap();
    let out = tmp.path().join("out");
    let o = wadforge(&["import", "-q", s(&input), "-o", s(&out)]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("standard.wad is not a valid WAD") && e.contains("statics section, byte"),
        "{e}"
    );
    assert!(!out.exists(), "no output directory for a refused input");
}

#[test]
fn a_file_that_is_neither_wad_nor_level_says_what_it_expected() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let mut bytes = std::fs::read(&input).unwrap();
    bytes[0] = 7;
    std::fs::write(&input, bytes).unwrap();
    let o = wadforge(&["import", "-q", s(&input), "-o", s(&tmp.path().join("out"))]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("neither a valid WAD nor a supported level") && e.contains("is not a Tomb Raider level"),
        "{e}"
    );
}
