//! What `convert` changes on the way into a classic WAD, each change listed per object: pages
//! of only the texels polygons use (no more than import + build gives), normals at TR's length,
//! frame ranges clamped to the keyframes; and a WAD into a WAD stays the same bytes.

use std::path::{Path, PathBuf};

use wadforge_format::{wad2, Shading, Wad};

use crate::common::files::{read, standard_wad};
use crate::common::{s, stderr, succeeds, wadforge};

const CROCODILE: i64 = 51;

/// The standard fixture as a Tomb Editor Wad2, then as Wad2 packs come: a 1024×1024 texture of
/// which one polygon uses 16×16 texels, the crocodile's normals a quarter of TR's length, one of
/// its animations' range 25 frames past its keyframes with a state change 30 past that, a
/// polygon's shine of 40. Returns the path and the animation's number.
fn wad2_pack(dir: &Path) -> (PathBuf, usize) {
    let (mut document, big) = crate::common::files::standard_wad2_with_big_texture(1024);
    let crocodile = document.moveables.iter_mut().find(|m| m.id == CROCODILE).unwrap();
    let polygon = &mut crocodile.meshes[0].polygons[0];
    polygon.texture = big;
    polygon.uvs = [[300.0, 300.0], [316.0, 300.0], [316.0, 316.0], [300.0, 316.0]];
    polygon.shine = 40;
    for mesh in &mut crocodile.meshes {
        for n in &mut mesh.normals {
            *n = n.map(|c| c / 4.0);
        }
    }
    let (k, animation) = crocodile
        .animations
        .iter_mut()
        .enumerate()
        .find(|(_, a)| a.keyframes.len() >= 2 && a.state_changes.iter().any(|c| !c.dispatches.is_empty()))
        .expect("an animation with keyframes and a state change");
    let last = animation.frame_rate.max(1) * (animation.keyframes.len() as i64 - 1);
    animation.end_frame = last + 25;
    let dispatch = animation
        .state_changes
        .iter_mut()
        .flat_map(|c| &mut c.dispatches)
        .next()
        .unwrap();
    dispatch.out_frame = last + 55;
    let path = dir.join("pack.wad2");
    std::fs::write(&path, wad2::write_document(&document)).unwrap();
    (path, k)
}

fn crocodile(wad: &Wad) -> &wadforge_format::Moveable {
    wad.moveables
        .iter()
        .find(|m| i64::from(m.id) == CROCODILE)
        .unwrap()
}

#[test]
fn a_wad2_into_a_wad_packs_used_texels_brings_normals_to_tr_length_and_lists_each_change() {
    let tmp = tempfile::tempdir().unwrap();
    let (pack, k) = wad2_pack(tmp.path());
    let out = tmp.path().join("pack.wad");
    let o = wadforge(&["convert", s(&pack), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stderr(&o);
    // The same file through import and build: what its pages should be at most.
    let dir = tmp.path().join("pack");
    succeeds(&["import", "-q", s(&pack), "-o", s(&dir)]);
    let built = tmp.path().join("built.wad");
    succeeds(&["build", "-q", s(&dir), "-o", s(&built)]);
    let (converted, built) = (read(&out), read(&built));
    assert!(
        converted.pages.len() <= built.pages.len(),
        "convert gave {} pages, import + build {}",
        converted.pages.len(),
        built.pages.len()
    );
    let changed = |text: &str| {
        said.lines()
            .any(|l| l.starts_with("changed: ") && l.contains(text))
    };
    assert!(changed("file: texture pages"), "{said}");
    let croc = crocodile(&converted);
    for mesh in croc.meshes.iter().map(|&m| &converted.meshes[m]) {
        let Shading::Normals(normals) = &mesh.shading else {
            continue;
        };
        for n in normals.iter().filter(|n| **n != [0, 0, 0]) {
            let length = n.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
            assert!((length - 16300.0).abs() <= 163.0, "a normal of length {length}");
        }
    }
    assert!(
        changed("CROCODILE (moveable 51): normals brought to TR's length: length 40"),
        "{said}"
    );
    let animation = &croc.animations[k];
    assert_eq!(animation.played_keyframes(), animation.keyframes.len());
    // On the moveable's timeline: the animation's last frame, clamped.
    let end = animation.frame_end;
    assert!(
        changed(&format!("CROCODILE (moveable 51): animation {k}'s frames")),
        "{said}"
    );
    let dispatch = animation
        .state_changes
        .iter()
        .flat_map(|c| &c.dispatches)
        .next()
        .unwrap();
    assert_eq!(dispatch.frame_end, end + 1);
    assert!(
        changed(&format!(
            "CROCODILE (moveable 51): animation {k}'s state change ranges (past its frames): up to frame {} → up to frame {}",
            end + 55,
            end + 1
        )),
        "{said}"
    );
    assert!(
        said.contains(
            "lost: CROCODILE (moveable 51): 1 × polygons with a shine outside 0–31 (clamped to it)"
        ),
        "{said}"
    );
    let quiet = wadforge(&["convert", "-q", s(&pack), s(&tmp.path().join("quiet.wad"))]);
    assert!(
        quiet.status.success() && stderr(&quiet).is_empty(),
        "{}",
        stderr(&quiet)
    );
}

#[test]
fn a_wad_into_a_wad_stays_the_same_bytes_and_lists_no_change() {
    let tmp = tempfile::tempdir().unwrap();
    let input = standard_wad(tmp.path());
    let out = tmp.path().join("out.wad");
    let o = wadforge(&["convert", s(&input), s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("changed:"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
}
