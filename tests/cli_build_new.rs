//! `wadforge build DIR --new MODEL.glb=SLOT`: a new object made elsewhere (a rigged glTF no
//! wadforge wrote) joins a manifest directory's build without a manifest of its own (issue 43).

use std::path::Path;

use wadforge_format::catalog::{moveable_id, Game};

use crate::common::files::{read, standard_wad};
use crate::common::rigged_figure::rigged_figure;
use crate::common::{assert_same_objects, s, stderr, succeeds, wadforge};

/// The standard fixture imported into `dir/std`, and the figure written as `dir/figure.glb`.
fn directory_and_figure(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let wad = standard_wad(dir);
    let out = dir.join("std");
    succeeds(&["import", s(&wad), "-o", s(&out), "--quiet"]);
    let figure = dir.join("figure.glb");
    std::fs::write(&figure, rigged_figure(true, 1.0)).unwrap();
    (out, figure)
}

#[test]
fn build_new_adds_the_model_in_its_slot_and_keeps_the_directory_objects() {
    let dir = tempfile::tempdir().unwrap();
    let (manifests, figure) = directory_and_figure(dir.path());
    let (plain, with_new) = (dir.path().join("plain.wad"), dir.path().join("new.wad"));
    succeeds(&["build", s(&manifests), "-o", s(&plain), "--quiet"]);
    let new = format!("{}=ANIMATING1", s(&figure));
    succeeds(&[
        "build",
        s(&manifests),
        "-o",
        s(&with_new),
        "--new",
        &new,
        "--quiet",
    ]);
    let id = moveable_id(Game::Tr4, "ANIMATING1").unwrap();
    let (plain_wad, new_wad) = (read(&plain), read(&with_new));
    assert!(plain_wad.moveables.iter().all(|m| m.id != id));
    let added = new_wad
        .moveables
        .iter()
        .find(|m| m.id == id)
        .expect("ANIMATING1 added");
    assert_eq!(
        (added.meshes.len(), added.animations.len()),
        (4, 1),
        "a mesh per joint, its animation"
    );
    assert_eq!(new_wad.moveables.len(), plain_wad.moveables.len() + 1);
    assert_eq!(new_wad.statics.len(), plain_wad.statics.len());
    let was = std::fs::read_to_string(with_new.with_extension("was")).unwrap();
    assert_eq!(
        was.lines().count(),
        new_wad.moveables.len() + new_wad.statics.len()
    );
    assert!(was.lines().any(|l| l == "ANIMATING1"), "{was}");
    // The directory's objects are exactly those built without the new one.
    let only_old = dir.path().join("only_old.wad");
    succeeds(&["remove", s(&with_new), "--only", "ANIMATING1", "-o", s(&only_old)]);
    assert_same_objects(&plain, &only_old);
}

#[test]
fn build_new_refuses_a_slot_the_directory_holds_and_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let (manifests, figure) = directory_and_figure(dir.path());
    let out = dir.path().join("out.wad");
    let held = read(&standard_wad(dir.path())).moveables[0].id.to_string();
    for (slot, says) in [(held.as_str(), "already holds"), ("ANIMATINGG1", "did you mean")] {
        let new = format!("{}={slot}", s(&figure));
        let o = wadforge(&["build", s(&manifests), "-o", s(&out), "--new", &new]);
        assert!(!o.status.success(), "--new ...={slot} was accepted");
        assert!(stderr(&o).contains(says), "{slot}: {}", stderr(&o));
        assert!(!out.exists(), "nothing is written when a new object is refused");
    }
}
