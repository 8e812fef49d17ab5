//! The TR4 level reader against a level written from scratch: the TR1–TR3 fixtures' content in
//! TR4's layout (zlib chunks, 32-bit textiles, TR4 rooms, faces with effects words, 40-byte
//! animations, 38-byte object textures, one-axis angles on the 4096 scale).

use std::io::{Read, Write};

use wadforge_fixtures::levels::{tr4_fixture, tr4_level, tr4_model};
use wadforge_format::catalog::Game;
use wadforge_format::level::{self, Problem, Section};
use wadforge_format::AngleEncoding;

/// The parts of a TR4 file around its level data chunk: the bytes before its header, the
/// inflated level data, and the bytes after it.
struct Split {
    before: Vec<u8>,
    data: Vec<u8>,
    after: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// Where each of the four chunks starts (its uncompressed-size word).
fn chunk_starts(bytes: &[u8]) -> [usize; 4] {
    let mut at = 10;
    let mut starts = [0; 4];
    for s in &mut starts {
        *s = at;
        at += 8 + u32_at(bytes, at + 4);
    }
    starts
}

fn split(bytes: &[u8]) -> Split {
    let level = chunk_starts(bytes)[3];
    let compressed = u32_at(bytes, level + 4);
    let mut data = Vec::new();
    flate2::read::ZlibDecoder::new(&bytes[level + 8..level + 8 + compressed])
        .read_to_end(&mut data)
        .unwrap();
    Split {
        before: bytes[..level].to_vec(),
        data,
        after: bytes[level + 8 + compressed..].to_vec(),
    }
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(data).unwrap();
    z.finish().unwrap()
}

/// The file with `data` as its level data, claiming `claimed` uncompressed bytes.
fn join(s: &Split, data: &[u8], claimed: usize) -> Vec<u8> {
    let compressed = zlib(data);
    let mut out = s.before.clone();
    out.extend_from_slice(&(claimed as u32).to_le_bytes());
    out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
    out.extend_from_slice(&compressed);
    out.extend_from_slice(&s.after);
    out
}

#[test]
fn the_fixture_reads_as_the_expected_model() {
    let fixture = tr4_fixture();
    let level = level::read(&fixture.bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((level.game, level.version), (Game::Tr4, 0x0034_5254));
    let (got, want) = (&level.wad, &fixture.model);
    assert_eq!(got.samples, want.samples);
    assert_eq!(got.meshes, want.meshes);
    assert_eq!(got.statics, want.statics);
    assert_eq!(got.moveables, want.moveables);
    assert_eq!(got.pages.len(), want.pages.len());
    for (i, (g, w)) in got.pages.iter().zip(&want.pages).enumerate() {
        assert!(g == w, "page {i} differs");
    }
    assert_eq!(level.skewed, fixture.skewed);
    // "TR4c", as some TRLE builds write it, reads the same.
    let mut bytes = fixture.bytes.clone();
    bytes[3] = b'c';
    let level = level::read(&bytes).unwrap();
    assert_eq!((level.game, &level.wad), (Game::Tr4, want));
}

#[test]
fn tr4_records_keep_their_extra_fields() {
    let wad = tr4_model();
    let read = level::read(&tr4_level()).unwrap().wad;
    let wolf = &read.moveables[0];
    // Lateral speed and acceleration sit in the 40-byte records only.
    assert!(wolf.animations.iter().any(|a| a.lateral_speed.0 != 0));
    assert_eq!(
        wolf.animations
            .iter()
            .map(|a| (a.lateral_speed, a.lateral_acceleration))
            .collect::<Vec<_>>(),
        wad.moveables[0]
            .animations
            .iter()
            .map(|a| (a.lateral_speed, a.lateral_acceleration))
            .collect::<Vec<_>>()
    );
    // One-axis angles on the 4096 scale: 0x8000 | 1024 is a quarter turn about Y.
    let first = &wolf.animations[0].keyframes[0].rotations;
    assert_eq!((first[0].encoding, first[0].y), (AngleEncoding::Y, 1024));
    assert_eq!((first[1].encoding, first[1].x), (AngleEncoding::X, 64));
    assert_eq!(first[2].encoding, AngleEncoding::ThreeAxes);
    // Effects words become polygon attributes: additive, shine with its intensity, bit 7.
    let body = &read.meshes[0].polygons;
    assert!(body[1].attributes.additive);
    assert!(body[2].attributes.shine && body[2].attributes.shine_intensity == 9);
    let limb = &read.meshes[1].polygons[0].attributes;
    assert!(limb.shine && limb.unknown_bit && limb.shine_intensity == 3);
    // No coloured faces and so no page of colours: the two textiles only.
    assert_eq!(read.pages.len(), 2);
    assert!(read.meshes.iter().all(|m| !m.polygons.is_empty()));
}

#[test]
fn textiles_are_32_bit_with_alpha() {
    let wad = level::read(&tr4_level()).unwrap().wad;
    assert_eq!(wad.pages[0].texel(65, 0), [255, 0, 255]);
    assert_ne!(wad.pages[0].texel(205, 205), [255, 0, 255]);
    assert_eq!(wad.pages, tr4_model().pages);
}

#[test]
fn every_truncation_gives_a_typed_error() {
    let bytes = tr4_level();
    let [_, _, _, level] = chunk_starts(&bytes);
    // Every cut of the header, the level data chunk and the sound samples; one in 61 inside the
    // textile chunks (each of those cuts inflates them, so every one would be slow and teach
    // nothing more).
    for cut in (0..bytes.len()).filter(|&c| c < 16 || c >= level || c % 61 == 0) {
        let e = level::read(&bytes[..cut]).expect_err("a cut file must not read");
        assert!(e.offset <= cut as u64, "cut {cut}: {e}");
    }
    // Every cut of the inflated level data, compressed again as a whole chunk.
    let s = split(&bytes);
    for cut in 0..s.data.len() {
        let e = level::read(&join(&s, &s.data[..cut], cut)).expect_err("cut level data must not read");
        assert!(e.offset <= cut as u64, "level data cut {cut}: {e}");
        assert!(e.to_string().contains("inflated level data"), "{e}");
    }
}

#[test]
fn random_mutations_of_the_level_data_never_panic() {
    let s = split(&tr4_level());
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut read_ok = 0;
    for _ in 0..2000 {
        let mut m = s.data.clone();
        for _ in 0..1 + next() % 4 {
            let at = next() as usize % m.len();
            m[at] = match next() % 4 {
                0 => 0xFF,
                1 => 0,
                2 => m[at].wrapping_add(1),
                _ => next() as u8,
            };
        }
        read_ok += level::read(&join(&s, &m, m.len())).is_ok() as usize;
    }
    assert!(read_ok > 0);
}

#[test]
fn random_mutations_of_the_file_never_panic() {
    let bytes = tr4_level();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let mut m = bytes.clone();
        let at = match next() % 3 {
            0 => (next() % 64) as usize,
            _ => next() as usize % m.len(),
        };
        m[at] = next() as u8;
        let _ = level::read(&m);
    }
}

#[test]
fn broken_chunks_are_named() {
    let bytes = tr4_level();
    let [textiles, _, _, level] = chunk_starts(&bytes);
    // Corrupt zlib bytes in the level data.
    let mut m = bytes.clone();
    m[level + 8..level + 12].copy_from_slice(&[0xFF; 4]);
    let e = level::read(&m).unwrap_err();
    assert_eq!((e.section, e.offset), (Section::LevelData, level as u64), "{e}");
    assert!(
        matches!(
            e.problem,
            Problem::Chunk {
                what: "level data",
                ..
            }
        ),
        "{e}"
    );
    // A size the data does not inflate to.
    let mut m = bytes.clone();
    let claimed = u32_at(&m, level) + 1;
    m[level..level + 4].copy_from_slice(&(claimed as u32).to_le_bytes());
    let e = level::read(&m).unwrap_err();
    assert!(e.to_string().contains(&format!("header says {claimed}")), "{e}");
    // A size no zlib data of that length can inflate to is refused before inflating (textile
    // counts at their largest, so that they allow it).
    let mut m = bytes.clone();
    m[4..10].copy_from_slice(&[0xFF; 6]);
    m[textiles..textiles + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = level::read(&m).unwrap_err();
    assert_eq!((e.section, e.offset), (Section::Textiles, textiles as u64), "{e}");
    assert!(e.to_string().contains("more than zlib can expand to"), "{e}");
    // A size more than the textile counts allow is refused before inflating.
    let mut m = bytes.clone();
    let pages = u32_at(&m, textiles) / (256 * 256 * 4);
    m[textiles..textiles + 4].copy_from_slice(&(((pages + 1) * 256 * 256 * 4) as u32).to_le_bytes());
    let e = level::read(&m).unwrap_err();
    assert_eq!((e.section, e.offset), (Section::Textiles, textiles as u64), "{e}");
    let allowed = format!("more than the {} its textile counts", pages * 256 * 256 * 4);
    assert!(e.to_string().contains(&allowed), "{e}");
    // Textiles that are not whole 256×256 pages.
    let mut m = bytes[..textiles].to_vec();
    let odd = zlib(&[7u8; 1000]);
    m.extend_from_slice(&1000u32.to_le_bytes());
    m.extend_from_slice(&(odd.len() as u32).to_le_bytes());
    m.extend_from_slice(&odd);
    m.extend_from_slice(&bytes[chunk_starts(&bytes)[1]..]);
    let e = level::read(&m).unwrap_err();
    assert!(
        e.to_string().contains("not a whole number of 256×256 textiles"),
        "{e}"
    );
}

#[test]
fn markers_and_trailing_bytes_are_checked() {
    let s = split(&tr4_level());
    let spr = s.data.windows(3).position(|w| w == b"SPR").unwrap();
    let mut data = s.data.clone();
    data[spr + 1] = b'Q';
    let e = level::read(&join(&s, &data, data.len())).unwrap_err();
    assert_eq!(
        (e.section, e.offset),
        (Section::SpriteTextures, spr as u64),
        "{e}"
    );
    assert!(matches!(e.problem, Problem::MissingMarker { .. }), "{e}");
    // Zero padding after the sample indices is allowed; anything else is not.
    let mut data = s.data.clone();
    data.extend_from_slice(&[0; 6]);
    assert!(level::read(&join(&s, &data, data.len())).is_ok());
    data.push(1);
    let e = level::read(&join(&s, &data, data.len())).unwrap_err();
    assert_eq!(e.problem, Problem::TrailingBytes(1), "{e}");
    // Bytes after the sound samples.
    let mut bytes = tr4_level();
    bytes.push(0);
    let e = level::read(&bytes).unwrap_err();
    assert_eq!(
        (e.section, e.problem),
        (Section::SoundSamples, Problem::TrailingBytes(1))
    );
}

#[test]
fn a_tr5_header_with_tr4_level_data_is_an_error_not_a_tr4_level() {
    // The TR5 reader takes over after the misc textiles: what follows must be TR5's.
    let bytes = tr4_level();
    let level = chunk_starts(&bytes)[3];
    let mut tr5 = bytes[..level].to_vec();
    tr5.extend_from_slice(&[0, 0, 1, 0]); // Lara type, weather
    tr5.extend_from_slice(&[0; 28]);
    tr5.extend_from_slice(&[0; 64]);
    let e = level::read(&tr5).unwrap_err();
    assert!(e.offset >= level as u64 + 32, "read past TR5's header: {e}");
    assert!(
        !matches!(e.problem, Problem::Chunk { .. }),
        "not taken as TR4's zlib chunk: {e}"
    );
}

#[test]
fn the_level_model_writes_as_a_wad_and_reads_back() {
    let wad = level::read(&tr4_level()).unwrap().wad;
    let bytes = wadforge_format::wad::write(&wad, None).expect("the model fits a WAD");
    let (back, _) = wadforge_format::wad::read(&bytes).expect("the WAD reads");
    assert_eq!(back, wad);
}
