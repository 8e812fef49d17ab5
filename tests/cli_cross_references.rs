//! References into another object's animations end to end: the weapon-animation objects of
//! builders' WADs dispatch into LARA's animations by the file's one animation table, and `build`
//! (plain and `--base`) and `copy` keep each on its animation when tables grow or shrink elsewhere.

use std::path::{Path, PathBuf};

use wadforge_fixtures::weapons::{add_weapon_animations, WEAPON_SLOTS};
use wadforge_format::catalog::{self, Game};
use wadforge_format::references::{canonical_starts, resolve};
use wadforge_format::Wad;
use wadforge_manifests::load::parse;
use wadforge_manifests::{AnimationName, ObjectManifest};

use crate::common::files::{read, write_wad};
use crate::common::{assert_same_objects, s, stderr, succeeds, wadforge};

/// A reference of a moveable into another's animation: (animation, reference, target id,
/// target animation, frame).
type CrossReference = (usize, String, u32, usize, u16);

/// The standard fixture with TR4's weapon-animation objects (UZI_ANIM, SIXSHOOTER_ANIM,
/// LARA_REVOLVER_LASER), written at `dir/weapons.wad`.
fn weapons_wad(dir: &Path) -> (Wad, PathBuf) {
    let mut model = wadforge_fixtures::standard();
    add_weapon_animations(&mut model);
    let path = write_wad(&dir.join("weapons.wad"), &model);
    (model, path)
}

fn id_of(slot: &str) -> u32 {
    catalog::moveable_id(Game::Tr4, slot).unwrap()
}

/// Every reference of moveable `id` of `wad` (laid out as `wad::write` writes it) into another
/// moveable's animations.
fn cross_references(wad: &Wad, id: u32) -> Vec<CrossReference> {
    let targets = resolve(&wad.moveables, &canonical_starts(&wad.moveables));
    let i = wad.moveables.iter().position(|m| m.id == id).unwrap();
    let m = &wad.moveables[i];
    let mut found = Vec::new();
    for (a, (animation, t)) in m.animations.iter().zip(&targets[i]).enumerate() {
        let mut add = |what: String, target: Option<wadforge_format::references::AnimationRef>, frame| {
            if let Some(t) = target.filter(|t| t.moveable.0 != i) {
                found.push((a, what, wad.moveables[t.moveable].id, t.animation, frame));
            }
        };
        add("next".into(), t.next, animation.next_frame);
        for (c, (change, ds)) in animation.state_changes.iter().zip(&t.dispatches).enumerate() {
            for (d, (dispatch, &target)) in change.dispatches.iter().zip(ds).enumerate() {
                add(format!("change {c} dispatch {d}"), target, dispatch.next_frame);
            }
        }
    }
    found
}

/// The manifest file of `slot` in the directory `dir`.
fn manifest_of(dir: &Path, slot: &str) -> PathBuf {
    std::fs::read_dir(dir.join("moveables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(&format!("_{slot}.yaml")))
        .unwrap_or_else(|| panic!("no manifest of {slot} in {}", dir.display()))
}

/// Rewrites the manifest at `path` by `edit`.
fn edit_manifest(path: &Path, edit: impl FnOnce(&mut wadforge_manifests::MoveableManifest)) {
    let text = std::fs::read_to_string(path).unwrap();
    let ObjectManifest::Moveable(mut m) = parse::<ObjectManifest>(path, &text).unwrap() else {
        panic!("{} is a static", path.display());
    };
    edit(&mut m);
    let text = wadforge_manifests::write_object_manifest(&ObjectManifest::Moveable(m), "edited");
    std::fs::write(path, text).unwrap();
}

/// UZI_ANIM's manifest without its last animation (the next one's dispatch into it going to the
/// first instead): every table after it shrinks by one.
fn drop_uzis_last_animation(dir: &Path) {
    edit_manifest(&manifest_of(dir, "UZI_ANIM"), |m| {
        let gone = m.animations.pop().unwrap().name;
        let first = m.animations[0].name.clone();
        for a in &mut m.animations {
            for d in a.state_changes.iter_mut().flat_map(|c| &mut c.dispatches) {
                if d.animation == AnimationName::Name(gone.clone()) {
                    d.animation = AnimationName::Name(first.clone());
                }
            }
        }
    });
}

#[test]
fn shrinking_one_objects_animations_leaves_the_others_references_on_laras_animations() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad) = weapons_wad(tmp.path());
    let dir = tmp.path().join("dir");
    succeeds(&["import", "-q", s(&wad), "-o", s(&dir)]);
    drop_uzis_last_animation(&dir);
    let out = tmp.path().join("out.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out)]);
    let built = read(&out);
    for slot in WEAPON_SLOTS {
        let before = cross_references(&model, id_of(slot));
        assert_eq!(before.len(), 2 * 4, "{slot} dispatches into LARA");
        // UZI_ANIM's last animation went, with its references.
        let kept: Vec<CrossReference> = (before.into_iter())
            .filter(|r| slot != "UZI_ANIM" || r.0 < 3)
            .collect();
        assert_eq!(cross_references(&built, id_of(slot)), kept, "{slot}");
    }
}

#[test]
fn build_on_a_base_moves_the_bases_references_with_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad) = weapons_wad(tmp.path());
    let dir = tmp.path().join("uzi");
    succeeds(&["import", "-q", s(&wad), "-o", s(&dir), "--only", "UZI_ANIM"]);
    drop_uzis_last_animation(&dir);
    let out = tmp.path().join("out.wad");
    succeeds(&["build", "-q", s(&dir), "--base", s(&wad), "-o", s(&out)]);
    let built = read(&out);
    for slot in ["SIXSHOOTER_ANIM", "LARA_REVOLVER_LASER"] {
        let (before, after) = (
            cross_references(&model, id_of(slot)),
            cross_references(&built, id_of(slot)),
        );
        assert_eq!(after, before, "{slot}, an object of the base");
    }
    // Everything but UZI_ANIM is the base's, by `wadforge diff`.
    let o = wadforge(&["diff", s(&wad), s(&out)]);
    let report = crate::common::stdout(&o);
    assert!(
        report.contains("1 differs") && report.contains("UZI_ANIM (moveable 2): 3 differences"),
        "{report}"
    );
}

#[test]
fn build_on_a_base_puts_a_new_object_before_the_first_of_a_higher_id() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad) = weapons_wad(tmp.path());
    let six = id_of("SIXSHOOTER_ANIM");
    let base = tmp.path().join("base.wad");
    succeeds(&["remove", s(&wad), "-o", s(&base), "--only", "SIXSHOOTER_ANIM"]);
    let dir = tmp.path().join("six");
    succeeds(&[
        "import",
        "-q",
        s(&wad),
        "-o",
        s(&dir),
        "--only",
        "SIXSHOOTER_ANIM",
    ]);
    let out = tmp.path().join("out.wad");
    succeeds(&["build", "-q", s(&dir), "--base", s(&base), "-o", s(&out)]);
    let built = read(&out);
    let ids = |w: &Wad| w.moveables.iter().map(|m| m.id).collect::<Vec<_>>();
    assert_eq!(ids(&built), ids(&model), "where copy puts it");
    assert_eq!(cross_references(&built, six), cross_references(&model, six));
    assert_same_objects(&wad, &out);
}

#[test]
fn a_target_missing_from_the_output_is_a_warning_and_loops_to_its_own_animation() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad) = weapons_wad(tmp.path());
    let dir = tmp.path().join("uzi");
    // UZI_ANIM wears LARA_SKIN's meshes: the skin comes along, LARA does not.
    let only = "UZI_ANIM,LARA_SKIN,LARA_SKIN_JOINTS";
    succeeds(&["import", "-q", s(&wad), "-o", s(&dir), "--only", only]);
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["build", "-q", s(&dir), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let uzi = id_of("UZI_ANIM");
    let lost = cross_references(&model, uzi);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), lost.len(), "{err}");
    let (a, _, _, k, _) = &lost[0];
    let first = &warnings[0];
    assert!(
        first.contains("UZI_ANIM (moveable 2)")
            && first.contains("002_UZI_ANIM.yaml")
            && first.contains(&format!("animation {a}, state change 1 (state 3), dispatch 0"))
            && first.contains(&format!("named animation {k} of LARA (moveable 0)"))
            && first.contains(&format!("now points at animation {a} itself")),
        "{first}"
    );
    let built = read(&out);
    let m = &built.moveables[0];
    for (a, animation) in m.animations.iter().enumerate() {
        for d in animation.state_changes.iter().skip(1).flat_map(|c| &c.dispatches) {
            assert_eq!(
                (d.next_animation, d.next_frame),
                (a as i32, animation.frame_start)
            );
        }
    }
}

#[test]
fn a_directory_of_schema_2_builds_its_indices_as_it_did() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, wad) = weapons_wad(tmp.path());
    let dir = tmp.path().join("dir");
    succeeds(&["import", "-q", s(&wad), "-o", s(&dir)]);
    // What wadforge wrote before schema 3: another object's animation as an index relative to
    // the object's first animation in the file.
    let starts = canonical_starts(&model.moveables);
    let start_of = |id: u32| starts[model.moveables.iter().position(|m| m.id == id).unwrap()] as i32;
    for slot in WEAPON_SLOTS {
        let owner = start_of(id_of(slot));
        edit_manifest(&manifest_of(&dir, slot), |m| {
            let other = m.animations.iter_mut().flat_map(|a| {
                let dispatches = a.state_changes.iter_mut().flat_map(|c| &mut c.dispatches);
                std::iter::once((&mut a.next.animation, &mut a.next.frame))
                    .chain(dispatches.map(|d| (&mut d.animation, &mut d.frame)))
            });
            for (animation, frame) in other {
                if let AnimationName::Other(o) = *animation {
                    let target = &model.moveables[0].animations[o.index as usize];
                    *frame += i32::from(target.frame_start);
                    *animation = AnimationName::Index(start_of(o.moveable) + o.index as i32 - owner);
                }
            }
        });
    }
    let project = dir.join("wadforge.yaml");
    let text = std::fs::read_to_string(&project).unwrap();
    std::fs::write(&project, text.replace("wadforge: 3", "wadforge: 2")).unwrap();
    let out = tmp.path().join("out.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&out)]);
    assert_same_objects(&wad, &out);
}

#[test]
fn copying_lara_numbered_anew_moves_the_weapons_frames_with_her_animations() {
    let tmp = tempfile::tempdir().unwrap();
    let (model, dest) = weapons_wad(tmp.path());
    // A LARA whose animations start 100 frames later on her timeline.
    let mut shifted = wadforge_fixtures::standard();
    for a in &mut shifted.moveables[0].animations {
        let shift = |f: &mut u16| *f += 100;
        shift(&mut a.frame_start);
        shift(&mut a.frame_end);
        shift(&mut a.next_frame);
        for d in a.state_changes.iter_mut().flat_map(|c| &mut c.dispatches) {
            shift(&mut d.frame_start);
            shift(&mut d.frame_end);
            shift(&mut d.next_frame);
        }
        for c in &mut a.commands {
            if let wadforge_format::Command::PlaySound { frame, .. }
            | wadforge_format::Command::Effect { frame, .. } = c
            {
                shift(frame);
            }
        }
    }
    let src = write_wad(&tmp.path().join("lara.wad"), &shifted);
    let out = tmp.path().join("out.wad");
    succeeds(&["copy", s(&src), s(&dest), "-o", s(&out), "--only", "LARA"]);
    let built = read(&out);
    // A frame of LARA's animation moves with it; one outside it (65464) names none and stays.
    let lara = &model.moveables[0].animations;
    let mut moved_frames = 0;
    for slot in WEAPON_SLOTS {
        let moved: Vec<CrossReference> = cross_references(&model, id_of(slot))
            .into_iter()
            .map(|(a, what, id, k, frame)| {
                let within = (lara[k].frame_start..=lara[k].frame_end).contains(&frame);
                moved_frames += usize::from(within);
                (a, what, id, k, if within { frame + 100 } else { frame })
            })
            .collect();
        assert_eq!(cross_references(&built, id_of(slot)), moved, "{slot}");
    }
    assert_eq!(
        moved_frames,
        3 * 4,
        "one dispatch an animation names a frame of LARA's"
    );
}

#[test]
fn check_finds_no_error_in_weapon_objects_whose_state_changes_the_game_never_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, wad) = weapons_wad(tmp.path());
    let o = wadforge(&["check", s(&wad)]);
    let report = crate::common::stdout(&o);
    assert!(o.status.success(), "{report}{}", stderr(&o));
    assert!(
        report.contains("weapons.wad: 0 errors, 0 warnings, 36 notes"),
        "{report}"
    );
}
