//! Lossless round trip: every fixture, imported then built, has the same content, compared as
//! `wadforge diff` compares (every vertex, polygon, texel, normal, shade and angle exact).

use wadforge_fixtures::sharing::shared_keyframes;
use wadforge_format::Wad;
use wadforge_importer::{GltfFormat, ImportOptions};

fn import(model: &Wad, format: GltfFormat) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::wad("fixture.wad", 129);
    options.format = format;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_importer::write_directory(&files, dir.path()).unwrap();
    dir
}

/// Every difference `wadforge diff` finds, one line each.
fn differences(expected: &Wad, actual: &Wad) -> Vec<String> {
    let report = wadforge_diff::diff(expected, actual, &wadforge_diff::Options::default());
    report
        .objects
        .iter()
        .flat_map(|o| {
            o.differences.iter().map(move |d| {
                format!(
                    "{:?} {}: {}: {:?} {} vs {}",
                    o.kind, o.id, d.place, d.what, d.a, d.b
                )
            })
        })
        .collect()
}

fn rebuild(model: &Wad, format: GltfFormat) -> wadforge_exporter::BuildOutput {
    let dir = import(model, format);
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_fixture_survives_import_then_build() {
    for (name, model) in wadforge_fixtures::all() {
        let built = rebuild(&model, GltfFormat::Glb);
        let d = differences(&model, &built.wad);
        assert!(
            d.is_empty(),
            "{name}: {} differences, first: {:#?}",
            d.len(),
            &d[..d.len().min(12)]
        );
        // And the result is a WAD that reads back to the same model.
        let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
        let (back, _) = wadforge_format::wad::read(&bytes).unwrap();
        assert!(differences(&model, &back).is_empty(), "{name}: after writing");
        eprintln!("{name}: same content; notes: {:?}", built.notes);
    }
}

#[test]
fn the_tr4_shaped_fixture_survives_import_then_build() {
    let model = wadforge_fixtures::tr4_shaped();
    assert_eq!(
        (
            model.moveables.len(),
            model.pages.len(),
            model.moveables[0].animations.len()
        ),
        (109, 11, 445)
    );
    let built = rebuild(&model, GltfFormat::Glb);
    let d = differences(&model, &built.wad);
    assert!(
        d.is_empty(),
        "{} differences, first: {:#?}",
        d.len(),
        &d[..d.len().min(12)]
    );
}

#[test]
fn every_quirky_file_survives_import_then_build() {
    // Real files' quirks include keyframe boxes that the pose rule does not reproduce: unedited
    // animations keep them all the same.
    for (name, bytes) in wadforge_fixtures::quirky_files() {
        let (model, _) = wadforge_format::wad::read(&bytes).unwrap();
        let built = rebuild(&model, GltfFormat::Glb);
        let d = differences(&model, &built.wad);
        assert!(
            d.is_empty(),
            "{name}: {} differences, first: {:#?}",
            d.len(),
            &d[..d.len().min(8)]
        );
    }
}

#[test]
fn separate_gltf_files_build_the_same() {
    let model = wadforge_fixtures::standard();
    let built = rebuild(&model, GltfFormat::Separate);
    let d = differences(&model, &built.wad);
    assert!(d.is_empty(), "{:#?}", &d[..d.len().min(12)]);
}

#[test]
fn an_unedited_import_builds_back_the_shared_keyframe_data() {
    let model = wadforge_fixtures::standard();
    let original = wadforge_format::wad::write(&model, None).unwrap();
    let (read, _) = wadforge_format::wad::read(&original).unwrap();
    let built = rebuild(&read, GltfFormat::Glb);
    let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
    let before = shared_keyframes(&original).unwrap();
    assert!(before.len() >= 4, "the fixture shares keyframe data: {before:?}");
    assert!(
        before.iter().any(|s| s.size != s.other_size),
        "the fixture shares keyframe data with another keyframe size: {before:?}"
    );
    // The same animations on the same data; offsets themselves move when keyframes elsewhere
    // are stored in other angle encodings, as build may choose.
    assert_eq!(shared_keyframes(&bytes).unwrap(), before);
    let keyframe_bytes = |b: &[u8]| wadforge_format::wad::read(b).unwrap().1.keyframes.len;
    assert!(keyframe_bytes(&bytes) <= keyframe_bytes(&original));
}

#[test]
fn an_action_its_frame_range_does_not_play_is_refused() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model, GltfFormat::Glb);
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    let (name, keyframes) = manifests
        .objects
        .iter_mut()
        .find_map(|o| match &mut o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 51 => {
                // One keyframe fewer in the range than in the action.
                let a = &mut m.animations[1];
                let keyframes = a.kept_exactly.keyframe_boxes.len();
                a.frames = (keyframes as u16 - 2) * a.frame_duration as u16 + 1;
                Some((a.name.clone(), keyframes))
            }
            _ => None,
        })
        .unwrap();
    let e = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .err()
        .expect("the build is refused")
        .to_string();
    assert!(e.contains(&format!("animation {name}")), "{e}");
    assert!(
        e.contains(&format!("has {keyframes} keyframes")) && e.contains(&format!("plays {}", keyframes - 1)),
        "{e}"
    );
}

#[test]
fn a_same_as_that_names_nothing_says_what_to_do() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model, GltfFormat::Glb);
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    let plant = manifests
        .objects
        .iter_mut()
        .find_map(|o| match &mut o.manifest {
            wadforge_manifests::ObjectManifest::Static(s) if s.id == 0 => Some(s),
            _ => None,
        })
        .unwrap();
    plant.mesh.same_as = Some(wadforge_manifests::MeshRef::Static { id: 9999 });
    let e = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .err()
        .expect("the build is refused")
        .to_string();
    assert!(
        e.contains("PLANT0 (static 0)")
            && e.contains(
                "neither in this directory nor in the base WAD; import that object too or build with --base"
            ),
        "{e}"
    );
}
