//! TR2 (version 0x2D) and TR3 (0xFF080038, 0xFF180038) levels: what differs from TR1 (the
//! shared reader is [`super::tr123`]).
//!
//! - pages: the 16-bit ARGB1555 textiles (5-bit channels widened to 8 bits, alpha bit 0 →
//!   magenta); the 8-bit textiles and the 8-bit palette are walked and skipped;
//! - coloured faces index the 16-bit palette (8-bit channels) with the high byte of their
//!   texture word;
//! - frames are the animation's FrameSize words each: box, root offset, then one angle set per
//!   mesh, three-axis sets as two words in normal order (1024 per turn, ×4) and one-axis sets
//!   as one word, axis in the top two bits, value `w & 0x03FF` on the same 1024 scale (×4).

use super::build::{self, Tables};
use super::error::LevelError;
use super::texture::{MAGENTA, TEXTILE16_BYTES};
use super::tr123;
use super::Level;
use crate::catalog::Game;
use crate::model::{AngleEncoding, Page, Rotation};

pub(crate) fn read(bytes: &[u8], game: Game) -> Result<Level, LevelError> {
    build::build(&tr123::walk(bytes, game, false)?)
}

/// The 16-bit textiles as pages, and the 16-bit palette coloured faces index.
pub(super) fn pages(t: &Tables) -> (Vec<Page>, [[u8; 3]; 256]) {
    let palette = std::array::from_fn(|i| {
        let b = &t.palette.bytes[i * 4..i * 4 + 3];
        [b[0], b[1], b[2]]
    });
    let widen = |v: u16| ((v & 0x1F) << 3 | (v & 0x1F) >> 2) as u8;
    let pages = t
        .textiles
        .bytes
        .chunks_exact(TEXTILE16_BYTES)
        .map(|textile| {
            let mut rgb = vec![0u8; TEXTILE16_BYTES / 2 * 3];
            for (texel, b) in rgb.chunks_exact_mut(3).zip(textile.chunks_exact(2)) {
                let w = u16::from_le_bytes([b[0], b[1]]);
                texel.copy_from_slice(&if w & 0x8000 == 0 {
                    MAGENTA
                } else {
                    [widen(w >> 10), widen(w >> 5), widen(w)]
                });
            }
            Page::from_rgb(rgb).expect("a whole page of texels")
        })
        .collect();
    (pages, palette)
}

/// One angle set from the front of `words`, and the words it took; `None` when they end inside
/// it.
pub(super) fn angle_set(words: &[u16]) -> Option<(Rotation, usize)> {
    let first = *words.first()?;
    let angle = (first & 0x03FF) * 4;
    let one = |x, y, z, encoding| Some((Rotation { x, y, z, encoding }, 1));
    match first & 0xC000 {
        0x4000 => one(angle, 0, 0, AngleEncoding::X),
        0x8000 => one(0, angle, 0, AngleEncoding::Y),
        0xC000 => one(0, 0, angle, AngleEncoding::Z),
        _ => {
            let value = (first as u32) << 16 | *words.get(1)? as u32;
            let axis = |shift: u32| ((value >> shift) & 0x3FF) as u16 * 4;
            let encoding = AngleEncoding::ThreeAxes;
            Some((
                Rotation {
                    x: axis(20),
                    y: axis(10),
                    z: axis(0),
                    encoding,
                },
                2,
            ))
        }
    }
}
