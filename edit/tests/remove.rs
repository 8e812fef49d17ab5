//! `remove`: objects go with what only they used; everything else stays.

use crate::common::*;
use wadforge_edit::references::canonical_starts;
use wadforge_edit::{remove, select, Input, ObjectRef};
use wadforge_format::MoveableIndex;

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
    let crocodiles: Vec<ObjectRef> = MoveableIndex::all(&largest.moveables)
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
    let removed = remove(
        &Input::canonical(&wad, TR4),
        &[ObjectRef::Moveable(MoveableIndex(lever))],
    )
    .unwrap();
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
    let removed = remove(
        &Input::canonical(&wad, TR4),
        &[ObjectRef::Moveable(MoveableIndex(lever))],
    )
    .unwrap();
    assert_eq!(removed.broken.len(), wadforge_edit::merge::LISTED_BROKEN);
    assert_eq!(removed.broken.len() + removed.broken_unlisted, 300);
}

/// Each weapon object's id and its references into LARA: (animation, LARA's animation, frame).
type IntoLara = Vec<(u32, Vec<(usize, usize, u16)>)>;

/// The standard fixture with TR4's weapon-animation objects, which dispatch into LARA's
/// animations, and their references into LARA.
fn with_weapons() -> (wadforge_format::Wad, IntoLara) {
    let mut wad = wadforge_fixtures::standard();
    wadforge_fixtures::weapons::add_weapon_animations(&mut wad);
    let into_lara = weapons_into_lara(&wad);
    (wad, into_lara)
}

fn weapons_into_lara(wad: &wadforge_format::Wad) -> IntoLara {
    let targets = wadforge_edit::references::resolve(&wad.moveables, &canonical_starts(&wad.moveables));
    let lara = wad.moveables.iter().position(|m| m.id == 0).map(MoveableIndex);
    (wad.moveables.iter().zip(&targets))
        .filter(|(m, _)| [2, 6, 12].contains(&m.id))
        .map(|(m, ts)| {
            let found = (m.animations.iter().zip(ts).enumerate())
                .flat_map(|(a, (animation, t))| {
                    let dispatches = animation.state_changes.iter().flat_map(|c| &c.dispatches);
                    dispatches
                        .zip(t.dispatches.iter().flatten())
                        .filter_map(move |(d, t)| {
                            let t = t.filter(|t| Some(t.moveable) == lara)?;
                            Some((a, t.animation, d.next_frame))
                        })
                })
                .collect();
            (m.id, found)
        })
        .collect()
}

#[test]
fn removing_an_object_before_them_leaves_the_weapons_dispatches_on_laras_animations() {
    let (wad, before) = with_weapons();
    let uzi = select(&wad, TR4, &["UZI_ANIM".into()]).unwrap();
    let removed = remove(&Input::canonical(&wad, TR4), &uzi).unwrap();
    assert!(removed.broken.is_empty(), "{:#?}", removed.broken);
    let after = weapons_into_lara(&written(&removed.wad));
    let kept: Vec<_> = before.into_iter().filter(|(id, _)| *id != 2).collect();
    assert_eq!(after, kept);
    assert!(kept.iter().all(|(_, refs)| refs.len() == 8));
}

#[test]
fn references_into_a_removed_object_loop_to_their_own_animations_first_frame() {
    let (wad, _) = with_weapons();
    let lara = select(&wad, TR4, &["LARA".into()]).unwrap();
    let removed = remove(&Input::canonical(&wad, TR4), &lara).unwrap();
    assert_eq!(removed.broken.len(), 3 * 8, "{:#?}", removed.broken);
    let out = written(&removed.wad);
    for m in out.moveables.iter().filter(|m| [2, 6, 12].contains(&m.id)) {
        for (a, animation) in m.animations.iter().enumerate() {
            // State changes 1 and 2 named LARA's animations.
            for d in animation.state_changes[1..].iter().flat_map(|c| &c.dispatches) {
                assert_eq!(
                    (d.next_animation, d.next_frame),
                    (a as i32, animation.frame_start),
                    "moveable {} animation {a}",
                    m.id
                );
            }
        }
    }
}
