//! The outfit path as builders walk it: `import --only LARA_SKIN,LARA_SKIN_JOINTS`, reshape the
//! body in Blender (5.0.1, as the harness installs it), export, `build --base`, `check`. The
//! engine finds Lara's joints and hair by vertex index (docs/lara-stitching.md), so an edited
//! mesh keeps the index of every vertex it still has: checked vertex by vertex against the mesh
//! as stored. An edit changes only what was edited: the polygons keep their kinds, corners and
//! order, and `wadforge diff` reads a one-vertex edit as that vertex and its neighbours' normals.
//!
//! Needs the harness (`bash tests/harness/setup.sh`; scripts/test.sh runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::files::{read, repo, write_wad};
use crate::common::{s, stderr, stdout, wadforge};
use wadforge_fixtures::assert_other_tools_read_as_the_game;
use wadforge_format::texture_corners::{polygon_corners, recover_shifted_texture};
use wadforge_format::{Mesh, Polygon, Shading, Wad};

const LARA_SKIN: u32 = 8;
/// LARA_SKIN's head, the mesh the edits change (mesh numbering of docs/lara-stitching.md).
const HEAD: usize = 14;
/// LARA_SKIN's torso.
const TORSO: usize = 7;
/// TR units per metre, as import writes them (Blender moves are in metres).
const UNITS_PER_METRE: f64 = 512.0;

/// What one edit gave: the fixture as stored, the WAD built over it, build's notes, and the
/// mesh the edit changes.
struct Edited {
    base: Wad,
    built: Wad,
    notes: String,
    /// What `check` said of the built file.
    check: String,
    /// `wadforge diff --json` of the fixture and the built file.
    diff: serde_json::Value,
    /// The index in LARA_SKIN of the mesh edited.
    mesh: usize,
}

impl Edited {
    fn stored_mesh(&self) -> &Mesh {
        skin_mesh(&self.base, self.mesh)
    }

    fn built_mesh(&self) -> &Mesh {
        skin_mesh(&self.built, self.mesh)
    }
}

fn skin_mesh(wad: &Wad, mesh: usize) -> &Mesh {
    let skin = wad.moveables.iter().find(|m| m.id == LARA_SKIN).unwrap();
    &wad.meshes[skin.meshes[mesh]]
}

/// The TR4-shaped fixture's LARA_SKIN edited in Blender with `blender_edit.py OPTIONS` (see
/// [`edit_lara_skin_of`]), the head being the mesh changed.
fn edit_lara_skin(options: &[&str]) -> Option<Edited> {
    edit_lara_skin_of(wadforge_fixtures::tr4_shaped(), HEAD, options)
}

/// `base`'s LARA_SKIN edited in Blender with `blender_edit.py OPTIONS`, built over `base` with
/// `build --base`; checks on the way that `check` finds no error, that the other tools read the
/// file, and that nothing but LARA_SKIN's mesh `mesh` changed. `None` (and a line in the log)
/// without the harness.
fn edit_lara_skin_of(base: Wad, mesh: usize, options: &[&str]) -> Option<Edited> {
    let python = wadforge_fixtures::harness::python()?;
    let tmp = tempfile::tempdir().unwrap();
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
        let of_the_mesh = [",", ":"].map(|after| format!("    mesh {mesh}{after}"));
        assert!(
            of_the_mesh.iter().any(|start| line.starts_with(start)),
            "only mesh {mesh} changes: {line}"
        );
    }
    let o = wadforge(&["diff", "--json", s(&base_path), s(&out)]);
    let diff = serde_json::from_str(&stdout(&o)).expect("diff --json prints JSON");
    Some(Edited {
        base,
        built: read(&out),
        notes,
        check: report,
        diff,
        mesh,
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
    let (stored, built) = (e.stored_mesh(), e.built_mesh());
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
    let (stored, built) = (e.stored_mesh(), e.built_mesh());
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
    let (stored, built) = (e.stored_mesh(), e.built_mesh());
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
    let (stored, built) = (e.stored_mesh(), e.built_mesh());
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

/// `wad` with LARA_SKIN's mesh `mesh` holding triangle pairs covering one sample, as real meshes
/// do (the TR1 demo level's LARA torso holds such pairs): of every three quads, the first becomes
/// two triangles split along v0–v2 (as the game draws the quad), the second two split along
/// v1–v3, the third stays a quad. Each triangle maps the quad's sample corners.
fn with_triangle_pairs(mut wad: Wad, mesh: usize) -> Wad {
    let index = wad.moveables.iter().find(|m| m.id == LARA_SKIN).unwrap().meshes[mesh];
    let samples = wad.samples.clone();
    let m = &mut wad.meshes[index];
    let mut polygons = Vec::new();
    let mut quads = 0;
    for p in std::mem::take(&mut m.polygons) {
        quads += usize::from(p.is_quad);
        let halves: &[[usize; 3]] = match (p.is_quad, quads % 3) {
            (true, 1) => &[[0, 1, 2], [0, 2, 3]],
            (true, 2) => &[[0, 1, 3], [1, 2, 3]],
            _ => {
                polygons.push(p);
                continue;
            }
        };
        let points = polygon_corners(&samples[p.texture.sample as usize], p.texture, true);
        for half in halves {
            let (texture, shift) = recover_shifted_texture(&half.map(|c| points[c]), false)
                .expect("three corners of a sample rectangle");
            let corners = [0, 1, 2].map(|c| p.vertices[half[(c + shift) % 3]]);
            let mut triangle = Polygon::triangle(corners, texture.texture(p.texture.sample), p.attributes);
            triangle.unused = p.unused;
            polygons.push(triangle);
        }
    }
    m.polygons = polygons;
    wad
}

/// Each polygon's kind and corners (vertex indices, in order), in the mesh's order.
fn polygon_list(mesh: &Mesh) -> Vec<(&'static str, Vec<u16>)> {
    mesh.polygons
        .iter()
        .map(|p| (if p.is_quad { "quad" } else { "triangle" }, p.corners().to_vec()))
        .collect()
}

/// `(place, what)` of each difference `diff --json` lists for LARA_SKIN.
fn lara_skin_differences(diff: &serde_json::Value) -> Vec<(String, String)> {
    let objects = diff["objects"].as_array().expect("a list of objects");
    let skin = objects
        .iter()
        .find(|o| o["id"] == LARA_SKIN && o["kind"] == "moveable")
        .expect("LARA_SKIN in the report");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    skin["differences"]
        .as_array()
        .expect("a list of differences")
        .iter()
        .map(|d| (text(&d["place"]), text(&d["what"])))
        .collect()
}

#[test]
fn moving_one_torso_vertex_changes_it_and_its_neighbours_normals_alone() {
    let base = with_triangle_pairs(wadforge_fixtures::tr4_shaped(), TORSO);
    let Some(e) = edit_lara_skin_of(base, TORSO, &["--move-vertex", "TORSO", "0", "0.02", "0"]) else {
        return;
    };
    let (stored, built) = (e.stored_mesh(), e.built_mesh());
    let kinds: Vec<bool> = stored.polygons.iter().map(|p| p.is_quad).collect();
    assert!(
        kinds.contains(&true) && kinds.contains(&false),
        "the torso holds quads and triangle pairs"
    );
    assert_eq!(built.vertices.len(), stored.vertices.len());
    let moved: Vec<usize> = (0..stored.vertices.len())
        .filter(|&i| stored.vertices[i] != built.vertices[i])
        .collect();
    assert_eq!(moved.len(), 1, "one vertex moved: {moved:?}");
    let m = moved[0];
    // The vertices that share a stored polygon with the moved one (itself included): Blender
    // keeps a custom normal relative to its faces, so theirs may turn with the moved vertex.
    let mut neighbours: Vec<usize> = (stored.polygons.iter())
        .filter(|p| p.corners().contains(&(m as u16)))
        .flat_map(|p| p.corners().iter().map(|&v| usize::from(v)))
        .collect();
    neighbours.sort_unstable();
    neighbours.dedup();
    let (Shading::Normals(stored_normals), Shading::Normals(built_normals)) =
        (&stored.shading, &built.shading)
    else {
        panic!("LARA_SKIN's torso has normals")
    };
    let turned: Vec<usize> = (0..stored_normals.len())
        .filter(|&i| stored_normals[i] != built_normals[i])
        .collect();
    assert!(
        turned.iter().all(|i| neighbours.contains(i)),
        "normals turned: {turned:?}; only those of {neighbours:?} may"
    );
    assert_eq!(
        polygon_list(built),
        polygon_list(stored),
        "the same polygons: kinds, corners, order"
    );

    // The report reads as the edit: that vertex, those normals (and the sphere, were the vertex
    // to leave it); no polygon, as no texture changed.
    let centre = stored.sphere.center.map(f64::from);
    let reach = (0..3)
        .map(|k| (f64::from(built.vertices[m][k]) - centre[k]).powi(2))
        .sum::<f64>()
        .sqrt();
    let left_the_sphere = reach > f64::from(stored.sphere.radius);
    let differences = lara_skin_differences(&e.diff);
    let vertex_line = (format!("mesh {TORSO}, vertex {m}"), "vertex".to_string());
    assert!(differences.contains(&vertex_line), "{differences:?}");
    for (place, what) in &differences {
        let normal_of_a_neighbour = what == "normal"
            && neighbours
                .iter()
                .any(|i| *place == format!("mesh {TORSO}, vertex {i}"));
        let sphere = left_the_sphere && *place == format!("mesh {TORSO}") && what.starts_with("sphere");
        assert!(
            (place, what) == (&vertex_line.0, &vertex_line.1) || normal_of_a_neighbour || sphere,
            "diff lists {place}: {what}, which the edit did not change:\n{differences:?}"
        );
    }
}
