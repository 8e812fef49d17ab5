//! A glTF document under construction: JSON arrays and one binary buffer, written as a GLB or
//! as `.gltf` + `.bin` + `.png` files.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Map, Value};
use wadforge_manifests::gltf_contract::{JointExtras, ObjectExtras};

use crate::buffer::{Body, Buffer};

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_BYTE: u32 = 5121;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// How a glTF file is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GltfFormat {
    /// One binary `.glb` with the buffer and images inside.
    Glb,
    /// `.gltf` JSON beside a `.bin` buffer and `.png` images.
    Separate,
}

pub(crate) struct Document {
    arrays: Map<String, Value>,
    // The numerous entries typed (a rigged character has thousands): small, and written with
    // the same JSON as the values they replace, keys in the same (sorted) order.
    accessors: Vec<Accessor>,
    buffer_views: Vec<BufferView>,
    /// The view animation data is appended to while nothing else follows it in the buffer: one
    /// view for many accessors (a 445-animation Lara had a view per accessor, 7,595 of them).
    data_view: Option<usize>,
    animations: Vec<AnimationJson>,
    nodes: Vec<NodeJson>,
    bin: Buffer,
    /// PNG images: name and bytes; embedded in the buffer for GLB, separate files otherwise.
    images: Vec<(String, std::sync::Arc<Vec<u8>>)>,
    pub extras: Option<ObjectExtras>,
    /// Time spent making this document's images (for [`crate::ImportPhases`]).
    pub image_time: std::time::Duration,
}

impl Document {
    /// A new document; `spill`: where its buffer may go past the size kept in memory (see
    /// [`Buffer`]).
    pub fn new(spill: Option<&std::path::Path>) -> Self {
        Document {
            arrays: Map::new(),
            accessors: Vec::new(),
            buffer_views: Vec::new(),
            data_view: None,
            animations: Vec::new(),
            nodes: Vec::new(),
            bin: Buffer::new(spill),
            images: Vec::new(),
            extras: None,
            image_time: std::time::Duration::ZERO,
        }
    }

    /// Appends `value` to the top-level array `array`; returns its index.
    pub fn push(&mut self, array: &str, value: Value) -> usize {
        let list = self
            .arrays
            .entry(array)
            .or_insert_with(|| Value::Array(Vec::new()));
        let list = list.as_array_mut().expect("top-level entries are arrays");
        list.push(value);
        list.len() - 1
    }

    /// Appends a node; returns its index.
    pub fn node(&mut self, node: Value) -> usize {
        self.nodes.push(NodeJson::Value(node));
        self.nodes.len() - 1
    }

    /// Appends a joint's node; returns its index.
    pub fn joint_node(&mut self, node: JointNode) -> usize {
        self.nodes.push(NodeJson::Joint(node));
        self.nodes.len() - 1
    }

    /// Node `index`, when it was added by [`Document::node`].
    pub fn node_mut(&mut self, index: usize) -> Option<&mut Value> {
        match self.nodes.get_mut(index)? {
            NodeJson::Value(node) => Some(node),
            NodeJson::Joint(_) => None,
        }
    }

    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.view_written(target, |bin| bin.put(bytes))
    }

    /// A new view of what `write` appends to the buffer (written in place: a large mesh's
    /// vertex data is not held twice).
    fn view_written(&mut self, target: Option<u32>, write: impl FnOnce(&mut Buffer)) -> usize {
        self.data_view = None;
        self.bin.pad();
        let offset = self.bin.len();
        write(&mut self.bin);
        self.buffer_views.push(BufferView {
            buffer: 0,
            byte_length: self.bin.len() - offset,
            byte_offset: offset,
            target,
        });
        self.buffer_views.len() - 1
    }

    /// Where what `write` appends (4-byte components) goes: the open data view (at the returned
    /// offset within it), or a new one. Vertex data keeps views of its own (accessors sharing a
    /// vertex view would need a stride).
    fn data_written(&mut self, write: impl FnOnce(&mut Buffer)) -> (usize, usize) {
        match self.data_view {
            Some(view) => {
                let offset = self.buffer_views[view].byte_length;
                let start = self.bin.len();
                write(&mut self.bin);
                self.buffer_views[view].byte_length += self.bin.len() - start;
                (view, offset)
            }
            None => {
                let view = self.view_written(None, write);
                self.data_view = Some(view);
                (view, 0)
            }
        }
    }

    fn accessor(&mut self, accessor: Accessor) -> usize {
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// An animation of `channels`, each `(node, path, sampler input, sampler output)`, LINEAR.
    pub fn animation(&mut self, name: String, channels: &[(usize, &'static str, usize, usize)]) {
        self.animations.push(AnimationJson {
            channels: channels
                .iter()
                .enumerate()
                .map(|(sampler, &(node, path, _, _))| Channel {
                    sampler,
                    target: Target { node, path },
                })
                .collect(),
            name,
            samplers: channels
                .iter()
                .map(|&(_, _, input, output)| AnimationSampler {
                    input,
                    interpolation: "LINEAR",
                    output,
                })
                .collect(),
        });
    }

    /// A float accessor of `kind` (SCALAR, VEC2, VEC3, VEC4) over `values`, with min and max when
    /// `bounds` (the validator requires them on POSITION and animation inputs).
    pub fn floats(&mut self, kind: &'static str, values: &[f32], bounds: bool, vertex_data: bool) -> usize {
        fn elements<const N: usize>(values: &[f32]) -> impl ExactSizeIterator<Item = [f32; N]> + '_ {
            values
                .chunks_exact(N)
                .map(|c| c.try_into().expect("chunks of N values"))
        }
        match components(kind) {
            1 => self.float_elements(kind, elements::<1>(values), bounds, vertex_data),
            2 => self.float_elements(kind, elements::<2>(values), bounds, vertex_data),
            3 => self.float_elements(kind, elements::<3>(values), bounds, vertex_data),
            4 => self.float_elements(kind, elements::<4>(values), bounds, vertex_data),
            other => unreachable!("float accessors of {other} components are not used"),
        }
    }

    /// A float accessor of `kind` (of `N` components) over `elements` as they come, with min
    /// and max when `bounds`.
    pub fn float_elements<const N: usize>(
        &mut self,
        kind: &'static str,
        elements: impl ExactSizeIterator<Item = [f32; N]>,
        bounds: bool,
        vertex_data: bool,
    ) -> usize {
        const { assert!(N <= 4, "float accessors are SCALAR to VEC4") };
        debug_assert_eq!(components(kind), N);
        let count = elements.len();
        let mut min = [f32::INFINITY; N];
        let mut max = [f32::NEG_INFINITY; N];
        let accessor = self.float_accessor(kind, count, vertex_data, |bin| {
            bin.reserve(count * N * 4);
            for element in elements {
                let mut bytes = [0; 16]; // up to VEC4, put at once
                for (k, v) in element.into_iter().enumerate() {
                    if bounds {
                        min[k] = min[k].min(v);
                        max[k] = max[k].max(v);
                    }
                    bytes[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
                }
                bin.put(&bytes[..4 * N]);
            }
        });
        if bounds && count > 0 {
            // As JSON numbers of f32 values are written (through f64), so the text is unchanged.
            let accessor = &mut self.accessors[accessor];
            accessor.min = Some(min.into_iter().map(f64::from).collect());
            accessor.max = Some(max.into_iter().map(f64::from).collect());
        }
        accessor
    }

    /// A float accessor of `count` elements of `kind`, whose bytes `write` appends.
    fn float_accessor(
        &mut self,
        kind: &'static str,
        count: usize,
        vertex_data: bool,
        write: impl FnOnce(&mut Buffer),
    ) -> usize {
        let (view, offset) = match vertex_data {
            true => (self.view_written(Some(ARRAY_BUFFER), write), 0),
            false => self.data_written(write),
        };
        let mut accessor = Accessor::new(view, FLOAT, count, kind);
        accessor.byte_offset = offset;
        self.accessor(accessor)
    }

    /// Triangle indices, in the smallest component type that holds them.
    pub fn indices(&mut self, indices: &[u32]) -> usize {
        let max = indices.iter().copied().max().unwrap_or(0);
        let short = max < u16::MAX as u32;
        let view = self.view_written(Some(ELEMENT_ARRAY_BUFFER), |bin| match short {
            true => indices.iter().for_each(|&i| bin.put(&(i as u16).to_le_bytes())),
            false => indices.iter().for_each(|i| bin.put(&i.to_le_bytes())),
        });
        let component = if short { UNSIGNED_SHORT } else { UNSIGNED_INT };
        self.accessor(Accessor::new(view, component, indices.len(), "SCALAR"))
    }

    /// JOINTS_0: four joint indices per vertex.
    pub fn joints(&mut self, joints: impl ExactSizeIterator<Item = [u16; 4]> + Clone) -> usize {
        let count = joints.len();
        let bytes = joints.clone().flatten().all(|j| j < 256);
        let view = self.view_written(Some(ARRAY_BUFFER), |bin| match bytes {
            true => joints.flatten().for_each(|j| bin.put_byte(j as u8)),
            false => joints.flatten().for_each(|j| bin.put(&j.to_le_bytes())),
        });
        let component = if bytes { UNSIGNED_BYTE } else { UNSIGNED_SHORT };
        self.accessor(Accessor::new(view, component, count, "VEC4"))
    }

    /// Inverse bind matrices (MAT4, column-major).
    pub fn matrices(&mut self, matrices: &[[f32; 16]]) -> usize {
        let view = self.view_written(None, |bin| {
            matrices.iter().flatten().for_each(|v| bin.put(&v.to_le_bytes()))
        });
        self.accessor(Accessor::new(view, FLOAT, matrices.len(), "MAT4"))
    }

    /// A PNG image; returns its index in `images`.
    pub fn png(&mut self, name: &str, png: std::sync::Arc<Vec<u8>>) -> usize {
        self.images.push((name.to_string(), png));
        self.images.len() - 1
    }

    /// The files of this document named after `stem`: one `.glb`, or `.gltf` + `.bin` + `.png`s.
    /// A spill of the buffer that failed (see [`Buffer`]) is the error.
    pub fn into_files(mut self, stem: &str, format: GltfFormat) -> std::io::Result<Vec<(String, Body)>> {
        let mut files = Vec::new();
        let images = std::mem::take(&mut self.images);
        for (i, (name, png)) in images.into_iter().enumerate() {
            match format {
                GltfFormat::Glb => {
                    let view = self.view(&png, None);
                    self.push(
                        "images",
                        json!({ "name": name, "bufferView": view, "mimeType": "image/png" }),
                    );
                }
                GltfFormat::Separate => {
                    let file = format!("{stem}_{i}.png");
                    self.push("images", json!({ "name": name, "uri": file }));
                    files.push((file, Body::bytes(png.to_vec())));
                }
            }
        }
        self.bin.pad();
        let mut root = Map::new();
        root.insert(
            "asset".into(),
            json!({ "version": "2.0", "generator": concat!("wadforge ", env!("CARGO_PKG_VERSION")) }),
        );
        root.insert("scene".into(), json!(0));
        if !self.bin.is_empty() {
            let mut buffer = json!({ "byteLength": self.bin.len() });
            if format == GltfFormat::Separate {
                buffer["uri"] = json!(format!("{stem}.bin"));
            }
            root.insert("buffers".into(), json!([buffer]));
        }
        root.extend(self.arrays);
        if let Some(extras) = self.extras {
            root.insert("extras".into(), json!(extras));
        }
        let mut entries: BTreeMap<&str, Entry> =
            root.iter().map(|(k, v)| (k.as_str(), Entry::Value(v))).collect();
        if !self.accessors.is_empty() {
            entries.insert("accessors", Entry::Accessors(&self.accessors));
        }
        if !self.buffer_views.is_empty() {
            entries.insert("bufferViews", Entry::BufferViews(&self.buffer_views));
        }
        if !self.animations.is_empty() {
            entries.insert("animations", Entry::Animations(&self.animations));
        }
        if !self.nodes.is_empty() {
            entries.insert("nodes", Entry::Nodes(&self.nodes));
        }
        let json = serde_json::to_vec(&entries).expect("JSON values serialise");
        drop(entries);
        drop(root);
        match format {
            GltfFormat::Glb => {
                let head = glb_head(json, self.bin.len()).ok_or_else(|| {
                    std::io::Error::other(format!(
                        "{stem}.glb would be 4 GiB or more, past what a GLB can hold; import it with --gltf (a .gltf and a .bin)"
                    ))
                })?;
                files.push((format!("{stem}.glb"), self.bin.finish(head)?));
            }
            GltfFormat::Separate => {
                if !self.bin.is_empty() {
                    files.push((format!("{stem}.bin"), self.bin.finish(Vec::new())?));
                }
                files.push((format!("{stem}.gltf"), Body::bytes(json)));
            }
        }
        Ok(files)
    }
}

/// What comes before the buffer in a GLB of `json` and a buffer of `bin_len` bytes (a multiple
/// of 4): the header, the JSON chunk, and the binary chunk's header when there is a buffer. Made
/// in `json`'s allocation (a large object's JSON holds its meshes as stored, base64-encoded).
fn glb_head(mut json: Vec<u8>, bin_len: usize) -> Option<Vec<u8>> {
    const HEADER: usize = 12;
    const CHUNK_HEADER: usize = 8;
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let json_len = json.len();
    let bin_chunk = if bin_len == 0 { 0 } else { CHUNK_HEADER + bin_len };
    let length = HEADER + CHUNK_HEADER + json_len + bin_chunk;
    let mut head = [0; HEADER + CHUNK_HEADER];
    head[..4].copy_from_slice(b"glTF");
    head[4..8].copy_from_slice(&2u32.to_le_bytes());
    head[8..12].copy_from_slice(&u32::try_from(length).ok()?.to_le_bytes());
    head[12..16].copy_from_slice(&(json_len as u32).to_le_bytes());
    head[16..].copy_from_slice(b"JSON");
    json.splice(0..0, head);
    if bin_len > 0 {
        json.extend_from_slice(&(bin_len as u32).to_le_bytes());
        json.extend_from_slice(b"BIN\0");
    }
    Some(json)
}

/// A top-level entry of the document: a JSON value or a typed list.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Value(&'a Value),
    Accessors(&'a [Accessor]),
    BufferViews(&'a [BufferView]),
    Animations(&'a [AnimationJson]),
    Nodes(&'a [NodeJson]),
}

/// A node: a joint's, typed (a moveable may have thousands; each as a JSON value took 1.3 kB),
/// or any other.
#[derive(Serialize)]
#[serde(untagged)]
enum NodeJson {
    Joint(JointNode),
    Value(Value),
}

/// A joint's node: its bone name, TR mesh index, translation (the link offset from its parent)
/// and children. Fields in sorted order, as the JSON objects they stand for were written.
#[derive(Serialize)]
pub(crate) struct JointNode {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<usize>,
    pub extras: JointExtras,
    pub name: String,
    /// f32 values, written through f64 as JSON values write them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f64; 3]>,
}

// Fields in sorted order, as the JSON objects they stand for were written.
#[derive(Serialize)]
struct Accessor {
    #[serde(rename = "bufferView")]
    buffer_view: usize,
    #[serde(rename = "byteOffset", skip_serializing_if = "is_zero")]
    byte_offset: usize,
    #[serde(rename = "componentType")]
    component_type: u32,
    count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<Vec<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<Vec<f64>>,
    #[serde(rename = "type")]
    kind: &'static str,
}

impl Accessor {
    fn new(buffer_view: usize, component_type: u32, count: usize, kind: &'static str) -> Accessor {
        Accessor {
            buffer_view,
            byte_offset: 0,
            component_type,
            count,
            max: None,
            min: None,
            kind,
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Serialize)]
struct BufferView {
    buffer: usize,
    #[serde(rename = "byteLength")]
    byte_length: usize,
    #[serde(rename = "byteOffset")]
    byte_offset: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<u32>,
}

#[derive(Serialize)]
struct AnimationJson {
    channels: Vec<Channel>,
    name: String,
    samplers: Vec<AnimationSampler>,
}

#[derive(Serialize)]
struct Channel {
    sampler: usize,
    target: Target,
}

#[derive(Serialize)]
struct Target {
    node: usize,
    path: &'static str,
}

#[derive(Serialize)]
struct AnimationSampler {
    input: usize,
    interpolation: &'static str,
    output: usize,
}

fn components(kind: &str) -> usize {
    match kind {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        "MAT4" => 16,
        other => unreachable!("accessor type {other} is not used"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's JSON, as a `.gltf` file holds it.
    fn json(doc: Document) -> Value {
        let files = doc.into_files("x", GltfFormat::Separate).unwrap();
        let (_, gltf) = files
            .into_iter()
            .find(|(name, _)| name == "x.gltf")
            .expect("a .gltf");
        serde_json::from_slice(&gltf.into_bytes().unwrap()).unwrap()
    }

    #[test]
    fn animation_data_shares_a_view_until_vertex_data_follows() {
        let mut doc = Document::new(None);
        let times = doc.floats("SCALAR", &[0.0, 1.0], true, false);
        let rotations = doc.floats("VEC4", &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0], false, false);
        let positions = doc.floats("VEC3", &[1.0, 2.0, 3.0], true, true);
        let more = doc.floats("SCALAR", &[5.0], false, false);
        let json = json(doc);
        let accessor = |i: usize| &json["accessors"][i];
        assert_eq!(accessor(times)["bufferView"], accessor(rotations)["bufferView"]);
        assert_eq!(accessor(times).get("byteOffset"), None, "offset 0 is left out");
        assert_eq!(accessor(rotations)["byteOffset"], 8, "after the two times");
        let view = |i: usize| &json["bufferViews"][accessor(i)["bufferView"].as_u64().unwrap() as usize];
        assert_eq!(view(times)["byteLength"], 8 + 32);
        assert_eq!(
            view(times).get("target"),
            None,
            "animation data is no vertex data"
        );
        assert_eq!(view(positions)["target"], ARRAY_BUFFER);
        assert_ne!(accessor(positions)["bufferView"], accessor(times)["bufferView"]);
        assert_ne!(accessor(more)["bufferView"], accessor(positions)["bufferView"]);
        assert_ne!(
            accessor(more)["bufferView"],
            accessor(times)["bufferView"],
            "a view stays contiguous"
        );
        assert_eq!(json["bufferViews"].as_array().unwrap().len(), 3);
    }
}
