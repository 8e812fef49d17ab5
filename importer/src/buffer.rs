//! A glTF document's binary buffer as it is written: in memory, and past [`SPILL_AT`] bytes in an
//! unnamed file of the output directory, so that an object of millions of polygons is not held
//! whole (its buffer runs to some 17 times the WAD bytes it comes from, past the memory promise,
//! `Limits::memory`).

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Bytes kept in memory before they go to the spill file: far above a real object's buffer (the
/// largest of a real TR4 level's objects is about 1 MB).
const SPILL_AT: usize = 8 << 20;

pub(crate) struct Buffer {
    /// The bytes not spilled, after those that were.
    memory: Vec<u8>,
    spilled: Option<File>,
    spilled_len: usize,
    /// Where a spill file goes; `None`: everything stays in memory.
    spill_dir: Option<PathBuf>,
    /// The first failure to spill: the buffer is incomplete, and [`Buffer::finish`] says so.
    failed: Option<std::io::Error>,
}

impl Buffer {
    pub fn new(spill_dir: Option<&Path>) -> Self {
        Buffer {
            memory: Vec::new(),
            spilled: None,
            spilled_len: 0,
            spill_dir: spill_dir.map(Path::to_path_buf),
            failed: None,
        }
    }

    pub fn len(&self) -> usize {
        self.spilled_len + self.memory.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn reserve(&mut self, additional: usize) {
        self.memory.reserve(additional.min(SPILL_AT));
    }

    pub fn put(&mut self, bytes: &[u8]) {
        self.memory.extend_from_slice(bytes);
        if self.memory.len() >= SPILL_AT {
            self.spill();
        }
    }

    pub fn put_byte(&mut self, byte: u8) {
        self.put(&[byte]);
    }

    /// Zero bytes up to a multiple of 4.
    pub fn pad(&mut self) {
        while self.len() % 4 != 0 {
            self.put_byte(0);
        }
    }

    fn spill(&mut self) {
        let Some(dir) = &self.spill_dir else { return };
        if self.failed.is_some() {
            self.memory.clear();
            return;
        }
        let written = match &mut self.spilled {
            Some(file) => file.write_all(&self.memory),
            None => tempfile::tempfile_in(dir).and_then(|mut file| {
                file.write_all(&self.memory)?;
                self.spilled = Some(file);
                Ok(())
            }),
        };
        match written {
            Ok(()) => self.spilled_len += self.memory.len(),
            Err(e) => self.failed = Some(e),
        }
        self.memory.clear();
    }

    /// The content: `head`, then the buffer's bytes; an error when a spill had failed.
    pub fn finish(self, head: Vec<u8>) -> std::io::Result<Body> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        Ok(Body {
            head,
            spilled: self.spilled.map(|file| (file, self.spilled_len)),
            tail: self.memory,
        })
    }
}

/// A file's content: `head`, what went to the spill file, then `tail`.
pub(crate) struct Body {
    head: Vec<u8>,
    /// The spill file and its length.
    spilled: Option<(File, usize)>,
    tail: Vec<u8>,
}

impl Body {
    pub fn bytes(bytes: Vec<u8>) -> Body {
        Body {
            head: bytes,
            spilled: None,
            tail: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.head.len() + self.spilled.as_ref().map_or(0, |(_, len)| *len) + self.tail.len()
    }

    /// Writes the content to `out`.
    pub fn write_to(self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&self.head)?;
        if let Some((mut file, len)) = self.spilled {
            file.rewind()?;
            let copied = std::io::copy(&mut (&mut file).take(len as u64), out)?;
            if copied != len as u64 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!("the spill file holds {copied} bytes of {len}"),
                ));
            }
        }
        out.write_all(&self.tail)
    }

    /// The content as one run of bytes, made in the tail's allocation when nothing was spilled
    /// (a large buffer is not copied).
    pub fn into_bytes(self) -> std::io::Result<Vec<u8>> {
        match self.spilled {
            None => {
                let (head, mut bytes) = (self.head, self.tail);
                let tail_len = bytes.len();
                bytes.resize(tail_len + head.len(), 0);
                bytes.copy_within(..tail_len, head.len());
                bytes[..head.len()].copy_from_slice(&head);
                Ok(bytes)
            }
            Some(_) => {
                let mut bytes = Vec::new();
                self.write_to(&mut bytes)?;
                Ok(bytes)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(buffer: Buffer, head: &[u8]) -> Vec<u8> {
        buffer.finish(head.to_vec()).unwrap().into_bytes().unwrap()
    }

    #[test]
    fn a_buffer_past_the_spill_size_goes_to_a_file_and_comes_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut buffer = Buffer::new(Some(dir.path()));
        let expected: Vec<u8> = (0..SPILL_AT * 2 + 5).map(|i| (i % 251) as u8).collect();
        expected.chunks(1000).for_each(|c| buffer.put(c));
        assert!(buffer.spilled.is_some(), "spilled");
        assert!(
            buffer.memory.len() < SPILL_AT,
            "memory holds less than the spill size"
        );
        assert_eq!(buffer.len(), expected.len());
        let mut written = Vec::new();
        buffer
            .finish(b"head".to_vec())
            .unwrap()
            .write_to(&mut written)
            .unwrap();
        assert_eq!(&written[..4], b"head");
        assert_eq!(&written[4..], &expected[..]);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "the spill file has no name"
        );
    }

    #[test]
    fn without_a_spill_directory_everything_stays_in_memory() {
        let mut buffer = Buffer::new(None);
        let expected = vec![7u8; SPILL_AT + 10];
        buffer.put(&expected);
        buffer.pad();
        assert!(buffer.spilled.is_none());
        let bytes = content(buffer, b"ab");
        assert_eq!(&bytes[..2], b"ab");
        assert_eq!(&bytes[2..SPILL_AT + 12], &expected[..]);
        assert_eq!(bytes.len(), 2 + SPILL_AT + 12, "padded to 4 bytes");
    }

    #[test]
    fn a_spill_that_fails_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone");
        let mut buffer = Buffer::new(Some(&gone));
        buffer.put(&vec![1u8; SPILL_AT]);
        buffer.put(b"more");
        assert!(buffer.finish(Vec::new()).is_err());
    }
}
