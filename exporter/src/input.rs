//! Reading a glTF file (.glb or .gltf with its .bin and images) into plain data: nodes, skinned
//! meshes, materials with their TR attributes, images as RGBA, animations.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::collections::{HashMap, HashSet};

use base64::Engine;
use gltf::animation::util::ReadOutputs;
use wadforge_format::pose::Transform;
use wadforge_format::{wad, Attributes, Mesh};
use wadforge_manifests::gltf_contract::{
    vertex_index, MaterialExtras, MeshNodeExtras, SceneExtras, StoredMeshes, STORED_MESHES, TR_NORMAL,
    TR_SHADE, VERTEX_INDEX_UV_SET,
};

use crate::decoded_images::DecodedImages;
use crate::texture::RgbaImage;
use crate::{image_bounds, math, reader_guards};

pub(crate) struct Scene {
    pub nodes: Vec<Node>,
    /// Mesh nodes, in node order.
    pub meshes: Vec<MeshNode>,
    pub materials: Vec<Material>,
    /// Shared with other objects whose files hold the same image bytes.
    pub images: Vec<Arc<RgbaImage>>,
    pub animations: Vec<Animation>,
    /// Each mesh as the file stored it, by bone name
    /// ([`STATIC_MESH`](wadforge_manifests::gltf_contract::STATIC_MESH) for a static's mesh): the
    /// scene extras import writes, which Blender keeps.
    pub stored: HashMap<String, Mesh>,
    /// The names of the animations import wrote into this glTF (scene extras): an action of one
    /// of them that the manifest no longer names was deleted from it, not made anew.
    pub imported_actions: HashSet<String>,
    /// Time spent reading the file and its buffers, and decoding its images.
    pub read_time: Duration,
    pub decode_time: Duration,
}

pub(crate) struct Node {
    pub name: String,
    pub parent: Option<usize>,
    pub translation: [f64; 3],
    pub rotation: [f64; 4],
    pub scale: [f64; 3],
}

impl Node {
    pub fn local(&self) -> Transform {
        math::trs(self.translation, self.rotation, self.scale)
    }
}

pub(crate) struct MeshNode {
    pub node: usize,
    /// A [`MeshRole`](wadforge_manifests::gltf_contract::MeshRole)'s name (node extras written by
    /// import), `None` for other meshes.
    pub role: Option<String>,
    pub skin: Option<Skin>,
    pub primitives: Vec<Primitive>,
}

pub(crate) struct Skin {
    /// Joint nodes, in the skin's order.
    pub joints: Vec<usize>,
    /// Inverse bind matrix of each joint (identity where the file has none).
    pub inverse_binds: Vec<Transform>,
}

#[derive(Default)]
pub(crate) struct Primitive {
    pub positions: Vec<[f32; 3]>,
    pub normals: Option<Vec<[f32; 3]>>,
    pub uvs: Option<Vec<[f32; 2]>>,
    pub joints: Option<Vec<[u16; 4]>>,
    pub weights: Option<Vec<[f32; 4]>>,
    pub colours: Option<Vec<[f32; 4]>>,
    pub tr_normals: Option<Vec<[f32; 3]>>,
    pub tr_shades: Option<Vec<f32>>,
    /// The TR vertex index of each vertex, where import wrote it and it is still whole.
    pub tr_vertices: Option<Vec<Option<u16>>>,
    pub triangles: Vec<[u32; 3]>,
    pub material: Option<usize>,
}

pub(crate) struct Material {
    pub attributes: Attributes,
    /// Index into [`Scene::images`] of the base colour texture.
    pub image: Option<usize>,
    pub base_colour: [f32; 4],
}

pub(crate) struct Animation {
    pub name: String,
    pub channels: Vec<Channel>,
    /// The animation's extras (a Blender action's custom properties, which its glTF exporter
    /// writes there): empty when they are not a JSON object.
    pub properties: serde_json::Map<String, serde_json::Value>,
}

pub(crate) enum Property {
    Translation,
    Rotation,
    Scale,
}

pub(crate) struct Channel {
    pub node: usize,
    pub property: Property,
    pub step: bool,
    pub times: Vec<f32>,
    /// Translations and scales use the first three components.
    pub values: Vec<[f64; 4]>,
}

/// Reads `path`, its images decoded once per build in `decoded`; errors are messages for the
/// caller to place.
pub(crate) fn read(path: &Path, decoded: &DecodedImages) -> Result<Scene, String> {
    let started = Instant::now();
    let cannot_read = |e: gltf::Error| format!("cannot read the glTF: {e}; export it again from Blender");
    // gltf::import's steps, with the images' sizes checked from their headers before decoding.
    let gltf::Gltf { document: doc, blob } = parse(path)?;
    let base = path.parent().unwrap_or_else(|| Path::new("./"));
    reader_guards::files_fit(&doc, base)?;
    let buffers = gltf::import_buffers(&doc, Some(base), blob).map_err(cannot_read)?;
    reader_guards::reads_fit(doc.as_json(), buffers.iter().map(|b| b.len() as u64).sum())?;
    image_bounds::check(&doc, base, &buffers)?;
    let read_time = started.elapsed();
    let images = images(&doc, base, &buffers, decoded).map_err(cannot_read)?;
    let decode_time = started.elapsed() - read_time;

    let nodes = nodes(&doc)?;
    let materials = doc.materials().map(material).collect();
    let meshes = mesh_nodes(&doc, &buffers)?;
    let animations = animations(&doc, &buffers)?;
    let mut stored = HashMap::new();
    let mut imported_actions = HashSet::new();
    for scene in doc.scenes() {
        stored.extend(stored_meshes(scene.extras())?);
        let written = extras::<SceneExtras>(scene.extras()).tr_actions;
        imported_actions.extend(written.into_iter().flat_map(|names| names.into_keys()));
    }
    Ok(Scene {
        nodes,
        meshes,
        materials,
        images,
        animations,
        stored,
        imported_actions,
        read_time,
        decode_time,
    })
}

/// The document's nodes with their rest transforms and parents. glTF requires the hierarchy to
/// be disjoint strict trees; a node with two parents or a cycle is refused here, so that the walks
/// up from a node to its joint (skeleton, bone meshes, keyframes) end.
fn nodes(doc: &gltf::Document) -> Result<Vec<Node>, String> {
    let mut nodes: Vec<Node> = doc
        .nodes()
        .map(|n| {
            let (t, r, s) = n.transform().decomposed();
            Node {
                name: n.name().unwrap_or("").to_string(),
                parent: None,
                translation: t.map(f64::from),
                rotation: r.map(f64::from),
                scale: s.map(f64::from),
            }
        })
        .collect();
    for n in doc.nodes() {
        for c in n.children() {
            if let Some(first) = nodes[c.index()].parent.replace(n.index()) {
                if first == n.index() {
                    return Err(format!(
                        "node {} lists node {} twice among its children; glTF nodes form trees: export it again from Blender",
                        n.index(),
                        c.index()
                    ));
                }
                return Err(format!(
                    "node {} is a child of both node {first} and node {}; glTF nodes form trees (one parent each): export it again from Blender",
                    c.index(),
                    n.index()
                ));
            }
        }
    }
    if let Some(node) = first_in_a_cycle(&nodes) {
        return Err(format!(
            "node {node} ({:?}) is its own ancestor; glTF nodes form trees: export it again from Blender",
            nodes[node].name
        ));
    }
    Ok(nodes)
}

/// A node whose chain of parents comes back to it, if any. Each chain is walked until it meets
/// a node already known to reach a root, so the check is linear in the nodes.
fn first_in_a_cycle(nodes: &[Node]) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Unknown,
        OnChain,
        ReachesRoot,
    }
    let mut marks = vec![Mark::Unknown; nodes.len()];
    for start in 0..nodes.len() {
        let mut n = Some(start);
        while let Some(i) = n.filter(|&i| marks[i] != Mark::ReachesRoot) {
            if marks[i] == Mark::OnChain {
                return Some(i);
            }
            marks[i] = Mark::OnChain;
            n = nodes[i].parent;
        }
        let mut n = Some(start);
        while let Some(i) = n.filter(|&i| marks[i] == Mark::OnChain) {
            marks[i] = Mark::ReachesRoot;
            n = nodes[i].parent;
        }
    }
    None
}

/// The nodes that hold a mesh, in node order, with their skins, roles and triangle primitives.
fn mesh_nodes(doc: &gltf::Document, buffers: &[gltf::buffer::Data]) -> Result<Vec<MeshNode>, String> {
    let mut meshes = Vec::new();
    for n in doc.nodes() {
        let Some(mesh) = n.mesh() else { continue };
        let skin = n.skin().map(|s| skin(&s, buffers));
        let role = extras::<MeshNodeExtras>(n.extras()).tr_role;
        let mut primitives = Vec::new();
        for p in mesh.primitives() {
            if p.mode() != gltf::mesh::Mode::Triangles {
                return Err(format!(
                    "mesh {} has a {:?} primitive; only triangles become TR polygons (triangulate it in Blender)",
                    mesh.name().unwrap_or("?"),
                    p.mode()
                ));
            }
            primitives.push(primitive(&p, buffers)?);
        }
        meshes.push(MeshNode {
            node: n.index(),
            role,
            skin,
            primitives,
        });
    }
    Ok(meshes)
}

fn skin(s: &gltf::Skin, buffers: &[gltf::buffer::Data]) -> Skin {
    let get = |b: gltf::Buffer| buffers.get(b.index()).map(|d| &d.0[..]);
    let joints: Vec<usize> = s.joints().map(|j| j.index()).collect();
    let inverse_binds = match s.reader(get).read_inverse_bind_matrices() {
        Some(m) => m.map(math::from_columns).collect(),
        None => vec![Transform::IDENTITY; joints.len()],
    };
    Skin {
        joints,
        inverse_binds,
    }
}

/// The document's animations with their translation, rotation and scale channels.
fn animations(doc: &gltf::Document, buffers: &[gltf::buffer::Data]) -> Result<Vec<Animation>, String> {
    let mut animations = Vec::new();
    for a in doc.animations() {
        let mut channels = Vec::new();
        for c in a.channels() {
            channels.extend(channel(&a, &c, buffers)?);
        }
        animations.push(Animation {
            name: a.name().unwrap_or("").to_string(),
            channels,
            properties: extras(a.extras()),
        });
    }
    Ok(animations)
}

/// Channel `c` of animation `a`: its keys (a cubic spline's values without their tangents), or
/// `None` for a channel that is not a translation, rotation or scale.
fn channel(
    a: &gltf::Animation,
    c: &gltf::animation::Channel,
    buffers: &[gltf::buffer::Data],
) -> Result<Option<Channel>, String> {
    let get = |b: gltf::Buffer| buffers.get(b.index()).map(|d| &d.0[..]);
    let reader = c.reader(get);
    let times: Vec<f32> = reader.read_inputs().map(|i| i.collect()).unwrap_or_default();
    let cubic = c.sampler().interpolation() == gltf::animation::Interpolation::CubicSpline;
    let (property, mut values): (Property, Vec<[f64; 4]>) = match reader.read_outputs() {
        Some(ReadOutputs::Translations(t)) => (
            Property::Translation,
            t.map(|v| [v[0] as f64, v[1] as f64, v[2] as f64, 0.0]).collect(),
        ),
        Some(ReadOutputs::Rotations(r)) => (
            Property::Rotation,
            r.into_f32().map(|q| q.map(f64::from)).collect(),
        ),
        Some(ReadOutputs::Scales(s)) => (
            Property::Scale,
            s.map(|v| [v[0] as f64, v[1] as f64, v[2] as f64, 0.0]).collect(),
        ),
        _ => return Ok(None),
    };
    if cubic {
        // In-tangent, value, out-tangent per key: keep the values.
        values = values.chunks(3).filter_map(|c| c.get(1).copied()).collect();
    }
    // Sampling searches the times: they must be numbers that never go back (glTF asks for
    // strictly increasing ones; equal neighbours are read as a step).
    if let Some(k) = (0..times.len()).find(|&k| !times[k].is_finite() || (k > 0 && times[k] < times[k - 1])) {
        return Err(format!(
            "animation {}: a channel's key {k} is at time {}, after {}; key times must increase \
             (export it again from Blender)",
            a.name().unwrap_or("?"),
            times[k],
            if k > 0 {
                times[k - 1].to_string()
            } else {
                "the start".into()
            },
        ));
    }
    if values.len() != times.len() || times.is_empty() {
        return Err(format!(
            "animation {}: a channel has {} keys but {} values",
            a.name().unwrap_or("?"),
            times.len(),
            values.len()
        ));
    }
    Ok(Some(Channel {
        node: c.target().node().index(),
        property,
        step: c.sampler().interpolation() == gltf::animation::Interpolation::Step,
        times,
        values,
    }))
}

/// Parses and validates the glTF at `path` (as `gltf::Gltf::from_reader` does, with the checks
/// its validation needs first).
fn parse(path: &Path) -> Result<gltf::Gltf, String> {
    use gltf::json::validation::Validate;
    let cannot_read = |e: gltf::Error| format!("cannot read the glTF: {e}; export it again from Blender");
    let bytes = wadforge_files::input::read(path).map_err(|e| cannot_read(gltf::Error::Io(e)))?;
    // A GLB's header length is trusted by the reader (it subtracts the header's 12 bytes from
    // it unchecked, and allocates it when reading a stream): it must lie within the file.
    if let Some(length) = bytes.strip_prefix(b"glTF").and_then(|b| b.get(4..8)) {
        let length = u32::from_le_bytes(length.try_into().expect("four bytes")) as usize;
        if !(12..=bytes.len()).contains(&length) {
            return Err(format!(
                "the GLB header says the file is {length} bytes, but it is {}; export it again from Blender",
                bytes.len()
            ));
        }
    }
    reader_guards::json_objects_fit(&bytes)?;
    let gltf = gltf::Gltf::from_slice_without_validation(&bytes).map_err(cannot_read)?;
    let root = gltf.document.as_json();
    reader_guards::positions_exist(root)?;
    // The first errors say what is wrong; a damaged file can have one per entry (hundreds of
    // thousands made an 11 MB message).
    const SHOWN_ERRORS: usize = 10;
    let (mut errors, mut more) = (Vec::new(), 0usize);
    root.validate(
        root,
        gltf::json::Path::new,
        &mut |path, error| match errors.len() < SHOWN_ERRORS {
            true => errors.push((path(), error)),
            false => more += 1,
        },
    );
    if !errors.is_empty() {
        let more = match more {
            0 => String::new(),
            more => format!(" (and {more} more)"),
        };
        return Err(format!(
            "cannot read the glTF: {}{more}; export it again from Blender",
            gltf::Error::Validation(errors)
        ));
    }
    reader_guards::accessors_fit(root)?;
    reader_guards::animations_fit(root)?;
    reader_guards::attributes_fit(root)?;
    reader_guards::skins_fit(root)?;
    Ok(gltf)
}

/// The stored meshes of a scene's extras, by name.
fn stored_meshes(raw: &gltf::json::Extras) -> Result<HashMap<String, Mesh>, String> {
    let records = match extras::<SceneExtras>(raw).tr_meshes {
        None => return Ok(HashMap::new()),
        Some(StoredMeshes::Records(records)) => records,
        Some(StoredMeshes::NotAMap) => {
            return Err(format!(
                "the scene's custom property {STORED_MESHES} is not a map of bone names to meshes; \
             delete it in Blender (the meshes are then built from the glTF alone)"
            ))
        }
    };
    let mut out = HashMap::new();
    for (name, record) in records {
        let mesh = record
            .as_deref()
            .and_then(|r| base64::engine::general_purpose::STANDARD.decode(r).ok())
            .ok_or_else(|| format!("the stored mesh of {name} (scene extras {STORED_MESHES}) is not base64"))
            .and_then(|bytes| {
                wad::decode_mesh(&bytes).map_err(|e| {
                    format!("the stored mesh of {name} (scene extras {STORED_MESHES}) is damaged: {e}")
                })
            })
            .map_err(|e| {
                format!("{e}; delete the scene's custom property {STORED_MESHES} in Blender to build from the glTF alone")
            })?;
        out.insert(name, mesh);
    }
    Ok(out)
}

/// The extras `raw` as `T`: empty when they are not a JSON object (an array would fill a struct
/// field by field), a value of another type read as absent (see `gltf_contract`). Read through a
/// JSON value, whose object keeps the last of keys given twice.
fn extras<T: serde::de::DeserializeOwned + Default>(raw: &gltf::json::Extras) -> T {
    let value = raw.as_ref().and_then(|r| serde_json::from_str(r.get()).ok());
    match value {
        Some(object @ serde_json::Value::Object(_)) => serde_json::from_value(object).unwrap_or_default(),
        _ => T::default(),
    }
}

fn material(m: gltf::Material) -> Material {
    let e: MaterialExtras = extras(m.extras());
    // Without TR extras (a material made in Blender), blending says whether it is additive.
    let additive = e
        .tr_additive
        .unwrap_or(m.alpha_mode() == gltf::material::AlphaMode::Blend);
    let attributes = Attributes {
        additive,
        shine: e.tr_shine.unwrap_or(false),
        shine_intensity: e.tr_shine_intensity.unwrap_or(0).min(31) as u8,
        unknown_bit: e.tr_unknown_bit.unwrap_or(false),
    };
    let pbr = m.pbr_metallic_roughness();
    Material {
        attributes,
        image: pbr.base_color_texture().map(|t| t.texture().source().index()),
        base_colour: pbr.base_color_factor(),
    }
}

fn primitive(p: &gltf::Primitive, buffers: &[gltf::buffer::Data]) -> Result<Primitive, String> {
    let get = |b: gltf::Buffer| buffers.get(b.index()).map(|d| &d.0[..]);
    let r = p.reader(get);
    let positions: Vec<[f32; 3]> = r.read_positions().map(|i| i.collect()).unwrap_or_default();
    let indices: Vec<u32> = match r.read_indices() {
        Some(i) => i.into_u32().collect(),
        None => (0..positions.len() as u32).collect(),
    };
    if let Some(&bad) = indices.iter().find(|&&i| i as usize >= positions.len()) {
        return Err(format!("a triangle names vertex {bad} of {}", positions.len()));
    }
    let mut out = Primitive {
        normals: r.read_normals().map(|i| i.collect()),
        uvs: r.read_tex_coords(0).map(|t| t.into_f32().collect()),
        tr_vertices: r
            .read_tex_coords(VERTEX_INDEX_UV_SET)
            .map(|t| t.into_f32().map(vertex_index).collect()),
        joints: r.read_joints(0).map(|j| j.into_u16().collect()),
        weights: r.read_weights(0).map(|w| w.into_f32().collect()),
        colours: r.read_colors(0).map(|c| c.into_rgba_f32().collect()),
        triangles: indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        material: p.material().index(),
        positions,
        ..Primitive::default()
    };
    for (semantic, accessor) in p.attributes() {
        let gltf::Semantic::Extras(name) = semantic else {
            continue;
        };
        // Blender upper-cases custom attribute names on export.
        match name.to_ascii_uppercase().as_str() {
            TR_NORMAL => {
                out.tr_normals = gltf::accessor::Iter::<[f32; 3]>::new(accessor, get).map(|i| i.collect())
            }
            TR_SHADE => out.tr_shades = gltf::accessor::Iter::<f32>::new(accessor, get).map(|i| i.collect()),
            _ => {}
        }
    }
    let n = out.positions.len();
    let lengths = [
        out.normals.as_ref().map(Vec::len),
        out.uvs.as_ref().map(Vec::len),
        out.joints.as_ref().map(Vec::len),
        out.weights.as_ref().map(Vec::len),
        out.colours.as_ref().map(Vec::len),
        out.tr_normals.as_ref().map(Vec::len),
        out.tr_shades.as_ref().map(Vec::len),
        out.tr_vertices.as_ref().map(Vec::len),
    ];
    if lengths.iter().flatten().any(|&l| l != n) {
        return Err(format!("a primitive's attributes do not all have {n} vertices"));
    }
    Ok(out)
}

/// The document's images as the glTF reader decodes them (`gltf::import_images`), an image in a
/// buffer view taken from `decoded` when the same bytes were decoded before.
fn images(
    doc: &gltf::Document,
    base: &Path,
    buffers: &[gltf::buffer::Data],
    decoded: &DecodedImages,
) -> Result<Vec<Arc<RgbaImage>>, gltf::Error> {
    let decode =
        |image: &gltf::Image| gltf::image::Data::from_source(image.source(), Some(base), buffers).map(rgba);
    doc.images()
        .map(|image| match image.source() {
            gltf::image::Source::View { view, .. } => {
                // `image_bounds::check` found the view within its buffer.
                let buffer = &buffers[view.buffer().index()];
                let encoded = &buffer[view.offset()..view.offset() + view.length()];
                decoded.get_or_decode(encoded, || decode(&image))
            }
            // Files beside a .gltf are read by the decoder itself: not shared.
            gltf::image::Source::Uri { .. } => decode(&image).map(Arc::new),
        })
        .collect()
}

fn rgba(image: gltf::image::Data) -> RgbaImage {
    use gltf::image::Format;
    let (w, h) = (image.width, image.height);
    let px = &image.pixels;
    let pixels: Vec<u8> = match image.format {
        Format::R8G8B8A8 => image.pixels,
        Format::R8G8B8 => px.chunks_exact(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        Format::R8G8 => px
            .chunks_exact(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        Format::R8 => px.iter().flat_map(|&c| [c, c, c, 255]).collect(),
        Format::R16G16B16A16 => px
            .chunks_exact(8)
            .flat_map(|c| [c[1], c[3], c[5], c[7]])
            .collect(),
        Format::R16G16B16 => px.chunks_exact(6).flat_map(|c| [c[1], c[3], c[5], 255]).collect(),
        Format::R16G16 => px
            .chunks_exact(4)
            .flat_map(|c| [c[1], c[1], c[1], c[3]])
            .collect(),
        Format::R16 => px.chunks_exact(2).flat_map(|c| [c[1], c[1], c[1], 255]).collect(),
        Format::R32G32B32FLOAT | Format::R32G32B32A32FLOAT => {
            let channels = if image.format == Format::R32G32B32FLOAT {
                3
            } else {
                4
            };
            px.chunks_exact(4 * channels)
                .flat_map(|c| {
                    let f = |i: usize| {
                        let v = f32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]]);
                        (v.clamp(0.0, 1.0) * 255.0).round() as u8
                    };
                    [f(0), f(1), f(2), if channels == 4 { f(3) } else { 255 }]
                })
                .collect()
        }
    };
    RgbaImage {
        width: w,
        height: h,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> gltf::json::Extras {
        Some(serde_json::value::RawValue::from_string(json.to_string()).unwrap())
    }

    #[test]
    fn extras_are_read_from_objects_alone_the_last_of_a_key_given_twice() {
        let e: MaterialExtras = extras(&raw(r#"[true, true]"#));
        assert_eq!(e, MaterialExtras::default(), "an array fills no fields");
        let e: MaterialExtras = extras(&raw(r#"{"tr_shine": false, "tr_shine": 1}"#));
        assert_eq!(e.tr_shine, Some(true));
        assert_eq!(extras::<MaterialExtras>(&None), MaterialExtras::default());
    }

    #[test]
    fn stored_meshes_say_what_is_wrong_with_them() {
        assert!(stored_meshes(&raw(r#"{"other": 1}"#)).unwrap().is_empty());
        assert!(stored_meshes(&raw(r#""tr_meshes""#)).unwrap().is_empty());
        let not_a_map = stored_meshes(&raw(r#"{"tr_meshes": null}"#)).unwrap_err();
        assert!(
            not_a_map.contains("tr_meshes is not a map of bone names"),
            "{not_a_map}"
        );
        let not_a_string = stored_meshes(&raw(r#"{"tr_meshes": {"hips": 3}}"#)).unwrap_err();
        assert!(not_a_string.starts_with("the stored mesh of hips (scene extras tr_meshes) is not base64"));
        let damaged = stored_meshes(&raw(r#"{"tr_meshes": {"hips": "QUJD"}}"#)).unwrap_err();
        assert!(damaged.contains("is damaged"), "{damaged}");
    }
}
