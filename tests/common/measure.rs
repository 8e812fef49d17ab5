//! What wadforge promises about hostile files (docs/hostile-input.md): a forged or damaged file is
//! refused with a clear message, and no input makes the process take more memory than
//! `Limits::DEFAULT.memory` allows for its size (`docs/limits.md`), or hang (30 s, checked in
//! release builds, as scripts/test.sh runs them). The hostile-file tests (`tests/hostile_*.rs`) run the built binary through
//! [`measured`], which measures the child's peak memory (its own rusage, from wait4) and time.
//!
//! The test binary defines the test [`HELPER_TEST`] once (tests/tests.rs), calling [`run_as_helper`].

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::files::example_copy;
use super::{s, wadforge_command};

/// What one run of wadforge did and cost.
pub struct Run {
    pub success: bool,
    pub stderr: String,
    pub peak_bytes: u64,
    pub took: Duration,
}

/// The name of the test through which [`measured`] runs its test binary again: the binary's
/// root (tests/tests.rs) defines it as `#[test] fn measure_helper() { measure::run_as_helper() }`.
pub const HELPER_TEST: &str = "measure_helper";

/// Runs wadforge and measures it alone. Its peak memory is read from wait4 in a fresh helper
/// process (this test binary run again as [`HELPER_TEST`]): a child spawned from the test
/// process itself would inherit the test process's high-water mark at exec (Linux keeps the
/// larger), and `/usr/bin/time` is not on every machine.
pub fn measured(args: &[&str]) -> Run {
    // Measured runs take turns: the limit is on one input's time, not on how the tests of this
    // binary share the machine (two galleries at once each took twice as long). Cargo runs the
    // test binaries one after another.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = tempfile::NamedTempFile::new().unwrap();
    let started = Instant::now();
    let helper = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", HELPER_TEST, "--test-threads=1", "--quiet"])
        .env(HELPER_ARGS, args.join("\u{1f}"))
        .env(HELPER_OUT, out.path())
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(
        helper.status.success(),
        "{}",
        String::from_utf8_lossy(&helper.stderr)
    );
    let report = std::fs::read_to_string(out.path()).unwrap();
    let (head, stderr) = report.split_once('\n').unwrap();
    let (success, peak) = head.split_once(' ').unwrap();
    Run {
        success: success == "ok",
        stderr: stderr.to_string(),
        peak_bytes: peak.parse().unwrap(),
        took,
    }
}

const HELPER_ARGS: &str = "WADFORGE_MEASURE_ARGS";
const HELPER_OUT: &str = "WADFORGE_MEASURE_OUT";

/// The body of [`HELPER_TEST`], not a test: when [`measured`] runs the test binary with its
/// variables set, this runs wadforge and writes `ok|failed PEAK_BYTES`, a newline and
/// wadforge's stderr to the file it was given; otherwise it does nothing.
pub fn run_as_helper() {
    let (Ok(args), Ok(out)) = (std::env::var(HELPER_ARGS), std::env::var(HELPER_OUT)) else {
        return;
    };
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, which also gives its rusage
    let mut child = wadforge_command()
        .args(args.split('\u{1f}'))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let mut status = 0;
    // SAFETY: wait4 writes the exit status and rusage of this process's own child to the locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
    let success = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let peak = usage.ru_maxrss as u64 * 1024; // kilobytes on Linux
    let verdict = if success { "ok" } else { "failed" };
    std::fs::write(out, format!("{verdict} {peak}\n{stderr}")).unwrap();
}

/// The promise: the heap `Limits::DEFAULT.memory` allows for the input's size.
pub fn memory_limit(input_bytes: u64) -> u64 {
    wadforge_format::Limits::DEFAULT.memory.allowed(input_bytes)
}

/// Asserts a run refused its input with `message`, within the memory and time limits.
pub fn refused_within_limits(run: &Run, input_bytes: u64, message: &str) {
    assert!(!run.success, "accepted; stderr: {}", run.stderr);
    assert!(
        run.stderr.contains(message),
        "expected `{message}` in: {}",
        run.stderr
    );
    within_limits("the run", run, input_bytes);
}

/// Asserts `job`'s run stayed within the memory and time limits for `input_bytes`.
pub fn within_limits(job: &str, run: &Run, input_bytes: u64) {
    assert!(
        run.peak_bytes < memory_limit(input_bytes),
        "{job}: peak {} bytes, limit {} for {input_bytes} input bytes",
        run.peak_bytes,
        memory_limit(input_bytes)
    );
    assert_in_time(job, run.took);
}

/// What a run may take in these tests: a hang, not a speed limit. The 5 s promise is a speed
/// target, which wall-clock asserts cannot hold steady on a shared 2-core machine (runs of 3 to 4 s
/// alone took 5 to 10 s beside other tests' threads); libFuzzer holds every fuzz input to it
/// (`-timeout=5`), and `bash scripts/fuzz.sh --replay` measures every command against it.
const HANG: Duration = Duration::from_secs(30);

/// Asserts `job` did not hang (see [`HANG`]), in release builds: an unoptimised build takes some
/// three times as long, which says nothing of the code. The time is in the test's log.
pub fn assert_in_time(job: &str, took: Duration) {
    if cfg!(debug_assertions) {
        eprintln!("{job} took {took:?} (time not checked in a debug build)");
    } else {
        assert!(took < HANG, "{job} took {took:?}: a hang");
    }
}

/// [`measured`], saying what the run took of an input of `input_bytes` in the test's log.
pub fn measured_logged(args: &[&str], input_bytes: u64) -> Run {
    let run = measured(args);
    eprintln!(
        "{}: {input_bytes} bytes, peak {} bytes, {:?}",
        args[0], run.peak_bytes, run.took
    );
    run
}

/// Runs `command` (`info`, or one that writes `out`: `import`, `gallery`) on `input`, measured
/// (and says what it took, for the test's log).
pub fn measured_on(command: &str, input: &Path, out: &Path) -> Run {
    let mut args = vec![command, s(input)];
    if command != "info" {
        args.extend(["-q", "-o", s(out)]);
    }
    let run = measured(&args);
    let bytes = std::fs::metadata(input).map_or(0, |m| m.len());
    eprintln!(
        "{command} {}: {bytes} bytes, peak {} bytes, {:?}",
        input.display(),
        run.peak_bytes,
        run.took
    );
    run
}

/// Builds a copy of the bundled example whose file `file` `damage` changed, measured; the run
/// and the directory's size before the damage.
pub fn build_with_damaged(file: &str, damage: impl FnOnce(&mut Vec<u8>)) -> (Run, u64) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("dir");
    let size = example_copy(&dir);
    let path = dir.join(file);
    let mut bytes = std::fs::read(&path).unwrap();
    damage(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
    let run = measured(&["build", "-q", s(&dir), "-o", s(&tmp.path().join("out.wad"))]);
    (run, size)
}
