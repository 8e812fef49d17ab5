//! Errors of the level readers: what went wrong, where, and what to do.

use std::fmt;

/// The part of a level file an error concerns, in TR1 file order (TR2/TR3 start with the
/// palettes, and TR3 puts the object textures after the animated textures).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Version,
    Textiles,
    /// TR4: the zlib chunk of the level data (offsets inside it count in its inflated bytes); TR5:
    /// the level data stored as it is, and the 32 bytes before it.
    LevelData,
    Rooms,
    FloorData,
    Meshes,
    MeshPointers,
    Animations,
    StateChanges,
    Dispatches,
    Commands,
    MeshTrees,
    Frames,
    Models,
    StaticMeshes,
    ObjectTextures,
    SpriteTextures,
    SpriteSequences,
    Cameras,
    FlybyCameras,
    SoundSources,
    Boxes,
    Overlaps,
    Zones,
    AnimatedTextures,
    Items,
    AiObjects,
    LightMap,
    Palette,
    CinematicFrames,
    DemoData,
    SoundMap,
    SoundDetails,
    SoundSamples,
    SampleIndices,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Section::Version => "version",
            Section::Textiles => "textiles",
            Section::LevelData => "level data chunk",
            Section::Rooms => "rooms",
            Section::FloorData => "floor data",
            Section::Meshes => "mesh data",
            Section::MeshPointers => "mesh pointers",
            Section::Animations => "animations",
            Section::StateChanges => "state changes",
            Section::Dispatches => "anim dispatches",
            Section::Commands => "anim commands",
            Section::MeshTrees => "mesh trees",
            Section::Frames => "frames",
            Section::Models => "models",
            Section::StaticMeshes => "static meshes",
            Section::ObjectTextures => "object textures",
            Section::SpriteTextures => "sprite textures",
            Section::SpriteSequences => "sprite sequences",
            Section::Cameras => "cameras",
            Section::FlybyCameras => "flyby cameras",
            Section::SoundSources => "sound sources",
            Section::Boxes => "boxes",
            Section::Overlaps => "overlaps",
            Section::Zones => "zones",
            Section::AnimatedTextures => "animated textures",
            Section::Items => "items",
            Section::AiObjects => "AI objects",
            Section::LightMap => "light map",
            Section::Palette => "palette",
            Section::CinematicFrames => "cinematic frames",
            Section::DemoData => "demo data",
            Section::SoundMap => "sound map",
            Section::SoundDetails => "sound details",
            Section::SoundSamples => "sound samples",
            Section::SampleIndices => "sample indices",
        })
    }
}

/// A level that cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{section} section, byte {offset}{}: {problem}", context.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
pub struct LevelError {
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
    #[error("file ends after {available} more bytes, {needed} needed; the file is cut short, copy it again")]
    Truncated { needed: u64, available: u64 },
    #[error("{count} {what} of {record_size} bytes do not fit in the {available} bytes left; the count is corrupt")]
    CountTooLarge {
        what: &'static str,
        count: u64,
        record_size: u64,
        available: u64,
    },
    #[error("version {0:#010x} is not a Tomb Raider level (TR1 0x00000020, TR2 0x0000002d, TR3 0xff080038/0xff180038, TR4 \"TR4\\0\")")]
    UnknownVersion(u32),
    #[error("the {what} chunk {detail}; the file is corrupt or was cut short")]
    Chunk { what: &'static str, detail: String },
    #[error("expected the section marker \"{expected}\" here but found bytes {found:02x?}; the level data is corrupt or not TR4's layout")]
    MissingMarker { expected: String, found: Vec<u8> },
    #[error("{what} {index} is out of range (there are {len}); the file is corrupt")]
    IndexOutOfRange {
        what: &'static str,
        index: u64,
        len: u64,
    },
    #[error("mesh pointer {pointer} names offset {offset}, which falls inside the mesh at {inside}")]
    MeshPointerNotAtMeshStart {
        pointer: usize,
        offset: u32,
        inside: u32,
    },
    #[error(transparent)]
    TooMuchWork(#[from] crate::TooMuchWork),
    #[error("unknown command opcode {0} (known: 1 to 6)")]
    UnknownCommand(u16),
    #[error("the frame holds {values} angle sets for {meshes} meshes, and filling in the missing ones over the file's frames would take more memory than such a file can need; the file is corrupt")]
    TooManyMissingAngles { values: u16, meshes: usize },
    #[error("frames of {size} words cannot hold the box, offset and angles of {meshes} meshes ({needed} words needed); the animation's FrameSize is corrupt")]
    FrameTooSmall { size: u8, meshes: usize, needed: usize },
    #[error("{0} texture samples are more than polygons can name (65536)")]
    TooManySamples(usize),
    #[error(
        "{0} bytes follow the level's last section; the file is not a level of its version or has data appended"
    )]
    TrailingBytes(u64),
}
