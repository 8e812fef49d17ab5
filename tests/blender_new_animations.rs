//! New animations from Blender (issue 43), through the extension in bpy 5.0.1
//! (tests/harness/blender_new_animations.py): an action copied from another and changed becomes a
//! new animation, with the state and speed set in the extension's panel and a state change to it
//! set on another action; an action made longer builds longer; no YAML is edited, and a second
//! import of the built WAD shows both.

use crate::common::extension::{finished, run_script};
use crate::common::files::{read, write_wad};

const CROCODILE: u32 = 51;

#[test]
fn a_copied_action_and_a_longer_one_build_and_come_back_with_no_yaml_edited() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let model = wadforge_fixtures::standard();
    let file = write_wad(&tmp.path().join("STANDARD.WAD"), &model);
    let report = run_script(
        &python,
        "blender_new_animations.py",
        &file,
        tmp.path(),
        &["051_", "mesh_01"],
    );
    for step in ["import", "export", "second_import"] {
        finished(&report, step);
    }
    let before = &model
        .moveables
        .iter()
        .find(|m| m.id == CROCODILE)
        .unwrap()
        .animations;
    let built = read(&tmp.path().join("out.wad"));
    let after = &built
        .moveables
        .iter()
        .find(|m| m.id == CROCODILE)
        .unwrap()
        .animations;

    // The copy of animation 1, turned at its second key: appended, with the panel's values.
    assert_eq!(after.len(), before.len() + 1);
    let new = after.last().unwrap();
    let index = (after.len() - 1) as i32;
    assert_eq!((new.state, new.speed.to_f64()), (77, 7.5));
    assert_eq!(
        (new.next_animation, new.next_frame),
        (index, new.frame_start),
        "next: itself"
    );
    let ticks = (before[1].keyframes.len() - 1) * usize::from(before[1].frame_duration);
    assert_eq!(
        new.keyframes.len(),
        ticks + 1,
        "one keyframe a tick over the copied action's length"
    );
    let bone = 1;
    assert_eq!(
        new.keyframes[0].rotations[bone],
        before[1].keyframes[0].rotations[bone]
    );
    assert_ne!(
        new.keyframes[1].rotations[bone], after[1].keyframes[1].rotations[bone],
        "the copy was turned"
    );
    // Animation 0's action dispatches state 77 to it.
    let change = after[0]
        .state_changes
        .iter()
        .find(|c| c.state == 77)
        .expect("a state change 77");
    assert_eq!(change.dispatches[0].next_animation, index);

    // Animation 2's action, ten keys (of one tick) longer: ten keyframes more, its range too.
    let ends = &report["lengthened"]["ends"];
    assert_eq!(ends[1].as_f64().unwrap() - ends[0].as_f64().unwrap(), 10.0);
    assert_eq!(before[2].frame_duration, 1);
    assert_eq!(after[2].keyframes.len(), before[2].keyframes.len() + 10);
    assert_eq!(after[2].played_keyframes(), after[2].keyframes.len());

    // No YAML edited: the first directory's manifest still has its own animations only.
    let first = wadforge_manifests::load(&tmp.path().join("first")).unwrap();
    let second = wadforge_manifests::load(&tmp.path().join("second")).unwrap();
    let animations = |dir: &wadforge_manifests::ManifestDir| {
        dir.objects
            .iter()
            .find_map(|o| match &o.manifest {
                wadforge_manifests::ObjectManifest::Moveable(m) if m.id == CROCODILE => {
                    Some(m.animations.clone())
                }
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(animations(&first).len(), before.len());
    // The second import shows both: the new animation with its state and speed, the longer one.
    let again = animations(&second);
    assert_eq!(again.len(), before.len() + 1);
    let shown = again.last().unwrap();
    assert_eq!(
        (shown.state.id, shown.speed, shown.frames),
        (77, 7.5, new.frame_end - new.frame_start + 1)
    );
    let longer = before[2].frame_end - before[2].frame_start + 1 + 10;
    assert_eq!(again[2].frames, longer, "ten frames longer");
    let actions = report["second_actions"].as_array().unwrap();
    assert_eq!(actions.len(), before.len() + 1, "{actions:?}");
    assert!(
        actions.iter().any(|a| a.as_str() == Some(shown.name.as_str())),
        "{actions:?}"
    );
}
