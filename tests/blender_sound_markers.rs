//! Sound commands as timeline markers in Blender (issue 45), through the extension in bpy 5.0.1
//! (tests/harness/blender_sound_markers.py): an animation's sound shows as a marker of its action
//! named after the sound at its frame, and a marker moved in Blender moves the sound's frame in
//! the built WAD, nothing else.

use wadforge_format::catalog::{sound_name, Game};
use wadforge_format::Command as TrCommand;

use crate::common::extension::{finished, run_script};
use crate::common::files::{read, write_wad};
use crate::common::{s, stdout, wadforge};

const CROCODILE: u32 = 51;
/// The crocodile's animation given a sound, the sound (TR4's catalogue names it), where it plays
/// (from the animation's first frame) and how far the marker is moved.
const ANIMATION: usize = 1;
const SOUND: u16 = 0;
const AT: u16 = 1;
const MOVED: u16 = 3;

#[test]
fn a_marker_moved_in_blender_moves_the_sounds_frame() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut model = wadforge_fixtures::standard();
    let crocodile = model.moveables.iter_mut().find(|m| m.id == CROCODILE).unwrap();
    let animation = &mut crocodile.animations[ANIMATION];
    assert!(
        animation.frame_end >= animation.frame_start + AT + MOVED,
        "the moved sound stays within the animation"
    );
    // First, so that it is the action's first marker (the fixture's own sound follows).
    animation.commands.insert(
        0,
        TrCommand::PlaySound {
            frame: animation.frame_start + AT,
            sound: SOUND,
            on_land: true,
            in_water: false,
        },
    );
    let before = sounds_of(animation);
    let file = write_wad(&tmp.path().join("SOUNDS.WAD"), &model);
    let report = run_script(
        &python,
        "blender_sound_markers.py",
        &file,
        tmp.path(),
        &["051_", &ANIMATION.to_string(), &MOVED.to_string()],
    );
    for step in ["import", "export"] {
        finished(&report, step);
    }
    // The markers: each named after its sound, at its frame from the action's first.
    let marker = |&(frame, sound, _, _): &(u16, u16, bool, bool)| {
        let name = sound_name(Game::Tr4, u32::from(sound)).expect("TR4's catalogue names the sound");
        serde_json::json!([name, frame])
    };
    let mut moved = before.clone();
    moved[0].0 += MOVED;
    assert_eq!(
        report["markers"],
        serde_json::json!(before.iter().map(marker).collect::<Vec<_>>())
    );
    assert_eq!(
        report["moved"],
        serde_json::json!(moved.iter().map(marker).collect::<Vec<_>>())
    );
    assert_eq!(
        report["property_left"], false,
        "the export's property is not left on the action"
    );

    // Built: the first sound plays MOVED frames later, still on land only; the others as they were.
    let out_wad = tmp.path().join("out.wad");
    let built = read(&out_wad);
    let animation = &built
        .moveables
        .iter()
        .find(|m| m.id == CROCODILE)
        .unwrap()
        .animations[ANIMATION];
    assert_eq!(sounds_of(animation), moved);
    // Nothing else changed: the diff names that animation of the crocodile only.
    let diff = wadforge(&["diff", "--json", s(&file), s(&out_wad)]);
    let diff: serde_json::Value = serde_json::from_str(&stdout(&diff)).unwrap();
    let differing: Vec<&serde_json::Value> = diff["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| !o["differences"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(differing.len(), 1, "{differing:#?}");
    assert_eq!(differing[0]["id"], CROCODILE, "{differing:#?}");
    for d in differing[0]["differences"].as_array().unwrap() {
        assert!(d.to_string().contains(&format!("animation {ANIMATION},")), "{d}");
    }
}

/// The sounds `a` plays: frame from its first, sound, on land, in water.
fn sounds_of(a: &wadforge_format::Animation) -> Vec<(u16, u16, bool, bool)> {
    a.commands
        .iter()
        .filter_map(|c| match *c {
            TrCommand::PlaySound {
                frame,
                sound,
                on_land,
                in_water,
            } => Some((frame - a.frame_start, sound, on_land, in_water)),
            _ => None,
        })
        .collect()
}
