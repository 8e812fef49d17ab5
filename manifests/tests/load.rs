//! Loading manifest directories: valid ones load, each kind of mistake names the file, the place
//! and what to change.

use std::path::Path;

use wadforge_manifests::*;

const PROJECT: &str = "wadforge: 2
source: { file: test.wad, format: wad, version: 129 }
game: TR4
units: { tr_units_per_metre: 512, axes: rotate-180-about-z }
objects: [moveables/door.yaml, statics/plant.yaml]
";

const DOOR: &str = "moveable:
  id: 300
  slot: DOOR_TYPE1
  gltf: door.glb
  bones:
    - name: mesh_00
      sphere: { center: [0, -512, 0], radius: 600 }
      lighting: normals
  animations:
    - name: 000_CLOSED
      state: { id: 0 }
      frame_duration: 1
      frames: 1
      speed: 0
      acceleration: 0
      next: { animation: 000_CLOSED, frame: 0 }
      commands:
        - sound: { frame: 0, id: 7, on: land }
        - kill
";

const PLANT: &str = "static:
  id: 10
  slot: PLANT0
  gltf: plant.glb
  mesh: { sphere: { center: [0, 0, 0], radius: 0 }, lighting: shades }
  visibility_box: { min: [-10, -100, -10], max: [10, 0, 10] }
  collision_box: { min: [-10, -100, -10], max: [10, 0, 10] }
  flags: 2
";

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn valid_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("wadforge.yaml", PROJECT),
            ("moveables/door.yaml", DOOR),
            ("moveables/door.glb", "glb"),
            ("statics/plant.yaml", PLANT),
            ("statics/plant.glb", "glb"),
        ],
    );
    dir
}

#[test]
fn a_valid_directory_loads_with_its_objects_in_listed_order() {
    let dir = valid_dir();
    let loaded = load(dir.path()).unwrap();
    assert_eq!(loaded.objects.len(), 2);
    let ObjectManifest::Moveable(door) = &loaded.objects[0].manifest else {
        panic!("door is a moveable")
    };
    assert_eq!((door.id, door.slot.as_str()), (300, "DOOR_TYPE1"));
    assert_eq!(
        door.animations[0].commands[0],
        CommandManifest::Sound {
            frame: 0,
            id: 7,
            on: SoundPlace::Land
        }
    );
    assert_eq!(
        loaded.objects[1].gltf_path(dir.path()),
        dir.path().join("statics/plant.glb")
    );
}

#[test]
fn a_manifest_written_then_parsed_is_the_same() {
    let dir = valid_dir();
    let loaded = load(dir.path()).unwrap();
    for object in &loaded.objects {
        let text = write_yaml(&object.manifest, "header line");
        assert!(text.starts_with("# header line\n"));
        let back: ObjectManifest = load::parse(Path::new("x.yaml"), &text).unwrap();
        assert_eq!(back, object.manifest);
    }
}

#[test]
fn an_object_manifest_written_one_animation_at_a_time_is_the_same_text() {
    let dir = valid_dir();
    let door = load(dir.path()).unwrap().objects[0].manifest.clone();
    let ObjectManifest::Moveable(m) = &door else {
        panic!("the door is a moveable")
    };
    assert_eq!(m.animations.len(), 1);
    let variant = |change: &dyn Fn(&mut wadforge_manifests::MoveableManifest)| {
        let mut m = m.clone();
        change(&mut m);
        ObjectManifest::Moveable(m)
    };
    let second = |m: &mut wadforge_manifests::MoveableManifest, name: &str| {
        let mut a = m.animations[0].clone();
        a.name = name.into();
        m.animations.push(a);
    };
    let two = variant(&|m| second(m, "001_AGAIN"));
    let none = variant(&|m| m.animations.clear());
    // A name the compact writer leaves to serde_yaml: the whole text is serde_yaml's then.
    let multi_line = variant(&|m| second(m, "two\nlines"));
    for manifest in [&door, &two, &none, &multi_line] {
        assert_eq!(
            wadforge_manifests::write_object_manifest(manifest, "door"),
            write_yaml(manifest, "door")
        );
    }
}

#[test]
fn a_moveable_read_one_animation_at_a_time_is_the_one_read_whole() {
    let dir = valid_dir();
    let door = load(dir.path()).unwrap().objects[0].manifest.clone();
    let ObjectManifest::Moveable(m) = &door else {
        panic!("the door is a moveable")
    };
    let mut three = m.clone();
    for name in ["001_OPENING", "002_OPEN"] {
        let mut a = m.animations[0].clone();
        a.name = name.into();
        three.animations.push(a);
    }
    let text = wadforge_manifests::write_object_manifest(&ObjectManifest::Moveable(three), "door");
    let path = Path::new("door.yaml");
    let whole: ObjectManifest = load::parse(path, &text).unwrap();
    assert_eq!(load::parse_object(path, &text).unwrap(), whole);
    let ObjectManifest::Moveable(read) = &whole else {
        unreachable!()
    };
    assert_eq!(read.animations.len(), 3);
    // An anchor in the bones used by an animation: the parts do not read alone; the whole does.
    let anchored = text.replacen("  - name: ", "  - name: &first_bone ", 1).replacen(
        "- name: 001_OPENING",
        "- name: *first_bone",
        1,
    );
    assert_ne!(anchored, text);
    assert_eq!(
        load::parse_object(path, &anchored).unwrap(),
        load::parse::<ObjectManifest>(path, &anchored).unwrap()
    );
    // An error in the last animation is told at its line of the whole file.
    let broken = text.replacen("- name: 002_OPEN\n", "- name: 002_OPEN\n    bogus: 1\n", 1);
    assert_ne!(broken, text);
    let whole_error = load::parse::<ObjectManifest>(path, &broken)
        .unwrap_err()
        .to_string();
    assert_eq!(
        load::parse_object(path, &broken).unwrap_err().to_string(),
        whole_error
    );
    assert!(whole_error.contains("bogus"), "{whole_error}");
}

#[test]
fn short_lists_and_small_records_take_one_line() {
    let dir = valid_dir();
    let loaded = load(dir.path()).unwrap();
    let text = write_yaml(&loaded.objects[0].manifest, "door");
    for line in [
        "    sphere: {center: [0, -512, 0], radius: 600, flag: 0}",
        "    state: {id: 0}",
        "    next: {animation: 000_CLOSED, frame: 0}",
        "    commands: [{sound: {frame: 0, id: 7, on: land}}, kill]",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
    }
}

#[test]
fn text_that_reads_otherwise_in_a_one_line_list_stays_quoted_or_in_block_style() {
    let dir = valid_dir();
    let original = load(dir.path()).unwrap().objects[0].manifest.clone();
    for (i, name) in ["A, B", "[x]", "{y}", "a: b", "# c", "'q'", "yes", "12"]
        .into_iter()
        .enumerate()
    {
        let mut manifest = original.clone();
        let ObjectManifest::Moveable(m) = &mut manifest else {
            panic!("the door is a moveable")
        };
        m.animations[0].state.name = Some(name.to_string());
        m.bones[0].name = format!("{name}{i}");
        let text = write_yaml(&manifest, "door");
        let back: ObjectManifest = load::parse(Path::new("x.yaml"), &text).unwrap();
        assert_eq!(back, manifest, "{name:?}:\n{text}");
    }
}

#[test]
fn an_unknown_field_gives_file_line_and_column() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[(
            "moveables/door.yaml",
            &DOOR.replace("frames: 1", "frames: 1\n      speeed: 3"),
        )],
    );
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("door.yaml:"), "{e}");
    assert!(e.contains("unknown field `speeed`"), "{e}");
    let ManifestError::Syntax {
        location: Some(l), ..
    } = load(dir.path()).unwrap_err()
    else {
        panic!("{e}")
    };
    assert_eq!(
        l.line,
        DOOR.lines().position(|l| l.contains("frames: 1")).unwrap() + 2
    );
}

#[test]
fn a_wrong_type_gives_its_line() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[("statics/plant.yaml", &PLANT.replace("flags: 2", "flags: many"))],
    );
    let e = load(dir.path()).unwrap_err();
    let ManifestError::Syntax {
        location: Some(l), ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(l.line, 8, "{e}");
}

#[test]
fn an_unlisted_object_manifest_is_refused() {
    let dir = valid_dir();
    write(dir.path(), &[("moveables/copy.yaml", DOOR)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("copy.yaml") && e.contains("not listed under `objects:`"),
        "{e}"
    );
}

#[test]
fn of_several_unlisted_manifests_the_first_in_name_order_is_named() {
    let dir = valid_dir();
    // A folder sorts before a file that extends its name, as a walk of sorted folders meets them.
    for file in [
        "statics/z.yaml",
        "moveables/b.yaml",
        "moveables/a/z.yaml",
        "moveables/a.yaml",
    ] {
        write(dir.path(), &[(file, DOOR)]);
    }
    let e = load(dir.path()).unwrap_err();
    let ManifestError::Invalid { path, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(path, &dir.path().join("moveables/a/z.yaml"), "{e}");
}

#[test]
fn an_object_manifest_listed_twice_is_refused_before_it_is_read() {
    let dir = valid_dir();
    let project = PROJECT.replace(
        "moveables/door.yaml",
        "moveables/door.yaml, ./moveables/door.yaml",
    );
    assert_ne!(project, PROJECT);
    write(dir.path(), &[("wadforge.yaml", &project)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("wadforge.yaml") && e.contains("is listed twice"),
        "{e}"
    );
}

#[test]
fn a_gltf_outside_the_directory_is_refused() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[(
            "moveables/door.yaml",
            &DOOR.replace("gltf: door.glb", "gltf: ../../door.glb"),
        )],
    );
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("outside the manifest directory"), "{e}");
}

#[test]
fn a_missing_gltf_is_refused() {
    let dir = valid_dir();
    std::fs::remove_file(dir.path().join("statics/plant.glb")).unwrap();
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("plant.yaml") && e.contains("plant.glb` does not exist"),
        "{e}"
    );
}

#[test]
fn a_dressed_skeletons_placeholders_gltf_must_exist_inside_the_directory() {
    let dressed = DOOR.replace(
        "  gltf: door.glb\n",
        "  gltf: door.glb\n  dressed_by: { body: 315, placeholders: door_placeholders.glb }\n",
    );
    let dir = valid_dir();
    write(dir.path(), &[("moveables/door.yaml", &dressed)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("door.yaml") && e.contains("door_placeholders.glb` does not exist"),
        "{e}"
    );
    write(dir.path(), &[("moveables/door_placeholders.glb", "glb")]);
    let loaded = load(dir.path()).unwrap();
    let ObjectManifest::Moveable(m) = &loaded.objects[0].manifest else {
        panic!("a moveable");
    };
    let dressing = m.dressed_by.as_ref().unwrap();
    assert_eq!(
        (dressing.body, dressing.placeholders.as_deref()),
        (315, Some("door_placeholders.glb"))
    );
    let outside = dressed.replace("placeholders: door", "placeholders: ../../door");
    write(dir.path(), &[("moveables/door.yaml", &outside)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("outside the manifest directory"), "{e}");
}

#[test]
fn a_next_animation_that_does_not_exist_is_refused() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[(
            "moveables/door.yaml",
            &DOOR.replace("next: { animation: 000_CLOSED", "next: { animation: 001_OPEN"),
        )],
    );
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("DOOR_TYPE1: animation 000_CLOSED: next animation `001_OPEN` is not an animation"),
        "{e}"
    );
}

#[test]
fn a_wrong_schema_version_is_refused() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[("wadforge.yaml", &PROJECT.replace("wadforge: 2", "wadforge: 7"))],
    );
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("schema version 7 is not supported"), "{e}");
}

#[test]
fn duplicate_bone_names_are_refused() {
    let dir = valid_dir();
    let two_bones = DOOR.replace(
        "      lighting: normals\n",
        "      lighting: normals\n    - name: mesh_00\n      sphere: { center: [0, 0, 0], radius: 1 }\n      lighting: normals\n",
    );
    write(dir.path(), &[("moveables/door.yaml", &two_bones)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("bone `mesh_00` appears twice"), "{e}");
}

/// The door with its exactness values, as format 1 wrote them: beside the editable ones.
const DOOR_FORMAT_1: &str = "moveable:
  id: 300
  slot: DOOR_TYPE1
  gltf: door.glb
  bones:
    - name: mesh_00
      sphere: { center: [0, -512, 0], radius: 600 }
      lighting: normals
  animations:
    - name: 000_CLOSED
      state: { id: 0 }
      frame_duration: 1
      frames: 1
      speed: 0
      acceleration: 0
      next: { animation: 000_CLOSED, frame: 0 }
      exact_angles:
        - { keyframe: 0, mesh: 0, x: 1024, y: 2048, z: 2048 }
      pose_fingerprint: 0123456789abcdef
      keyframe_boxes:
        - { min: [-1, -2, -3], max: [4, 5, 6] }
";

#[test]
fn a_directory_of_format_1_still_loads_with_its_exactness_values() {
    let dir = valid_dir();
    write(
        dir.path(),
        &[
            ("wadforge.yaml", &PROJECT.replace("wadforge: 2", "wadforge: 1")),
            ("moveables/door.yaml", DOOR_FORMAT_1),
        ],
    );
    let loaded = load(dir.path()).unwrap();
    let ObjectManifest::Moveable(door) = &loaded.objects[0].manifest else {
        panic!("the door is a moveable")
    };
    let kept = &door.animations[0].kept_exactly;
    assert_eq!(kept.pose_fingerprint.as_deref(), Some("0123456789abcdef"));
    assert_eq!((kept.exact_angles.len(), kept.exact_angles[0].x), (1, 1024));
    assert_eq!(
        kept.keyframe_boxes,
        [BoxBounds {
            min: [-1, -2, -3],
            max: [4, 5, 6]
        }]
    );
    // Written again, they stand under `kept_exactly:`, after what people edit.
    let text = write_yaml(&loaded.objects[0].manifest, "door");
    let (next, kept_at) = (text.find("next:").unwrap(), text.find("kept_exactly:").unwrap());
    assert!(next < kept_at, "{text}");
}

#[test]
fn format_2_keeps_exactness_values_only_under_kept_exactly() {
    let dir = valid_dir();
    write(dir.path(), &[("moveables/door.yaml", DOOR_FORMAT_1)]);
    let e = load(dir.path()).unwrap_err().to_string();
    assert!(e.contains("door.yaml") && e.contains("exact_angles"), "{e}");
}

/// A manifest whose aliases repeat an anchor: `[*a, *a, …]` of `n` aliases of a list of `n`.
fn repeated_anchor(n: usize) -> String {
    let values = vec!["0"; n].join(", ");
    let aliases = vec!["*a"; n].join(", ");
    DOOR.replace(
        "  bones:\n",
        &format!("  padding: &a [{values}]\n  repeated: [{aliases}]\n  bones:\n"),
    )
}

#[test]
fn aliases_that_expand_a_manifest_past_its_size_are_refused() {
    // The billion laughs: nine levels of ten aliases each, a billion values from 300 bytes.
    let mut laughs = String::from("  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..9 {
        let below = format!("*l{}", level - 1);
        laughs += &format!("  l{level}: &l{level} [{}]\n", [below.as_str(); 10].join(", "));
    }
    let billion = DOOR.replace("  bones:\n", &format!("{laughs}  bones:\n"));
    // 3000 aliases of a 3000-value list: 9 million values from 21 kB, which the YAML reader's
    // own limit (100 alias jumps per event) lets through.
    let square = repeated_anchor(3000);
    for (what, text, message) in [
        ("billion laughs", billion, "aliases (`*name`) expand this file"),
        ("repeated anchor", square, "aliases (`*name`) expand this file"),
    ] {
        let dir = valid_dir();
        write(dir.path(), &[("moveables/door.yaml", &text)]);
        let started = std::time::Instant::now();
        let err = load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("door.yaml"), "{what}: {err}");
        assert!(err.contains(message), "{what}: {err}");
        assert!(
            started.elapsed().as_secs_f64() < 1.0,
            "{what}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn aliases_within_the_size_of_the_text_still_load() {
    // 100 aliases of a 100-value list: 10 000 values, as many as the budget gives any file.
    let dir = valid_dir();
    write(dir.path(), &[("moveables/door.yaml", &repeated_anchor(100))]);
    let err = load(dir.path()).unwrap_err().to_string();
    // The values pass the alias budget and reach the schema, which has no such field.
    assert!(err.contains("unknown field `padding`"), "{err}");
    let shared_box = PLANT.replace(
        "visibility_box: { min: [-10, -100, -10], max: [10, 0, 10] }\n  collision_box: { min: [-10, -100, -10], max: [10, 0, 10] }",
        "visibility_box: &box { min: [-10, -100, -10], max: [10, 0, 10] }\n  collision_box: *box",
    );
    assert_ne!(shared_box, PLANT);
    let dir = valid_dir();
    write(dir.path(), &[("statics/plant.yaml", &shared_box)]);
    let loaded = load(dir.path()).unwrap();
    let ObjectManifest::Static(plant) = &loaded.objects[1].manifest else {
        panic!("plant is a static")
    };
    assert_eq!(plant.visibility_box, plant.collision_box);
}
