//! W2Textures, W2Sprites, W2SpriteSequences and W2Metadata.

use super::fields::{self, padded, padded_leaf, parent, FieldWriter, Fields, UnknownChunks};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::{Wad2Error, Wad2Problem};

/// TombLib pads W2Textures' size to 5 bytes: textures can pass the 4 bytes' 128 MiB.
const TEXTURES_SIZE_WIDTH: u8 = 5;

/// An image: pixels B, G, R, A, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    /// width × height × 4 bytes, checked when read.
    pub bgra: Vec<u8>,
}

/// W2Txt: a mesh texture, any size; polygons refer to it by its place in the list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Texture {
    /// W2TxtData, absent in a texture kept only in a file beside the Wad2.
    pub image: Option<Image>,
    /// The size the header gives (the image's, when it has one).
    pub width: i64,
    pub height: i64,
    pub name: Option<String>,
    /// W2TxtRelPath: an external image file, relative to the Wad2.
    pub relative_path: Option<String>,
    /// W2Index, obsolete.
    pub index: Option<i64>,
    pub unknown: UnknownChunks,
}

/// W2Spr: a sprite's image and its corners in the world.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sprite {
    pub image: Option<Image>,
    pub width: i64,
    pub height: i64,
    pub index: Option<i64>,
    /// W2SprSides: x0, y0, x1, y1.
    pub sides: Option<[i32; 4]>,
    pub unknown: UnknownChunks,
}

/// W2SpriteSeq: a slot and the sprites it shows, by their place in the sprite list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpriteSequence {
    pub id: i64,
    pub sprites: Vec<i64>,
    pub unknown: UnknownChunks,
}

/// W2Metadata.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata {
    /// Year, month, day, hour, minute, second of the last save.
    pub timestamp: Option<[i64; 6]>,
    pub notes: Option<String>,
    pub unknown: UnknownChunks,
}

/// Reads a W2Txt's or W2Spr's width and height and its W2TxtData.
fn read_image(
    chunk: &ChunkRef,
    data: Option<&ChunkRef>,
    size: (i64, i64),
) -> Result<Option<Image>, Wad2Error> {
    let Some(data) = data else {
        return Ok(None);
    };
    let (width, height) = size;
    let bytes = data.content.len();
    let fits = u32::try_from(width)
        .ok()
        .zip(u32::try_from(height).ok())
        .filter(|&(w, h)| (w as u64) * (h as u64) * 4 == bytes as u64);
    let Some((width, height)) = fits else {
        let problem = Wad2Problem::BadImage {
            id: chunk.id.to_owned(),
            width,
            height,
            bytes,
        };
        return Err(fields::error_in(data, 0, problem));
    };
    Ok(Some(Image {
        width,
        height,
        bgra: data.content.to_vec(),
    }))
}

pub(super) fn read_texture(chunk: &ChunkRef) -> Result<Texture, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut texture = Texture {
        width: fields.number()?,
        height: fields.number()?,
        ..Texture::default()
    };
    let mut data = None;
    for child in fields.children()? {
        match child.id {
            "W2Index" => texture.index = Some(fields::int(&child)?),
            "W2TxtName" => texture.name = Some(fields::string(&child)),
            "W2TxtRelPath" => texture.relative_path = Some(fields::string(&child)),
            "W2TxtData" => data = Some(child),
            _ => texture.unknown.keep(chunk.id, &child),
        }
    }
    texture.image = read_image(chunk, data.as_ref(), (texture.width, texture.height))?;
    Ok(texture)
}

pub(super) fn read_sprite(chunk: &ChunkRef) -> Result<Sprite, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut sprite = Sprite {
        width: fields.number()?,
        height: fields.number()?,
        ..Sprite::default()
    };
    let mut data = None;
    for child in fields.children()? {
        match child.id {
            "W2Index" => sprite.index = Some(fields::int(&child)?),
            "W2TxtData" => data = Some(child),
            "W2SprSides" => {
                let mut sides = Fields::of(&child);
                sprite.sides = Some([sides.i32()?, sides.i32()?, sides.i32()?, sides.i32()?]);
                sides.end()?;
            }
            _ => sprite.unknown.keep(chunk.id, &child),
        }
    }
    sprite.image = read_image(chunk, data.as_ref(), (sprite.width, sprite.height))?;
    Ok(sprite)
}

pub(super) fn read_sprite_sequence(chunk: &ChunkRef) -> Result<SpriteSequence, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut sequence = SpriteSequence {
        id: fields.number()?,
        ..SpriteSequence::default()
    };
    for child in fields.children()? {
        match child.id {
            "W2SpritePtr" => sequence.sprites.push(fields::int(&child)?),
            _ => sequence.unknown.keep(chunk.id, &child),
        }
    }
    Ok(sequence)
}

pub(super) fn read_metadata(chunk: &ChunkRef) -> Result<Metadata, Wad2Error> {
    let mut metadata = Metadata::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2Timestamp" => {
                let mut fields = Fields::of(&child);
                let mut stamp = [0; 6];
                for value in &mut stamp {
                    *value = fields.number()?;
                }
                for inner in fields.children()? {
                    metadata.unknown.keep("W2Timestamp", &inner);
                }
                metadata.timestamp = Some(stamp);
            }
            "W2UserNotes" => metadata.notes = Some(fields::string(&child)),
            _ => metadata.unknown.keep(chunk.id, &child),
        }
    }
    Ok(metadata)
}

fn size_fields(width: i64, height: i64) -> Vec<u8> {
    let mut fields = FieldWriter::default();
    fields.number(width).number(height);
    fields.bytes
}

fn image_data(image: &Option<Image>) -> Option<Chunk> {
    image
        .as_ref()
        .map(|image| Chunk::new("W2TxtData", image.bgra.clone()))
}

pub(super) fn write_texture(texture: &Texture) -> Chunk {
    let mut children = Vec::new();
    children.extend(texture.index.map(|index| fields::int_leaf("W2Index", index)));
    let text = |id, value: &Option<String>| value.as_deref().map(|text| fields::string_leaf(id, text));
    children.extend(text("W2TxtName", &texture.name));
    children.extend(text("W2TxtRelPath", &texture.relative_path));
    children.extend(image_data(&texture.image));
    let fields = size_fields(texture.width, texture.height);
    parent("W2Txt", &fields, &texture.unknown.with("W2Txt", children))
}

pub(super) fn write_sprite(sprite: &Sprite) -> Chunk {
    let mut children = Vec::new();
    children.extend(sprite.index.map(|index| fields::int_leaf("W2Index", index)));
    children.extend(image_data(&sprite.image));
    children.extend(sprite.sides.map(|sides| {
        let bytes: Vec<u8> = sides.iter().flat_map(|side| side.to_le_bytes()).collect();
        padded_leaf("W2SprSides", bytes)
    }));
    let fields = size_fields(sprite.width, sprite.height);
    parent("W2Spr", &fields, &sprite.unknown.with("W2Spr", children))
}

pub(super) fn write_sprite_sequence(sequence: &SpriteSequence) -> Chunk {
    let children = sequence
        .sprites
        .iter()
        .map(|&sprite| fields::int_leaf("W2SpritePtr", sprite))
        .collect();
    let mut fields = FieldWriter::default();
    fields.number(sequence.id);
    parent(
        "W2SpriteSeq",
        &fields.bytes,
        &sequence.unknown.with("W2SpriteSeq", children),
    )
}

pub(super) fn write_metadata(metadata: &Metadata) -> Chunk {
    let mut children = Vec::new();
    children.extend(metadata.timestamp.map(|stamp| {
        let mut fields = FieldWriter::default();
        for value in stamp {
            fields.number(value);
        }
        parent(
            "W2Timestamp",
            &fields.bytes,
            &metadata.unknown.with("W2Timestamp", Vec::new()),
        )
    }));
    children.extend(
        metadata
            .notes
            .as_deref()
            .map(|notes| fields::string_leaf("W2UserNotes", notes)),
    );
    parent("W2Metadata", &[], &metadata.unknown.with("W2Metadata", children))
}

/// W2Textures around its textures, its size padded as TombLib pads it.
pub(super) fn textures_section(children: Vec<Chunk>) -> Chunk {
    padded(Chunk::parent("W2Textures", &[], &children), TEXTURES_SIZE_WIDTH)
}
