//! Lossless round trip: every fixture, imported then built, has the same content, compared as
//! `wadforge diff` compares (every vertex, polygon, texel, normal, shade and angle exact).

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
