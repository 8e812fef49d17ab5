//! The TR1 level reader against a level written from scratch.

use wadforge_fixtures::levels::{tr1_fixture, tr1_level};
use wadforge_format::catalog::Game;
use wadforge_format::level::{self, LevelError, Problem, Section};
use wadforge_format::{Mesh, Polygon, Wad};

#[test]
fn the_fixture_reads_as_the_expected_model() {
    let fixture = tr1_fixture();
    let level = level::read(&fixture.bytes).expect("the fixture reads");
    assert_eq!(level.game, Game::Tr1);
    assert_eq!(level.version, 0x20);
    let (got, want) = (&level.wad, &fixture.model);
    assert_eq!(got.samples, want.samples);
    assert_eq!(got.meshes, want.meshes);
    assert_eq!(got.statics, want.statics);
    assert_eq!(got.moveables.len(), want.moveables.len());
    for (g, w) in got.moveables.iter().zip(&want.moveables) {
        assert_eq!(g.id, w.id);
        assert_eq!(g.meshes, w.meshes, "moveable {}", w.id);
        assert_eq!(g.links, w.links, "moveable {}", w.id);
        assert_eq!(g.animations.len(), w.animations.len(), "moveable {}", w.id);
        for (a, (ga, wa)) in g.animations.iter().zip(&w.animations).enumerate() {
            assert_eq!(
                ga.state_changes, wa.state_changes,
                "moveable {} animation {a}",
                w.id
            );
            assert_eq!(ga.commands, wa.commands, "moveable {} animation {a}", w.id);
            assert_eq!(ga.keyframes, wa.keyframes, "moveable {} animation {a}", w.id);
            assert_eq!(ga, wa, "moveable {} animation {a}", w.id);
        }
    }
    assert_eq!(got.pages.len(), want.pages.len());
    for (i, (g, w)) in got.pages.iter().zip(&want.pages).enumerate() {
        assert!(g == w, "page {i} differs");
    }
    assert_eq!(got, want);
    assert_eq!(level.skewed, fixture.skewed);
    assert_eq!(level.skewed.len(), 1);
}

#[test]
fn the_model_has_the_expected_shape() {
    let wad = level::read(&tr1_level()).unwrap().wad;
    assert_eq!(wad.moveables.iter().map(|m| m.id).collect::<Vec<_>>(), [7, 9]);
    let wolf = &wad.moveables[0];
    assert_eq!(wolf.meshes, [0, 1, 1]);
    assert_eq!(wolf.links.iter().map(|l| l.parent).collect::<Vec<_>>(), [0, 0]);
    assert_eq!(wolf.animations[0].keyframes.len(), 3);
    assert_eq!(wolf.animations[1].keyframes.len(), 2);
    assert_eq!(wolf.animations[0].next_animation, 1);
    let bat = &wad.moveables[1];
    assert_eq!(bat.animations.len(), 1);
    assert_eq!(bat.animations[0].next_animation, 0);
    assert_eq!(bat.animations[0].state_changes[0].dispatches[0].next_animation, 0);
    // 1024ths of a turn in the file, 4096ths in the model.
    assert_eq!(bat.animations[0].keyframes[0].rotations[0].y, 512);
    assert_eq!(wad.statics.len(), 1);
    assert_eq!(wad.statics[0].mesh, 2);
    // Two textiles and the page of solid colours.
    assert_eq!(wad.pages.len(), 3);
}

/// The texels a polygon maps: the sample rectangle's texels on its page.
fn texels(wad: &Wad, polygon: &Polygon) -> Vec<[u8; 3]> {
    let s = wad.samples[polygon.texture.sample as usize];
    let page = &wad.pages[s.page as usize];
    let mut out = Vec::new();
    for y in s.y as usize..s.y as usize + s.height as usize {
        for x in s.x as usize..s.x as usize + s.width as usize {
            out.push(page.texel(x, y));
        }
    }
    out
}

#[test]
fn texels_under_each_polygon_match() {
    let fixture = tr1_fixture();
    let wad = level::read(&fixture.bytes).unwrap().wad;
    let polygons = |w: &Wad| -> Vec<(usize, Polygon)> {
        w.meshes
            .iter()
            .enumerate()
            .flat_map(|(m, mesh): (usize, &Mesh)| mesh.polygons.iter().map(move |p| (m, *p)))
            .collect()
    };
    let (got, want) = (polygons(&wad), polygons(&fixture.model));
    assert_eq!(got.len(), want.len());
    for ((m, g), (_, w)) in got.iter().zip(&want) {
        assert_eq!(g.vertices, w.vertices, "mesh {m}");
        assert_eq!(
            (g.texture.shape, g.texture.flipped),
            (w.texture.shape, w.texture.flipped),
            "mesh {m}"
        );
        assert_eq!(texels(&wad, g), texels(&fixture.model, w), "mesh {m}");
    }
    // The alpha-tested texture's index-0 texels are magenta; index 0 elsewhere keeps its colour.
    let alpha = &wad.samples[1];
    assert_eq!((alpha.x, alpha.y, alpha.width, alpha.height), (64, 0, 64, 32));
    assert_eq!(wad.pages[0].texel(65, 0), [255, 0, 255]);
    assert_ne!(wad.pages[0].texel(205, 205), [255, 0, 255]);
    // Coloured faces map a solid cell.
    let colour = wad.meshes[0].polygons[4];
    let cell = texels(&wad, &colour);
    assert!(cell.iter().all(|&t| t == cell[0]));
}

fn read_never_panics(bytes: &[u8]) -> Result<(), LevelError> {
    level::read(bytes).map(|_| ())
}

#[test]
fn every_truncation_gives_a_typed_error() {
    let bytes = tr1_level();
    for cut in 0..bytes.len() {
        let e = read_never_panics(&bytes[..cut]).expect_err("a cut file must not read");
        assert!(e.offset <= cut as u64, "cut {cut}: {e}");
    }
}

#[test]
fn the_demo_palette_position_reads_the_same() {
    // The TR1 demo levels put the palette between the sprite sequences and the cameras.
    let bytes = tr1_level();
    // After the palette: cinematic frames, demo data (u16 counts), the sound sections.
    let palette = bytes.len() - (2 + 2 + wadforge_fixtures::levels::TR1_SOUND_BYTES) - 768;
    // Before it: cameras, sound sources, boxes, overlaps, animated textures (empty), one
    // 22-byte item and the light map.
    let cameras = palette - 8192 - (4 + 22) - 5 * 4;
    let mut demo = bytes[..cameras].to_vec();
    demo.extend_from_slice(&bytes[palette..palette + 768]);
    demo.extend_from_slice(&bytes[cameras..palette]);
    demo.extend_from_slice(&bytes[palette + 768..]);
    assert_eq!(demo.len(), bytes.len());
    assert_ne!(demo, bytes);
    assert_eq!(level::read(&demo).unwrap(), level::read(&bytes).unwrap());
}

#[test]
fn random_mutations_never_panic() {
    let bytes = tr1_level();
    let textiles_end = 8 + 2 * 65536;
    let tail = bytes.len() - textiles_end;
    // A fixed-seed xorshift: deterministic, no dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut read_ok = 0;
    for _ in 0..2000 {
        let mut m = bytes.clone();
        let changes = 1 + next() % 4;
        for _ in 0..changes {
            // Mostly mutate the structured part after the textiles; sometimes the header.
            let at = if next() % 10 == 0 {
                (next() % 12) as usize
            } else {
                textiles_end + (next() as usize % tail)
            };
            m[at] = match next() % 4 {
                0 => 0xFF,
                1 => 0,
                2 => m[at].wrapping_add(1),
                _ => next() as u8,
            };
        }
        if read_never_panics(&m).is_ok() {
            read_ok += 1;
        }
    }
    // Plenty of mutations land in texels, angles or vertices and still read.
    assert!(read_ok > 0);
}

#[test]
fn errors_name_section_and_offset() {
    let mut bytes = tr1_level();
    // Cut just after the version: the textile count is missing.
    bytes.truncate(6);
    let e = level::read(&bytes).unwrap_err();
    assert_eq!(e.section, Section::Textiles);
    assert_eq!(e.offset, 4);
    assert!(matches!(e.problem, Problem::Truncated { .. }));
    // A textile count larger than the file.
    let mut bytes = tr1_level();
    bytes[4..8].copy_from_slice(&1000u32.to_le_bytes());
    let e = level::read(&bytes).unwrap_err();
    assert_eq!(e.section, Section::Textiles);
    assert!(
        matches!(e.problem, Problem::CountTooLarge { count: 1000, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("textiles"), "{e}");
}

#[test]
fn unknown_versions_are_refused() {
    let e = level::read(&[1, 2, 3, 4]).unwrap_err();
    assert!(matches!(e.problem, Problem::UnknownVersion(0x0403_0201)));
    assert_eq!((e.section, e.offset), (Section::Version, 0));
    assert!(e.to_string().contains("0x04030201"), "{e}");
    assert!(level::read(&[0x20, 0]).is_err());
}

#[test]
fn a_bad_reference_names_its_record() {
    let mut bytes = tr1_level();
    // The animations table: count 3, then the first record (frame offset 0, rate 2, FrameSize 0,
    // state 1).
    let pattern = [3u8, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0];
    let at = bytes
        .windows(pattern.len())
        .position(|w| w == pattern)
        .expect("the animations table");
    let record = at + 4;
    // next_animation of the first animation → beyond the table.
    bytes[record + 20..record + 22].copy_from_slice(&9u16.to_le_bytes());
    let e = level::read(&bytes).unwrap_err();
    assert_eq!(e.section, Section::Animations);
    assert_eq!(e.offset, (record + 20) as u64);
    assert_eq!(
        e.problem,
        Problem::IndexOutOfRange {
            what: "next animation",
            index: 9,
            len: 3
        }
    );
    let context = e.context.clone().unwrap_or_default();
    assert!(
        context.contains("WOLF (moveable 7)") && context.contains("animation 0"),
        "{e}"
    );
}

#[test]
fn the_level_model_writes_as_a_wad_and_reads_back() {
    let wad = level::read(&tr1_level()).unwrap().wad;
    let bytes = wadforge_format::wad::write(&wad, None).expect("the model fits a WAD");
    let (back, _) = wadforge_format::wad::read(&bytes).expect("the WAD reads");
    assert_eq!(back, wad);
}

#[test]
fn the_sound_map_and_details_read_into_the_level_sounds() {
    use wadforge_fixtures::levels::{TR1_PLAYED_SOUND, TR1_PLAYED_VOLUME, TR1_UNPLAYED_SOUND};
    let sounds = level::read(&tr1_level()).unwrap().sounds.unwrap();
    let ids: Vec<u16> = sounds.sounds.keys().copied().collect();
    assert_eq!(ids, [TR1_PLAYED_SOUND, TR1_UNPLAYED_SOUND]);
    let named = sounds.named("LEVEL1");
    let played = &named.sounds[&TR1_PLAYED_SOUND];
    assert_eq!(played.samples, ["LEVEL1_0.wav", "LEVEL1_1.wav"]);
    assert_eq!(u16::from(played.volume), TR1_PLAYED_VOLUME >> 7);
    assert_eq!(played.loop_mode(), wadforge_format::sounds::LoopMode::OneShotWait);
    assert_eq!(named.sounds[&TR1_UNPLAYED_SOUND].samples, ["LEVEL1_1.wav"]);
}

#[test]
fn a_sound_map_entry_past_the_details_defines_no_sound() {
    let mut bytes = tr1_level();
    // The map entry of the played sound, first of the sound sections, names detail 9 of 2.
    let map = bytes.len() - wadforge_fixtures::levels::TR1_SOUND_BYTES;
    let entry = map + 2 * usize::from(wadforge_fixtures::levels::TR1_PLAYED_SOUND);
    bytes[entry..entry + 2].copy_from_slice(&9i16.to_le_bytes());
    let sounds = level::read(&bytes).unwrap().sounds.unwrap();
    assert!(!sounds
        .sounds
        .contains_key(&wadforge_fixtures::levels::TR1_PLAYED_SOUND));
    assert_eq!(sounds.sounds.len(), 1);
}
