//! `wad::encode` writes a WAD part by part (the texture pages straight from the model): the file
//! it writes is the one `wad::write` returns, byte for byte, and `size` is its length; a write
//! that fails is reported as it is.

use std::io::Write;

use wadforge_format::wad;

/// A writer that takes at most 1000 bytes a call, as a pipe or a full disk may.
struct Trickle(Vec<u8>);

impl Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(1000);
        self.0.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn written(encoded: &wad::EncodedWad) -> Vec<u8> {
    let mut out = Trickle(Vec::new());
    encoded.write_to(&mut out).unwrap();
    assert_eq!(
        encoded.size(),
        out.0.len() as u64,
        "size() is not the written length"
    );
    out.0
}

#[test]
fn every_fixture_written_part_by_part_is_the_whole_file() {
    for (name, model) in wadforge_fixtures::all() {
        let whole = wad::write(&model, None).unwrap();
        let encoded = wad::encode(&model, None).unwrap();
        assert_eq!(written(&encoded), whole, "{name}");
    }
}

#[test]
fn quirky_files_written_part_by_part_with_their_layout_are_the_files_read() {
    // Their layouts hold gaps and bytes after the pages, which are parts of their own.
    for (name, bytes) in wadforge_fixtures::quirky_files() {
        let (model, layout) = wad::read(&bytes).unwrap();
        let encoded = wad::encode(&model, Some(&layout)).unwrap();
        assert_eq!(written(&encoded), bytes, "{name}");
    }
}

#[test]
fn a_failed_write_is_an_error() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let model = wadforge_fixtures::standard();
    let encoded = wad::encode(&model, None).unwrap();
    let e = encoded.write_to(Full).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::StorageFull);
}
