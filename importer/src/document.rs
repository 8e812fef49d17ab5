//! A glTF document under construction, in gltf-json's types, and one binary buffer; written as
//! a GLB or as `.gltf` + `.bin` + `.png` files.

mod as_written;
mod write;

use std::sync::Arc;

use gltf::json::accessor::{ComponentType, GenericComponentType, Type};
use gltf::json::animation::{Channel, Interpolation, Property, Sampler, Target};
use gltf::json::buffer::{self, View};
use gltf::json::image::MimeType;
use gltf::json::validation::{Checked::Valid, USize64};
use gltf::json::{self, Accessor, Index};
use wadforge_manifests::gltf_contract::ObjectExtras;

pub(crate) use as_written::{Material, PbrMetallicRoughness, Scene, TextureInfo};
use write::WrittenList;

use crate::buffer::{Body, Buffer};

/// How a glTF file is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GltfFormat {
    /// One binary `.glb` with the buffer and images inside.
    Glb,
    /// `.gltf` JSON beside a `.bin` buffer and `.png` images.
    Separate,
}

/// An animation channel: the node, what it moves, and its sampler's input and output.
pub(crate) type AnimationChannel = (Index<json::Node>, Property, Index<Accessor>, Index<Accessor>);

/// The glTF objects [`Document::push`] adds to the root: the others have lists of their own
/// (accessors, animations) or are import's own types (materials, scenes), and the root's lists
/// of them are not written.
pub(crate) trait InRoot {}
impl InRoot for json::Mesh {}
impl InRoot for json::Node {}
impl InRoot for json::Skin {}
impl InRoot for json::texture::Sampler {}
impl InRoot for json::Texture {}

pub(crate) struct Document {
    /// The glTF but for its accessors and animations (see [`WrittenList`]), its materials and
    /// scenes (see [`as_written`]) and its extras; its buffer and images are added as it is
    /// written.
    root: json::Root,
    accessors: WrittenList<Accessor>,
    animations: WrittenList<json::Animation>,
    materials: Vec<Material>,
    scenes: Vec<Scene>,
    /// The view animation data is appended to while nothing else follows it in the buffer: one
    /// view for many accessors (a 445-animation Lara had a view per accessor, 7,595 of them).
    data_view: Option<Index<View>>,
    bin: Buffer,
    /// PNG images: name and bytes; embedded in the buffer for GLB, separate files otherwise.
    images: Vec<(String, Arc<Vec<u8>>)>,
    pub extras: Option<ObjectExtras>,
    /// Time spent making this document's images (for [`crate::ImportPhases`]).
    pub image_time: std::time::Duration,
}

impl Document {
    /// A new document; `spill`: where its buffer may go past the size kept in memory (see
    /// [`Buffer`]).
    pub fn new(spill: Option<&std::path::Path>) -> Self {
        Document {
            root: json::Root::default(),
            accessors: WrittenList::new(),
            animations: WrittenList::new(),
            materials: Vec::new(),
            scenes: Vec::new(),
            data_view: None,
            bin: Buffer::new(spill),
            images: Vec::new(),
            extras: None,
            image_time: std::time::Duration::ZERO,
        }
    }

    /// Appends `item` to its list; returns its index.
    pub fn push<T: InRoot>(&mut self, item: T) -> Index<T>
    where
        json::Root: AsMut<Vec<T>>,
    {
        self.root.push(item)
    }

    /// Appends a material; returns its index.
    pub fn material(&mut self, material: Material) -> Index<json::Material> {
        self.materials.push(material);
        index(self.materials.len() - 1)
    }

    pub fn scene(&mut self, scene: Scene) {
        self.scenes.push(scene);
    }

    pub fn node_mut(&mut self, node: Index<json::Node>) -> &mut json::Node {
        &mut self.root.nodes[node.value()]
    }

    fn view(&mut self, bytes: &[u8], target: Option<buffer::Target>) -> Index<View> {
        self.view_written(target, |bin| bin.put(bytes))
    }

    /// A new view of what `write` appends to the buffer (written in place: a large mesh's
    /// vertex data is not held twice).
    fn view_written(
        &mut self,
        target: Option<buffer::Target>,
        write: impl FnOnce(&mut Buffer),
    ) -> Index<View> {
        self.data_view = None;
        self.bin.pad();
        let offset = self.bin.len();
        write(&mut self.bin);
        self.root.push(View {
            buffer: Index::new(0),
            byte_length: USize64::from(self.bin.len() - offset),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        })
    }

    /// Where what `write` appends (4-byte components) goes: the open data view (at the returned
    /// offset within it), or a new one. Vertex data keeps views of its own (accessors sharing a
    /// vertex view would need a stride).
    fn data_written(&mut self, write: impl FnOnce(&mut Buffer)) -> (Index<View>, u64) {
        match self.data_view {
            Some(view) => {
                let offset = self.root.buffer_views[view.value()].byte_length.0;
                let start = self.bin.len();
                write(&mut self.bin);
                self.root.buffer_views[view.value()].byte_length.0 += (self.bin.len() - start) as u64;
                (view, offset)
            }
            None => {
                let view = self.view_written(None, write);
                self.data_view = Some(view);
                (view, 0)
            }
        }
    }

    /// An animation of `channels`, LINEAR.
    pub fn animation(&mut self, name: String, channels: &[AnimationChannel]) {
        let channel = |(sampler, &(node, path, _, _)): (usize, &AnimationChannel)| Channel {
            sampler: index(sampler),
            target: Target {
                node,
                path: Valid(path),
                extensions: None,
                extras: None,
            },
            extensions: None,
            extras: None,
        };
        let sampler = |&(_, _, input, output): &AnimationChannel| Sampler {
            input,
            interpolation: Valid(Interpolation::Linear),
            output,
            extensions: None,
            extras: None,
        };
        self.animations.push(&json::Animation {
            channels: channels.iter().enumerate().map(channel).collect(),
            name: Some(name),
            samplers: channels.iter().map(sampler).collect(),
            extensions: None,
            extras: None,
        });
    }

    /// A float accessor of `kind` (SCALAR, VEC2, VEC3, VEC4) over `values`, with min and max when
    /// `bounds` (the validator requires them on POSITION and animation inputs).
    pub fn floats(&mut self, kind: Type, values: &[f32], bounds: bool, vertex_data: bool) -> Index<Accessor> {
        fn elements<const N: usize>(values: &[f32]) -> impl ExactSizeIterator<Item = [f32; N]> + '_ {
            values
                .chunks_exact(N)
                .map(|c| c.try_into().expect("chunks of N values"))
        }
        match kind.multiplicity() {
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
        kind: Type,
        elements: impl ExactSizeIterator<Item = [f32; N]>,
        bounds: bool,
        vertex_data: bool,
    ) -> Index<Accessor> {
        const { assert!(N <= 4, "float accessors are SCALAR to VEC4") };
        debug_assert_eq!(kind.multiplicity(), N);
        let count = elements.len();
        let mut min = [f32::INFINITY; N];
        let mut max = [f32::NEG_INFINITY; N];
        let write = |bin: &mut Buffer| {
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
        };
        let (view, offset) = match vertex_data {
            true => (self.view_written(Some(buffer::Target::ArrayBuffer), write), 0),
            false => self.data_written(write),
        };
        let mut accessor = accessor(view, ComponentType::F32, count, kind);
        accessor.byte_offset = (offset > 0).then_some(USize64(offset));
        if bounds && count > 0 {
            accessor.min = Some(min.to_vec().into());
            accessor.max = Some(max.to_vec().into());
        }
        self.accessors.push(&accessor)
    }

    /// Triangle indices, in the smallest component type that holds them.
    pub fn indices(&mut self, indices: &[u32]) -> Index<Accessor> {
        let max = indices.iter().copied().max().unwrap_or(0);
        let short = max < u16::MAX as u32;
        let target = Some(buffer::Target::ElementArrayBuffer);
        let view = self.view_written(target, |bin| match short {
            true => indices.iter().for_each(|&i| bin.put(&(i as u16).to_le_bytes())),
            false => indices.iter().for_each(|i| bin.put(&i.to_le_bytes())),
        });
        let component = if short {
            ComponentType::U16
        } else {
            ComponentType::U32
        };
        self.accessors
            .push(&accessor(view, component, indices.len(), Type::Scalar))
    }

    /// JOINTS_0: four joint indices per vertex.
    pub fn joints(&mut self, joints: impl ExactSizeIterator<Item = [u16; 4]> + Clone) -> Index<Accessor> {
        let count = joints.len();
        let bytes = joints.clone().flatten().all(|j| j < 256);
        let view = self.view_written(Some(buffer::Target::ArrayBuffer), |bin| match bytes {
            true => joints.flatten().for_each(|j| bin.put_byte(j as u8)),
            false => joints.flatten().for_each(|j| bin.put(&j.to_le_bytes())),
        });
        let component = if bytes {
            ComponentType::U8
        } else {
            ComponentType::U16
        };
        self.accessors.push(&accessor(view, component, count, Type::Vec4))
    }

    /// Inverse bind matrices (MAT4, column-major).
    pub fn matrices(&mut self, matrices: &[[f32; 16]]) -> Index<Accessor> {
        let view = self.view_written(None, |bin| {
            matrices.iter().flatten().for_each(|v| bin.put(&v.to_le_bytes()))
        });
        self.accessors
            .push(&accessor(view, ComponentType::F32, matrices.len(), Type::Mat4))
    }

    /// A PNG image; returns its index.
    pub fn png(&mut self, name: &str, png: Arc<Vec<u8>>) -> Index<json::Image> {
        self.images.push((name.to_string(), png));
        index(self.images.len() - 1)
    }

    /// The files of this document named after `stem`: one `.glb`, or `.gltf` + `.bin` + `.png`s.
    /// A spill of the buffer that failed (see [`Buffer`]) is the error.
    pub fn into_files(mut self, stem: &str, format: GltfFormat) -> std::io::Result<Vec<(String, Body)>> {
        let mut files = Vec::new();
        let images = std::mem::take(&mut self.images);
        for (i, (name, png)) in images.into_iter().enumerate() {
            let (buffer_view, mime_type, uri) = match format {
                GltfFormat::Glb => (
                    Some(self.view(&png, None)),
                    Some(MimeType("image/png".into())),
                    None,
                ),
                GltfFormat::Separate => {
                    let file = format!("{stem}_{i}.png");
                    files.push((file.clone(), Body::bytes(png.to_vec())));
                    (None, None, Some(file))
                }
            };
            self.root.push(json::Image {
                buffer_view,
                mime_type,
                name: Some(name),
                uri,
                extensions: None,
                extras: None,
            });
        }
        self.bin.pad();
        self.root.asset.generator = Some(concat!("wadforge ", env!("CARGO_PKG_VERSION")).into());
        self.root.scene = Some(Index::new(0));
        if !self.bin.is_empty() {
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                name: None,
                uri: (format == GltfFormat::Separate).then(|| format!("{stem}.bin")),
                extensions: None,
                extras: None,
            });
        }
        let Document {
            root,
            accessors,
            animations,
            materials,
            scenes,
            bin,
            extras,
            ..
        } = self;
        let parts = write::Parts {
            root: &root,
            accessors,
            animations,
            materials: &materials,
            scenes: &scenes,
            extras: extras.as_ref(),
        };
        let json = write::json(parts).expect("glTF objects serialise");
        // The glTF objects are not kept while the files are made.
        drop((root, materials, scenes));
        match format {
            GltfFormat::Glb => {
                let head = glb_head(json, bin.len()).ok_or_else(|| {
                    std::io::Error::other(format!(
                        "{stem}.glb would be 4 GiB or more, past what a GLB can hold; import it with --gltf (a .gltf and a .bin)"
                    ))
                })?;
                files.push((format!("{stem}.glb"), bin.finish(head)?));
            }
            GltfFormat::Separate => {
                if !bin.is_empty() {
                    files.push((format!("{stem}.bin"), bin.finish(Vec::new())?));
                }
                files.push((format!("{stem}.gltf"), Body::bytes(json)));
            }
        }
        Ok(files)
    }
}

/// Index `i` of a glTF list; a document's lists are far shorter than 2³² (import's budgets).
pub(crate) fn index<T>(i: usize) -> Index<T> {
    Index::new(u32::try_from(i).expect("glTF lists hold fewer than 2^32 entries"))
}

/// `extras` as a glTF object's extras.
pub(crate) fn extras<T: serde::Serialize>(extras: &T) -> json::Extras {
    Some(serde_json::value::to_raw_value(extras).expect("extras serialise"))
}

/// An accessor of `count` elements of `kind` in `view`.
fn accessor(view: Index<View>, component: ComponentType, count: usize, kind: Type) -> Accessor {
    Accessor {
        buffer_view: Some(view),
        byte_offset: None,
        count: USize64::from(count),
        component_type: Valid(GenericComponentType(component)),
        extensions: None,
        extras: None,
        type_: Valid(kind),
        min: None,
        max: None,
        name: None,
        normalized: false,
        sparse: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's JSON, as a `.gltf` file holds it.
    fn json(doc: Document) -> serde_json::Value {
        let files = doc.into_files("x", GltfFormat::Separate).unwrap();
        let (_, gltf) = files
            .into_iter()
            .find(|(name, _)| name == "x.gltf")
            .expect("a .gltf");
        serde_json::from_slice(&gltf.into_bytes().unwrap()).unwrap()
    }

    #[test]
    fn a_scene_without_nodes_lists_none() {
        // gltf-json's Scene would leave the list out (see `as_written`).
        let mut doc = Document::new(None);
        doc.scene(Scene {
            extras: Default::default(),
            name: "s".into(),
            nodes: Vec::new(),
        });
        let files = doc.into_files("x", GltfFormat::Separate).unwrap();
        let gltf = files.into_iter().find(|(name, _)| name == "x.gltf").unwrap().1;
        let text = String::from_utf8(gltf.into_bytes().unwrap()).unwrap();
        assert!(
            text.contains(r#""scenes":[{"extras":{},"name":"s","nodes":[]}]"#),
            "{text}"
        );
    }

    #[test]
    fn animation_data_shares_a_view_until_vertex_data_follows() {
        let mut doc = Document::new(None);
        let times = doc.floats(Type::Scalar, &[0.0, 1.0], true, false);
        let rotations = doc.floats(
            Type::Vec4,
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
            false,
            false,
        );
        let positions = doc.floats(Type::Vec3, &[1.0, 2.0, 3.0], true, true);
        let more = doc.floats(Type::Scalar, &[5.0], false, false);
        let json = json(doc);
        let accessor = |i: Index<Accessor>| &json["accessors"][i.value()];
        assert_eq!(accessor(times)["bufferView"], accessor(rotations)["bufferView"]);
        assert_eq!(accessor(times).get("byteOffset"), None, "offset 0 is left out");
        assert_eq!(accessor(rotations)["byteOffset"], 8, "after the two times");
        let view = |i| &json["bufferViews"][accessor(i)["bufferView"].as_u64().unwrap() as usize];
        assert_eq!(view(times)["byteLength"], 8 + 32);
        assert_eq!(
            view(times).get("target"),
            None,
            "animation data is no vertex data"
        );
        assert_eq!(view(positions)["target"], 34962, "ARRAY_BUFFER");
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
