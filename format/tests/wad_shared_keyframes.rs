//! Animations that share keyframe data, as Core's tools stored them: each reads the keyframes
//! its frame range plays from its own offset with its own keyframe size. The canonical writer
//! gives every animation words of its own.

use wadforge_fixtures::sharing::layout_sharing_keyframes;
use wadforge_format::wad::{self, Layout};
use wadforge_format::*;

/// `model` written with keyframe data shared as Core's tools stored it.
fn shared_file(model: &Wad) -> Vec<u8> {
    wad::write(model, Some(&layout_sharing_keyframes(model))).unwrap()
}

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
                // than the walk's keyframe size): inside the walk's data.
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
    let bytes = shared_file(&model);
    let (read, layout) = wad::read(&bytes).unwrap();
    let walk = &model.moveables[0].animations[0].keyframes;
    let got = &read.moveables[0].animations;
    assert_eq!(got[1].keyframes, [walk[0].clone(), walk[2].clone()]);
    assert_eq!(got[2].keyframes, walk[1..3]);
    assert_eq!(got[3].keyframes, walk[2..3]);
    assert_eq!(read, model);
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);

    let size = WALK_SIZE as u32 * 2;
    // The slices of the walk after its start have data of their own, the single keyframe aside.
    let (middle_at, third_at, run_at) = (4 * size, 2 * size, 6 * size);
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
    assert_eq!(layout.keyframes.len as u32, run_at + 3 * size);
    // The document's count reads the walk short (the slow walk starts on it), the middle and
    // the third keyframe out of order, and the shorter run short (the run starts on it).
    let miscounted: Vec<usize> = (wad::miscounted_animations(&read, &layout).iter())
        .map(|m| m.animation)
        .collect();
    assert_eq!(miscounted, [0, 2, 3, 4]);
}

#[test]
fn writing_canonically_gives_every_animation_words_of_its_own() {
    let (read, _) = wad::read(&shared_file(&model())).unwrap();
    let canonical = wad::write(&read, None).unwrap();
    let (again, layout) = wad::read(&canonical).unwrap();
    assert_eq!(again, read);
    assert_eq!(wad::miscounted_animations(&again, &layout), []);
    let offsets: Vec<u32> = placement(&layout).iter().map(|p| p.0).collect();
    assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{offsets:?}");
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
    let bytes = with_frame_end(&shared_file(&model()), 4, 10 + 2 * 3);
    let (read, layout) = wad::read(&bytes).unwrap();
    let run = &model().moveables[0].animations[5].keyframes;
    assert_eq!(read.moveables[0].animations[4].keyframes, run[..]);
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}

#[test]
fn a_range_longer_than_the_keyframe_data_keeps_the_words_as_stored() {
    // The last animation's range made 40 frames longer: its played keyframes run past the data.
    let bytes = with_frame_end(&shared_file(&model()), 5, 14 + 40);
    let (read, layout) = wad::read(&bytes).unwrap();
    let run = &read.moveables[0].animations[5];
    assert!(run.keyframes.is_empty());
    let stored = run.undecodable_keyframes.as_ref().expect("kept as stored");
    // Its own words: the run's three keyframes, to the end of the data.
    assert_eq!(
        (stored.size, stored.words.len()),
        (WALK_SIZE, 3 * WALK_SIZE as usize)
    );
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
    let (again, _) = wad::read(&wad::write(&read, None).unwrap()).unwrap();
    assert_eq!(again, read);
}

#[test]
fn keyframes_another_animation_stores_that_do_not_decode_stay_on_its_first_word() {
    // The walk's keyframe size one word short. It owns no data (the slow walk starts where it
    // does), and read 12 words apart its second keyframe starts a word early: its angle sets run
    // past the 12 words. The file is read; the walk keeps its size and owns no words.
    let mut bytes = shared_file(&model());
    let at = animations_at(&bytes) + 5;
    bytes[at] = WALK_SIZE - 1;
    let (read, layout) = wad::read(&bytes).unwrap();
    let walk = &read.moveables[0].animations[0];
    assert!(walk.keyframes.is_empty());
    let stored = walk.undecodable_keyframes.as_ref().expect("kept as stored");
    assert_eq!((stored.size, stored.words.len()), (WALK_SIZE - 1, 0));
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
    // Written canonically, it starts on the slow walk's first word again, as Core's tools wrote
    // it: the game reads the same words, and the document's count gives it none.
    let canonical = wad::write(&read, None).unwrap();
    let (again, again_layout) = wad::read(&canonical).unwrap();
    assert_eq!(again, read);
    let animations = &again_layout.moveables[0].animations;
    assert_eq!(animations[0].keyframe_offset, animations[1].keyframe_offset);
}

#[test]
fn animations_pointing_at_one_stretch_of_data_read_a_bounded_amount_of_it() {
    // A walk and five single poses of its first keyframe, all stored on the walk's data, then
    // every range made as long as the engine's signed frames go: each would read the data to its
    // end, and past it.
    let mut model = model();
    let walk: Vec<Keyframe> = (0..4).map(|k| keyframe(k, true)).collect();
    model.moveables[0].animations = std::iter::once(animation(0, 1, walk.clone()))
        .chain((0..5).map(|p| animation(4 + p, 1, walk[..1].to_vec())))
        .collect();
    let mut bytes = shared_file(&model);
    for a in 0..6 {
        bytes = with_frame_end(&bytes, a, i16::MAX as u16);
    }
    let (read, layout) = wad::read(&bytes).unwrap();
    let data = layout.keyframes.len / 2;
    assert_eq!(data, 4 * WALK_SIZE as usize, "the walk's data, once");
    // Every animation's played keyframes run past the data: each keeps at most the data.
    for a in &read.moveables[0].animations {
        let stored = a.undecodable_keyframes.as_ref().expect("kept as stored");
        assert!(
            a.keyframes.is_empty() && stored.words.len() <= data,
            "{} words",
            stored.words.len()
        );
    }
    assert_eq!(wad::write(&read, Some(&layout)).unwrap(), bytes);
}

#[test]
fn keyframes_that_stop_decoding_in_padding_write_back_byte_for_byte() {
    // Found by the mutation test: LARA's stand with its first frame made negative plays
    // thousands of keyframes, read on across padding words no keyframe explains until they run
    // past the data. The words it keeps are its own; the padding stays padding.
    let (_, mut bytes) = (wadforge_fixtures::quirky_files().into_iter())
        .find(|(name, _)| *name == "keyframe_padding")
        .unwrap();
    let frame_start_high_byte = animations_at(&bytes) + 4 * 40 + 24 + 1;
    bytes[frame_start_high_byte] = 0x80;
    let (read, layout) = wad::read(&bytes).unwrap();
    assert!(read.moveables[0].animations[4].undecodable_keyframes.is_some());
    assert!(wad::write(&read, Some(&layout)).unwrap() == bytes);
}

#[test]
fn an_animation_owning_no_words_is_moved_off_a_start_whose_words_it_would_decode() {
    // The first animation's own words did not decode (none are kept); the second's one keyframe
    // (9 + 2 + 1 words, a size the first shares) would decode read from its start.
    let stand = Animation {
        frame_duration: 1,
        keyframes: vec![keyframe(1, false)],
        ..Animation::default()
    };
    let size = 12;
    let broken = Animation {
        frame_duration: 1,
        undecodable_keyframes: Some(UndecodableKeyframes {
            size,
            words: Vec::new(),
        }),
        ..Animation::default()
    };
    let mut wad = model();
    wad.moveables[0].animations = vec![broken, stand];
    let bytes = wad::write(&wad, None).unwrap();
    let (read, layout) = wad::read(&bytes).unwrap();
    // The model comes back: the first still owns nothing and decodes nothing.
    assert_eq!(read.moveables[0].animations, wad.moveables[0].animations);
    let offsets: Vec<u32> = layout.moveables[0]
        .animations
        .iter()
        .map(|a| a.keyframe_offset)
        .collect();
    assert_eq!(offsets, [2, 0], "a word into the second's keyframe");
    // The document's count gives it none: the next animation's offset lies before its own.
    assert_eq!(wad::miscounted_animations(&read, &layout), []);
}
