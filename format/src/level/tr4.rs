//! TR4 levels (`"TR4\0"`): what differs from TR1–TR3 (the model is built by [`super::build`]).
//!
//! The file: version, three u16 textile counts (room, object, bump), then four zlib chunks,
//! each headed by its uncompressed and compressed sizes: the 32-bit textiles, the same
//! textiles at 16 bits, the two 32-bit misc textiles (font and sky), the level data; then the
//! sound samples (a count, and per sample its uncompressed size, compressed size and bytes: a
//! whole WAV file, [`super::samples`]).
//! Only the 32-bit textiles and the level data are inflated; the other chunks are
//! bounds-checked and skipped. Offsets in errors about the level data count in its inflated
//! bytes (the error's context says so and where the chunk is in the file).
//!
//! The level data is laid out as TR3's sections after the textiles, with TR4's records:
//! 46-byte room lights, textured faces with an effects word (no coloured faces), 40-byte
//! animations, the `SPR` marker before the sprite textures, flyby cameras after the cameras,
//! the animated-texture UV count and the `TEX` marker before the 38-byte object textures, AI
//! objects after the items, no light map, palette or cinematic frames.
//!
//! - pages: the 32-bit textiles ([`super::pages`]);
//! - frames: FrameSize words, one-axis values on the 4096 scale, as in WADs ([`super::frames`]).
//!
//! TR5 levels start with `"TR4\0"` too; they are recognised by the 28 zero bytes after their
//! misc textiles and read by [`super::tr5`].

use std::io::Read;

use wadforge_model::catalog::Game;

use super::appended::Appended;
use super::build::{self, Level};
use super::bytes::{Cursor, View};
use super::error::{LevelError, Problem, Section};
use super::pages::TEXTILE32_BYTES;
use super::samples::SampleTables;
use super::sounds::{SoundTables, SOUND_DETAILS_SIZE};
use super::tables::{Tables, TR4_OBJECT_TEXTURE_SIZE};
use super::tr123::{walk_object_tables, walk_rooms};
use crate::bytes::FileError;
use crate::{Bound, Limits};

/// Deflate cannot expand data by more than about 1032 to 1: a larger claimed size is corrupt,
/// and refusing it keeps a forged header from making the reader allocate without limit.
const MAX_INFLATE_RATIO: u64 = 1032;
/// Entries of TR4's sound map.
const SOUND_MAP_ENTRIES: usize = 370;

pub(crate) fn read(bytes: &[u8]) -> Result<Level, LevelError> {
    let mut c = Cursor::new(bytes);
    let version = c.u32(Section::Version)?;
    // What all the inflated chunks may take together, refused before anything is inflated.
    let mut budget = Limits::DEFAULT.inflated_bytes.allowed(bytes.len() as u64);
    let textiles = read_textiles(&mut c, &mut budget)?;
    if looks_like_tr5(&c) {
        return super::tr5::read(c, version, &textiles);
    }
    let level_at = c.offset();
    let data = inflate(
        &mut c,
        Limit {
            what: "level data",
            section: Section::LevelData,
            most: (u64::MAX, ""),
            budget: &mut budget,
        },
    )?;
    let at_level_data = || format!("in the inflated level data chunk (its header at file byte {level_at})");
    let (wavs, appended) = read_sound_samples(&mut c)?;
    let textile_count = textiles.len() / TEXTILE32_BYTES;
    let mut tables = walk_level_data(&data, version, bytes.len(), textile_count, &textiles)
        .map_err(|e| e.within(at_level_data))?;
    tables.appended = appended;
    if let Some(sounds) = &mut tables.sounds {
        sounds.samples = SampleTables::Appended(wavs);
    }
    build::build(&tables).map_err(|e| e.within(at_level_data))
}

/// The three textile counts and the three textile chunks after the version word (TR4's and
/// TR5's): the 32-bit textiles inflated (within `budget`), the 16-bit and misc ones skipped.
pub(super) fn read_textiles(c: &mut Cursor, budget: &mut u64) -> Result<Vec<u8>, LevelError> {
    let mut textile_count = 0;
    for what in ["room textiles", "object textiles", "bump textiles"] {
        textile_count += c
            .u16(Section::Textiles)
            .map_err(|e| e.within(|| format!("count of {what}")))? as u64;
    }
    let textiles_at = c.offset();
    let textiles = inflate(
        c,
        Limit {
            what: "32-bit textiles",
            section: Section::Textiles,
            most: (
                textile_count * TEXTILE32_BYTES as u64,
                "its textile counts (room + object + bump) allow",
            ),
            budget,
        },
    )?;
    if textiles.len() % TEXTILE32_BYTES != 0 {
        return Err(LevelError::at(
            Section::Textiles,
            textiles_at as u64,
            Problem::Chunk {
                what: "32-bit textiles",
                detail: format!(
                    "inflates to {} bytes, not a whole number of 256×256 textiles of {TEXTILE32_BYTES} bytes",
                    textiles.len()
                ),
            },
        ));
    }
    skip_chunk(c, "16-bit textiles", Section::Textiles)?;
    skip_chunk(c, "misc textiles", Section::Textiles)?;
    Ok(textiles)
}

/// The sound samples that end TR4 and TR5 files (a count, and per sample its uncompressed
/// size, compressed size and bytes: a whole WAV file), then the end of the file: data TRX
/// appends is passed over and returned, any other bytes refused. Gives each sample's WAV.
pub(super) fn read_sound_samples<'a>(
    c: &mut Cursor<'a>,
) -> Result<(Vec<View<'a>>, Option<Appended>), LevelError> {
    let sound_samples = c.u32(Section::SoundSamples)?;
    // Each sample takes at least its 8 header bytes: a forged count runs out of bytes, and the
    // list grows only as samples are read.
    let mut wavs = Vec::new();
    for i in 0..sound_samples {
        let at = c.pos;
        c.u32(Section::SoundSamples)?; // uncompressed size
        let size = c.u32(Section::SoundSamples)? as usize;
        let wav = c
            .records(at + 4, "sound sample bytes", size, 1, Section::SoundSamples)
            .map_err(|e| e.within(|| format!("sound sample {i}")))?;
        wavs.push(wav);
    }
    let appended = Appended::recognise(c.rest(), c.pos);
    if c.remaining() > 0 && appended.is_none() {
        return Err(LevelError::at(
            Section::SoundSamples,
            c.pos as u64,
            Problem::TrailingBytes(c.remaining() as u64),
        ));
    }
    Ok((wavs, appended))
}

/// How much one chunk may inflate to.
struct Limit<'b> {
    what: &'static str,
    section: Section,
    /// The most bytes the format allows this chunk, and why.
    most: (u64, &'static str),
    /// What the file's chunks may still inflate to together; the chunk's size is taken off.
    budget: &'b mut u64,
}

/// Inflates the zlib chunk at the cursor: uncompressed size, compressed size, bytes. The claimed
/// size is checked against what the format allows, against what zlib can expand the compressed
/// bytes to and against the file's budget before anything is inflated, and inflating stops at the
/// claimed size, so a forged header or a zlib bomb costs no more memory than the claim allowed.
fn inflate(c: &mut Cursor, limit: Limit) -> Result<Vec<u8>, LevelError> {
    let Limit {
        what,
        section,
        most: (most, why),
        budget,
    } = limit;
    let at = c.offset();
    let (uncompressed, compressed) = chunk(c, what, section)?;
    let chunk_error = |detail: String| LevelError::at(section, at as u64, Problem::Chunk { what, detail });
    let claimed = uncompressed as u64;
    if claimed > most {
        return Err(chunk_error(format!(
            "claims {claimed} bytes, more than the {most} {why}"
        )));
    }
    if claimed > (compressed.len() as u64).saturating_mul(MAX_INFLATE_RATIO) + 1024 {
        return Err(chunk_error(format!(
            "claims {claimed} bytes from {} compressed ones, more than zlib can expand to",
            compressed.len()
        )));
    }
    if claimed > *budget {
        let Bound { base, per, .. } = Limits::DEFAULT.inflated_bytes;
        return Err(chunk_error(format!(
            "claims {claimed} bytes, more than the {budget} bytes wadforge inflates from a file of \
             this size ({base} + {per} per file byte, for all its \
             chunks); real levels inflate to a few times their size"
        )));
    }
    *budget -= claimed;
    // The claim is within the budget now: reserving it (and the one byte that tells a chunk
    // that inflates to more) keeps the vector from doubling past it.
    let mut out = Vec::with_capacity(uncompressed + 1);
    flate2::read::ZlibDecoder::new(compressed)
        .take(claimed + 1)
        .read_to_end(&mut out)
        .map_err(|e| chunk_error(format!("is not valid zlib data ({e})")))?;
    if out.len() != uncompressed {
        return Err(chunk_error(format!(
            "inflates to {}{} bytes but its header says {uncompressed}",
            if out.len() > uncompressed {
                "more than "
            } else {
                ""
            },
            out.len().min(uncompressed)
        )));
    }
    Ok(out)
}

/// Takes the chunk at the cursor without inflating it.
fn skip_chunk(c: &mut Cursor, what: &'static str, section: Section) -> Result<(), LevelError> {
    chunk(c, what, section).map(|_| ())
}

/// The uncompressed size and compressed bytes of the chunk at the cursor.
pub(super) fn chunk<'a>(
    c: &mut Cursor<'a>,
    what: &'static str,
    section: Section,
) -> Result<(usize, &'a [u8]), LevelError> {
    let uncompressed = c.u32(section)? as usize;
    let at = c.pos;
    let compressed = c.u32(section)? as usize;
    let bytes = c.records(at, what, compressed, 1, section)?;
    Ok((uncompressed, bytes.bytes))
}

/// TR5 levels follow their misc textiles with Lara's type and the weather (two words) and 28
/// zero bytes, where a TR4 level has the level data chunk's two sizes and zlib bytes.
fn looks_like_tr5(c: &Cursor) -> bool {
    let rest = c.rest();
    rest.len() >= 32 && rest[4..32].iter().all(|&b| b == 0)
}

/// Walks the inflated level data.
fn walk_level_data<'a>(
    data: &'a [u8],
    version: u32,
    file_len: usize,
    textile_count: usize,
    textiles: &'a [u8],
) -> Result<Tables<'a>, LevelError> {
    let mut c = Cursor::new(data);
    walk_rooms(&mut c, Game::Tr4)?;
    let objects = walk_object_tables(&mut c, Game::Tr4)?;
    let object_textures = walk_sprites_to_demo_data(&mut c, (b"SPR", b"TEX"), TR4_OBJECT_TEXTURE_SIZE)?;
    let map = c.take(SOUND_MAP_ENTRIES * 2, Section::SoundMap)?;
    let (_, details) = c.table("sound details", SOUND_DETAILS_SIZE, Section::SoundDetails)?;
    let (sample_count, _) = c.table("sample indices", 4, Section::SampleIndices)?;
    // TRLE pads the level data with zero bytes; anything else is not a level of this layout.
    let rest = c.take(c.remaining(), Section::SampleIndices)?;
    if let Some(i) = rest.bytes.iter().position(|&b| b != 0) {
        return Err(LevelError::at(
            Section::SampleIndices,
            (rest.base + i) as u64,
            Problem::TrailingBytes((rest.len() - i) as u64),
        ));
    }
    Ok(Tables {
        game: Game::Tr4,
        version,
        file_len,
        textiles: View::new(textiles, 0, Section::Textiles),
        textile_count,
        objects,
        object_textures,
        palette: View::new(&[], 0, Section::Palette),
        appended: None,
        sounds: Some(SoundTables {
            map,
            details,
            sample_count,
            // The appended samples, after the level data, are set by `read`.
            samples: SampleTables::Appended(Vec::new()),
        }),
    })
}

/// Checks a three-letter section marker.
/// Passes over the sections from the sprites to the demo data, laid out alike in TR4 and TR5 but
/// for their markers (`SPR`, `TEX`; TR5 ends each with a zero byte) and the size of an object
/// texture; gives the object textures.
pub(super) fn walk_sprites_to_demo_data<'a>(
    c: &mut Cursor<'a>,
    (sprites, textures): (&[u8], &[u8]),
    object_texture_size: usize,
) -> Result<View<'a>, LevelError> {
    marker(c, sprites, Section::SpriteTextures)?;
    c.table("sprite textures", 16, Section::SpriteTextures)?;
    c.table("sprite sequences", 8, Section::SpriteSequences)?;
    c.table("cameras", 16, Section::Cameras)?;
    c.table("flyby cameras", 40, Section::FlybyCameras)?;
    c.table("sound sources", 16, Section::SoundSources)?;
    let (box_count, _) = c.table("boxes", 8, Section::Boxes)?;
    c.table("overlaps", 2, Section::Overlaps)?;
    let at = c.pos;
    c.records(at, "zone records", box_count, 20, Section::Zones)?;
    c.table("animated texture words", 2, Section::AnimatedTextures)?;
    c.take(1, Section::AnimatedTextures)?; // how many of the first ranges animate UVs
    marker(c, textures, Section::ObjectTextures)?;
    let (_, object_textures) = c.table("object textures", object_texture_size, Section::ObjectTextures)?;
    c.table("items", 24, Section::Items)?;
    c.table("AI objects", 24, Section::AiObjects)?;
    c.table16("demo data bytes", 1, Section::DemoData)?;
    Ok(object_textures)
}

pub(super) fn marker(c: &mut Cursor, expected: &[u8], section: Section) -> Result<(), LevelError> {
    let at = c.pos;
    let found = c.take(expected.len(), section)?;
    if found.bytes != expected {
        return Err(LevelError::at(
            section,
            at as u64,
            Problem::MissingMarker {
                expected: String::from_utf8_lossy(expected).escape_default().to_string(),
                found: found.bytes.to_vec(),
            },
        ));
    }
    Ok(())
}
