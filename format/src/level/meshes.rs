//! Level meshes → model meshes, and the samples their polygons use:
//!
//! - meshes: one per distinct mesh-pointer offset, in offset order; polygons are the textured
//!   rectangles, textured triangles, coloured rectangles, coloured triangles, in that order
//!   (TR4: textured ones only, each with its effects byte as the polygon's attributes);
//!   object-texture attribute 2 sets [`Attributes::additive`]; lights become
//!   [`Shading::Shades`];
//! - samples: made in first-use order while the meshes are read (meshes in mesh-pointer offset
//!   order, polygons in file order), one per distinct rectangle; a coloured face's sample is its
//!   colour's cell on the colour page.

use std::cell::Cell;

use wadforge_model::catalog::Game;
use wadforge_model::skewed::{Gathering, SkewedCorners};
use wadforge_model::{Attributes, BoundingSphere, Mesh, Polygon, PolygonTexture, Sample, Shading};

use super::bytes::View;
use super::error::{LevelError, Problem};
use super::tables::Tables;
use super::texture::{self, ObjectTexture, Samples};
use crate::records::{self, MeshHead, MeshTable};
use crate::{Limits, TooMuchWork};

/// The polygons a level's meshes may hold, and how many of them are left.
struct PolygonBudget {
    allowed: usize,
    left: Cell<usize>,
}

impl PolygonBudget {
    fn of_file(file_len: usize) -> PolygonBudget {
        // A TR4 level's meshes are inflated from zlib: they are bounded by the file's size.
        let allowed = Limits::DEFAULT.level_polygons.allowed(file_len as u64);
        let allowed = usize::try_from(allowed).unwrap_or(usize::MAX);
        PolygonBudget {
            allowed,
            left: Cell::new(allowed),
        }
    }
}

/// The kind of face a stored polygon is.
#[derive(Clone, Copy)]
enum Face {
    Textured(u16),
    Coloured(u8),
}

struct RawPolygon {
    vertices: [u16; 4],
    is_quad: bool,
    face: Face,
    /// TR4: the low byte of the face's effects word (the WAD's polygon attributes byte).
    effects: Option<u8>,
    /// Where its texture word is, for errors.
    texture_at: usize,
}

struct RawMesh {
    sphere: BoundingSphere,
    vertices: Vec<[i16; 3]>,
    shading: Shading,
    polygons: Vec<RawPolygon>,
    end: usize,
}

/// Decodes the mesh at byte `start` of the mesh data. A coloured face's colour is the low byte
/// of its texture word (TR1's 8-bit palette) or the high byte (TR2/TR3's 16-bit palette).
fn decode_mesh(view: &View, start: usize, game: Game, budget: &PolygonBudget) -> Result<RawMesh, LevelError> {
    let colour_shift = if game == Game::Tr1 { 0 } else { 8 };
    let MeshHead {
        sphere,
        vertices,
        shading,
        end: mut at,
    } = records::mesh_head(view, start)?;
    let vertex_count = vertices.len();
    // TR4 faces carry an effects word; TR3 and TR4 keep a double-sided flag in bit 15 of the
    // texture word (the WAD has no such flag).
    let tr4 = matches!(game, Game::Tr4 | Game::Tr5);
    let index_mask = if matches!(game, Game::Tr3 | Game::Tr4 | Game::Tr5) {
        0x7FFF
    } else {
        0xFFFF
    };
    let lists: &[(bool, bool)] = if tr4 {
        &[(true, false), (false, false)]
    } else {
        &[(true, false), (false, false), (true, true), (false, true)]
    };
    let mut polygons = Vec::new();
    for &(is_quad, coloured) in lists {
        let corners = if is_quad { 4 } else { 3 };
        let size = (corners + 1 + tr4 as usize) * 2;
        let count = view.i16(at)?.max(0) as usize;
        match budget.left.get().checked_sub(count) {
            Some(left) => budget.left.set(left),
            None => {
                let allowed = budget.allowed;
                return Err(view.error(at, Problem::TooMuchWork(TooMuchWork::LevelPolygons { allowed })));
            }
        }
        at += 2;
        view.slice(at, count * size)?;
        polygons.reserve(count);
        for _ in 0..count {
            let vertices = records::polygon_vertices(view, at, corners, vertex_count)?;
            let texture_at = at + corners * 2;
            let word = view.u16(texture_at)?;
            let face = if coloured {
                Face::Coloured((word >> colour_shift) as u8)
            } else {
                Face::Textured(word & index_mask)
            };
            let effects = if tr4 { Some(view.u8(texture_at + 2)?) } else { None };
            polygons.push(RawPolygon {
                vertices,
                is_quad,
                face,
                effects,
                texture_at,
            });
            at += size;
        }
    }
    Ok(RawMesh {
        sphere,
        vertices,
        shading,
        polygons,
        end: at,
    })
}

/// The model's meshes and what reading them made.
pub(super) struct LevelMeshes {
    pub meshes: Vec<Mesh>,
    /// The mesh index of each mesh pointer.
    pub mesh_of_pointer: Vec<usize>,
    pub samples: Vec<Sample>,
    pub skewed: SkewedCorners,
    /// Whether a coloured face uses the colour page.
    pub any_colour: bool,
}

/// Reads the meshes of `t`, one per distinct pointer offset, in offset order, and makes their
/// polygons' samples; coloured faces' samples go on page `colour_page`. Each mesh is textured
/// as soon as it is decoded: holding every stored polygon until all are read took a compressed
/// level's meshes twice the memory.
pub(super) fn read_meshes(
    t: &Tables,
    object_textures: &[ObjectTexture],
    colour_page: u16,
) -> Result<LevelMeshes, LevelError> {
    // Polygons and their samples, made in first-use order.
    let mut texturing = Texturing {
        object_textures,
        colour_page,
        samples: Samples::default(),
        skewed: Gathering::default(),
        any_colour: false,
    };
    let mut m = 0;
    let polygons = PolygonBudget::of_file(t.file_len);
    let MeshTable {
        meshes,
        mesh_of_pointer,
        ..
    } = records::mesh_table(&t.objects.mesh_data, &t.objects.pointers, |offset| {
        let raw = decode_mesh(&t.objects.mesh_data, offset, t.game, &polygons)?;
        let polygons = raw
            .polygons
            .iter()
            .enumerate()
            .map(|(p, poly)| {
                texturing.polygon(poly, m, p).map_err(|problem| {
                    t.objects
                        .mesh_data
                        .error(poly.texture_at, problem)
                        .within(|| format!("mesh {m}, polygon {p}"))
                })
            })
            .collect::<Result<_, _>>()?;
        m += 1;
        let mesh = Mesh {
            sphere: raw.sphere,
            vertices: raw.vertices,
            shading: raw.shading,
            polygons,
        };
        Ok((mesh, raw.end))
    })?;
    Ok(LevelMeshes {
        meshes,
        mesh_of_pointer,
        samples: texturing.samples.list,
        skewed: texturing.skewed.finish(),
        any_colour: texturing.any_colour,
    })
}

/// Polygons' textures as WAD samples and arrangements, and what that made so far.
struct Texturing<'o> {
    object_textures: &'o [ObjectTexture],
    colour_page: u16,
    samples: Samples,
    skewed: Gathering,
    any_colour: bool,
}

impl Texturing<'_> {
    fn sample(&mut self, sample: Sample) -> Result<u16, Problem> {
        self.samples
            .get(sample)
            .ok_or(Problem::TooManySamples(self.samples.list.len() + 1))
    }

    /// The model polygon of stored polygon `p` of mesh `m`.
    fn polygon(&mut self, poly: &RawPolygon, m: usize, p: usize) -> Result<Polygon, Problem> {
        let mut polygon = Polygon {
            vertices: poly.vertices,
            is_quad: poly.is_quad,
            texture: PolygonTexture::default(),
            attributes: poly.effects.map(Attributes::from_byte).unwrap_or_default(),
            unused: 0,
        };
        match poly.face {
            Face::Coloured(colour) => {
                self.any_colour = true;
                polygon.texture.sample = self.sample(texture::colour_sample(colour, self.colour_page))?;
            }
            Face::Textured(index) => self.textured(&mut polygon, poly, index, (m, p))?,
        }
        Ok(polygon)
    }

    /// Maps `polygon` with object texture `index`: its sample is the texture's rectangle, and its
    /// vertices are rotated into the WAD's corner arrangement; a mapping no arrangement gives is
    /// kept among the [`SkewedCorners`] as polygon `at` (mesh, polygon).
    fn textured(
        &mut self,
        polygon: &mut Polygon,
        poly: &RawPolygon,
        index: u16,
        at: (usize, usize),
    ) -> Result<(), Problem> {
        let n = if poly.is_quad { 4 } else { 3 };
        let o = self
            .object_textures
            .get(index as usize)
            .ok_or(Problem::IndexOutOfRange {
                what: "object texture",
                index: index as u64,
                len: self.object_textures.len() as u64,
            })?;
        polygon.attributes.additive |= o.attribute == 2;
        let points = o.edges(n);
        let (sample, recovered) = texture::corners_texture(&points, o.tile, poly.is_quad);
        polygon.texture.sample = self.sample(sample)?;
        if !texture::arrange(polygon, recovered) {
            self.skewed.add(
                at,
                std::array::from_fn(|i| points.get(i).copied().unwrap_or_default()),
            );
        }
        Ok(())
    }
}
