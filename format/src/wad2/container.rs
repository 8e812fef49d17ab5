//! The Wad2 file around the chunk stream: magic `WAD2`, u32 flags, then the stream, plain or zlib.

use std::borrow::Cow;
use std::io::Read;

use super::chunks::{read_refs, write_stream, Chunk, ChunkRef, Place};
use super::error::{Wad2Error, Wad2Problem};
use crate::{Bound, Limits};

const MAGIC: &[u8; 4] = b"WAD2";
/// The deprecated format TombLib refuses too.
const OLD_MAGIC: &[u8; 4] = b"Wad2";
/// Flag bit 31: an i32 length and a zlib stream holding the chunk stream follow.
const COMPRESSED: u32 = 1 << 31;
/// Bytes before the chunk stream of an uncompressed file.
const HEADER_LENGTH: usize = 8;

/// A Wad2 file's top-level chunks, and whether the file held them zlib-compressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wad2File {
    /// Written back compressed too, by flate2 (so not byte for byte; TombLib never compresses).
    pub compressed: bool,
    pub chunks: Vec<Chunk>,
}

/// Reads a Wad2 file's container: its header and its top-level chunk stream, which must end with
/// the file (or the inflated stream). Children are read on demand with [`super::children`].
pub fn read(bytes: &[u8]) -> Result<Wad2File, Wad2Error> {
    with_top_level(bytes, |chunks, compressed| {
        Ok(Wad2File {
            compressed,
            chunks: chunks.iter().map(ChunkRef::to_chunk).collect(),
        })
    })
}

/// Calls `f` with a Wad2 file's top-level chunks, borrowed from the file (or its inflated
/// stream), and whether it was compressed.
pub(crate) fn with_top_level<R>(
    bytes: &[u8],
    f: impl FnOnce(&[ChunkRef<'_>], bool) -> Result<R, Wad2Error>,
) -> Result<R, Wad2Error> {
    let at = |offset: usize, problem| Wad2Error {
        offset: offset as u64,
        inflated: false,
        problem,
    };
    let Some(magic) = bytes.get(..4) else {
        return Err(at(
            0,
            Wad2Problem::Truncated {
                what: "the Wad2 magic",
            },
        ));
    };
    if magic == OLD_MAGIC {
        return Err(at(0, Wad2Problem::DeprecatedWad2));
    }
    if magic != MAGIC {
        return Err(at(
            0,
            Wad2Problem::NotWad2 {
                found: magic.to_vec(),
            },
        ));
    }
    let Some(flags) = u32_at(bytes, 4) else {
        return Err(at(
            4,
            Wad2Problem::Truncated {
                what: "the container flags",
            },
        ));
    };
    if flags & !COMPRESSED != 0 {
        return Err(at(4, Wad2Problem::UnknownFlags { flags }));
    }
    let compressed = flags & COMPRESSED != 0;
    let (stream, place) = if compressed {
        (
            Cow::Owned(inflate(bytes)?),
            Place {
                offset: 0,
                inflated: true,
                depth: 0,
            },
        )
    } else {
        (
            Cow::Borrowed(&bytes[HEADER_LENGTH..]),
            Place {
                offset: HEADER_LENGTH as u64,
                inflated: false,
                depth: 0,
            },
        )
    };
    let (chunks, end) = read_refs(&stream, 0, place)?;
    if end != stream.len() {
        let extra = (stream.len() - end) as u64;
        return Err(Wad2Error {
            offset: place.offset + end as u64,
            inflated: compressed,
            problem: Wad2Problem::TrailingBytes { extra },
        });
    }
    f(&chunks, compressed)
}

/// Writes a Wad2 file: a parsed uncompressed file comes back byte for byte.
pub fn write(file: &Wad2File) -> Vec<u8> {
    let mut stream = Vec::new();
    write_stream(&file.chunks, &mut stream);
    let mut out = MAGIC.to_vec();
    if !file.compressed {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&stream);
        return out;
    }
    out.extend_from_slice(&COMPRESSED.to_le_bytes());
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let zlib = std::io::Write::write_all(&mut encoder, &stream)
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    out.extend_from_slice(&(zlib.len() as i32).to_le_bytes());
    out.extend_from_slice(&zlib);
    out
}

fn u32_at(bytes: &[u8], offset: usize) -> Option<u32> {
    let word = bytes.get(offset..offset + 4)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

/// The chunk stream of a compressed file, inflated within [`Limits::wad2_inflated_bytes`].
fn inflate(bytes: &[u8]) -> Result<Vec<u8>, Wad2Error> {
    let at = |offset: u64, problem| Wad2Error {
        offset,
        inflated: false,
        problem,
    };
    let Some(length) = u32_at(bytes, HEADER_LENGTH) else {
        return Err(at(
            8,
            Wad2Problem::Truncated {
                what: "the compressed stream's length",
            },
        ));
    };
    let length = i64::from(length as i32);
    let start = HEADER_LENGTH + 4;
    let available = (bytes.len() - start) as u64;
    let Some(zlib) = usize::try_from(length)
        .ok()
        .and_then(|length| bytes.get(start..start + length))
    else {
        return Err(at(8, Wad2Problem::BadCompressedLength { length, available }));
    };
    inflate_within(zlib, Limits::DEFAULT.wad2_inflated_bytes, bytes.len() as u64)
        .map_err(|problem| at(start as u64, problem))
}

/// Inflates `zlib`, refusing past what `bound` allows a file of `file_length` bytes.
fn inflate_within(zlib: &[u8], bound: Bound, file_length: u64) -> Result<Vec<u8>, Wad2Problem> {
    let limit = bound.allowed(file_length);
    let mut stream = Vec::new();
    // One byte past the limit tells a stream that inflates to more.
    flate2::read::ZlibDecoder::new(zlib)
        .take(limit.saturating_add(1))
        .read_to_end(&mut stream)
        .map_err(|e| Wad2Problem::Inflate {
            reason: e.to_string(),
        })?;
    bound
        .check(stream.len() as u64, file_length)
        .map_err(Wad2Problem::TooMuch)?;
    Ok(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_file(compressed: bool) -> Wad2File {
        let chunks = vec![
            Chunk::new("W2SuggestedGameVersion", vec![18]),
            Chunk::parent("W2Moveables", &[], &[Chunk::parent("W2Moveable", &[0x05], &[])]),
        ];
        Wad2File { compressed, chunks }
    }

    #[test]
    fn plain_and_compressed_round_trip() {
        for compressed in [false, true] {
            let file = small_file(compressed);
            let bytes = write(&file);
            assert_eq!(
                read(&bytes).unwrap(),
                Wad2File {
                    chunks: read(&bytes).unwrap().chunks,
                    ..file.clone()
                }
            );
            let again = read(&bytes).unwrap();
            assert_eq!(write(&again), bytes);
            let ids: Vec<_> = again.chunks.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, ["W2SuggestedGameVersion", "W2Moveables"]);
            assert_eq!(again.chunks[0].content.inflated, compressed);
        }
    }

    #[test]
    fn refuses_other_magics_and_flags() {
        assert_eq!(
            read(b"Wad2\0\0\0\0\0").unwrap_err().problem,
            Wad2Problem::DeprecatedWad2
        );
        assert!(matches!(
            read(b"WAD\0").unwrap_err().problem,
            Wad2Problem::NotWad2 { .. }
        ));
        assert!(matches!(
            read(b"WAD").unwrap_err().problem,
            Wad2Problem::Truncated { .. }
        ));
        let error = read(b"WAD2\x01\0\0\0\0").unwrap_err();
        assert_eq!(error.problem, Wad2Problem::UnknownFlags { flags: 1 });
        assert_eq!(error.offset, 4);
    }

    #[test]
    fn refuses_bad_compressed_lengths_and_bombs() {
        let negative = [b"WAD2", &COMPRESSED.to_le_bytes()[..], &(-1i32).to_le_bytes()[..]].concat();
        assert!(matches!(
            read(&negative).unwrap_err().problem,
            Wad2Problem::BadCompressedLength { .. }
        ));
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut encoder, &[0u8; 5000]).unwrap();
        let zlib = encoder.finish().unwrap();
        let bound = Bound {
            base: 4000,
            ..Limits::DEFAULT.wad2_inflated_bytes
        };
        let problem = inflate_within(&zlib, bound, 0).unwrap_err();
        assert!(matches!(problem, Wad2Problem::TooMuch(_)), "{problem}");
        assert_eq!(inflate_within(&zlib, bound, 1000).unwrap().len(), 5000);
        assert!(matches!(
            inflate_within(&[1, 2, 3], bound, 0),
            Err(Wad2Problem::Inflate { .. })
        ));
    }
}
