//! A chunk's own fields and leaf values, read with offsets for errors, and chunks built as
//! TombLib's writer builds them (parents' sizes padded to 4 bytes), so that a file TombLib wrote
//! comes back byte for byte.

use crate::wad2::chunks::{Chunk, ChunkRef, Widths};
use crate::wad2::error::{Wad2Error, Wad2Problem};
use crate::wad2::leb128;

/// The width TombLib pads a parent's size to (its `WriteChunkWithChildren`, and a few leaves).
const PADDED_SIZE: u8 = 4;

/// The fields at the start of a chunk's content, read in order.
pub(super) struct Fields<'c, 'a> {
    chunk: &'c ChunkRef<'a>,
    pos: usize,
}

impl<'c, 'a> Fields<'c, 'a> {
    pub fn of(chunk: &'c ChunkRef<'a>) -> Fields<'c, 'a> {
        Fields { chunk, pos: 0 }
    }

    fn error(&self, offset: usize, problem: Wad2Problem) -> Wad2Error {
        error_in(self.chunk, offset, problem)
    }

    fn cut_short(&self) -> Wad2Error {
        let problem = Wad2Problem::FieldsCutShort {
            id: self.chunk.id.to_owned(),
            what: "fields",
        };
        self.error(self.pos, problem)
    }

    /// A signed LEB128 field.
    pub fn number(&mut self) -> Result<i64, Wad2Error> {
        let start = self.pos;
        leb128::read(self.chunk.content, &mut self.pos).map_err(|error| match error.problem {
            Wad2Problem::Truncated { .. } => self.cut_short(),
            problem => self.error(start, problem),
        })
    }

    /// `N` raw bytes.
    pub fn bytes<const N: usize>(&mut self) -> Result<[u8; N], Wad2Error> {
        let end = self.pos.checked_add(N).ok_or_else(|| self.cut_short())?;
        let slice = self
            .chunk
            .content
            .get(self.pos..end)
            .ok_or_else(|| self.cut_short())?;
        self.pos = end;
        let mut out = [0; N];
        out.copy_from_slice(slice);
        Ok(out)
    }

    pub fn i32(&mut self) -> Result<i32, Wad2Error> {
        self.bytes::<4>().map(i32::from_le_bytes)
    }

    pub fn f32(&mut self) -> Result<f32, Wad2Error> {
        self.bytes::<4>().map(f32::from_le_bytes)
    }

    pub fn vec2(&mut self) -> Result<[f32; 2], Wad2Error> {
        Ok([self.f32()?, self.f32()?])
    }

    /// A byte read as C#'s `ReadBoolean` does: any non-zero byte is true.
    pub fn bool(&mut self) -> Result<bool, Wad2Error> {
        self.bytes::<1>().map(|[byte]| byte != 0)
    }

    /// An i32 byte length, then that many bytes of UTF-8 (W2Bone2's name).
    pub fn name(&mut self) -> Result<String, Wad2Error> {
        let start = self.pos;
        let length = self.i32()?;
        let available = self.chunk.content.len() - self.pos;
        let Some(length) = usize::try_from(length).ok().filter(|&length| length <= available) else {
            let problem = Wad2Problem::FieldsCutShort {
                id: self.chunk.id.to_owned(),
                what: "name",
            };
            return Err(self.error(start, problem));
        };
        let bytes = &self.chunk.content[self.pos..self.pos + length];
        self.pos += length;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The child chunks after the fields read so far.
    pub fn children(self) -> Result<Vec<ChunkRef<'a>>, Wad2Error> {
        self.chunk.children(self.pos)
    }

    /// The end of a leaf made of fields only (W2Disp, W2SprSides): nothing may follow.
    pub fn end(self) -> Result<(), Wad2Error> {
        let size = self.chunk.content.len();
        if self.pos == size {
            return Ok(());
        }
        let problem = Wad2Problem::BadLeafSize {
            id: self.chunk.id.to_owned(),
            size,
            expected: "its fields alone",
        };
        Err(self.error(0, problem))
    }
}

/// `chunk` without where it was read from, and with minimal widths marked as such (0), so that
/// a chunk kept compares equal after it moves.
pub(super) fn detached(mut chunk: Chunk) -> Chunk {
    if usize::from(chunk.widths.id_length) == leb128::minimal_width(chunk.id.len() as i64) {
        chunk.widths.id_length = 0;
    }
    if usize::from(chunk.widths.size) == leb128::minimal_width(chunk.content.bytes.len() as i64) {
        chunk.widths.size = 0;
    }
    chunk.content.offset = 0;
    chunk.content.inflated = false;
    chunk.content.depth = 0;
    chunk
}

/// An error at byte `offset` of `chunk`'s content.
pub(super) fn error_in(chunk: &ChunkRef, offset: usize, problem: Wad2Problem) -> Wad2Error {
    Wad2Error {
        offset: chunk.offset + offset as u64,
        inflated: chunk.inflated,
        problem,
    }
}

fn bad_size(chunk: &ChunkRef, expected: &'static str) -> Wad2Error {
    let problem = Wad2Problem::BadLeafSize {
        id: chunk.id.to_owned(),
        size: chunk.content.len(),
        expected,
    };
    error_in(chunk, 0, problem)
}

/// A leaf holding one signed LEB128 number and nothing else.
pub(super) fn int(chunk: &ChunkRef) -> Result<i64, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let value = fields.number()?;
    match fields.end() {
        Ok(()) => Ok(value),
        Err(_) => Err(bad_size(chunk, "one LEB128 number")),
    }
}

/// A leaf holding a float: f64 as TombLib writes it, or f32 when the chunk has 4 bytes (as its
/// reader accepts).
pub(super) fn float(chunk: &ChunkRef) -> Result<f64, Wad2Error> {
    let bytes = chunk.content;
    match bytes.len() {
        8 => Ok(f64::from_le_bytes(bytes[..8].try_into().unwrap_or_default())),
        4 => Ok(f64::from(f32::from_le_bytes(
            bytes[..4].try_into().unwrap_or_default(),
        ))),
        _ => Err(bad_size(chunk, "a float of 8 (or 4) bytes")),
    }
}

/// A leaf of `N` f32 values (Vector2, Vector3, Vector4).
pub(super) fn vector<const N: usize>(chunk: &ChunkRef) -> Result<[f32; N], Wad2Error> {
    let bytes = chunk.content;
    if bytes.len() != 4 * N {
        const EXPECTED: [&str; 5] = ["", "", "a Vector2's 8", "a Vector3's 12", "a Vector4's 16"];
        return Err(bad_size(chunk, EXPECTED.get(N).copied().unwrap_or("floats")));
    }
    let mut out = [0.0; N];
    for (value, word) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *value = f32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    }
    Ok(out)
}

/// A leaf of one byte, true when not zero.
pub(super) fn boolean(chunk: &ChunkRef) -> Result<bool, Wad2Error> {
    match chunk.content {
        [byte] => Ok(*byte != 0),
        _ => Err(bad_size(chunk, "one byte")),
    }
}

/// A leaf of UTF-8 text (invalid sequences replaced, as .NET's decoder does).
pub(super) fn string(chunk: &ChunkRef) -> String {
    String::from_utf8_lossy(chunk.content).into_owned()
}

/// Fields of a chunk being written.
#[derive(Default)]
pub(super) struct FieldWriter {
    pub bytes: Vec<u8>,
}

impl FieldWriter {
    pub fn number(&mut self, value: i64) -> &mut Self {
        leb128::write(value, &mut self.bytes);
        self
    }

    pub fn floats(&mut self, values: &[f32]) -> &mut Self {
        for value in values {
            self.bytes.extend_from_slice(&value.to_le_bytes());
        }
        self
    }

    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(bytes);
        self
    }
}

/// A parent chunk: fields, then its children, its size padded as TombLib pads it.
pub(super) fn parent(id: &str, fields: &[u8], children: &[Chunk]) -> Chunk {
    padded(Chunk::parent(id, fields, children), PADDED_SIZE)
}

/// A leaf of fields only, padded as TombLib pads W2Disp and W2SprSides.
pub(super) fn padded_leaf(id: &str, fields: Vec<u8>) -> Chunk {
    padded(Chunk::new(id, fields), PADDED_SIZE)
}

/// `chunk` with its size written in at least `width` bytes.
pub(super) fn padded(mut chunk: Chunk, width: u8) -> Chunk {
    chunk.widths = Widths {
        id_length: 0,
        size: width,
    };
    chunk
}

pub(super) fn int_leaf(id: &str, value: i64) -> Chunk {
    let mut bytes = Vec::new();
    leb128::write(value, &mut bytes);
    Chunk::new(id, bytes)
}

pub(super) fn float_leaf(id: &str, value: f64) -> Chunk {
    Chunk::new(id, value.to_le_bytes().to_vec())
}

pub(super) fn vector_leaf(id: &str, values: &[f32]) -> Chunk {
    let mut fields = FieldWriter::default();
    fields.floats(values);
    Chunk::new(id, fields.bytes)
}

pub(super) fn bool_leaf(id: &str, value: bool) -> Chunk {
    Chunk::new(id, vec![u8::from(value)])
}

pub(super) fn string_leaf(id: &str, value: &str) -> Chunk {
    Chunk::new(id, value.as_bytes().to_vec())
}

/// Chunks this reader does not know, each with the id of the chunk it was found in; they are
/// written back at the end of that chunk's children, so a round trip keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnknownChunks(pub Vec<(String, Chunk)>);

impl UnknownChunks {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The ids of the chunks kept.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(_, chunk)| chunk.id.as_str())
    }

    pub(super) fn keep(&mut self, parent: &str, chunk: &ChunkRef) {
        self.0.push((parent.to_owned(), detached(chunk.to_chunk())));
    }

    /// The chunks kept from `parent`.
    pub(super) fn of<'a>(&'a self, parent: &'a str) -> impl Iterator<Item = Chunk> + 'a {
        self.0
            .iter()
            .filter(move |(id, _)| id == parent)
            .map(|(_, chunk)| chunk.clone())
    }

    /// `known` children of `parent`, then the unknown ones kept from it.
    pub(super) fn with(&self, parent: &str, mut known: Vec<Chunk>) -> Vec<Chunk> {
        known.extend(self.of(parent));
        known
    }
}
