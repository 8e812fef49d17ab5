//! Replays the fuzz corpora through the `wadforge` program itself: every input of a target, made
//! into the file or directory it stands for, goes through every command that reads that kind of
//! input, and each run is measured alone (its own rusage, from wait4). The fuzz targets reach the
//! readers and the importer in-process; this reaches what only the program does (gallery, check
//! and --fix, copy from and into, remove, diff, build --base, import of levels, a build of what
//! was imported, the sound files beside a WAD or Wad2 read by each of those and by `convert`)
//! and holds every run to the promise: no crash or panic, a refusal says why, peak
//! memory under what `Limits::memory` allows for the input's size, under 5 s.
//!
//! `replay WADFORGE ROOT [TARGET...]`: ROOT holds `corpus/<target>/` and `seeds/<target>/`
//! (`target/fuzz`); every target by default. Exit code 1 when a run broke the promise. With
//! `REPLAY_VERBOSE` set, every run is printed: its ending, time, peak and first line of stderr.
// Linked for the coverage callbacks the instrumented libraries call (this binary only replays).
use libfuzzer_sys as _;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wadforge_format::{level, wad};
use wadforge_fuzz::{
    copy_example_moveable, manifest_files, scratch, sound_files, standard_one_page, texture_directory,
    tr4_file, with_version, MANIFEST_FILES, TARGETS,
};

/// One input may take this long before it is called a hang and killed.
const KILL_AFTER: Duration = Duration::from_secs(60);
const TIME_LIMIT: Duration = Duration::from_secs(5);

fn memory_limit(input_bytes: u64) -> u64 {
    wadforge_format::Limits::DEFAULT.memory.allowed(input_bytes)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: replay WADFORGE ROOT [TARGET...]";
    let wadforge = std::fs::canonicalize(args.next().expect(usage)).expect("the wadforge program");
    let root_named = PathBuf::from(args.next().expect(usage));
    let root = std::fs::canonicalize(&root_named).expect("the fuzz directory");
    let mut targets: Vec<String> = args.collect();
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    let work = scratch("replay");
    // Every run works in the scratch directory, so the commands reported are short.
    std::env::set_current_dir(&work).unwrap();
    let mut broken = 0;
    for target in &targets {
        let mut replay = Replay::new(&wadforge, target);
        for dir in ["seeds", "corpus"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
                continue;
            };
            let mut inputs: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
            inputs.sort();
            for input in inputs {
                let name = root_named.join(dir).join(target).join(&input);
                replay.input(
                    &root.join(dir).join(target).join(input),
                    &name.display().to_string(),
                );
            }
        }
        replay.report();
        broken += replay.broken.len();
    }
    let _ = std::fs::remove_dir_all(&work);
    std::process::exit(i32::from(broken > 0));
}

static DESTINATION: std::sync::OnceLock<(String, String)> = std::sync::OnceLock::new();

/// The replay of one target's inputs, and what it measured.
struct Replay<'a> {
    wadforge: &'a Path,
    work: PathBuf,
    target: &'a str,
    inputs: usize,
    runs: usize,
    refused: usize,
    slowest: Option<(Duration, String)>,
    /// The run that came nearest its memory limit: peak bytes, limit, what ran.
    fullest: Option<(u64, u64, String)>,
    broken: Vec<String>,
    verbose: bool,
    /// The texture target's directory, made once: its PNG is replaced by each input.
    texture: Option<(PathBuf, PathBuf)>,
    /// Bytes of the sound files beside the file a run reads, part of its input.
    beside: u64,
}

impl<'a> Replay<'a> {
    fn new(wadforge: &'a Path, target: &'a str) -> Self {
        Replay {
            wadforge,
            work: PathBuf::from(target),
            target,
            inputs: 0,
            runs: 0,
            refused: 0,
            slowest: None,
            fullest: None,
            broken: Vec::new(),
            verbose: std::env::var_os("REPLAY_VERBOSE").is_some(),
            texture: None,
            beside: 0,
        }
    }

    /// Replays one input (`name` is how it is reported).
    fn input(&mut self, input: &Path, name: &str) {
        let Ok(data) = std::fs::read(input) else {
            return;
        };
        self.inputs += 1;
        let _ = std::fs::remove_dir_all(&self.work);
        std::fs::create_dir_all(&self.work).unwrap();
        // Levels as their fuzz targets read them: the version word set, TR4 data wrapped in zlib.
        let level = |version: u32| with_version(&data, version);
        let file = match self.target {
            "wad" | "import" => Some(("wad", data.clone())),
            "wad2_container" | "wad2_objects" => Some(("wad2", data.clone())),
            "level_tr1" => Some(("phd", level(level::TR1_VERSION))),
            "level_tr2" => Some(("tr2", level(level::TR2_VERSION))),
            "level_tr3" => Some(("tr2", level(level::TR3_VERSIONS[0]))),
            "level_tr4" => Some(("tr4", level(level::TR4_VERSIONS[0]))),
            "level_tr5" => Some(("trc", level(level::TR4_VERSIONS[0]))),
            "tr4_level_data" => Some(("tr4", tr4_file(&data))),
            _ => None,
        };
        if let Some((extension, bytes)) = file {
            let path = self.work.join(format!("input.{extension}"));
            std::fs::write(&path, bytes).unwrap();
            self.file(name, &path, extension == "wad");
            return;
        }
        match self.target {
            "manifest_dir" => {
                let dir = self.work.join("input");
                let mut files = manifest_files(&data);
                for file in MANIFEST_FILES {
                    let path = dir.join(file);
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    std::fs::write(path, files.next().unwrap_or_default()).unwrap();
                }
                self.directory(name, &dir);
            }
            "glb" => {
                let dir = self.work.join("input");
                std::fs::create_dir_all(&dir).unwrap();
                copy_example_moveable(&dir);
                std::fs::write(dir.join(MANIFEST_FILES[2]), &data).unwrap();
                self.directory(name, &dir);
            }
            "texture" => {
                let (dir, png) = self.texture.get_or_insert_with(|| {
                    let dir = PathBuf::from("texture-input");
                    std::fs::create_dir_all(&dir).unwrap();
                    texture_directory(&dir)
                });
                std::fs::write(&*png, &data).unwrap();
                let dir = dir.clone();
                self.directory(name, &dir);
            }
            "sounds_sfx" | "sounds_xml" => self.sounds(name, &data),
            other => panic!("no replay for the target {other}"),
        }
    }

    /// A WAD or level: every command that reads one, then a build of what was imported.
    fn file(&mut self, name: &str, path: &Path, is_wad: bool) {
        let bytes = size(path) + self.beside;
        let p = path.to_str().unwrap();
        let work = self.work.clone();
        let out = |what: &str| work.join(what).to_str().unwrap().to_string();
        let (imported, gallery, copied) = (out("imported"), out("gallery"), out("copied.wad"));
        self.run(name, bytes, &["info", p]);
        self.run(name, bytes, &["check", p]);
        self.run(name, bytes, &["diff", p, p]);
        self.run(name, bytes, &["gallery", p, "-o", &gallery, "-q"]);
        let imported_ok = self.run(name, bytes, &["import", p, "-o", &imported, "-q"]);
        let (destination, destination_ids) = Self::destination();
        let with_destination = bytes + size(Path::new(&destination));
        if let Some(ids) = object_ids(path) {
            let copy_from = ["copy", p, &destination, "-o", &copied, "--only", &ids];
            self.run(name, with_destination, &copy_from);
            if is_wad {
                let removed = out("removed.wad");
                self.run(name, bytes, &["remove", p, "-o", &removed, "--only", &ids]);
            }
        }
        let separate = out("imported_gltf");
        self.run(name, bytes, &["import", p, "--gltf", "-o", &separate, "-q"]);
        if is_wad {
            let fixed = out("fixed.wad");
            self.run(name, bytes, &["check", p, "--fix", "-o", &fixed]);
            // The file as the WAD objects are copied into, and the base of a build.
            let example = std::fs::canonicalize(wadforge_fuzz::example()).unwrap();
            let (into, based) = (out("copied_into.wad"), out("based.wad"));
            let copy_into = ["copy", &destination, p, "-o", &into, "--only", &destination_ids];
            self.run(name, with_destination, &copy_into);
            let example_dir = example.to_str().unwrap();
            let build_onto = ["build", example_dir, "-o", &based, "--base", p, "-q"];
            self.run(name, bytes + size(&example), &build_onto);
        }
        if imported_ok {
            let rebuilt = out("rebuilt.wad");
            let dir = Path::new(&imported);
            self.run(name, size(dir), &["build", &imported, "-o", &rebuilt, "-q"]);
        }
    }

    /// Sound files beside the standard fixture on one page: the `.sfx` and `.sam` beside it as a
    /// WAD, or the catalogue beside it as a Wad2. Every command that reads the file (each reads
    /// the sound files beside it), then `convert` into the other kind, which writes them as
    /// that kind's.
    fn sounds(&mut self, name: &str, data: &[u8]) {
        static HOSTS: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
        let (wad, wad2) = HOSTS.get_or_init(|| {
            let small = standard_one_page();
            let skewed = wadforge_format::SkewedCorners::new();
            let game = wadforge_format::catalog::Game::Tr4;
            let made = wadforge_format::wad2::from_model(&small, &skewed, game).unwrap();
            let wad2 = wadforge_format::wad2::write_document(&made.document);
            (wad::write(&small, None).unwrap(), wad2)
        });
        let is_wad = self.target == "sounds_sfx";
        let (host, other) = match is_wad {
            true => (self.work.join("input.wad"), "converted.wad2"),
            false => (self.work.join("input.wad2"), "converted.wad"),
        };
        std::fs::write(&host, if is_wad { wad } else { wad2 }).unwrap();
        if is_wad {
            let (sfx, sam) = sound_files(data);
            std::fs::write(host.with_extension("sfx"), sfx).unwrap();
            std::fs::write(host.with_extension("sam"), sam).unwrap();
        } else {
            std::fs::write(host.with_extension("xml"), data).unwrap();
        }
        self.beside = data.len() as u64;
        self.file(name, &host, is_wad);
        let converted = self.work.join(other);
        let args = ["convert", host.to_str().unwrap(), converted.to_str().unwrap()];
        self.run(name, size(&host) + self.beside, &args);
        self.beside = 0;
    }

    /// A manifest directory: built, and what it built read back.
    fn directory(&mut self, name: &str, dir: &Path) {
        let built = self.work.join("built.wad");
        let b = built.to_str().unwrap().to_string();
        if self.run(name, size(dir), &["build", dir.to_str().unwrap(), "-o", &b, "-q"]) {
            let bytes = size(&built);
            let imported = self.work.join("reimported");
            let gallery = self.work.join("gallery");
            self.run(name, bytes, &["check", &b]);
            self.run(
                name,
                bytes,
                &["import", &b, "-o", imported.to_str().unwrap(), "-q"],
            );
            self.run(
                name,
                bytes,
                &["gallery", &b, "-o", gallery.to_str().unwrap(), "-q"],
            );
        }
    }

    /// The WAD objects are copied into (the standard fixture, written once) and its objects' ids.
    fn destination() -> (String, String) {
        let made = DESTINATION.get_or_init(|| {
            let path = "destination.wad";
            let bytes = wad::write(&wadforge_fixtures::standard(), None).unwrap();
            std::fs::write(path, bytes).unwrap();
            let ids = object_ids(Path::new(path)).unwrap();
            (path.to_string(), ids)
        });
        made.clone()
    }

    /// Runs wadforge alone, measured; true when it succeeded. What breaks the promise is kept.
    fn run(&mut self, name: &str, input_bytes: u64, args: &[&str]) -> bool {
        self.runs += 1;
        let what = || format!("wadforge {} ({name})", args.join(" "));
        let measured = match measure(self.wadforge, args) {
            Ok(measured) => measured,
            Err(e) => {
                self.broken.push(format!("{}: could not be run: {e}", what()));
                return false;
            }
        };
        let limit = memory_limit(input_bytes);
        let problem = match measured.ending {
            Ending::Exit(0) => None,
            Ending::Exit(1) if args[0] == "diff" => Some("differs from itself".to_string()),
            Ending::Exit(101) => Some("panicked".to_string()),
            Ending::Exit(_) if measured.stderr.trim().is_empty() && args[0] != "check" => {
                Some("failed without a word".to_string())
            }
            Ending::Exit(_) => None,
            Ending::Signal(s) => Some(format!("ended by signal {s}")),
            Ending::Killed => Some(format!("still running after {KILL_AFTER:?}: killed")),
        }
        .or_else(|| {
            (measured.peak_bytes >= limit).then(|| {
                let (peak, limit) = (measured.peak_bytes, limit);
                format!("peak {peak} bytes, over its limit {limit} ({input_bytes} input bytes)")
            })
        })
        .or_else(|| (measured.took >= TIME_LIMIT).then(|| format!("took {:?}", measured.took)));
        if let Some(problem) = problem {
            let stderr: String = measured.stderr.trim_end().chars().take(2000).collect();
            let stderr = if stderr.is_empty() {
                stderr
            } else {
                format!("\n{stderr}")
            };
            self.broken.push(format!("{}: {problem}{stderr}", what()));
        }
        let ok = measured.ending == Ending::Exit(0);
        if self.verbose {
            let first = measured.stderr.lines().next().unwrap_or("");
            let (took, kb) = (measured.took, measured.peak_bytes / 1000);
            println!("{:?} {took:.2?} {kb} kB: {} | {first}", measured.ending, what());
        }
        self.refused += usize::from(!ok);
        if self.slowest.as_ref().is_none_or(|(t, _)| measured.took > *t) {
            self.slowest = Some((measured.took, what()));
        }
        let share = |peak: u64, limit: u64| peak as f64 / limit as f64;
        let nearer = |(peak, fullest_limit, _): &(u64, u64, String)| {
            share(measured.peak_bytes, limit) > share(*peak, *fullest_limit)
        };
        if self.fullest.as_ref().is_none_or(nearer) {
            self.fullest = Some((measured.peak_bytes, limit, what()));
        }
        ok
    }

    fn report(&self) {
        let Replay {
            target,
            inputs,
            runs,
            refused,
            ..
        } = self;
        println!("replay {target}: {inputs} inputs, {runs} runs ({refused} ended other than 0)");
        if let Some((took, what)) = &self.slowest {
            println!("  slowest: {took:.2?}: {what}");
        }
        if let Some((peak, limit, what)) = &self.fullest {
            let (peak_mb, limit_mb) = (*peak as f64 / 1e6, *limit as f64 / 1e6);
            println!("  nearest its memory limit: {peak_mb:.1} MB of {limit_mb:.1} MB: {what}");
        }
        for broken in &self.broken {
            println!("  BROKEN: {broken}");
        }
    }
}

/// The moveables' and statics' ids of a WAD or level, comma-separated; `None` when it cannot be
/// read or holds nothing.
fn object_ids(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let objects = wadforge_format::open(&bytes).ok()?.model;
    let mut ids: Vec<u32> = objects.moveables.iter().map(|m| m.id).collect();
    ids.extend(objects.statics.iter().map(|s| s.id));
    ids.sort_unstable();
    ids.dedup();
    let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
    (!ids.is_empty()).then(|| ids.join(","))
}

/// The bytes of a file, or of every file under a directory.
fn size(path: &Path) -> u64 {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => m.len(),
        Ok(_) => std::fs::read_dir(path)
            .map(|entries| entries.flatten().map(|e| size(&e.path())).sum())
            .unwrap_or(0),
        Err(_) => 0,
    }
}

#[derive(Debug, PartialEq)]
enum Ending {
    Exit(i32),
    Signal(i32),
    Killed,
}

struct Measured {
    ending: Ending,
    stderr: String,
    peak_bytes: u64,
    took: Duration,
}

/// Runs wadforge and waits for it with wait4, which gives the child's own peak memory (this
/// process stays small, so what the child inherits at fork is far below any limit).
fn measure(wadforge: &Path, args: &[&str]) -> std::io::Result<Measured> {
    let stderr_file = unnamed_file()?;
    let started = Instant::now();
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, which also gives its rusage
    let child = Command::new(wadforge)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file.try_clone()?)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 writes the exit status and rusage of this process's own child to the locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    loop {
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break;
        }
        if waited < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if !killed && started.elapsed() > KILL_AFTER {
            // SAFETY: the child is not reaped yet, so its pid is still its own.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let took = started.elapsed();
    let ending = if killed {
        Ending::Killed
    } else if libc::WIFEXITED(status) {
        Ending::Exit(libc::WEXITSTATUS(status))
    } else {
        Ending::Signal(libc::WTERMSIG(status))
    };
    let mut stderr = String::new();
    {
        use std::io::{Read, Seek};
        let mut f = stderr_file;
        f.seek(std::io::SeekFrom::Start(0))?;
        let _ = f.take(1 << 20).read_to_string(&mut stderr);
    }
    Ok(Measured {
        ending,
        stderr,
        peak_bytes: usage.ru_maxrss as u64 * 1024, // kilobytes on Linux
        took,
    })
}

/// An unnamed file for a child's stderr (a pipe could fill and stall a child never read).
fn unnamed_file() -> std::io::Result<std::fs::File> {
    let path = std::env::temp_dir().join(format!("wadforge-replay-stderr-{}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}
