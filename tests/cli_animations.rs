//! `wadforge animations` end to end: an animation pack of one fixture Lara brought into another's,
//! appended or over her own, and what it refuses.

use std::path::Path;

use wadforge_format::references::{canonical_starts, resolve, AnimationRef};
use wadforge_format::Wad;

use crate::common::files::{read, write_wad};
use crate::common::{assert_same_objects, s, stderr, stdout, succeeds, wadforge};

/// Where each reference of animation `a` of the first moveable (Lara) points: (animation, frames
/// from its first frame), the next animation first, then each dispatch.
fn links_of(wad: &Wad, a: usize) -> Vec<(usize, i32)> {
    let targets = &resolve(&wad.moveables, &canonical_starts(&wad.moveables))[0][a];
    let animations = &wad.moveables[0].animations;
    let at = |t: Option<AnimationRef>, frame: u16| {
        let t = t.expect("a target in the file").animation;
        (t, i32::from(frame) - i32::from(animations[t].frame_start))
    };
    let mut links = vec![at(targets.next, animations[a].next_frame)];
    for (change, ts) in animations[a].state_changes.iter().zip(&targets.dispatches) {
        links.extend(
            change
                .dispatches
                .iter()
                .zip(ts)
                .map(|(d, &t)| at(t, d.next_frame)),
        );
    }
    links
}

/// `wad` with Lara's animations cut back to her first `count`, written as `path`.
fn with_lara_animations(path: &Path, wad: &Wad, count: usize) -> std::path::PathBuf {
    let mut cut = wad.clone();
    cut.moveables[0].animations.truncate(count);
    write_wad(path, &cut)
}

fn assert_read_by_other_tools(path: &Path) {
    wadforge_fixtures::assert_other_tools_read_as_the_game(
        &path.display().to_string(),
        &std::fs::read(path).unwrap(),
    );
}

#[test]
fn eleven_animations_of_one_lara_come_into_another_with_their_keyframes_and_links_and_hers_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = write_wad(&tmp.path().join("pack.wad"), &wadforge_fixtures::tr4_shaped());
    let lara = write_wad(&tmp.path().join("lara.wad"), &wadforge_fixtures::standard());
    let out = tmp.path().join("out.wad");
    // The third set of the pack's twelve but its death: each keyframe a little apart from hers.
    let report = succeeds(&[
        "animations",
        s(&pack),
        s(&lara),
        "--object",
        "LARA",
        "--only",
        "24-34",
        "-o",
        s(&out),
    ]);
    let (pack, lara_model, written) = (read(&pack), read(&lara), read(&out));
    let own = lara_model.moveables[0].animations.len();
    assert_eq!(written.moveables[0].animations.len(), own + 11);
    for (n, from) in (24..=34).enumerate() {
        let to = own + n;
        assert!(report.contains(&format!("SRC#{from} -> DEST#{to}\n")), "{report}");
        let (was, copy) = (
            &pack.moveables[0].animations[from],
            &written.moveables[0].animations[to],
        );
        assert_eq!(copy.keyframes, was.keyframes, "animation {from}'s keyframes");
        assert_ne!(copy.keyframes, lara_model.moveables[0].animations[n].keyframes);
        // Links among the eleven name the copies, as far into them as before; the others name
        // an animation of hers, which the report lists.
        for ((target, frames), (was_target, was_frames)) in
            links_of(&written, to).into_iter().zip(links_of(&pack, from))
        {
            if (24..=34).contains(&was_target) {
                assert_eq!(
                    (target, frames),
                    (was_target - 24 + own, was_frames),
                    "animation {from}"
                );
            } else {
                assert!(target < own, "animation {from} names {target}");
                let state = lara_model.moveables[0].animations[target].state;
                assert_eq!(
                    state, pack.moveables[0].animations[was_target].state,
                    "animation {from}"
                );
                let line = format!("by state {state}: DEST#{to} ");
                assert!(report.contains(&line), "{line} in {report}");
            }
        }
    }
    assert!(
        report.lines().filter(|l| l.starts_with("renumbered: ")).count() > 20,
        "{report}"
    );
    // Her own animations and every other object, by `wadforge diff`: the output cut back to her
    // own animations is the destination; whole, it is not.
    let cut = with_lara_animations(&tmp.path().join("cut.wad"), &written, own);
    assert_same_objects(&lara, &cut);
    assert_eq!(wadforge(&["diff", s(&lara), s(&out)]).status.code(), Some(1));
    assert_read_by_other_tools(&out);
    // As a Wad2 too: Lara with the eleven copies.
    let wad2 = tmp.path().join("out.wad2");
    succeeds(&[
        "animations",
        s(&tmp.path().join("pack.wad")),
        s(&lara),
        "--object",
        "0",
        "--only",
        "24-34",
        "-o",
        s(&wad2),
        "-q",
    ]);
    let o = wadforge(&["diff", s(&out), s(&wad2), "--animation"]);
    assert!(stdout(&o).contains("LARA (moveable 0)"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("animation count"), "{}", stdout(&o));
}

#[test]
fn replace_puts_the_pack_over_the_same_indices_and_links_into_them_keep_their_index() {
    let tmp = tempfile::tempdir().unwrap();
    let lara_model = wadforge_fixtures::standard();
    let mut pack_model = lara_model.clone();
    for a in &mut pack_model.moveables[0].animations {
        a.keyframes.iter_mut().for_each(|k| k.offset[1] -= 7);
    }
    let pack = write_wad(&tmp.path().join("pack.wad"), &pack_model);
    let lara = write_wad(&tmp.path().join("lara.wad"), &lara_model);
    let out = tmp.path().join("out.wad");
    let report = succeeds(&[
        "animations",
        s(&pack),
        s(&lara),
        "--object",
        "LARA",
        "--only",
        "0-1,4",
        "--replace",
        "-o",
        s(&out),
    ]);
    let written = read(&out);
    let (mine, theirs) = (
        &lara_model.moveables[0].animations,
        &written.moveables[0].animations,
    );
    assert_eq!(theirs.len(), mine.len());
    for (a, animation) in theirs.iter().enumerate() {
        let expected = if [0, 1, 4].contains(&a) {
            &pack_model
        } else {
            &lara_model
        };
        assert_eq!(
            animation.keyframes, expected.moveables[0].animations[a].keyframes,
            "animation {a}"
        );
        assert_eq!(
            links_of(&written, a),
            links_of(expected, a),
            "animation {a}'s links"
        );
    }
    assert!(report.contains("SRC#4 -> DEST#4"), "{report}");
    assert!(report.contains("kept by index: "), "{report}");
    // The others are hers, by `wadforge diff`: her replaced animations put back, the output is her.
    let mut back = written.clone();
    for a in [0, 1, 4] {
        back.moveables[0].animations[a] = mine[a].clone();
    }
    assert_same_objects(&lara, &write_wad(&tmp.path().join("back.wad"), &back));
    assert_read_by_other_tools(&out);
}

#[test]
fn other_skeletons_indices_past_the_lists_and_an_input_as_output_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let lara_model = wadforge_fixtures::standard();
    let lara = write_wad(&tmp.path().join("lara.wad"), &lara_model);
    let mut shorter = lara_model.clone();
    let m = &mut shorter.moveables[0];
    m.meshes.pop();
    m.links.pop();
    for k in m.animations.iter_mut().flat_map(|a| a.keyframes.iter_mut()) {
        k.rotations.pop();
    }
    let shorter = write_wad(&tmp.path().join("shorter.wad"), &shorter);
    let pack = write_wad(&tmp.path().join("pack.wad"), &wadforge_fixtures::tr4_shaped());
    let out = tmp.path().join("out.wad");
    let refused = |args: &[&str], expected: &[&str]| {
        let o = wadforge(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        for e in expected {
            assert!(stderr(&o).contains(e), "{args:?}: {e} in {}", stderr(&o));
        }
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    };
    let args = |src: &Path, only: &str| {
        [
            "animations",
            s(src),
            s(&lara),
            "--object",
            "LARA",
            "--only",
            only,
            "-o",
            s(&out),
        ]
        .map(String::from)
    };
    let run = |a: [String; 9], extra: &[&str], expected: &[&str]| {
        let mut all: Vec<&str> = a.iter().map(String::as_str).collect();
        all.extend(extra);
        refused(&all, expected);
    };
    run(
        args(&shorter, "0"),
        &[],
        &["14 meshes", "has 15", "as many meshes"],
    );
    run(args(&lara, "3,12"), &[], &["animation 12", "has 12 animations"]);
    run(
        args(&pack, "10-20"),
        &["--replace"],
        &["--replace names animation 12", "has 12 animations"],
    );
    run(args(&pack, "4-2"), &[], &["e.g. --only 12,40-45"]);
    let o = wadforge(&[
        "animations",
        s(&pack),
        s(&lara),
        "--object",
        "LARA",
        "--only",
        "0",
        "-o",
        s(&lara),
    ]);
    assert!(stderr(&o).contains("would overwrite the input"), "{}", stderr(&o));
}
