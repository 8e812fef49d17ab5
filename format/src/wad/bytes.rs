//! Bounds-checked little-endian reading with absolute file offsets in every error.

use super::error::{Problem, ReadError, Section};

/// A view of part of a file: `bytes` starts at file offset `base`.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub bytes: &'a [u8],
    pub base: usize,
    pub section: Section,
}

impl<'a> View<'a> {
    pub fn new(bytes: &'a [u8], base: usize, section: Section) -> Self {
        View { bytes, base, section }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn error(&self, at: usize, problem: Problem) -> ReadError {
        ReadError {
            section: self.section,
            offset: (self.base + at) as u64,
            context: None,
            problem,
        }
    }

    /// `n` bytes at `at`, or a truncation error.
    pub fn slice(&self, at: usize, n: usize) -> Result<&'a [u8], ReadError> {
        match at.checked_add(n) {
            Some(end) if end <= self.bytes.len() => Ok(&self.bytes[at..end]),
            _ => Err(self.error(
                at.min(self.bytes.len()),
                Problem::Truncated {
                    needed: n as u64,
                    available: self.bytes.len().saturating_sub(at) as u64,
                },
            )),
        }
    }

    pub fn u8(&self, at: usize) -> Result<u8, ReadError> {
        Ok(self.slice(at, 1)?[0])
    }

    pub fn u16(&self, at: usize) -> Result<u16, ReadError> {
        let b = self.slice(at, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn i16(&self, at: usize) -> Result<i16, ReadError> {
        Ok(self.u16(at)? as i16)
    }

    pub fn u32(&self, at: usize) -> Result<u32, ReadError> {
        let b = self.slice(at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn i32(&self, at: usize) -> Result<i32, ReadError> {
        Ok(self.u32(at)? as i32)
    }

    pub fn i16x3(&self, at: usize) -> Result<[i16; 3], ReadError> {
        Ok([self.i16(at)?, self.i16(at + 2)?, self.i16(at + 4)?])
    }
}

/// Reads the file front to back, section by section.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn view(&self, section: Section) -> View<'a> {
        View::new(&self.bytes[self.pos..], self.pos, section)
    }

    pub fn u32(&mut self, section: Section) -> Result<u32, ReadError> {
        let v = self.view(section).u32(0)?;
        self.pos += 4;
        Ok(v)
    }

    /// Takes `n` bytes as a view of their own.
    pub fn take(&mut self, n: usize, section: Section) -> Result<View<'a>, ReadError> {
        let bytes = self.view(section).slice(0, n)?;
        let view = View::new(bytes, self.pos, section);
        self.pos += n;
        Ok(view)
    }

    /// Reads a u32 record count and takes the records, refusing counts the bytes left cannot
    /// hold before anything is allocated from them.
    pub fn table(
        &mut self,
        what: &'static str,
        record_size: usize,
        section: Section,
    ) -> Result<(usize, View<'a>), ReadError> {
        let at = self.pos;
        let count = self.u32(section)? as usize;
        self.checked_take(at, what, count, record_size, section)
            .map(|v| (count, v))
    }

    /// Reads a u32 size in units of `unit` bytes and takes the package.
    pub fn package(
        &mut self,
        what: &'static str,
        unit: usize,
        section: Section,
    ) -> Result<View<'a>, ReadError> {
        let at = self.pos;
        let count = self.u32(section)? as usize;
        self.checked_take(at, what, count, unit, section)
    }

    fn checked_take(
        &mut self,
        at: usize,
        what: &'static str,
        count: usize,
        size: usize,
        section: Section,
    ) -> Result<View<'a>, ReadError> {
        match count.checked_mul(size) {
            Some(n) if n <= self.remaining() => self.take(n, section),
            _ => Err(ReadError {
                section,
                offset: at as u64,
                context: None,
                problem: Problem::CountTooLarge {
                    what,
                    count: count as u64,
                    record_size: size as u64,
                    available: self.remaining() as u64,
                },
            }),
        }
    }
}

/// Little-endian output.
pub(crate) trait PutLe {
    fn put_u16(&mut self, v: u16);
    fn put_u32(&mut self, v: u32);
    fn put_i16(&mut self, v: i16) {
        self.put_u16(v as u16);
    }
    fn put_i32(&mut self, v: i32) {
        self.put_u32(v as u32);
    }
}

impl PutLe for Vec<u8> {
    fn put_u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
}
