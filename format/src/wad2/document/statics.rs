//! W2Static2 and the legacy W2Static: a static's mesh, lighting, shattering and boxes.

use super::fields::{self, parent, FieldWriter, Fields, UnknownChunks};
use super::mesh::{read_mesh, write_mesh, Mesh};
use super::shapes::{read_box, write_box, BoundingBox};
use crate::wad2::chunks::{Chunk, ChunkRef};
use crate::wad2::error::{Wad2Error, Wad2Problem};

/// A static as Tomb Editor stores it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Static {
    pub id: i64,
    pub flags: i64,
    /// The legacy W2Static's lighting type (TombLib gives it to the mesh); None for W2Static2.
    pub legacy_light_type: Option<i64>,
    pub mesh: Mesh,
    pub ambient_light: Option<i64>,
    pub shatter: Option<bool>,
    pub shatter_sound: Option<i64>,
    pub lights: Vec<StaticLight>,
    pub visibility_box: Option<BoundingBox>,
    pub collision_box: Option<BoundingBox>,
    pub unknown: UnknownChunks,
}

/// W2StaticLight: a light baked into the static.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StaticLight {
    pub position: [f32; 3],
    pub radius: f64,
    pub intensity: f64,
    pub unknown: UnknownChunks,
}

pub(super) fn read_static(chunk: &ChunkRef) -> Result<Static, Wad2Error> {
    let mut fields = Fields::of(chunk);
    let id = fields.number()?;
    let flags = fields.number()?;
    let legacy_light_type = match chunk.id {
        "W2Static" => Some(fields.number()?),
        _ => None,
    };
    let mut found = Static {
        id,
        flags,
        legacy_light_type,
        ..Static::default()
    };
    let mut mesh = None;
    let unknown = &mut found.unknown;
    for child in fields.children()? {
        match child.id {
            "W2Mesh" => mesh = Some(read_mesh(&child)?),
            "W2StaticAmbientLight" => found.ambient_light = Some(fields::int(&child)?),
            "W2StaticShatter" => found.shatter = Some(fields::boolean(&child)?),
            "W2StaticShatterSound" => found.shatter_sound = Some(fields::int(&child)?),
            "W2StaticLight" => found.lights.push(read_light(&child)?),
            "W2StaticVB" => found.visibility_box = Some(read_box(&child, unknown)?),
            "W2StaticCB" => found.collision_box = Some(read_box(&child, unknown)?),
            _ => unknown.keep(chunk.id, &child),
        }
    }
    found.mesh = mesh.ok_or_else(|| {
        let problem = Wad2Problem::MissingChunk {
            parent: "static",
            child: "W2Mesh",
        };
        fields::error_in(chunk, 0, problem)
    })?;
    Ok(found)
}

fn read_light(chunk: &ChunkRef) -> Result<StaticLight, Wad2Error> {
    let mut light = StaticLight::default();
    for child in Fields::of(chunk).children()? {
        match child.id {
            "W2StaticLightPos" => light.position = fields::vector(&child)?,
            "W2StaticLightR" => light.radius = fields::float(&child)?,
            "W2StaticLightI" => light.intensity = fields::float(&child)?,
            _ => light.unknown.keep(chunk.id, &child),
        }
    }
    Ok(light)
}

pub(super) fn write_static(found: &Static) -> Chunk {
    let unknown = &found.unknown;
    let mut fields = FieldWriter::default();
    fields.number(found.id).number(found.flags);
    if let Some(light_type) = found.legacy_light_type {
        fields.number(light_type);
    }
    let mut children = vec![write_mesh(&found.mesh)];
    let int = |id, value: Option<i64>| value.map(|value| fields::int_leaf(id, value));
    children.extend(int("W2StaticAmbientLight", found.ambient_light));
    children.extend(
        found
            .shatter
            .map(|shatter| fields::bool_leaf("W2StaticShatter", shatter)),
    );
    children.extend(int("W2StaticShatterSound", found.shatter_sound));
    children.extend(found.lights.iter().map(|light| {
        let known = vec![
            fields::vector_leaf("W2StaticLightPos", &light.position),
            fields::float_leaf("W2StaticLightR", light.radius),
            fields::float_leaf("W2StaticLightI", light.intensity),
        ];
        parent("W2StaticLight", &[], &light.unknown.with("W2StaticLight", known))
    }));
    for (id, bounding_box) in [
        ("W2StaticVB", &found.visibility_box),
        ("W2StaticCB", &found.collision_box),
    ] {
        children.extend(bounding_box.map(|b| write_box(id, &b, unknown)));
    }
    let id = if found.legacy_light_type.is_some() {
        "W2Static"
    } else {
        "W2Static2"
    };
    parent(id, &fields.bytes, &unknown.with(id, children))
}
