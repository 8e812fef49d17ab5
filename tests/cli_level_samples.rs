//! A level's sample WAVs travel with its sounds: `import` writes those `sounds.yaml` names into
//! `DIR/samples/`, `build` copies them into `samples/` beside its output, `convert` writes them
//! beside its output; a different file already there is kept, never overwritten.

use std::path::Path;

use wadforge_fixtures::levels::{tr1_level, TR1_SAMPLE_WAVS};

use crate::common::{s, stderr, succeeds, wadforge};

/// The TR1 fixture's two samples as the sounds name them.
const NAMES: [&str; 2] = ["LEVEL1_0.wav", "LEVEL1_1.wav"];

/// Writes the TR1 fixture as `LEVEL1.PHD` in `dir`.
fn level_in(dir: &Path) -> std::path::PathBuf {
    let level = dir.join("LEVEL1.PHD");
    std::fs::write(&level, tr1_level()).unwrap();
    level
}

/// Asserts `folder` holds exactly the fixture's two WAVs, byte for byte.
fn holds_the_levels_wavs(folder: &Path) {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, NAMES, "{}", folder.display());
    for (name, wav) in NAMES.iter().zip(TR1_SAMPLE_WAVS) {
        assert_eq!(std::fs::read(folder.join(name)).unwrap(), wav, "{name}");
    }
}

#[test]
fn import_writes_the_samples_sounds_yaml_names_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let level = level_in(tmp.path());
    let dir = tmp.path().join("dir");
    let o = wadforge(&["import", s(&level), "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    holds_the_levels_wavs(&dir.join("samples"));
    let yaml = std::fs::read_to_string(dir.join("sounds.yaml")).unwrap();
    assert!(NAMES.iter().all(|n| yaml.contains(n)), "{yaml}");
    let bytes = TR1_SAMPLE_WAVS.iter().map(|w| w.len()).sum::<usize>();
    assert!(
        stderr(&o).contains(&format!(
            "samples: 2 WAVs written to {} ({bytes} bytes)",
            dir.join("samples").display()
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_different_sample_already_in_the_folder_is_kept_and_said() {
    let tmp = tempfile::tempdir().unwrap();
    let level = level_in(tmp.path());
    let dir = tmp.path().join("dir");
    let theirs = dir.join("samples").join(NAMES[0]);
    std::fs::create_dir_all(theirs.parent().unwrap()).unwrap();
    std::fs::write(&theirs, b"a sample edited by hand").unwrap();
    let o = wadforge(&["import", s(&level), "-o", s(&dir), "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&theirs).unwrap(), b"a sample edited by hand");
    assert_eq!(
        std::fs::read(dir.join("samples").join(NAMES[1])).unwrap(),
        TR1_SAMPLE_WAVS[1]
    );
    assert!(
        stderr(&o).contains(&format!(
            "already there with other bytes, kept (move them away to have them written): {}",
            NAMES[0]
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn build_copies_the_directorys_samples_beside_its_output() {
    let tmp = tempfile::tempdir().unwrap();
    let level = level_in(tmp.path());
    let dir = tmp.path().join("dir");
    succeeds(&["import", s(&level), "-o", s(&dir), "-q"]);
    let out = tmp.path().join("built").join("out.wad");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    succeeds(&["build", s(&dir), "-o", s(&out)]);
    holds_the_levels_wavs(&tmp.path().join("built").join("samples"));
}

#[test]
fn convert_writes_the_played_sounds_samples_beside_its_output() {
    let tmp = tempfile::tempdir().unwrap();
    let level = level_in(tmp.path());
    let out = tmp.path().join("converted").join("out.wad2");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    succeeds(&["convert", s(&level), s(&out), "--game", "ten"]);
    holds_the_levels_wavs(&tmp.path().join("converted").join("samples"));
}

#[test]
fn copy_from_a_level_writes_the_carried_sounds_samples_beside_its_output() {
    let tmp = tempfile::tempdir().unwrap();
    let level = level_in(tmp.path());
    let dest = crate::common::files::standard_wad(tmp.path());
    let out = tmp.path().join("copied").join("out.wad");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    // TR4 has no WOLF slot: --as places it; its sound is carried with the level's samples.
    let o = wadforge(&[
        "copy",
        s(&level),
        s(&dest),
        "-o",
        s(&out),
        "--only",
        "WOLF",
        "--as",
        "ANIMATING1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let folder = tmp.path().join("copied").join("samples");
    holds_the_levels_wavs(&folder);
    assert!(
        stderr(&o).contains(&format!("samples: 2 WAVs written to {}", folder.display())),
        "{}",
        stderr(&o)
    );
}
