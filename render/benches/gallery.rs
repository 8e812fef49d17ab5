//! Gallery time: read the file, draw every picture and animation, write the page (in memory).
//! `cargo bench -p wadforge-render --bench gallery`
//!
//! - the real TR1 demo level `../shared/real/LEVEL2_DEMO.PHD` (skipped when absent); target ≤ 2 s;
//! - the TR4-shaped fixture WAD (2.9 MB: 109 moveables with a 445-animation Lara, 11 pages);
//!   target ≤ 6 s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wadforge_format::catalog::Game;
use wadforge_format::{level, wad};
use wadforge_importer::SkewedCorners;
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
            let level = level::read(std::hint::black_box(&bytes)).unwrap();
            let skewed: SkewedCorners = level
                .approximate
                .iter()
                .map(|a| ((a.mesh, a.polygon), a.corners))
                .collect();
            let source = Source {
                wad: &level.wad,
                game: level.game,
                skewed: &skewed,
                file_name: "LEVEL2_DEMO.PHD",
                description: "TR1 level",
            };
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
            let (model, _) = wad::read(std::hint::black_box(&bytes)).unwrap();
            let skewed = SkewedCorners::new();
            let source = Source {
                wad: &model,
                game: Game::Tr4,
                skewed: &skewed,
                file_name: "tr4_shaped.wad",
                description: "TRLE WAD",
            };
            gallery(&source, &Options::default())
        })
    });
    group.finish();
}

criterion_group!(benches, real_level, tr4_shaped_fixture);
criterion_main!(benches);
