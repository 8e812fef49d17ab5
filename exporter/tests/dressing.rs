//! Dressed skeletons: TR3's LARA holds 15 pointers to one placeholder (a holstered thigh) and her
//! body is LARA_TRUE_APPEARANCE (315). Import shows her in 315's meshes, keeps the placeholder
//! apart, and build gives both back: the placeholder to LARA, the (edited) body to 315.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use wadforge_fixtures::compare::{differences, Tolerance};
use wadforge_fixtures::levels;
use wadforge_format::catalog::Game;
use wadforge_format::{Link, Moveable, Wad};
use wadforge_importer::{ImportOptions, DEFAULT_TR_UNITS_PER_METRE};
use wadforge_manifests::{MeshRef, MoveableManifest, ObjectManifest};

const LARA: u32 = 0;
const LARA_TRUE_APPEARANCE: u32 = 315;

fn import(model: &Wad, game: Game) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::wad("JUNGLE.TR2", 0xFF18_0038);
    options.game = game;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    dir
}

fn build(dir: &Path) -> wadforge_exporter::BuildOutput {
    let manifests = wadforge_manifests::load(dir).unwrap();
    wadforge_exporter::build(&manifests, None, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

fn moveable_manifest(dir: &Path, id: u32) -> MoveableManifest {
    wadforge_manifests::load(dir)
        .unwrap()
        .objects
        .into_iter()
        .find_map(|o| match o.manifest {
            ObjectManifest::Moveable(m) if m.id == id => Some(m),
            _ => None,
        })
        .unwrap_or_else(|| panic!("moveable {id} is imported"))
}

fn moveable(wad: &Wad, id: u32) -> &Moveable {
    wad.moveables.iter().find(|m| m.id == id).unwrap()
}

/// Bind-pose pivot of each joint: the sum of link offsets from the root.
fn origins(links: &[Link]) -> Vec<[i32; 3]> {
    let mut o = vec![[0; 3]];
    for l in links {
        let p = o[l.parent];
        o.push([0, 1, 2].map(|k| p[k] + l.offset[k]));
    }
    o
}

/// The vertices each bone's meshes show in a moveable's glTF, in TR units about the bone's pivot
/// (glTF = TR (−x, −y, z) / scale): from every skinned mesh node, each vertex to its heaviest joint.
fn shown_per_bone(gltf: &Path, links: &[Link]) -> BTreeMap<String, BTreeSet<[i32; 3]>> {
    let (doc, buffers, _) = gltf::import(gltf).unwrap();
    let bones: Vec<String> = doc
        .skins()
        .next()
        .expect("a skin")
        .joints()
        .map(|j| j.name().unwrap().to_string())
        .collect();
    let order: Vec<String> = doc
        .nodes()
        .map(|n| n.name().unwrap_or_default().to_string())
        .collect();
    let origins = origins(links);
    let mut shown: BTreeMap<String, BTreeSet<[i32; 3]>> = BTreeMap::new();
    for node in doc.nodes().filter(|n| n.skin().is_some()) {
        let skin: Vec<String> = node
            .skin()
            .unwrap()
            .joints()
            .map(|j| j.name().unwrap().to_string())
            .collect();
        for p in node.mesh().unwrap().primitives() {
            let r = p.reader(|b| Some(&buffers[b.index()]));
            let joints: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
            let weights: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
            for (v, position) in r.read_positions().unwrap().enumerate() {
                let k = (0..4)
                    .max_by(|&a, &b| weights[v][a].total_cmp(&weights[v][b]))
                    .unwrap();
                let bone = &skin[joints[v][k] as usize];
                // Node i is joint i: the pivot of the bone's joint.
                let joint = order.iter().position(|n| n == bone).unwrap();
                let s = DEFAULT_TR_UNITS_PER_METRE;
                let tr = [
                    -position[0] as f64 * s,
                    -position[1] as f64 * s,
                    position[2] as f64 * s,
                ];
                let local = [0, 1, 2].map(|c| tr[c].round() as i32 - origins[joint][c]);
                shown.entry(bone.clone()).or_default().insert(local);
            }
        }
    }
    assert!(bones.iter().all(|b| order.contains(b)));
    shown
}

fn vertices(wad: &Wad, mesh: usize) -> BTreeSet<[i32; 3]> {
    wad.meshes[mesh]
        .vertices
        .iter()
        .map(|v| v.map(i32::from))
        .collect()
}

#[test]
fn a_tr3_levels_lara_imports_dressed_in_lara_true_appearance() {
    let model = levels::tr3_model();
    let lara = moveable(&model, LARA);
    let body = moveable(&model, LARA_TRUE_APPEARANCE);
    let placeholder = lara.meshes[0];
    assert!(
        lara.meshes.iter().all(|&k| k == placeholder) && !body.meshes.contains(&placeholder),
        "the fixture's LARA holds one placeholder 315 does not show"
    );
    let dir = import(&model, Game::Tr3);

    // The manifest says who dresses her and where her placeholder went.
    let manifest = moveable_manifest(dir.path(), LARA);
    let dressing = manifest.dressed_by.as_ref().expect("LARA is dressed");
    assert_eq!(
        (dressing.body, dressing.joints, dressing.placeholders.as_deref()),
        (LARA_TRUE_APPEARANCE, None, Some("000_LARA_placeholders.glb"))
    );
    assert_eq!(manifest.bones[0].mesh.same_as, None, "HIPS holds the placeholder");
    for b in &manifest.bones[1..] {
        assert_eq!(
            b.mesh.same_as,
            Some(MeshRef::Moveable {
                id: LARA,
                bone: "HIPS".into()
            }),
            "{}",
            b.name
        );
    }
    assert!(moveable_manifest(dir.path(), LARA_TRUE_APPEARANCE)
        .dressed_by
        .is_none());

    // Her glTF shows 315's meshes, bone for bone; so does 315's own.
    let names: Vec<String> = manifest.bones.iter().map(|b| b.name.clone()).collect();
    for file in ["000_LARA.glb", "315_LARA_TRUE_APPEARANCE.glb"] {
        let shown = shown_per_bone(&dir.path().join("moveables").join(file), &lara.links);
        assert_eq!(shown.len(), 15, "{file}: every bone shows a mesh");
        for (name, &mesh) in names.iter().zip(&body.meshes) {
            assert_eq!(shown[name], vertices(&model, mesh), "{file}: bone {name}");
        }
    }
    // The placeholder is kept apart, once, at the bone that holds it.
    let kept = shown_per_bone(
        &dir.path().join("moveables/000_LARA_placeholders.glb"),
        &lara.links,
    );
    assert_eq!(kept.keys().collect::<Vec<_>>(), ["HIPS"]);
    assert_eq!(kept["HIPS"], vertices(&model, placeholder));
    let placeholder_json = gltf::Gltf::open(dir.path().join("moveables/000_LARA_placeholders.glb")).unwrap();
    assert_eq!(
        placeholder_json.animations().count(),
        0,
        "placeholders are not animated"
    );
}

#[test]
fn a_tr3_level_builds_back_with_laras_placeholders_and_the_body_in_315() {
    let model = levels::tr3_model();
    let dir = import(&model, Game::Tr3);
    let built = build(dir.path());
    let d = differences(&model, &built.wad, Tolerance { normal: 1, angle: 0 });
    assert!(d.is_empty(), "{d:#?}");
    let lara = moveable(&built.wad, LARA);
    assert!(
        lara.meshes.iter().all(|&k| k == lara.meshes[0]),
        "LARA's 15 pointers name one mesh, as in the level"
    );
    let body = moveable(&built.wad, LARA_TRUE_APPEARANCE);
    assert!(!body.meshes.contains(&lara.meshes[0]));
    assert!(
        !built.notes.iter().any(|n| n.contains("dresses it")),
        "{:?}",
        built.notes
    );
}

#[test]
fn an_edit_of_the_body_builds_into_315_and_nothing_else_changes() {
    let model = levels::tr3_model();
    let dir = import(&model, Game::Tr3);
    // The artist's edit: one vertex of the torso moves 10 units towards its pivot (within its
    // sphere, which is kept). Its glTF is what import makes of the edited model.
    let mut edited = model.clone();
    let torso = moveable(&model, LARA_TRUE_APPEARANCE).meshes[7];
    edited.meshes[torso].vertices[0][1] += 10;
    let edited_dir = import(&edited, Game::Tr3);
    let file = "moveables/315_LARA_TRUE_APPEARANCE.glb";
    std::fs::copy(edited_dir.path().join(file), dir.path().join(file)).unwrap();

    let built = build(dir.path());
    let d = differences(&edited, &built.wad, Tolerance { normal: 1, angle: 0 });
    assert!(d.is_empty(), "{d:#?}");
    // Beyond the comparison above: LARA's pointers still name one mesh, the placeholder as it
    // was, and her keyframe boxes are the ones the level stores.
    let (before, after) = (moveable(&model, LARA), moveable(&built.wad, LARA));
    assert!(after.meshes.iter().all(|&k| k == after.meshes[0]));
    assert_eq!(
        vertices(&built.wad, after.meshes[0]),
        vertices(&model, before.meshes[0]),
        "LARA keeps her placeholder"
    );
    let boxes = |m: &Moveable| -> Vec<_> {
        m.animations
            .iter()
            .flat_map(|a| a.keyframes.iter().map(|k| k.bounding_box))
            .collect()
    };
    assert_eq!(boxes(before), boxes(after));
    let built_torso = moveable(&built.wad, LARA_TRUE_APPEARANCE).meshes[7];
    assert_eq!(vertices(&built.wad, built_torso), vertices(&edited, torso));
    assert_ne!(vertices(&built.wad, built_torso), vertices(&model, torso));
}

#[test]
fn a_placeholder_another_object_shows_is_named_not_kept_apart() {
    // LARA's placeholder is the thigh of LARA_PISTOL_ANIMATION (1), whose other meshes are the
    // body's and whose hands are its own: 1 is not dressed (it has meshes of its own), so it
    // writes the thigh and LARA names it.
    let mut model = levels::tr3_model();
    let lara = moveable(&model, LARA).clone();
    let mut pistols = moveable(&model, LARA_TRUE_APPEARANCE).clone();
    pistols.id = 1;
    pistols.meshes[1] = lara.meshes[0];
    for hand in [10, 13] {
        let mut gun = model.meshes[pistols.meshes[hand]].clone();
        gun.vertices.iter_mut().for_each(|v| v[2] += 30);
        model.meshes.push(gun);
        pistols.meshes[hand] = model.meshes.len() - 1;
    }
    model.moveables.insert(1, pistols);
    let dir = import(&model, Game::Tr3);
    let manifest = moveable_manifest(dir.path(), LARA);
    let dressing = manifest.dressed_by.as_ref().expect("LARA is dressed");
    assert_eq!(
        (dressing.body, dressing.placeholders.as_deref()),
        (LARA_TRUE_APPEARANCE, None)
    );
    assert!(!dir.path().join("moveables/000_LARA_placeholders.glb").exists());
    for b in &manifest.bones {
        assert_eq!(
            b.mesh.same_as,
            Some(MeshRef::Moveable {
                id: 1,
                bone: "LEFT_THIGH".into()
            }),
            "{}",
            b.name
        );
    }
    // The body writes its own meshes, the pistol animation names those it shares.
    let pistols = moveable_manifest(dir.path(), 1);
    assert!(pistols.dressed_by.is_none());
    let body = moveable_manifest(dir.path(), LARA_TRUE_APPEARANCE);
    assert!(body.bones.iter().all(|b| b.mesh.same_as.is_none()));
    for (j, b) in pistols.bones.iter().enumerate() {
        let shared = ![1, 10, 13].contains(&j);
        assert_eq!(
            b.mesh.same_as,
            shared.then(|| MeshRef::Moveable {
                id: LARA_TRUE_APPEARANCE,
                bone: b.name.clone()
            }),
            "{}",
            b.name
        );
    }
    let built = build(dir.path());
    let d = differences(&model, &built.wad, Tolerance { normal: 1, angle: 0 });
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn tr1_and_tr2_lara_carry_their_own_meshes() {
    // The same level as TR1 and TR2 objects: no catalogue body for LARA, her meshes are hers.
    let model = levels::tr3_model();
    for game in [Game::Tr1, Game::Tr2] {
        let dir = import(&model, game);
        let manifest = moveable_manifest(dir.path(), LARA);
        assert!(manifest.dressed_by.is_none(), "{game:?}");
        assert!(!dir.path().join("moveables/000_LARA_placeholders.glb").exists());
        let shown = shown_per_bone(
            &dir.path().join("moveables/000_LARA.glb"),
            &moveable(&model, LARA).links,
        );
        let placeholder = vertices(&model, moveable(&model, LARA).meshes[0]);
        assert!(shown.values().all(|v| *v == placeholder), "{game:?}");
    }
}
