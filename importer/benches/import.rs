//! Import time on the largest fixture: the whole model → glTF + manifests in memory.
//! `cargo bench -p wadforge-importer --bench import`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::catalog::Game;
use wadforge_format::{wad, wad2, SkewedCorners};
use wadforge_importer::ImportOptions;

fn import(c: &mut Criterion) {
    let model = wadforge_fixtures::largest();
    let bytes = wad::write(&model, None).expect("the largest fixture writes");
    let options = ImportOptions::wad("largest.wad", 129);
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    // Throughput in bytes of the WAD read, so MB/s compares with the codec's.
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("largest fixture, read + import", |b| {
        b.iter(|| {
            let (model, _) = wad::read(std::hint::black_box(&bytes)).unwrap();
            wadforge_importer::import(&model, &options, &mut |_, _, _| {}).unwrap()
        })
    });
    // The same objects as a Wad2: read (document, then objects) + import.
    let made = wad2::from_model(&model, &SkewedCorners::new(), Game::Tr4).expect("the largest fixture maps");
    let wad2_bytes = wad2::write_document(&made.document);
    group.throughput(Throughput::Bytes(wad2_bytes.len() as u64));
    group.bench_function("largest fixture as Wad2, read + import", |b| {
        b.iter(|| {
            let document = wad2::read_document(std::hint::black_box(&wad2_bytes)).unwrap();
            let objects = wad2::to_model(&document).unwrap();
            wadforge_importer::import(&objects.model, &options, &mut |_, _, _| {}).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, import);
criterion_main!(benches);
