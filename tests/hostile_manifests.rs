//! Hostile manifest directories given to `build` (docs/hostile-input.md): YAML alias bombs, manifests
//! of a million values or naming one glTF over and over, inputs that are pipes; each refused with
//! a clear message, or built, within the memory and time limits (`crate::common::measure`).

use std::path::Path;

use crate::common::files::{example, example_copy};
use crate::common::measure::{
    assert_in_time, build_with_damaged, measured, memory_limit, refused_within_limits, Run,
};
use crate::common::s;

/// Builds a copy of the bundled example whose text file `file` `edit` changed (asserting it
/// did); the run and the directory's size with the edit.
fn build_with_edited_text(file: &str, edit: impl FnOnce(&str) -> String) -> (Run, u64) {
    let mut grown = 0;
    let (run, size) = build_with_damaged(file, |bytes| {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let edited = edit(&text);
        assert_ne!(edited, text);
        grown = edited.len().saturating_sub(text.len()) as u64;
        *bytes = edited.into_bytes();
    });
    (run, size + grown)
}

#[test]
fn a_yaml_alias_bomb_in_a_manifest_is_refused_within_the_memory_limit() {
    let mut laughs = String::from("  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..9 {
        let below = format!("*l{}", level - 1);
        laughs += &format!("  l{level}: &l{level} [{}]\n", [below.as_str(); 10].join(", "));
    }
    let (run, size) = build_with_edited_text("statics/000_PLANT0.yaml", |text| {
        text.replacen("  id: ", &format!("{laughs}  id: "), 1)
    });
    refused_within_limits(&run, size, "aliases (`*name`) expand this file");
    assert!(run.stderr.contains("000_PLANT0.yaml"), "{}", run.stderr);
}

#[test]
fn aliases_of_a_long_string_in_a_project_are_refused_within_the_memory_limit() {
    // Found by review: a string anchor weighed one value whatever its length, so 30 000 aliases
    // of a 100 kB file name (a 190 kB project) stood for 3 GB of names.
    let long = format!("{}.yaml", "x".repeat(100_000));
    let (run, size) = build_with_edited_text("wadforge.yaml", |text| {
        text.replacen(
            "source: {file: standard.wad",
            &format!("source: {{file: &long {long}"),
            1,
        )
        .replacen(
            "objects: [",
            &format!("objects: [{}, ", ["*long"; 30_000].join(", ")),
            1,
        )
    });
    refused_within_limits(&run, size, "aliases (`*name`) expand this file");
    assert!(run.stderr.contains("wadforge.yaml"), "{}", run.stderr);
}

#[test]
fn a_manifest_of_a_million_short_values_is_refused_within_the_memory_limit() {
    // No alias: the YAML reader holds every value of a document before reading it (40 times the
    // size of `1, 1, …`), so the values are counted first.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dir");
    let size = example_copy(&dir);
    let manifest = dir.join("statics/000_PLANT0.yaml");
    let values = format!("  junk: [{}]\n", ["1"; 1_000_000].join(", "));
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replacen("  id: ", &format!("{values}  id: "), 1)).unwrap();
    let run = measured(&["build", "-q", s(&dir), "-o", s(&tmp.path().join("out.wad"))]);
    refused_within_limits(&run, size + values.len() as u64, "too many to read within memory");
    assert!(run.stderr.contains("000_PLANT0.yaml"), "{}", run.stderr);
}

#[test]
fn the_largest_manifests_import_writes_build_within_the_limits() {
    // The TR4-shaped fixture: a 445-animation Lara, the largest manifest there is.
    let tmp = tempfile::tempdir().unwrap();
    let wad = tmp.path().join("tr4_shaped.wad");
    let bytes = wadforge_format::wad::write(&wadforge_fixtures::tr4_shaped(), None).unwrap();
    std::fs::write(&wad, &bytes).unwrap();
    let dir = tmp.path().join("dir");
    let import = measured(&["import", "-q", s(&wad), "-o", s(&dir)]);
    assert!(import.success, "{}", import.stderr);
    let build = measured(&["build", "-q", s(&dir), "-o", s(&tmp.path().join("out.wad"))]);
    assert!(build.success, "{}", build.stderr);
    for (job, run) in [("import", &import), ("build", &build)] {
        assert!(
            run.peak_bytes < memory_limit(bytes.len() as u64),
            "{job}: peak {} bytes",
            run.peak_bytes
        );
        assert_in_time(job, run.took);
    }
}

#[test]
fn manifests_naming_one_glb_over_and_over_are_refused_before_any_is_read() {
    // 500 manifests of a few hundred bytes naming the moveable's 41 kB GLB: each object would
    // read and build it again (1000 naming a 5 MB GLB, 5 GB).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dir");
    let mut size = example_copy(&dir);
    let manifest = std::fs::read_to_string(dir.join("moveables/306_SWITCH_TYPE1.yaml")).unwrap();
    let mut listed = vec!["moveables/306_SWITCH_TYPE1.yaml".to_string()];
    for copy in 0..500 {
        let name = format!("moveables/copy_{copy}.yaml");
        let text = manifest
            .replacen("  id: 306", &format!("  id: {}", 1000 + copy), 1)
            .replacen("  slot: SWITCH_TYPE1", &format!("  slot: COPY_{copy}"), 1);
        std::fs::write(dir.join(&name), &text).unwrap();
        size += text.len() as u64;
        listed.push(name);
    }
    let project = std::fs::read_to_string(dir.join("wadforge.yaml")).unwrap();
    let project = project.replacen(
        "objects: [moveables/306_SWITCH_TYPE1.yaml,",
        &format!("objects: [{},", listed.join(", ")),
        1,
    );
    std::fs::write(dir.join("wadforge.yaml"), project).unwrap();
    let run = measured(&["build", "-q", s(&dir), "-o", s(&tmp.path().join("out.wad"))]);
    refused_within_limits(&run, size, "manifests name the same glTF file far more often");
    assert!(run.stderr.contains("copy_"), "{}", run.stderr);
}

#[test]
fn animations_asking_for_millions_of_keyframes_are_refused_before_any_is_sampled() {
    // Found by hand: 20 animations of 65535 frames (a manifest line and a shared time accessor
    // each; 63 kB in all) took build 213 MB. Here the switch's 4 animations and 20 more, of
    // 32 767 frames each, the most the engine's signed frame numbers reach.
    let (run, size) = build_with_damaged("moveables/306_SWITCH_TYPE1.yaml", |yaml| {
        let text = String::from_utf8(yaml.clone()).unwrap();
        let mut long = text
            .replace("frames: 11\n", "frames: 32767\n")
            .replace("frames: 1\n", "frames: 32767\n");
        assert_ne!(long, text);
        for n in 0..20 {
            long.push_str(&format!(
                "  - name: {}_more\n    state: {{id: 0}}\n    frame_duration: 1\n    frames: 32767\n    \
                 speed: 0.0\n    acceleration: 0.0\n    next: {{animation: 000_state_0, frame: 0}}\n",
                100 + n
            ));
        }
        *yaml = long.into_bytes();
    });
    refused_within_limits(
        &run,
        size,
        "keyframe bones (a keyframe's header counting one more), more than the",
    );
    assert!(
        run.stderr.contains("306_SWITCH_TYPE1.yaml") && run.stderr.contains("animation"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_bundled_example_builds_within_the_limits() {
    // The measurement is meaningful only if refusals and successes are measured alike.
    let tmp = tempfile::tempdir().unwrap();
    let run = measured(&["build", "-q", s(&example()), "-o", s(&tmp.path().join("out.wad"))]);
    assert!(run.success, "{}", run.stderr);
    let size = example_copy(&tmp.path().join("copy"));
    assert!(
        run.peak_bytes < memory_limit(size),
        "peak {} bytes",
        run.peak_bytes
    );
    assert!(
        run.peak_bytes > 1 << 20,
        "a peak of {} bytes is not a measurement",
        run.peak_bytes
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_named_like_an_input_is_refused_not_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    let pipe = |path: &Path| {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the file.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    };
    let wad = tmp.path().join("x.wad");
    pipe(&wad);
    let run = measured(&["info", s(&wad)]);
    refused_within_limits(&run, 0, "not a regular file");
    let dir = tmp.path().join("dir");
    example_copy(&dir);
    let yaml = dir.join("statics/000_PLANT0.yaml");
    std::fs::remove_file(&yaml).unwrap();
    pipe(&yaml);
    let run = measured(&["build", "-q", s(&dir), "-o", s(&tmp.path().join("out.wad"))]);
    refused_within_limits(&run, 0, "not a regular file");
    assert!(run.stderr.contains("000_PLANT0.yaml"), "{}", run.stderr);
}
