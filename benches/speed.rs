//! Import and build, phase by phase, on one and on two threads:
//! `cargo bench --bench speed` (add `-- --runs N` for another number of runs than 5).
//!
//! Inputs: the real-content WAD (the objects of `../shared/real/LEVEL2_DEMO.PHD`, made by import
//! then build of that level in memory; skipped with a message when the level is absent), the
//! TR4-shaped fixture and the largest fixture. Per input and thread count, the median over the
//! runs of each phase:
//!
//! - import: parse (WAD read), glTF, images, YAML (summed over objects, so on two threads they
//!   add up to more than the wall time), import wall time, write (the files to a temporary
//!   directory), and import → disk: what `wadforge import` does, each object's files written as
//!   it is made (`import_into`);
//! - build: load (manifests), glTF read, image decoding, objects (skeleton, geometry, keyframes;
//!   these three summed over objects), textures, assembly, build wall time, write (WAD to file).
//!
//! The thread count is rayon's, set by `RAYON_NUM_THREADS`: the benchmark runs itself again with
//! 1 and 2.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use wadforge_format::catalog::Game;
use wadforge_format::{wad, Wad};
use wadforge_importer::ImportOptions;

const REAL_LEVEL: &str = "../shared/real/LEVEL2_DEMO.PHD";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5usize);
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        // Once per thread count, each in a process of its own (rayon's pool is set once).
        let exe = std::env::current_exe().expect("the benchmark knows its own path");
        for threads in [1, 2] {
            let status = Command::new(&exe)
                .args(&args[1..])
                .env("RAYON_NUM_THREADS", threads.to_string())
                .status()
                .expect("the benchmark runs itself");
            assert!(status.success(), "the {threads}-thread run failed");
        }
        return;
    }
    let threads = rayon::current_num_threads();
    println!("\n## {threads} thread(s), median of {runs} runs, milliseconds\n");
    let mut inputs: Vec<(&str, Vec<u8>)> = Vec::new();
    match real_content_wad() {
        Some(bytes) => inputs.push(("real-content WAD (LEVEL2_DEMO objects)", bytes)),
        None => println!("{REAL_LEVEL} is absent: skipping the real-content WAD"),
    }
    inputs.push(("tr4_shaped fixture", written(&wadforge_fixtures::tr4_shaped())));
    inputs.push(("largest fixture", written(&wadforge_fixtures::largest())));
    println!(
        "| input | WAD MB | parse | glTF | images | YAML | import | write | import → disk | out MB | load | glTF read | decode | objects | textures | assembly | build | write |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, bytes) in &inputs {
        let samples: Vec<Sample> = (0..runs).map(|_| measure(bytes)).collect();
        let median = |f: &dyn Fn(&Sample) -> Duration| {
            let mut v: Vec<Duration> = samples.iter().map(f).collect();
            v.sort();
            format!("{:.1}", v[v.len() / 2].as_secs_f64() * 1e3)
        };
        let s = &samples[0];
        println!(
            "| {name} | {:.2} | {} | {} | {} | {} | **{}** | {} | **{}** | {:.1} | {} | {} | {} | {} | {} | {} | **{}** | {} |",
            bytes.len() as f64 / 1e6,
            median(&|s| s.parse),
            median(&|s| s.import.gltf),
            median(&|s| s.import.images),
            median(&|s| s.import.yaml),
            median(&|s| s.import_wall),
            median(&|s| s.import_write),
            median(&|s| s.import_to_disk),
            s.output_bytes as f64 / 1e6,
            median(&|s| s.load),
            median(&|s| s.build.gltf),
            median(&|s| s.build.images),
            median(&|s| s.build.objects),
            median(&|s| s.build.textures),
            median(&|s| s.build.assembly),
            median(&|s| s.build_wall),
            median(&|s| s.build_write),
        );
    }
}

fn written(model: &Wad) -> Vec<u8> {
    wad::write(model, None).expect("fixtures write")
}

/// The objects of the real level as a WAD: the level imported and built in memory.
fn real_content_wad() -> Option<Vec<u8>> {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(REAL_LEVEL)).ok()?;
    let level = wadforge_format::open(&bytes).expect("the real level reads");
    let mut options = ImportOptions::wad("LEVEL2_DEMO.PHD", level.version);
    options.game = level.game;
    options.skewed = level.skewed;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = wadforge_importer::import(&level.model, &options, &mut |_, _, _| {}).expect("import");
    wadforge_files::write_directory(&files, dir.path()).expect("write");
    let manifests = wadforge_manifests::load(dir.path()).expect("load");
    let built = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).expect("build");
    Some(written(&built.wad))
}

struct Sample {
    parse: Duration,
    import: wadforge_importer::ImportPhases,
    import_wall: Duration,
    import_write: Duration,
    import_to_disk: Duration,
    output_bytes: usize,
    load: Duration,
    build: wadforge_exporter::BuildPhases,
    build_wall: Duration,
    build_write: Duration,
}

fn measure(bytes: &[u8]) -> Sample {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let t = Instant::now();
    let (model, _) = wad::read(bytes).expect("the WAD reads");
    let parse = t.elapsed();
    let mut options = ImportOptions::wad("input.wad", model.version);
    options.game = Game::Tr4;
    let t = Instant::now();
    let (files, import) =
        wadforge_importer::import_with_phases(&model, &options, &mut |_, _, _| {}).expect("import");
    let import_wall = t.elapsed();
    let output_bytes = files.iter().map(|f| f.bytes.len()).sum();
    let t = Instant::now();
    wadforge_files::write_directory(&files, dir.path()).expect("write");
    let import_write = t.elapsed();
    drop(files);
    let streamed = tempfile::tempdir().expect("a temporary directory");
    let t = Instant::now();
    wadforge_importer::import_into(&model, &options, streamed.path(), &mut |_, _, _| {}).expect("import");
    let import_to_disk = t.elapsed();

    let t = Instant::now();
    let manifests = wadforge_manifests::load(dir.path()).expect("load");
    let load = t.elapsed();
    let t = Instant::now();
    let built = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).expect("build");
    let build_wall = t.elapsed();
    let t = Instant::now();
    let out = wad::write(&built.wad, None).expect("the built WAD writes");
    std::fs::write(dir.path().join("built.wad"), out).expect("write the WAD");
    let build_write = t.elapsed();
    Sample {
        parse,
        import,
        import_wall,
        import_write,
        import_to_disk,
        output_bytes,
        load,
        build: built.phases,
        build_wall,
        build_write,
    }
}
