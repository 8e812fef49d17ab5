//! Tomb Editor's real Wad2 files (GPL-3.0, read from `../shared/wad2/` and never copied here) and a
//! walk of their chunk trees to the leaves with the container layer, shared by the Wad2 tests.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

use std::path::PathBuf;

use wadforge_format::wad2::{children, leb128, Chunk};

/// The real files' paths in name order, or none (with a message) when `../shared` is absent.
pub fn real_file_paths() -> Vec<PathBuf> {
    wadforge_fixtures::harness::real_wad2_files()
}

/// The real files as (name, bytes), or none (with a message) when `../shared` is absent.
pub fn real_files() -> Vec<(String, Vec<u8>)> {
    real_file_paths()
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

/// A parent's own fields before its child stream, as TombLib's loader reads them.
pub enum Field {
    Number,
    Bytes(usize),
    /// i32 LE byte length, then UTF-8 (the bone name of W2Bone2).
    Name,
}

/// The fields of a parent chunk, or None for a leaf (or an id this walk does not know).
pub fn parent_fields(id: &str) -> Option<Vec<Field>> {
    use Field::{Bytes, Name, Number};
    let numbers = |n| (0..n).map(|_| Number).collect::<Vec<_>>();
    let polygon = |corners: usize, parent_area: bool| {
        let mut fields = numbers(corners + 2);
        fields.extend(parent_area.then_some(Bytes(16)));
        fields.extend([Bytes(8 * corners), Number, Bytes(1)]);
        fields
    };
    Some(match id {
        "W2Textures"
        | "W2Sprites"
        | "W2SpriteSequences"
        | "W2Moveables"
        | "W2Statics"
        | "W2Metadata"
        | "W2Mesh"
        | "W2MeshSphere"
        | "W2BBox"
        | "W2VrtPos"
        | "W2VrtNorm"
        | "W2VrtShd"
        | "W2VrtAttr"
        | "W2VrtWghts"
        | "W2Polys"
        | "W2Bone"
        | "W2Kf"
        | "W2KfBB"
        | "W2StaticVB"
        | "W2StaticCB"
        | "W2StaticLight"
        | "W2MovSkin"
        | "W2AnimatedTextureSets" => Vec::new(),
        "W2Moveable" | "W2SpriteSeq" | "W2StCh" => numbers(1),
        "W2Txt" | "W2Spr" | "W2Static2" | "W2VxAttr" => numbers(2),
        "W2Static" => numbers(3),
        "W2Cmd" | "W2Cmd2" => numbers(4),
        "W2Ani2" => numbers(5),
        "W2Ani3" | "W2Disp2" | "W2Timestamp" => numbers(6),
        // TombLib's Wad2Chunks: W2Ani is `Animation` (state, end frame, frame rate, four old
        // speed numbers, next animation, next frame); W2Anm is `AnimationObsolete`, with two
        // more numbers after the frame rate.
        "W2Ani" => numbers(9),
        "W2Anm" => numbers(11),
        "W2Bone2" => vec![Number, Name],
        // Four (bone, weight) pairs, then an empty child stream: not a leaf.
        "W2VrtWght" => vec![Bytes(32)],
        "W2Tr" => polygon(3, false),
        "W2Uq" => polygon(4, false),
        "W2Tr2" => polygon(3, true),
        "W2Uq2" => polygon(4, true),
        _ => return None,
    })
}

/// Where a parent's child stream starts, past its fields.
pub fn child_start(id: &str, fields: &[Field], bytes: &[u8]) -> Result<usize, String> {
    let mut pos = 0;
    for field in fields {
        match field {
            Field::Number => {
                leb128::read(bytes, &mut pos).map_err(|e| format!("{id} field: {e}"))?;
            }
            Field::Bytes(n) => pos += n,
            Field::Name => {
                let length = bytes.get(pos..pos + 4).ok_or(format!("{id} name cut short"))?;
                let length = i32::from_le_bytes(length.try_into().unwrap());
                pos += 4 + usize::try_from(length).map_err(|_| format!("{id} name length {length}"))?;
            }
        }
    }
    if pos > bytes.len() {
        return Err(format!("{id} fields run past its {} bytes", bytes.len()));
    }
    Ok(pos)
}

/// Calls `each` on every chunk of `chunks` and, depth first, on every known parent's children.
pub fn visit(chunks: &[Chunk], each: &mut dyn FnMut(&Chunk)) -> Result<(), String> {
    for chunk in chunks {
        each(chunk);
        if let Some(fields) = parent_fields(&chunk.id) {
            let start = child_start(&chunk.id, &fields, &chunk.content.bytes)?;
            let inner = children(&chunk.content, start).map_err(|e| format!("{}: {e}", chunk.id))?;
            visit(&inner, each)?;
        }
    }
    Ok(())
}
