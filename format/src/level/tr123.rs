//! TR1–TR3 level files walked section by section: palettes and textiles, rooms, floor data,
//! meshes and mesh pointers, animations, state changes, dispatches, commands, mesh trees,
//! frames, models, static meshes, object textures, sprites, cameras, sound sources,
//! boxes/overlaps/zones, animated textures, items, light map, cinematic frames, demo data,
//! sound map, details, samples and sample indices, in each game's order and record sizes.
//! Rooms, floor data and the level's other sections are bounds-checked and skipped: only the
//! object tables reach [`super::build`], as [`Tables`].

use wadforge_model::catalog::Game;

use super::appended::Appended;
use super::bytes::{Cursor, View};
use super::error::{LevelError, Problem, Section};
use super::pages::TEXTILE_BYTES;
use super::samples::SampleTables;
use super::sounds::{SoundTables, SOUND_DETAILS_SIZE};
use super::tables::{ObjectTables, Tables, OBJECT_TEXTURE_SIZE};
use crate::records::{AnimationRecord, DISPATCH_SIZE, MODEL_SIZE, STATE_CHANGE_SIZE, STATIC_SIZE};

/// Walks every section in the file order of `game` (TR1, TR2 or TR3). `palette_after_sprites`
/// is the TR1 demo levels' order.
pub(super) fn walk(bytes: &[u8], game: Game, palette_after_sprites: bool) -> Result<Tables<'_>, LevelError> {
    let tr1 = game == Game::Tr1;
    let mut c = Cursor::new(bytes);
    let version = c.u32(Section::Version)?;
    let (textile_count, textiles, mut palette) = walk_textiles(&mut c, game)?;
    walk_rooms(&mut c, game)?;
    let objects = walk_object_tables(&mut c, game)?;
    let mut object_textures = None;
    if game != Game::Tr3 {
        object_textures = Some(object_texture_table(&mut c)?);
    }
    c.table("sprite textures", 16, Section::SpriteTextures)?;
    c.table("sprite sequences", 8, Section::SpriteSequences)?;
    if palette_after_sprites {
        palette = Some(c.take(768, Section::Palette)?);
    }
    c.table("cameras", 16, Section::Cameras)?;
    c.table("sound sources", 16, Section::SoundSources)?;
    let (box_size, zone_size) = if tr1 { (20, 12) } else { (8, 20) };
    let (box_count, _) = c.table("boxes", box_size, Section::Boxes)?;
    c.table("overlaps", 2, Section::Overlaps)?;
    let at = c.pos;
    c.records(at, "zone records", box_count, zone_size, Section::Zones)?;
    c.table("animated texture words", 2, Section::AnimatedTextures)?;
    if game == Game::Tr3 {
        object_textures = Some(object_texture_table(&mut c)?);
    }
    c.table("items", if tr1 { 22 } else { 24 }, Section::Items)?;
    c.take(32 * 256, Section::LightMap)?;
    if palette.is_none() {
        palette = Some(c.take(768, Section::Palette)?);
    }
    c.table16("cinematic frames", 16, Section::CinematicFrames)?;
    c.table16("demo data bytes", 1, Section::DemoData)?;
    let map = c.take(if tr1 { 512 } else { 740 }, Section::SoundMap)?;
    let (_, details) = c.table("sound details", SOUND_DETAILS_SIZE, Section::SoundDetails)?;
    let wavs = if tr1 {
        Some(c.table("sound sample bytes", 1, Section::SoundSamples)?.1)
    } else {
        None
    };
    let (sample_count, indices) = c.table("sample indices", 4, Section::SampleIndices)?;
    // TR1 embeds its WAVs; TR2/TR3's indices number the WAVs of MAIN.SFX beside the level.
    let samples = match wavs {
        Some(wavs) => SampleTables::Embedded { wavs, indices },
        None => SampleTables::InMainSfx { indices },
    };
    let appended = Appended::recognise(c.rest(), c.pos);
    if c.remaining() > 0 && appended.is_none() {
        return Err(LevelError {
            section: Section::SampleIndices,
            offset: c.pos as u64,
            context: None,
            problem: Problem::TrailingBytes(c.remaining() as u64),
        });
    }
    Ok(Tables {
        game,
        version,
        file_len: bytes.len(),
        textiles,
        textile_count,
        objects,
        object_textures: object_textures.expect("the object textures are taken in every order"),
        palette: palette.expect("the palette is taken in every order"),
        appended,
        sounds: Some(SoundTables {
            map,
            details,
            sample_count,
            samples,
        }),
    })
}

/// The textiles after the version word: TR1's 8-bit ones; TR2/TR3's 8-bit palette (skipped),
/// 16-bit palette, then the 8-bit textiles (skipped) and the 16-bit ones. Returns the textile
/// count, the textiles the pages are made of, and the 16-bit palette (TR2/TR3).
fn walk_textiles<'a>(
    c: &mut Cursor<'a>,
    game: Game,
) -> Result<(usize, View<'a>, Option<View<'a>>), LevelError> {
    if game == Game::Tr1 {
        let (count, textiles) = c.table("textiles", TEXTILE_BYTES, Section::Textiles)?;
        return Ok((count, textiles, None));
    }
    c.take(768, Section::Palette)?;
    let palette = c.take(1024, Section::Palette)?;
    let at = c.pos;
    let count = c.u32(Section::Textiles)? as usize;
    // The 8-bit textiles, then the 16-bit ones.
    let both = c.records(at, "textiles", count, TEXTILE_BYTES * 3, Section::Textiles)?;
    let mut t = Cursor::within(both);
    t.take(count * TEXTILE_BYTES, Section::Textiles)?;
    let textiles = t.take(count * TEXTILE_BYTES * 2, Section::Textiles)?;
    Ok((count, textiles, Some(palette)))
}

/// Walks past the rooms ([`walk_room`]) and the floor data.
pub(super) fn walk_rooms(c: &mut Cursor, game: Game) -> Result<(), LevelError> {
    c.u32(Section::Rooms)?; // unused
    let room_count = c.u16(Section::Rooms)? as usize;
    for r in 0..room_count {
        walk_room(c, game).map_err(|e| e.within(|| format!("room {r}")))?;
    }
    c.table("floor data words", 2, Section::FloorData)?;
    Ok(())
}

/// Walks the object tables, from the mesh data to the static meshes (TR4's animations are
/// 40-byte records, the others' 32).
pub(super) fn walk_object_tables<'a>(c: &mut Cursor<'a>, game: Game) -> Result<ObjectTables<'a>, LevelError> {
    walk_object_tables_sized(c, game, MODEL_SIZE)
}

/// [`walk_object_tables`] with models of `model_size` bytes (TR5 pads them to 20; the caller
/// compacts them).
pub(super) fn walk_object_tables_sized<'a>(
    c: &mut Cursor<'a>,
    game: Game,
    model_size: usize,
) -> Result<ObjectTables<'a>, LevelError> {
    let (_, mesh_data) = c.table("mesh data words", 2, Section::Meshes)?;
    let (_, pointers) = c.table("mesh pointers", 4, Section::MeshPointers)?;
    let animation_size = AnimationRecord::size(matches!(game, Game::Tr4 | Game::Tr5));
    let (animation_count, animations) = c.table("animations", animation_size, Section::Animations)?;
    let (_, state_changes) = c.table("state changes", STATE_CHANGE_SIZE, Section::StateChanges)?;
    let (_, dispatches) = c.table("anim dispatches", DISPATCH_SIZE, Section::Dispatches)?;
    let (_, commands) = c.table("anim command words", 2, Section::Commands)?;
    let (_, mesh_trees) = c.table("mesh tree words", 4, Section::MeshTrees)?;
    let (_, frames) = c.table("frame words", 2, Section::Frames)?;
    let (model_count, models) = c.table("models", model_size, Section::Models)?;
    let (static_count, statics) = c.table("static meshes", STATIC_SIZE, Section::StaticMeshes)?;
    Ok(ObjectTables {
        mesh_data,
        pointers,
        animation_count,
        animations,
        state_changes,
        dispatches,
        commands,
        mesh_trees,
        frames,
        model_count,
        models,
        static_count,
        statics,
    })
}

fn object_texture_table<'a>(c: &mut Cursor<'a>) -> Result<View<'a>, LevelError> {
    c.table("object textures", OBJECT_TEXTURE_SIZE, Section::ObjectTextures)
        .map(|(_, v)| v)
}

/// Walks past one room: header, geometry (vertices, rectangles, triangles, sprites inside its
/// NumData words), portals, sectors, light levels, lights, static mesh instances, alternate
/// room and flags (and TR3/TR4's water scheme, reverb and alternate group bytes). TR4 rooms
/// are TR3's with 46-byte lights and a room colour where TR3 has its two intensities.
fn walk_room(c: &mut Cursor, game: Game) -> Result<(), LevelError> {
    let tr1 = game == Game::Tr1;
    c.take(16, Section::Rooms)?;
    let (_, data) = c.table("room data words", 2, Section::Rooms)?;
    let mut g = Cursor::within(data);
    g.table16("room vertices", if tr1 { 8 } else { 12 }, Section::Rooms)?;
    g.table16("room rectangles", 10, Section::Rooms)?;
    g.table16("room triangles", 8, Section::Rooms)?;
    g.table16("room sprites", 4, Section::Rooms)?;
    c.table16("portals", 32, Section::Rooms)?;
    let at = c.pos;
    let z = c.u16(Section::Rooms)? as usize;
    let x = c.u16(Section::Rooms)? as usize;
    c.records(at, "sectors", z * x, 8, Section::Rooms)?;
    // Ambient intensity; TR2 adds a second one and the light mode, TR3 the second one.
    c.take(
        match game {
            Game::Tr1 => 2,
            Game::Tr2 => 6,
            _ => 4,
        },
        Section::Rooms,
    )?;
    let light_size = match game {
        Game::Tr1 => 18,
        Game::Tr4 => 46,
        _ => 24,
    };
    c.table16("room lights", light_size, Section::Rooms)?;
    c.table16("static mesh instances", if tr1 { 18 } else { 20 }, Section::Rooms)?;
    let tail = if matches!(game, Game::Tr3 | Game::Tr4) {
        7
    } else {
        4
    };
    c.take(tail, Section::Rooms)?; // alternate room, flags
    Ok(())
}
