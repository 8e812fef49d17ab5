//! Giving freed memory back to the system between the build's parallel and serial stages.
//!
//! glibc gives each thread its own malloc arena and keeps what a thread frees in that arena, for
//! that thread. After the objects are read in parallel, their decoded images and glTF documents
//! lie free in the worker threads' arenas, out of reach of the packing and writing that follow on
//! one thread, which would take fresh memory: measured on a real-content WAD, the build's peak
//! memory falls from 15.8 to 14.0 MB when that memory goes back first, at no cost in time.

/// Returns the memory every thread has freed to the system (glibc's `malloc_trim`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn release_freed() {
    // SAFETY: malloc_trim only walks the allocator's own free lists, under its locks; it may be
    // called at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators return memory their own way.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn release_freed() {}
