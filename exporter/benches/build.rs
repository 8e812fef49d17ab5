//! Build time on the largest fixture: load the manifest directory, read every glTF, rebuild the
//! model (geometry, textures, keyframes) and write the WAD.
//! `cargo bench -p wadforge-exporter --bench build`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::catalog::Game;
use wadforge_format::wad;
use wadforge_importer::{GltfFormat, ImportOptions, DEFAULT_TR_UNITS_PER_METRE};

fn build(c: &mut Criterion) {
    let model = wadforge_fixtures::largest();
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions {
        game: Game::Tr4,
        tr_units_per_metre: DEFAULT_TR_UNITS_PER_METRE,
        format: GltfFormat::Glb,
        only: None,
        source: wadforge_manifests::Source {
            file: "largest.wad".into(),
            format: "wad".into(),
            version: 129,
        },
    };
    let mut input_bytes = 0u64;
    for file in wadforge_importer::import(&model, &options, &mut |_, _, _| {}).unwrap() {
        let path = dir.path().join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        input_bytes += file.bytes.len() as u64;
        std::fs::write(path, file.bytes).unwrap();
    }
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    // Throughput in bytes of the manifest directory read.
    group.throughput(Throughput::Bytes(input_bytes));
    group.bench_function("largest fixture, load + build + write", |b| {
        b.iter(|| {
            let manifests = wadforge_manifests::load(dir.path()).unwrap();
            let built = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap();
            wad::write(&built.wad, None).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
