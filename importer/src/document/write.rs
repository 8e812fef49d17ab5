//! The document's JSON as import has always written it: object keys in sorted order, and f32
//! numbers through f64 — as a JSON value writes them (serde_json without `preserve_order`).
//! gltf-json's types declare their fields in another order and write f32 as f32, so each of
//! their objects becomes a JSON value as it is written, one list element at a time (a rigged
//! character has thousands of nodes and accessors; each as a value takes about a kilobyte).

use std::collections::BTreeMap;
use std::marker::PhantomData;

use gltf::json::{self, Index};
use serde::Serialize;
use wadforge_manifests::gltf_contract::ObjectExtras;

use super::as_written::{Material, Scene};

/// What the JSON is made of: the root (all but its accessors, animations, materials, scenes
/// and extras), and these. The written lists are dropped as they are copied into the JSON.
pub(super) struct Parts<'a> {
    pub root: &'a json::Root,
    pub accessors: WrittenList<json::Accessor>,
    pub animations: WrittenList<json::Animation>,
    pub materials: &'a [Material],
    pub scenes: &'a [Scene],
    pub extras: Option<&'a ObjectExtras>,
}

/// A list of glTF objects kept as their JSON from the moment each is added: what an animation
/// channel adds (an accessor, a channel and a sampler) takes some 500 bytes in gltf-json's
/// types, 180 as JSON, and an import may make hundreds of thousands of channels (see
/// `animation_budget`).
pub(super) struct WrittenList<T> {
    json: Vec<u8>,
    len: usize,
    of: PhantomData<fn(T)>,
}

impl<T: Serialize> WrittenList<T> {
    pub fn new() -> Self {
        WrittenList {
            json: Vec::new(),
            len: 0,
            of: PhantomData,
        }
    }

    /// Writes `item` into the list; its index.
    pub fn push(&mut self, item: &T) -> Index<T> {
        if self.len > 0 {
            self.json.push(b',');
        }
        AsValue(item)
            .write(&mut self.json)
            .expect("glTF objects serialise");
        self.len += 1;
        super::index(self.len - 1)
    }
}

impl<T> Entry for WrittenList<T> {
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.push(b'[');
        out.extend_from_slice(&self.json);
        out.push(b']');
        Ok(())
    }
}

/// `list` as an entry; `None` when empty.
fn written<'a, T: 'a>(list: WrittenList<T>) -> Option<Box<dyn Entry + 'a>> {
    (list.len > 0).then(|| Box::new(list) as Box<dyn Entry>)
}

/// The JSON of `parts`: the entries glTF import fills, those without content left out.
pub(super) fn json(parts: Parts) -> serde_json::Result<Vec<u8>> {
    let json::Root {
        asset,
        buffers,
        buffer_views,
        images,
        meshes,
        nodes,
        samplers,
        scene,
        skins,
        textures,
        ..
    } = parts.root;
    let entries: [(&str, Option<Box<dyn Entry + '_>>); 15] = [
        ("accessors", written(parts.accessors)),
        ("animations", written(parts.animations)),
        ("asset", Some(Box::new(AsValue(asset)))),
        ("bufferViews", values(buffer_views)),
        ("buffers", values(buffers)),
        (
            "extras",
            parts.extras.map(|e| Box::new(AsValue(e)) as Box<dyn Entry>),
        ),
        ("images", values(images)),
        ("materials", values(parts.materials)),
        ("meshes", values(meshes)),
        ("nodes", values(nodes)),
        ("samplers", values(samplers)),
        (
            "scene",
            scene.as_ref().map(|s| Box::new(AsValue(s)) as Box<dyn Entry>),
        ),
        (
            "scenes",
            (!parts.scenes.is_empty()).then(|| Box::new(AsIs(parts.scenes)) as Box<dyn Entry>),
        ),
        ("skins", values(skins)),
        ("textures", values(textures)),
    ];
    let sorted: BTreeMap<&str, Box<dyn Entry>> = entries
        .into_iter()
        .filter_map(|(key, entry)| Some((key, entry?)))
        .collect();
    let mut out = vec![b'{'];
    for (i, (key, entry)) in sorted.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, key)?;
        out.push(b':');
        entry.write(&mut out)?;
    }
    out.push(b'}');
    Ok(out)
}

/// A top-level entry, written into the JSON.
trait Entry {
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
}

/// A list written an element at a time as a JSON value writes it; `None` when empty.
fn values<T: Serialize>(items: &[T]) -> Option<Box<dyn Entry + '_>> {
    (!items.is_empty()).then(|| Box::new(AsValues(items)) as Box<dyn Entry>)
}

/// Written as a JSON value writes it.
struct AsValue<'a, T>(&'a T);

impl<T: Serialize> Entry for AsValue<'_, T> {
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, &serde_json::to_value(self.0)?)
    }
}

/// A list, each element written as a JSON value writes it (one value held at a time).
struct AsValues<'a, T>(&'a [T]);

impl<T: Serialize> Entry for AsValues<'_, T> {
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.push(b'[');
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            AsValue(item).write(out)?;
        }
        out.push(b']');
        Ok(())
    }
}

/// Written as it is: for a type whose fields are declared in sorted order and hold no floats.
struct AsIs<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> Entry for AsIs<'_, T> {
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, self.0)
    }
}
