//! Actions that name no manifest animation become new animations (their wadforge properties in
//! the glTF animation's extras, as Blender's exporter writes an action's custom properties), and
//! a manifest animation without an action is an error.

use std::path::Path;

use serde_json::{json, Value};
use wadforge_format::Wad;
use wadforge_importer::{GltfFormat, ImportOptions};
use wadforge_manifests::{AnimationManifest, ManifestDir, ObjectManifest};

const CROCODILE: u32 = 51;
const GLB: &str = "moveables/051_CROCODILE.glb";

fn import(model: &Wad) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut options = ImportOptions::wad("fixture.wad", 129);
    options.format = GltfFormat::Glb;
    let files = wadforge_importer::import(model, &options, &mut |_, _, _| {}).unwrap();
    wadforge_files::write_directory(&files, dir.path()).unwrap();
    dir
}

/// Rewrites the JSON chunk of the GLB at `path` with `edit` (the binary chunk as it was).
fn edit_glb(path: &Path, edit: impl FnOnce(&mut Value)) {
    let bytes = std::fs::read(path).unwrap();
    let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut document: Value = serde_json::from_slice(&bytes[20..20 + json_length]).unwrap();
    edit(&mut document);
    let mut text = serde_json::to_vec(&document).unwrap();
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let rest = &bytes[20 + json_length..];
    let mut out = Vec::with_capacity(20 + text.len() + rest.len());
    out.extend_from_slice(&bytes[..8]);
    out.extend_from_slice(&((20 + text.len() + rest.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(rest);
    std::fs::write(path, out).unwrap();
}

/// The animation of the GLB named `name`.
fn animation<'a>(document: &'a mut Value, name: &str) -> &'a mut Value {
    let animations = document["animations"].as_array_mut().unwrap();
    animations.iter_mut().find(|a| a["name"] == name).unwrap()
}

/// A copy of animation `from` named `name`, with `extras`.
fn copy_action(document: &mut Value, from: &str, name: &str, extras: Value) {
    let mut copy = animation(document, from).clone();
    copy["name"] = json!(name);
    copy["extras"] = extras;
    document["animations"].as_array_mut().unwrap().push(copy);
}

fn crocodile(dir: &ManifestDir) -> &wadforge_manifests::MoveableManifest {
    dir.objects
        .iter()
        .find_map(|o| match &o.manifest {
            ObjectManifest::Moveable(m) if m.id == CROCODILE => Some(m),
            _ => None,
        })
        .unwrap()
}

fn names(dir: &Path) -> Vec<AnimationManifest> {
    crocodile(&wadforge_manifests::load(dir).unwrap())
        .animations
        .clone()
}

#[test]
fn copied_actions_become_new_animations_after_the_objects_own_in_name_order() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    let own = names(dir.path());
    let (first, second) = (own[0].name.clone(), own[1].name.clone());
    let duration = own[0].frame_duration;
    edit_glb(&dir.path().join(GLB), |d| {
        // Added in the reverse of name order: build appends them by name.
        copy_action(
            d,
            &second,
            "ZZ_LUNGE",
            json!({"wadforge_state": 40, "wadforge_speed": 12.5, "wadforge_next": first,
                   "wadforge_next_frame": 2, "wadforge_gltf_name": "kept by the extension, not read"}),
        );
        copy_action(
            d,
            &first,
            "YY_TURN",
            json!({"wadforge_state_changes": "40: 0-1 > ZZ_LUNGE@1", "wadforge_frame_duration": duration}),
        );
    });
    let manifest_before = std::fs::read(dir.path().join("moveables/051_CROCODILE.yaml")).unwrap();
    let built = wadforge_exporter::build(
        &wadforge_manifests::load(dir.path()).unwrap(),
        None,
        &mut |_, _, _| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let before = &model
        .moveables
        .iter()
        .find(|m| m.id == CROCODILE)
        .unwrap()
        .animations;
    let after = &built
        .wad
        .moveables
        .iter()
        .find(|m| m.id == CROCODILE)
        .unwrap()
        .animations;
    assert_eq!(after.len(), before.len() + 2);
    let (turn, lunge) = (&after[before.len()], &after[before.len() + 1]);
    let (turn_index, lunge_index) = (before.len() as i32, before.len() as i32 + 1);
    // YY_TURN, with the defaults: a state past every other, next itself, still.
    let largest = before.iter().map(|a| a.state).max().unwrap();
    assert_eq!(
        (turn.state, turn.next_animation, turn.next_frame),
        (largest + 1, turn_index, turn.frame_start)
    );
    assert_eq!((turn.speed.to_f64(), turn.frame_duration), (0.0, duration));
    assert_eq!(turn.keyframes.len(), turn.played_keyframes());
    let poses = |a: &wadforge_format::Animation| -> Vec<_> {
        a.keyframes
            .iter()
            .map(|k| (k.offset, k.rotations.clone()))
            .collect()
    };
    assert!(
        poses(turn) == poses(&before[0]),
        "the same poses as the action it copies"
    );
    // ZZ_LUNGE leaves its frame duration unset: one keyframe a tick, its action's length.
    assert_eq!(lunge.frame_duration, 1);
    let ticks = (before[1].keyframes.len() - 1) * usize::from(before[1].frame_duration);
    assert_eq!(lunge.keyframes.len(), ticks + 1);
    // Its state change leads to ZZ_LUNGE, at ZZ_LUNGE's frame 1.
    let dispatch = turn.state_changes[0].dispatches[0];
    assert_eq!(turn.state_changes[0].state, 40);
    assert_eq!(
        (dispatch.next_animation, dispatch.next_frame),
        (lunge_index, lunge.frame_start + 1)
    );
    // ZZ_LUNGE, from its properties.
    assert_eq!((lunge.state, lunge.speed.to_f64()), (40, 12.5));
    assert_eq!(
        (lunge.next_animation, lunge.next_frame),
        (0, after[0].frame_start + 2)
    );
    assert!(
        lunge.frame_start > turn.frame_end,
        "each new animation after the others on the timeline"
    );
    // Build told of both, and that nothing leads to YY_TURN.
    let told = built.notes.join("\n");
    assert!(
        told.contains("new animation YY_TURN from its action") && told.contains("new animation ZZ_LUNGE"),
        "{told}"
    );
    assert!(
        told.contains("new animation YY_TURN is reached by no other animation"),
        "{told}"
    );
    assert!(
        !told.contains("new animation ZZ_LUNGE is reached by no"),
        "{told}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("moveables/051_CROCODILE.yaml")).unwrap(),
        manifest_before,
        "build never writes its input"
    );
}

#[test]
fn an_actions_bad_property_names_the_action_and_the_property() {
    let model = wadforge_fixtures::standard();
    for (extras, property, says) in [
        (
            json!({"wadforge_speed": "fast"}),
            "wadforge_speed",
            "not a number",
        ),
        (
            json!({"wadforge_state_changes": "1: 0-4 NOWHERE"}),
            "wadforge_state_changes",
            "no `>`",
        ),
        (json!({"wadforge_next": "NO_SUCH"}), "wadforge_next", "`NO_SUCH`"),
    ] {
        let dir = import(&model);
        let own = names(dir.path());
        edit_glb(&dir.path().join(GLB), |d| {
            copy_action(d, &own[0].name, "ZZ_NEW", extras.clone())
        });
        let e = wadforge_exporter::build(
            &wadforge_manifests::load(dir.path()).unwrap(),
            None,
            &mut |_, _, _| {},
        )
        .err()
        .unwrap_or_else(|| panic!("{extras} was accepted"))
        .to_string();
        assert!(
            e.contains("CROCODILE (moveable 51)")
                && e.contains("ZZ_NEW")
                && e.contains(property)
                && e.contains(says),
            "{extras}: {e}"
        );
    }
}

#[test]
fn a_manifest_animation_without_an_action_says_what_to_do() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    let ObjectManifest::Moveable(m) = &mut manifests
        .objects
        .iter_mut()
        .find(|o| matches!(&o.manifest, ObjectManifest::Moveable(m) if m.id == CROCODILE))
        .unwrap()
        .manifest
    else {
        unreachable!()
    };
    // Written by hand: nothing kept from an import, no action of its name.
    let mut written = m.animations[0].clone();
    written.name = "099_BY_HAND".into();
    written.kept_exactly = Default::default();
    written.first_frame = None;
    m.animations.push(written);
    let e = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("CROCODILE (moveable 51)")
            && e.contains("animation 099_BY_HAND")
            && e.contains("delete it from the animations of")
            && e.contains("make an action named `099_BY_HAND`"),
        "{e}"
    );
}

/// Appends `bytes` to the GLB's binary chunk (its only buffer), 4-byte aligned; their offset.
fn append_to_buffer(document: &mut Value, bin: &mut Vec<u8>, bytes: &[u8]) -> usize {
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let offset = bin.len();
    bin.extend_from_slice(bytes);
    document["buffers"][0]["byteLength"] = json!(bin.len());
    offset
}

/// Adds to the GLB at `path` an animation `name` turning the root joint once, between keys at 0
/// and `seconds`.
fn add_long_action(path: &Path, name: &str, seconds: f32) {
    let bytes = std::fs::read(path).unwrap();
    let json_length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut document: Value = serde_json::from_slice(&bytes[20..20 + json_length]).unwrap();
    let bin_at = 20 + json_length;
    let bin_length = u32::from_le_bytes(bytes[bin_at..bin_at + 4].try_into().unwrap()) as usize;
    let mut bin = bytes[bin_at + 8..bin_at + 8 + bin_length].to_vec();
    let times: Vec<u8> = [0.0f32, seconds].iter().flat_map(|t| t.to_le_bytes()).collect();
    let turns: Vec<u8> = [
        [0.0f32, 0.0, 0.0, 1.0],
        [
            0.0,
            std::f32::consts::FRAC_1_SQRT_2,
            0.0,
            std::f32::consts::FRAC_1_SQRT_2,
        ],
    ]
    .iter()
    .flatten()
    .flat_map(|v| v.to_le_bytes())
    .collect();
    let root = document["animations"][0]["channels"][0]["target"]["node"].clone();
    let mut accessor = |document: &mut Value, data: &[u8], kind: &str, bounds: Option<(f32, f32)>| {
        let offset = append_to_buffer(document, &mut bin, data);
        let views = document["bufferViews"].as_array_mut().unwrap();
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len()}));
        let view = views.len() - 1;
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": 2, "type": kind});
        if let Some((min, max)) = bounds {
            a["min"] = json!([min]);
            a["max"] = json!([max]);
        }
        let accessors = document["accessors"].as_array_mut().unwrap();
        accessors.push(a);
        accessors.len() - 1
    };
    let input = accessor(&mut document, &times, "SCALAR", Some((0.0, seconds)));
    let output = accessor(&mut document, &turns, "VEC4", None);
    document["animations"].as_array_mut().unwrap().push(json!({
        "name": name,
        "channels": [{"sampler": 0, "target": {"node": root, "path": "rotation"}}],
        "samplers": [{"input": input, "output": output, "interpolation": "LINEAR"}],
    }));
    let mut text = serde_json::to_vec(&document).unwrap();
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let mut out = Vec::new();
    out.extend_from_slice(&bytes[..8]);
    out.extend_from_slice(&((28 + text.len() + bin.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    std::fs::write(path, out).unwrap();
}

#[test]
fn new_actions_past_the_objects_timeline_are_refused_before_they_are_sampled() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    // A minute-long action builds: 1801 keyframes, and its range follows.
    add_long_action(&dir.path().join(GLB), "ZZ_MINUTE", 60.0);
    let built = wadforge_exporter::build(
        &wadforge_manifests::load(dir.path()).unwrap(),
        None,
        &mut |_, _, _| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let crocodile = built.wad.moveables.iter().find(|m| m.id == CROCODILE).unwrap();
    let minute = crocodile.animations.last().unwrap();
    assert_eq!((minute.keyframes.len(), minute.played_keyframes()), (1801, 1801));
    // Ten actions of 1000 s, each 30 001 keyframes of every bone (within the engine's signed
    // frame numbers): some 6.6 million keyframe bones, and past the 65 536 frames of the
    // object's timeline by the third, refused in moments, not sampled.
    for k in 0..10 {
        add_long_action(&dir.path().join(GLB), &format!("ZZ_LONG_{k}"), 1000.0);
    }
    let started = std::time::Instant::now();
    let e = wadforge_exporter::build(
        &wadforge_manifests::load(dir.path()).unwrap(),
        None,
        &mut |_, _, _| {},
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(
        e.contains("CROCODILE (moveable 51)")
            && e.contains("ZZ_LONG_")
            && e.contains("past the timeline's 65535"),
        "{e}"
    );
    assert!(started.elapsed().as_secs_f64() < 5.0, "{:?}", started.elapsed());
}

#[test]
fn actions_asking_for_more_keyframes_than_the_directorys_size_allows_are_refused() {
    let model = wadforge_fixtures::standard();
    let dir = import(&model);
    // Two actions of 1000 s: 60 002 keyframes of 22 joints and a header, within the object's
    // timeline, but some 1.4 million keyframe bones from a crocodile of a few hundred kilobytes.
    for name in ["ZZ_LONG_A", "ZZ_LONG_B"] {
        add_long_action(&dir.path().join(GLB), name, 1000.0);
    }
    let mut manifests = wadforge_manifests::load(dir.path()).unwrap();
    manifests
        .objects
        .retain(|o| matches!(&o.manifest, ObjectManifest::Moveable(m) if m.id == CROCODILE));
    let started = std::time::Instant::now();
    let e = wadforge_exporter::build(&manifests, None, &mut |_, _, _| {})
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("CROCODILE (moveable 51)")
            && e.contains("animation ZZ_LONG_")
            && e.contains("keyframe bones"),
        "{e}"
    );
    assert!(started.elapsed().as_secs_f64() < 5.0, "{:?}", started.elapsed());
}
