//! The chunk stream: chunks of `id length, id, size, content`, ended by a `00` byte.
//!
//! Parsing keeps each chunk's exact bytes (content, and the widths of its id length and size,
//! which TombLib pads) so writing a parsed tree gives back the input byte for byte. Children
//! are parsed on demand with [`children`], because a parent's content starts with fields only
//! the parent's id explains.

use super::error::{Wad2Error, Wad2Problem};
use super::leb128;

/// Deeper nesting than this is refused: TombLib's deepest tree (W2Moveables, W2Moveable, W2Ani2,
/// W2Kf, W2KfBB, W2BBMin) is 6 levels, and a caller recursing through [`children`] stays bounded.
pub const MAX_DEPTH: u32 = 64;

/// One chunk: its id and its content, with the widths its numbers were written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// ASCII, starting `W2`.
    pub id: String,
    pub widths: Widths,
    pub content: ChunkContent,
}

/// The byte widths a chunk's id length and size were encoded in. TombLib pads some sizes (4 bytes
/// for parents, 5 for W2Textures, 10 for W2AnimatedTextureSets, 2 for W2Frame); 0 means minimal.
/// A width too small for its number is widened to the minimal encoding when writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Widths {
    pub id_length: u8,
    pub size: u8,
}

/// A chunk's content bytes, and where they were read from (for errors in what is parsed of them).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChunkContent {
    pub bytes: Vec<u8>,
    /// Offset of the first content byte in the file (or the inflated stream when `inflated`).
    pub offset: u64,
    pub inflated: bool,
    /// 0 for a top-level chunk, its parent's plus one for a child.
    pub depth: u32,
}

/// A chunk borrowed from the bytes it was read from: what the typed layer walks, so that a file's
/// bytes are not copied once a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkRef<'a> {
    pub id: &'a str,
    pub widths: Widths,
    pub content: &'a [u8],
    /// Offset of the first content byte in the file (or the inflated stream when `inflated`).
    pub offset: u64,
    pub inflated: bool,
    pub depth: u32,
}

impl<'a> ChunkRef<'a> {
    /// The chunk with its bytes copied.
    pub fn to_chunk(&self) -> Chunk {
        Chunk {
            id: self.id.to_owned(),
            widths: self.widths,
            content: ChunkContent {
                bytes: self.content.to_vec(),
                offset: self.offset,
                inflated: self.inflated,
                depth: self.depth,
            },
        }
    }

    /// The child chunks of this chunk's content, whose stream starts at byte `start` (after its
    /// own fields) and must end, with its `00`, at the content's end.
    pub fn children(&self, start: usize) -> Result<Vec<ChunkRef<'a>>, Wad2Error> {
        children_in(self.content, self.place(), start)
    }

    fn place(&self) -> Place {
        Place {
            offset: self.offset,
            inflated: self.inflated,
            depth: self.depth,
        }
    }
}

impl Chunk {
    /// This chunk as a borrowed view.
    pub fn as_ref(&self) -> ChunkRef<'_> {
        ChunkRef {
            id: &self.id,
            widths: self.widths,
            content: &self.content.bytes,
            offset: self.content.offset,
            inflated: self.content.inflated,
            depth: self.content.depth,
        }
    }

    /// A chunk made by code, with minimal widths.
    pub fn new(id: &str, bytes: Vec<u8>) -> Chunk {
        Chunk {
            id: id.to_owned(),
            widths: Widths::default(),
            content: ChunkContent {
                bytes,
                ..ChunkContent::default()
            },
        }
    }

    /// A parent made by code: its own `fields`, then its `children` stream with its `00`.
    pub fn parent(id: &str, fields: &[u8], children: &[Chunk]) -> Chunk {
        let mut bytes = fields.to_vec();
        write_stream(children, &mut bytes);
        Chunk::new(id, bytes)
    }

    /// Appends this chunk's encoding.
    pub fn write(&self, out: &mut Vec<u8>) {
        leb128::write_padded(self.id.len() as i64, usize::from(self.widths.id_length), out);
        out.extend_from_slice(self.id.as_bytes());
        let size = self.content.bytes.len() as i64;
        leb128::write_padded(size, usize::from(self.widths.size), out);
        out.extend_from_slice(&self.content.bytes);
    }
}

/// Appends `chunks` and the `00` that ends a stream.
pub fn write_stream(chunks: &[Chunk], out: &mut Vec<u8>) {
    for chunk in chunks {
        chunk.write(out);
    }
    out.push(0);
}

/// The child chunks of `content`, whose stream starts at byte `start` (after the parent's own
/// fields) and must end, with its `00`, at the content's end.
pub fn children(content: &ChunkContent, start: usize) -> Result<Vec<Chunk>, Wad2Error> {
    let place = Place {
        offset: content.offset,
        inflated: content.inflated,
        depth: content.depth,
    };
    let refs = children_in(&content.bytes, place, start)?;
    Ok(refs.iter().map(ChunkRef::to_chunk).collect())
}

/// The children of content `bytes` (lying at `place`) from byte `start`.
fn children_in(bytes: &[u8], place: Place, start: usize) -> Result<Vec<ChunkRef<'_>>, Wad2Error> {
    let at = |offset: usize, problem| Wad2Error {
        offset: place.offset + offset as u64,
        inflated: place.inflated,
        problem,
    };
    if place.depth + 1 > MAX_DEPTH {
        return Err(at(0, Wad2Problem::TooDeep { limit: MAX_DEPTH }));
    }
    if start > bytes.len() {
        let length = bytes.len();
        return Err(at(0, Wad2Problem::BadChildStart { start, length }));
    }
    let inner = Place {
        depth: place.depth + 1,
        ..place
    };
    let (chunks, end) = read_refs(bytes, start, inner)?;
    match bytes.len() - end {
        0 => Ok(chunks),
        extra => Err(at(end, Wad2Problem::TrailingBytes { extra: extra as u64 })),
    }
}

/// Where a byte slice lies, for offsets in errors and the depth of the chunks read from it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Place {
    pub offset: u64,
    pub inflated: bool,
    pub depth: u32,
}

/// Reads chunks from `bytes[start..]` up to and including the ending `00`, borrowed; returns them
/// and the position after that `00`.
pub(super) fn read_refs(
    bytes: &[u8],
    start: usize,
    place: Place,
) -> Result<(Vec<ChunkRef<'_>>, usize), Wad2Error> {
    let mut pos = start;
    let mut chunks = Vec::new();
    loop {
        let at = |offset: usize, problem| Wad2Error {
            offset: place.offset + offset as u64,
            inflated: place.inflated,
            problem,
        };
        let number = |pos: &mut usize| leb128::read(bytes, pos).map_err(|e| at(e.offset as usize, e.problem));
        let id_start = pos;
        let id_length = number(&mut pos)?;
        if id_length == 0 {
            return Ok((chunks, pos));
        }
        let id_length_width = pos - id_start;
        let available = (bytes.len() - pos) as u64;
        let Some(id_end) = usize::try_from(id_length)
            .ok()
            .filter(|&length| length as u64 <= available)
            .map(|length| pos + length)
        else {
            return Err(at(
                id_start,
                Wad2Problem::BadIdLength {
                    length: id_length,
                    available,
                },
            ));
        };
        let id_bytes = &bytes[pos..id_end];
        if !id_bytes.is_ascii() || !id_bytes.starts_with(b"W2") {
            let id = String::from_utf8_lossy(id_bytes).into_owned();
            return Err(at(pos, Wad2Problem::BadId { id }));
        }
        // ASCII, checked above.
        let id = std::str::from_utf8(id_bytes).unwrap_or_default();
        pos = id_end;
        let size_start = pos;
        let size = number(&mut pos)?;
        let size_width = pos - size_start;
        let available = (bytes.len() - pos) as u64;
        let Some(content_end) = usize::try_from(size)
            .ok()
            .filter(|&size| size as u64 <= available)
            .map(|size| pos + size)
        else {
            let id = id.to_owned();
            return Err(at(size_start, Wad2Problem::BadSize { id, size, available }));
        };
        // Widths are at most leb128::MAX_WIDTH, so they fit a byte.
        let widths = Widths {
            id_length: id_length_width as u8,
            size: size_width as u8,
        };
        chunks.push(ChunkRef {
            id,
            widths,
            content: &bytes[pos..content_end],
            offset: place.offset + pos as u64,
            inflated: place.inflated,
            depth: place.depth,
        });
        pos = content_end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(bytes: &[u8]) -> Result<(Vec<Chunk>, usize), Wad2Error> {
        let refs =
            |(chunks, end): (Vec<ChunkRef>, usize)| (chunks.iter().map(ChunkRef::to_chunk).collect(), end);
        read_refs(
            bytes,
            0,
            Place {
                offset: 0,
                inflated: false,
                depth: 0,
            },
        )
        .map(refs)
    }

    #[test]
    fn reads_and_writes_padded_widths_back() {
        // W2A with a 4-byte padded size of 7, holding a child stream: W2B (1 byte) then 00.
        let mut bytes = vec![3, b'W', b'2', b'A', 0x87, 0x80, 0x80, 0x00];
        bytes.extend_from_slice(&[3, b'W', b'2', b'B', 1, 7, 0]);
        bytes.push(0);
        let (chunks, end) = top(&bytes).unwrap();
        assert_eq!(end, bytes.len());
        assert_eq!(
            chunks[0].widths,
            Widths {
                id_length: 1,
                size: 4
            }
        );
        let inner = children(&chunks[0].content, 0).unwrap();
        assert_eq!(inner[0].id, "W2B");
        assert_eq!(inner[0].content.bytes, [7]);
        assert_eq!(inner[0].content.offset, 13);
        assert_eq!(inner[0].content.depth, 1);
        let mut out = Vec::new();
        write_stream(&chunks, &mut out);
        assert_eq!(out, bytes);
    }

    #[test]
    fn built_parent_matches_its_parse() {
        let parent = Chunk::parent("W2Moveable", &[0x05], &[Chunk::new("W2Mesh", vec![0])]);
        let mut out = Vec::new();
        parent.write(&mut out);
        out.push(0);
        let (chunks, _) = top(&out).unwrap();
        let inner = children(&chunks[0].content, 1).unwrap();
        assert_eq!(inner[0].id, "W2Mesh");
    }

    #[test]
    fn refuses_hostile_sizes_and_ids() {
        let mut huge = vec![3, b'W', b'2', b'A'];
        leb128::write(i64::MAX, &mut huge);
        let error = top(&huge).unwrap_err();
        assert_eq!(error.offset, 4);
        assert!(matches!(error.problem, Wad2Problem::BadSize { .. }), "{error}");
        assert!(matches!(
            top(&[0x7F]).unwrap_err().problem,
            Wad2Problem::BadIdLength { .. }
        ));
        assert!(matches!(
            top(&[2, b'X', b'Y', 0]).unwrap_err().problem,
            Wad2Problem::BadId { .. }
        ));
        assert!(matches!(
            top(&[3, b'W', b'2']).unwrap_err().problem,
            Wad2Problem::BadIdLength { .. }
        ));
    }

    #[test]
    fn refuses_trailing_bytes_and_deep_nesting() {
        let content = ChunkContent {
            bytes: vec![0, 9],
            ..ChunkContent::default()
        };
        let error = children(&content, 0).unwrap_err();
        assert_eq!(error.problem, Wad2Problem::TrailingBytes { extra: 1 });
        let deep = ChunkContent {
            bytes: vec![0],
            depth: MAX_DEPTH,
            ..ChunkContent::default()
        };
        assert_eq!(
            children(&deep, 0).unwrap_err().problem,
            Wad2Problem::TooDeep { limit: MAX_DEPTH }
        );
        assert!(matches!(
            children(&deep, 5).unwrap_err().problem,
            Wad2Problem::TooDeep { .. }
        ));
        let shallow = ChunkContent {
            bytes: vec![0],
            ..ChunkContent::default()
        };
        assert!(matches!(
            children(&shallow, 5).unwrap_err().problem,
            Wad2Problem::BadChildStart { .. }
        ));
    }
}
