//! Build time on the largest fixture: load the manifest directory, read every glTF, rebuild the
//! model (geometry, textures, keyframes) and write the WAD.
//! `cargo bench -p wadforge-exporter --bench build`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::wad;
use wadforge_importer::ImportOptions;

fn build(c: &mut Criterion) {
    let model = wadforge_fixtures::largest();
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions::wad("largest.wad", 129);
    let files = wadforge_importer::import(&model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    let input_bytes: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
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
