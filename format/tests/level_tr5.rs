//! The TR5 level reader against a level written from scratch (`fixtures::levels::tr5_fixture`).

use wadforge_fixtures::levels::{tr4_fixture, tr5_fixture, trx_injection};
use wadforge_format::catalog::{self, Game};
use wadforge_format::level::{self, Problem, Section};
use wadforge_format::{dressing, FileKind};

#[test]
fn the_fixture_reads_as_the_expected_model() {
    let fixture = tr5_fixture();
    let level = level::read(&fixture.bytes).expect("the TR5 fixture reads");
    assert_eq!(level.game, Game::Tr5);
    assert_eq!(level.version, u32::from_le_bytes(*b"TR4\0"));
    let (got, want) = (&level.wad, &fixture.model);
    assert_eq!(got.meshes, want.meshes);
    assert_eq!(got.statics, want.statics);
    for (g, w) in got.moveables.iter().zip(&want.moveables) {
        assert_eq!(g, w, "moveable {}", w.id);
    }
    assert_eq!(got, want);
    assert_eq!(level.skewed, fixture.skewed);
}

#[test]
fn the_objects_are_tr4s_content_with_lara_and_her_body_in_lara_skin() {
    let tr5 = tr5_fixture().model;
    let tr4 = tr4_fixture().model;
    let ids: Vec<u32> = tr5.moveables.iter().map(|m| m.id).collect();
    assert_eq!(ids, [0, 41, 43, 8], "LARA first, her body (LARA_SKIN) last");
    let slots: Vec<String> = ids
        .iter()
        .map(|&id| catalog::moveable_slot(Game::Tr5, id))
        .collect();
    assert_eq!(slots, ["LARA", "DOBERMAN", "CROW", "LARA_SKIN"]);
    // The WOLF and BAT are the TR4 fixture's, read through TR5's records.
    assert_eq!(tr5.moveables[1].animations, tr4.moveables[0].animations);
    assert_eq!(tr5.moveables[2].animations, tr4.moveables[1].animations);
    let lara = &tr5.moveables[0];
    assert_eq!(lara.meshes.len(), 15);
    assert!(
        lara.meshes.iter().all(|&m| m == lara.meshes[0]),
        "one placeholder"
    );
    assert_eq!(lara.animations.len(), 2);
}

#[test]
fn lara_is_dressed_in_lara_skin() {
    let level = level::read(&tr5_fixture().bytes).unwrap();
    let dressings = dressing::dressings(&level.wad, Game::Tr5);
    let d = dressings[0].expect("LARA wears her body");
    assert_eq!(level.wad.moveables[d.body].id, 8);
    assert!(dressings[1..].iter().all(Option::is_none));
}

#[test]
fn open_names_it_a_tr5_level() {
    let opened = wadforge_format::open(&tr5_fixture().bytes).unwrap();
    assert_eq!(opened.kind, FileKind::Level(Game::Tr5));
    assert_eq!(opened.description(), "TR5 level");
    assert_eq!(opened.game, Game::Tr5);
}

#[test]
fn a_trx_tail_after_a_tr5_level_is_passed_over() {
    let mut bytes = tr5_fixture().bytes;
    let plain = level::read(&bytes).unwrap();
    bytes.extend_from_slice(&trx_injection());
    let with = level::read(&bytes).unwrap();
    assert_eq!(with.wad, plain.wad);
    assert!(with.appended.is_some());
}

/// Where the level data starts: after TR4's header, three chunks and TR5's 32 bytes, its two
/// sizes.
fn level_data_at(bytes: &[u8]) -> usize {
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut at = 10;
    for _ in 0..3 {
        at += 8 + u32_at(at + 4);
    }
    at + 32
}

#[test]
fn every_truncation_gives_a_typed_error() {
    let bytes = tr5_fixture().bytes;
    let level = level_data_at(&bytes);
    // Every cut after the textiles; one in 61 inside them (each cut there inflates them again).
    for cut in (0..bytes.len()).filter(|&c| c < 16 || c >= level || c % 61 == 0) {
        let e = level::read(&bytes[..cut]).expect_err("a cut file must not read");
        assert!(e.offset <= cut as u64, "cut {cut}: {e}");
    }
}

#[test]
fn random_mutations_never_panic() {
    let bytes = tr5_fixture().bytes;
    let level = level_data_at(&bytes);
    let mut state = 0x6A09_E667_F3BC_C908u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..2000 {
        let mut m = bytes.clone();
        let at = level + next() as usize % (m.len() - level);
        m[at] = next() as u8;
        let _ = level::read(&m);
    }
}

#[test]
fn a_forged_room_size_and_unequal_sizes_are_named() {
    let bytes = tr5_fixture().bytes;
    let level = level_data_at(&bytes);
    // The room's size (after the sizes, the unused word, the room count and "XELA").
    let mut m = bytes.clone();
    m[level + 8 + 12..level + 8 + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = level::read(&m).unwrap_err();
    assert_eq!(e.section, Section::Rooms, "{e}");
    assert!(e.to_string().contains("room 0"), "{e}");
    // A "compressed" size other than the uncompressed one.
    let mut m = bytes.clone();
    m[level + 4] ^= 1;
    let e = level::read(&m).unwrap_err();
    assert!(matches!(e.problem, Problem::Chunk { .. }), "{e}");
    assert!(e.to_string().contains("uncompressed"), "{e}");
    // The room marker.
    let mut m = bytes;
    m[level + 8 + 8] = b'Y';
    let e = level::read(&m).unwrap_err();
    assert!(matches!(e.problem, Problem::MissingMarker { .. }), "{e}");
}

#[test]
fn the_level_model_writes_as_a_wad_and_reads_back() {
    let wad = level::read(&tr5_fixture().bytes).unwrap().wad;
    let bytes = wadforge_format::wad::write(&wad, None).expect("the model fits a WAD");
    let (back, _) = wadforge_format::wad::read(&bytes).expect("the WAD reads");
    assert_eq!(back, wad);
}
