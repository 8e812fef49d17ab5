//! New objects from Blender and exports of changed objects only (issue 43), through the extension
//! in bpy 5.0.1 (tests/harness/blender_new_objects.py): a rigged object made from scratch (4 bones,
//! a skinned textured mesh, two actions) named ANIMATING1 in a scene holding an imported WAD
//! exports as a new moveable of that slot, and a box given ROCK9's slot in the Object properties
//! panel as a new static; the imported objects unchanged and none of their glTF files rewritten;
//! after one object is edited, or one texture painted, only their files are; a mesh named after
//! no slot stops the export with what to do.

use wadforge_format::catalog::{moveable_id, static_id, Game};

use crate::common::extension::{finished, run_script};
use crate::common::files::{read, write_wad};
use crate::common::{assert_same_objects, s, succeeds};

#[test]
fn a_rigged_object_made_in_blender_exports_as_a_new_moveable_and_only_edited_files_are_rewritten() {
    let Some(python) = wadforge_fixtures::harness::python() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let file = write_wad(&tmp.path().join("STANDARD.WAD"), &wadforge_fixtures::standard());
    let report = run_script(
        &python,
        "blender_new_objects.py",
        &file,
        tmp.path(),
        &["new", "051_", "mesh_01"],
    );
    for step in ["import", "export", "edited_export"] {
        finished(&report, step);
    }

    // The new object: its slot from its name, a TR mesh per bone, an animation per action.
    let built = read(&tmp.path().join("out.wad"));
    let id = moveable_id(Game::Tr4, "ANIMATING1").unwrap();
    let new = built
        .moveables
        .iter()
        .find(|m| m.id == id)
        .expect("ANIMATING1 exported");
    assert_eq!((new.meshes.len(), new.animations.len()), (4, 2), "{report}");
    // The box's slot from the panel's field, whatever its name.
    let rock = static_id(Game::Tr4, "ROCK9").unwrap();
    assert!(built.statics.iter().any(|st| st.id == rock), "ROCK9 exported");
    assert_eq!(
        report["new_files"],
        serde_json::json!(["ANIMATING1.glb", "ROCK9.glb"])
    );
    // The imported objects as the file holds them, and none of their glTF files rewritten.
    let without_new = tmp.path().join("without_new.wad");
    let out_wad = tmp.path().join("out.wad");
    succeeds(&[
        "remove",
        s(&out_wad),
        "--only",
        "ANIMATING1,ROCK9",
        "-o",
        s(&without_new),
        "-q",
    ]);
    assert_same_objects(&file, &without_new);
    assert_eq!(report["export_rewrote"], serde_json::json!([]), "{report}");

    // One object edited: its file alone rewritten.
    assert_eq!(
        report["edited_export_rewrote"],
        serde_json::json!(["moveables/051_CROCODILE.glb"]),
        "{report}"
    );
    let edited = read(&tmp.path().join("edited.wad"));
    let crocodile = |wad: &wadforge_format::Wad| wad.moveables.iter().find(|m| m.id == 51).unwrap().clone();
    assert_ne!(
        crocodile(&edited).animations[0],
        crocodile(&built).animations[0],
        "the turn is built"
    );

    // A texel painted: exactly the objects whose materials show that image are rewritten.
    finished(&report, "painted_export");
    assert!(
        !report["painted_users"].as_array().unwrap().is_empty(),
        "{report}"
    );
    assert_eq!(report["painted_rewrote"], report["painted_users"], "{report}");

    // A mesh named after no slot stops the export, saying how to name it; nothing is written.
    let refused = &report["unknown_slot_export"];
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(refused["result"].is_null(), "{report}");
    assert!(
        message.contains("NOT_A_SLOT is no slot") && message.contains("rename the object"),
        "{message}"
    );
    assert!(!tmp.path().join("unknown.wad").exists());

    // Imported objects side by side, none at another's place; the frame range is an action's.
    let xs: Vec<f64> = (report["layout_x"].as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    let range = &report["frame_range"];
    assert!(
        range[1].as_i64().unwrap() > range[0].as_i64().unwrap(),
        "{report}"
    );
}
