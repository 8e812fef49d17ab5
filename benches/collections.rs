//! The speed targets of issue 31 (collections), timed on whole processes of the release
//! `wadforge` program: `cargo bench --bench collections` (add `-- --runs N` for another number of
//! runs than 3; each time is the median over the runs, every run writing a fresh output; `--
//! --part gallery|index|per-file` for one part).
//!
//! - Gallery over a folder: 100 object files of the generated collection
//!   ([`wadforge_fixtures::collection`]: classic WADs and Wad2 of 0.1–3 MB, in subfolders) in a
//!   temporary folder, `wadforge gallery FOLDER -o OUT -q` with `RAYON_NUM_THREADS=1` then `2`;
//!   target: two threads at least 1.7× as fast as one.
//! - Index size: the gallery over the collection's first 25, 50 and 100 files, the bytes of
//!   `OUT/index.html` in total and per file. The page grows linearly when each file adds as many
//!   bytes from 50 to 100 files as from 25 to 50 (the ratio of those increments per file within
//!   0.8–1.25); the ratio of bytes per file at 100 and at 25 is printed too (a fixed part of the
//!   page makes it a little under 1).
//! - Per file against wadblender: wadblender's WAD reader (`../shared/peers/wadblender/`, run as
//!   [`wadforge_fixtures::wadblender::open`] does: python3, whole process), `wadforge import WAD -o
//!   DIR -q`, `wadforge build DIR -o OUT.wad -q` (DIR from an import made before) and `wadforge
//!   info WAD` (its output to /dev/null), on the objects of the real level
//!   (`../shared/real/LEVEL2_DEMO.PHD`, made a WAD by `wadforge import` then `wadforge build`;
//!   skipped with a message when the level is absent) and on the TR4-shaped fixture written as a
//!   WAD. Targets: import ≤ 0.1× wadblender, build ≤ 0.15× wadblender, info ≤ 10 ms. These run on
//!   rayon's default thread count (every core). wadblender's column is skipped with a message
//!   when python3 or the reader is not here.
//!
//! Every result is printed as a markdown table with MET or MISSED beside its target; a missed
//! target does not fail the benchmark. A command that fails is reported with its error output and
//! the benchmark goes on with the next part.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use wadforge_fixtures::{collection, wadblender};

const WADFORGE: &str = env!("CARGO_BIN_EXE_wadforge");
const REAL_LEVEL: &str = "../shared/real/LEVEL2_DEMO.PHD";
/// Files in the folder the gallery's speed-up is measured on.
const FILES: usize = 100;
const SPEED_UP_TARGET: f64 = 1.7;
const IMPORT_TARGET: f64 = 0.1;
const BUILD_TARGET: f64 = 0.15;
const INFO_TARGET_MS: f64 = 10.0;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    let work = tempfile::tempdir().expect("a temporary directory");
    let t = Instant::now();
    let files = collection::files(FILES);
    let total: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let wad2 = files.iter().filter(|(path, _)| path.ends_with(".wad2")).count();
    println!(
        "\n# Collections (issue 31): median of {runs} run(s), whole processes of {WADFORGE}\n\n\
         The collection: {FILES} files ({wad2} Wad2, {} WADs), {:.1} MB, made in {:.1} s.",
        FILES - wad2,
        total as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let mut folders = Vec::new();
    for count in [25, 50, FILES] {
        let folder = work.path().join(format!("collection_{count}"));
        collection::write_files(&folder, &files[..count]).expect("the collection writes");
        folders.push((count, folder));
    }
    drop(files);
    // `-- --part gallery|index|per-file` runs that part only.
    let part = args
        .iter()
        .position(|a| a == "--part")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let wanted = |name: &str| part.is_none_or(|p| p == name);
    if wanted("gallery") {
        gallery_speed_up(work.path(), &folders[2].1, runs);
    }
    if wanted("index") {
        index_size(work.path(), &folders);
    }
    if wanted("per-file") {
        per_file(work.path(), runs);
    }
}

/// A fresh output path under `work` (never used before in this process).
fn fresh(work: &Path, name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    work.join(format!("out-{}-{name}", N.fetch_add(1, Ordering::Relaxed)))
}

/// Removes what a run wrote (a directory, or a file and the `.was` beside it).
fn remove(path: &Path) {
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(path.with_extension("was"));
    }
}

/// The wall time of one run of `command`, or its failure: the command line and its error output.
fn run_once(mut command: Command) -> Result<Duration, String> {
    command.stdout(Stdio::null()).stderr(Stdio::piped());
    let t = Instant::now();
    let output = command.output();
    let elapsed = t.elapsed();
    let shown = format!("{command:?}");
    match output {
        Ok(o) if o.status.success() => Ok(elapsed),
        Ok(o) => Err(format!(
            "`{shown}` failed ({}):\n{}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim_end()
        )),
        Err(e) => Err(format!("`{shown}` could not be run: {e}")),
    }
}

/// The median over `runs` runs of the command `make` gives for a fresh output path (removed
/// after each run, outside the timing), or the first failure.
fn median_of(
    runs: usize,
    work: &Path,
    name: &str,
    make: &dyn Fn(&Path) -> Command,
) -> Result<Duration, String> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let out = fresh(work, name);
        let time = run_once(make(&out));
        remove(&out);
        times.push(time?);
    }
    Ok(median(times))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn verdict(met: bool) -> &'static str {
    if met {
        "MET"
    } else {
        "MISSED"
    }
}

fn wadforge(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Command {
    let mut command = Command::new(WADFORGE);
    command.args(args.iter().map(|a| a.as_ref()));
    command
}

fn gallery(folder: &Path, out: &Path) -> Command {
    wadforge(&[&"gallery", &folder, &"-o", &out, &"-q"])
}

/// `wadforge gallery FOLDER` on one thread and on two.
fn gallery_speed_up(work: &Path, folder: &Path, runs: usize) {
    println!("\n## Gallery over a folder of {FILES} files\n");
    let mut times = Vec::new();
    for threads in [1, 2] {
        let time = median_of(runs, work, "gallery", &|out| {
            let mut command = gallery(folder, out);
            command.env("RAYON_NUM_THREADS", threads.to_string());
            command
        });
        match time {
            Ok(time) => times.push(time),
            Err(e) => {
                println!("The gallery could not be timed on {threads} thread(s):\n\n```\n{e}\n```");
                return;
            }
        }
    }
    let speed_up = times[0].as_secs_f64() / times[1].as_secs_f64();
    println!("| 1 thread ms | 2 threads ms | speed-up | target ≥ {SPEED_UP_TARGET}× |");
    println!("|---|---|---|---|");
    println!(
        "| {:.0} | {:.0} | {speed_up:.2}× | {} |",
        ms(times[0]),
        ms(times[1]),
        verdict(speed_up >= SPEED_UP_TARGET)
    );
}

/// The size of the gallery's index page over the first 25, 50 and 100 files.
fn index_size(work: &Path, folders: &[(usize, PathBuf)]) {
    println!("\n## Index page size\n");
    let mut sizes = Vec::new();
    for (count, folder) in folders {
        let out = fresh(work, "index");
        let ran = run_once(gallery(folder, &out));
        let index = std::fs::metadata(out.join("index.html")).map(|m| m.len());
        remove(&out);
        match (ran, index) {
            (Ok(_), Ok(bytes)) => sizes.push((*count, bytes as f64)),
            (Err(e), _) => return println!("The gallery over {count} files failed:\n\n```\n{e}\n```"),
            (Ok(_), Err(e)) => return println!("The gallery over {count} files wrote no index.html: {e}"),
        }
    }
    println!("| files | index.html bytes | bytes per file |");
    println!("|---|---|---|");
    for (count, bytes) in &sizes {
        println!("| {count} | {bytes:.0} | {:.0} |", bytes / *count as f64);
    }
    let [(n1, b1), (n2, b2), (n3, b3)] = sizes[..] else {
        unreachable!("three collections")
    };
    let per_file = |n: usize, b: f64| b / n as f64;
    let ratio = per_file(n3, b3) / per_file(n1, b1);
    let increments = ((b3 - b2) / (n3 - n2) as f64) / ((b2 - b1) / (n2 - n1) as f64);
    println!(
        "\nBytes per file at {n3} ÷ at {n1}: {ratio:.3} (linear ≈ 1). Bytes each file adds from {n2} to \
         {n3} ÷ from {n1} to {n2}: {increments:.3}, linear (0.8–1.25): {}.",
        verdict((0.8..=1.25).contains(&increments))
    );
}

/// A WAD to compare on: a name, its path and its size.
struct Input {
    name: &'static str,
    wad: PathBuf,
    bytes: u64,
}

/// The inputs of the per-file comparison: the real level's objects as a WAD (when the level is
/// here) and the TR4-shaped fixture.
fn inputs(work: &Path) -> Vec<Input> {
    let mut inputs = Vec::new();
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join(REAL_LEVEL);
    if level.is_file() {
        let dir = work.join("level_objects");
        let wad = work.join("level.wad");
        let made = run_once(wadforge(&[&"import", &level, &"-o", &dir, &"-q"]))
            .and_then(|_| run_once(wadforge(&[&"build", &dir, &"-o", &wad, &"-q"])));
        match made {
            Ok(_) => inputs.push(Input {
                name: "real level's objects (LEVEL2_DEMO)",
                bytes: std::fs::metadata(&wad).map_or(0, |m| m.len()),
                wad,
            }),
            Err(e) => println!("The real level's WAD could not be made:\n\n```\n{e}\n```\n"),
        }
    } else {
        println!("{} is absent: skipping the real level.\n", level.display());
    }
    let wad = work.join("tr4_shaped.wad");
    let bytes =
        wadforge_format::wad::write(&wadforge_fixtures::tr4_shaped(), None).expect("the fixture writes");
    std::fs::write(&wad, &bytes).expect("the fixture is written");
    inputs.push(Input {
        name: "tr4_shaped fixture",
        bytes: bytes.len() as u64,
        wad,
    });
    inputs
}

/// wadblender's reader on `wad`, median of `runs` whole processes; `None` (after saying why)
/// when it cannot run or fails.
fn wadblender_time(wad: &Path, runs: usize) -> Option<Duration> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let read = wadblender::open(wad);
        let elapsed = t.elapsed();
        match read {
            Ok(Ok(_)) => times.push(elapsed),
            Ok(Err(e)) => {
                println!("wadblender failed: {e}");
                return None;
            }
            Err(wadblender::Skipped(why)) => {
                println!("Skipping wadblender's reader: {why}");
                return None;
            }
        }
    }
    Some(median(times))
}

/// import, build and info on each input against wadblender's reader.
fn per_file(work: &Path, runs: usize) {
    println!("\n## Per file against wadblender's reader\n");
    let rows: Vec<String> = inputs(work)
        .iter()
        .map(|input| per_file_row(work, input, runs))
        .collect();
    println!(
        "\n| input | MB | wadblender ms | import ms | import ÷ wadblender (≤ {IMPORT_TARGET}×) | build ms | \
         build ÷ wadblender (≤ {BUILD_TARGET}×) | info ms (≤ {INFO_TARGET_MS} ms) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}

/// One row of the per-file table (failures printed before the table, their cells "failed").
fn per_file_row(work: &Path, input: &Input, runs: usize) -> String {
    let wad = &input.wad;
    let reference = wadblender_time(wad, runs);
    let time = |what: &str, make: &dyn Fn(&Path) -> Command| {
        median_of(runs, work, what, make)
            .map_err(|e| println!("{}: {what} failed:\n\n```\n{e}\n```\n", input.name))
            .ok()
    };
    let import = time("import", &|out| wadforge(&[&"import", wad, &"-o", &out, &"-q"]));
    let imported = fresh(work, "imported");
    let build = run_once(wadforge(&[&"import", wad, &"-o", &imported, &"-q"]))
        .map_err(|e| println!("{}: import failed:\n\n```\n{e}\n```\n", input.name))
        .ok()
        .and_then(|_| {
            time("build.wad", &|out| {
                wadforge(&[&"build", &imported, &"-o", &out, &"-q"])
            })
        });
    remove(&imported);
    let info = time("info", &|_| wadforge(&[&"info", wad]));
    let against = |t: Option<Duration>, target: f64| match (t, reference) {
        (Some(t), Some(r)) => {
            let ratio = t.as_secs_f64() / r.as_secs_f64();
            format!("{ratio:.3}× {}", verdict(ratio <= target))
        }
        _ => "–".to_string(),
    };
    let cell = |t: Option<Duration>| t.map_or("failed".to_string(), |t| format!("{:.1}", ms(t)));
    format!(
        "| {} | {:.2} | {} | {} | {} | {} | {} | {} |",
        input.name,
        input.bytes as f64 / 1e6,
        reference.map_or("–".to_string(), |r| format!("{:.0}", ms(r))),
        cell(import),
        against(import, IMPORT_TARGET),
        cell(build),
        against(build, BUILD_TARGET),
        info.map_or("failed".to_string(), |t| format!(
            "{:.1} {}",
            ms(t),
            verdict(ms(t) <= INFO_TARGET_MS)
        )),
    )
}
