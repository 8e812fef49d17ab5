//! What a Wad2's chunks mean: textures, sprites, moveables (meshes, bones, animations), statics
//! and metadata as typed values, decoded from the container's chunk tree and encoded back as
//! TombLib's writer lays them out, so a file TombLib wrote comes back byte for byte. Chunks this
//! layer does not know are kept, with the chunk they were found in, and written back there.
//!
//! Values are as stored (Y up, pixel UVs, relative animation numbers, i64 for every LEB128
//! field): turning them into the model's terms, and checking their ranges, is the mapping's job.

mod animation;
mod fields;
mod images;
mod mesh;
mod moveable;
mod shapes;
mod statics;

pub use animation::{
    Animation, AnimationVersion, BlendCurve, Command, Dispatch, DispatchBlend, Keyframe, StateChange,
};
pub use fields::UnknownChunks;
pub use images::{Image, Metadata, Sprite, SpriteSequence, Texture};
pub use mesh::{Mesh, Polygon, VertexAttributes, VertexColour, VertexWeight};
pub use moveable::{Bone, Moveable};
pub use shapes::{BoundingBox, Sphere};
pub use statics::{Static, StaticLight};

use super::chunks::{Chunk, ChunkRef};
use super::container::{self, Wad2File};
use super::error::Wad2Error;
use fields::Fields;

/// The key under which unknown top-level chunks are kept in [`Document::unknown`].
const FILE_LEVEL: &str = "";

/// Everything a Wad2 file holds, typed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// The chunk stream was zlib-compressed (TombLib never writes that, but reads it).
    pub compressed: bool,
    /// W2SuggestedGameVersion: 1 TR1, 2 TR2, 3 TR3, 4 TR4, 5 TR5, 11 TR1X, 12 TR2X, 16 TRNG,
    /// 18 Tomb Engine.
    pub game_version: Option<i64>,
    /// W2SoundSystem: 1, sounds in an XML file beside the Wad2. TombLib refuses a file without.
    pub sound_system: Option<i64>,
    pub textures: Vec<Texture>,
    pub sprites: Vec<Sprite>,
    pub sprite_sequences: Vec<SpriteSequence>,
    pub moveables: Vec<Moveable>,
    pub statics: Vec<Static>,
    pub metadata: Option<Metadata>,
    /// W2AnimatedTextureSets, kept as read: its frames name textures by their place.
    pub animated_texture_sets: Option<Chunk>,
    /// Unknown top-level chunks (kept under "") and unknown children of the sections.
    pub unknown: UnknownChunks,
}

/// Reads a Wad2 file into a [`Document`], walking its chunks where they lie in the file.
pub fn read_document(bytes: &[u8]) -> Result<Document, Wad2Error> {
    container::with_top_level(bytes, decode_chunks)
}

/// Writes a [`Document`] as a Wad2 file.
pub fn write_document(document: &Document) -> Vec<u8> {
    container::write(&encode(document))
}

/// Decodes a container's chunks.
pub fn decode(file: &Wad2File) -> Result<Document, Wad2Error> {
    let chunks: Vec<ChunkRef> = file.chunks.iter().map(Chunk::as_ref).collect();
    decode_chunks(&chunks, file.compressed)
}

fn decode_chunks(chunks: &[ChunkRef], compressed: bool) -> Result<Document, Wad2Error> {
    let mut document = Document {
        compressed,
        ..Document::default()
    };
    for chunk in chunks {
        decode_top_level(chunk, &mut document)?;
    }
    Ok(document)
}

fn decode_top_level(chunk: &ChunkRef, document: &mut Document) -> Result<(), Wad2Error> {
    let unknown = &mut document.unknown;
    match chunk.id {
        "W2SuggestedGameVersion" => document.game_version = Some(fields::int(chunk)?),
        "W2SoundSystem" => document.sound_system = Some(fields::int(chunk)?),
        "W2Textures" => section(
            chunk,
            "W2Txt",
            images::read_texture,
            &mut document.textures,
            unknown,
        )?,
        "W2Sprites" => section(
            chunk,
            "W2Spr",
            images::read_sprite,
            &mut document.sprites,
            unknown,
        )?,
        "W2SpriteSequences" => section(
            chunk,
            "W2SpriteSeq",
            images::read_sprite_sequence,
            &mut document.sprite_sequences,
            unknown,
        )?,
        "W2Moveables" => section(
            chunk,
            "W2Moveable",
            moveable::read_moveable,
            &mut document.moveables,
            unknown,
        )?,
        "W2Statics" => {
            for child in Fields::of(chunk).children()? {
                match child.id {
                    "W2Static" | "W2Static2" => document.statics.push(statics::read_static(&child)?),
                    _ => unknown.keep(chunk.id, &child),
                }
            }
        }
        "W2Metadata" => document.metadata = Some(images::read_metadata(chunk)?),
        "W2AnimatedTextureSets" => {
            document.animated_texture_sets = Some(fields::detached(chunk.to_chunk()));
        }
        _ => unknown.keep(FILE_LEVEL, chunk),
    }
    Ok(())
}

/// Appends the `item` children of section `chunk`, decoded by `read`, to `out`.
fn section<T>(
    chunk: &ChunkRef,
    item: &str,
    read: impl Fn(&ChunkRef) -> Result<T, Wad2Error>,
    out: &mut Vec<T>,
    unknown: &mut UnknownChunks,
) -> Result<(), Wad2Error> {
    out.extend(mesh::read_list(chunk, item, read, unknown)?);
    Ok(())
}

/// Encodes a document in the order and layout TombLib writes.
pub fn encode(document: &Document) -> Wad2File {
    let unknown = &document.unknown;
    let section = |id: &str, items: Vec<Chunk>| fields::parent(id, &[], &unknown.with(id, items));
    let mut chunks = Vec::new();
    let int = |id, value: Option<i64>| value.map(|value| fields::int_leaf(id, value));
    chunks.extend(int("W2SuggestedGameVersion", document.game_version));
    chunks.extend(int("W2SoundSystem", document.sound_system));
    let textures = document.textures.iter().map(images::write_texture).collect();
    chunks.push(images::textures_section(unknown.with("W2Textures", textures)));
    let sprites = document.sprites.iter().map(images::write_sprite).collect();
    chunks.push(section("W2Sprites", sprites));
    let sequences = document
        .sprite_sequences
        .iter()
        .map(images::write_sprite_sequence);
    chunks.push(section("W2SpriteSequences", sequences.collect()));
    let moveables = document.moveables.iter().map(moveable::write_moveable);
    chunks.push(section("W2Moveables", moveables.collect()));
    let statics = document.statics.iter().map(statics::write_static);
    chunks.push(section("W2Statics", statics.collect()));
    chunks.extend(document.metadata.as_ref().map(images::write_metadata));
    chunks.extend(document.animated_texture_sets.clone());
    chunks.extend(unknown.of(FILE_LEVEL));
    Wad2File {
        compressed: document.compressed,
        chunks,
    }
}
