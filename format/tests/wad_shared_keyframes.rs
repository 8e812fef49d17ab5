//! Animations that share keyframe data: each reads the keyframes its frame range plays from its
//! own offset with its own keyframe size; the canonical writer stores keyframes another
//! animation already stores only once.

use wadforge_format::wad::{self, Layout};
use wadforge_format::*;

/// A keyframe of a two-mesh moveable: the root turned on three axes (two words), the child
/// about Y only (one word) or, with `bend`, on three axes.
fn keyframe(k: i16, bend: bool) -> Keyframe {
    let child = if bend {
        Rotation::compact(64, 128 + 8 * k as u16, 4)
    } else {
        Rotation::compact(0, 256 + 16 * k as u16, 0)
    };
    Keyframe {
        bounding_box: BoundingBox {
            min: [-50 - k, -200, -50],
            max: [50, k, 50],
        },
        offset: [k, -100 - k, 2 * k],
        rotations: vec![Rotation::compact(4 * k as u16 + 8, 12, 16), child],
    }
}

/// An animation of `keyframes`, `duration` ticks each, starting at frame `start`.
fn animation(start: u16, duration: u8, keyframes: Vec<Keyframe>) -> Animation {
    Animation {
        frame_duration: duration,
        state: start,
        frame_start: start,
        frame_end: start + (keyframes.len() as u16 - 1) * duration as u16,
        next_animation: 0,
        keyframes,
        ..Animation::default()
    }
}

/// Words of the walk's keyframes: 13 when the child bends, 12 when it does not.
const WALK_SIZE: u8 = 13;

/// One moveable: a walk of four keyframes (the first and third a word shorter), then animations
/// made of the walk's keyframes, then a run that starts with the keyframes of the animation
/// before it.
fn model() -> Wad {
    let walk: Vec<Keyframe> = (0..4).map(|k| keyframe(k, k % 2 == 1)).collect();
    let run: Vec<Keyframe> = (10..13).map(|k| keyframe(k, true)).collect();
    let mesh = Mesh {
        sphere: BoundingSphere {
            center: [0, -50, 0],
            radius: 90,
            flag: 0,
        },
        vertices: vec![[-50, 0, -50], [50, 0, -50], [0, -100, 50]],
        shading: Shading::Shades(vec![4000; 3]),
        polygons: vec![Polygon::triangle(
            [0, 1, 2],
            PolygonTexture::default(),
            Attributes::default(),
        )],
    };
    Wad {
        version: 129,
        samples: vec![Sample {
            x: 0,
            y: 0,
            page: 0,
            flip_x: -1,
            flip_y: -1,
            width: 8,
            height: 8,
        }],
        pages: vec![Page::filled([1, 2, 3])],
        meshes: vec![mesh],
        moveables: vec![Moveable {
            id: 30,
            meshes: vec![0, 0],
            links: vec![Link {
                parent: 0,
                offset: [0, -100, 0],
            }],
            animations: vec![
                animation(0, 1, walk.clone()),
                // Every other keyframe of the walk, twice as slow: twice the walk's size apart.
                animation(4, 2, vec![walk[0].clone(), walk[2].clone()]),
                // The walk's second and third keyframes, and its third alone (a word shorter
                // than the walk's keyframe size): inside the walk's data, so stored anew.
                animation(7, 1, walk[1..3].to_vec()),
                animation(9, 1, vec![walk[2].clone()]),
                // The run's first two keyframes, before the run.
                animation(10, 3, run[..2].to_vec()),
                animation(14, 1, run),
            ],
        }],
        statics: vec![],
    }
}

fn placement(layout: &Layout) -> Vec<(u32, u8)> {
    layout.moveables[0]
        .animations
        .iter()
        .map(|a| (a.keyframe_offset, a.keyframe_size))
        .collect()
}

#[test]
fn each_animation_reads_its_own_keyframes_from_shared_data() {
    let model = model();
    let bytes = wad::write(&model, None).unwrap();
    let (read, layout) = wad::read(&bytes).unwrap();
    let walk = &model.moveables[0].animations[0].keyframes;
    let got = &read.moveables[0].animations;
    assert_eq!(got[1].keyframes, [walk[0].clone(), walk[2].clone()]);
    assert_eq!(got[2].keyframes, walk[1..3]);
    assert_eq!(got[3].keyframes, walk[2..3]);
    assert_eq!(read, model);
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);

    let size = WALK_SIZE as u32 * 2;
    let (middle_at, third_at) = (4 * size, 6 * size);
    let run_at = third_at + size - 2;
    assert_eq!(
        placement(&layout),
        [
            (0, WALK_SIZE),
            (0, 2 * WALK_SIZE),
            (middle_at, WALK_SIZE),
            (third_at, WALK_SIZE - 1),
            (run_at, WALK_SIZE),
            (run_at, WALK_SIZE),
        ]
    );
    // The walk and the run, each stored once; the keyframes inside the walk's data again.
    assert_eq!(layout.keyframes.len as u32, run_at + 3 * size);
}

#[test]
fn writing_canonically_again_keeps_the_sharing() {
    let first = wad::write(&model(), None).unwrap();
    let (read, _) = wad::read(&first).unwrap();
    assert_eq!(wad::write(&read, None).unwrap(), first);
}

/// Byte offset of the animation table's first record.
fn animations_at(bytes: &[u8]) -> usize {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut at = 4;
    at += 4 + u32_at(at) * 8; // samples
    at += 4 + u32_at(at); // texture bytes
    at += 4 + u32_at(at) * 4; // mesh pointers
    at += 4 + u32_at(at) * 2; // meshes
    at + 4
}

/// `bytes` with animation `a`'s frame end set to `frame_end`.
fn with_frame_end(bytes: &[u8], a: usize, frame_end: u16) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let at = animations_at(&bytes) + a * 40 + 26;
    bytes[at..at + 2].copy_from_slice(&frame_end.to_le_bytes());
    bytes
}

#[test]
fn a_range_longer_than_its_keyframes_reads_on_into_the_next_animations() {
    // The shorter run's range made one keyframe longer: the game reads the run's third keyframe.
    let bytes = with_frame_end(&wad::write(&model(), None).unwrap(), 4, 10 + 2 * 3);
    let (read, layout) = wad::read(&bytes).unwrap();
    let run = &model().moveables[0].animations[5].keyframes;
    assert_eq!(read.moveables[0].animations[4].keyframes, run[..]);
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}

#[test]
fn a_range_longer_than_the_keyframe_data_reads_the_keyframes_there() {
    let bytes = with_frame_end(&wad::write(&model(), None).unwrap(), 5, 14 + 40);
    let (read, layout) = wad::read(&bytes).unwrap();
    assert_eq!(
        read.moveables[0].animations[5].keyframes,
        model().moveables[0].animations[5].keyframes
    );
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}

#[test]
fn keyframes_another_animation_stores_that_do_not_decode_end_the_animation() {
    // The walk's keyframe size one word short. It owns no data (the slow walk starts where it
    // does), and read 12 words apart its second keyframe starts a word early: its angle sets run
    // past the 12 words. The walk ends there instead of the file being refused.
    let mut bytes = wad::write(&model(), None).unwrap();
    let at = animations_at(&bytes) + 5;
    bytes[at] = WALK_SIZE - 1;
    let (read, layout) = wad::read(&bytes).unwrap();
    let walk = &model().moveables[0].animations[0].keyframes;
    assert_eq!(read.moveables[0].animations[0].keyframes, walk[..1]);
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}

#[test]
fn animations_pointing_at_one_stretch_of_data_read_a_bounded_amount_of_it() {
    // A walk and five single poses of its first keyframe, all stored on the walk's data, then
    // every range made as long as a range can be: each would read the data to its end.
    let mut model = model();
    let walk: Vec<Keyframe> = (0..4).map(|k| keyframe(k, true)).collect();
    model.moveables[0].animations = std::iter::once(animation(0, 1, walk.clone()))
        .chain((0..5).map(|p| animation(4 + p, 1, walk[..1].to_vec())))
        .collect();
    let mut bytes = wad::write(&model, None).unwrap();
    for a in 0..6 {
        bytes = with_frame_end(&bytes, a, u16::MAX);
    }
    let (read, layout) = wad::read(&bytes).unwrap();
    let data = layout.keyframes.len / 2;
    assert_eq!(data, 4 * WALK_SIZE as usize, "the walk's data, once");
    let words: usize = read.moveables[0]
        .animations
        .iter()
        .map(|a| a.keyframes.len() * WALK_SIZE as usize)
        .sum();
    // The last animation's own data once, and four times the data past the animations' own.
    assert_eq!(words, data + 4 * data, "{words} keyframe words read from {data}");
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}
