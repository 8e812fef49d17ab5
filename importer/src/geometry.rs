//! TR meshes → glTF primitives: one primitive per material (TR attribute byte), vertices split
//! only where UVs differ, TR normals and shades carried exactly in float attributes beside the
//! standard ones.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Value};
use wadforge_format::{Mesh, Polygon, Shading, Wad};
use wadforge_packer::corners::{polygon_corners, TexelPoint};

use crate::atlas::Atlas;
use crate::document::Document;
use crate::names::NameSet;
use crate::space::Space;

/// Name of the float attribute holding TR normals as stored (length about 16300).
pub const TR_NORMAL: &str = "_TR_NORMAL";
/// Name of the float attribute holding TR shades as stored (0 light … 8191 dark).
pub const TR_SHADE: &str = "_TR_SHADE";

/// The exact UV corners of polygons whose sample only bounds their mapping (a level's skewed
/// textures), by mesh index and polygon index: texel edges of the sample's page, in vertex
/// order. Their glTF UVs are these, so the glTF shows the level's mapping and build resamples it.
pub type SkewedCorners = HashMap<(usize, usize), [[u16; 2]; 4]>;

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
    texture: Option<usize>,
    by_attributes: BTreeMap<u8, usize>,
}

impl<'a> Materials<'a> {
    pub fn new(prefix: &'a str, texture: Option<usize>) -> Self {
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

    fn get(&mut self, doc: &mut Document, names: &mut NameSet, polygon: &Polygon) -> usize {
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
        let mut material = json!({
            "name": names.unique(&format!("{}_{label}", self.prefix)),
            "pbrMetallicRoughness": { "metallicFactor": 0.0, "roughnessFactor": 1.0 },
            // Additive blending has no glTF equivalent: BLEND shows it see-through, extras keep it.
            "alphaMode": if a.additive { "BLEND" } else { "MASK" },
            "extras": {
                "tr_additive": a.additive,
                "tr_shine": a.shine,
                "tr_shine_intensity": a.shine_intensity,
                "tr_unknown_bit": a.unknown_bit,
            },
        });
        if let Some(texture) = self.texture {
            material["pbrMetallicRoughness"]["baseColorTexture"] = json!({ "index": texture });
        }
        let index = doc.push("materials", material);
        self.by_attributes.insert(byte, index);
        index
    }
}

/// Vertex data of one primitive under construction.
#[derive(Default)]
struct Vertices {
    positions: Vec<f32>,
    normals: Vec<f32>,
    uvs: Vec<f32>,
    joints: Vec<[u16; 4]>,
    tr_normals: Vec<f32>,
    tr_shades: Vec<f32>,
    indices: Vec<u32>,
    /// (TR vertex, UV bits, copy) → glTF vertex, for the part being written: a vertex or face
    /// of another part is never looked up, so these hold one mesh at a time (an object's meshes
    /// together had taken half of a large import's memory).
    seen: HashMap<(u16, u32, u32, u32), u32>,
    /// The faces of the part being written, each as its sorted vertex indices.
    faces: HashSet<[u32; 3]>,
    /// Polygons of the part (their corners' keys) whose searched copies all hold one of their
    /// faces: a polygon repeated past them takes a new copy without searching again (vertices
    /// and faces only ever join a part, so the search would find what it found before).
    saturated: HashSet<CornerKeys>,
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

/// Meshes shown by one glTF mesh, on one texture atlas, in one role (`body` or `joints`).
pub(crate) struct MeshSet<'a> {
    pub parts: &'a [Part<'a>],
    pub atlas: &'a Atlas,
    pub role: &'static str,
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
) -> Vec<Value> {
    let MeshSet {
        parts, atlas, skewed, ..
    } = *shown;
    let any_normals = parts
        .iter()
        .any(|p| matches!(p.mesh.shading, Shading::Normals(_)));
    let any_shades = parts.iter().any(|p| matches!(p.mesh.shading, Shading::Shades(_)));
    let mut groups: BTreeMap<usize, Vertices> = BTreeMap::new();
    for part in parts {
        groups.values_mut().for_each(Vertices::next_part);
        let placed = PlacedPart {
            part,
            computed: part.mesh.area_weighted_normals(),
            space,
            any_normals,
            any_shades,
        };
        for (polygon_index, polygon) in part.mesh.polygons.iter().enumerate() {
            let material = materials.get(doc, names, polygon);
            let v = groups.entry(material).or_default();
            let exact = skewed.get(&(part.mesh_index, polygon_index));
            let uvs = polygon_uvs(wad, atlas, polygon, exact);
            v.add_polygon(&placed, polygon, &uvs);
        }
    }
    groups
        .into_iter()
        .map(|(material, v)| primitive(doc, material, v, !atlas.is_empty(), skinned))
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

/// A part as its vertices are written: its normals as computed from its faces (for vertices
/// without a stored normal), and which TR attributes the set carries.
struct PlacedPart<'p> {
    part: &'p Part<'p>,
    computed: Vec<[f64; 3]>,
    space: &'p Space,
    any_normals: bool,
    any_shades: bool,
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
    fn add_polygon(&mut self, placed: &PlacedPart, polygon: &Polygon, uvs: &[[f32; 2]]) {
        let copy = self.twin_copy(polygon, uvs);
        let corner_vertex: Vec<u32> = polygon
            .corners()
            .iter()
            .zip(uvs)
            .map(|(&tr_vertex, &uv)| self.vertex(placed, tr_vertex, uv, copy))
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

    /// The glTF vertex of TR vertex `tr_vertex` of `placed` with UV `uv` in copy `copy`, written
    /// when new: position, UV, display normal, TR normal or shade (and its grey), joint.
    fn vertex(&mut self, placed: &PlacedPart, tr_vertex: u16, uv: [f32; 2], copy: u32) -> u32 {
        let part = placed.part;
        let key = (tr_vertex, uv[0].to_bits(), uv[1].to_bits(), copy);
        if let Some(&i) = self.seen.get(&key) {
            return i;
        }
        let index = (self.positions.len() / 3) as u32;
        let p = part.mesh.vertices[tr_vertex as usize];
        let world = [0, 1, 2].map(|k| (part.origin[k] + p[k] as i64) as f64);
        self.positions.extend(placed.space.point(world));
        self.uvs.extend(uv);
        let t = tr_vertex as usize;
        let (stored_normal, shade) = match &part.mesh.shading {
            Shading::Normals(n) => (n.get(t).copied(), None),
            Shading::Shades(s) => (None, s.get(t).copied()),
        };
        let display = stored_normal
            .map(|n| [n[0] as f64, n[1] as f64, n[2] as f64])
            .and_then(unit)
            .unwrap_or(placed.computed[t]);
        self.normals.extend(Space::direction(display).map(|c| c as f32));
        if placed.any_normals {
            self.tr_normals
                .extend(stored_normal.unwrap_or([0, 0, 0]).map(|c| c as f32));
        }
        if placed.any_shades {
            self.tr_shades.push(shade.unwrap_or(0) as f32);
        }
        self.joints.push([part.joint, 0, 0, 0]);
        self.seen.insert(key, index);
        index
    }
}

/// The primitive of the vertices `v` of `material`: its accessors written into `doc` (UVs when
/// the object has a texture, joints and weights when `skinned`, TR normals or shades when any).
/// Each attribute is let go once written, so the vertices are not held twice.
fn primitive(doc: &mut Document, material: usize, v: Vertices, textured: bool, skinned: bool) -> Value {
    let Vertices {
        positions,
        normals,
        uvs,
        joints,
        tr_normals,
        tr_shades,
        indices,
        ..
    } = v;
    let mut attributes = serde_json::Map::new();
    attributes.insert(
        "POSITION".into(),
        json!(doc.floats("VEC3", &positions, true, true)),
    );
    drop(positions);
    attributes.insert("NORMAL".into(), json!(doc.floats("VEC3", &normals, false, true)));
    drop(normals);
    if textured {
        attributes.insert("TEXCOORD_0".into(), json!(doc.floats("VEC2", &uvs, false, true)));
    }
    drop(uvs);
    if skinned {
        attributes.insert("JOINTS_0".into(), json!(doc.joints(&joints)));
        let weights = joints.iter().map(|_| [1.0, 0.0, 0.0, 0.0]);
        attributes.insert(
            "WEIGHTS_0".into(),
            json!(doc.float_elements("VEC4", weights, true)),
        );
    }
    drop(joints);
    if !tr_normals.is_empty() {
        attributes.insert(
            TR_NORMAL.into(),
            json!(doc.floats("VEC3", &tr_normals, false, true)),
        );
    }
    drop(tr_normals);
    if !tr_shades.is_empty() {
        attributes.insert(
            TR_SHADE.into(),
            json!(doc.floats("SCALAR", &tr_shades, false, true)),
        );
        // Shades run from 0 (light) to 8191 (dark).
        let greys = tr_shades.iter().map(|&s| {
            let grey = (1.0 - (s / 8191.0)).clamp(0.0, 1.0);
            [grey, grey, grey]
        });
        attributes.insert("COLOR_0".into(), json!(doc.float_elements("VEC3", greys, true)));
    }
    drop(tr_shades);
    json!({ "attributes": attributes, "indices": doc.indices(&indices), "material": material })
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
