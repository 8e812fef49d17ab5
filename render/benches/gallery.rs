//! Gallery time: read the file, draw every picture and animation, write the page (in memory).
//! `cargo bench -p wadforge-render --bench gallery`
//!
//! - the real TR1 demo level `../shared/real/LEVEL2_DEMO.PHD` (skipped when absent); target ≤ 2 s;
//! - the TR4-shaped fixture WAD (2.9 MB: 109 moveables with a 445-animation Lara, 11 pages);
//!   target ≤ 6 s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::{wad, Opened};
use wadforge_render::gallery::{gallery, Options, Source};

fn real_level(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real/LEVEL2_DEMO.PHD");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let mut group = c.benchmark_group("gallery");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("LEVEL2_DEMO.PHD, read + gallery", |b| {
        b.iter(|| {
            let opened = wadforge_format::open(std::hint::black_box(&bytes)).unwrap();
            let source = source(&opened, "LEVEL2_DEMO.PHD");
            gallery(&source, &Options::default())
        })
    });
    group.finish();
}

fn tr4_shaped_fixture(c: &mut Criterion) {
    let bytes = wad::write(&wadforge_fixtures::tr4_shaped(), None).expect("the TR4-shaped fixture writes");
    let mut group = c.benchmark_group("gallery");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("TR4-shaped fixture WAD, read + gallery", |b| {
        b.iter(|| {
            let opened = wadforge_format::open(std::hint::black_box(&bytes)).unwrap();
            let source = source(&opened, "tr4_shaped.wad");
            gallery(&source, &Options::default())
        })
    });
    group.finish();
}

/// What the gallery shows of `opened`, read from `file_name`.
fn source<'a>(opened: &'a Opened, file_name: &'a str) -> Source<'a> {
    Source {
        wad: &opened.model,
        game: opened.game,
        skewed: &opened.skewed,
        file_name,
        description: opened.description(),
    }
}

criterion_group!(benches, real_level, tr4_shaped_fixture);
criterion_main!(benches);
