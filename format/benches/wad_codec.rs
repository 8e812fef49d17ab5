//! Read and write throughput of the WAD codec on the largest fixture.
//! `cargo bench -p wadforge-format --bench wad_codec`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::wad;

fn codec(c: &mut Criterion) {
    let model = wadforge_fixtures::largest();
    let bytes = wad::write(&model, None).expect("the largest fixture writes");
    let (read_model, layout) = wad::read(&bytes).expect("the largest fixture reads");
    let mut group = c.benchmark_group("wad");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read", |b| {
        b.iter(|| wad::read(std::hint::black_box(&bytes)).unwrap())
    });
    group.bench_function("write with layout", |b| {
        b.iter(|| wad::write(std::hint::black_box(&read_model), Some(&layout)).unwrap())
    });
    group.bench_function("write canonical", |b| {
        b.iter(|| wad::write(std::hint::black_box(&model), None).unwrap())
    });
    group.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
