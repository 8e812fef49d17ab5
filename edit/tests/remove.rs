//! `remove`: objects go with what only they used; everything else stays.

mod common;

use common::*;
use wadforge_edit::references::canonical_starts;
use wadforge_edit::{remove, select, Input, ObjectRef};

#[test]
fn removing_an_object_drops_what_only_it_used_and_its_page_and_keeps_the_rest() {
    let fixture = wadforge_fixtures::standard();
    let crocodile = select(&fixture, TR4, &["CROCODILE".into()]).unwrap();
    let removed = remove(&Input::canonical(&fixture, TR4), &crocodile).unwrap();
    let out = written(&removed.wad);
    assert_eq!(removed.removed, ["CROCODILE (moveable 51)"]);
    assert!(
        removed.dropped_meshes >= 21 && removed.dropped_samples > 0,
        "{} {}",
        removed.dropped_meshes,
        removed.dropped_samples
    );
    assert_eq!(out.pages.len(), fixture.pages.len() - removed.dropped_pages);
    assert!(removed.dropped_pages >= 1, "the crocodile's scales page goes");
    assert_eq!(out.samples.len(), fixture.samples.len() - removed.dropped_samples);
    assert_eq!(
        differing(&fixture, &out, |k, id| !(k
            == wadforge_diff::ObjectKind::Moveable
            && id == 51)),
        Vec::<String>::new()
    );
    assert!(out.moveables.iter().all(|m| m.id != 51));
}

#[test]
fn a_removal_that_frees_no_page_leaves_the_pages_as_they_are() {
    let fixture = wadforge_fixtures::standard();
    let plant = select(&fixture, TR4, &["PLANT0".into()]).unwrap();
    let removed = remove(&Input::canonical(&fixture, TR4), &plant).unwrap();
    assert!(!removed.repacked);
    assert_eq!(removed.wad.pages, fixture.pages);
}

#[test]
fn samples_are_packed_again_when_that_saves_pages() {
    let largest = wadforge_fixtures::largest();
    // Every crocodile but the standard one: their samples are spread over many pages.
    let crocodiles: Vec<ObjectRef> = (0..largest.moveables.len())
        .filter(|&i| largest.moveables[i].id != 51 && largest.moveables[i].meshes.len() == 21)
        .map(ObjectRef::Moveable)
        .collect();
    assert!(crocodiles.len() > 10);
    let removed = remove(&Input::canonical(&largest, TR4), &crocodiles).unwrap();
    let out = written(&removed.wad);
    assert!(
        out.pages.len() < largest.pages.len(),
        "{} pages of {}",
        out.pages.len(),
        largest.pages.len()
    );
    if removed.repacked {
        // Packing again is only worth it for fewer pages than dropping empty ones gave.
        assert!(removed.dropped_pages > 0);
    }
    let gone: Vec<u32> = crocodiles
        .iter()
        .map(|&o| match o {
            ObjectRef::Moveable(i) => largest.moveables[i].id,
            _ => 0,
        })
        .collect();
    assert_eq!(
        differing(&largest, &out, |k, id| !(k
            == wadforge_diff::ObjectKind::Moveable
            && gone.contains(&id))),
        Vec::<String>::new()
    );
}

#[test]
fn references_into_a_removed_objects_animations_are_reported() {
    let mut wad = wadforge_fixtures::standard();
    let switch = wad.moveables.iter().position(|m| m.id == 306).unwrap();
    let lever = wad.moveables.iter().position(|m| m.id == 318).unwrap();
    let starts = canonical_starts(&wad.moveables);
    wad.moveables[switch].animations[1].next_animation = starts[lever] as i32 - starts[switch] as i32;
    let removed = remove(&Input::canonical(&wad, TR4), &[ObjectRef::Moveable(lever)]).unwrap();
    assert_eq!(removed.broken.len(), 1, "{:#?}", removed.broken);
    let b = &removed.broken[0];
    assert_eq!(
        (b.object.as_str(), b.animation, b.target.as_str()),
        (
            "SWITCH_TYPE1 (moveable 306)",
            1,
            "animation 0 of LEVER_SWITCH (moveable 318)"
        )
    );
    assert!(b.to_string().contains("now points at animation 1 itself"));
}

#[test]
fn references_past_the_listed_ones_are_counted() {
    // Each reference listed takes some 230 bytes, where a file may hold one in 8 bytes.
    let mut wad = wadforge_fixtures::standard();
    let switch = wad.moveables.iter().position(|m| m.id == 306).unwrap();
    let lever = wad.moveables.iter().position(|m| m.id == 318).unwrap();
    let starts = canonical_starts(&wad.moveables);
    let to_lever = starts[lever] as i32 - starts[switch] as i32;
    let animation = &mut wad.moveables[switch].animations[1];
    animation.next_animation = to_lever;
    let dispatch = wadforge_format::Dispatch {
        frame_start: animation.frame_start,
        frame_end: animation.frame_start + 1,
        next_animation: to_lever,
        next_frame: 0,
    };
    animation.state_changes.push(wadforge_format::StateChange {
        state: 1,
        dispatches: vec![dispatch; 299],
    });
    let removed = remove(&Input::canonical(&wad, TR4), &[ObjectRef::Moveable(lever)]).unwrap();
    assert_eq!(removed.broken.len(), wadforge_edit::merge::LISTED_BROKEN);
    assert_eq!(removed.broken.len() + removed.broken_unlisted, 300);
}
