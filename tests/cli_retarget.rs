//! `wadforge retarget` (issue 44): a Mixamo-like humanoid's walk (22 joints, rest rotations of
//! their own, under a scaled armature) given to the fixture's LARA (15 bones). Her legs swing as
//! the source's do, compared in world space; her own animations and every other object are
//! unchanged; a map leaves the bones it does not name at rest; the manifest directory written
//! shows one more action in Blender.

use std::path::{Path, PathBuf};
use std::process::Command;

use wadforge_format::pose::pose;
use wadforge_format::{Moveable, Wad};

use crate::common::files::{read, repo, write_wad};
use crate::common::walking_humanoid::{
    thigh_direction, walking_humanoid, walking_humanoid_facing, FORWARD_METRES, HIP_HEIGHT_METRES, KEYFRAMES,
    SWING,
};
use crate::common::{assert_same_objects, s, stderr, succeeds, wadforge};

const LARA: u32 = 0;
const LEFT_THIGH: usize = 1;
const LEFT_FOOT: usize = 3;
const RIGHT_THIGH: usize = 4;
/// The source's ankles' rest height over its floor, in metres (walking_humanoid's LeftFoot).
const SOURCE_ANKLE_METRES: f64 = 0.08;

/// The fixture WAD and the humanoid GLB written into `dir`.
fn inputs(dir: &Path) -> (Wad, PathBuf, PathBuf) {
    let model = wadforge_fixtures::standard();
    let wad = write_wad(&dir.join("lara.wad"), &model);
    let source = dir.join("walk.glb");
    std::fs::write(&source, walking_humanoid()).unwrap();
    (model, wad, source)
}

fn lara(wad: &Wad) -> &Moveable {
    wad.moveables.iter().find(|m| m.id == LARA).unwrap()
}

/// A thigh's forward swing in radians: its direction's turn about X away from straight down
/// (glTF axes: +Y up, +Z forward).
fn swing(direction: [f64; 3]) -> f64 {
    direction[2].atan2(-direction[1])
}

/// The direction (glTF axes) of Lara's thigh `thigh` (to the shin below it) in `keyframe`.
fn lara_thigh(lara: &Moveable, thigh: usize, keyframe: &wadforge_format::Keyframe) -> [f64; 3] {
    let world = pose(&lara.links, keyframe);
    let at = |b: usize| [0, 1, 2].map(|i| world[b].m[i][3]);
    let (hip, knee) = (at(thigh), at(thigh + 1));
    // TR axes (+Y down, X the other way) to glTF's.
    [-(knee[0] - hip[0]), -(knee[1] - hip[1]), knee[2] - hip[2]]
}

#[test]
fn a_mixamo_walk_swings_laras_legs_as_the_source_does_and_leaves_her_own_animations() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad, source) = inputs(tmp.path());
    let out = tmp.path().join("walks.wad");
    let report = succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
    ]);
    for line in [
        "mapped: HIPS <- mixamorig:Hips",
        "mapped: LEFT_THIGH <- mixamorig:LeftUpLeg",
        "mapped: RIGHT_SHIN <- mixamorig:RightLeg",
        "mapped: TORSO <- mixamorig:Spine2",
        "(Walk)",
    ] {
        assert!(report.contains(line), "{line} not in:\n{report}");
    }
    let built = read(&out);
    let (before, after) = (lara(&model), lara(&built));
    assert_eq!(after.animations.len(), before.animations.len() + 1);
    let walk = after.animations.last().unwrap();
    let index = after.animations.len() - 1;
    assert_eq!(
        walk.keyframes.len(),
        KEYFRAMES,
        "30 keyframes a second, both ends"
    );
    assert_eq!(
        (walk.next_animation, walk.next_frame),
        (index as i32, walk.frame_start),
        "itself next"
    );
    assert!(
        before.animations.iter().all(|a| a.state != walk.state),
        "a state of its own"
    );

    assert_legs_swing_as_the_source(after, walk);

    // The root's forward motion is the speed, scaled to her legs (hips to ankle).
    let legs = {
        let bind = pose(&after.links, &Default::default());
        bind[LEFT_FOOT].m[1][3] - bind[0].m[1][3]
    };
    let units_per_metre = legs / (HIP_HEIGHT_METRES - SOURCE_ANKLE_METRES);
    let speed = FORWARD_METRES * units_per_metre / (KEYFRAMES - 1) as f64;
    assert!(
        (walk.speed.to_f64() - speed).abs() < 0.02 * speed,
        "speed {} for {speed}",
        walk.speed.to_f64()
    );
    // The hips stand as high over her floor as the source's over its own, in her proportions.
    let hips = -f64::from(walk.keyframes[0].offset[1]);
    let standing = HIP_HEIGHT_METRES * units_per_metre;
    assert!(
        (hips - standing).abs() < 0.05 * standing,
        "hips at {hips}, {standing} wanted"
    );

    // Without the new animation, the file's objects are the input's exactly.
    let mut without = built.clone();
    let l = without.moveables.iter_mut().find(|m| m.id == LARA).unwrap();
    l.animations.truncate(before.animations.len());
    let stripped = write_wad(&tmp.path().join("stripped.wad"), &without);
    assert_same_objects(&wad, &stripped);
}

/// Each of Lara's thighs in each keyframe of `walk` turns from its rest direction as the source's
/// does from straight down, in world space, within 1.5°; and they do swing.
fn assert_legs_swing_as_the_source(after: &Moveable, walk: &wadforge_format::Animation) {
    let rest = |thigh: usize| swing(lara_thigh(after, thigh, &Default::default()));
    let mut largest = 0.0f64;
    for (k, keyframe) in walk.keyframes.iter().enumerate() {
        for (thigh, left) in [(LEFT_THIGH, true), (RIGHT_THIGH, false)] {
            let wanted = swing(thigh_direction(left, k));
            let made = swing(lara_thigh(after, thigh, keyframe)) - rest(thigh);
            assert!(
                (made - wanted).abs() < 1.5f64.to_radians(),
                "keyframe {k}, thigh {thigh}: Lara's swings {:.2}°, the source's {:.2}°",
                made.to_degrees(),
                wanted.to_degrees()
            );
            largest = largest.max(made.abs());
        }
    }
    assert!(
        largest > 0.8 * SWING,
        "the legs swing: {:.1}°",
        largest.to_degrees()
    );
}

#[test]
fn a_source_facing_the_other_way_is_turned_to_face_as_lara_does() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad, _) = inputs(tmp.path());
    let source = tmp.path().join("back.glb");
    std::fs::write(&source, walking_humanoid_facing(true)).unwrap();
    let out = tmp.path().join("walks.wad");
    let report = succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
    ]);
    assert!(report.contains("faces −Z"), "{report}");
    let built = read(&out);
    let (before, after) = (lara(&model), lara(&built));
    let walk = &after.animations[before.animations.len()];
    assert_legs_swing_as_the_source(after, walk);
    // As fast forward as the same walk facing +Z.
    let (front, front_out) = (tmp.path().join("front.glb"), tmp.path().join("front.wad"));
    std::fs::write(&front, walking_humanoid()).unwrap();
    succeeds(&[
        "retarget",
        s(&front),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&front_out),
        "-q",
    ]);
    let ahead = read(&front_out);
    let speed = lara(&ahead).animations[before.animations.len()].speed.to_f64();
    assert!(
        speed > 0.0 && (walk.speed.to_f64() - speed).abs() < 0.01 * speed,
        "{} for {speed}",
        walk.speed.to_f64()
    );
}

#[test]
fn a_map_drives_the_bones_it_names_and_leaves_the_others_at_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, wad, source) = inputs(tmp.path());
    let map = tmp.path().join("legs.yaml");
    std::fs::write(
        &map,
        "mixamorig:Hips: HIPS\nLeftUpLeg: LEFT_THIGH\nmixamorig:RightUpLeg: RIGHT_THIGH\n",
    )
    .unwrap();
    let out = tmp.path().join("legs.wad");
    let report = succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
        "--map",
        s(&map),
    ]);
    assert!(
        report.contains("mapped: LEFT_THIGH <- mixamorig:LeftUpLeg"),
        "{report}"
    );
    let rest_line = report
        .lines()
        .find(|l| l.starts_with("at rest: "))
        .unwrap_or_default();
    let at_rest: Vec<&str> = rest_line.trim_start_matches("at rest: ").split(", ").collect();
    assert_eq!(at_rest.len(), 12, "{report}");
    let built = read(&out);
    let lara = lara(&built);
    let walk = lara.animations.last().unwrap();
    let names = wadforge_format::catalog::LARA_MESHES;
    for bone in &at_rest {
        let b = names.iter().position(|n| n == bone).unwrap();
        assert!(
            walk.keyframes
                .iter()
                .all(|k| (k.rotations[b].x, k.rotations[b].y, k.rotations[b].z) == (0, 0, 0)),
            "{bone} turns"
        );
    }
    assert!(
        walk.keyframes.iter().any(|k| k.rotations[LEFT_THIGH].x != 0),
        "LEFT_THIGH swings"
    );

    // A map naming a bone the target does not have is refused, saying which bones it has.
    std::fs::write(&map, "mixamorig:Hips: PELVIS\n").unwrap();
    let o = wadforge(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
        "--map",
        s(&map),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no bone of the target") && stderr(&o).contains("LEFT_THIGH"),
        "{}",
        stderr(&o)
    );
}

/// The `.glb` of LARA in the manifest directory `dir`.
fn lara_glb(dir: &Path) -> PathBuf {
    let found = wadforge_files::files_under(dir).unwrap();
    found
        .into_iter()
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_uppercase();
            name.ends_with(".GLB") && name.contains("LARA") && !name.contains("SKIN")
        })
        .unwrap_or_else(|| panic!("no LARA glb in {}", dir.display()))
}

/// The actions Blender makes of a glTF file (tests/harness/blender_inspect.py).
fn blender_actions(python: &Path, file: &Path) -> Vec<String> {
    let out = Command::new(python)
        .arg(repo().join("tests/harness/blender_inspect.py"))
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (report["actions"].as_array().unwrap().iter())
        .map(|a| a["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_manifest_directory_written_imports_into_blender_with_one_more_action() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, wad, source) = inputs(tmp.path());
    let (before, after) = (tmp.path().join("before"), tmp.path().join("after"));
    succeeds(&["import", s(&wad), "-o", s(&before)]);
    succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&after),
    ]);
    assert!(lara_glb(&after).exists());
    let Some(python) = wadforge_fixtures::harness::python() else {
        eprintln!("skipped the Blender check: the harness is not installed (tests/harness/setup.sh)");
        return;
    };
    let (old, new) = (
        blender_actions(&python, &lara_glb(&before)),
        blender_actions(&python, &lara_glb(&after)),
    );
    assert_eq!(new.len(), old.len() + 1, "before: {old:?}\nafter: {new:?}");
    assert!(new.iter().any(|a| a.contains("Walk")), "{new:?}");
}

#[test]
fn a_reference_of_another_object_into_laras_animations_keeps_its_target_as_her_table_grows() {
    use wadforge_format::references::{canonical_starts, resolve};
    let tmp = tempfile::tempdir().unwrap();
    let mut model = wadforge_fixtures::standard();
    let lara_at = model.moveables.iter().position(|m| m.id == LARA).unwrap();
    let crocodile_at = model.moveables.iter().position(|m| m.id == 51).unwrap();
    assert!(
        lara_at < crocodile_at,
        "Lara's table grows before the crocodile's"
    );
    // The crocodile's first animation goes on to Lara's last, through the file's one table.
    let last = model.moveables[lara_at].animations.len() - 1;
    let starts = canonical_starts(&model.moveables);
    let relative = (starts[lara_at] + last) as i32 - starts[crocodile_at] as i32;
    model.moveables[crocodile_at].animations[0].next_animation = relative;
    let wad = write_wad(&tmp.path().join("lara.wad"), &model);
    let source = tmp.path().join("walk.glb");
    std::fs::write(&source, walking_humanoid()).unwrap();
    let out = tmp.path().join("walks.wad");
    let report = succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
    ]);
    let line = format!("CROCODILE (moveable 51) #0 next: {relative} -> {}", relative - 1);
    assert!(report.contains(&line), "{line} not in:\n{report}");
    let built = read(&out);
    let targets = resolve(&built.moveables, &canonical_starts(&built.moveables));
    let target = targets[crocodile_at][0].next.unwrap();
    assert_eq!(
        (target.moveable.0, target.animation),
        (lara_at, last),
        "still Lara's last own animation"
    );
}

#[test]
fn a_manifest_directory_takes_the_animations_named_by_only_and_refuses_others() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad, source) = inputs(tmp.path());
    let dir = tmp.path().join("lara");
    succeeds(&["import", s(&wad), "-o", s(&dir)]);
    let out = tmp.path().join("walks.wad");
    let args = |only: &'static str| {
        let v = [
            "retarget",
            s(&source),
            "--onto",
            s(&dir),
            "--object",
            "LARA",
            "-o",
            s(&out),
            "--only",
            only,
        ];
        v.map(str::to_string)
    };
    let run = |only| wadforge(&args(only).iter().map(String::as_str).collect::<Vec<_>>());
    let o = run("Walk");
    assert!(o.status.success(), "{}", stderr(&o));
    let built = read(&out);
    assert_eq!(lara(&built).animations.len(), lara(&model).animations.len() + 1);
    let o = run("Run");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("Run") && stderr(&o).contains("Walk"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_wad2_written_names_the_new_animation_after_its_source() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad, source) = inputs(tmp.path());
    let out = tmp.path().join("walks.wad2");
    succeeds(&[
        "retarget",
        s(&source),
        "--onto",
        s(&wad),
        "--object",
        "LARA",
        "-o",
        s(&out),
    ]);
    let document = wadforge_format::wad2::read_document(&std::fs::read(&out).unwrap()).unwrap();
    let lara_document = document
        .moveables
        .iter()
        .find(|m| m.id == i64::from(LARA))
        .unwrap();
    let own = lara(&model).animations.len();
    assert_eq!(lara_document.animations.len(), own + 1);
    assert_eq!(lara_document.animations[own].name.as_deref(), Some("Walk"));
}

#[test]
fn a_source_without_a_skin_or_with_an_endless_animation_is_refused_saying_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, wad, _) = inputs(tmp.path());
    let out = tmp.path().join("walks.wad");
    let retarget = |source: &Path| {
        wadforge(&[
            "retarget",
            s(source),
            "--onto",
            s(&wad),
            "--object",
            "LARA",
            "-o",
            s(&out),
        ])
    };
    let unskinned = tmp.path().join("statue.glb");
    std::fs::write(
        &unskinned,
        crate::common::rigged_figure::rigged_figure(false, 1.0),
    )
    .unwrap();
    let o = retarget(&unskinned);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no skin") && stderr(&o).contains("armature"),
        "{}",
        stderr(&o)
    );
    // An hour-long animation asks for 108 000 keyframes: refused before any is sampled.
    let endless = tmp.path().join("endless.glb");
    std::fs::write(
        &endless,
        crate::common::rigged_figure::rigged_figure(true, 3600.0),
    )
    .unwrap();
    let o = retarget(&endless);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("32768"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing written");
}
