//! The same content is identical whatever the layout: quirk files as real editors write them,
//! samples in another order and on other pages, meshes shared or duplicated, levels written as
//! WADs.

use wadforge_diff::{diff, Options, Report};
use wadforge_format::wad;
use wadforge_model::{MoveableIndex, Page, Wad};

fn assert_identical(what: &str, report: &Report) {
    assert!(
        report.is_identical(),
        "{what}: {}\n{}",
        report.summary(),
        report.differing_text(5)
    );
}

/// Reads what a canonical write of `model` gives back.
fn canonical(model: &Wad) -> Wad {
    wad::read(&wad::write(model, None).expect("write"))
        .expect("read")
        .0
}

/// The polygons of a model, each compared with the texture it shows.
fn textured_polygons(model: &Wad) -> usize {
    model.meshes.iter().flat_map(|m| &m.polygons).count()
}

#[test]
fn every_fixture_equals_itself_and_its_canonical_rewrite() {
    let mut models: Vec<(String, Wad)> = wadforge_fixtures::all()
        .into_iter()
        .map(|(n, w)| (n.to_owned(), w))
        .collect();
    for (name, fixture) in [
        ("tr1", wadforge_fixtures::levels::tr1_fixture()),
        ("tr2", wadforge_fixtures::levels::tr2_fixture()),
        ("tr3", wadforge_fixtures::levels::tr3_fixture()),
        ("tr4", wadforge_fixtures::levels::tr4_fixture()),
    ] {
        let level = wadforge_format::level::read(&fixture.bytes).expect("the level fixture reads");
        assert_identical(
            &format!("{name} level read vs its model"),
            &diff(&fixture.model, &level.wad, &Options::default()),
        );
        models.push((format!("{name} level"), level.wad));
    }
    for (name, model) in &models {
        assert!(textured_polygons(model) > 0, "{name} has polygons to compare");
        let report = diff(model, &model.clone(), &Options::default());
        assert_eq!(
            report.objects.len(),
            model.moveables.len() + model.statics.len(),
            "{name}"
        );
        assert_identical(&format!("{name} vs itself"), &report);
        assert_identical(
            &format!("{name} vs its canonical WAD"),
            &diff(model, &canonical(model), &Options::default()),
        );
    }
}

#[test]
fn quirk_layouts_hold_the_same_content_as_a_canonical_file() {
    let standard = wadforge_fixtures::standard();
    for quirk in wadforge_fixtures::quirks() {
        let (read, _) = wad::read(&quirk.bytes).expect("the quirk file reads");
        assert_identical(
            &format!("quirk {} vs its model written canonically", quirk.name),
            &diff(&canonical(&quirk.model), &read, &Options::default()),
        );
        // Quirks that only change the layout hold the standard content; the others do not.
        let report = diff(&standard, &read, &Options::default());
        let same_meaning = objects_equal_ignoring_version(&quirk.model, &standard);
        assert_eq!(
            report.is_identical(),
            same_meaning,
            "quirk {}: {}",
            quirk.name,
            report.summary()
        );
    }
}

fn objects_equal_ignoring_version(a: &Wad, b: &Wad) -> bool {
    Wad {
        version: b.version,
        ..a.clone()
    } == *b
}

#[test]
fn samples_in_another_order_on_other_pages_are_the_same_texture() {
    let original = wadforge_fixtures::standard();
    let mut moved = original.clone();
    // Samples after the first in reverse order, polygons following them (a flipped quad cannot
    // name sample 0, so it stays first).
    let n = moved.samples.len() as u16;
    moved.samples[1..].reverse();
    for p in moved.meshes.iter_mut().flat_map(|m| &mut m.polygons) {
        if p.texture.sample > 0 {
            p.texture.sample = n - p.texture.sample;
        }
    }
    // Pages in reverse order, samples following them.
    let pages = moved.pages.len() as u16;
    moved.pages.reverse();
    for s in &mut moved.samples {
        s.page = pages - 1 - s.page;
    }
    // Every used sample copied to another position on a new page (old texels left behind).
    let mut page = Page::filled([0, 0, 0]);
    let (mut x, mut y, mut row) = (0usize, 0usize, 0usize);
    let used: std::collections::BTreeSet<u16> = moved
        .meshes
        .iter()
        .flat_map(|m| &m.polygons)
        .map(|p| p.texture.sample)
        .collect();
    let mut relocated = 0;
    for &i in &used {
        let s = moved.samples[i as usize];
        let (w, h) = (s.width as usize, s.height as usize);
        if x + 1 + w > 256 {
            (x, y, row) = (0, y + row, 0);
        }
        if y + h > 256 || w >= 256 {
            continue; // the new page is full: this one stays where it is
        }
        let source = &moved.pages[s.page as usize];
        for dy in 0..h {
            for dx in 0..w {
                page.set_texel(
                    x + 1 + dx,
                    y + dy,
                    source.texel(s.x as usize + dx, s.y as usize + dy),
                );
            }
        }
        let s = &mut moved.samples[i as usize];
        (s.x, s.y, s.page) = ((x + 1) as u8, y as u8, pages);
        (x, row) = (x + w + 1, row.max(h));
        relocated += 1;
    }
    moved.pages.push(page);
    assert!(relocated >= 5, "only {relocated} samples moved");
    assert_ne!(moved, original);
    assert_identical("moved samples", &diff(&original, &moved, &Options::default()));
    assert_identical(
        "moved samples, written",
        &diff(&original, &canonical(&moved), &Options::default()),
    );
}

#[test]
fn shared_and_duplicated_meshes_are_the_same_content() {
    let original = wadforge_fixtures::standard();
    let references =
        original.moveables.iter().map(|m| m.meshes.len()).sum::<usize>() + original.statics.len();
    assert!(references > original.meshes.len(), "the fixture shares meshes");
    // Every reference its own copy, the copies in reverse order.
    let mut duplicated = original.clone();
    duplicated.meshes.clear();
    let total = references;
    let mut copy = |index: &mut usize| {
        duplicated.meshes.push(original.meshes[*index].clone());
        *index = total - duplicated.meshes.len();
    };
    let mut moveables = original.moveables.clone();
    let mut statics = original.statics.clone();
    moveables
        .iter_mut()
        .flat_map(|m| &mut m.meshes)
        .for_each(&mut copy);
    statics.iter_mut().for_each(|s| copy(&mut s.mesh));
    duplicated.meshes.reverse();
    (duplicated.moveables, duplicated.statics) = (moveables, statics);
    assert_eq!(duplicated.meshes.len(), references);
    assert_identical(
        "duplicated meshes",
        &diff(&original, &duplicated, &Options::default()),
    );
    // The canonical writer shares them again.
    let shared = canonical(&duplicated);
    assert!(shared.meshes.len() < references);
    assert_identical(
        "deduplicated again",
        &diff(&duplicated, &shared, &Options::default()),
    );
}

#[test]
fn a_reference_into_another_objects_animations_is_the_animation_it_names() {
    use wadforge_model::references::{canonical_starts, encode, resolve};
    // SWITCH_TYPE1's first animation goes on into LEVER_SWITCH's second, as real files point
    // across objects.
    let mut a = wadforge_fixtures::standard();
    let index = |w: &Wad, id: u32| w.moveables.iter().position(|m| m.id == id).unwrap();
    let (switch, lever) = (index(&a, 306), index(&a, 318));
    let starts = canonical_starts(&a.moveables);
    a.moveables[switch].animations[0].next_animation = (starts[lever] + 1) as i32 - starts[switch] as i32;
    // The same objects in the other table order: the reference's number changes, its animation not.
    let targets = resolve(&a.moveables, &starts);
    let order: Vec<usize> = (0..a.moveables.len()).rev().collect();
    let mut b = a.clone();
    b.moveables = order.iter().map(|&i| a.moveables[i].clone()).collect();
    let mut reordered: Vec<_> = order.iter().map(|&i| targets[i].clone()).collect();
    for t in reordered.iter_mut().flatten() {
        let back = |r: &mut wadforge_model::references::AnimationRef| {
            r.moveable = MoveableIndex(order.len() - 1 - r.moveable.0)
        };
        t.next.as_mut().map(back);
        t.dispatches.iter_mut().flatten().flatten().for_each(back);
    }
    encode(&mut b.moveables, &reordered);
    let (b_switch, b_lever) = (index(&b, 306), index(&b, 318));
    assert_ne!(
        a.moveables[switch].animations[0].next_animation, b.moveables[b_switch].animations[0].next_animation,
        "the number depends on the table order"
    );
    assert_identical("reordered", &diff(&a, &b, &Options::default()));

    // Naming another animation of that object is a difference, told by object and animation.
    let b_starts = canonical_starts(&b.moveables);
    b.moveables[b_switch].animations[0].next_animation =
        (b_starts[b_lever] + 2) as i32 - b_starts[b_switch] as i32;
    let report = diff(&a, &b, &Options::default());
    let text = report.differing_text(5);
    assert!(
        text.contains("animation 1 of moveable 318") && text.contains("animation 2 of moveable 318"),
        "{text}"
    );
}
