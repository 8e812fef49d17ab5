//! Errors of the Wad2 container codec: what is wrong and at which byte.

/// A Wad2 file whose container cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Wad2 {}byte {offset}: {problem}", if *.inflated { "inflated chunk stream, " } else { "" })]
pub struct Wad2Error {
    /// Byte offset from the start of the file, or of the inflated chunk stream when `inflated`.
    pub offset: u64,
    /// The offset counts in the chunk stream inflated from a compressed file, not in the file.
    pub inflated: bool,
    pub problem: Wad2Problem,
}

/// What is wrong with the bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Wad2Problem {
    #[error("file ends inside {what}; the file is cut short, copy or save it again")]
    Truncated { what: &'static str },
    #[error("a LEB128 number runs past 10 bytes; the file is corrupt")]
    NumberTooLong,
    #[error("a LEB128 number does not fit in 64 bits; the file is corrupt")]
    NumberTooLarge,
    #[error("not a Wad2 file: it starts {found:02X?}, a Wad2 starts with \"WAD2\"")]
    NotWad2 { found: Vec<u8> },
    #[error("this is the deprecated Wad2 format (magic \"Wad2\"), which Tomb Editor no longer reads either; open and save it in an old WadTool first")]
    DeprecatedWad2,
    #[error("unknown container flags {flags:#010X} (only bit 31, compression, is defined); a newer Tomb Editor may have written it")]
    UnknownFlags { flags: u32 },
    #[error("compressed chunk stream claims {length} bytes, {available} are left")]
    BadCompressedLength { length: i64, available: u64 },
    #[error("compressed chunk stream: {reason}")]
    Inflate { reason: String },
    #[error("compressed chunk stream: {0}")]
    TooMuch(crate::TooMuch),
    #[error("chunk id length {length} is not possible ({available} bytes left)")]
    BadIdLength { length: i64, available: u64 },
    #[error("chunk id {id:?} is not an ASCII id starting \"W2\"")]
    BadId { id: String },
    #[error("chunk {id} claims {size} bytes of content, {available} are left")]
    BadSize { id: String, size: i64, available: u64 },
    #[error("{extra} bytes follow the end of the child chunk stream inside its parent")]
    TrailingBytes { extra: u64 },
    #[error("chunks nest deeper than {limit} levels; the file is corrupt")]
    TooDeep { limit: u32 },
    #[error("a child chunk stream cannot start at byte {start} of content of {length} bytes")]
    BadChildStart { start: usize, length: usize },
    #[error("chunk {id}: its {what} run past the chunk's end; the file is corrupt")]
    FieldsCutShort { id: String, what: &'static str },
    #[error("chunk {id} holds {size} bytes where {expected} belong; the file is corrupt")]
    BadLeafSize {
        id: String,
        size: usize,
        expected: &'static str,
    },
    #[error("chunk {id} of {width} x {height} pixels holds {bytes} bytes of pixels, not width x height x 4; the file is corrupt")]
    BadImage {
        id: String,
        width: i64,
        height: i64,
        bytes: usize,
    },
    #[error("a {parent} chunk has no {child} chunk, which it needs; open and save the file in WadTool")]
    MissingChunk {
        parent: &'static str,
        child: &'static str,
    },
}
