//! Objects made from scratch (no import behind them): a hand-written glTF with no normals and
//! no colours builds into a textured static with computed shades; a manifest asking for new
//! normals gets area-weighted outward normals of TR length.

use std::path::Path;

use wadforge_format::{Shading, Wad};

/// A cube of side 1 m centred above the origin, one quad per face (two triangles each, ordered
/// as import orders them), UVs on the corners of a 16×16 checker texture, no normals, no colours.
fn write_cube_gltf(path: &Path) {
    let p = [
        [-0.5, 0.0, -0.5],
        [0.5, 0.0, -0.5],
        [0.5, 0.0, 0.5],
        [-0.5, 0.0, 0.5],
        [-0.5, 1.0, -0.5],
        [0.5, 1.0, -0.5],
        [0.5, 1.0, 0.5],
        [-0.5, 1.0, 0.5],
    ];
    // Faces counter-clockwise seen from outside (glTF front faces).
    let faces: [[usize; 4]; 6] = [
        [0, 1, 2, 3],
        [7, 6, 5, 4],
        [4, 5, 1, 0],
        [5, 6, 2, 1],
        [6, 7, 3, 2],
        [7, 4, 0, 3],
    ];
    let uv = [[0.0f32, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let (mut positions, mut uvs, mut indices) = (Vec::<f32>::new(), Vec::<f32>::new(), Vec::<u16>::new());
    for f in faces {
        let base = (positions.len() / 3) as u16;
        for (k, &v) in f.iter().enumerate() {
            positions.extend(p[v].map(|c: f64| c as f32));
            uvs.extend(uv[k]);
        }
        // TR order (c0 c1 c2)(c0 c2 c3) is glTF (c0 c2 c1)(c0 c3 c2) for the quad c0..c3 seen
        // clockwise; here the face is counter-clockwise, so its TR quad is c0 c3 c2 c1.
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    let mut bin: Vec<u8> = Vec::new();
    positions.iter().for_each(|f| bin.extend(f.to_le_bytes()));
    let uv_offset = bin.len();
    uvs.iter().for_each(|f| bin.extend(f.to_le_bytes()));
    let index_offset = bin.len();
    indices.iter().for_each(|i| bin.extend(i.to_le_bytes()));
    let mut png = Vec::new();
    let checker: Vec<u8> = (0..16 * 16)
        .flat_map(|i| {
            if (i / 16 + i % 16) % 2 == 0 {
                [200, 40, 40, 255]
            } else {
                [40, 40, 200, 255]
            }
        })
        .collect();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &checker,
        16,
        16,
        image::ExtendedColorType::Rgba8,
    )
    .unwrap();
    let dir = path.parent().unwrap();
    std::fs::write(dir.join("cube.bin"), &bin).unwrap();
    std::fs::write(dir.join("checker.png"), &png).unwrap();
    let json = serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "name": "crate", "mesh": 0 }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0, "TEXCOORD_0": 1 }, "indices": 2, "material": 0 }] }],
        "materials": [{ "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } }],
        "textures": [{ "source": 0 }],
        "images": [{ "uri": "checker.png" }],
        "buffers": [{ "uri": "cube.bin", "byteLength": bin.len() }],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": uv_offset },
            { "buffer": 0, "byteOffset": uv_offset, "byteLength": index_offset - uv_offset },
            { "buffer": 0, "byteOffset": index_offset, "byteLength": bin.len() - index_offset }
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": 24, "type": "VEC3", "min": [-0.5, 0.0, -0.5], "max": [0.5, 1.0, 0.5] },
            { "bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC2" },
            { "bufferView": 2, "componentType": 5123, "count": 36, "type": "SCALAR" }
        ]
    });
    std::fs::write(path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
}

/// A manifest directory holding the cube as static 10.
fn cube_directory() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("statics")).unwrap();
    write_cube_gltf(&dir.path().join("statics/crate.gltf"));
    std::fs::write(
        dir.path().join("wadforge.yaml"),
        "wadforge: 1\nsource: { file: none, format: wad, version: 129 }\ngame: TR4\n\
         units: { tr_units_per_metre: 512, axes: rotate-180-about-z }\nobjects: [statics/crate.yaml]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("statics/crate.yaml"),
        "static:\n  id: 10\n  slot: FURNITURE0\n  gltf: crate.gltf\n\
         \x20 mesh: { sphere: { center: [0, -256, 0], radius: 0 }, lighting: shades }\n\
         \x20 visibility_box: { min: [-256, -512, -256], max: [256, 0, 256] }\n\
         \x20 collision_box: { min: [-256, -512, -256], max: [256, 0, 256] }\n  flags: 2\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_hand_made_static_builds_with_computed_shades_and_quads() {
    let dir = cube_directory();
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let built =
        wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
    let wad: &Wad = &built.wad;
    let mesh = &wad.meshes[wad.statics[0].mesh];
    assert_eq!(mesh.vertices.len(), 8, "welded back to the cube's corners");
    assert_eq!(mesh.polygons.len(), 6, "two triangles per face became one quad");
    assert!(mesh.polygons.iter().all(|p| p.is_quad));
    // 1 m = 512 units; glTF +Y up is TR −Y.
    assert!(mesh
        .vertices
        .iter()
        .all(|v| v[0].abs() == 256 && v[2].abs() == 256 && (v[1] == 0 || v[1] == -512)));
    let Shading::Shades(shades) = &mesh.shading else {
        panic!("a static keeps shades")
    };
    let top: Vec<i16> = mesh
        .vertices
        .iter()
        .zip(shades)
        .filter(|(v, _)| v[1] == -512)
        .map(|(_, s)| *s)
        .collect();
    let bottom: Vec<i16> = mesh
        .vertices
        .iter()
        .zip(shades)
        .filter(|(v, _)| v[1] == 0)
        .map(|(_, s)| *s)
        .collect();
    let mean = |v: &[i16]| v.iter().map(|&s| s as f64).sum::<f64>() / v.len() as f64;
    assert!(
        mean(&top) < mean(&bottom),
        "lit from above: top {top:?} lighter than bottom {bottom:?}"
    );
    // The texture: one sample holding the checker, texel for texel.
    let sample = wad.samples[mesh.polygons[0].texture.sample as usize];
    let page = &wad.pages[sample.page as usize];
    let texel = page.texel(sample.x as usize, sample.y as usize);
    assert!(texel == [200, 40, 40] || texel == [40, 40, 200], "{texel:?}");
    assert_eq!(wad.statics[0].mesh, 0);
    assert_eq!(mesh.sphere.radius, 0, "a radius of 0 (collision off) is kept");
    // Its faces' outward normals point away from the cube's centre (TR (0, −256, 0)).
    for (v, n) in mesh.vertices.iter().zip(mesh.area_weighted_normals()) {
        let d = (v[0] as f64) * n[0] + (v[1] as f64 + 256.0) * n[1] + (v[2] as f64) * n[2];
        assert!(
            d > 0.0,
            "vertex {v:?}: normal {n:?} points inward: the winding was reversed"
        );
    }
}

#[test]
fn recompute_normals_gives_outward_normals_of_tr_length() {
    let model = wadforge_fixtures::standard();
    let dir = tempfile::tempdir().unwrap();
    let mut options = wadforge_importer::ImportOptions::wad("f.wad", 129);
    options.only = Some(vec!["CROCODILE".into()]);
    let files = wadforge_importer::import(&model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    let yaml = dir.path().join("moveables/051_CROCODILE.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap().replace(
        "    lighting: normals\n",
        "    lighting: normals\n    recompute_normals: true\n",
    );
    std::fs::write(&yaml, text).unwrap();
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let built = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap();
    let croc = built.wad.moveables.iter().find(|m| m.id == 51).unwrap();
    // Same sign as the fixture's own outward normals (a mesh of several parts is not convex,
    // so compare with them rather than with the direction from a centre).
    let original = model.moveables.iter().find(|m| m.id == 51).unwrap();
    for (&m, &o) in croc.meshes.iter().zip(&original.meshes) {
        let (mesh, before) = (&built.wad.meshes[m], &model.meshes[o]);
        let (Shading::Normals(normals), Shading::Normals(old)) = (&mesh.shading, &before.shading) else {
            panic!("moveables keep normals")
        };
        let mut agreeing = 0;
        for (v, normal) in mesh.vertices.iter().zip(normals) {
            let len = normal.iter().map(|&c| (c as f64).powi(2)).sum::<f64>().sqrt();
            assert!((len / 16300.0 - 1.0).abs() < 0.01, "length {len}");
            let i = before
                .vertices
                .iter()
                .position(|x| x == v)
                .expect("geometry unchanged");
            let d: f64 = (0..3).map(|k| old[i][k] as f64 * normal[k] as f64).sum();
            agreeing += (d > 0.0) as usize;
        }
        assert!(
            agreeing * 10 >= mesh.vertices.len() * 9,
            "outward like the fixture's: {agreeing} of {}",
            mesh.vertices.len()
        );
    }
}

#[test]
fn a_bad_uv_is_named_with_its_object_mesh_and_polygon() {
    let dir = cube_directory();
    // The first UV of the third face (vertex 8) becomes NaN: positions take 24 × 12 bytes.
    let bin = dir.path().join("statics/cube.bin");
    let mut bytes = std::fs::read(&bin).unwrap();
    let at = 24 * 12 + 8 * 8;
    bytes[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&bin, bytes).unwrap();
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let e = match wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a NaN UV must be refused"),
    };
    assert!(
        e.contains("crate.gltf") && e.contains("FURNITURE0 (static 10)") && e.contains("mesh, polygon 2"),
        "{e}"
    );
    assert!(e.contains("UV"), "{e}");
}
