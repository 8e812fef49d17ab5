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
