//! Errors of the WAD reader and writer: what went wrong, where, and what to do.

use std::fmt;

/// The part of a WAD an error concerns, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Version,
    TextureSamples,
    TexturePages,
    MeshPointers,
    Meshes,
    Animations,
    StateChanges,
    Dispatches,
    Commands,
    Links,
    Keyframes,
    Moveables,
    Statics,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Section::Version => "version",
            Section::TextureSamples => "texture samples",
            Section::TexturePages => "texture pages",
            Section::MeshPointers => "mesh pointers",
            Section::Meshes => "meshes",
            Section::Animations => "animations",
            Section::StateChanges => "state changes",
            Section::Dispatches => "dispatches",
            Section::Commands => "commands",
            Section::Links => "links",
            Section::Keyframes => "keyframes",
            Section::Moveables => "moveables",
            Section::Statics => "statics",
        })
    }
}

/// A WAD that cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{section} section, byte {offset}{}: {problem}", context.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
pub struct ReadError {
    pub section: Section,
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// The object or record concerned, e.g. "CROCODILE (moveable 51), animation 5".
    pub context: Option<String>,
    pub problem: Problem,
}

/// What is wrong with the bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("file ends after {available} more bytes, {needed} needed; the file is cut short, copy or export it again")]
    Truncated { needed: u64, available: u64 },
    #[error("{count} {what} of {record_size} bytes do not fit in the {available} bytes left; the count is corrupt")]
    CountTooLarge {
        what: &'static str,
        count: u64,
        record_size: u64,
        available: u64,
    },
    #[error("version {0} is not a TRLE WAD (expected 129 or 130); is this a WAD file?")]
    UnsupportedVersion(u32),
    #[error("mesh pointer {pointer} names offset {offset}, which is not the start of a mesh (it falls inside the mesh at {inside})")]
    MeshPointerNotAtMeshStart {
        pointer: usize,
        offset: u32,
        inside: u32,
    },
    #[error("{what} {index} is out of range (there are {len}); the file is corrupt")]
    IndexOutOfRange {
        what: &'static str,
        index: u64,
        len: u64,
    },
    #[error("polygon shape word {0} is neither 8 (triangle) nor 9 (quad)")]
    UnknownPolygonShape(u16),
    #[error("the mesh has an odd number of quads but its padding word is missing")]
    MissingQuadPadding,
    #[error("unknown command opcode {0} (known: 1 to 6)")]
    UnknownCommand(u16),
    #[error("keyframe records are {size} words but the angles of {meshes} meshes need {needed}")]
    KeyframeTooSmall { size: u8, meshes: usize, needed: usize },
    #[error(transparent)]
    TooMuchWork(#[from] crate::TooMuchWork),
    #[error("{0} bytes follow the statics table; the file is not a WAD or has data appended")]
    TrailingBytes(u64),
}

/// A model that cannot be written as a WAD.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("{what}: {value} does not fit the WAD format (at most {max}); {hint}")]
    OutOfRange {
        what: String,
        value: u64,
        max: u64,
        hint: &'static str,
    },
    #[error("the layout does not match the model ({0}); write without the layout to lay the file out anew")]
    LayoutMismatch(String),
    #[error("{0}")]
    Invalid(String),
}
