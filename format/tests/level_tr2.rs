//! The TR2 and TR3 level readers against levels written from scratch (the TR1 fixture's content
//! in each game's layout: 16-bit textiles, TR2/TR3 rooms, boxes, items and frames with one-axis
//! and three-axis angle sets). Animations sharing frames are checked for TR1 here too.

use wadforge_fixtures::levels::{tr2_fixture, tr3_fixture, LevelFixture};
use wadforge_format::catalog::Game;
use wadforge_format::level::{self, Problem, Section};
use wadforge_format::{AngleEncoding, Wad};

fn games() -> [(Game, u32, LevelFixture); 2] {
    [
        (Game::Tr2, 0x2D, tr2_fixture()),
        (Game::Tr3, 0xFF18_0038, tr3_fixture()),
    ]
}

#[test]
fn the_fixtures_read_as_the_expected_models() {
    for (game, version, fixture) in games() {
        let level = level::read(&fixture.bytes).unwrap_or_else(|e| panic!("{game:?}: {e}"));
        assert_eq!((level.game, level.version), (game, version));
        let (got, want) = (&level.wad, &fixture.model);
        assert_eq!(got.samples, want.samples, "{game:?}");
        assert_eq!(got.meshes, want.meshes, "{game:?}");
        assert_eq!(got.statics, want.statics, "{game:?}");
        assert_eq!(got.moveables, want.moveables, "{game:?}");
        for (i, (g, w)) in got.pages.iter().zip(&want.pages).enumerate() {
            assert!(g == w, "{game:?}: page {i} differs");
        }
        assert_eq!(got, want, "{game:?}");
        assert_eq!(level.skewed, fixture.skewed, "{game:?}");
    }
}

#[test]
fn frames_keep_one_axis_and_three_axis_angles() {
    for (game, _, fixture) in games() {
        let wad = level::read(&fixture.bytes).unwrap().wad;
        let by_id = |id: u32| wad.moveables.iter().find(|m| m.id == id).unwrap();
        let wolf = by_id(7);
        assert_eq!(wolf.animations.len(), 2, "{game:?}");
        let first = &wolf.animations[0].keyframes[0].rotations;
        // 0x8000 | 256: a quarter turn about Y, 1024 of the model's 4096.
        assert_eq!((first[0].encoding, first[0].y), (AngleEncoding::Y, 1024));
        assert_eq!((first[1].encoding, first[1].x), (AngleEncoding::X, 64));
        assert_eq!(first[2].encoding, AngleEncoding::ThreeAxes);
        assert_eq!((first[2].x, first[2].z), (4092, 8));
        let bat = by_id(9);
        assert_eq!(bat.animations[0].keyframes[0].rotations[0].y, 512);
        // Two textiles and the page of solid colours.
        assert_eq!(wad.pages.len(), 3);
    }
}

#[test]
fn textiles_are_16_bit_with_alpha_and_colours_come_from_the_16_bit_palette() {
    let wad: Wad = level::read(&tr2_fixture().bytes).unwrap().wad;
    // Alpha bit 0 reads as magenta; the colour page cell of colour 17 is its 16-bit entry.
    assert_eq!(wad.pages[0].texel(65, 0), [255, 0, 255]);
    assert_ne!(wad.pages[0].texel(205, 205), [255, 0, 255]);
    let colour = wad.meshes[0].polygons[4];
    let s = wad.samples[colour.texture.sample as usize];
    assert_eq!((s.page, s.x, s.y), (2, 17 * 4, 0));
    assert_eq!(
        wad.pages[2].texel(17 * 4 + 1, 1),
        [17 * 7, (17 * 13 + 5) as u8, (17 * 29 + 11) as u8]
    );
}

#[test]
fn every_truncation_gives_a_typed_error() {
    for (game, _, fixture) in games() {
        let bytes = fixture.bytes;
        for cut in 0..bytes.len() {
            let e = level::read(&bytes[..cut]).expect_err("a cut file must not read");
            assert!(e.offset <= cut as u64, "{game:?} cut {cut}: {e}");
        }
    }
}

#[test]
fn random_mutations_never_panic() {
    for (game, _, fixture) in games() {
        let bytes = fixture.bytes;
        let textiles_end = 4 + 768 + 1024 + 4 + 2 * 3 * 65536;
        let tail = bytes.len() - textiles_end;
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut read_ok = 0;
        for _ in 0..2000 {
            let mut m = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = match next() % 10 {
                    0 => (next() % 12) as usize,
                    1 => 4 + 768 + (next() % 1028) as usize,
                    _ => textiles_end + (next() as usize % tail),
                };
                m[at] = match next() % 4 {
                    0 => 0xFF,
                    1 => 0,
                    2 => m[at].wrapping_add(1),
                    _ => next() as u8,
                };
            }
            read_ok += level::read(&m).is_ok() as usize;
        }
        assert!(read_ok > 0, "{game:?}");
    }
}

#[test]
fn other_versions_are_refused() {
    // A TR2 file under TR4's version words does not read as TR4.
    for version in [0x0034_5254u32, 0x6334_5254] {
        let mut bytes = tr2_fixture().bytes;
        bytes[..4].copy_from_slice(&version.to_le_bytes());
        assert!(level::read(&bytes).is_err(), "{version:#x}");
    }
    // A TR2 file under TR1's or TR3's version word, and the other way round, does not read.
    for (from, version) in [
        (tr2_fixture(), 0x20u32),
        (tr2_fixture(), 0xFF08_0038),
        (tr3_fixture(), 0x2D),
    ] {
        let mut bytes = from.bytes;
        bytes[..4].copy_from_slice(&version.to_le_bytes());
        assert!(level::read(&bytes).is_err(), "{version:#x}");
    }
    // TR3's other version word reads the same.
    let mut bytes = tr3_fixture().bytes;
    bytes[..4].copy_from_slice(&0xFF08_0038u32.to_le_bytes());
    let level = level::read(&bytes).unwrap();
    assert_eq!((level.game, level.version), (Game::Tr3, 0xFF08_0038));
    assert_eq!(level.wad, tr3_fixture().model);
    let e = level::read(&[0x2E, 0, 0, 0]).unwrap_err();
    assert_eq!(e.problem, Problem::UnknownVersion(0x2E));
}

#[test]
fn a_frame_size_too_small_for_the_angles_is_an_error() {
    let mut bytes = tr2_fixture().bytes;
    // The animations table: count 3, then the first record (frame offset 0, rate 2, FrameSize,
    // state 1).
    let pattern = [3u8, 0, 0, 0, 0, 0, 0, 0, 2];
    let at = bytes
        .windows(pattern.len())
        .position(|w| w == pattern)
        .expect("the animations table");
    let record = at + 4;
    bytes[record + 5] = 10;
    let e = level::read(&bytes).unwrap_err();
    assert_eq!(e.section, Section::Frames);
    assert!(
        matches!(
            e.problem,
            Problem::FrameTooSmall {
                size: 10,
                meshes: 3,
                needed: 12
            }
        ),
        "{e}"
    );
    assert!(e
        .context
        .unwrap_or_default()
        .contains("LARA_GRENADE_LAUNCHER_ANIMATION (moveable 7)"));
}

#[test]
fn the_level_models_write_as_wads_and_read_back() {
    for (game, _, fixture) in games() {
        let wad = level::read(&fixture.bytes).unwrap().wad;
        let bytes = wadforge_format::wad::write(&wad, None).expect("the model fits a WAD");
        let (back, _) = wadforge_format::wad::read(&bytes).expect("the WAD reads");
        assert_eq!(back, wad, "{game:?}");
    }
}

/// Byte offset of the wolf's second animation record (32 bytes in TR1–TR3: frames 5..6 at one
/// tick each, after a first animation of frames 0..4 at two ticks), found by its fields.
fn second_wolf_animation(bytes: &[u8]) -> usize {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let matches = (32..bytes.len() - 32)
        .filter(|&p| {
            let record = |at: usize, rate: u8, start: u16, end: u16| {
                bytes[at + 4] == rate && u16_at(at + 16) == start && u16_at(at + 18) == end
            };
            record(p, 1, 5, 6) && record(p - 32, 2, 0, 4) && u16_at(p + 6) == 2
        })
        .collect::<Vec<_>>();
    assert_eq!(matches.len(), 1, "one such record");
    matches[0]
}

#[test]
fn an_animation_whose_frames_start_where_anothers_do_gets_the_frames_its_range_plays() {
    for (game, fixture) in [
        (Game::Tr1, wadforge_fixtures::levels::tr1_fixture()),
        (Game::Tr2, tr2_fixture()),
        (Game::Tr3, tr3_fixture()),
    ] {
        // The second animation pointed at the first one's frames, with its frame size.
        let mut bytes = fixture.bytes.clone();
        let at = second_wolf_animation(&bytes);
        let first = at - 32;
        let (offset, size) = (bytes[first..first + 4].to_vec(), bytes[first + 5]);
        bytes[at..at + 4].copy_from_slice(&offset);
        bytes[at + 5] = size;
        let wad = level::read(&bytes)
            .unwrap_or_else(|e| panic!("{game:?}: {e}"))
            .wad;
        let wolf = |w: &wadforge_format::Wad| w.moveables.iter().find(|m| m.id == 7).unwrap().clone();
        let walk = &wolf(&fixture.model).animations[0].keyframes;
        // Its range plays two frames: the first animation's first two.
        assert_eq!(wolf(&wad).animations[1].keyframes, walk[..2], "{game:?}");
        assert_eq!(wolf(&wad).animations[0].keyframes, *walk, "{game:?}");
    }
}
