//! TR1–TR3 levels → model: the parts the three games share.
//!
//! The file is walked section by section (palettes and textiles, rooms, floor data, meshes and
//! mesh pointers, animations, state changes, dispatches, commands, mesh trees, frames, models,
//! static meshes, object textures, sprites, cameras, sound sources, boxes/overlaps/zones,
//! animated textures, items, light map, cinematic frames, demo data, sound map, details,
//! samples and sample indices, in each game's order and record sizes). Rooms, floor data and
//! the level's other sections are bounds-checked and skipped: only objects reach the model.
//!
//! The model made of it:
//! - pages: the textiles (see [`super::tr1`] and [`super::tr2`] for how each game's become
//!   24-bit pages); then, when coloured faces occur, one page of 4×4 solid cells, colour `i` at
//!   `(i % 64 · 4, i / 64 · 4)`;
//! - samples: made in first-use order while the meshes are read (meshes in mesh-pointer offset
//!   order, polygons in file order), one per distinct rectangle;
//! - meshes: one per distinct mesh-pointer offset, in offset order; polygons are the textured
//!   rectangles, textured triangles, coloured rectangles, coloured triangles, in that order;
//!   object-texture attribute 2 sets [`Attributes::additive`]; lights become
//!   [`Shading::Shades`];
//! - moveables: one per model, animations from its first to the next model's first (indices
//!   made relative to the moveable), mesh-tree links, frames in the game's encoding;
//! - statics: one per static mesh, boxes in file order.

use std::cell::Cell;
use std::collections::HashMap;

use super::bytes::{Cursor, View};
use super::error::{LevelError, Problem, Section};
use super::texture::{self, ApproximateMapping, ObjectTexture};
use super::Level;
use crate::catalog::Game;
use crate::model::{
    Animation, Attributes, BoundingBox, BoundingSphere, Command, Dispatch, Fixed16, Link, Mesh, Moveable,
    Polygon, PolygonTexture, Sample, Shading, StateChange, Static, Wad, PAGE_SIZE,
};

/// Bytes of an 8-bit textile.
pub(super) const TEXTILE_BYTES: usize = PAGE_SIZE * PAGE_SIZE;
const ANIMATION_SIZE: usize = 32;
const STATE_CHANGE_SIZE: usize = 6;
const DISPATCH_SIZE: usize = 8;
const MODEL_SIZE: usize = 18;
const STATIC_SIZE: usize = 32;
const OBJECT_TEXTURE_SIZE: usize = 20;
const LINK_SIZE: usize = 16;

/// The sections the model is built from.
pub(super) struct Tables<'a> {
    pub game: Game,
    pub version: u32,
    pub file_len: usize,
    /// TR1: the 8-bit textiles; TR2/TR3: the 16-bit ones.
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
    /// TR1: the 6-bit palette (768 bytes); TR2/TR3: the 16-bit palette (1024 bytes).
    pub palette: View<'a>,
}

/// Walks every section in the file order of `game` (TR1, TR2 or TR3). `palette_after_sprites`
/// is the TR1 demo levels' order.
pub(super) fn walk(bytes: &[u8], game: Game, palette_after_sprites: bool) -> Result<Tables<'_>, LevelError> {
    let tr1 = game == Game::Tr1;
    let mut c = Cursor::new(bytes);
    let version = c.u32(Section::Version)?;
    let mut palette = None;
    let (textile_count, textiles) = if tr1 {
        c.table("textiles", TEXTILE_BYTES, Section::Textiles)?
    } else {
        c.take(768, Section::Palette)?;
        palette = Some(c.take(1024, Section::Palette)?);
        let at = c.pos;
        let count = c.u32(Section::Textiles)? as usize;
        // The 8-bit textiles, then the 16-bit ones.
        let both = c.records(at, "textiles", count, TEXTILE_BYTES * 3, Section::Textiles)?;
        let mut t = Cursor::within(both);
        t.take(count * TEXTILE_BYTES, Section::Textiles)?;
        (count, t.take(count * TEXTILE_BYTES * 2, Section::Textiles)?)
    };
    c.u32(Section::Rooms)?; // unused
    let room_count = c.u16(Section::Rooms)? as usize;
    for r in 0..room_count {
        walk_room(&mut c, game).map_err(|e| e.within(|| format!("room {r}")))?;
    }
    c.table("floor data words", 2, Section::FloorData)?;
    let (_, mesh_data) = c.table("mesh data words", 2, Section::Meshes)?;
    let (_, pointers) = c.table("mesh pointers", 4, Section::MeshPointers)?;
    let (animation_count, animations) = c.table("animations", ANIMATION_SIZE, Section::Animations)?;
    let (_, state_changes) = c.table("state changes", STATE_CHANGE_SIZE, Section::StateChanges)?;
    let (_, dispatches) = c.table("anim dispatches", DISPATCH_SIZE, Section::Dispatches)?;
    let (_, commands) = c.table("anim command words", 2, Section::Commands)?;
    let (_, mesh_trees) = c.table("mesh tree words", 4, Section::MeshTrees)?;
    let (_, frames) = c.table("frame words", 2, Section::Frames)?;
    let (model_count, models) = c.table("models", MODEL_SIZE, Section::Models)?;
    let (static_count, statics) = c.table("static meshes", STATIC_SIZE, Section::StaticMeshes)?;
    let mut object_textures = None;
    if game != Game::Tr3 {
        object_textures = Some(object_texture_table(&mut c)?);
    }
    c.table("sprite textures", 16, Section::SpriteTextures)?;
    c.table("sprite sequences", 8, Section::SpriteSequences)?;
    if palette_after_sprites {
        palette = Some(c.take(768, Section::Palette)?);
    }
    c.table("cameras", 16, Section::Cameras)?;
    c.table("sound sources", 16, Section::SoundSources)?;
    let (box_size, zone_size) = if tr1 { (20, 12) } else { (8, 20) };
    let (box_count, _) = c.table("boxes", box_size, Section::Boxes)?;
    c.table("overlaps", 2, Section::Overlaps)?;
    let at = c.pos;
    c.records(at, "zone records", box_count, zone_size, Section::Zones)?;
    c.table("animated texture words", 2, Section::AnimatedTextures)?;
    if game == Game::Tr3 {
        object_textures = Some(object_texture_table(&mut c)?);
    }
    c.table("items", if tr1 { 22 } else { 24 }, Section::Items)?;
    c.take(32 * 256, Section::LightMap)?;
    if palette.is_none() {
        palette = Some(c.take(768, Section::Palette)?);
    }
    c.table16("cinematic frames", 16, Section::CinematicFrames)?;
    c.table16("demo data bytes", 1, Section::DemoData)?;
    c.take(if tr1 { 512 } else { 740 }, Section::SoundMap)?;
    c.table("sound details", 8, Section::SoundDetails)?;
    if tr1 {
        c.table("sound sample bytes", 1, Section::SoundSamples)?;
    }
    c.table("sample indices", 4, Section::SampleIndices)?;
    if c.remaining() > 0 {
        return Err(LevelError {
            section: Section::SampleIndices,
            offset: c.pos as u64,
            context: None,
            problem: Problem::TrailingBytes(c.remaining() as u64),
        });
    }
    Ok(Tables {
        game,
        version,
        file_len: bytes.len(),
        textiles,
        textile_count,
        mesh_data,
        pointers,
        animation_count,
        animations,
        state_changes,
        dispatches,
        commands,
        mesh_trees,
        frames,
        model_count,
        models,
        static_count,
        statics,
        object_textures: object_textures.expect("the object textures are taken in every order"),
        palette: palette.expect("the palette is taken in every order"),
    })
}

fn object_texture_table<'a>(c: &mut Cursor<'a>) -> Result<View<'a>, LevelError> {
    c.table("object textures", OBJECT_TEXTURE_SIZE, Section::ObjectTextures)
        .map(|(_, v)| v)
}

/// Walks past one room: header, geometry (vertices, rectangles, triangles, sprites inside its
/// NumData words), portals, sectors, light levels, lights, static mesh instances, alternate
/// room and flags (and TR3's three bytes of room colour).
fn walk_room(c: &mut Cursor, game: Game) -> Result<(), LevelError> {
    let tr1 = game == Game::Tr1;
    c.take(16, Section::Rooms)?;
    let (_, data) = c.table("room data words", 2, Section::Rooms)?;
    let mut g = Cursor::within(data);
    g.table16("room vertices", if tr1 { 8 } else { 12 }, Section::Rooms)?;
    g.table16("room rectangles", 10, Section::Rooms)?;
    g.table16("room triangles", 8, Section::Rooms)?;
    g.table16("room sprites", 4, Section::Rooms)?;
    c.table16("portals", 32, Section::Rooms)?;
    let at = c.pos;
    let z = c.u16(Section::Rooms)? as usize;
    let x = c.u16(Section::Rooms)? as usize;
    c.records(at, "sectors", z * x, 8, Section::Rooms)?;
    // Ambient intensity; TR2 adds a second one and the light mode, TR3 the second one.
    c.take(
        match game {
            Game::Tr1 => 2,
            Game::Tr2 => 6,
            _ => 4,
        },
        Section::Rooms,
    )?;
    c.table16("room lights", if tr1 { 18 } else { 24 }, Section::Rooms)?;
    c.table16("static mesh instances", if tr1 { 18 } else { 20 }, Section::Rooms)?;
    c.take(if game == Game::Tr3 { 7 } else { 4 }, Section::Rooms)?; // alternate room, flags
    Ok(())
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

fn i16x3(b: &[u8]) -> [i16; 3] {
    [
        i16::from_le_bytes([b[0], b[1]]),
        i16::from_le_bytes([b[2], b[3]]),
        i16::from_le_bytes([b[4], b[5]]),
    ]
}

/// Decodes the mesh at byte `start` of the mesh data. A coloured face's colour is the low byte
/// of its texture word (TR1's 8-bit palette) or the high byte (TR2/TR3's 16-bit palette).
fn decode_mesh(view: &View, start: usize, game: Game) -> Result<RawMesh, LevelError> {
    let colour_shift = if game == Game::Tr1 { 0 } else { 8 };
    let mut at = start;
    let sphere = BoundingSphere {
        center: view.i16x3(at)?,
        radius: view.u16(at + 6)?,
        flag: view.u16(at + 8)?,
    };
    at += 10;
    let vertex_count = view.i16(at)?.max(0) as usize;
    at += 2;
    let vertices: Vec<[i16; 3]> = view
        .slice(at, vertex_count * 6)?
        .chunks_exact(6)
        .map(i16x3)
        .collect();
    at += vertex_count * 6;
    let shading_count = view.i16(at)? as i32;
    at += 2;
    let shading = if shading_count >= 0 {
        let n = shading_count as usize;
        let raw = view.slice(at, n * 6)?;
        at += n * 6;
        Shading::Normals(raw.chunks_exact(6).map(i16x3).collect())
    } else {
        let n = (-shading_count) as usize;
        let raw = view.slice(at, n * 2)?;
        at += n * 2;
        Shading::Shades(
            raw.chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect(),
        )
    };
    let mut polygons = Vec::new();
    for (is_quad, coloured) in [(true, false), (false, false), (true, true), (false, true)] {
        let corners = if is_quad { 4 } else { 3 };
        let size = (corners + 1) * 2;
        let count = view.i16(at)?.max(0) as usize;
        at += 2;
        view.slice(at, count * size)?;
        polygons.reserve(count);
        for _ in 0..count {
            let mut vertices = [0u16; 4];
            for (i, v) in vertices.iter_mut().take(corners).enumerate() {
                *v = view.u16(at + i * 2)?;
                if *v as usize >= vertex_count {
                    return Err(view.error(
                        at + i * 2,
                        Problem::IndexOutOfRange {
                            what: "vertex index",
                            index: *v as u64,
                            len: vertex_count as u64,
                        },
                    ));
                }
            }
            let texture_at = at + corners * 2;
            let word = view.u16(texture_at)?;
            let face = if coloured {
                Face::Coloured((word >> colour_shift) as u8)
            } else {
                Face::Textured(word)
            };
            polygons.push(RawPolygon {
                vertices,
                is_quad,
                face,
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
    let object_textures: Vec<ObjectTexture> = t
        .object_textures
        .bytes
        .chunks_exact(OBJECT_TEXTURE_SIZE)
        .map(ObjectTexture::from_bytes)
        .collect();
    let tile_count = t.textile_count;
    for (i, o) in object_textures.iter().enumerate() {
        if o.tile as usize >= tile_count {
            return Err(t.object_textures.error(
                i * OBJECT_TEXTURE_SIZE + 2,
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
        _ => super::tr2::pages(t),
    };

    // Meshes, one per distinct pointer offset, in offset order.
    let pointers: Vec<u32> = t
        .pointers
        .bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut offsets = pointers.clone();
    offsets.sort_unstable();
    offsets.dedup();
    let mut first_pointers: HashMap<u32, usize> = HashMap::with_capacity(offsets.len());
    for (i, &p) in pointers.iter().enumerate() {
        first_pointers.entry(p).or_insert(i);
    }
    let first_pointer_to = |offset: u32| first_pointers.get(&offset).copied().unwrap_or(0);
    let mut raw_meshes = Vec::with_capacity(offsets.len());
    let mut previous: Option<(u32, usize)> = None;
    for &offset in &offsets {
        let pointer = first_pointer_to(offset);
        if offset as usize >= t.mesh_data.len() {
            return Err(t.pointers.error(
                pointer * 4,
                Problem::IndexOutOfRange {
                    what: "mesh offset",
                    index: offset as u64,
                    len: t.mesh_data.len() as u64,
                },
            ));
        }
        if let Some((start, end)) = previous {
            if (offset as usize) < end {
                return Err(t.pointers.error(
                    pointer * 4,
                    Problem::MeshPointerNotAtMeshStart {
                        pointer,
                        offset,
                        inside: start,
                    },
                ));
            }
        }
        let mesh = decode_mesh(&t.mesh_data, offset as usize, t.game)
            .map_err(|e| e.within(|| format!("mesh at offset {offset} (mesh pointer {pointer})")))?;
        previous = Some((offset, mesh.end));
        raw_meshes.push(mesh);
    }
    let mesh_of_pointer: Vec<usize> = pointers
        .iter()
        .map(|p| offsets.binary_search(p).expect("every offset was decoded"))
        .collect();

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
                attributes: Attributes::default(),
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
                    polygon.attributes.additive = o.attribute == 2;
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
        fill_budget: Cell::new(t.file_len / 2),
    };
    let records: Vec<ModelRecord> = (0..t.model_count)
        .map(|i| ModelRecord::read(&t.models, i))
        .collect::<Result<_, _>>()?;
    let mut first_animations: Vec<usize> = records
        .iter()
        .map(|r| r.animation as usize)
        .filter(|&a| a < t.animation_count)
        .collect();
    first_animations.sort_unstable();
    first_animations.dedup();
    let mut moveables = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let m = d
            .moveable(r, &mesh_of_pointer, &first_animations)
            .map_err(|e| e.within(|| format!("model #{i} (id {})", r.id)))?;
        moveables.push(m);
    }

    // Statics.
    let mut statics = Vec::with_capacity(t.static_count);
    for i in 0..t.static_count {
        let v = &t.statics;
        let at = i * STATIC_SIZE;
        let id = v.u32(at)?;
        let pointer = v.u16(at + 4)?;
        let mesh = *mesh_of_pointer.get(pointer as usize).ok_or_else(|| {
            v.error(
                at + 4,
                Problem::IndexOutOfRange {
                    what: "mesh pointer",
                    index: pointer as u64,
                    len: mesh_of_pointer.len() as u64,
                },
            )
            .within(|| format!("static mesh #{i} (id {id})"))
        })?;
        let boxes = |from: usize| v.i16s::<6>(from).map(BoundingBox::from_file_order);
        statics.push(Static {
            id,
            mesh,
            visibility: boxes(at + 6)?,
            collision: boxes(at + 18)?,
            flags: v.u16(at + 30)?,
        });
    }

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

struct ModelRecord {
    at: usize,
    id: u32,
    mesh_count: u16,
    first_mesh: u16,
    mesh_tree: u32,
    animation: u16,
}

impl ModelRecord {
    fn read(view: &View, i: usize) -> Result<Self, LevelError> {
        let at = i * MODEL_SIZE;
        Ok(ModelRecord {
            at,
            id: view.u32(at)?,
            mesh_count: view.u16(at + 4)?,
            first_mesh: view.u16(at + 6)?,
            mesh_tree: view.u32(at + 8)?,
            animation: view.u16(at + 16)?,
        })
    }
}

/// Where an animation's frames are: `ceil((frame_end − frame_start) / frame_rate) + 1` frames
/// from byte `offset` of the frame data; `size` is the record's FrameSize byte (words).
pub(super) struct FrameRange {
    pub offset: usize,
    pub size: u8,
    pub count: usize,
    /// The animation record, for errors.
    pub record_at: usize,
}

pub(super) struct Decoder<'a, 't> {
    pub t: &'t Tables<'a>,
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
        let first = r.first_mesh as usize;
        let meshes = mesh_of_pointer
            .get(first..first + r.mesh_count as usize)
            .ok_or_else(|| {
                models.error(
                    r.at + 6,
                    Problem::IndexOutOfRange {
                        what: "last mesh pointer",
                        index: (first + r.mesh_count as usize).saturating_sub(1) as u64,
                        len: mesh_of_pointer.len() as u64,
                    },
                )
            })?;
        let links = self.links(r, meshes.len().saturating_sub(1))?;

        let mut animations = Vec::new();
        let start = r.animation as usize;
        if start < self.t.animation_count {
            // `first_animations` is sorted: the next model's first animation ends this range.
            let end = first_animations
                .get(first_animations.partition_point(|&s| s <= start))
                .copied()
                .unwrap_or(self.t.animation_count);
            for g in start..end {
                let a = self
                    .animation(g, start, meshes.len())
                    .map_err(|e| e.within(|| format!("animation {} (#{g} in the table)", g - start)))?;
                animations.push(a);
            }
        } else if r.animation != u16::MAX && start > self.t.animation_count {
            return Err(models.error(
                r.at + 16,
                Problem::IndexOutOfRange {
                    what: "animation",
                    index: start as u64,
                    len: self.t.animation_count as u64,
                },
            ));
        }
        Ok(Moveable {
            id: r.id,
            meshes: meshes.to_vec(),
            links,
            animations,
        })
    }

    fn links(&self, r: &ModelRecord, count: usize) -> Result<Vec<Link>, LevelError> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let trees = &self.t.mesh_trees;
        let start = (r.mesh_tree as usize).saturating_mul(4);
        if start
            .checked_add(count * LINK_SIZE)
            .is_none_or(|end| end > trees.len())
        {
            return Err(self.t.models.error(
                r.at + 8,
                Problem::IndexOutOfRange {
                    what: "mesh tree index (in 32-bit words)",
                    index: r.mesh_tree as u64,
                    len: (trees.len() / 4) as u64,
                },
            ));
        }
        let mut flags = Vec::with_capacity(count);
        let mut offsets = Vec::with_capacity(count);
        for i in 0..count {
            let at = start + i * LINK_SIZE;
            flags.push(trees.i32(at)?);
            offsets.push([trees.i32(at + 4)?, trees.i32(at + 8)?, trees.i32(at + 12)?]);
        }
        Ok(crate::links::parents_from_ops(&flags)
            .into_iter()
            .zip(offsets)
            .map(|(parent, offset)| Link { parent, offset })
            .collect())
    }

    fn animation(&self, g: usize, first: usize, mesh_count: usize) -> Result<Animation, LevelError> {
        let v = &self.t.animations;
        let at = g * ANIMATION_SIZE;
        let frame_offset = v.u32(at)? as usize;
        let frame_rate = v.u8(at + 4)?;
        let frame_start = v.u16(at + 16)?;
        let frame_end = v.u16(at + 18)?;
        let next_animation = self.animation_ref(v.u16(at + 20)?, v, at + 20, first)?;
        let change_count = v.u16(at + 24)? as usize;
        let change_index = v.u16(at + 26)? as usize;
        let command_count = v.u16(at + 28)? as usize;
        let command_index = v.u16(at + 30)? as usize;
        let state_changes = self.state_changes(change_index, change_count, at + 26, first)?;
        let commands = self.commands(command_index, command_count, at + 30)?;
        let frames = FrameRange {
            offset: frame_offset,
            size: v.u8(at + 5)?,
            count: (frame_end.saturating_sub(frame_start) as usize).div_ceil(frame_rate.max(1) as usize) + 1,
            record_at: at,
        };
        self.check_frame_offset(&frames)?;
        let keyframes = match self.t.game {
            Game::Tr1 => self.tr1_keyframes(&frames, mesh_count)?,
            _ => self.tr2_keyframes(&frames, mesh_count)?,
        };
        Ok(Animation {
            frame_duration: frame_rate,
            state: v.u16(at + 6)?,
            speed: Fixed16(v.i32(at + 8)?),
            acceleration: Fixed16(v.i32(at + 12)?),
            lateral_speed: Fixed16(0),
            lateral_acceleration: Fixed16(0),
            frame_start,
            frame_end,
            next_animation,
            next_frame: v.u16(at + 22)?,
            state_changes,
            commands,
            keyframes,
        })
    }

    /// An animation index of the table, made relative to the model's first animation.
    fn animation_ref(&self, index: u16, view: &View, at: usize, first: usize) -> Result<i32, LevelError> {
        if index as usize >= self.t.animation_count {
            return Err(view.error(
                at,
                Problem::IndexOutOfRange {
                    what: "next animation",
                    index: index as u64,
                    len: self.t.animation_count as u64,
                },
            ));
        }
        Ok(index as i32 - first as i32)
    }

    fn state_changes(
        &self,
        index: usize,
        count: usize,
        field_at: usize,
        first: usize,
    ) -> Result<Vec<StateChange>, LevelError> {
        let table = &self.t.state_changes;
        if (index + count) * STATE_CHANGE_SIZE > table.len() {
            return Err(self.t.animations.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "state change",
                    index: (index + count).saturating_sub(1) as u64,
                    len: (table.len() / STATE_CHANGE_SIZE) as u64,
                },
            ));
        }
        (index..index + count)
            .map(|i| {
                let at = i * STATE_CHANGE_SIZE;
                let state = table.u16(at)?;
                let dispatch_count = table.u16(at + 2)? as usize;
                let dispatch_index = table.u16(at + 4)? as usize;
                let dispatches = self
                    .dispatches(dispatch_index, dispatch_count, at + 4, first)
                    .map_err(|e| e.within(|| format!("state change #{i}")))?;
                Ok(StateChange { state, dispatches })
            })
            .collect()
    }

    fn dispatches(
        &self,
        index: usize,
        count: usize,
        field_at: usize,
        first: usize,
    ) -> Result<Vec<Dispatch>, LevelError> {
        let table = &self.t.dispatches;
        if (index + count) * DISPATCH_SIZE > table.len() {
            return Err(self.t.state_changes.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "anim dispatch",
                    index: (index + count).saturating_sub(1) as u64,
                    len: (table.len() / DISPATCH_SIZE) as u64,
                },
            ));
        }
        (index..index + count)
            .map(|i| {
                let at = i * DISPATCH_SIZE;
                Ok(Dispatch {
                    frame_start: table.u16(at)?,
                    frame_end: table.u16(at + 2)?,
                    next_animation: self.animation_ref(table.u16(at + 4)?, table, at + 4, first)?,
                    next_frame: table.u16(at + 6)?,
                })
            })
            .collect()
    }

    fn commands(
        &self,
        offset_words: usize,
        count: usize,
        field_at: usize,
    ) -> Result<Vec<Command>, LevelError> {
        let package = &self.t.commands;
        let start = offset_words * 2;
        if count > 0 && start >= package.len() {
            return Err(self.t.animations.error(
                field_at,
                Problem::IndexOutOfRange {
                    what: "anim command offset (in words)",
                    index: offset_words as u64,
                    len: (package.len() / 2) as u64,
                },
            ));
        }
        // Every command takes at least one word: refuse impossible counts before allocating.
        package.slice(start, count * 2)?;
        let mut at = start;
        let mut commands = Vec::with_capacity(count);
        for _ in 0..count {
            let opcode = package.u16(at)?;
            let operand_count = Command::operand_count(opcode)
                .ok_or_else(|| package.error(at, Problem::UnknownCommand(opcode)))?;
            let mut operands = [0u16; 3];
            for (k, w) in operands.iter_mut().take(operand_count).enumerate() {
                *w = package.u16(at + 2 + k * 2)?;
            }
            let command = Command::from_words(opcode, &operands[..operand_count])
                .ok_or_else(|| package.error(at, Problem::UnknownCommand(opcode)))?;
            commands.push(command);
            at += 2 + operand_count * 2;
        }
        Ok(commands)
    }

    fn check_frame_offset(&self, frames: &FrameRange) -> Result<(), LevelError> {
        if frames.offset > self.t.frames.len() {
            return Err(self.t.animations.error(
                frames.record_at,
                Problem::IndexOutOfRange {
                    what: "frame offset",
                    index: frames.offset as u64,
                    len: self.t.frames.len() as u64,
                },
            ));
        }
        Ok(())
    }

    /// A frame's bounding box and root offset from its first nine words.
    pub(super) fn frame_header(words: &[u8]) -> (BoundingBox, [i16; 3]) {
        let word = |i: usize| i16::from_le_bytes([words[i * 2], words[i * 2 + 1]]);
        (
            BoundingBox::from_file_order(std::array::from_fn(word)),
            [word(6), word(7), word(8)],
        )
    }
}
