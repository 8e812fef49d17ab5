//! The Blender round trip, the truth of this project: import → Blender 5.0.1 imports the glTF and
//! exports it again with the README's settings ("The manual glTF path") → build → the same content. And edits made in
//! Blender come out in the WAD.
//!
//! Needs the harness (`bash tests/harness/setup.sh`; scripts/test.sh runs it).

use crate::blender_harness::*;
use wadforge_fixtures::assert_other_tools_read_as_the_game;
use wadforge_fixtures::compare::{differences, polygon_texture, Tolerance};
use wadforge_format::catalog::Game;
use wadforge_format::pose::posed_bounding_box;
use wadforge_format::{Shading, Wad};

#[test]
fn blender_round_trip_keeps_every_fixture_object() {
    if !harness_ready() {
        return;
    }
    let mut fixtures: Vec<(&str, Wad, Game)> = wadforge_fixtures::all()
        .into_iter()
        .map(|(name, model)| (name, model, Game::Tr4))
        .collect();
    // A TR1 moveable mixes meshes lit by normals and by shades; TR3's LARA is dressed in
    // LARA_TRUE_APPEARANCE, her placeholder kept in a glTF of its own.
    fixtures.push(("tr1 level", wadforge_fixtures::levels::tr1_model(), Game::Tr1));
    fixtures.push(("tr2 level", wadforge_fixtures::levels::tr2_model(), Game::Tr2));
    fixtures.push(("tr3 level", wadforge_fixtures::levels::tr3_model(), Game::Tr3));
    fixtures.push(("tr4 level", wadforge_fixtures::levels::tr4_model(), Game::Tr4));
    // What real files hold beyond the standard content: keyframe words shared as Core's tools
    // stored them, frame ranges that end before they start, keyframe words that do not decode.
    for quirk in wadforge_fixtures::quirks() {
        let classes = [
            "keyframes_shared_as_core_tools_wrote_them",
            "placeholder_animations_ending_before_they_start",
            "undecodable_keyframes",
        ];
        if classes.contains(&quirk.name) {
            let (model, _) = wadforge_format::wad::read(&quirk.bytes).unwrap();
            fixtures.push((quirk.name, model, Game::Tr4));
        }
    }
    for (name, model, game) in fixtures {
        let dir = import_game(&model, game);
        through_blender(dir.path());
        let built = build(dir.path());
        // Every vertex, polygon, texel, normal and shade exact; angles within 1 unit (4096 = 360°).
        assert_identical(name, &model, &built.wad);
        eprintln!("{name}: same content after Blender; notes: {:?}", built.notes);
        // Every animation on keyframe words of its own: other tools read what the game plays.
        let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
        assert_other_tools_read_as_the_game(name, &bytes);
    }
}

#[test]
fn polygons_whose_corners_coincide_and_a_shared_pickup_mesh_survive_blender() {
    if !harness_ready() {
        return;
    }
    // Blender keeps no normal of its own on a face of zero area, nor on the corners such a face
    // shares; the stored mesh must still come back, duplicate vertex and all.
    let model = wadforge_fixtures::odd_meshes();
    let dir = import(&model);
    through_blender(dir.path());
    let built = build(dir.path()).wad;
    assert_identical("odd_meshes through Blender", &model, &built);
    let bytes = wadforge_format::wad::write(&built, None).unwrap();
    assert_other_tools_read_as_the_game("odd_meshes through Blender", &bytes);
}

#[test]
fn edits_made_in_blender_come_out_in_the_wad() {
    if !harness_ready() {
        return;
    }
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
    if !harness_ready() {
        return;
    }
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
    if !harness_ready() {
        return;
    }
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
fn an_edit_of_the_dressed_body_is_carried_into_the_dressing_object() {
    if !harness_ready() {
        return;
    }
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    assert!(
        !build(dir.path())
            .notes
            .iter()
            .any(|n| n.contains("is carried into its own")),
        "no carry for an unedited LARA"
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
        .find(|n| n.contains("is carried into its own"))
        .unwrap_or_else(|| panic!("{:?}", built.notes));
    assert!(
        note.contains("(moveable 8)") && note.contains("LARA (moveable 0)") && note.contains("bone HEAD"),
        "{note}"
    );
    // The WAD differs in the head alone: LARA_SKIN's head mesh (which LARA may share).
    let lara = wadforge_manifests::load(dir.path()).unwrap();
    let head = lara
        .objects
        .iter()
        .find_map(|o| match &o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 0 => {
                m.bones.iter().position(|b| b.name == "HEAD")
            }
            _ => None,
        })
        .unwrap();
    let d = differences(&model, &built.wad, Tolerance { normal: 0, angle: 1 });
    assert!(
        d.iter()
            .any(|l| l.starts_with(&format!("moveable 8 mesh {head}"))),
        "{d:#?}"
    );
    assert!(
        d.iter().all(|l| l.starts_with(&format!("moveable 8 mesh {head}"))
            || l.starts_with(&format!("moveable 0 mesh {head}"))),
        "{d:#?}"
    );
}

/// The real Tomb Raider 1 level beside the project (`../shared/real/`), never in it.
fn real_level() -> Option<wadforge_format::level::Level> {
    let path = repo().join("../shared/real/LEVEL2_DEMO.PHD");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return None;
    };
    Some(wadforge_format::level::read(&bytes).expect("the real level reads"))
}

#[test]
fn the_real_level_and_the_wad_built_from_it_survive_blender() {
    if !harness_ready() {
        return;
    }
    let Some(level) = real_level() else { return };
    let dir = import_game(&level.wad, level.game);
    through_blender(dir.path());
    let built = build(dir.path()).wad;
    assert_identical("LEVEL2_DEMO.PHD through Blender", &level.wad, &built);
    let bytes = wadforge_format::wad::write(&built, None).unwrap();
    assert_other_tools_read_as_the_game("LEVEL2_DEMO.PHD through Blender", &bytes);
    // Again from the real-content WAD that build wrote.
    let wad = wadforge_format::wad::read(&bytes).unwrap().0;
    let dir = import_game(&wad, level.game);
    through_blender(dir.path());
    let again = build(dir.path()).wad;
    assert_identical("the real-content WAD through Blender", &wad, &again);
    let again = wadforge_format::wad::write(&again, None).unwrap();
    assert_other_tools_read_as_the_game("the real-content WAD through Blender", &again);
}

#[test]
fn an_edit_of_the_real_lara_changes_only_what_was_edited() {
    if !harness_ready() {
        return;
    }
    let Some(level) = real_level() else { return };
    let base = level.wad;
    let dir = import_game(&base, level.game);
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    let action = manifests
        .objects
        .iter()
        .find_map(|o| match &o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 0 => {
                Some(m.animations[1].name.clone())
            }
            _ => None,
        })
        .unwrap();
    // Move the head 1/8 m up (64 units) and turn the right thigh 30° in keyframe 2 of animation 1.
    edit_in_blender(
        dir.path(),
        "000_LARA.glb",
        &[
            "--move-bone",
            "HEAD",
            "0",
            "0",
            "0.125",
            "--rotate-key",
            &action,
            "RIGHT_THIGH",
            "2",
            "30",
        ],
    );
    // Only LARA goes into the patch: the directory's other objects are unedited.
    let mut keep = wadforge_manifests::load(dir.path()).unwrap();
    keep.objects
        .retain(|o| matches!(&o.manifest, wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 0));
    let built = wadforge_exporter::build(&keep, Some(&base), &mut |_, _, _| {})
        .unwrap_or_else(|e| panic!("{e}"))
        .wad;
    let report = strict_differences(&base, &built);
    let names = wadforge_format::catalog::mesh_names(level.game, 0).unwrap();
    let (head, thigh) = (
        names.iter().position(|n| *n == "HEAD").unwrap(),
        names.iter().position(|n| *n == "RIGHT_THIGH").unwrap(),
    );
    for object in &report.objects {
        if object.id != 0 || !matches!(object.kind, wadforge_diff::ObjectKind::Moveable) {
            assert!(
                object.is_identical(),
                "{:?} {} changed: {:?}",
                object.kind,
                object.id,
                object.differences
            );
            continue;
        }
        assert!(!object.is_identical(), "LARA was edited");
        let head_mesh = format!("mesh {head}, ");
        let turned = format!("animation 1, keyframe 2, mesh {thigh}");
        for d in &object.differences {
            let place = &d.place;
            // The moved mesh; the turned bone at that keyframe; keyframe boxes, which enclose
            // the posed body and so follow the moved head (recomputed from the posed meshes).
            let expected = place.starts_with(&head_mesh)
                || place == &format!("mesh {head}")
                || place == &turned
                || matches!(d.what, wadforge_diff::Field::KeyframeBox);
            assert!(expected, "LARA differs where nothing was edited: {d:?}");
        }
        assert!(
            object.differences.iter().any(|d| d.place == turned),
            "the turned bone"
        );
        assert!(
            object.differences.iter().any(|d| d.place.starts_with(&head_mesh)),
            "the moved head"
        );
    }
    assert_eq!(
        built.pages.len(),
        base.pages.len(),
        "no new page for the same texels"
    );
    assert_eq!(
        built.samples.len(),
        base.samples.len(),
        "no new sample for the same texels"
    );
}

#[test]
fn an_edited_mesh_computes_moved_zero_normals_and_keeps_a_pair_split_the_other_way() {
    if !harness_ready() {
        return;
    }
    // The door holds zero normals (its handle), a vertex no polygon uses, and two non-planar
    // triangle pairs, one split along each diagonal.
    let model = wadforge_fixtures::standard();
    let door = model.moveables.iter().find(|m| m.id == 322).unwrap();
    let before = &model.meshes[door.meshes[0]];
    let Shading::Normals(normals_before) = &before.shading else {
        panic!("the door has normals")
    };
    let zero: Vec<[i16; 3]> = (0..before.vertices.len())
        .filter(|&i| normals_before[i] == [0, 0, 0])
        .map(|i| before.vertices[i])
        .collect();
    assert!(!zero.is_empty(), "the fixture door has zero normals");
    let other_diagonal: Vec<&wadforge_format::Polygon> = before
        .polygons
        .iter()
        .filter(|p| {
            // The panel's pair split along v1–v3: shapes 0 and 4 (the other pair has 2 and 6).
            let on_panel = p
                .corners()
                .iter()
                .all(|&v| [-1400, -1000].contains(&before.vertices[v as usize][1]));
            !p.is_quad && on_panel && [0, 4].contains(&p.texture.shape)
        })
        .collect();
    assert!(!other_diagonal.is_empty());

    let dir = import(&model);
    edit_in_blender(
        dir.path(),
        "322_DOOR_TYPE1.glb",
        &["--move-bone", "mesh_00", "0", "0", "0.125"],
    );
    let built = build(dir.path()).wad;
    let after = &built.meshes[built.moveables.iter().find(|m| m.id == 322).unwrap().meshes[0]];
    let Shading::Normals(normals_after) = &after.shading else {
        panic!("the door has normals")
    };
    // Every vertex moved 64 units up (TR −Y); the unused one is kept where it was.
    let moved = |v: [i16; 3]| [v[0], v[1] - 64, v[2]];
    let mut checked = 0;
    for (i, v) in after.vertices.iter().enumerate() {
        let was_zero = zero.iter().any(|&z| moved(z) == *v);
        if was_zero {
            checked += 1;
            let len = normals_after[i]
                .iter()
                .map(|&c| (c as f64).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!(
                (len / 16300.0 - 1.0).abs() < 0.01,
                "moved vertex {v:?} got normal {:?}",
                normals_after[i]
            );
        }
    }
    assert!(
        checked >= zero.len(),
        "every moved zero-normal vertex was checked ({checked} of {})",
        zero.len()
    );
    assert!(
        after.vertices.contains(&[512, -768, 0]),
        "the unused vertex is kept"
    );
    // The pair split along v1–v3 is still two triangles over the moved corners: as one quad it
    // would be drawn along the other diagonal and change shape.
    for p in other_diagonal {
        let corners: Vec<[i16; 3]> = p
            .corners()
            .iter()
            .map(|&v| moved(before.vertices[v as usize]))
            .collect();
        let kept = after.polygons.iter().any(|q| {
            !q.is_quad && {
                let mut a: Vec<[i16; 3]> = q.corners().iter().map(|&v| after.vertices[v as usize]).collect();
                let mut b = corners.clone();
                a.sort();
                b.sort();
                a == b
            }
        });
        assert!(kept, "triangle {corners:?} is kept as a triangle");
    }
}

/// The polygons of `mesh` (triangles, and quads as the game splits them) that have no area.
fn zero_area_triangles(mesh: &wadforge_format::Mesh) -> Vec<[u16; 3]> {
    (mesh.polygons.iter().flat_map(|p| p.triangles()))
        .filter(|t| wadforge_format::has_no_area(t.map(|v| mesh.vertices[v as usize])))
        .collect()
}

#[test]
fn polygons_of_no_area_come_back_exact_through_blender() {
    if !harness_ready() {
        return;
    }
    // The gem holds a triangle collapsed onto an edge, a quad folded flat and a sliver along a
    // vertical edge, over vertices its other faces use with normals not straight up: Blender
    // cannot hold custom normals at those corners and exports its own there.
    let mut model = wadforge_fixtures::standard();
    model.moveables.retain(|m| m.id == 175);
    let gem = &model.meshes[model.moveables[0].meshes[0]];
    let Shading::Normals(normals) = &gem.shading else {
        panic!("the gem has normals")
    };
    let flat = zero_area_triangles(gem);
    let shared_sideways = flat.iter().flatten().filter(|&&v| {
        let n = normals[v as usize];
        let used_elsewhere = gem.polygons.iter().filter(|p| p.corners().contains(&v)).count() > 1;
        used_elsewhere && n != [0, 0, 0] && (n[0], n[2]) != (0, 0)
    });
    assert!(
        flat.len() >= 3 && shared_sideways.count() >= 2,
        "the fixture gem has polygons of no area over vertices with sideways normals: {flat:?}"
    );

    let dir = import(&model);
    through_blender(dir.path());
    assert_identical("PUZZLE_ITEM1 through Blender", &model, &build(dir.path()).wad);
}

/// Each polygon of `mesh` as its corners' positions (`moved`) and normals, from its least
/// corner on (where a polygon's list starts is the texture's business), sorted.
fn polygon_shapes(mesh: &wadforge_format::Mesh, moved: impl Fn([i16; 3]) -> [i16; 3]) -> Vec<Vec<[i16; 6]>> {
    let Shading::Normals(normals) = &mesh.shading else {
        panic!("a mesh lit by normals")
    };
    let mut shapes: Vec<Vec<[i16; 6]>> = mesh
        .polygons
        .iter()
        .map(|p| {
            let mut corners: Vec<[i16; 6]> = p
                .corners()
                .iter()
                .map(|&v| {
                    let [x, y, z] = moved(mesh.vertices[v as usize]);
                    let [a, b, c] = normals[v as usize];
                    [x, y, z, a, b, c]
                })
                .collect();
            let lead = (0..corners.len()).min_by_key(|&k| corners[k]).unwrap();
            corners.rotate_left(lead);
            corners
        })
        .collect();
    shapes.sort();
    shapes
}

#[test]
fn an_edited_mesh_keeps_the_normals_at_polygons_of_no_area() {
    if !harness_ready() {
        return;
    }
    // Blender exports normals of its own at the corners of the gem's polygons of no area (see
    // above); moving the gem must not give those corners, or the faces beside them, other
    // normals, split their vertices, or break their quads into triangles.
    let mut model = wadforge_fixtures::standard();
    model.moveables.retain(|m| m.id == 175);
    let gem = |w: &Wad| w.meshes[w.moveables.iter().find(|m| m.id == 175).unwrap().meshes[0]].clone();
    let before = gem(&model);
    assert!(!zero_area_triangles(&before).is_empty());

    let dir = import(&model);
    edit_in_blender(
        dir.path(),
        "175_PUZZLE_ITEM1.glb",
        &["--move-bone", "mesh_00", "0", "0", "0.125"],
    );
    let after = gem(&build(dir.path()).wad);
    // Every vertex moved 64 units up (TR −Y); a translation turns no normal.
    let up = |v: [i16; 3]| [v[0], v[1] - 64, v[2]];
    assert_eq!(after.vertices.len(), before.vertices.len(), "vertex count");
    let quads = |m: &wadforge_format::Mesh| m.polygons.iter().filter(|p| p.is_quad).count();
    assert_eq!(quads(&after), quads(&before), "quads");
    assert_eq!(polygon_shapes(&after, |v| v), polygon_shapes(&before, up));
}

#[test]
fn an_edited_static_welds_its_vertices_again() {
    if !harness_ready() {
        return;
    }
    // Blender gives the corners of one vertex normals a unit or two apart (TR's 16300 a unit
    // length); a static is lit by shades, so those normals must not keep its vertices apart.
    // The plant also holds a leaf drawn from both sides (a quad and its twin).
    let mut model = wadforge_fixtures::standard();
    model.moveables.retain(|m| m.id == 175);
    model.statics.retain(|s| [0, 20].contains(&s.id));
    let dir = import(&model);
    for file in ["000_PLANT0.glb", "020_ROCK0.glb"] {
        edit_file_in_blender(dir.path(), "statics", file, &["--move-all", "0", "0", "0.125"]);
    }
    let built = build(dir.path()).wad;
    for id in [0, 20] {
        let mesh = |w: &Wad| w.meshes[w.statics.iter().find(|s| s.id == id).unwrap().mesh].clone();
        let (before, after) = (mesh(&model), mesh(&built));
        let Shading::Shades(shades) = &before.shading else {
            panic!("static {id} is lit by shades")
        };
        // Every vertex moved 64 units up (TR −Y), with its shade.
        let moved: Vec<([i16; 3], i16)> = {
            let mut v: Vec<_> = before
                .vertices
                .iter()
                .map(|v| [v[0], v[1] - 64, v[2]])
                .zip(shades.iter().copied())
                .collect();
            v.sort();
            v
        };
        let Shading::Shades(shades_after) = &after.shading else {
            panic!("static {id} is lit by shades")
        };
        let mut got: Vec<_> = after
            .vertices
            .iter()
            .copied()
            .zip(shades_after.iter().copied())
            .collect();
        got.sort();
        assert_eq!(got, moved, "static {id}: vertices and shades");
        let quads = |m: &wadforge_format::Mesh| m.polygons.iter().filter(|p| p.is_quad).count();
        assert_eq!(
            after.polygons.len(),
            before.polygons.len(),
            "static {id}: polygons"
        );
        assert_eq!(quads(&after), quads(&before), "static {id}: quads");
    }
}

#[test]
fn a_tr3_body_edited_in_blender_builds_into_315_alone() {
    if !harness_ready() {
        return;
    }
    let model = wadforge_fixtures::levels::tr3_model();
    let dir = import_game(&model, Game::Tr3);
    assert!(dir.path().join("moveables/000_LARA_placeholders.glb").exists());
    // Move the torso of LARA_TRUE_APPEARANCE 1/8 m up (Blender +Z = TR −Y: 64 units).
    let report = edit_in_blender(
        dir.path(),
        "315_LARA_TRUE_APPEARANCE.glb",
        &["--move-bone", "TORSO", "0", "0", "0.125"],
    );
    assert!(report["moved_vertices"].as_u64().unwrap() > 0);
    let built = build(dir.path());
    let body = |w: &Wad| w.moveables.iter().find(|m| m.id == 315).unwrap().meshes.clone();
    let (torso, built_torso) = (body(&model)[7], body(&built.wad)[7]);
    let sorted = |v: &[[i16; 3]]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v
    };
    let moved: Vec<[i16; 3]> = model.meshes[torso]
        .vertices
        .iter()
        .map(|v| [v[0], v[1] - 64, v[2]])
        .collect();
    assert_eq!(
        sorted(&built.wad.meshes[built_torso].vertices),
        sorted(&moved),
        "the torso moved 64 units up"
    );
    // Nothing else changed: not LARA's placeholder, not her keyframes and boxes, not the rest of
    // the body, not the other objects.
    let d = differences(&model, &built.wad, Tolerance { normal: 0, angle: 1 });
    assert!(!d.is_empty());
    assert!(d.iter().all(|x| x.starts_with("moveable 315 mesh 7:")), "{d:#?}");
}

#[test]
fn every_real_wad2_survives_blender() {
    if !harness_ready() {
        return;
    }
    for path in wadforge_fixtures::harness::real_wad2_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let opened = wadforge_format::open(&std::fs::read(&path).unwrap()).unwrap();
        // Skewed polygons (TombEngine_Weapons has 86) come back resampled: not compared by texel.
        let resampled: Vec<(usize, usize)> = opened.skewed.iter().map(|(at, _)| at).collect();
        let dir = tempfile::tempdir().unwrap();
        let mut options = wadforge_importer::ImportOptions::wad(&name, 129);
        options.game = opened.game;
        options.skewed = opened.skewed.clone();
        let document = opened.wad2.as_ref().unwrap();
        options.wad2_detail = Some(wadforge_format::wad2::detail_file(document));
        let files = wadforge_importer::import(&opened.model, &options, &mut |_, _, _| {}).unwrap();
        wadforge_files::write_directory(&files, dir.path()).unwrap();
        through_blender(dir.path());
        let built = build(dir.path()).wad;
        // As a Wad2 with the directory's detail: the file as it was, but for its textures.
        let mut made = wadforge_format::wad2::from_model(&built, &Default::default(), opened.game)
            .unwrap()
            .document;
        let detail = std::fs::read(dir.path().join(wadforge_manifests::WAD2_DETAIL_FILE)).unwrap();
        let detail = wadforge_format::wad2::read_document(&detail).unwrap();
        let kept = wadforge_format::wad2::keep_detail(&mut made, &detail);
        assert_eq!((kept.edited_meshes, kept.edited_animations), (0, 0), "{name}");
        wadforge_fixtures::wad2_compare::same_but_textures(&made, document)
            .unwrap_or_else(|d| panic!("{name} through Blender as a Wad2: {d}"));
        // Angles within one 4096th of a turn (0.09°): Blender's float noise.
        let tolerance = Tolerance { normal: 1, angle: 1 };
        let d = wadforge_fixtures::compare::differences_except_resampled(
            &opened.model,
            &built,
            tolerance,
            &resampled,
        );
        assert!(
            d.is_empty(),
            "{name} through Blender: {:#?}",
            &d[..d.len().min(10)]
        );
        let bytes = wadforge_format::wad::write(&built, None).unwrap();
        assert_other_tools_read_as_the_game(&name, &bytes);
    }
}
