//! The outfit path as builders walk it: `import --only LARA_SKIN,LARA_SKIN_JOINTS`, reshape the
//! body in Blender (5.0.1, as the harness installs it), export, `build --base`, `check`. The
//! engine finds Lara's joints and hair by vertex index (docs/lara-stitching.md), so an edited
//! mesh keeps the index of every vertex it still has: checked vertex by vertex against the mesh
//! as stored.
//!
//! Needs the harness (`bash tests/harness/setup.sh`; scripts/test.sh runs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::files::{read, repo, write_wad};
use common::{s, stderr, stdout, wadforge};
use wadforge_fixtures::assert_other_tools_read_as_the_game;
use wadforge_format::{Mesh, Wad};

const LARA_SKIN: u32 = 8;
/// LARA_SKIN's head, the mesh the edits change (mesh numbering of docs/lara-stitching.md).
const HEAD: usize = 14;
/// TR units per metre, as import writes them (Blender moves are in metres).
const UNITS_PER_METRE: f64 = 512.0;

/// What one edit gave: the fixture as stored, the WAD built over it, and build's notes.
struct Edited {
    base: Wad,
    built: Wad,
    notes: String,
    /// What `check` said of the built file.
    check: String,
}

impl Edited {
    fn stored_head(&self) -> &Mesh {
        head(&self.base)
    }

    fn built_head(&self) -> &Mesh {
        head(&self.built)
    }
}

fn head(wad: &Wad) -> &Mesh {
    let skin = wad.moveables.iter().find(|m| m.id == LARA_SKIN).unwrap();
    &wad.meshes[skin.meshes[HEAD]]
}

/// The TR4-shaped fixture's LARA_SKIN edited in Blender with `blender_edit.py OPTIONS`, built
/// over the fixture with `build --base`; checks on the way that `check` finds no error, that the
/// other tools read the file, and that nothing but LARA_SKIN's head changed. `None` (and a line
/// in the log) without the harness.
fn edit_lara_skin(options: &[&str]) -> Option<Edited> {
    let python = wadforge_fixtures::harness::python()?;
    let tmp = tempfile::tempdir().unwrap();
    let base = wadforge_fixtures::tr4_shaped();
    let base_path = write_wad(&tmp.path().join("tr4.wad"), &base);
    let dir = tmp.path().join("outfit");
    let o = wadforge(&[
        "import",
        s(&base_path),
        "-o",
        s(&dir),
        "--only",
        "LARA_SKIN,LARA_SKIN_JOINTS",
    ]);
    assert!(o.status.success(), "import: {}", stderr(&o));
    let glb = glb_of(&dir, "LARA_SKIN");
    let edited = glb.with_extension("edited.glb");
    let script = repo().join("tests/harness/blender_edit.py");
    let o = Command::new(python)
        .arg(script)
        .args([s(&glb), s(&edited)])
        .args(options)
        .output()
        .unwrap();
    assert!(o.status.success(), "blender_edit.py {options:?}: {}", stderr(&o));
    std::fs::rename(&edited, &glb).unwrap();

    let out = tmp.path().join("out.wad");
    let o = wadforge(&["build", s(&dir), "-o", s(&out), "--base", s(&base_path)]);
    assert!(o.status.success(), "build: {}", stderr(&o));
    let notes = stderr(&o) + &stdout(&o);

    let o = wadforge(&["check", s(&out)]);
    let report = stdout(&o);
    assert!(
        o.status.success() && !report.lines().any(|l| l.starts_with("error")),
        "check finds errors after {options:?}:\n{report}{}",
        stderr(&o)
    );
    assert_other_tools_read_as_the_game(
        &format!("the outfit after {options:?}"),
        &std::fs::read(&out).unwrap(),
    );
    let o = wadforge(&["diff", s(&base_path), s(&out)]);
    let diff = stdout(&o);
    for line in diff.lines().filter(|l| !l.starts_with(' ')) {
        assert!(
            line.ends_with(": identical")
                || line.starts_with("LARA_SKIN (moveable 8):")
                || !line.contains("(moveable"),
            "only LARA_SKIN changes: {line}"
        );
    }
    for line in diff.lines().filter(|l| l.starts_with("    mesh")) {
        assert!(
            line.starts_with(&format!("    mesh {HEAD}")),
            "only the head changes: {line}"
        );
    }
    Some(Edited {
        base,
        built: read(&out),
        notes,
        check: report,
    })
}

fn glb_of(dir: &Path, slot: &str) -> PathBuf {
    std::fs::read_dir(dir.join("moveables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "glb") && s(p).ends_with(&format!("_{slot}.glb")))
        .unwrap_or_else(|| panic!("no glTF of {slot} in {}", dir.display()))
}

/// Each polygon's vertex indices, as a set.
fn corner_sets(mesh: &Mesh) -> Vec<Vec<u16>> {
    mesh.polygons
        .iter()
        .map(|p| {
            let mut c = p.corners().to_vec();
            c.sort_unstable();
            c
        })
        .collect()
}

#[test]
fn scaling_the_head_keeps_every_vertex_at_its_index() {
    let Some(e) = edit_lara_skin(&["--scale-bone", "HEAD", "1.3"]) else {
        return;
    };
    let (stored, built) = (e.stored_head(), e.built_head());
    assert_eq!(
        built.vertices.len(),
        stored.vertices.len(),
        "no vertex added or lost"
    );
    // Scaled about the head's pivot, the origin of the mesh's space: each vertex where its own
    // stored vertex goes, to the unit.
    for (i, (s, b)) in stored.vertices.iter().zip(&built.vertices).enumerate() {
        let expected = s.map(|c| (f64::from(c) * 1.3).round() as i16);
        let off = (0..3).map(|k| (expected[k] - b[k]).abs()).max().unwrap();
        assert!(
            off <= 1,
            "vertex {i}: stored {s:?}, scaled {expected:?}, built {b:?}"
        );
    }
    assert!(
        stored.vertices.iter().any(|v| v.iter().any(|&c| c.abs() >= 10)),
        "the scale shows"
    );
    assert_eq!(
        corner_sets(built),
        corner_sets(stored),
        "the same polygons, in order"
    );
    // The neck's joint no longer meets the scaled head: check says so, of that joint alone.
    let seams: Vec<&str> = e.check.lines().filter(|l| l.contains("[skin-joints]")).collect();
    assert_eq!(seams.len(), 1, "{}", e.check);
    assert!(
        seams[0].contains(&format!("LARA_SKIN_JOINTS (moveable 9), mesh {HEAD}:"))
            && seams[0].contains("HEAD vertex"),
        "{}",
        seams[0]
    );
}

#[test]
fn moving_one_vertex_moves_it_alone() {
    let Some(e) = edit_lara_skin(&["--move-vertex", "HEAD", "0", "0", "0.05"]) else {
        return;
    };
    let (stored, built) = (e.stored_head(), e.built_head());
    assert_eq!(built.vertices.len(), stored.vertices.len());
    let moved: Vec<usize> = (0..stored.vertices.len())
        .filter(|&i| stored.vertices[i] != built.vertices[i])
        .collect();
    assert_eq!(moved.len(), 1, "one vertex moved: {moved:?}");
    let i = moved[0];
    // 5 cm up in Blender (+Z) is up in TR (−Y).
    let up = (0.05 * UNITS_PER_METRE).round() as i16;
    let delta = [0, 1, 2].map(|k| built.vertices[i][k] - stored.vertices[i][k]);
    assert!(
        delta[0] == 0 && delta[2] == 0 && (delta[1] + up).abs() <= 1,
        "vertex {i} moved by {delta:?}"
    );
    assert_eq!(
        corner_sets(built),
        corner_sets(stored),
        "the same polygons, in order"
    );
}

#[test]
fn a_new_face_takes_new_vertices_after_the_kept_ones() {
    let Some(e) = edit_lara_skin(&["--add-face", "HEAD"]) else {
        return;
    };
    let (stored, built) = (e.stored_head(), e.built_head());
    let kept = stored.vertices.len();
    assert_eq!(built.vertices.len(), kept + 3, "three new vertices");
    assert_eq!(
        &built.vertices[..kept],
        &stored.vertices[..],
        "every stored vertex at its index"
    );
    let (stored_sets, built_sets) = (corner_sets(stored), corner_sets(built));
    assert_eq!(built_sets.len(), stored_sets.len() + 1, "one new polygon");
    assert_eq!(
        &built_sets[..stored_sets.len()],
        &stored_sets[..],
        "stored polygons first, in order"
    );
    let new = built_sets.last().unwrap();
    assert!(
        new.iter().all(|&v| usize::from(v) >= kept),
        "the new face's vertices: {new:?}"
    );
}

#[test]
fn a_removed_vertex_is_reported_and_the_others_keep_their_indices() {
    let Some(e) = edit_lara_skin(&["--remove-vertex", "HEAD"]) else {
        return;
    };
    let (stored, built) = (e.stored_head(), e.built_head());
    assert_eq!(
        built.vertices, stored.vertices,
        "every vertex at its index, the removed one kept unused"
    );
    let used = |m: &Mesh, v: u16| m.polygons.iter().any(|p| p.corners().contains(&v));
    let removed: Vec<u16> = (0..stored.vertices.len() as u16)
        .filter(|&v| used(stored, v) && !used(built, v))
        .collect();
    assert_eq!(removed.len(), 1, "one vertex removed: {removed:?}");
    let r = removed[0];
    let expected = format!("LARA_SKIN (moveable 8), bone HEAD: vertex {r} of the mesh as imported");
    assert!(
        e.notes.contains(&expected),
        "build reports the removal ({expected}):\n{}",
        e.notes
    );
    // Every polygon without the removed vertex is still there, in order; after them, the halves
    // of quads over it that Blender keeps (it holds a quad as two triangles and removes the one
    // on the vertex).
    let (with, without): (Vec<Vec<u16>>, Vec<Vec<u16>>) =
        corner_sets(stored).into_iter().partition(|c| c.contains(&r));
    let built_sets = corner_sets(built);
    assert_eq!(&built_sets[..without.len()], &without[..]);
    for half in &built_sets[without.len()..] {
        let of_a_quad = with
            .iter()
            .any(|q| q.len() == 4 && half.iter().all(|v| q.contains(v)));
        assert!(
            half.len() == 3 && of_a_quad,
            "{half:?} is not half of a quad over vertex {r}"
        );
    }
}
