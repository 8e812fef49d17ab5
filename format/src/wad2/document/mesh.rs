//! W2Mesh: a mesh's vertices, their colours, weights and attributes, and its textured polygons.

use super::fields::{self, parent, FieldWriter, Fields, UnknownChunks};
use super::shapes::{read_box, read_sphere, write_box, write_sphere, BoundingBox, Sphere};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::Wad2Error;

/// A mesh as Tomb Editor stores it: Y up (negated against a classic WAD), floats.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// W2Index: an obsolete index TombLib still writes (as 0).
    pub index: Option<i64>,
    pub name: String,
    pub sphere: Sphere,
    pub bounding_box: BoundingBox,
    pub positions: Vec<[f32; 3]>,
    /// Classic normals are kept raw, about 16 384 long.
    pub normals: Vec<[f32; 3]>,
    pub colours: Vec<VertexColour>,
    /// W2VrtWghts, which files older than skinned meshes lack.
    pub weights: Option<Vec<VertexWeight>>,
    pub attributes: Vec<VertexAttributes>,
    /// W2MeshLightType: 0 lit by normals, 1 by vertex colours.
    pub light_type: i64,
    /// W2MeshVisible (true means hidden), which older files lack.
    pub hidden: Option<bool>,
    pub polygons: Vec<Polygon>,
    /// Chunks inside the mesh this reader does not know.
    pub unknown: UnknownChunks,
}

/// A vertex's colour: RGB from 0 to 1, or a classic shade in files older than colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VertexColour {
    /// W2VxCol.
    Colour([f32; 3]),
    /// W2Shd: 0 bright to 8191 dark; TombLib reads it as the grey (8191 − shade) / 8191.
    Shade(i64),
}

/// W2VrtWght: up to four bones and their weights.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VertexWeight {
    pub bones: [i32; 4],
    pub weights: [f32; 4],
}

/// W2VxAttr: Tomb Engine's per-vertex glow and movement strengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VertexAttributes {
    pub glow: i64,
    pub movement: i64,
}

/// One textured triangle or quad.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Polygon {
    pub quad: bool,
    /// Corner vertex indices (the fourth unused by a triangle).
    pub corners: [i64; 4],
    /// Shine strength, 0 to 31.
    pub shine: i64,
    /// Index into the file's textures.
    pub texture: i64,
    /// The texture area this one was cut from (W2Tr2/W2Uq2); None for the legacy W2Tr/W2Uq.
    pub parent_area: Option<[[f32; 2]; 2]>,
    /// UV per corner in pixels of the texture (the fourth unused by a triangle).
    pub uvs: [[f32; 2]; 4],
    pub blend_mode: i64,
    pub double_sided: bool,
    pub unknown: UnknownChunks,
}

impl Polygon {
    /// How many corners the polygon has.
    pub fn corner_count(&self) -> usize {
        if self.quad {
            4
        } else {
            3
        }
    }
}

/// Decodes a W2Mesh chunk.
pub(super) fn read_mesh(chunk: &ChunkRef) -> Result<Mesh, Wad2Error> {
    let mut mesh = Mesh::default();
    let unknown = &mut mesh.unknown;
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2Index" => mesh.index = Some(fields::int(&child)?),
            "W2MeshName" => mesh.name = fields::string(&child),
            "W2MeshSphere" => mesh.sphere = read_sphere(&child, unknown)?,
            "W2BBox" => mesh.bounding_box = read_box(&child, unknown)?,
            "W2VrtPos" => mesh.positions = read_list(&child, "W2Pos", fields::vector, unknown)?,
            "W2VrtNorm" => mesh.normals = read_list(&child, "W2N", fields::vector, unknown)?,
            "W2VrtShd" => mesh.colours = read_list(&child, "", read_colour, unknown)?,
            "W2VrtWghts" => {
                mesh.weights = Some(read_list(&child, "W2VrtWght", read_weight, unknown)?);
            }
            "W2VrtAttr" => {
                mesh.attributes = read_list(&child, "W2VxAttr", read_attributes, unknown)?;
            }
            "W2MeshLightType" => mesh.light_type = fields::int(&child)?,
            "W2MeshVisible" => mesh.hidden = Some(fields::boolean(&child)?),
            "W2Polys" => mesh.polygons = read_list(&child, "", read_polygon, unknown)?,
            _ => unknown.keep(chunk.id, &child),
        }
    }
    Ok(mesh)
}

/// The children of list chunk `chunk`: those with id `item` (or, when `item` is empty, those
/// `read` knows) decoded by `read`; others are kept in `unknown`.
pub(super) fn read_list<T, R>(
    chunk: &ChunkRef,
    item: &str,
    read: impl Fn(&ChunkRef) -> Result<R, Wad2Error>,
    unknown: &mut UnknownChunks,
) -> Result<Vec<T>, Wad2Error>
where
    R: Into<Option<T>>,
{
    let mut out = Vec::new();
    for child in Fields::of(chunk).children()? {
        let known = if item.is_empty() || child.id == item {
            read(&child)?.into()
        } else {
            None
        };
        match known {
            Some(value) => out.push(value),
            None => unknown.keep(chunk.id, &child),
        }
    }
    Ok(out)
}

fn read_colour(chunk: &ChunkRef) -> Result<Option<VertexColour>, Wad2Error> {
    Ok(match chunk.id {
        "W2VxCol" => Some(VertexColour::Colour(fields::vector(chunk)?)),
        "W2Shd" => Some(VertexColour::Shade(fields::int(chunk)?)),
        _ => None,
    })
}

/// A W2VrtWght: four (i32 bone, f32 weight) pairs, then an empty child stream.
fn read_weight(chunk: &ChunkRef) -> Result<VertexWeight, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let mut weight = VertexWeight {
        bones: [0; 4],
        weights: [0.0; 4],
    };
    for slot in 0..4 {
        weight.bones[slot] = fields.i32()?;
        weight.weights[slot] = fields.f32()?;
    }
    fields.children()?;
    Ok(weight)
}

fn read_attributes(chunk: &ChunkRef) -> Result<VertexAttributes, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let attributes = VertexAttributes {
        glow: fields.number()?,
        movement: fields.number()?,
    };
    fields.children()?;
    Ok(attributes)
}

fn read_polygon(chunk: &ChunkRef) -> Result<Option<Polygon>, Wad2Error> {
    let (quad, has_parent_area) = match chunk.id {
        "W2Tr" => (false, false),
        "W2Uq" => (true, false),
        "W2Tr2" => (false, true),
        "W2Uq2" => (true, true),
        _ => return Ok(None),
    };
    let mut fields = Fields::of(chunk);
    let mut polygon = Polygon {
        quad,
        ..Polygon::default()
    };
    let count = polygon.corner_count();
    for corner in &mut polygon.corners[..count] {
        *corner = fields.number()?;
    }
    polygon.shine = fields.number()?;
    polygon.texture = fields.number()?;
    if has_parent_area {
        polygon.parent_area = Some([fields.vec2()?, fields.vec2()?]);
    }
    for uv in &mut polygon.uvs[..count] {
        *uv = fields.vec2()?;
    }
    polygon.blend_mode = fields.number()?;
    polygon.double_sided = fields.bool()?;
    for child in fields.children()? {
        polygon.unknown.keep(chunk.id, &child);
    }
    Ok(Some(polygon))
}

/// Encodes a mesh as TombLib writes it.
pub(super) fn write_mesh(mesh: &Mesh) -> Chunk {
    let unknown = &mesh.unknown;
    let list = |id: &str, items: Vec<Chunk>| parent(id, &[], &unknown.with(id, items));
    let mut children = Vec::new();
    children.extend(mesh.index.map(|index| fields::int_leaf("W2Index", index)));
    children.push(fields::string_leaf("W2MeshName", &mesh.name));
    children.push(write_sphere(&mesh.sphere, unknown));
    children.push(write_box("W2BBox", &mesh.bounding_box, unknown));
    let vectors = |item, values: &[[f32; 3]]| -> Vec<Chunk> {
        values.iter().map(|v| fields::vector_leaf(item, v)).collect()
    };
    children.push(list("W2VrtPos", vectors("W2Pos", &mesh.positions)));
    children.push(list("W2VrtNorm", vectors("W2N", &mesh.normals)));
    children.push(list("W2VrtShd", mesh.colours.iter().map(write_colour).collect()));
    if let Some(weights) = &mesh.weights {
        children.push(list("W2VrtWghts", weights.iter().map(write_weight).collect()));
    }
    let attributes = mesh.attributes.iter().map(write_attributes).collect();
    children.push(list("W2VrtAttr", attributes));
    children.push(fields::int_leaf("W2MeshLightType", mesh.light_type));
    children.extend(
        mesh.hidden
            .map(|hidden| fields::bool_leaf("W2MeshVisible", hidden)),
    );
    children.push(list("W2Polys", mesh.polygons.iter().map(write_polygon).collect()));
    parent("W2Mesh", &[], &unknown.with("W2Mesh", children))
}

fn write_colour(colour: &VertexColour) -> Chunk {
    match colour {
        VertexColour::Colour(rgb) => fields::vector_leaf("W2VxCol", rgb),
        VertexColour::Shade(shade) => fields::int_leaf("W2Shd", *shade),
    }
}

fn write_attributes(attributes: &VertexAttributes) -> Chunk {
    let mut fields = FieldWriter::default();
    fields.number(attributes.glow).number(attributes.movement);
    parent("W2VxAttr", &fields.bytes, &[])
}

fn write_weight(weight: &VertexWeight) -> Chunk {
    let mut fields = FieldWriter::default();
    for (bone, value) in weight.bones.iter().zip(&weight.weights) {
        fields.raw(&bone.to_le_bytes()).floats(&[*value]);
    }
    parent("W2VrtWght", &fields.bytes, &[])
}

fn write_polygon(polygon: &Polygon) -> Chunk {
    let count = polygon.corner_count();
    let mut fields = FieldWriter::default();
    for &corner in &polygon.corners[..count] {
        fields.number(corner);
    }
    fields.number(polygon.shine).number(polygon.texture);
    if let Some([start, end]) = polygon.parent_area {
        fields.floats(&start).floats(&end);
    }
    for uv in &polygon.uvs[..count] {
        fields.floats(uv);
    }
    fields
        .number(polygon.blend_mode)
        .raw(&[u8::from(polygon.double_sided)]);
    let id = match (polygon.quad, polygon.parent_area.is_some()) {
        (false, false) => "W2Tr",
        (true, false) => "W2Uq",
        (false, true) => "W2Tr2",
        (true, true) => "W2Uq2",
    };
    parent(id, &fields.bytes, &polygon.unknown.with(id, Vec::new()))
}
