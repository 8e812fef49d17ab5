//! TR meshes → glTF primitives: one primitive per material (TR attribute byte), vertices split
//! only where UVs differ, TR normals and shades carried exactly in float attributes beside the
//! standard ones.

use std::collections::{BTreeMap, HashMap, HashSet};

/// Hash maps and sets of a mesh's vertices and faces (keys a file chooses): foldhash, several
/// times SipHash's speed, seeded per map so that a file cannot choose collisions.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

use gltf::json::accessor::Type;
use gltf::json::mesh::{Mode, Primitive, Semantic};
use gltf::json::validation::Checked::{self, Valid};
use gltf::json::{self, material::AlphaMode, Accessor, Index};
use wadforge_format::texture_corners::{polygon_corners, TexelPoint};
use wadforge_format::{Mesh, Polygon, Shading, SkewedCorners, Wad};
use wadforge_manifests::gltf_contract::{
    MaterialExtras, MeshRole, TR_NORMAL, TR_SHADE, VERTEX_INDEX_MARK, VERTEX_INDEX_UV_SET,
};

use crate::atlas::Atlas;
use crate::document::{Document, Material, PbrMetallicRoughness, TextureInfo};
use crate::names::NameSet;
use crate::space::Space;

/// One TR mesh placed in the file: the joint it follows and where its pivot sits in the bind pose.
pub(crate) struct Part<'a> {
    pub joint: u16,
    /// Pivot position in TR units in the bind pose (the sum of link offsets).
    pub origin: [i64; 3],
    pub mesh: &'a Mesh,
    /// Its index in the model's meshes.
    pub mesh_index: usize,
}

/// Materials of one file, one per distinct TR attribute byte.
pub(crate) struct Materials<'a> {
    prefix: &'a str,
    texture: Option<Index<json::Texture>>,
    by_attributes: BTreeMap<u8, Index<json::Material>>,
}

impl<'a> Materials<'a> {
    pub fn new(prefix: &'a str, texture: Option<Index<json::Texture>>) -> Self {
        Materials {
            prefix,
            texture,
            by_attributes: BTreeMap::new(),
        }
    }

    /// The object's slot name, which prefixes its materials.
    pub fn prefix(&self) -> &'a str {
        self.prefix
    }

    fn get(&mut self, doc: &mut Document, names: &mut NameSet, polygon: &Polygon) -> Index<json::Material> {
        let byte = polygon.attributes.to_byte();
        if let Some(&m) = self.by_attributes.get(&byte) {
            return m;
        }
        let a = polygon.attributes;
        let mut label = if a.additive {
            "additive".to_string()
        } else {
            "opaque".to_string()
        };
        if a.shine || a.shine_intensity > 0 {
            label.push_str(&format!(
                "_shine{}{}",
                a.shine_intensity,
                if a.shine { "" } else { "off" }
            ));
        }
        if a.unknown_bit {
            label.push_str("_bit7");
        }
        let index = doc.material(Material {
            // Additive blending has no glTF equivalent: BLEND shows it see-through, extras keep it.
            alpha_mode: if a.additive {
                AlphaMode::Blend
            } else {
                AlphaMode::Mask
            },
            extras: MaterialExtras {
                tr_additive: Some(a.additive),
                tr_shine: Some(a.shine),
                tr_shine_intensity: Some(a.shine_intensity.into()),
                tr_unknown_bit: Some(a.unknown_bit),
            },
            name: names.unique(&format!("{}_{label}", self.prefix)),
            pbr_metallic_roughness: PbrMetallicRoughness {
                base_color_texture: self.texture.map(|index| TextureInfo { index }),
                metallic_factor: 0.0,
                roughness_factor: 1.0,
            },
        });
        self.by_attributes.insert(byte, index);
        index
    }
}

/// A glTF vertex of a primitive under construction: its part (index in the mesh set), TR vertex
/// and UV. Its other attributes follow from these and are made as they are written, so a mesh
/// is held at 16 bytes a vertex (its attributes take 64: an object of millions of polygons had
/// taken some 15 times its WAD bytes).
#[derive(Clone, Copy)]
struct CornerVertex {
    part: u32,
    tr_vertex: u16,
    uv: [f32; 2],
}

/// The vertices and triangles of one primitive under construction.
#[derive(Default)]
struct Vertices {
    vertices: Vec<CornerVertex>,
    indices: Vec<u32>,
    /// (TR vertex, UV bits, copy) → glTF vertex, for the part being written: a vertex or face
    /// of another part is never looked up, so these hold one mesh at a time (an object's meshes
    /// together had taken half of a large import's memory).
    seen: FastMap<(u16, u32, u32, u32), u32>,
    /// The faces of the part being written, each as its sorted vertex indices.
    faces: FastSet<[u32; 3]>,
    /// Polygons of the part (their corners' keys) whose searched copies all hold one of their
    /// faces: a polygon repeated past them takes a new copy without searching again (vertices
    /// and faces only ever join a part, so the search would find what it found before).
    saturated: FastSet<CornerKeys>,
    /// The copy the next polygon past [`SEARCHED_COPIES`] takes (0: none has yet).
    next_unsearched_copy: u32,
}

/// Copies of a polygon's vertices searched for one its faces are not yet on. Real files lay a
/// face over the same vertices twice (a double-sided face and its twin) or a few times; a file
/// repeating one polygon thousands of times made the search quadratic (585 000 polygons, 500 of
/// each, took import 162 s). Past these, each polygon takes a copy of its own.
const SEARCHED_COPIES: u32 = 16;

/// A polygon's corners as [`Vertices::seen`] keys them (TR vertex, UV bits), and how many it has.
type CornerKeys = ([(u16, u32, u32); 4], usize);

/// Meshes shown by one glTF mesh, on one texture atlas, in one role.
pub(crate) struct MeshSet<'a> {
    pub parts: &'a [Part<'a>],
    pub atlas: &'a Atlas,
    pub role: MeshRole,
    pub skewed: &'a SkewedCorners,
}

/// Writes the primitives of `shown` into `doc`; returns the mesh's primitive list.
pub(crate) fn primitives(
    doc: &mut Document,
    names: &mut NameSet,
    materials: &mut Materials,
    wad: &Wad,
    shown: &MeshSet,
    space: &Space,
    skinned: bool,
) -> Vec<Primitive> {
    let MeshSet {
        parts, atlas, skewed, ..
    } = *shown;
    let mut groups: BTreeMap<Index<json::Material>, Vertices> = BTreeMap::new();
    for (part_index, part) in parts.iter().enumerate() {
        groups.values_mut().for_each(Vertices::next_part);
        for (polygon_index, polygon) in part.mesh.polygons.iter().enumerate() {
            let material = materials.get(doc, names, polygon);
            let v = groups.entry(material).or_default();
            let exact = skewed.get(&(part.mesh_index, polygon_index));
            let uvs = polygon_uvs(wad, atlas, polygon, exact);
            v.add_polygon(part_index as u32, polygon, &uvs);
        }
    }
    let attributes = Attributes::new(parts, space, !atlas.is_empty(), skinned);
    groups
        .into_iter()
        .map(|(material, v)| primitive(doc, material, v, &attributes))
        .collect()
}

/// The atlas UV of each corner of `polygon`: on its sample's corners, or at the `exact` UV
/// corners of a skewed mapping; all zero when the sample does not exist.
fn polygon_uvs(wad: &Wad, atlas: &Atlas, polygon: &Polygon, exact: Option<&[[u16; 2]; 4]>) -> Vec<[f32; 2]> {
    let sample_index = polygon.texture.sample as usize;
    match (wad.samples.get(sample_index), exact) {
        (Some(_), Some(corners)) => corners[..polygon.corners().len()]
            .iter()
            .map(|&[x, y]| {
                atlas.uv(
                    wad,
                    sample_index,
                    TexelPoint {
                        x: x as u32,
                        y: y as u32,
                    },
                )
            })
            .collect(),
        (Some(sample), None) => polygon_corners(sample, polygon.texture, polygon.is_quad)
            .into_iter()
            .map(|point| atlas.uv(wad, sample_index, point))
            .collect(),
        (None, _) => vec![[0.0, 0.0]; polygon.corners().len()],
    }
}

/// What the attributes of a mesh set's vertices are made from: its parts, the scale, whether
/// it has UVs (a texture), joints and weights (`skinned`), TR normals or shades (any part with
/// them), and each part's normals as computed from its faces (for vertices without a stored
/// normal; made once, when first needed).
struct Attributes<'p> {
    parts: &'p [Part<'p>],
    space: &'p Space,
    textured: bool,
    skinned: bool,
    any_normals: bool,
    any_shades: bool,
    computed: Vec<std::cell::OnceCell<Vec<[f32; 3]>>>,
}

impl<'p> Attributes<'p> {
    fn new(parts: &'p [Part<'p>], space: &'p Space, textured: bool, skinned: bool) -> Self {
        Attributes {
            parts,
            space,
            textured,
            skinned,
            any_normals: parts
                .iter()
                .any(|p| matches!(p.mesh.shading, Shading::Normals(_))),
            any_shades: parts.iter().any(|p| matches!(p.mesh.shading, Shading::Shades(_))),
            computed: parts.iter().map(|_| std::cell::OnceCell::new()).collect(),
        }
    }

    fn part(&self, v: &CornerVertex) -> &Part<'p> {
        &self.parts[v.part as usize]
    }

    fn position(&self, v: &CornerVertex) -> [f32; 3] {
        let part = self.part(v);
        let p = part.mesh.vertices[v.tr_vertex as usize];
        self.space
            .point([0, 1, 2].map(|k| (part.origin[k] + p[k] as i64) as f64))
    }

    fn stored_normal(&self, v: &CornerVertex) -> Option<[i16; 3]> {
        match &self.part(v).mesh.shading {
            Shading::Normals(n) => n.get(v.tr_vertex as usize).copied(),
            Shading::Shades(_) => None,
        }
    }

    fn shade(&self, v: &CornerVertex) -> f32 {
        match &self.part(v).mesh.shading {
            Shading::Shades(s) => s.get(v.tr_vertex as usize).copied().unwrap_or(0) as f32,
            Shading::Normals(_) => 0.0,
        }
    }

    /// The normal Blender shows: the stored one, or the one computed from the part's faces
    /// where none is stored (or it is zero).
    fn display_normal(&self, v: &CornerVertex) -> [f32; 3] {
        let stored = self.stored_normal(v).map(|n| n.map(f64::from)).and_then(unit);
        match stored {
            Some(d) => Space::direction(d).map(|c| c as f32),
            None => {
                let computed = self.computed[v.part as usize].get_or_init(|| {
                    let normals = self.part(v).mesh.area_weighted_normals();
                    normals
                        .into_iter()
                        .map(|d| Space::direction(d).map(|c| c as f32))
                        .collect()
                });
                computed[v.tr_vertex as usize]
            }
        }
    }
}

impl Vertices {
    /// Forgets the vertices and faces of the part written so far (none is shared with the next).
    fn next_part(&mut self) {
        self.seen.clear();
        self.faces.clear();
        self.saturated.clear();
    }

    /// Writes `polygon` of `placed` with corner UVs `uvs`: its vertices (reused where the same
    /// TR vertex has the same UV) and its triangles.
    fn add_polygon(&mut self, part: u32, polygon: &Polygon, uvs: &[[f32; 2]]) {
        let copy = self.twin_copy(polygon, uvs);
        let corner_vertex: Vec<u32> = polygon
            .corners()
            .iter()
            .zip(uvs)
            .map(|(&tr_vertex, &uv)| self.vertex(part, tr_vertex, uv, copy))
            .collect();
        // TR lists corners clockwise seen from the visible side; glTF wants counter-clockwise.
        let corners: Vec<Option<u32>> = corner_vertex.iter().copied().map(Some).collect();
        for t in triangles(&corners) {
            let t = t.map(|c| c.expect("every corner has its vertex"));
            self.faces.insert(face_key(t));
            self.indices.extend(t);
        }
    }

    /// Which copy of its vertices `polygon` takes. A polygon over the vertices of one already
    /// written (a double-sided face's twin, the same corners in the other winding) gets its own
    /// copies of them: Blender keeps one face per set of vertices, and build welds the copies
    /// back.
    fn twin_copy(&mut self, polygon: &Polygon, uvs: &[[f32; 2]]) -> u32 {
        let mut keys = ([(0, 0, 0); 4], polygon.corners().len());
        for ((key, &tr_vertex), uv) in keys.0.iter_mut().zip(polygon.corners()).zip(uvs) {
            *key = (tr_vertex, uv[0].to_bits(), uv[1].to_bits());
        }
        let corners = &keys.0[..keys.1];
        let searched = match self.saturated.contains(&keys) {
            true => None,
            false => (0..SEARCHED_COPIES).find(|&copy| {
                let existing: Vec<Option<u32>> = corners
                    .iter()
                    .map(|&(tr_vertex, u, v)| self.seen.get(&(tr_vertex, u, v, copy)).copied())
                    .collect();
                !triangles(&existing).iter().any(|t| match t {
                    [Some(a), Some(b), Some(c)] => self.faces.contains(&face_key([*a, *b, *c])),
                    _ => false,
                })
            }),
        };
        searched.unwrap_or_else(|| {
            self.saturated.insert(keys);
            // A copy no polygon has taken: its vertices are all new.
            self.next_unsearched_copy = self.next_unsearched_copy.max(SEARCHED_COPIES) + 1;
            self.next_unsearched_copy - 1
        })
    }

    /// The glTF vertex of TR vertex `tr_vertex` of `part` with UV `uv` in copy `copy`, added
    /// when new.
    fn vertex(&mut self, part: u32, tr_vertex: u16, uv: [f32; 2], copy: u32) -> u32 {
        let key = (tr_vertex, uv[0].to_bits(), uv[1].to_bits(), copy);
        if let Some(&i) = self.seen.get(&key) {
            return i;
        }
        let index = self.vertices.len() as u32;
        self.vertices.push(CornerVertex { part, tr_vertex, uv });
        self.seen.insert(key, index);
        index
    }
}

/// The primitive of the vertices `v` of `material`: its accessors written into `doc`, each made
/// from the vertices as it is written (position, display normal, UVs (zero when untextured), TR
/// vertex indices ([`VERTEX_INDEX_UV_SET`]), joints and
/// weights when skinned, TR normals or shades (and their greys) when any).
fn primitive(doc: &mut Document, material: Index<json::Material>, v: Vertices, a: &Attributes) -> Primitive {
    let Vertices {
        vertices, indices, ..
    } = v;
    let each = || vertices.iter();
    let mut attributes: BTreeMap<Checked<Semantic>, Index<Accessor>> = BTreeMap::new();
    let positions = each().map(|v| a.position(v));
    attributes.insert(
        Valid(Semantic::Positions),
        doc.float_elements(Type::Vec3, positions, true, true),
    );
    let normals = each().map(|v| a.display_normal(v));
    attributes.insert(
        Valid(Semantic::Normals),
        doc.float_elements(Type::Vec3, normals, false, true),
    );
    // An untextured mesh has UVs of zero, so that its vertex indices can be the second set.
    let uvs = each().map(|v| if a.textured { v.uv } else { [0.0; 2] });
    attributes.insert(
        Valid(Semantic::TexCoords(0)),
        doc.float_elements(Type::Vec2, uvs, false, true),
    );
    let tr_vertices = each().map(|v| [f32::from(v.tr_vertex), VERTEX_INDEX_MARK]);
    attributes.insert(
        Valid(Semantic::TexCoords(VERTEX_INDEX_UV_SET)),
        doc.float_elements(Type::Vec2, tr_vertices, false, true),
    );
    if a.skinned {
        let joints = each().map(|v| [a.part(v).joint, 0, 0, 0]);
        attributes.insert(Valid(Semantic::Joints(0)), doc.joints(joints));
        let weights = each().map(|_| [1.0, 0.0, 0.0, 0.0]);
        attributes.insert(
            Valid(Semantic::Weights(0)),
            doc.float_elements(Type::Vec4, weights, false, true),
        );
    }
    if a.any_normals {
        let tr_normals = each().map(|v| a.stored_normal(v).unwrap_or([0, 0, 0]).map(f32::from));
        attributes.insert(
            Valid(Semantic::Extras(TR_NORMAL.into())),
            doc.float_elements(Type::Vec3, tr_normals, false, true),
        );
    }
    if a.any_shades {
        let shades = each().map(|v| [a.shade(v)]);
        attributes.insert(
            Valid(Semantic::Extras(TR_SHADE.into())),
            doc.float_elements(Type::Scalar, shades, false, true),
        );
        // Shades run from 0 (light) to 8191 (dark).
        let greys = each().map(|v| {
            let grey = (1.0 - (a.shade(v) / 8191.0)).clamp(0.0, 1.0);
            [grey, grey, grey]
        });
        attributes.insert(
            Valid(Semantic::Colors(0)),
            doc.float_elements(Type::Vec3, greys, false, true),
        );
    }
    drop(vertices);
    Primitive {
        attributes,
        indices: Some(doc.indices(&indices)),
        material: Some(material),
        mode: Valid(Mode::Triangles),
        targets: None,
        extensions: None,
        extras: None,
    }
}

/// The glTF triangles of a polygon's corners (TR order, clockwise): glTF winds them
/// counter-clockwise, and a quad is split (v0 v1 v2) (v0 v2 v3), as the game draws it.
fn triangles<T: Copy>(c: &[T]) -> Vec<[T; 3]> {
    let mut out = vec![[c[0], c[2], c[1]]];
    if c.len() == 4 {
        out.push([c[0], c[3], c[2]]);
    }
    out
}

fn face_key(mut t: [u32; 3]) -> [u32; 3] {
    t.sort_unstable();
    t
}

fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (len > 1e-9).then(|| v.map(|c| c / len))
}
