//! The Blender round trip, the truth of this project: import → Blender 5.0.1 imports the glTF and
//! exports it again with the README's settings → build → the same content. And edits made in
//! Blender come out in the WAD.
//!
//! Needs the harness (`bash tests/harness/setup.sh`; scripts/test.sh runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use wadforge_fixtures::compare::{differences, polygon_texture, Tolerance};
use wadforge_fixtures::sharing::shared_keyframes;
use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{Shading, Wad};
use wadforge_importer::ImportOptions;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn python() -> PathBuf {
    let p = repo().join("target/harness/venv/bin/python");
    assert!(
        p.exists(),
        "{} is missing: run `bash tests/harness/setup.sh` first",
        p.display()
    );
    p
}

fn import(model: &Wad) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions::wad("fixture.wad", 129);
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_importer::write_directory(&files, dir.path()).unwrap();
    dir
}

fn run(script: &str, args: &[String]) -> serde_json::Value {
    let output = Command::new(python())
        .arg(repo().join("tests/harness").join(script))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .rev()
            .take(25)
            .collect::<Vec<_>>()
            .join("\n")
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Edits `moveables/FILE` of the directory in Blender with `blender_edit.py OPTIONS` and exports it
/// over the original, as an artist saves their work; returns the script's report.
fn edit_in_blender(dir: &Path, file: &str, options: &[&str]) -> serde_json::Value {
    let glb = dir.join("moveables").join(file);
    let edited = glb.with_extension("edited.glb");
    let mut args = vec![
        glb.to_string_lossy().into_owned(),
        edited.to_string_lossy().into_owned(),
    ];
    args.extend(options.iter().map(|o| o.to_string()));
    let report = run("blender_edit.py", &args);
    std::fs::rename(&edited, &glb).unwrap();
    report
}

/// Every glTF of the directory replaced by Blender's own export of it.
fn through_blender(dir: &Path) {
    let mut args = vec!["--batch".to_string()];
    let mut renames = Vec::new();
    for kind in ["moveables", "statics"] {
        for e in std::fs::read_dir(dir.join(kind)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "glb") {
                let out = p.with_extension("blender.glb");
                args.push(p.to_string_lossy().into_owned());
                args.push(out.to_string_lossy().into_owned());
                renames.push((out, p));
            }
        }
    }
    let report = run("blender_roundtrip.py", &args);
    for entry in report.as_array().unwrap() {
        assert!(
            entry["missing_keywords"].as_array().is_none_or(|m| m.is_empty()),
            "{entry}"
        );
    }
    for (from, to) in renames {
        std::fs::rename(from, to).unwrap();
    }
}

fn build(dir: &Path) -> wadforge_exporter::BuildOutput {
    let manifests = wadforge_manifests::load(dir).unwrap();
    wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn blender_round_trip_keeps_every_fixture_object() {
    let mut fixtures = wadforge_fixtures::all();
    // A TR1 moveable mixes meshes lit by normals and by shades.
    fixtures.push(("tr1 level", wadforge_fixtures::levels::tr1_model()));
    fixtures.push(("tr2 level", wadforge_fixtures::levels::tr2_model()));
    fixtures.push(("tr3 level", wadforge_fixtures::levels::tr3_model()));
    fixtures.push(("tr4 level", wadforge_fixtures::levels::tr4_model()));
    for (name, model) in fixtures {
        let dir = import(&model);
        through_blender(dir.path());
        let built = build(dir.path());
        // Positions, texels, normals and shades exact; angles within 1 unit (4096 = 360°).
        let d = differences(&model, &built.wad, Tolerance { normal: 0, angle: 1 });
        assert!(
            d.is_empty(),
            "{name}: {} differences after Blender, first: {:#?}",
            d.len(),
            &d[..d.len().min(10)]
        );
        eprintln!("{name}: same content after Blender; notes: {:?}", built.notes);
        // The written WAD stores the keyframes several animations hold once, as before.
        let shared = |w: &Wad| shared_keyframes(&wadforge_format::wad::write(w, None).unwrap()).unwrap();
        assert_eq!(shared(&built.wad), shared(&model), "{name}: shared keyframe data");
    }
}

#[test]
fn edits_made_in_blender_come_out_in_the_wad() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let action = manifests
        .objects
        .iter()
        .find_map(|o| match &o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 51 => {
                Some(m.animations[1].name.clone())
            }
            _ => None,
        })
        .unwrap();
    // Move the vertices of one bone 1/8 m up (Blender +Z = TR −Y: 64 units), turn another bone
    // 30° in one keyframe, and paint every texel.
    let report = edit_in_blender(
        dir.path(),
        "051_CROCODILE.glb",
        &[
            "--move-bone",
            "mesh_05",
            "0",
            "0",
            "0.125",
            "--rotate-key",
            &action,
            "mesh_03",
            "2",
            "30",
            "--invert-texture",
        ],
    );
    assert!(report["moved_vertices"].as_u64().unwrap() > 0);
    let built = build(dir.path()).wad;

    let before = model.moveables.iter().find(|m| m.id == 51).unwrap();
    let after = built.moveables.iter().find(|m| m.id == 51).unwrap();
    // The moved bone's mesh: every vertex 64 units up (TR −Y), nothing else moved.
    let (m0, m1) = (&model.meshes[before.meshes[5]], &built.meshes[after.meshes[5]]);
    let mut expected: Vec<[i16; 3]> = m0.vertices.iter().map(|v| [v[0], v[1] - 64, v[2]]).collect();
    let mut got = m1.vertices.clone();
    expected.sort();
    got.sort();
    expected.dedup();
    got.dedup();
    assert_eq!(got, expected, "mesh 5 moved by 64 units up");
    let sorted = |v: &[[i16; 3]]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v
    };
    for j in (0..before.meshes.len()).filter(|&j| j != 5) {
        let (x, y) = (&model.meshes[before.meshes[j]], &built.meshes[after.meshes[j]]);
        assert_eq!(sorted(&x.vertices), sorted(&y.vertices), "mesh {j} did not move");
    }

    // The turned keyframe: mesh 3 differs at key 2 of animation 1, the rest within 1 unit.
    let (a0, a1) = (&before.animations[1], &after.animations[1]);
    let close = |x: u16, y: u16| {
        let d = (x as i32 - y as i32).rem_euclid(4096);
        d.min(4096 - d) <= 1
    };
    for (k, (p, q)) in a0.keyframes.iter().zip(&a1.keyframes).enumerate() {
        for (j, (r0, r1)) in p.rotations.iter().zip(&q.rotations).enumerate() {
            let same = close(r0.x, r1.x) && close(r0.y, r1.y) && close(r0.z, r1.z);
            assert_eq!(
                same,
                !(k == 2 && j == 3),
                "keyframe {k} mesh {j}: {r0:?} vs {r1:?}"
            );
        }
    }
    // Its box was recomputed from the new pose.
    let body: Vec<&wadforge_format::Mesh> = after.meshes.iter().map(|&m| &built.meshes[m]).collect();
    assert_eq!(
        a1.keyframes[2].bounding_box,
        posed_bounding_box(&after.links, &a1.keyframes[2], &body)
    );

    // Spheres enclose every vertex; normals keep TR's length within 1%.
    for &m in &after.meshes {
        let mesh = &built.meshes[m];
        let s = mesh.sphere;
        for v in &mesh.vertices {
            let d2: i64 = (0..3).map(|k| (v[k] as i64 - s.center[k] as i64).pow(2)).sum();
            assert!(d2 <= (s.radius as i64).pow(2), "sphere {s:?} misses {v:?}");
        }
        if let Shading::Normals(normals) = &mesh.shading {
            for n in normals {
                let len = (n.iter().map(|&c| (c as f64).powi(2)).sum::<f64>()).sqrt();
                assert!(
                    (len / 16300.0 - 1.0).abs() < 0.01,
                    "normal {n:?} has length {len}"
                );
            }
        }
    }

    // Painted texels: every polygon of the unmoved meshes shows the same texel arrangement with
    // every texel inverted (transparent ones stay transparent).
    let mut checked = 0;
    for j in (0..before.meshes.len()).filter(|&j| j != 5) {
        let (x, y) = (&model.meshes[before.meshes[j]], &built.meshes[after.meshes[j]]);
        for p in &x.polygons {
            let corners: Vec<[i16; 3]> = p.corners().iter().map(|&v| x.vertices[v as usize]).collect();
            let q = y
                .polygons
                .iter()
                .find(|q| {
                    q.corners()
                        .iter()
                        .map(|&v| y.vertices[v as usize])
                        .collect::<Vec<_>>()
                        == corners
                })
                .unwrap_or_else(|| panic!("mesh {j}: polygon {corners:?} is gone"));
            let (t0, t1) = (polygon_texture(&model, p), polygon_texture(&built, q));
            assert_eq!(
                (&t0.corners, t0.size),
                (&t1.corners, t1.size),
                "mesh {j}: the texture arrangement is kept"
            );
            for (a, b) in t0.texels.iter().zip(&t1.texels) {
                let expected = if *a == [255, 0, 255] {
                    *a
                } else {
                    a.map(|c| 255 - c)
                };
                assert_eq!(*b, expected, "mesh {j}: texel painted");
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn meshes_parented_to_bones_build_like_the_skinned_mesh() {
    // Artists often rig rigid models with one object per bone instead of a skinned mesh.
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    let report = edit_in_blender(dir.path(), "051_CROCODILE.glb", &["--split-by-bone"]);
    assert!(report["split_objects"].as_u64().unwrap() >= 21, "{report}");
    let built = build(dir.path());
    let mut expected = model.clone();
    expected.moveables.retain(|m| m.id == 51);
    let mut got = built.wad.clone();
    got.moveables.retain(|m| m.id == 51);
    got.statics.clear();
    expected.statics.clear();
    let d = differences(&expected, &got, Tolerance { normal: 0, angle: 1 });
    assert!(
        d.is_empty(),
        "{} differences, first: {:#?}",
        d.len(),
        &d[..d.len().min(10)]
    );
}

#[test]
fn an_export_that_keeps_the_armature_node_builds_the_same() {
    // Blender's exporter keeps the armature object as a node by default.
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    edit_in_blender(dir.path(), "051_CROCODILE.glb", &["--keep-armature-object"]);
    let built = build(dir.path());
    let d = differences(&model, &built.wad, Tolerance { normal: 0, angle: 1 });
    assert!(
        d.is_empty(),
        "{} differences, first: {:#?}",
        d.len(),
        &d[..d.len().min(10)]
    );
}

#[test]
fn editing_a_dressed_skeletons_meshes_is_reported_not_lost_silently() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    assert!(
        !build(dir.path()).notes.iter().any(|n| n.contains("dresses it")),
        "no note for an unedited LARA"
    );
    edit_in_blender(
        dir.path(),
        "000_LARA.glb",
        &["--move-bone", "HEAD", "0", "0", "0.1"],
    );
    let built = build(dir.path());
    let note = built
        .notes
        .iter()
        .find(|n| n.contains("dresses it"))
        .unwrap_or_else(|| panic!("{:?}", built.notes));
    assert!(
        note.contains("LARA (moveable 0)") && note.contains("moveable 8") && note.contains("bone HEAD"),
        "{note}"
    );
    // The WAD keeps LARA_SKIN's meshes: the edit did not leak into them.
    let d = differences(&model, &built.wad, Tolerance { normal: 0, angle: 1 });
    assert!(d.is_empty(), "{d:#?}");
}
