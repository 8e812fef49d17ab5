//! `check` on Lara's seams (docs/lara-stitching.md): TR4 joins LARA_SKIN_JOINTS to LARA_SKIN by
//! position at load and reads the joined vertices by index, from swapped heads too; the hair
//! hangs from head vertices 37–40.

use wadforge_edit::check::{check, Finding, Severity};
use wadforge_edit::references::canonical_starts;
use wadforge_format::catalog::Game;
use wadforge_format::{Mesh, Moveable, Wad};

const LARA_SKIN: u32 = 8;
const LARA_SKIN_JOINTS: u32 = 9;
const LARA_SCREAM: u32 = 10;
const HAIR: u32 = 30;
const HEAD: usize = 14;

fn seam_findings(wad: &Wad) -> Vec<Finding> {
    let rules = ["skin-joints", "hair", "swapped-head"];
    check(wad, Game::Tr4, &canonical_starts(&wad.moveables), None, 0)
        .into_iter()
        .filter(|f| rules.contains(&f.rule))
        .collect()
}

fn moveable(wad: &Wad, id: u32) -> &Moveable {
    wad.moveables.iter().find(|m| m.id == id).unwrap()
}

fn head(wad: &Wad) -> &Mesh {
    &wad.meshes[moveable(wad, LARA_SKIN).meshes[HEAD]]
}

/// A head vertex the neck joint (joint mesh 14, on the head's pivot too) lies on: (head vertex,
/// joint vertex).
fn neck_seam_vertex(wad: &Wad) -> (usize, usize) {
    let joint = &wad.meshes[moveable(wad, LARA_SKIN_JOINTS).meshes[HEAD]];
    let head = head(wad);
    joint
        .vertices
        .iter()
        .enumerate()
        .find_map(|(j, v)| Some((head.vertices.iter().position(|h| h == v)?, j)))
        .expect("the neck joint lies on the head")
}

/// `wad` with a LARA_SCREAM whose meshes are LARA_SKIN's but for its head, `head`.
fn with_scream(mut wad: Wad, head: Mesh) -> Wad {
    let mut scream = moveable(&wad, LARA_SKIN).clone();
    scream.id = LARA_SCREAM;
    wad.meshes.push(head);
    scream.meshes[HEAD] = wad.meshes.len() - 1;
    wad.moveables.push(scream);
    wad.moveables.sort_by_key(|m| m.id);
    wad
}

#[test]
fn the_fixtures_seams_are_whole() {
    let wad = wadforge_fixtures::tr4_shaped();
    let findings = seam_findings(&wad);
    assert!(findings.is_empty(), "{findings:#?}");
    // The neck joint lies on the head (neck_seam_vertex fails otherwise): the rule had a seam
    // to see opened.
    neck_seam_vertex(&wad);
}

#[test]
fn a_body_vertex_moved_off_its_joint_is_a_warning_naming_both_indices() {
    let mut wad = wadforge_fixtures::tr4_shaped();
    let (head_vertex, joint_vertex) = neck_seam_vertex(&wad);
    let k = moveable(&wad, LARA_SKIN).meshes[HEAD];
    wad.meshes[k].vertices[head_vertex][0] += 5;
    let findings = seam_findings(&wad);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    assert_eq!((f.rule, f.severity), ("skin-joints", Severity::Warning));
    assert_eq!(f.place, format!("LARA_SKIN_JOINTS (moveable 9), mesh {HEAD}"));
    assert!(
        f.message
            .contains(&format!("{joint_vertex}: HEAD vertex {head_vertex}, 5 units")),
        "{}",
        f.message
    );
}

#[test]
fn hair_needs_the_heads_vertices_37_to_40() {
    let mut wad = wadforge_fixtures::tr4_shaped();
    let count = head(&wad).vertices.len();
    assert!(count <= 40, "the fixture's head has {count} vertices");
    let mut hair = moveable(&wad, LARA_SKIN).clone();
    hair.id = HAIR;
    hair.meshes.truncate(6);
    hair.links.truncate(5);
    wad.moveables.push(hair);
    wad.moveables.sort_by_key(|m| m.id);
    let findings = seam_findings(&wad);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].rule, "hair");
    assert!(findings[0]
        .message
        .contains(&format!("the head has {count} vertices")));
}

#[test]
fn a_swapped_head_keeps_the_seam_at_lara_skins_indices() {
    let wad = wadforge_fixtures::tr4_shaped();
    let same = head(&wad).clone();
    assert!(seam_findings(&with_scream(wad.clone(), same.clone())).is_empty());

    // The same head with its seam vertex moved to the end of the list, as a 3D tool reorders.
    let (seam, _) = neck_seam_vertex(&wad);
    let mut reordered = same.clone();
    let last = reordered.vertices.len() - 1;
    reordered.vertices.swap(seam, last);
    for p in &mut reordered.polygons {
        let n = p.corners().len();
        for c in &mut p.vertices[..n] {
            if usize::from(*c) == seam {
                *c = last as u16;
            } else if usize::from(*c) == last {
                *c = seam as u16;
            }
        }
    }
    let findings = seam_findings(&with_scream(wad, reordered));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let f = &findings[0];
    assert_eq!(f.rule, "swapped-head");
    assert_eq!(
        f.place,
        format!("LARA_SCREAM (moveable {LARA_SCREAM}), mesh {HEAD} (HEAD)")
    );
    assert!(f.message.contains(&seam.to_string()), "{}", f.message);
}

/// `wad` with LARA_SKIN_JOINTS' mesh `k` replaced by `edit` of it (a mesh of its own).
fn with_joint(mut wad: Wad, k: usize, edit: impl FnOnce(&mut Mesh)) -> Wad {
    let joints = wad
        .moveables
        .iter()
        .position(|m| m.id == LARA_SKIN_JOINTS)
        .unwrap();
    let mut mesh = wad.meshes[wad.moveables[joints].meshes[k]].clone();
    edit(&mut mesh);
    wad.meshes.push(mesh);
    wad.moveables[joints].meshes[k] = wad.meshes.len() - 1;
    wad
}

/// A vertex in the middle of the joint's first triangle, off every body vertex, that no body
/// vertex meets: the triangle split in three around it, so it lies inside the joint.
fn vertex_inside(mesh: &mut Mesh) {
    let p = mesh.polygons[0];
    let [a, b, c] = [0, 1, 2].map(|i| mesh.vertices[usize::from(p.vertices[i])]);
    let middle = [0, 1, 2].map(|i| ((i32::from(a[i]) + i32::from(b[i]) + i32::from(c[i])) / 3) as i16);
    let m = mesh.vertices.len() as u16;
    mesh.vertices.push(middle);
    match &mut mesh.shading {
        wadforge_format::Shading::Normals(n) => n.push(n[0]),
        wadforge_format::Shading::Shades(s) => s.push(s[0]),
    }
    let [a, b, c] = [p.vertices[0], p.vertices[1], p.vertices[2]];
    let split = |corners: [u16; 3]| {
        let mut q = p;
        q.vertices[..3].copy_from_slice(&corners);
        q
    };
    let (first, second, third) = (split([a, b, m]), split([b, c, m]), split([c, a, m]));
    mesh.polygons[0] = first;
    mesh.polygons.extend([second, third]);
}

/// A vertex of LARA_SKIN's mesh `body` that joint mesh `k` lies on (both on one pivot):
/// (body vertex, joint vertex).
fn seam_vertex(wad: &Wad, k: usize, body: usize) -> (usize, usize) {
    let joint = &wad.meshes[moveable(wad, LARA_SKIN_JOINTS).meshes[k]];
    let body = &wad.meshes[moveable(wad, LARA_SKIN).meshes[body]];
    joint
        .vertices
        .iter()
        .enumerate()
        .find_map(|(j, v)| Some((body.vertices.iter().position(|h| h == v)?, j)))
        .expect("the joint lies on the body mesh")
}

#[test]
fn a_knee_or_elbow_bends_the_vertices_inside_it_halfway_and_only_its_edge_opens_a_seam() {
    let wad = wadforge_fixtures::tr4_shaped();
    // Knees (2, 5) and elbows (9, 12): TR4 draws a vertex joined to no body vertex halfway
    // between the two bones, so one inside the joint bends it smoothly.
    for k in [2, 5, 9, 12] {
        let findings = seam_findings(&with_joint(wad.clone(), k, vertex_inside));
        assert!(findings.is_empty(), "joint {k}: {findings:#?}");
    }
    // At an ankle it is drawn by a matrix that is not the joint's: the seam tears.
    let findings = seam_findings(&with_joint(wad.clone(), 3, vertex_inside));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].place, "LARA_SKIN_JOINTS (moveable 9), mesh 3");
    assert!(
        findings[0].message.contains("not this joint's"),
        "{}",
        findings[0]
    );
    // A vertex no polygon uses is not drawn at all.
    let loose = with_joint(wad.clone(), 3, |mesh| {
        mesh.vertices.push([900, 900, 900]);
        match &mut mesh.shading {
            wadforge_format::Shading::Normals(n) => n.push(n[0]),
            wadforge_format::Shading::Shades(s) => s.push(s[0]),
        }
    });
    assert!(seam_findings(&loose).is_empty());

    // The knee's edge, where it meets the shin (LEFT_SHIN, mesh 2, on the joint's pivot), moved
    // off it: that vertex is drawn halfway, away from the shin's.
    let (shin_vertex, joint_vertex) = seam_vertex(&wad, 2, 2);
    let mut moved = wad.clone();
    let k = moveable(&moved, LARA_SKIN).meshes[2];
    moved.meshes[k].vertices[shin_vertex][0] += 5;
    let findings = seam_findings(&moved);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].place, "LARA_SKIN_JOINTS (moveable 9), mesh 2");
    assert!(
        findings[0]
            .message
            .contains(&format!("joint vertices {joint_vertex} "))
            && findings[0].message.contains("on the joint's edge")
            && findings[0].message.contains("halfway between the two bones"),
        "{}",
        findings[0]
    );
}
