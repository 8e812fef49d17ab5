//! `wadforge import MODEL.glb --slot NAME`: a glTF no wadforge wrote becomes a manifest directory
//! of one new object that `build` takes at once (issue 43).

use std::path::Path;

use wadforge_format::pose::pose;
use wadforge_format::{Mesh, Wad};
use wadforge_importer::DEFAULT_TR_UNITS_PER_METRE;

use crate::common::rigged_figure::{glb, rigged_figure, rigged_figure_parts, HEAD, LEG};
use crate::common::{s, stderr, succeeds, wadforge};

/// The figure's animation, in seconds: 45 ticks of 1/30 s.
const SECONDS: f32 = 1.5;

/// `figure` (GLB bytes) imported into `slot` and built; the WAD read back.
fn imported_and_built(dir: &Path, figure: &[u8], slot: &str) -> Wad {
    let glb = dir.join("figure.glb");
    std::fs::write(&glb, figure).unwrap();
    let (out, wad) = (dir.join("figure"), dir.join("figure.wad"));
    succeeds(&["import", s(&glb), "--slot", slot, "-o", s(&out), "--quiet"]);
    succeeds(&["build", s(&out), "-o", s(&wad), "--quiet"]);
    wadforge_format::wad::read(&std::fs::read(&wad).unwrap())
        .unwrap()
        .0
}

/// Lowest and highest TR Y (down) of `mesh`'s vertices placed by `place`.
fn heights(mesh: &Mesh, place: impl Fn([f64; 3]) -> [f64; 3]) -> (f64, f64) {
    (mesh.vertices.iter().map(|v| place(v.map(f64::from))[1]))
        .fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)))
}

#[test]
fn a_rigged_humanoid_under_a_turned_root_stands_upright_with_every_keyframe() {
    let dir = tempfile::tempdir().unwrap();
    let wad = imported_and_built(dir.path(), &rigged_figure(true, SECONDS), "CROCODILE");
    assert_eq!(wad.moveables.len(), 1);
    let m = &wad.moveables[0];
    assert_eq!(
        (m.id, m.meshes.len()),
        (51, 4),
        "CROCODILE's slot, a mesh per joint"
    );
    let animation = &m.animations[0];
    let expected = (SECONDS * 30.0) as usize + 1;
    assert_eq!(m.animations.len(), 1);
    assert_eq!(
        animation.keyframes.len(),
        expected,
        "every keyframe at 30 a second"
    );
    assert_eq!(animation.played_keyframes(), expected);
    let spine = |k: usize| animation.keyframes[k].rotations[1];
    assert_ne!(spine(expected / 2), spine(0), "the spine bends halfway through");
    assert_eq!(spine(expected - 1), spine(0), "and is straight again at the end");

    let mesh = |j: usize| &wad.meshes[m.meshes[j]];
    // TR's rest pose (meshes at their link offsets, unturned) is the model as it stands, not
    // lying as it was modelled under the turned root.
    let rest = m.bind_origins();
    let rest = &rest;
    let at_rest = |j: usize| move |p: [f64; 3]| [0, 1, 2].map(|k| p[k] + rest[j][k] as f64);
    let (_, head_bottom) = heights(mesh(HEAD), at_rest(HEAD));
    let (leg_top, _) = heights(mesh(LEG), at_rest(LEG));
    assert!(
        head_bottom < leg_top,
        "at rest: head down to {head_bottom}, leg up to {leg_top}"
    );

    let posed = pose(&m.links, &animation.keyframes[0]);
    let (head_top, head_bottom) = heights(mesh(HEAD), |p| posed[HEAD].apply(p));
    let (leg_top, leg_bottom) = heights(mesh(LEG), |p| posed[LEG].apply(p));
    // TR's Y points down: the head's lowest vertex is above the leg's highest.
    assert!(
        head_bottom < leg_top,
        "head {head_top}..{head_bottom}, leg {leg_top}..{leg_bottom}"
    );
    let tall = (leg_bottom - head_top) / DEFAULT_TR_UNITS_PER_METRE;
    assert!((1.9..2.1).contains(&tall), "a 2 m figure stands {tall} m tall");
    assert!(
        !wad.pages.is_empty() && wad.samples.len() >= 2,
        "textured body, coloured head"
    );
}

#[test]
fn foreign_joints_keep_their_names_and_an_unnamed_animation_is_named_by_its_index() {
    let dir = tempfile::tempdir().unwrap();
    imported_and_built(dir.path(), &rigged_figure(true, SECONDS), "CROCODILE");
    let moveables = dir.path().join("figure/moveables");
    let yaml = (std::fs::read_dir(&moveables).unwrap())
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "yaml"))
        .expect("the moveable's manifest");
    let manifest = std::fs::read_to_string(yaml).unwrap();
    assert!(manifest.contains("name: 000_ANIM"), "{manifest}");
    for bone in ["hips", "spine", "head", "leg"] {
        assert!(
            manifest.contains(&format!("name: {bone}\n")),
            "{bone}: {manifest}"
        );
    }
}

#[test]
fn a_model_without_a_skin_in_a_static_slot_is_an_upright_static() {
    let dir = tempfile::tempdir().unwrap();
    let wad = imported_and_built(dir.path(), &rigged_figure(false, SECONDS), "PLANT0");
    assert_eq!((wad.moveables.len(), wad.statics.len()), (0, 1));
    let bounds = wad.statics[0].visibility;
    let height = i32::from(bounds.max[1]) - i32::from(bounds.min[1]);
    let width = i32::from(bounds.max[0]) - i32::from(bounds.min[0]);
    assert!(height > 3 * width, "upright: {bounds:?}");
    let top = -f64::from(bounds.min[1]) / DEFAULT_TR_UNITS_PER_METRE;
    assert!(
        bounds.max[1] <= 0 && (1.9..2.1).contains(&top),
        "standing on its origin: {bounds:?}"
    );
}

#[test]
fn a_gltf_without_slot_says_to_pass_slot() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("figure.glb");
    std::fs::write(&glb, rigged_figure(true, SECONDS)).unwrap();
    let o = wadforge(&["import", s(&glb), "-o", s(&dir.path().join("out"))]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--slot NAME"), "{}", stderr(&o));
}

#[test]
fn a_slot_the_catalogue_lacks_is_refused_with_its_nearest_names() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("figure.glb");
    std::fs::write(&glb, rigged_figure(true, SECONDS)).unwrap();
    let o = wadforge(&[
        "import",
        s(&glb),
        "--slot",
        "CROCODIL",
        "-o",
        s(&dir.path().join("out")),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("did you mean CROCODILE"), "{}", stderr(&o));
}

#[test]
fn build_of_a_folder_without_a_project_file_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let o = wadforge(&["build", s(dir.path()), "-o", s(&dir.path().join("x.wad"))]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("has no wadforge.yaml") && e.contains("wadforge import"),
        "{e}"
    );
}

/// What `import --slot CROCODILE` of the figure changed by `change` says, failing.
fn refused(change: impl FnOnce(&mut serde_json::Value)) -> String {
    refused_bytes(|d, _| change(d))
}

/// [`refused`], the change free to touch the binary chunk too.
fn refused_bytes(change: impl FnOnce(&mut serde_json::Value, &mut Vec<u8>)) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (mut document, mut bin) = rigged_figure_parts(true, SECONDS);
    change(&mut document, &mut bin);
    let file = dir.path().join("figure.glb");
    std::fs::write(&file, glb(&serde_json::to_vec(&document).unwrap(), &bin)).unwrap();
    let out = dir.path().join("out");
    let o = wadforge(&["import", s(&file), "--slot", "CROCODILE", "-o", s(&out)]);
    assert!(!o.status.success() && !out.exists(), "refused, nothing written");
    let e = stderr(&o);
    assert!(!e.contains("panicked"), "{e}");
    e
}

#[test]
fn a_model_of_two_skins_is_refused_with_what_to_do() {
    let e = refused(|d| {
        let skins = d["skins"].as_array_mut().unwrap();
        skins.push(serde_json::json!({"joints": [1, 2]}));
        let second = nodes_len(d);
        let nodes = d["nodes"].as_array_mut().unwrap();
        nodes.push(serde_json::json!({"mesh": 0, "skin": 1}));
        d["nodes"][0]["children"]
            .as_array_mut()
            .unwrap()
            .push(second.into());
    });
    assert!(e.contains("2 skins") && e.contains("join the armatures"), "{e}");
}

fn nodes_len(d: &serde_json::Value) -> usize {
    d["nodes"].as_array().unwrap().len()
}

#[test]
fn a_skeleton_beyond_tr_bones_is_refused_with_what_to_do() {
    let e = refused(|d| {
        let first = nodes_len(d);
        let extra = 125 - 4;
        let nodes = d["nodes"].as_array_mut().unwrap();
        nodes.extend((0..extra).map(|i| serde_json::json!({"name": format!("finger_{i}")})));
        d["nodes"][4]["children"] = (first..first + extra).collect::<Vec<_>>().into();
        let joints = d["skins"][0]["joints"].as_array_mut().unwrap();
        joints.extend((first..first + extra).map(serde_json::Value::from));
        d["skins"][0]
            .as_object_mut()
            .unwrap()
            .remove("inverseBindMatrices");
    });
    assert!(e.contains("125 joints") && e.contains("at most 123 bones"), "{e}");
}

#[test]
fn a_skin_naming_a_joint_twice_is_refused() {
    let e = refused(|d| d["skins"][0]["joints"][3] = 2.into());
    assert!(e.contains("lists node 2 twice among its joints"), "{e}");
}

#[test]
fn an_animation_hours_long_is_refused_before_it_is_sampled() {
    let e = refused_bytes(|d, bin| {
        // The animation's last key time, moved to ten hours.
        let input = d["animations"][0]["samplers"][0]["input"].as_u64().unwrap() as usize;
        let view = d["accessors"][input]["bufferView"].as_u64().unwrap() as usize;
        let at = d["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize + 8;
        bin[at..at + 4].copy_from_slice(&36_000.0f32.to_le_bytes());
    });
    assert!(
        e.contains("keyframes at 30 a second") && e.contains("shorten it"),
        "{e}"
    );
}

#[test]
fn a_mesh_apart_from_the_skeleton_is_left_out_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let (mut document, bin) = rigged_figure_parts(true, SECONDS);
    // A second node of the figure's mesh, unskinned and under the root, not under a joint.
    let prop = nodes_len(&document);
    let nodes = document["nodes"].as_array_mut().unwrap();
    nodes.push(serde_json::json!({"name": "prop", "mesh": 0}));
    document["nodes"][0]["children"]
        .as_array_mut()
        .unwrap()
        .push(prop.into());
    let file = dir.path().join("figure.glb");
    std::fs::write(&file, glb(&serde_json::to_vec(&document).unwrap(), &bin)).unwrap();
    let out = dir.path().join("out");
    let o = wadforge(&["import", s(&file), "--slot", "CROCODILE", "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 mesh nodes neither skinned nor parented to a joint are left out"),
        "{}",
        stderr(&o)
    );
}
