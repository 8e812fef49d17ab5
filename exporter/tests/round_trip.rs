//! Lossless round trip: every fixture, imported then built, has the same content.

use wadforge_fixtures::compare::{differences, Tolerance};
use wadforge_format::catalog::Game;
use wadforge_format::Wad;
use wadforge_importer::{GltfFormat, ImportOptions, DEFAULT_TR_UNITS_PER_METRE};

fn import(model: &Wad, format: GltfFormat) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions {
        game: Game::Tr4,
        tr_units_per_metre: DEFAULT_TR_UNITS_PER_METRE,
        format,
        only: None,
        source: wadforge_manifests::Source {
            file: "fixture.wad".into(),
            format: "wad".into(),
            version: 129,
        },
    };
    for file in wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap() {
        let path = dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, file.bytes).unwrap();
    }
    dir
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
        let d = differences(&model, &built.wad, Tolerance { normal: 1, angle: 0 });
        assert!(
            d.is_empty(),
            "{name}: {} differences, first: {:#?}",
            d.len(),
            &d[..d.len().min(12)]
        );
        // And the result is a WAD that reads back to the same model.
        let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
        let (back, _) = wadforge_format::wad::read(&bytes).unwrap();
        assert!(
            differences(&model, &back, Tolerance { normal: 1, angle: 0 }).is_empty(),
            "{name}: after writing"
        );
        eprintln!("{name}: same content; notes: {:?}", built.notes);
    }
}

#[test]
fn separate_gltf_files_build_the_same() {
    let model = wadforge_fixtures::standard();
    let built = rebuild(&model, GltfFormat::Separate);
    let d = differences(&model, &built.wad, Tolerance { normal: 1, angle: 0 });
    assert!(d.is_empty(), "{:#?}", &d[..d.len().min(12)]);
}
