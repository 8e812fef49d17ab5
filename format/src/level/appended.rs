//! Data appended after a level proper: TRX (the TR1X/TR2X engine) and Tomb Editor when it builds
//! for TRX write injection data there, which the games' own readers never reach.
//!
//! TRX's block: the magic `"TRXJ"`, a version word, a config-option word, then one zlib chunk
//! headed by its uncompressed and compressed sizes (its injection chunks inside). The reader
//! passes over it and says what it is; nothing in it changes the level's objects.

use std::fmt;

/// TRX's injection magic, `"TRXJ"`.
pub const TRX_MAGIC: [u8; 4] = *b"TRXJ";

/// Bytes after the level proper, which the reader passed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// Where they start in the file.
    pub offset: u64,
    /// How many there are.
    pub len: u64,
    /// What they are, as far as their header tells.
    pub what: AppendedKind,
}

/// What appended bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendedKind {
    /// TRX's injection data: its version word, and the sizes of its zlib chunk when its header
    /// is whole and the chunk fits in the file.
    Trx { version: u32, chunk: Option<TrxChunk> },
}

/// The sizes of TRX's zlib chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrxChunk {
    pub inflated: u32,
    pub compressed: u32,
}

impl Appended {
    /// Recognises `tail` (the bytes after the level, starting at file byte `offset`) as data
    /// some engine appends; `None` when no known engine writes such bytes, which the readers
    /// then refuse as trailing bytes.
    pub(super) fn recognise(tail: &[u8], offset: usize) -> Option<Appended> {
        if !tail.starts_with(&TRX_MAGIC) {
            return None;
        }
        let word = |at: usize| {
            tail.get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let chunk = match (word(12), word(16)) {
            (Some(inflated), Some(compressed))
                if (compressed as u64) <= (tail.len() as u64).saturating_sub(20) =>
            {
                Some(TrxChunk { inflated, compressed })
            }
            _ => None,
        };
        Some(Appended {
            offset: offset as u64,
            len: tail.len() as u64,
            what: AppendedKind::Trx {
                version: word(4).unwrap_or(0),
                chunk,
            },
        })
    }
}

/// `N bytes after the level: TRX injection data (version 4, a zlib chunk of 120 bytes
/// inflating to 300)`: what `info` prints.
impl fmt::Display for Appended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes after the level: ", self.len)?;
        match &self.what {
            AppendedKind::Trx { version, chunk } => {
                write!(f, "TRX injection data (version {version}")?;
                match chunk {
                    Some(c) => write!(
                        f,
                        ", a zlib chunk of {} bytes inflating to {})",
                        c.compressed, c.inflated
                    ),
                    None => write!(f, ", its header cut short)"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trx_block(payload: &[u8]) -> Vec<u8> {
        let mut b = TRX_MAGIC.to_vec();
        for w in [4u32, 0, 300, payload.len() as u32] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(payload);
        b
    }

    #[test]
    fn a_trx_block_is_recognised_with_its_sizes() {
        let tail = trx_block(&[7; 12]);
        let a = Appended::recognise(&tail, 1000).unwrap();
        assert_eq!((a.offset, a.len), (1000, 32));
        assert_eq!(
            a.to_string(),
            "32 bytes after the level: TRX injection data (version 4, a zlib chunk of 12 bytes inflating to 300)"
        );
    }

    #[test]
    fn a_cut_trx_header_is_still_trx_and_other_bytes_are_not() {
        let tail = trx_block(&[7; 12]);
        let cut = Appended::recognise(&tail[..10], 0).unwrap();
        assert!(cut.to_string().ends_with("its header cut short)"), "{cut}");
        assert!(Appended::recognise(b"TRX", 0).is_none());
        assert!(Appended::recognise(b"junkjunk", 0).is_none());
    }
}
