//! Model meshes as Wad2 meshes, and the pages their polygons use as Wad2 textures.

use std::collections::BTreeMap;

use wadforge_model::skewed::SkewedCorners;
use wadforge_model::texture_corners::polygon_corners;
use wadforge_model::{Mesh, Shading, Wad, PAGE_SIZE};

use crate::wad2::document::{self, BoundingBox, Image, Polygon, Sphere, Texture, VertexColour};

/// A classic point (Y down) as a Wad2 one (Y up).
pub(super) fn flip(v: [f32; 3]) -> [f32; 3] {
    [v[0], -v[1], v[2]]
}

/// Shades run from 0 (bright) to this (dark).
const DARKEST: f32 = 8191.0;

/// The meshes written so far and the pages they use, each page one texture.
pub(super) struct MeshWriting<'a> {
    wad: &'a Wad,
    skewed: &'a SkewedCorners,
    /// Page → texture index, in order of first use.
    textures: BTreeMap<usize, usize>,
}

impl<'a> MeshWriting<'a> {
    pub fn new(wad: &'a Wad, skewed: &'a SkewedCorners) -> Self {
        MeshWriting {
            wad,
            skewed,
            textures: BTreeMap::new(),
        }
    }

    /// The texture of `page`, made on first use.
    fn texture_of(&mut self, page: usize) -> usize {
        let next = self.textures.len();
        *self.textures.entry(page).or_insert(next)
    }

    /// The pages used, as textures in index order: BGRA, magenta transparent.
    pub fn textures(&self) -> Vec<Texture> {
        let mut by_index: Vec<(usize, usize)> = self.textures.iter().map(|(&p, &t)| (t, p)).collect();
        by_index.sort_unstable();
        by_index
            .into_iter()
            .map(|(_, page)| {
                let bgra = self.wad.pages.get(page).map_or_else(Vec::new, |p| {
                    p.rgb()
                        .chunks_exact(3)
                        .flat_map(|t| match t {
                            [255, 0, 255] => [0, 0, 0, 0],
                            _ => [t[2], t[1], t[0], 255],
                        })
                        .collect()
                });
                let side = PAGE_SIZE as u32;
                Texture {
                    image: Some(Image {
                        width: side,
                        height: side,
                        bgra,
                    }),
                    width: i64::from(side),
                    height: i64::from(side),
                    name: Some(format!("page_{page}")),
                    ..Texture::default()
                }
            })
            .collect()
    }

    /// Model mesh `index` as a Wad2 mesh (an empty one for an index the model lacks).
    pub fn mesh(&mut self, index: usize) -> document::Mesh {
        let Some(mesh) = self.wad.meshes.get(index) else {
            return document::Mesh::default();
        };
        let positions: Vec<[f32; 3]> = mesh.vertices.iter().map(|v| flip(v.map(f32::from))).collect();
        let (normals, colours, light_type) = shading(mesh);
        let polygons = (0..mesh.polygons.len())
            .map(|p| self.polygon(mesh, index, p))
            .collect();
        document::Mesh {
            index: Some(0),
            name: format!("mesh_{index}"),
            sphere: Sphere {
                centre: flip(mesh.sphere.center.map(f32::from)),
                radius: f64::from(mesh.sphere.radius),
            },
            bounding_box: bounding_box(&positions),
            positions,
            normals,
            colours,
            weights: None,
            attributes: Vec::new(),
            light_type,
            hidden: Some(false),
            polygons,
            unknown: document::UnknownChunks::default(),
        }
    }

    /// Polygon `p` of model mesh `mesh` (number `index`).
    fn polygon(&mut self, mesh: &Mesh, index: usize, p: usize) -> Polygon {
        let polygon = &mesh.polygons[p];
        let n = polygon.corners().len();
        let sample = self
            .wad
            .samples
            .get(usize::from(polygon.texture.sample))
            .copied()
            .unwrap_or_default();
        let mut uvs = [[0.0; 2]; 4];
        match self.skewed.get(&(index, p)) {
            Some(corners) => {
                for (uv, c) in uvs.iter_mut().zip(&corners[..n]) {
                    *uv = [f32::from(c[0]), f32::from(c[1])];
                }
            }
            None => {
                for (uv, c) in uvs
                    .iter_mut()
                    .zip(polygon_corners(&sample, polygon.texture, polygon.is_quad))
                {
                    *uv = [c.x as f32, c.y as f32];
                }
            }
        }
        if n == 3 {
            // As TombLib writes a triangle: its fourth UV repeats the third.
            uvs[3] = uvs[2];
        }
        let mut corners = [0i64; 4];
        for (corner, &v) in corners.iter_mut().zip(polygon.corners()) {
            *corner = i64::from(v);
        }
        Polygon {
            quad: polygon.is_quad,
            corners,
            shine: i64::from(polygon.attributes.shine_intensity),
            texture: self.texture_of(usize::from(sample.page)) as i64,
            parent_area: Some([[0.0; 2]; 2]),
            uvs,
            blend_mode: if polygon.attributes.additive { 2 } else { 0 },
            double_sided: false,
            unknown: document::UnknownChunks::default(),
        }
    }
}

/// Normals (lit by them, type 0), or grey colours from shades (lit by them, type 1) with
/// normals made from the faces, as Tomb Editor keeps both.
fn shading(mesh: &Mesh) -> (Vec<[f32; 3]>, Vec<VertexColour>, i64) {
    match &mesh.shading {
        Shading::Normals(normals) => (
            normals.iter().map(|n| flip(n.map(f32::from))).collect(),
            Vec::new(),
            0,
        ),
        Shading::Shades(shades) => {
            let length = Shading::NORMAL_LENGTH;
            let normals = mesh
                .area_weighted_normals()
                .iter()
                .map(|n| flip(n.map(|c| (c * length) as f32)))
                .collect();
            let colours = shades
                .iter()
                .map(|&s| VertexColour::Colour([(DARKEST - f32::from(s)) / DARKEST; 3]))
                .collect();
            (normals, colours, 1)
        }
    }
}

/// The box round `positions` (sorted per axis: Tomb Editor sorts mesh boxes).
fn bounding_box(positions: &[[f32; 3]]) -> BoundingBox {
    let Some(first) = positions.first() else {
        return BoundingBox::default();
    };
    positions.iter().fold(
        BoundingBox {
            min: *first,
            max: *first,
        },
        |b, p| BoundingBox {
            min: [0, 1, 2].map(|k| b.min[k].min(p[k])),
            max: [0, 1, 2].map(|k| b.max[k].max(p[k])),
        },
    )
}
