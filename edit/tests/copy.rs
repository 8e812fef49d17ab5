//! `copy`: objects come across exactly; the destination's others stay as they were.

use crate::common::*;
use wadforge_diff::ObjectKind;
use wadforge_edit::references::{canonical_starts, resolve, AnimationRef};
use wadforge_edit::{copy, remove, select, Input, ObjectRef};
use wadforge_format::{MoveableIndex, Page, Sample, Wad, PAGE_SIZE};

fn all_objects(wad: &Wad) -> Vec<ObjectRef> {
    wadforge_format::selection::all_objects(wad).collect()
}

fn moveable(wad: &Wad, id: u32) -> usize {
    wad.moveables
        .iter()
        .position(|m| m.id == id)
        .unwrap_or_else(|| panic!("no moveable {id}"))
}

/// Pairs of samples, the second from `first_new` on, that cover some of the same texels
/// without being at the same place.
fn overlapping_samples(wad: &Wad, first_new: usize) -> Vec<(usize, usize)> {
    let rect = |s: &Sample| {
        (
            s.page,
            s.x as usize,
            s.y as usize,
            s.width as usize,
            s.height as usize,
        )
    };
    let mut found = Vec::new();
    for (i, a) in wad.samples.iter().enumerate() {
        for (j, b) in wad.samples.iter().enumerate().skip((i + 1).max(first_new)) {
            let (pa, xa, ya, wa, ha) = rect(a);
            let (pb, xb, yb, wb, hb) = rect(b);
            let same_place = (pa, xa, ya, wa, ha) == (pb, xb, yb, wb, hb);
            if pa == pb && !same_place && xa < xb + wb && xb < xa + wa && ya < yb + hb && yb < ya + ha {
                found.push((i, j));
            }
        }
    }
    found
}

#[test]
fn copying_every_object_of_the_real_level_gives_its_objects_and_keeps_the_fixtures_others() {
    let Some(level) = real_level() else { return };
    let fixture = wadforge_fixtures::standard();
    // Read under TR4's ids, the destination's game, so each object keeps its id: what is tested
    // here is the merge (copy between games moves ids by the catalogue: edit/src/copy.rs).
    let src = Input::canonical(&level, TR4);
    let dest = Input::canonical(&fixture, TR4);
    let copied = copy(&src, &all_objects(&level), &dest, None).unwrap();
    assert!(copied.broken.is_empty(), "{:#?}", copied.broken);
    let out = written(&copied.wad);
    let in_level = |k, id| has(&level, k, id);
    assert_eq!(
        differing(&level, &out, |_, _| true),
        Vec::<String>::new(),
        "the level's objects"
    );
    assert_eq!(
        differing(&fixture, &out, |k, id| !in_level(k, id)),
        Vec::<String>::new(),
        "the fixture's others"
    );
    let level_objects = level.moveables.len() + level.statics.len();
    let others = fixture
        .moveables
        .iter()
        .filter(|m| !has(&level, ObjectKind::Moveable, m.id))
        .count()
        + fixture
            .statics
            .iter()
            .filter(|s| !has(&level, ObjectKind::Static, s.id))
            .count();
    assert_eq!(out.moveables.len() + out.statics.len(), level_objects + others);
    let kept = copied.wad.samples.len() - copied.textures.new_records;
    assert!(overlapping_samples(&copied.wad, kept).is_empty());

    // Removing the level's objects again leaves the fixture without the objects they replaced.
    let out_input = Input::canonical(&out, TR4);
    let level_ids = all_objects(&out)
        .into_iter()
        .filter(|&o| match o {
            ObjectRef::Moveable(i) => in_level(ObjectKind::Moveable, out.moveables[i].id),
            ObjectRef::Static(i) => in_level(ObjectKind::Static, out.statics[i].id),
        })
        .collect::<Vec<_>>();
    let back = written(&remove(&out_input, &level_ids).unwrap().wad);
    assert_eq!(
        differing(&fixture, &back, |k, id| !in_level(k, id)),
        Vec::<String>::new()
    );
    assert_eq!(back.moveables.len() + back.statics.len(), others);
}

#[test]
fn copy_then_remove_gives_the_fixture_back() {
    let Some(level) = real_level() else { return };
    let fixture = wadforge_fixtures::standard();
    // The level's objects whose ids the fixture does not hold.
    let joining: Vec<ObjectRef> = all_objects(&level)
        .into_iter()
        .filter(|&o| match o {
            ObjectRef::Moveable(i) => !has(&fixture, ObjectKind::Moveable, level.moveables[i].id),
            ObjectRef::Static(i) => !has(&fixture, ObjectKind::Static, level.statics[i].id),
        })
        .collect();
    assert!(joining.len() > 40);
    let copied = copy(
        &Input::canonical(&level, TR4), // the fixture's game: ids kept, as above
        &joining,
        &Input::canonical(&fixture, TR4),
        None,
    )
    .unwrap();
    let out = written(&copied.wad);
    assert!(out.pages.len() > fixture.pages.len() && out.samples.len() > fixture.samples.len());
    let added: Vec<ObjectRef> = all_objects(&out)
        .into_iter()
        .filter(|&o| match o {
            ObjectRef::Moveable(i) => !has(&fixture, ObjectKind::Moveable, out.moveables[i].id),
            ObjectRef::Static(i) => !has(&fixture, ObjectKind::Static, out.statics[i].id),
        })
        .collect();
    assert_eq!(added.len(), joining.len());
    let back = written(&remove(&Input::canonical(&out, TR4), &added).unwrap().wad);
    assert_eq!(differing(&fixture, &back, |_, _| true), Vec::<String>::new());
    assert_eq!(differing(&back, &fixture, |_, _| true), Vec::<String>::new());
    assert_eq!(
        (back.pages.len(), back.samples.len(), back.meshes.len()),
        (
            fixture.pages.len(),
            fixture.samples.len(),
            written(&fixture).meshes.len()
        )
    );
}

#[test]
fn as_puts_a_single_object_into_another_slot_and_leaves_the_original() {
    let fixture = wadforge_fixtures::standard();
    let src = Input::canonical(&fixture, TR4);
    let crocodile = select(&fixture, TR4, &["CROCODILE".into()]).unwrap();
    let baddy = wadforge_edit::slot_id(TR4, true, "BADDY_1").unwrap();
    let copied = copy(&src, &crocodile, &src, Some(baddy)).unwrap();
    let out = written(&copied.wad);
    assert_eq!(copied.objects[0].to, format!("BADDY_1 (moveable {baddy})"));
    assert!(!copied.objects[0].replaced);
    // The copy in its new slot is the crocodile, value by value.
    let mut expected = fixture.clone();
    expected.moveables[moveable(&fixture, 51)].id = baddy;
    assert_eq!(
        differing(&expected, &out, |k, id| k == ObjectKind::Moveable && id == baddy),
        Vec::<String>::new()
    );
    assert_eq!(differing(&fixture, &out, |_, _| true), Vec::<String>::new());
    assert_eq!(out.moveables.len(), fixture.moveables.len() + 1);
    // Slots stay in id order.
    assert!(
        out.moveables.windows(2).all(|w| w[0].id < w[1].id)
            == fixture.moveables.windows(2).all(|w| w[0].id < w[1].id)
    );
    // Several objects cannot go into one slot.
    let two = select(&fixture, TR4, &["CROCODILE".into(), "DOOR_TYPE1".into()]).unwrap();
    let e = copy(&src, &two, &src, Some(baddy)).err().expect("refused");
    assert!(e.to_string().contains("one at a time"), "{e}");
}

#[test]
fn meshes_shared_between_copied_objects_stay_shared_and_the_destinations_are_untouched() {
    let fixture = wadforge_fixtures::standard();
    let (switch, lever) = (moveable(&fixture, 306), moveable(&fixture, 318));
    assert_eq!(
        fixture.moveables[switch].meshes[0], fixture.moveables[lever].meshes[0],
        "the fixture shares the base"
    );
    // A destination without the two switches.
    let dest = remove(
        &Input::canonical(&fixture, TR4),
        &[
            ObjectRef::Moveable(MoveableIndex(switch)),
            ObjectRef::Moveable(MoveableIndex(lever)),
        ],
    )
    .unwrap()
    .wad;
    let copied = copy(
        &Input::canonical(&fixture, TR4),
        &[
            ObjectRef::Moveable(MoveableIndex(switch)),
            ObjectRef::Moveable(MoveableIndex(lever)),
        ],
        &Input::canonical(&dest, TR4),
        None,
    )
    .unwrap();
    let out = &copied.wad;
    let (s, l) = (
        &out.moveables[moveable(out, 306)],
        &out.moveables[moveable(out, 318)],
    );
    assert_eq!(s.meshes[0], l.meshes[0]);
    let distinct: std::collections::BTreeSet<_> = s.meshes.iter().chain(&l.meshes).collect();
    assert_eq!(out.meshes.len(), dest.meshes.len() + distinct.len());
    assert_eq!(
        out.meshes[..dest.meshes.len()],
        dest.meshes[..],
        "the destination's meshes, untouched"
    );
    assert_eq!(
        differing(&fixture, &written(out), |_, _| true),
        Vec::<String>::new()
    );
}

/// The fixture with SWITCH_TYPE1's first animation going on into LEVER_SWITCH's second, and a
/// dispatch of LEVER_SWITCH's into SWITCH_TYPE1's third, as real files point across objects.
fn with_cross_references() -> (Wad, usize, usize) {
    let mut wad = wadforge_fixtures::standard();
    let (switch, lever) = (moveable(&wad, 306), moveable(&wad, 318));
    let starts = canonical_starts(&wad.moveables);
    wad.moveables[switch].animations[0].next_animation = (starts[lever] + 1) as i32 - starts[switch] as i32;
    let back = (starts[switch] + 2) as i32 - starts[lever] as i32;
    let lever_animation = wad.moveables[lever]
        .animations
        .iter_mut()
        .find(|a| a.state_changes.iter().any(|c| !c.dispatches.is_empty()))
        .expect("a lever animation with a dispatch");
    lever_animation
        .state_changes
        .iter_mut()
        .find(|c| !c.dispatches.is_empty())
        .unwrap()
        .dispatches[0]
        .next_animation = back;
    (wad, switch, lever)
}

#[test]
fn references_into_another_copied_objects_animations_keep_their_target() {
    let (source, switch, lever) = with_cross_references();
    // A destination where an animated object lies between where the two switches go.
    let mut dest = wadforge_fixtures::standard();
    dest.moveables.retain(|m| m.id != 306 && m.id != 318);
    let mut crocodile = dest.moveables[moveable(&dest, 51)].clone();
    crocodile.id = 310;
    dest.moveables.push(crocodile);
    dest.moveables.sort_by_key(|m| m.id);
    let copied = copy(
        &Input::canonical(&source, TR4),
        &[
            ObjectRef::Moveable(MoveableIndex(switch)),
            ObjectRef::Moveable(MoveableIndex(lever)),
        ],
        &Input::canonical(&dest, TR4),
        None,
    )
    .unwrap();
    assert!(copied.broken.is_empty(), "{:#?}", copied.broken);
    let out = written(&copied.wad);
    let (s, l) = (moveable(&out, 306), moveable(&out, 318));
    assert_eq!(
        out.moveables[s + 1].id,
        310,
        "the crocodile copy sits between them"
    );
    let targets = resolve(&out.moveables, &canonical_starts(&out.moveables));
    assert_eq!(
        targets[s][0].next,
        Some(AnimationRef {
            moveable: MoveableIndex(l),
            animation: 1
        })
    );
    let with_dispatch = targets[l]
        .iter()
        .find_map(|t| t.dispatches.iter().flatten().next().copied())
        .unwrap();
    assert_eq!(
        with_dispatch,
        Some(AnimationRef {
            moveable: MoveableIndex(s),
            animation: 2
        })
    );
    // The destination's own objects keep their references too.
    assert_eq!(
        differing(&dest, &out, |k, id| !(k == ObjectKind::Moveable
            && (id == 306 || id == 318))),
        Vec::<String>::new()
    );
}

#[test]
fn references_into_an_object_not_copied_are_reported_by_object_and_animation() {
    let (source, switch, _) = with_cross_references();
    let dest = wadforge_fixtures::standard();
    let copied = copy(
        &Input::canonical(&source, TR4),
        &[ObjectRef::Moveable(MoveableIndex(switch))],
        &Input::canonical(&dest, TR4),
        None,
    )
    .unwrap();
    assert_eq!(copied.broken.len(), 1, "{:#?}", copied.broken);
    let b = &copied.broken[0];
    assert_eq!(
        (b.object.as_str(), b.animation, b.reference.as_str()),
        ("SWITCH_TYPE1 (moveable 306)", 0, "next animation")
    );
    assert_eq!(
        b.target,
        "animation 1 of LEVER_SWITCH (moveable 318) in the source"
    );
    let out = written(&copied.wad);
    assert_eq!(
        out.moveables[moveable(&out, 306)].animations[0].next_animation,
        0,
        "it loops to itself"
    );
}

#[test]
fn the_real_levels_cross_object_dispatches_keep_their_targets_when_copied_together() {
    let Some(level) = real_level() else { return };
    let starts = canonical_starts(&level.moveables);
    let before = resolve(&level.moveables, &starts);
    let crossing: Vec<(MoveableIndex, AnimationRef)> = MoveableIndex::all(&level.moveables)
        .zip(&before)
        .flat_map(|(i, ts)| {
            ts.iter()
                .flat_map(|t| t.dispatches.iter().flatten().flatten())
                .filter(move |t| t.moveable != i)
                .map(move |t| (i, *t))
        })
        .collect();
    assert!(
        !crossing.is_empty(),
        "LEVEL2_DEMO has dispatches into other objects"
    );
    let ids: Vec<u32> = crossing
        .iter()
        .flat_map(|(i, t)| [level.moveables[*i].id, level.moveables[t.moveable].id])
        .collect();
    let selection: Vec<ObjectRef> = MoveableIndex::all(&level.moveables)
        .filter(|&i| ids.contains(&level.moveables[i].id))
        .map(ObjectRef::Moveable)
        .collect();
    let fixture = wadforge_fixtures::standard();
    let copied = copy(
        &Input::canonical(&level, TR4), // the fixture's game: ids kept, as above
        &selection,
        &Input::canonical(&fixture, TR4),
        None,
    )
    .unwrap();
    assert!(copied.broken.is_empty(), "{:#?}", copied.broken);
    let out = written(&copied.wad);
    let after = resolve(&out.moveables, &canonical_starts(&out.moveables));
    for (i, t) in crossing {
        let (from, to) = (level.moveables[i].id, level.moveables[t.moveable].id);
        let o = moveable(&out, from);
        let found = after[o]
            .iter()
            .flat_map(|t| t.dispatches.iter().flatten().flatten())
            .any(|a| out.moveables[a.moveable].id == to && a.animation == t.animation);
        assert!(
            found,
            "moveable {from}'s dispatch into moveable {to}'s animation {}",
            t.animation
        );
    }
}

#[test]
fn samples_whose_texels_the_destination_has_are_reused() {
    let fixture = wadforge_fixtures::standard();
    let src = Input::canonical(&fixture, TR4);
    let crocodile = select(&fixture, TR4, &["CROCODILE".into()]).unwrap();
    let copied = copy(&src, &crocodile, &src, Some(52)).unwrap();
    let used: std::collections::BTreeSet<u16> = fixture.moveables[moveable(&fixture, 51)]
        .meshes
        .iter()
        .flat_map(|&k| fixture.meshes[k].polygons.iter().map(|p| p.texture.sample))
        .collect();
    assert_eq!(copied.textures.reused, used.len());
    assert_eq!(
        (
            copied.textures.in_free_space,
            copied.textures.on_new_pages,
            copied.textures.new_pages
        ),
        (0, 0, 0)
    );
    assert_eq!(
        (copied.wad.samples.len(), copied.wad.pages.len()),
        (fixture.samples.len(), fixture.pages.len())
    );
}

/// A TR4 level object whose textures the standard fixture does not have.
fn level_object() -> (Wad, ObjectRef) {
    let level = wadforge_fixtures::levels::tr4_model();
    let i = MoveableIndex::all(&level.moveables)
        .max_by_key(|&i| {
            level.moveables[i]
                .meshes
                .iter()
                .map(|&k| level.meshes[k].polygons.len())
                .sum::<usize>()
        })
        .unwrap();
    (level, ObjectRef::Moveable(i))
}

#[test]
fn new_samples_go_into_free_page_space_before_new_pages_are_added() {
    let (level, object) = level_object();
    // The standard fixture with a page no sample uses yet, as a WAD whose objects were removed
    // keeps one.
    let mut fixture = wadforge_fixtures::standard();
    fixture.pages.push(Page::filled([0, 0, 0]));
    let copied = copy(
        &Input::canonical(&level, TR4),
        &[object],
        &Input::canonical(&fixture, TR4),
        None,
    )
    .unwrap();
    let t = copied.textures;
    assert!(t.in_free_space > 0, "{t:?}");
    assert_eq!((t.on_new_pages, t.new_pages), (0, 0), "{t:?}");
    assert_eq!(copied.wad.pages.len(), fixture.pages.len());
    let o = overlapping_samples(&copied.wad, fixture.samples.len());
    assert!(
        o.is_empty(),
        "{o:?} {:?}",
        o.iter()
            .map(|&(a, b)| (copied.wad.samples[a], copied.wad.samples[b]))
            .collect::<Vec<_>>()
    );
    let out = written(&copied.wad);
    assert_eq!(
        differing(&level, &out, |k, id| k == ObjectKind::Moveable
            && id
                == level.moveables[match object {
                    ObjectRef::Moveable(i) => i,
                    _ => MoveableIndex(0),
                }]
                .id),
        Vec::<String>::new()
    );
    assert_eq!(differing(&fixture, &out, |_, _| true), Vec::<String>::new());

    // With every texel of the destination's pages covered, the samples go on a new page.
    let mut full = fixture.clone();
    for page in 0..full.pages.len() as u16 {
        full.samples.push(Sample {
            x: 0,
            y: 0,
            page,
            flip_x: -1,
            flip_y: -1,
            width: PAGE_SIZE as u16,
            height: PAGE_SIZE as u16,
        });
    }
    let copied = copy(
        &Input::canonical(&level, TR4),
        &[object],
        &Input::canonical(&full, TR4),
        None,
    )
    .unwrap();
    let t = copied.textures;
    assert_eq!(t.in_free_space, 0, "{t:?}");
    assert!(t.on_new_pages > 0 && t.new_pages >= 1, "{t:?}");
    assert_eq!(copied.wad.pages.len(), full.pages.len() + t.new_pages);
    assert_eq!(
        copied.wad.pages[..full.pages.len()],
        full.pages[..],
        "the destination's pages, untouched"
    );
}

#[test]
fn copying_an_object_replaces_the_one_of_the_same_id() {
    let (level, _) = level_object();
    let fixture = wadforge_fixtures::standard();
    let joints = select(&level, TR4, &["LARA_SKIN_JOINTS".into()]).unwrap();
    let copied = copy(
        &Input::canonical(&level, TR4),
        &joints,
        &Input::canonical(&fixture, TR4),
        None,
    )
    .unwrap();
    assert!(copied.objects[0].replaced);
    let out = written(&copied.wad);
    assert_eq!(out.moveables.len(), fixture.moveables.len());
    assert_eq!(
        moveable(&out, 9),
        moveable(&fixture, 9),
        "in the place of the one it replaced"
    );
    assert_eq!(
        differing(&level, &out, |k, id| k == ObjectKind::Moveable && id == 9),
        Vec::<String>::new()
    );
    assert_eq!(
        differing(&fixture, &out, |k, id| !(k == ObjectKind::Moveable && id == 9)),
        Vec::<String>::new()
    );
    assert_ne!(
        differing(&fixture, &out, |_, _| true),
        Vec::<String>::new(),
        "LARA_SKIN_JOINTS changed"
    );
}

#[test]
fn naming_an_object_the_source_lacks_is_an_error_listing_what_it_has() {
    let fixture = wadforge_fixtures::standard();
    let e = select(&fixture, TR4, &["BADDY_1".into()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("BADDY_1") && e.contains("CROCODILE"), "{e}");
    let e = wadforge_edit::slot_id(TR4, true, "NO_SUCH_SLOT")
        .unwrap_err()
        .to_string();
    assert!(e.contains("NO_SUCH_SLOT"), "{e}");
}
