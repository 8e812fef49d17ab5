//! A rigged humanoid as other tools export one, made here as a GLB: a Z-up figure under a root
//! node turned −90° about X (what COLLADA conversions such as Khronos' RiggedFigure do), bound
//! with non-identity inverse binds relative to that root, a checker texture on the body and a
//! plain colour on the head, and one animation without a name.
//!
//! Joints in skin order: `hips`, `spine`, `head`, `leg`; TR's depth-first order is the same, so
//! the built moveable's meshes are hips 0, spine 1, head 2, leg 3.

use serde_json::{json, Value};

/// TR mesh of the head and of the leg in the built moveable.
pub const HEAD: usize = 2;
pub const LEG: usize = 3;

/// The figure's joints: name, parent (index), place relative to the parent (Z-up, metres).
const JOINTS: [(&str, Option<usize>, [f32; 3]); 4] = [
    ("hips", None, [0.0, 0.0, 1.0]),
    ("spine", Some(0), [0.0, 0.0, 0.2]),
    ("head", Some(1), [0.0, 0.0, 0.45]),
    ("leg", Some(0), [0.0, 0.0, -0.1]),
];

/// The figure as GLB bytes: skinned (with `skinned`) or the same meshes without a skin, its
/// unnamed animation `seconds` long (its spine bending forward and back).
pub fn rigged_figure(skinned: bool, seconds: f32) -> Vec<u8> {
    let (document, bin) = rigged_figure_parts(skinned, seconds);
    glb(&serde_json::to_vec(&document).unwrap(), &bin)
}

/// [`rigged_figure`]'s JSON document and binary chunk, for a test to change before [`glb`].
pub fn rigged_figure_parts(skinned: bool, seconds: f32) -> (Value, Vec<u8>) {
    let mut bin = Binary::default();
    let mut accessors = Vec::new();
    // Body: hips, spine and leg boxes, textured; head: a box of plain colour.
    let body = [
        (0u16, [-0.2, -0.1, 0.9], [0.2, 0.1, 1.1]),
        (1, [-0.25, -0.12, 1.1], [0.25, 0.12, 1.6]),
        (3, [-0.15, -0.1, 0.0], [0.15, 0.1, 0.9]),
    ];
    let head = [(2u16, [-0.12, -0.12, 1.6], [0.12, 0.12, 2.0])];
    let primitives: Vec<Value> = [(&body[..], 0), (&head[..], 1)]
        .into_iter()
        .map(|(boxes, material)| primitive(&mut bin, &mut accessors, boxes, material, skinned))
        .collect();
    let ibm: Vec<f32> = (0..JOINTS.len())
        .flat_map(|j| {
            let p = global(j);
            [
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -p[0], -p[1], -p[2], 1.0,
            ]
        })
        .collect();
    let ibm = bin.accessor(&mut accessors, &ibm, "MAT4", 5126, JOINTS.len(), None);
    let times = bin.accessor(
        &mut accessors,
        &[0.0, seconds / 2.0, seconds],
        "SCALAR",
        5126,
        3,
        None,
    );
    let bend = std::f32::consts::FRAC_PI_6 / 2.0;
    let turns = [
        0.0,
        0.0,
        0.0,
        1.0,
        bend.sin(),
        0.0,
        0.0,
        bend.cos(),
        0.0,
        0.0,
        0.0,
        1.0,
    ];
    let turns = bin.accessor(&mut accessors, &turns, "VEC4", 5126, 3, None);
    let image = bin.view(&checker_png());
    let mut nodes: Vec<Value> = JOINTS
        .iter()
        .enumerate()
        .map(|(j, (name, _, t))| {
            let children: Vec<usize> = (JOINTS.iter().enumerate())
                .filter(|(_, c)| c.1 == Some(j))
                .map(|(c, _)| c + 1)
                .collect();
            let mut node = json!({"name": name, "translation": t});
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    // Node 0 the turned root; joints 1..=4; the mesh node 5.
    let root = json!({"name": "Z_UP", "rotation": [-std::f32::consts::FRAC_1_SQRT_2, 0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2], "children": [1, 5]});
    nodes.insert(0, root);
    let mut mesh_node = json!({"name": "figure", "mesh": 0});
    if skinned {
        mesh_node["skin"] = json!(0);
    }
    nodes.push(mesh_node);
    let document = json!({
        "asset": {"version": "2.0", "generator": "wadforge tests: rigged_figure"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": [{"primitives": primitives}],
        "materials": [
            {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
            {"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.7, 0.5, 1.0]}}
        ],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"magFilter": 9728, "minFilter": 9728}],
        "images": [{"bufferView": image, "mimeType": "image/png"}],
        "animations": [{
            "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}],
            "samplers": [{"input": times, "output": turns, "interpolation": "LINEAR"}]
        }],
        "accessors": accessors,
        "bufferViews": bin.views,
        "buffers": [{"byteLength": bin.bytes.len()}],
    });
    let mut document = document;
    if skinned {
        document["skins"] = json!([{"joints": [1, 2, 3, 4], "inverseBindMatrices": ibm, "skeleton": 1}]);
    }
    (document, bin.bytes)
}

/// Joint `j`'s place in the root's (Z-up) frame.
fn global(j: usize) -> [f32; 3] {
    let (_, parent, t) = JOINTS[j];
    let above = parent.map_or([0.0; 3], global);
    [0, 1, 2].map(|k| above[k] + t[k])
}

/// One primitive of axis-aligned boxes, each weighted wholly to its joint.
fn primitive(
    bin: &mut Binary,
    accessors: &mut Vec<Value>,
    boxes: &[(u16, [f32; 3], [f32; 3])],
    material: usize,
    skinned: bool,
) -> Value {
    let (mut positions, mut uvs, mut joints, mut weights, mut indices) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (joint, lo, hi) in boxes {
        let first = (positions.len() / 3) as u16;
        for corner in 0..8 {
            let pick = |k: usize, bit: usize| if corner >> bit & 1 == 1 { hi[k] } else { lo[k] };
            positions.extend([pick(0, 0), pick(1, 1), pick(2, 2)]);
            uvs.extend([(corner & 1) as f32, (corner >> 2 & 1) as f32]);
            joints.extend([*joint, 0, 0, 0]);
            weights.extend([1.0f32, 0.0, 0.0, 0.0]);
        }
        // Outward, counter-clockwise faces of the box of corners 0..8 (bit 0 x, bit 1 y, bit 2 z).
        for face in [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ] {
            indices.extend([face[0], face[1], face[2], face[0], face[2], face[3]].map(|c| first + c));
        }
    }
    let count = positions.len() / 3;
    let (min, max) = (0..3)
        .map(|k| {
            let c = positions.iter().skip(k).step_by(3);
            (
                c.clone().copied().fold(f32::MAX, f32::min),
                c.copied().fold(f32::MIN, f32::max),
            )
        })
        .unzip::<f32, f32, Vec<_>, Vec<_>>();
    let position = bin.accessor(accessors, &positions, "VEC3", 5126, count, Some((min, max)));
    let uv = bin.accessor(accessors, &uvs, "VEC2", 5126, count, None);
    let index = bin.accessor(accessors, &indices, "SCALAR", 5123, indices.len(), None);
    let mut attributes = json!({"POSITION": position, "TEXCOORD_0": uv});
    if skinned {
        attributes["JOINTS_0"] = json!(bin.accessor(accessors, &joints, "VEC4", 5123, count, None));
        attributes["WEIGHTS_0"] = json!(bin.accessor(accessors, &weights, "VEC4", 5126, count, None));
    }
    json!({"attributes": attributes, "indices": index, "material": material})
}

/// A 16×16 red and white checker, as PNG.
fn checker_png() -> Vec<u8> {
    let image = image::RgbaImage::from_fn(16, 16, |x, y| {
        if (x / 4 + y / 4) % 2 == 0 {
            image::Rgba([220, 30, 30, 255])
        } else {
            image::Rgba([240, 240, 240, 255])
        }
    });
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

/// The binary chunk being written, and its buffer views.
#[derive(Default)]
struct Binary {
    bytes: Vec<u8>,
    views: Vec<Value>,
}

/// Numbers the binary chunk stores little-endian.
trait Stored: Copy {
    fn put(self, out: &mut Vec<u8>);
}

impl Stored for f32 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
}

impl Stored for u16 {
    fn put(self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
}

impl Binary {
    /// A buffer view of `bytes`, 4-byte aligned; its index.
    fn view(&mut self, bytes: &[u8]) -> usize {
        while self.bytes.len() % 4 != 0 {
            self.bytes.push(0);
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": self.bytes.len(), "byteLength": bytes.len()}));
        self.bytes.extend_from_slice(bytes);
        self.views.len() - 1
    }

    /// An accessor of `count` elements of `kind` over `values` in a view of their own; its index.
    fn accessor<T: Stored>(
        &mut self,
        accessors: &mut Vec<Value>,
        values: &[T],
        kind: &str,
        component: u32,
        count: usize,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> usize {
        let mut bytes = Vec::new();
        values.iter().for_each(|v| v.put(&mut bytes));
        let view = self.view(&bytes);
        let mut accessor =
            json!({"bufferView": view, "componentType": component, "count": count, "type": kind});
        if let Some((min, max)) = bounds {
            accessor["min"] = json!(min);
            accessor["max"] = json!(max);
        }
        accessors.push(accessor);
        accessors.len() - 1
    }
}

/// A GLB of a JSON and a binary chunk.
pub fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |len: usize| (4 - len % 4) % 4;
    let (json_len, bin_len) = (json.len() + pad(json.len()), bin.len() + pad(bin.len()));
    let total = 12 + 8 + json_len + 8 + bin_len;
    let mut out = Vec::with_capacity(total);
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((json_len as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(json);
    out.extend(std::iter::repeat_n(b' ', pad(json.len())));
    out.extend((bin_len as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(bin);
    out.extend(std::iter::repeat_n(0u8, pad(bin.len())));
    out
}
