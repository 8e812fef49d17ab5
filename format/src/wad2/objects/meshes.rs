//! Wad2 meshes → the model's: Y negated and rounded to 16-bit coordinates, normals or shades,
//! and polygons textured by samples round their corners on the texture's page.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;

use wadforge_model::skewed::Gathering;
use wadforge_model::{Attributes, BoundingSphere, Mesh, Polygon, PolygonTexture, Shading, Wad};

use super::losses::{LossKind, Losses};
use super::pages::{Placements, Rect};
use super::ObjectError;
use crate::level::texture::{self as level_texture, Samples};
use crate::wad2::document::{self, VertexColour};

/// UVs this close to a texel corner are on it (older TombLib wrote 23.996 for 24).
const ON_TEXEL: f32 = 1.0 / 64.0;
/// Shades run from 0 (bright) to this (dark).
const DARKEST: f32 = 8191.0;
/// Normals no longer than this are unit normals (Tomb Engine's); longer ones are TR's, about
/// 16 384 long, as Tomb Editor copies a classic WAD's (kept as they are).
const UNIT_AT_MOST: f32 = 2.0;

fn length_of(n: &[f32; 3]) -> f32 {
    n.iter().map(|c| c * c).sum::<f32>().sqrt()
}

/// Everything meshes share while they are mapped.
pub(super) struct MeshMapping<'a> {
    pub placements: &'a Placements,
    pub samples: Samples,
    pub skewed: Gathering,
    pub losses: Losses,
    pub distinct: DistinctMeshes,
}

/// The meshes mapped so far, by their content's hash. Tomb Editor writes every object's meshes
/// whole where a classic WAD shares one mesh among objects, as TR4's LARA wears LARA_SKIN's
/// thigh at every joint for placeholders; what dresses a skeleton
/// ([`wadforge_model::dressing::dressings`]) and a WAD written from the model rely on that sharing, so
/// meshes of the same content are one mesh of the model, as TombLib makes them one when it
/// builds a level.
#[derive(Default)]
pub(super) struct DistinctMeshes {
    by_hash: HashMap<u64, Vec<usize>>,
    hasher: RandomState,
}

/// A coordinate as a 16-bit word: rounded, clamped (counted as a loss) when past the word or
/// not a number.
pub(super) fn word(value: f32, losses: &mut Losses) -> i16 {
    let rounded = value.round();
    if !(rounded >= f32::from(i16::MIN) && rounded <= f32::from(i16::MAX)) {
        losses.add(LossKind::CoordinatesClamped, 1);
        return if value.is_nan() {
            0
        } else if value > 0.0 {
            i16::MAX
        } else {
            i16::MIN
        };
    }
    rounded as i16
}

/// A Wad2 point (Y up) as a classic one (Y down).
pub(crate) fn point(v: [f32; 3], losses: &mut Losses) -> [i16; 3] {
    [word(v[0], losses), word(-v[1], losses), word(v[2], losses)]
}

impl MeshMapping<'_> {
    /// The model's mesh for `mesh`: an earlier mesh of the same content, or `mesh` mapped and
    /// added to `model`. A mesh with skewed polygons keeps its own (its exact corners are kept
    /// by mesh).
    pub fn add_mesh(
        &mut self,
        model: &mut Wad,
        mesh: &document::Mesh,
        shiny: bool,
    ) -> Result<usize, ObjectError> {
        let index = model.meshes.len();
        let skewed_before = self.skewed.len();
        let mapped = self.mesh(mesh, index, shiny)?;
        if self.skewed.len() == skewed_before {
            let hash = self.distinct.hasher.hash_one(&mapped);
            let same = self.distinct.by_hash.entry(hash).or_default();
            if let Some(&earlier) = same.iter().find(|&&m| model.meshes.get(m) == Some(&mapped)) {
                return Ok(earlier);
            }
            same.push(index);
        }
        model.meshes.push(mapped);
        Ok(index)
    }

    /// Model mesh number `index` from `mesh`; `shiny` allows the shine bit (moveables only).
    pub fn mesh(&mut self, mesh: &document::Mesh, index: usize, shiny: bool) -> Result<Mesh, ObjectError> {
        let losses = &mut self.losses;
        let vertices: Vec<[i16; 3]> = mesh.positions.iter().map(|&p| point(p, losses)).collect();
        let sphere = BoundingSphere {
            center: point(mesh.sphere.centre, losses),
            radius: mesh.sphere.radius.ceil().clamp(0.0, f64::from(u16::MAX)) as u16,
            // Wad2 has no flag word; Tomb Editor writes the radius as 32 bits, so the word is 0.
            flag: 0,
        };
        self.count_extras(mesh);
        let polygons = mesh
            .polygons
            .iter()
            .enumerate()
            .map(|(p, polygon)| self.polygon(polygon, vertices.len(), (index, p), shiny))
            .collect::<Result<Vec<_>, _>>()?;
        let mut model = Mesh {
            sphere,
            vertices,
            shading: Shading::default(),
            polygons,
        };
        model.shading = shading(mesh, &model, &mut self.losses);
        Ok(model)
    }

    /// Counts what the model cannot hold of the mesh's vertices.
    fn count_extras(&mut self, mesh: &document::Mesh) {
        let losses = &mut self.losses;
        let attributes = mesh.attributes.iter().filter(|a| a.glow != 0 || a.movement != 0);
        losses.add(LossKind::VertexAttributes, attributes.count());
        losses.add(LossKind::VertexWeights, mesh.weights.as_ref().map_or(0, Vec::len));
        losses.add(LossKind::HiddenMesh, usize::from(mesh.hidden == Some(true)));
    }

    /// Model polygon `at` (mesh, polygon) from `polygon`, on a mesh of `vertex_count` vertices.
    fn polygon(
        &mut self,
        polygon: &document::Polygon,
        vertex_count: usize,
        at: (usize, usize),
        shiny: bool,
    ) -> Result<Polygon, ObjectError> {
        let n = polygon.corner_count();
        let mut vertices = [0u16; 4];
        for (slot, &corner) in vertices.iter_mut().zip(&polygon.corners[..n]) {
            *slot = u16::try_from(corner)
                .ok()
                .filter(|&c| usize::from(c) < vertex_count)
                .ok_or_else(|| {
                    ObjectError::polygon(at, format!("names vertex {corner} of {vertex_count}"))
                })?;
        }
        let losses = &mut self.losses;
        match polygon.blend_mode {
            0..=2 => {}
            mode => losses.add(LossKind::BlendMode(mode), 1),
        }
        losses.add(LossKind::DoubleSided, usize::from(polygon.double_sided));
        losses.add(
            LossKind::ShineClamped,
            usize::from(!(0..=31).contains(&polygon.shine)),
        );
        let shine = polygon.shine.clamp(0, 31) as u8;
        let attributes = Attributes {
            additive: polygon.blend_mode == 2,
            shine: shiny && shine > 0,
            shine_intensity: shine,
            unknown_bit: false,
        };
        let mut model = Polygon {
            vertices,
            is_quad: polygon.quad,
            texture: PolygonTexture::default(),
            attributes,
            unused: 0,
        };
        self.texture(&mut model, polygon, at)?;
        Ok(model)
    }

    /// Textures `model` with the sample round `polygon`'s UVs on its texture's page.
    fn texture(
        &mut self,
        model: &mut Polygon,
        polygon: &document::Polygon,
        at: (usize, usize),
    ) -> Result<(), ObjectError> {
        let missing = || {
            ObjectError::polygon(
                at,
                format!("names texture {}, which the file does not hold", polygon.texture),
            )
        };
        let texture = usize::try_from(polygon.texture).map_err(|_| missing())?;
        let size = self.placements.size(texture).ok_or_else(missing)?;
        let corners = texel_corners(polygon, size);
        let placement = self.placements.find(texture, corners.rect).ok_or_else(missing)?;
        let points: Vec<[u16; 2]> = corners.points[..corners.count]
            .iter()
            .map(|&c| placement.on_page(c))
            .collect();
        self.losses.add(LossKind::UvsOffTexels, usize::from(corners.off));
        self.losses
            .add(LossKind::UvsOutsideTexture, usize::from(corners.outside));
        self.losses
            .add(LossKind::TexturesShrunk, usize::from(placement.scale > 1));
        let (sample, recovered) = level_texture::corners_texture(&points, placement.page, model.is_quad);
        model.texture.sample = self
            .samples
            .get(sample)
            .ok_or_else(|| ObjectError::polygon(at, "needs a 65 537th texture sample".into()))?;
        if !level_texture::arrange(model, recovered) {
            self.skewed.add(
                at,
                std::array::from_fn(|i| points.get(i).copied().unwrap_or_default()),
            );
        }
        Ok(())
    }
}

/// A polygon's UVs as texel corners of its texture, and what snapping them did.
pub(crate) struct TexelCorners {
    /// One per corner (the first `count`), rounded and clamped to the texture.
    pub points: [[u32; 2]; 4],
    pub count: usize,
    /// The rectangle they span.
    pub rect: Rect,
    /// Some UV was off its texel corner (moved to the nearest).
    pub off: bool,
    /// Some UV was outside the texture (clamped to its edge).
    pub outside: bool,
}

/// `polygon`'s UVs on a texture of `size` texels as texel corners (older TombLib wrote 23.996
/// for 24).
pub(crate) fn texel_corners(polygon: &document::Polygon, size: [u32; 2]) -> TexelCorners {
    let (mut off, mut outside) = (false, false);
    let mut snap = |value: f32, extent: u32| {
        let rounded = if value.is_finite() { value.round() } else { 0.0 };
        off |= (value - rounded).abs() > ON_TEXEL;
        outside |= rounded < 0.0 || rounded > extent as f32;
        rounded.clamp(0.0, extent as f32) as u32
    };
    let count = polygon.corner_count();
    let mut points = [[0u32; 2]; 4];
    for (point, &[u, v]) in points.iter_mut().zip(&polygon.uvs[..count]) {
        *point = [snap(u, size[0]), snap(v, size[1])];
    }
    let span = |axis: usize| {
        let values = points[..count].iter().map(|p| p[axis]);
        (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
    };
    let ((left, right), (top, bottom)) = (span(0), span(1));
    TexelCorners {
        points,
        count,
        rect: [left, top, right, bottom],
        off,
        outside,
    }
}

/// A Wad2 mesh's vertices and shading as the model holds them, as [`MeshMapping::mesh`] maps
/// them (a polygon naming no vertex of the mesh adds no face): how detail kept from a base file
/// tells an unedited vertex.
pub(crate) fn model_vertices(mesh: &document::Mesh) -> (Vec<[i16; 3]>, Shading) {
    let mut losses = Losses::default();
    let vertices: Vec<[i16; 3]> = mesh.positions.iter().map(|&p| point(p, &mut losses)).collect();
    let polygons = mesh
        .polygons
        .iter()
        .filter_map(|p| {
            let mut corners = [0u16; 4];
            for (slot, &c) in corners.iter_mut().zip(&p.corners[..p.corner_count()]) {
                *slot = u16::try_from(c)
                    .ok()
                    .filter(|&c| usize::from(c) < vertices.len())?;
            }
            Some(Polygon {
                vertices: corners,
                is_quad: p.quad,
                texture: PolygonTexture::default(),
                attributes: Attributes::default(),
                unused: 0,
            })
        })
        .collect();
    let model = Mesh {
        sphere: BoundingSphere::default(),
        vertices,
        shading: Shading::default(),
        polygons,
    };
    let shading = shading(mesh, &model, &mut losses);
    (model.vertices, shading)
}

/// Shades for a mesh lit by its vertex colours, else normals: TR-length (and zero) ones as
/// they are, unit ones scaled to TR's length, made from the faces where the file's are
/// missing or not numbers. `model` is the mesh's model geometry (for the faces).
fn shading(mesh: &document::Mesh, model: &Mesh, losses: &mut Losses) -> Shading {
    let count = mesh.positions.len();
    if mesh.light_type == 1 && mesh.colours.len() == count {
        let mut coloured = 0;
        let shades = mesh
            .colours
            .iter()
            .map(|colour| match *colour {
                VertexColour::Shade(shade) => shade.clamp(0, DARKEST as i64) as i16,
                VertexColour::Colour([r, g, b]) => {
                    coloured += usize::from(r.max(g).max(b) - r.min(g).min(b) > 1.0 / 255.0);
                    let grey = ((r + g + b) / 3.0).clamp(0.0, 1.0);
                    (DARKEST - grey * DARKEST).round() as i16
                }
            })
            .collect();
        losses.add(LossKind::ColouredVertices, coloured);
        return Shading::Shades(shades);
    }
    let white = |c: &VertexColour| matches!(c, VertexColour::Colour(rgb) if rgb.iter().all(|&v| v >= 1.0 - 1.0 / 255.0));
    losses.add(
        LossKind::ColouredVertices,
        mesh.colours.iter().filter(|c| !white(c)).count(),
    );
    // Made from the faces only when some vertex needs it.
    let mut remade: Option<Vec<[f64; 3]>> = None;
    let length = Shading::NORMAL_LENGTH;
    let normals = (0..count)
        .map(|v| match mesh.normals.get(v) {
            // Zero normals, which classic files hold, stay zero.
            Some(n)
                if n.iter().all(|c| c.is_finite())
                    && (length_of(n) > UNIT_AT_MOST || length_of(n) == 0.0) =>
            {
                point(*n, losses)
            }
            // Tomb Engine's own meshes hold unit normals: the model's are TR's length.
            Some(n) if n.iter().all(|c| c.is_finite()) && length_of(n) > 0.0 => {
                let scale = length as f32 / length_of(n);
                point(n.map(|c| c * scale), losses)
            }
            _ => {
                losses.add(LossKind::NormalsRemade, 1);
                let n = remade.get_or_insert_with(|| model.area_weighted_normals())[v];
                [n[0], n[1], n[2]].map(|c| (c * length).round() as i16)
            }
        })
        .collect();
    Shading::Normals(normals)
}
