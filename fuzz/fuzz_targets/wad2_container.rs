//! A Wad2 container: `wad2::read` on any bytes, then every chunk's content tried as a child
//! stream from its start (as a fieldless parent's would be), down to `wad2::MAX_DEPTH`.
#![no_main]
use wadforge_format::wad2::{self, Chunk};

fn descend(chunks: &[Chunk]) {
    for chunk in chunks {
        if let Ok(inner) = wad2::children(&chunk.content, 0) {
            descend(&inner);
        }
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = wadforge_fuzz::within_allowance(data.len(), || {
        wad2::read(data).map(|file| {
            descend(&file.chunks);
            wad2::write(&file)
        })
    });
});
