//! The memory promise, checked on every execution: an input may take at most the heap
//! `Limits::DEFAULT.memory` allows for its size while it is read (docs/hostile-input.md). The process's allocator counts the
//! bytes held; an allocation past the input's allowance aborts, which libFuzzer reports as a crash
//! and keeps as an artifact. libFuzzer's own `-malloc_limit_mb` needs a sanitizer's allocator hooks
//! and does nothing in these builds (no sanitizer), hence this.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Replaces the allowance (in bytes) when set: `scripts/fuzz.sh --smoke` sets it to 0 to see
/// that every target's guard fires.
pub const ALLOWANCE_VARIABLE: &str = "WADFORGE_FUZZ_HEAP_ALLOWANCE";
/// What the guard prints before it aborts (the smoke run looks for it).
pub const OVER_ALLOWANCE: &str = "heap over the input's allowance";

/// Counts the bytes the process holds on the heap.
pub struct CountingAllocator;

static HELD: AtomicUsize = AtomicUsize::new(0);
/// What the heap held when the execution started.
static AT_START: AtomicUsize = AtomicUsize::new(0);
/// The most the heap may hold: `usize::MAX` between executions.
static CEILING: AtomicUsize = AtomicUsize::new(usize::MAX);

impl CountingAllocator {
    fn take(&self, bytes: usize) {
        let held = HELD.fetch_add(bytes, Relaxed).saturating_add(bytes);
        let ceiling = CEILING.load(Relaxed);
        if held > ceiling {
            over_allowance(held, ceiling);
        }
    }

    fn give_back(&self, bytes: usize) {
        HELD.fetch_sub(bytes, Relaxed);
    }
}

// SAFETY: every call goes to the system allocator unchanged; the counting only reads sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.take(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.take(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.give_back(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match new_size > layout.size() {
            true => self.take(new_size - layout.size()),
            false => self.give_back(layout.size() - new_size),
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `read` (the reading of one input of `input_len` bytes) under the input's allowance.
pub fn within_allowance<R>(input_len: usize, read: impl FnOnce() -> R) -> R {
    lift_ceiling_on_panic();
    let allowance = allowance(input_len);
    let at_start = HELD.load(Relaxed);
    AT_START.store(at_start, Relaxed);
    CEILING.store(at_start.saturating_add(allowance), Relaxed);
    let result = read();
    CEILING.store(usize::MAX, Relaxed);
    result
}

/// A panic (a target's assertion) ends the reading: its message and backtrace are the report,
/// and must not be cut short as a heap over the allowance. Installed in front of libFuzzer's
/// hook, which is in place by the first execution.
fn lift_ceiling_on_panic() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let then = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            CEILING.store(usize::MAX, Relaxed);
            then(info);
        }));
    });
}

fn allowance(input_len: usize) -> usize {
    static OVERRIDE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let over = OVERRIDE.get_or_init(|| std::env::var(ALLOWANCE_VARIABLE).ok()?.parse().ok());
    over.unwrap_or_else(|| {
        let allowed = wadforge_format::Limits::DEFAULT.memory.allowed(input_len as u64);
        usize::try_from(allowed).unwrap_or(usize::MAX)
    })
}

/// Says how far over the heap went and aborts, without allocating (the allocator is the caller).
#[cold]
fn over_allowance(held: usize, ceiling: usize) -> ! {
    CEILING.store(usize::MAX, Relaxed);
    let at_start = AT_START.load(Relaxed);
    let (taken, allowance) = (held - at_start, ceiling - at_start);
    let mut message = [0u8; 160];
    let mut cursor = std::io::Cursor::new(&mut message[..]);
    let _ = write!(
        cursor,
        "\n{OVER_ALLOWANCE}: {taken} bytes taken while reading it, {allowance} allowed\n"
    );
    let end = cursor.position() as usize;
    let _ = std::io::stderr().write_all(&message[..end]);
    std::process::abort();
}
