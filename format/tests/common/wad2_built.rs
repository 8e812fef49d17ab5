//! A Wad2 document built to hold every kind of chunk TombLib reads, legacy ones included, and
//! unknown chunks at several depths.

#![allow(dead_code)]

use wadforge_format::wad2::document::*;
use wadforge_format::wad2::{Chunk, Document};

pub fn mesh_with_every_kind() -> Mesh {
    let mut unknown = UnknownChunks::default();
    // In the order the writer puts them, which reading keeps.
    unknown
        .0
        .push(("W2BBox".into(), Chunk::new("W2FutureBox", Vec::new())));
    unknown
        .0
        .push(("W2VrtPos".into(), Chunk::new("W2FuturePos", vec![1, 2, 3])));
    unknown
        .0
        .push(("W2Mesh".into(), Chunk::new("W2FutureMesh", vec![9])));
    let triangle = Polygon {
        quad: false,
        corners: [0, 1, 2, 0],
        shine: 7,
        texture: 0,
        parent_area: None,
        uvs: [[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [0.0; 2]],
        blend_mode: 2,
        double_sided: true,
        unknown: UnknownChunks::default(),
    };
    let quad = Polygon {
        quad: true,
        corners: [0, 1, 2, 3],
        parent_area: Some([[0.0, 0.0], [8.0, 8.0]]),
        uvs: [[0.5, 0.5], [7.5, 0.5], [7.5, 7.5], [0.5, 7.5]],
        ..triangle.clone()
    };
    Mesh {
        index: Some(0),
        name: "everything".into(),
        sphere: Sphere {
            centre: [1.0, -2.0, 3.0],
            radius: 5.5,
        },
        bounding_box: BoundingBox {
            min: [-1.0; 3],
            max: [1.0; 3],
        },
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
        normals: vec![[0.0, 16384.0, 0.0]; 4],
        colours: vec![
            VertexColour::Shade(4000),
            VertexColour::Colour([0.25, 0.5, 1.0]),
            VertexColour::Shade(0),
            VertexColour::Colour([1.0; 3]),
        ],
        weights: Some(vec![
            VertexWeight {
                bones: [0, 1, 0, 0],
                weights: [0.75, 0.25, 0.0, 0.0],
            };
            4
        ]),
        attributes: vec![VertexAttributes { glow: 3, movement: 9 }; 4],
        light_type: 1,
        hidden: Some(false),
        polygons: vec![triangle, quad],
        unknown,
    }
}

fn animation(version: AnimationVersion) -> Animation {
    let id = match version {
        AnimationVersion::Obsolete { .. } => "W2Anm",
        AnimationVersion::Legacy { .. } => "W2Ani",
        AnimationVersion::Current => "W2Ani2",
        AnimationVersion::Blended { .. } => "W2Ani3",
    };
    let mut unknown = UnknownChunks::default();
    unknown.0.push((id.into(), Chunk::new("W2AniRM", vec![1])));
    let blended = matches!(version, AnimationVersion::Blended { .. });
    let legacy = matches!(
        version,
        AnimationVersion::Obsolete { .. } | AnimationVersion::Legacy { .. }
    );
    Animation {
        version,
        state: 2,
        end_frame: 10,
        frame_rate: 1,
        next_animation: 0,
        next_frame: 0,
        curve: blended.then(BlendCurve::default),
        name: Some("idle".into()),
        keyframes: vec![Keyframe {
            offset: [0.0, -10.0, 0.0],
            bounding_box: BoundingBox {
                min: [-5.0, 10.0, -5.0],
                max: [5.0, -10.0, 5.0],
            },
            angles: vec![[0.0, 90.0, 359.5]; 2],
            unknown: UnknownChunks::default(),
        }],
        state_changes: vec![StateChange {
            state: 3,
            dispatches: vec![Dispatch {
                in_frame: 0,
                out_frame: 5,
                next_animation: 0,
                next_frame: 1,
                blend: blended.then(|| DispatchBlend {
                    next_frame_high: 4,
                    blend_frames: 2,
                    ..DispatchBlend::default()
                }),
            }],
            unknown: UnknownChunks::default(),
        }],
        commands: vec![Command {
            legacy,
            kind: 5,
            parameters: [3, 0x4000 | 12, 0],
            sound_info: Some(-1),
            unknown: UnknownChunks::default(),
        }],
        velocities: (!legacy).then_some([1.5, 2.0, 0.0, -0.5]),
        unknown,
    }
}

/// A document with every kind of chunk TombLib reads, legacy ones included, and unknown chunks
/// at several depths.
pub fn document_with_every_kind() -> Document {
    let mesh = mesh_with_every_kind();
    let image = Image {
        width: 2,
        height: 1,
        bgra: vec![255, 0, 255, 255, 10, 20, 30, 40],
    };
    let mut unknown = UnknownChunks::default();
    unknown
        .0
        .push(("W2Moveables".into(), Chunk::new("W2FutureMoveable", vec![])));
    unknown
        .0
        .push((String::new(), Chunk::new("W2Future", vec![4, 2])));
    Document {
        compressed: false,
        game_version: Some(18),
        sound_system: Some(1),
        textures: vec![Texture {
            image: Some(image.clone()),
            width: 2,
            height: 1,
            name: Some("page.png".into()),
            relative_path: Some("textures/page.png".into()),
            index: Some(0),
            unknown: UnknownChunks::default(),
        }],
        sprites: vec![Sprite {
            image: Some(image),
            width: 2,
            height: 1,
            index: Some(0),
            sides: Some([-10, -20, 10, 0]),
            unknown: UnknownChunks::default(),
        }],
        sprite_sequences: vec![SpriteSequence {
            id: 354,
            sprites: vec![0, 0],
            unknown: UnknownChunks::default(),
        }],
        moveables: vec![Moveable {
            id: 0,
            meshes: vec![mesh.clone(), mesh.clone()],
            skin: Some(mesh.clone()),
            bones: vec![
                Bone {
                    name: "root".into(),
                    mesh: Some(0),
                    ..Bone::default()
                },
                Bone {
                    opcode: 2,
                    name: "arm".into(),
                    translation: [0.0, 100.0, 0.0],
                    mesh: Some(1),
                    unknown: UnknownChunks::default(),
                },
            ],
            animations: vec![
                animation(AnimationVersion::Obsolete {
                    unused: [7, 8],
                    speeds: [65536, -3, 0, 1],
                }),
                animation(AnimationVersion::Legacy {
                    speeds: [131072, 0, 5, 0],
                }),
                animation(AnimationVersion::Current),
                animation(AnimationVersion::Blended { blend_frames: 3 }),
            ],
            unknown: UnknownChunks::default(),
        }],
        statics: vec![
            Static {
                id: 10,
                flags: 1,
                legacy_light_type: Some(1),
                mesh: mesh.clone(),
                ..Static::default()
            },
            Static {
                id: 11,
                flags: 0,
                legacy_light_type: None,
                mesh,
                ambient_light: Some(-1),
                shatter: Some(true),
                shatter_sound: Some(-1),
                lights: vec![StaticLight {
                    position: [0.0, -512.0, 0.0],
                    radius: 1024.0,
                    intensity: 0.5,
                    unknown: UnknownChunks::default(),
                }],
                visibility_box: Some(BoundingBox::default()),
                collision_box: Some(BoundingBox::default()),
                unknown: UnknownChunks::default(),
            },
        ],
        metadata: Some(Metadata {
            timestamp: Some([2026, 11, 27, 12, 0, 0]),
            notes: Some("notes".into()),
            unknown: UnknownChunks::default(),
        }),
        animated_texture_sets: Some(Chunk::parent("W2AnimatedTextureSets", &[], &[])),
        unknown,
    }
}
