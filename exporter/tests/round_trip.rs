//! Lossless round trip: every fixture, imported then built, has the same content, compared as
//! `wadforge diff` compares (every vertex, polygon, texel, normal, shade and angle exact).

use wadforge_fixtures::assert_other_tools_read_as_the_game;
use wadforge_fixtures::sharing::shared_keyframes;
use wadforge_format::Wad;
use wadforge_importer::{GltfFormat, ImportOptions};

fn import(model: &Wad, format: GltfFormat) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::wad("fixture.wad", 129);
    options.format = format;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    dir
}

/// Every difference `wadforge diff` finds, one line each.
fn differences(expected: &Wad, actual: &Wad) -> Vec<String> {
    let report = wadforge_diff::diff(expected, actual, &wadforge_diff::Options::default());
    report
        .objects
        .iter()
        .flat_map(|o| {
            o.differences.iter().map(move |d| {
                format!(
                    "{:?} {}: {}: {:?} {} vs {}",
                    o.kind, o.id, d.place, d.what, d.a, d.b
                )
            })
        })
        .collect()
}

/// Panics with the first of `differences` (of `what`), if any.
fn assert_none(what: &str, differences: &[String]) {
    assert!(
        differences.is_empty(),
        "{what}: {} differences, first: {:#?}",
        differences.len(),
        &differences[..differences.len().min(12)]
    );
}

fn rebuild(model: &Wad, format: GltfFormat) -> wadforge_exporter::BuildOutput {
    let dir = import(model, format);
    let manifests = wadforge_manifests::load(dir.path()).unwrap();
    wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_fixture_survives_import_then_build() {
    for (name, model) in wadforge_fixtures::all() {
        let built = rebuild(&model, GltfFormat::Glb);
        assert_none(name, &differences(&model, &built.wad));
        // And the result is a WAD that reads back to the same model.
        let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
        let (back, _) = wadforge_format::wad::read(&bytes).unwrap();
        assert!(differences(&model, &back).is_empty(), "{name}: after writing");
        assert_other_tools_read_as_the_game(name, &bytes);
        eprintln!("{name}: same content; notes: {:?}", built.notes);
    }
}

/// Polygons of `mesh` whose corners coincide: two on one vertex, two vertices at one position,
/// or all on one line (zero area).
fn coinciding(mesh: &wadforge_format::Mesh) -> usize {
    let at = |v: u16| mesh.vertices[v as usize];
    (mesh.polygons.iter())
        .filter(|p| p.triangles().any(|t| wadforge_format::has_no_area(t.map(at))))
        .count()
}

fn mesh_of(wad: &Wad, kind: wadforge_diff::ObjectKind, id: u32) -> &wadforge_format::Mesh {
    let index = match kind {
        wadforge_diff::ObjectKind::Moveable => wad.moveables.iter().find(|m| m.id == id).unwrap().meshes[0],
        wadforge_diff::ObjectKind::Static => wad.statics.iter().find(|s| s.id == id).unwrap().mesh,
    };
    &wad.meshes[index]
}

#[test]
fn polygons_whose_corners_coincide_keep_sample_corners_and_texels() {
    use wadforge_diff::ObjectKind::{Moveable, Static};
    let model = wadforge_fixtures::odd_meshes();
    // KEY_ITEM1 on 4×4 and 3×4 samples, ROCK1 (shades) on 64×64 ones.
    for (kind, id) in [(Moveable, 203), (Static, 21)] {
        assert!(
            coinciding(mesh_of(&model, kind, id)) >= 40,
            "{kind:?} {id} holds such polygons"
        );
    }
    let built = rebuild(&model, GltfFormat::Glb);
    assert_none("the fixture", &differences(&model, &built.wad));
}

#[test]
fn a_shared_pickup_mesh_keeps_every_vertex_in_its_order() {
    use wadforge_diff::ObjectKind::{Moveable, Static};
    let model = wadforge_fixtures::odd_meshes();
    let built = rebuild(&model, GltfFormat::Glb).wad;
    let users = [(Moveable, 175), (Moveable, 176), (Static, 40)];
    for (kind, id) in users {
        let (before, after) = (mesh_of(&model, kind, id), mesh_of(&built, kind, id));
        assert_eq!(before.vertices.len(), wadforge_fixtures::PICKUP_VERTICES);
        assert_eq!(after.vertices, before.vertices, "{kind:?} {id}: vertices");
        assert_eq!(after.shading, before.shading, "{kind:?} {id}: normals");
        assert_eq!(
            after.polygons.len(),
            before.polygons.len(),
            "{kind:?} {id}: polygons"
        );
    }
    // And every polygon's corners, texture and texels, as diff compares them.
    let d: Vec<String> = differences(&model, &built)
        .into_iter()
        .filter(|d| {
            ["Moveable 175", "Moveable 176", "Static 40"]
                .iter()
                .any(|u| d.starts_with(&format!("{u}:")))
        })
        .collect();
    assert_none("the pickup's users", &d);
}

#[test]
fn meshes_real_files_hold_are_stable_through_import_build_import_build() {
    let once = rebuild(&wadforge_fixtures::odd_meshes(), GltfFormat::Glb).wad;
    let twice = rebuild(&once, GltfFormat::Glb).wad;
    assert_none("the fixture", &differences(&once, &twice));
}

#[test]
fn the_tr4_shaped_fixture_survives_import_then_build() {
    let model = wadforge_fixtures::tr4_shaped();
    assert_eq!(
        (
            model.moveables.len(),
            model.pages.len(),
            model.moveables[0].animations.len()
        ),
        (109, 11, 445)
    );
    let built = rebuild(&model, GltfFormat::Glb);
    assert_none("the fixture", &differences(&model, &built.wad));
    let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
    assert_other_tools_read_as_the_game("tr4_shaped built", &bytes);
}

#[test]
fn every_quirky_file_survives_import_then_build() {
    // Real files' quirks include keyframe boxes that the pose rule does not reproduce: unedited
    // animations keep them all the same.
    for (name, bytes) in wadforge_fixtures::quirky_files() {
        let (model, _) = wadforge_format::wad::read(&bytes).unwrap();
        let built = rebuild(&model, GltfFormat::Glb);
        assert_none(name, &differences(&model, &built.wad));
        let built_bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
        assert_other_tools_read_as_the_game(name, &built_bytes);
        // Built again from what was built: the same file.
        let (again, _) = wadforge_format::wad::read(&built_bytes).unwrap();
        let rebuilt = wadforge_format::wad::write(&rebuild(&again, GltfFormat::Glb).wad, None).unwrap();
        assert!(
            rebuilt == built_bytes,
            "{name}: import → build → import → build differs"
        );
    }
}

#[test]
fn separate_gltf_files_build_the_same() {
    let model = wadforge_fixtures::standard();
    let built = rebuild(&model, GltfFormat::Separate);
    let d = differences(&model, &built.wad);
    assert!(d.is_empty(), "{:#?}", &d[..d.len().min(12)]);
}

#[test]
fn keyframe_words_shared_as_core_tools_did_build_into_words_of_their_own() {
    let quirk = (wadforge_fixtures::quirks().into_iter())
        .find(|q| q.name == "keyframes_shared_as_core_tools_wrote_them")
        .unwrap();
    let before = shared_keyframes(&quirk.bytes).unwrap();
    assert!(before.iter().any(|s| s.size != s.other_size), "{before:?}");
    // The document's count reads the source otherwise than the game plays it.
    let (model, _) = wadforge_format::wad::read(&quirk.bytes).unwrap();
    assert!(wadforge_fixtures::document_reader::reads_as_the_game(&quirk.bytes, &model).is_err());
    let built = rebuild(&model, GltfFormat::Glb);
    assert!(differences(&model, &built.wad).is_empty());
    let bytes = wadforge_format::wad::write(&built.wad, None).unwrap();
    assert_eq!(shared_keyframes(&bytes).unwrap(), []);
    assert_other_tools_read_as_the_game("the shared keyframes built back", &bytes);
}

#[test]
fn an_action_longer_than_its_frame_range_sets_the_range() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model, GltfFormat::Glb);
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    let (name, keyframes, duration) = manifests
        .objects
        .iter_mut()
        .find_map(|o| match &mut o.manifest {
            wadforge_manifests::ObjectManifest::Moveable(m) if m.id == 51 => {
                // One keyframe fewer in the range than in the action.
                let a = &mut m.animations[1];
                let keyframes = a.kept_exactly.keyframe_boxes.len();
                a.frames = (keyframes as u16 - 2) * a.frame_duration as u16 + 1;
                Some((a.name.clone(), keyframes, a.frame_duration as usize))
            }
            _ => None,
        })
        .unwrap();
    let built =
        wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).expect("the build follows the action");
    let crocodile = built.wad.moveables.iter().find(|m| m.id == 51).unwrap();
    let a = &crocodile.animations[1];
    assert_eq!((a.keyframes.len(), a.played_keyframes()), (keyframes, keyframes));
    assert_eq!(
        usize::from(a.frame_end - a.frame_start) + 1,
        (keyframes - 1) * duration + 1
    );
    assert!(
        built
            .notes
            .iter()
            .any(|n| n.contains(&format!("animation {name} follows its action's length"))),
        "{:?}",
        built.notes
    );
}

#[test]
fn a_same_as_that_names_nothing_says_what_to_do() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model, GltfFormat::Glb);
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    let plant = manifests
        .objects
        .iter_mut()
        .find_map(|o| match &mut o.manifest {
            wadforge_manifests::ObjectManifest::Static(s) if s.id == 0 => Some(s),
            _ => None,
        })
        .unwrap();
    plant.mesh.same_as = Some(wadforge_manifests::MeshRef::Static { id: 9999 });
    let e = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .err()
        .expect("the build is refused")
        .to_string();
    assert!(
        e.contains("PLANT0 (static 0)")
            && e.contains(
                "neither in this directory nor in the base WAD; import that object too or build with --base"
            ),
        "{e}"
    );
}
