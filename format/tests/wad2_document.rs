//! The typed Wad2 layer over Tomb Editor's real files (read from `../shared/wad2/`, never copied
//! here) and over files built to hold every legacy chunk and unknown chunks.

use crate::common::wad2_built::document_with_every_kind;
use crate::common::wad2_walk::real_files;
use wadforge_format::wad2::document::*;
use wadforge_format::wad2::{self, leb128, Chunk, Document, LossKind, Wad2Problem};

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

#[test]
fn every_kind_maps_into_the_model_and_says_what_it_lost() {
    let objects = wad2::to_model(&document_with_every_kind()).unwrap();
    let model = &objects.model;
    assert_eq!((model.moveables.len(), model.statics.len()), (1, 2));
    assert_eq!(model.meshes.len(), 4, "two moveable meshes, one a static");
    let moveable = &model.moveables[0];
    // The arm bone's offset, Y negated; its push opcode keeps the root as parent.
    assert_eq!(moveable.links[0].parent, 0);
    assert_eq!(moveable.links[0].offset, [0, -100, 0]);
    // Four animations of 11 frames each, one after another on the moveable's timeline.
    let starts: Vec<_> = moveable
        .animations
        .iter()
        .map(|a| (a.frame_start, a.frame_end))
        .collect();
    assert_eq!(
        starts,
        [(0, 9), (10, 19), (20, 30), (31, 41)],
        "legacy chunks' end frames are one past"
    );
    // (0°, 90°, 359.5°): two axes, so three in 1024ths (as 4096ths); Z negated is 0.5°, which
    // rounds to one 1024th (4), and that rounding is reported.
    let rotation = moveable.animations[2].keyframes[0].rotations[0];
    assert_eq!((rotation.x, rotation.y, rotation.z), (0, 1024, 4));
    assert!(objects
        .losses
        .iter()
        .any(|l| l.kind == LossKind::RotationsRounded));
    let mesh = &model.meshes[0];
    assert_eq!(mesh.vertices[1], [1, 0, 0]);
    assert_eq!(mesh.vertices[2], [0, -1, 0], "Y down in the model");
    assert!(mesh.polygons[0].attributes.additive, "blend mode 2");
    let kinds: Vec<_> = objects.losses.iter().map(|l| l.kind).collect();
    for kind in [
        LossKind::DoubleSided,
        LossKind::VertexWeights,
        LossKind::VertexAttributes,
        LossKind::Skin,
        LossKind::BlendCurves,
        LossKind::Sprites,
        LossKind::UnknownChunks,
        LossKind::StaticLighting,
    ] {
        assert!(
            kinds.contains(&kind),
            "{kind:?} not reported: {:?}",
            objects.losses
        );
    }
}

#[test]
fn a_polygon_naming_a_missing_vertex_is_refused_with_its_place() {
    let mut document = document_with_every_kind();
    document.moveables[0].meshes[1].polygons[1].corners[3] = 99;
    let error = wad2::to_model(&document).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("mesh 1, polygon 1: names vertex 99 of 4"),
        "{error}"
    );
}

#[test]
fn unit_normals_take_tr_length_and_zero_ones_stay_zero() {
    let mut document = document_with_every_kind();
    document.moveables[0].meshes[0].light_type = 0;
    let normals = &mut document.moveables[0].meshes[0].normals;
    normals[0] = [0.0, 1.0, 0.0];
    normals[1] = [0.0; 3];
    let objects = wad2::to_model(&document).unwrap();
    let wadforge_format::Shading::Normals(normals) = &objects.model.meshes[0].shading else {
        panic!("lit by normals");
    };
    assert_eq!(
        normals[0],
        [0, -16300, 0],
        "a unit normal, Y negated, at TR's length"
    );
    assert_eq!(normals[1], [0, 0, 0]);
    assert_eq!(normals[2], [0, -16384, 0], "a classic normal as it is");
}
