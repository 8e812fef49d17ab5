//! Read and write throughput of the WAD codec on the largest fixture, and of the Wad2 codec on
//! the same objects written as a Wad2 (its pages as textures, floats: about twice the bytes).
//! `cargo bench -p wadforge-format --bench wad_codec`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::catalog::Game;
use wadforge_format::{wad, wad2, SkewedCorners};

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

/// The same objects as a Wad2: reading its document, its objects into the model (what every
/// command does), and writing it from the model. Throughput in the Wad2's bytes.
fn wad2_codec(c: &mut Criterion) {
    let model = wadforge_fixtures::largest();
    let made = wad2::from_model(&model, &SkewedCorners::new(), Game::Tr4).expect("the largest fixture maps");
    let bytes = wad2::write_document(&made.document);
    let mut group = c.benchmark_group("wad2");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read document", |b| {
        b.iter(|| wad2::read_document(std::hint::black_box(&bytes)).unwrap())
    });
    group.bench_function("read objects (document + model)", |b| {
        b.iter(|| wad2::to_model(&wad2::read_document(std::hint::black_box(&bytes)).unwrap()).unwrap())
    });
    group.bench_function("write from the model", |b| {
        b.iter(|| {
            let made =
                wad2::from_model(std::hint::black_box(&model), &SkewedCorners::new(), Game::Tr4).unwrap();
            wad2::write_document(&made.document)
        })
    });
    group.finish();
}

criterion_group!(benches, codec, wad2_codec);
criterion_main!(benches);
