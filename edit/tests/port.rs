//! `port`: what convert changes of objects on their way into a classic WAD (pages of the texels
//! polygons use, normals at TR's length, frame ranges clamped to the keyframes), each change
//! listed for its object.

use crate::common::*;
use wadforge_edit::port::{port, Steps};
use wadforge_edit::repack::repack;
use wadforge_edit::texture::{texels, Texels};
use wadforge_format::{Page, Shading, Wad};

const CLASSIC: Steps = Steps {
    repack: false,
    classic: true,
};

/// The standard fixture with each sample alone on a page of its own (at its place there), and a
/// page and a sample no polygon uses: pages as a Wad2's whole textures give them.
fn spread() -> Wad {
    let mut wad = wadforge_fixtures::standard();
    let mut pages = Vec::new();
    for i in 0..wad.samples.len() {
        let (w, _, rgb) = texels(&wad, i).unwrap();
        let s = &mut wad.samples[i];
        let mut page = Page::filled([255, 0, 255]);
        page.put_rect(usize::from(s.x), usize::from(s.y), usize::from(w), &rgb);
        pages.push(page);
        s.page = (pages.len() - 1) as u16;
    }
    pages.push(Page::filled([1, 2, 3]));
    let unused = wadforge_format::Sample {
        page: (pages.len() - 1) as u16,
        width: 200,
        height: 200,
        ..wad.samples[0]
    };
    wad.samples.push(unused);
    wad.pages = pages;
    wad
}

/// What each polygon shows: its sample's texels, flip and shape, mesh by mesh.
fn shown(wad: &Wad) -> Vec<(Texels, bool, u8)> {
    let polygons = wad.meshes.iter().flat_map(|m| &m.polygons);
    polygons
        .map(|p| {
            let t = p.texture;
            (texels(wad, usize::from(t.sample)).unwrap(), t.flipped, t.shape)
        })
        .collect()
}

#[test]
fn repacking_keeps_only_the_texels_polygons_use_and_each_polygon_shows_what_it_showed() {
    let fixture = wadforge_fixtures::standard();
    let mut wad = spread();
    let before = shown(&wad);
    let (pages_before, samples_before) = (wad.pages.len(), wad.samples.len());
    let repacked = repack(&mut wad).unwrap().expect("fewer pages");
    assert_eq!(
        (repacked.pages_before, repacked.samples_before),
        (pages_before, samples_before)
    );
    assert_eq!(repacked.pages_after, wad.pages.len());
    assert_eq!(repacked.samples_after, wad.samples.len());
    // The fixture's own layout shares texels between overlapping samples; packed apart they
    // still take no more pages than it has.
    assert!(
        wad.pages.len() <= fixture.pages.len(),
        "{} pages for the fixture's {}",
        wad.pages.len(),
        fixture.pages.len()
    );
    assert_eq!(
        shown(&wad),
        before,
        "every polygon shows its texels, flips and shape"
    );
    let polygons = wad.meshes.iter().flat_map(|m| &m.polygons);
    let used: std::collections::HashSet<u16> = polygons.map(|p| p.texture.sample).collect();
    assert_eq!(
        used.len(),
        wad.samples.len(),
        "no sample left that no polygon uses"
    );
    assert!(wad.samples.iter().all(|s| usize::from(s.page) < wad.pages.len()));
    assert!(
        wad.meshes
            .iter()
            .flat_map(|m| &m.polygons)
            .all(|p| !(p.is_quad && p.texture.flipped && p.texture.sample == 0)),
        "no flipped quad names sample 0"
    );
    // Written and read back, the objects are those of the fixture.
    assert_eq!(
        differing(&fixture, &written(&wad), |_, _| true),
        Vec::<String>::new()
    );
}

#[test]
fn pages_that_hold_only_what_polygons_use_are_left_as_they_are() {
    let mut wad = spread();
    repack(&mut wad).unwrap().expect("fewer pages the first time");
    let once = wad.clone();
    assert_eq!(repack(&mut wad).unwrap(), None);
    assert_eq!(wad, once);
    let steps = Steps {
        repack: true,
        classic: false,
    };
    assert_eq!(port(&mut wad, TR4, steps).unwrap(), vec![]);
}

/// Lengths of the normals of the meshes `moveable` wears.
fn normal_lengths(wad: &Wad, id: u32) -> Vec<f64> {
    let moveable = wad.moveables.iter().find(|m| m.id == id).unwrap();
    let meshes = moveable.meshes.iter().map(|&k| &wad.meshes[k]);
    meshes
        .flat_map(|m| match &m.shading {
            Shading::Normals(n) => n.clone(),
            Shading::Shades(_) => Vec::new(),
        })
        .map(|n| n.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt())
        .collect()
}

#[test]
fn normals_off_tr_length_are_brought_to_it_and_listed_for_the_object_wearing_them() {
    let mut wad = wadforge_fixtures::standard();
    let crocodile = wad.moveables.iter().find(|m| m.id == 51).unwrap().meshes.clone();
    let mut long = 0;
    for &k in &crocodile {
        if let Shading::Normals(normals) = &mut wad.meshes[k].shading {
            for n in normals.iter_mut().filter(|n| **n != [0, 0, 0]) {
                *n = n.map(|c| c / 4);
                long += 1;
            }
        }
    }
    assert!(long > 0);
    let changes = port(&mut wad, TR4, CLASSIC).unwrap();
    let lengths = normal_lengths(&wad, 51);
    assert!(
        lengths.iter().all(|&l| l == 0.0 || (l - 16300.0).abs() <= 163.0),
        "{lengths:?}"
    );
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let change = &changes[0];
    assert_eq!(change.object, "CROCODILE (moveable 51)");
    assert_eq!(change.count, long);
    assert!(change.what.contains("normals"), "{change}");
    assert_eq!(change.to, "16300");
    let first = wad.moveables.iter().find(|m| m.id == 51).unwrap();
    assert!(first.meshes.iter().all(|k| crocodile.contains(k)));
}

#[test]
fn frame_ranges_past_the_keyframes_are_clamped_as_tomb_editors_compiler_clamps_them() {
    let mut wad = wadforge_fixtures::standard();
    let crocodile = wad.moveables.iter_mut().find(|m| m.id == 51).unwrap();
    let (k, animation) = crocodile
        .animations
        .iter_mut()
        .enumerate()
        .find(|(_, a)| a.keyframes.len() >= 2 && a.state_changes.iter().any(|s| !s.dispatches.is_empty()))
        .expect("an animation with keyframes and a state change");
    let last = animation.frame_start
        + u16::from(animation.frame_duration.max(1)) * (animation.keyframes.len() as u16 - 1);
    assert!(
        animation.frame_end <= last,
        "the fixture's range fits its keyframes"
    );
    let (start, end) = (animation.frame_start, last + 25);
    animation.frame_end = end;
    let dispatch = animation
        .state_changes
        .iter_mut()
        .flat_map(|s| &mut s.dispatches)
        .next()
        .unwrap();
    dispatch.frame_end = end + 30;
    let changes = port(&mut wad, TR4, CLASSIC).unwrap();
    let animation = &wad.moveables.iter().find(|m| m.id == 51).unwrap().animations[k];
    assert_eq!(animation.frame_end, last);
    assert_eq!(animation.played_keyframes(), animation.keyframes.len());
    let dispatch = animation
        .state_changes
        .iter()
        .flat_map(|s| &s.dispatches)
        .next()
        .unwrap();
    assert_eq!(dispatch.frame_end, last + 1, "one past the last frame at most");
    let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            format!(
                "CROCODILE (moveable 51): animation {k}'s frames (past its {} keyframes): {start}–{end} → {start}–{last}",
                animation.keyframes.len()
            ),
            format!(
                "CROCODILE (moveable 51): animation {k}'s state change ranges (past its frames): up to frame {} → up to frame {}",
                end + 30,
                last + 1
            ),
        ]
    );
}
