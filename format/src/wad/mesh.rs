//! One mesh record of the meshes package.

use wadforge_model::{Attributes, Mesh, Polygon, PolygonTexture, Shading};

use super::bytes::{PutLe, View};
use super::error::{Problem, ReadError, WriteError};
use crate::records::{self, MeshHead};

const TRIANGLE: u16 = 8;
const QUAD: u16 = 9;

/// A decoded mesh and where its record ends: `data_end` after the last polygon, `end` after the
/// padding word that follows an odd number of quads.
pub(crate) struct DecodedMesh {
    pub mesh: Mesh,
    pub data_end: usize,
    pub end: usize,
}

pub(crate) fn decode(view: &View, start: usize, sample_count: usize) -> Result<DecodedMesh, ReadError> {
    let MeshHead {
        sphere,
        vertices,
        shading,
        end: mut at,
    } = records::mesh_head(view, start)?;
    let vertex_count = vertices.len();

    let polygon_count = view.u16(at)? as usize;
    at += 2;
    // A polygon takes at least 12 bytes: refuse impossible counts before allocating.
    view.slice(at, polygon_count * 12)?;
    let mut polygons = Vec::with_capacity(polygon_count);
    let mut quads = 0usize;
    for _ in 0..polygon_count {
        let shape = view.u16(at)?;
        let is_quad = match shape {
            TRIANGLE => false,
            QUAD => true,
            other => return Err(view.error(at, Problem::UnknownPolygonShape(other))),
        };
        let corner_count = if is_quad { 4 } else { 3 };
        let vertices_of = records::polygon_vertices(view, at + 2, corner_count, vertex_count)?;
        let texture_at = at + 2 + corner_count * 2;
        let texture = decode_texture(view.u16(texture_at)?, is_quad);
        if texture.sample as usize >= sample_count {
            return Err(view.error(
                texture_at,
                Problem::IndexOutOfRange {
                    what: "texture sample",
                    index: texture.sample as u64,
                    len: sample_count as u64,
                },
            ));
        }
        let attributes = Attributes::from_byte(view.u8(texture_at + 2)?);
        let unused = view.u8(texture_at + 3)?;
        polygons.push(Polygon {
            vertices: vertices_of,
            is_quad,
            texture,
            attributes,
            unused,
        });
        quads += is_quad as usize;
        at = texture_at + 4;
    }
    let data_end = at;
    let end = if quads % 2 == 1 {
        if view.len() < at + 2 {
            return Err(view.error(at, Problem::MissingQuadPadding));
        }
        at + 2
    } else {
        at
    };
    Ok(DecodedMesh {
        mesh: Mesh {
            sphere,
            vertices,
            shading,
            polygons,
        },
        data_end,
        end,
    })
}

/// Triangles: bit 15 flip, bits 12..14 shape, bits 0..11 sample. Quads: the sample index, or its
/// two's-complement negation when flipped.
fn decode_texture(word: u16, is_quad: bool) -> PolygonTexture {
    if is_quad {
        if word & 0x8000 != 0 {
            PolygonTexture {
                sample: word.wrapping_neg(),
                shape: 0,
                flipped: true,
            }
        } else {
            PolygonTexture {
                sample: word,
                shape: 0,
                flipped: false,
            }
        }
    } else {
        PolygonTexture {
            sample: word & 0x0FFF,
            shape: ((word >> 12) & 7) as u8,
            flipped: word & 0x8000 != 0,
        }
    }
}

fn encode_texture(texture: PolygonTexture, is_quad: bool) -> Result<u16, WriteError> {
    let PolygonTexture {
        sample,
        shape,
        flipped,
    } = texture;
    let fits = if is_quad {
        if flipped {
            (1..=0x8000).contains(&sample)
        } else {
            sample < 0x8000
        }
    } else {
        sample <= 0x0FFF && shape <= 7
    };
    if !fits {
        let (max, hint) = if is_quad {
            (
                0x7FFF,
                "a quad reaches at most 32767 samples, and a flipped quad cannot use sample 0",
            )
        } else {
            (
                0x0FFF,
                "triangles reach only the first 4096 samples and shapes 0..7",
            )
        };
        return Err(WriteError::OutOfRange {
            what: format!("polygon texture (sample {sample}, shape {shape}, flipped {flipped})"),
            value: sample as u64,
            max,
            hint,
        });
    }
    Ok(if is_quad {
        if flipped {
            sample.wrapping_neg()
        } else {
            sample
        }
    } else {
        (flipped as u16) << 15 | (shape as u16) << 12 | sample
    })
}

/// Size of the encoded mesh record including its padding word.
pub(crate) fn encoded_size(mesh: &Mesh) -> usize {
    let shading = match &mesh.shading {
        Shading::Normals(n) => n.len() * 6,
        Shading::Shades(s) => s.len() * 2,
    };
    let polygons: usize = mesh
        .polygons
        .iter()
        .map(|p| if p.is_quad { 14 } else { 12 })
        .sum();
    let quads = mesh.polygons.iter().filter(|p| p.is_quad).count();
    10 + 2 + mesh.vertices.len() * 6 + 2 + shading + 2 + polygons + (quads % 2) * 2
}

/// The mesh record without its padding word (the package writer leaves that to the layout's
/// gaps, or zero).
pub(crate) fn encode(mesh: &Mesh) -> Result<Vec<u8>, WriteError> {
    let too_many = |what: &str, value: usize, max: usize| WriteError::OutOfRange {
        what: what.to_string(),
        value: value as u64,
        max: max as u64,
        hint: "split the mesh",
    };
    let mut out = Vec::with_capacity(encoded_size(mesh));
    for c in mesh.sphere.center {
        out.put_i16(c);
    }
    out.put_u16(mesh.sphere.radius);
    out.put_u16(mesh.sphere.flag);
    if mesh.vertices.len() > u16::MAX as usize {
        return Err(too_many(
            "vertices in a mesh",
            mesh.vertices.len(),
            u16::MAX as usize,
        ));
    }
    out.put_u16(mesh.vertices.len() as u16);
    for v in &mesh.vertices {
        v.iter().for_each(|&c| out.put_i16(c));
    }
    match &mesh.shading {
        Shading::Normals(normals) => {
            if normals.len() > i16::MAX as usize {
                return Err(too_many("normals in a mesh", normals.len(), i16::MAX as usize));
            }
            out.put_i16(normals.len() as i16);
            for n in normals {
                n.iter().for_each(|&c| out.put_i16(c));
            }
        }
        Shading::Shades(shades) => {
            if shades.len() > 32768 {
                return Err(too_many("shades in a mesh", shades.len(), 32768));
            }
            out.put_i16((shades.len() as i32).wrapping_neg() as i16);
            shades.iter().for_each(|&s| out.put_i16(s));
        }
    }
    if mesh.polygons.len() > u16::MAX as usize {
        return Err(too_many(
            "polygons in a mesh",
            mesh.polygons.len(),
            u16::MAX as usize,
        ));
    }
    out.put_u16(mesh.polygons.len() as u16);
    for p in &mesh.polygons {
        out.put_u16(if p.is_quad { QUAD } else { TRIANGLE });
        p.corners().iter().for_each(|&v| out.put_u16(v));
        out.put_u16(encode_texture(p.texture, p.is_quad)?);
        out.push(p.attributes.to_byte());
        out.push(p.unused);
    }
    Ok(out)
}
