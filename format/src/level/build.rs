//! Walked level tables (TR1–TR4) → model.
//!
//! - pages: the textiles (see [`super::tr1`], [`super::tr2`] and [`super::tr4`] for how each
//!   game's become 24-bit pages); then, when coloured faces occur (TR1–TR3), one page of 4×4
//!   solid cells, colour `i` at `(i % 64 · 4, i / 64 · 4)`;
//! - samples: made in first-use order while the meshes are read (meshes in mesh-pointer offset
//!   order, polygons in file order), one per distinct rectangle;
//! - meshes: one per distinct mesh-pointer offset, in offset order; polygons are the textured
//!   rectangles, textured triangles, coloured rectangles, coloured triangles, in that order
//!   (TR4: textured ones only, each with its effects byte as the polygon's attributes);
//!   object-texture attribute 2 sets [`Attributes::additive`]; lights become
//!   [`Shading::Shades`];
//! - moveables: one per model, animations from its first to the next model's first (indices
//!   made relative to the moveable), mesh-tree links, frames in the game's encoding;
//! - statics: one per static mesh, boxes in file order.

use std::cell::Cell;
use std::collections::HashMap;

use super::bytes::View;
use super::error::{LevelError, Problem};
use super::texture::{self, ApproximateMapping, ObjectTexture};
use super::Level;
use crate::catalog::Game;
use crate::model::{
    Animation, Attributes, BoundingSphere, Mesh, Moveable, Polygon, PolygonTexture, Sample, Shading, Wad,
};
use crate::records::{
    self, AnimationTables, Coverage, Covered, KeyframeRun, MeshHead, MeshTable, ModelRecord,
};

/// Bytes of a TR1–TR3 object texture.
pub(super) const OBJECT_TEXTURE_SIZE: usize = 20;
/// Bytes of a TR4 object texture.
pub(super) const TR4_OBJECT_TEXTURE_SIZE: usize = 38;

/// The sections the model is built from.
pub(super) struct Tables<'a> {
    pub game: Game,
    pub version: u32,
    pub file_len: usize,
    /// TR1: the 8-bit textiles; TR2/TR3: the 16-bit ones; TR4: the 32-bit ones.
    pub textiles: View<'a>,
    pub textile_count: usize,
    pub mesh_data: View<'a>,
    pub pointers: View<'a>,
    pub animation_count: usize,
    pub animations: View<'a>,
    pub state_changes: View<'a>,
    pub dispatches: View<'a>,
    pub commands: View<'a>,
    pub mesh_trees: View<'a>,
    pub frames: View<'a>,
    pub model_count: usize,
    pub models: View<'a>,
    pub static_count: usize,
    pub statics: View<'a>,
    pub object_textures: View<'a>,
    /// TR1: the 6-bit palette (768 bytes); TR2/TR3: the 16-bit palette (1024 bytes); TR4:
    /// none (empty).
    pub palette: View<'a>,
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
fn decode_mesh(view: &View, start: usize, game: Game) -> Result<RawMesh, LevelError> {
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
    let tr4 = game == Game::Tr4;
    let index_mask = if matches!(game, Game::Tr3 | Game::Tr4) {
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

/// Samples made so far, deduplicated by rectangle.
struct Samples {
    list: Vec<Sample>,
    index: HashMap<Sample, u16>,
}

impl Samples {
    fn get(&mut self, sample: Sample) -> Result<u16, Problem> {
        if let Some(&i) = self.index.get(&sample) {
            return Ok(i);
        }
        let i = u16::try_from(self.list.len()).map_err(|_| Problem::TooManySamples(self.list.len() + 1))?;
        self.list.push(sample);
        self.index.insert(sample, i);
        Ok(i)
    }
}

/// Builds the model of a walked file.
pub(super) fn build(t: &Tables) -> Result<Level, LevelError> {
    let object_textures: Vec<ObjectTexture> = if t.game == Game::Tr4 {
        t.object_textures
            .bytes
            .chunks_exact(TR4_OBJECT_TEXTURE_SIZE)
            .map(ObjectTexture::from_tr4_bytes)
            .collect()
    } else {
        t.object_textures
            .bytes
            .chunks_exact(OBJECT_TEXTURE_SIZE)
            .map(ObjectTexture::from_bytes)
            .collect()
    };
    let object_texture_size = t.object_textures.len() / object_textures.len().max(1);
    let tile_count = t.textile_count;
    for (i, o) in object_textures.iter().enumerate() {
        if o.tile as usize >= tile_count {
            return Err(t.object_textures.error(
                i * object_texture_size + 2,
                Problem::IndexOutOfRange {
                    what: "textile",
                    index: o.tile as u64,
                    len: tile_count as u64,
                },
            ));
        }
    }
    // The textiles as pages, and the palette coloured faces index.
    let (mut pages, palette) = match t.game {
        Game::Tr1 => super::tr1::pages(t, &object_textures),
        Game::Tr4 => (super::tr4::pages(t), [[0; 3]; 256]),
        _ => super::tr2::pages(t),
    };

    // Meshes, one per distinct pointer offset, in offset order.
    let MeshTable {
        meshes: raw_meshes,
        offsets,
        mesh_of_pointer,
    } = records::mesh_table(&t.mesh_data, &t.pointers, |offset| {
        let mesh = decode_mesh(&t.mesh_data, offset, t.game)?;
        let end = mesh.end;
        Ok((mesh, end))
    })?;

    // Polygons and their samples, made in first-use order.
    let colour_page = pages.len() as u16;
    let mut samples = Samples {
        list: Vec::new(),
        index: HashMap::new(),
    };
    let mut approximate = Vec::new();
    let mut any_colour = false;
    let mut meshes = Vec::with_capacity(raw_meshes.len());
    for (m, raw) in raw_meshes.iter().enumerate() {
        let mut polygons = Vec::with_capacity(raw.polygons.len());
        for (p, poly) in raw.polygons.iter().enumerate() {
            let fail = |problem: Problem| {
                t.mesh_data
                    .error(poly.texture_at, problem)
                    .within(|| format!("mesh {m} (offset {}), polygon {p}", offsets[m]))
            };
            let n = if poly.is_quad { 4 } else { 3 };
            let mut polygon = Polygon {
                vertices: poly.vertices,
                is_quad: poly.is_quad,
                texture: PolygonTexture::default(),
                attributes: poly.effects.map(Attributes::from_byte).unwrap_or_default(),
                unused: 0,
            };
            match poly.face {
                Face::Coloured(colour) => {
                    any_colour = true;
                    polygon.texture.sample = samples
                        .get(texture::colour_sample(colour, colour_page))
                        .map_err(fail)?;
                }
                Face::Textured(index) => {
                    let o = object_textures.get(index as usize).ok_or_else(|| {
                        fail(Problem::IndexOutOfRange {
                            what: "object texture",
                            index: index as u64,
                            len: object_textures.len() as u64,
                        })
                    })?;
                    polygon.attributes.additive |= o.attribute == 2;
                    let points = o.edges(n);
                    let rect = texture::bounds(&points);
                    let sample = samples.get(texture::sample_of(rect, o.tile)).map_err(fail)?;
                    polygon.texture.sample = sample;
                    match texture::corner_labels(&points, rect).and_then(|l| texture::arrange(&l)) {
                        Some(a) => {
                            for i in 0..n {
                                polygon.vertices[i] = poly.vertices[(i + a.shift) % n];
                            }
                            polygon.texture.shape = a.shape;
                            polygon.texture.flipped = a.flipped;
                        }
                        None => approximate.push(ApproximateMapping {
                            mesh: m,
                            polygon: p,
                            object_texture: index,
                            corners: std::array::from_fn(|i| points.get(i).copied().unwrap_or_default()),
                        }),
                    }
                }
            }
            polygons.push(polygon);
        }
        meshes.push(Mesh {
            sphere: raw.sphere,
            vertices: raw.vertices.clone(),
            shading: raw.shading.clone(),
            polygons,
        });
    }
    if any_colour {
        pages.push(texture::colour_page(&palette));
    }

    // Moveables.
    let d = Decoder {
        t,
        tables: AnimationTables {
            animations: t.animations,
            state_changes: t.state_changes,
            dispatches: t.dispatches,
            commands: t.commands,
            animation_count: t.animation_count,
            lateral: t.game == Game::Tr4,
        },
        fill_budget: Cell::new(t.file_len / 2),
    };
    let records: Vec<ModelRecord> = (0..t.model_count)
        .map(|i| ModelRecord::read(&t.models, i))
        .collect::<Result<_, _>>()?;
    let first_animations = ModelRecord::first_animations(&records);
    let mut moveables = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let m = d
            .moveable(r, &mesh_of_pointer, &first_animations)
            .map_err(|e| e.within(|| format!("model #{i} (id {})", r.id)))?;
        moveables.push(m);
    }

    // Statics.
    let statics = (0..t.static_count)
        .map(|i| records::static_record(&t.statics, i, &mesh_of_pointer, "static mesh").map(|(s, _)| s))
        .collect::<Result<_, _>>()?;

    Ok(Level {
        game: t.game,
        version: t.version,
        wad: Wad {
            version: Wad::VERSION,
            samples: samples.list,
            pages,
            meshes,
            moveables,
            statics,
        },
        approximate,
    })
}

/// Where an animation's frames are: the frames its range plays
/// ([`Animation::played_keyframes`]) from byte `offset` of the frame data, whatever other
/// animation's frames they also are; `size` is the record's FrameSize byte (words).
pub(super) struct FrameRange {
    pub offset: usize,
    pub size: u8,
    pub count: usize,
}

pub(super) struct Decoder<'a, 't> {
    pub t: &'t Tables<'a>,
    pub tables: AnimationTables<'a, LevelError>,
    /// Rotations the frames may still fill in for meshes without angle sets: bounded by the
    /// file size so that a corrupt NumValues cannot make the reader allocate without limit.
    pub fill_budget: Cell<usize>,
}

impl Decoder<'_, '_> {
    fn moveable(
        &self,
        r: &ModelRecord,
        mesh_of_pointer: &[usize],
        first_animations: &[usize],
    ) -> Result<Moveable, LevelError> {
        let models = &self.t.models;
        let meshes = r.meshes(models, mesh_of_pointer)?;
        let field = (models, r.at + 8, "mesh tree index (in 32-bit words)");
        let link_count = meshes.len().saturating_sub(1);
        let (links, _) = records::links(
            &self.t.mesh_trees,
            r.first_link,
            link_count,
            field,
            &mut Coverage::default(),
        )?;
        let range = r.animations(models, first_animations, self.t.animation_count)?;
        let start = range.start;
        let animations = range
            .map(|g| {
                self.animation(g, start, meshes.len())
                    .map_err(|e| e.within(|| format!("animation {} (#{g} in the table)", g - start)))
            })
            .collect::<Result<_, _>>()?;
        Ok(Moveable {
            id: r.id,
            meshes: meshes.to_vec(),
            links,
            animations,
        })
    }

    fn animation(&self, g: usize, first: usize, mesh_count: usize) -> Result<Animation, LevelError> {
        let r = self.tables.record(g)?;
        let mut animation = self
            .tables
            .animation(&r, first, &mut Covered::default())?
            .animation;
        self.tables.check_frame_offset(&r, &self.t.frames)?;
        let range = FrameRange {
            offset: r.frame_offset as usize,
            size: r.frame_size,
            count: animation.played_keyframes(),
        };
        animation.keyframes = match self.t.game {
            Game::Tr1 => self.tr1_keyframes(&range, mesh_count)?,
            game => {
                let run = KeyframeRun {
                    offset: range.offset,
                    size_words: range.size as usize,
                    count: range.count,
                    // Levels are read as the game reads them: every played frame must be there.
                    strict: range.count,
                    mesh_count,
                    angle_set: if game == Game::Tr4 {
                        crate::angles::decode
                    } else {
                        super::tr2::angle_set
                    },
                };
                // Every frame is strict: none is read past the animation's own data.
                records::keyframes(&self.t.frames, &run, &mut Coverage::default(), &mut 0)?
            }
        };
        Ok(animation)
    }
}
