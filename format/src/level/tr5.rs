//! TR5 levels (`.trc`, headed `"TR4\0"` as TR4's are): what differs from TR4 (the model is built
//! by [`super::build`], TR5's records being TR4's once the two padded ones are compacted).
//!
//! The file: TR4's version, textile counts and three textile chunks ([`super::tr4`]); then Lara's
//! type and the weather (two u16) and 28 zero bytes; then the level data headed by two sizes as a
//! chunk but stored as it is (both sizes equal, no zlib); then TR4's sound samples. Offsets in
//! errors about the level data are file offsets.
//!
//! The level data: an unused word, a u32 room count, each room `"XELA"` and its size in bytes
//! (rooms are passed over by their sizes: nothing of an object is in them), floor data, then
//! TR4's object tables with 20-byte models (TR4's 18 and a padding word), `"SPR\0"`, sprites,
//! cameras, flyby cameras, sound sources, boxes, overlaps, zones, animated textures, the
//! animated UV count, `"TEX\0"`, 40-byte object textures (TR4's 38 and a padding word), items,
//! AI objects, demo data, a 450-entry sound map, sound details (TR4's), sample indices, and
//! padding (0xCD or zero bytes). The sounds read as TR4's, their samples appended as TR4's.
//!
//! The models and object textures are copied into TR4's record sizes so the shared stages read
//! them; errors inside them point at the compacted records' start in the file, not the byte.

use wadforge_model::catalog::Game;

use super::build::{self, Level};
use super::bytes::{Cursor, View};
use super::error::{LevelError, Problem, Section};
use super::pages::TEXTILE32_BYTES;
use super::samples::SampleTables;
use super::sounds::{SoundTables, SOUND_DETAILS_SIZE};
use super::tables::{ObjectTables, Tables, TR4_OBJECT_TEXTURE_SIZE};
use super::tr123::walk_object_tables_sized;
use super::tr4::{marker, read_sound_samples, walk_sprites_to_demo_data};
use crate::bytes::FileError;
use crate::records::MODEL_SIZE;

/// Bytes of a TR5 model: TR4's 18 and a padding word.
const TR5_MODEL_SIZE: usize = 20;
/// Bytes of a TR5 object texture: TR4's 38 and a padding word.
const TR5_OBJECT_TEXTURE_SIZE: usize = 40;
/// Entries of TR5's sound map.
const SOUND_MAP_ENTRIES: usize = 450;
/// Lara's type, the weather and 28 zero bytes between the misc textiles and the level data.
const LEVEL_HEADER_BYTES: usize = 32;

/// Reads the rest of a TR5 file; the cursor stands after the misc textiles, `textiles` are the
/// inflated 32-bit ones.
pub(super) fn read(mut c: Cursor, version: u32, textiles: &[u8]) -> Result<Level, LevelError> {
    let file_len = c.offset() + c.remaining();
    c.take(LEVEL_HEADER_BYTES, Section::LevelData)
        .map_err(|e| e.within(|| "Lara's type, the weather and padding".to_string()))?;
    let at = c.pos;
    let uncompressed = c.u32(Section::LevelData)? as usize;
    let stored = c.u32(Section::LevelData)? as usize;
    if uncompressed != stored {
        return Err(LevelError::at(
            Section::LevelData,
            at as u64,
            Problem::Chunk {
                what: "level data",
                detail: format!(
                    "says {uncompressed} bytes uncompressed and {stored} stored; TR5 stores its level data uncompressed, so the two are equal"
                ),
            },
        ));
    }
    let data = c.records(at + 4, "level data bytes", stored, 1, Section::LevelData)?;
    let (wavs, appended) = read_sound_samples(&mut c)?;
    let walked = walk_level_data(data)?;
    let models = compacted(&walked.models, TR5_MODEL_SIZE, MODEL_SIZE);
    let object_textures = compacted(
        &walked.object_textures,
        TR5_OBJECT_TEXTURE_SIZE,
        TR4_OBJECT_TEXTURE_SIZE,
    );
    let tables = Tables {
        game: Game::Tr5,
        version,
        file_len,
        textiles: View::new(textiles, 0, Section::Textiles),
        textile_count: textiles.len() / TEXTILE32_BYTES,
        objects: ObjectTables {
            models: View::new(&models, walked.models.base, Section::Models),
            ..walked.objects
        },
        object_textures: View::new(
            &object_textures,
            walked.object_textures.base,
            Section::ObjectTextures,
        ),
        palette: View::new(&[], 0, Section::Palette),
        appended,
        sounds: Some(SoundTables {
            map: walked.sound_map,
            details: walked.sound_details,
            sample_count: walked.sample_count,
            samples: SampleTables::Appended(wavs),
        }),
    };
    build::build(&tables)
}

/// The sections of the level data the model needs, as stored.
struct Walked<'a> {
    /// The object tables, their models as stored.
    objects: ObjectTables<'a>,
    /// 20-byte models.
    models: View<'a>,
    /// 40-byte object textures.
    object_textures: View<'a>,
    /// The 450-entry sound map, the sound details (TR4's) and how many sample indices follow.
    sound_map: View<'a>,
    sound_details: View<'a>,
    sample_count: usize,
}

/// Walks the level data (a view with file offsets).
fn walk_level_data(data: View) -> Result<Walked, LevelError> {
    let mut c = Cursor::within(data);
    walk_rooms(&mut c)?;
    c.table("floor data words", 2, Section::FloorData)?;
    let objects = walk_object_tables_sized(&mut c, Game::Tr5, TR5_MODEL_SIZE)?;
    let object_textures = walk_sprites_to_demo_data(&mut c, (b"SPR\0", b"TEX\0"), TR5_OBJECT_TEXTURE_SIZE)?;
    let sound_map = c.take(SOUND_MAP_ENTRIES * 2, Section::SoundMap)?;
    let (_, sound_details) = c.table("sound details", SOUND_DETAILS_SIZE, Section::SoundDetails)?;
    let (sample_count, _) = c.table("sample indices", 4, Section::SampleIndices)?;
    // The TR5 compiler pads the level data with 0xCD bytes; anything else is another layout.
    let rest = c.take(c.remaining(), Section::SampleIndices)?;
    if let Some(i) = rest.bytes.iter().position(|&b| b != 0xCD && b != 0) {
        return Err(LevelError::at(
            Section::SampleIndices,
            (rest.base + i) as u64,
            Problem::TrailingBytes((rest.len() - i) as u64),
        ));
    }
    Ok(Walked {
        models: objects.models,
        objects,
        object_textures,
        sound_map,
        sound_details,
        sample_count,
    })
}

/// Passes over the rooms: a u32 count, each `"XELA"` and its size in bytes. Every room takes at
/// least its 8 header bytes, so a forged count runs out of bytes rather than time.
fn walk_rooms(c: &mut Cursor) -> Result<(), LevelError> {
    c.u32(Section::Rooms)?; // unused
    let room_count = c.u32(Section::Rooms)?;
    for r in 0..room_count {
        let room = |e: LevelError| e.within(|| format!("room {r}"));
        marker(c, b"XELA", Section::Rooms).map_err(room)?;
        let at = c.pos;
        let size = c.u32(Section::Rooms).map_err(room)? as usize;
        c.records(at, "room bytes", size, 1, Section::Rooms)
            .map_err(room)?;
    }
    Ok(())
}

/// `records` of `stored` bytes each, cut to their first `kept` bytes.
fn compacted(records: &View, stored: usize, kept: usize) -> Vec<u8> {
    records
        .bytes
        .chunks_exact(stored)
        .flat_map(|r| &r[..kept])
        .copied()
        .collect()
}
