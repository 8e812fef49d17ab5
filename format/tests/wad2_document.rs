//! The typed Wad2 layer over Tomb Editor's real files (read from `../shared/wad2/`, never copied
//! here) and over files built to hold every legacy chunk and unknown chunks.

use std::path::PathBuf;

use wadforge_format::wad2::document::*;
use wadforge_format::wad2::{self, leb128, Chunk, Document, Wad2Problem};

fn shared_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/wad2"))
}

fn real_files() -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(shared_dir()) else {
        println!("skipped: {} is absent", shared_dir().display());
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wad2")))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Documents compared through their Debug text, where NaN equals NaN (real files hold NaN
/// normals: TombEngine_Weapons' Mesh_128 and Mesh_150).
fn same(a: &Document, b: &Document) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn real_files_decode_and_encode_byte_for_byte() {
    for (name, bytes) in real_files() {
        let document = wad2::read_document(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = wad2::write_document(&document);
        let first_difference = written.iter().zip(&bytes).position(|(a, b)| a != b);
        assert!(
            written == bytes,
            "{name}: {} bytes written for {}, first difference at {first_difference:?}",
            written.len(),
            bytes.len()
        );
        let again = wad2::read_document(&written).unwrap();
        assert!(same(&again, &document), "{name}: read after write differs");
        let meshes: usize = document.moveables.iter().map(|m| m.meshes.len()).sum();
        let keyframes: usize = document
            .moveables
            .iter()
            .flat_map(|m| &m.animations)
            .map(|a| a.keyframes.len())
            .sum();
        let unknown: Vec<_> = document
            .moveables
            .iter()
            .flat_map(|m| &m.animations)
            .flat_map(|a| a.unknown.ids())
            .collect();
        println!(
            "{name}: game {:?}, {} textures, {} moveables, {meshes} meshes, {keyframes} keyframes, {} statics, unknown in animations {unknown:?}",
            document.game_version,
            document.textures.len(),
            document.moveables.len(),
            document.statics.len()
        );
    }
}

#[test]
fn real_files_keep_what_the_tools_put_there() {
    let files = real_files();
    let Some((_, sandbag)) = files.iter().find(|(name, _)| name == "TR2_Falling_Sandbag.wad2") else {
        return;
    };
    let document = wad2::read_document(sandbag).unwrap();
    assert_eq!(
        document.game_version,
        Some(18),
        "a TR2 object kept for Tomb Engine"
    );
    let animations = &document.moveables[0].animations;
    assert!(animations
        .iter()
        .all(|a| matches!(a.version, AnimationVersion::Blended { .. }) && a.curve.is_some()));
    // W2AniRM, which no public source defines, is kept in each animation.
    assert!(animations
        .iter()
        .all(|a| a.unknown.ids().collect::<Vec<_>>() == ["W2AniRM"]));
    let dispatches: Vec<_> = animations
        .iter()
        .flat_map(|a| &a.state_changes)
        .flat_map(|s| &s.dispatches)
        .collect();
    assert!(!dispatches.is_empty() && dispatches.iter().all(|d| d.blend.is_some()));
}

fn mesh_with_every_kind() -> Mesh {
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
fn document_with_every_kind() -> Document {
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

#[test]
fn every_kind_of_chunk_comes_back_as_it_went() {
    for compressed in [false, true] {
        let document = Document {
            compressed,
            ..document_with_every_kind()
        };
        let bytes = wad2::write_document(&document);
        let read = wad2::read_document(&bytes).unwrap();
        if !same(&read, &document) {
            let (a, b) = (format!("{read:#?}"), format!("{document:#?}"));
            let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            let around: Vec<_> = a
                .lines()
                .skip(line.unwrap_or(0).saturating_sub(20))
                .take(24)
                .collect();
            panic!(
                "compressed {compressed}: differs at line {line:?}:\n{}",
                around.join("\n")
            );
        }
    }
}

#[test]
fn legacy_nested_bones_become_the_flat_list() {
    let bone = |name: &str, children: &[Chunk]| {
        let mut list = vec![
            Chunk::new("W2BoneName", name.as_bytes().to_vec()),
            Chunk::new(
                "W2BoneTrans",
                [0.0f32, 50.0, 0.0].iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
        ];
        list.extend_from_slice(children);
        Chunk::parent("W2Bone", &[], &list)
    };
    let tree = bone("root", &[bone("left", &[]), bone("right", &[])]);
    let moveable = Chunk::parent("W2Moveable", &[5], &[tree]);
    let file = wad2::Wad2File {
        compressed: false,
        chunks: vec![Chunk::parent("W2Moveables", &[], &[moveable])],
    };
    let document = wad2::decode(&file).unwrap();
    let bones: Vec<_> = document.moveables[0]
        .bones
        .iter()
        .map(|b| (b.name.as_str(), b.opcode, b.translation[1]))
        .collect();
    assert_eq!(bones, [("root", 0, 0.0), ("left", 2, 50.0), ("right", 1, 50.0)]);
}

/// Writes `chunks` as a file's only top-level chunks and decodes it.
fn decode_chunks(chunks: Vec<Chunk>) -> Result<Document, wad2::Wad2Error> {
    wad2::read_document(&wad2::write(&wad2::Wad2File {
        compressed: false,
        chunks,
    }))
}

#[test]
fn bad_values_are_named_with_their_offset() {
    let texture = Chunk::parent("W2Txt", &[3, 3], &[Chunk::new("W2TxtData", vec![0; 35])]);
    let error = decode_chunks(vec![Chunk::parent("W2Textures", &[], &[texture])]).unwrap_err();
    assert!(
        matches!(
            error.problem,
            Wad2Problem::BadImage {
                width: 3,
                height: 3,
                bytes: 35,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.offset > 8, "the offset points into the file: {error}");
    assert!(
        error.to_string().contains("3 x 3 pixels holds 35 bytes"),
        "{error}"
    );

    let no_mesh = Chunk::parent("W2Static2", &[1, 0], &[]);
    let error = decode_chunks(vec![Chunk::parent("W2Statics", &[], &[no_mesh])]).unwrap_err();
    assert!(
        matches!(error.problem, Wad2Problem::MissingChunk { child: "W2Mesh", .. }),
        "{error}"
    );

    let short_position = Chunk::parent("W2VrtPos", &[], &[Chunk::new("W2Pos", vec![0; 11])]);
    let mesh = Chunk::parent("W2Mesh", &[], &[short_position]);
    let moveable = Chunk::parent("W2Moveable", &[0], &[mesh]);
    let error = decode_chunks(vec![Chunk::parent("W2Moveables", &[], &[moveable])]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("W2Pos holds 11 bytes where a Vector3's 12 belong"),
        "{error}"
    );

    let mut huge_name = vec![0];
    huge_name.extend_from_slice(&i32::MAX.to_le_bytes());
    let bone = Chunk::parent("W2Bone2", &huge_name, &[]);
    let moveable = Chunk::parent("W2Moveable", &[0], &[bone]);
    let error = decode_chunks(vec![Chunk::parent("W2Moveables", &[], &[moveable])]).unwrap_err();
    assert!(
        matches!(error.problem, Wad2Problem::FieldsCutShort { what: "name", .. }),
        "{error}"
    );
}

#[test]
fn cut_fields_are_an_error_not_a_panic() {
    let mut number = Vec::new();
    leb128::write(1 << 40, &mut number);
    // A W2Ani2 whose header stops after two of its five numbers.
    let animation = Chunk::new("W2Ani2", [&number[..], &number].concat());
    let moveable = Chunk::parent("W2Moveable", &[0], &[animation]);
    let error = decode_chunks(vec![Chunk::parent("W2Moveables", &[], &[moveable])]).unwrap_err();
    assert!(
        matches!(error.problem, Wad2Problem::FieldsCutShort { .. }),
        "{error}"
    );
}

/// Every cut and flip of `bytes`: an error or a document, never a panic; a document read from a
/// damaged file writes a file that reads and writes back to itself.
fn mutate_everywhere(bytes: &[u8]) -> (usize, usize) {
    let (mut errors, mut documents) = (0, 0);
    let mut check = |bytes: &[u8]| match wad2::read_document(bytes) {
        Ok(document) => {
            // Chunks in unusual places or orders settle after one write.
            let written = wad2::write_document(&document);
            let settled = wad2::read_document(&written).unwrap();
            assert!(
                wad2::write_document(&settled) == written,
                "writing is not settled"
            );
            documents += 1;
        }
        Err(_) => errors += 1,
    };
    for length in 0..bytes.len() {
        check(&bytes[..length]);
    }
    for index in 0..bytes.len() {
        for mask in [0xFF, 0x01] {
            let mut flipped = bytes.to_vec();
            flipped[index] ^= mask;
            check(&flipped);
        }
    }
    (errors, documents)
}

#[test]
fn mutations_never_panic() {
    // Every kind of chunk once: one full mesh, not five, keeps the test quick.
    let mut document = document_with_every_kind();
    document.moveables[0].meshes.truncate(1);
    document.moveables[0].skin = Some(Mesh::default());
    for found in &mut document.statics {
        found.mesh = Mesh::default();
    }
    let built = wad2::write_document(&document);
    let (errors, documents) = mutate_everywhere(&built);
    println!("every kind: {errors} refused, {documents} read");
    assert!(errors > 0 && documents > 0);
    for (name, bytes) in real_files().into_iter().filter(|(_, b)| b.len() < 2_000) {
        let (errors, documents) = mutate_everywhere(&bytes);
        println!("{name}: {errors} refused, {documents} read");
    }
}
