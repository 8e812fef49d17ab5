//! Bounds-checked little-endian reading with absolute file offsets in every error, shared by the
//! WAD and level readers. Each reader's error type says how it reports the two failures every
//! read can meet: bytes running out, and a count the bytes left cannot hold.

use std::marker::PhantomData;

/// An error type a reader reports through [`View`] and [`Cursor`].
pub(crate) trait FileError: Sized {
    /// The part of the file an error names.
    type Section: Copy;
    type Problem;
    fn at(section: Self::Section, offset: u64, problem: Self::Problem) -> Self;
    fn truncated(needed: u64, available: u64) -> Self::Problem;
    fn count_too_large(what: &'static str, count: u64, record_size: u64, available: u64) -> Self::Problem;
}

/// A view of part of a file: `bytes` starts at file offset `base`.
pub(crate) struct View<'a, E: FileError> {
    pub bytes: &'a [u8],
    pub base: usize,
    pub section: E::Section,
    error: PhantomData<fn() -> E>,
}

impl<E: FileError> Clone for View<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: FileError> Copy for View<'_, E> {}

impl<'a, E: FileError> View<'a, E> {
    pub fn new(bytes: &'a [u8], base: usize, section: E::Section) -> Self {
        View {
            bytes,
            base,
            section,
            error: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn error(&self, at: usize, problem: E::Problem) -> E {
        E::at(self.section, (self.base + at) as u64, problem)
    }

    /// `n` bytes at `at`, or a truncation error.
    pub fn slice(&self, at: usize, n: usize) -> Result<&'a [u8], E> {
        match at.checked_add(n) {
            Some(end) if end <= self.bytes.len() => Ok(&self.bytes[at..end]),
            _ => Err(self.error(
                at.min(self.bytes.len()),
                E::truncated(n as u64, self.bytes.len().saturating_sub(at) as u64),
            )),
        }
    }

    pub fn u8(&self, at: usize) -> Result<u8, E> {
        Ok(self.slice(at, 1)?[0])
    }

    pub fn u16(&self, at: usize) -> Result<u16, E> {
        let b = self.slice(at, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn i16(&self, at: usize) -> Result<i16, E> {
        Ok(self.u16(at)? as i16)
    }

    pub fn u32(&self, at: usize) -> Result<u32, E> {
        let b = self.slice(at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn i32(&self, at: usize) -> Result<i32, E> {
        Ok(self.u32(at)? as i32)
    }

    pub fn i16x3(&self, at: usize) -> Result<[i16; 3], E> {
        self.i16s(at)
    }

    /// `N` consecutive signed words.
    pub fn i16s<const N: usize>(&self, at: usize) -> Result<[i16; N], E> {
        let b = self.slice(at, N * 2)?;
        Ok(std::array::from_fn(|k| {
            i16::from_le_bytes([b[2 * k], b[2 * k + 1]])
        }))
    }
}

/// Reads a file (or a part of it) front to back.
pub(crate) struct Cursor<'a, E: FileError> {
    bytes: &'a [u8],
    base: usize,
    pub pos: usize,
    error: PhantomData<fn() -> E>,
}

impl<'a, E: FileError> Cursor<'a, E> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            bytes,
            base: 0,
            pos: 0,
            error: PhantomData,
        }
    }

    /// A cursor over the bytes of a view.
    pub fn within(view: View<'a, E>) -> Self {
        Cursor {
            bytes: view.bytes,
            base: view.base,
            pos: 0,
            error: PhantomData,
        }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// Absolute file offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    fn view(&self, section: E::Section) -> View<'a, E> {
        View::new(&self.bytes[self.pos..], self.offset(), section)
    }

    pub fn u16(&mut self, section: E::Section) -> Result<u16, E> {
        let v = self.view(section).u16(0)?;
        self.pos += 2;
        Ok(v)
    }

    pub fn u32(&mut self, section: E::Section) -> Result<u32, E> {
        let v = self.view(section).u32(0)?;
        self.pos += 4;
        Ok(v)
    }

    /// Takes `n` bytes as a view of their own.
    pub fn take(&mut self, n: usize, section: E::Section) -> Result<View<'a, E>, E> {
        let bytes = self.view(section).slice(0, n)?;
        let view = View::new(bytes, self.offset(), section);
        self.pos += n;
        Ok(view)
    }

    /// Reads a u32 record count and takes the records, refusing counts the bytes left cannot
    /// hold before anything is allocated from them.
    pub fn table(
        &mut self,
        what: &'static str,
        record_size: usize,
        section: E::Section,
    ) -> Result<(usize, View<'a, E>), E> {
        let at = self.pos;
        let count = self.u32(section)? as usize;
        self.records(at, what, count, record_size, section)
            .map(|v| (count, v))
    }

    /// Reads a u16 record count and takes the records.
    pub fn table16(
        &mut self,
        what: &'static str,
        record_size: usize,
        section: E::Section,
    ) -> Result<(usize, View<'a, E>), E> {
        let at = self.pos;
        let count = self.u16(section)? as usize;
        self.records(at, what, count, record_size, section)
            .map(|v| (count, v))
    }

    /// Reads a u32 size in units of `unit` bytes and takes the package.
    pub fn package(
        &mut self,
        what: &'static str,
        unit: usize,
        section: E::Section,
    ) -> Result<View<'a, E>, E> {
        self.table(what, unit, section).map(|(_, v)| v)
    }

    /// Takes `count` records of `size` bytes; `at` is where the count was read.
    pub fn records(
        &mut self,
        at: usize,
        what: &'static str,
        count: usize,
        size: usize,
        section: E::Section,
    ) -> Result<View<'a, E>, E> {
        match count.checked_mul(size) {
            Some(n) if n <= self.remaining() => self.take(n, section),
            _ => Err(E::at(
                section,
                (self.base + at) as u64,
                E::count_too_large(what, count as u64, size as u64, self.remaining() as u64),
            )),
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
