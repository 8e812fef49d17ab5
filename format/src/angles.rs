//! Keyframe rotations: three-axis (two words, 10 bits per axis, 1024 per turn) or one-axis
//! (one word, axis in the top two bits, 4096 per turn).

use wadforge_model::{AngleEncoding, Rotation};

const AXIS_MASK: u16 = 0xC000;
const X: u16 = 0x4000;
const Y: u16 = 0x8000;
const Z: u16 = 0xC000;

/// How a format stores one-axis angle sets (three-axis sets are alike everywhere).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AngleWords {
    /// WADs and TR4 levels: 14 bits of a 4096-per-turn angle.
    Tr4,
    /// TR2 and TR3 levels: 10 bits of a 1024-per-turn angle (×4 into the model's 4096).
    Tr2,
}

impl AngleWords {
    /// Decodes one rotation from the front of `bytes` (little-endian words); returns it and the
    /// words it used, or `None` when the bytes end inside it.
    #[inline]
    pub(crate) fn decode(self, bytes: &[u8]) -> Option<(Rotation, usize)> {
        let word = |i: usize| Some(u16::from_le_bytes([*bytes.get(2 * i)?, *bytes.get(2 * i + 1)?]));
        let first = word(0)?;
        // One-axis values of TR4 keep all 14 bits so that rewriting is exact; they read modulo
        // 4096.
        let angle = match self {
            AngleWords::Tr4 => first & 0x3FFF,
            AngleWords::Tr2 => (first & 0x03FF) * 4,
        };
        let one = |x, y, z, encoding| Some((Rotation { x, y, z, encoding }, 1));
        match first & AXIS_MASK {
            X => one(angle, 0, 0, AngleEncoding::X),
            Y => one(0, angle, 0, AngleEncoding::Y),
            Z => one(0, 0, angle, AngleEncoding::Z),
            _ => {
                let value = (first as u32) << 16 | word(1)? as u32;
                let axis = |shift: u32| ((value >> shift) & 0x3FF) as u16 * 4;
                Some((
                    Rotation {
                        x: axis(20),
                        y: axis(10),
                        z: axis(0),
                        encoding: AngleEncoding::ThreeAxes,
                    },
                    2,
                ))
            }
        }
    }
}

/// Encodes a rotation in its remembered encoding when that holds it exactly, otherwise in the
/// encoding [`Rotation::compact`] chooses.
pub(crate) fn encode(rotation: &Rotation, out: &mut Vec<u16>) {
    let Rotation { x, y, z, encoding } = *rotation;
    let exact = match encoding {
        AngleEncoding::X => y == 0 && z == 0 && x <= 0x3FFF,
        AngleEncoding::Y => x == 0 && z == 0 && y <= 0x3FFF,
        AngleEncoding::Z => x == 0 && y == 0 && z <= 0x3FFF,
        AngleEncoding::ThreeAxes => [x, y, z].iter().all(|&a| a % 4 == 0 && a < 4096),
    };
    let r = if exact {
        *rotation
    } else {
        Rotation::compact(x, y, z)
    };
    match r.encoding {
        AngleEncoding::X => out.push(X | r.x),
        AngleEncoding::Y => out.push(Y | r.y),
        AngleEncoding::Z => out.push(Z | r.z),
        AngleEncoding::ThreeAxes => {
            let value = ((r.x / 4) as u32) << 20 | ((r.y / 4) as u32) << 10 | (r.z / 4) as u32;
            out.push((value >> 16) as u16);
            out.push(value as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAD's rotation from the front of `words`.
    fn decode(words: &[u16]) -> Option<(Rotation, usize)> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        AngleWords::Tr4.decode(&bytes)
    }

    #[test]
    fn three_axis_words_split_into_ten_bit_fields() {
        // x = 1, y = 2, z = 3 in 1024ths of a turn.
        let value: u32 = 1 << 20 | 2 << 10 | 3;
        let words = [(value >> 16) as u16, value as u16];
        let (r, used) = decode(&words).unwrap();
        assert_eq!(used, 2);
        assert_eq!((r.x, r.y, r.z), (4, 8, 12));
        let mut out = Vec::new();
        encode(&r, &mut out);
        assert_eq!(out, words);
    }

    #[test]
    fn one_axis_words_keep_their_axis_and_fourteen_bits() {
        for (word, expected) in [
            (0x4123u16, (0x123, 0, 0)),
            (0x8FFF, (0, 0xFFF, 0)),
            (0xF000, (0, 0, 0x3000)),
        ] {
            let (r, used) = decode(&[word]).unwrap();
            assert_eq!(used, 1);
            assert_eq!((r.x, r.y, r.z), expected);
            let mut out = Vec::new();
            encode(&r, &mut out);
            assert_eq!(out, [word]);
        }
    }

    #[test]
    fn a_rotation_its_encoding_cannot_hold_is_written_compactly() {
        let r = Rotation {
            x: 5,
            y: 7,
            z: 0,
            encoding: AngleEncoding::X,
        };
        let mut out = Vec::new();
        encode(&r, &mut out);
        let (back, _) = decode(&out).unwrap();
        assert_eq!(
            (back.x, back.y, back.z, back.encoding),
            (4, 8, 0, AngleEncoding::ThreeAxes)
        );
    }

    #[test]
    fn tr2_one_axis_words_keep_ten_bits_on_the_1024_scale() {
        // 0x4523: axis X; only its low ten bits, 0x123 of 1024, are the angle.
        let bytes = 0x4523u16.to_le_bytes();
        let (r, used) = AngleWords::Tr2.decode(&bytes).unwrap();
        assert_eq!(used, 1);
        assert_eq!((r.x, r.y, r.z, r.encoding), (0x123 * 4, 0, 0, AngleEncoding::X));
        // Three-axis sets read as in TR4.
        let value: u32 = 1 << 20 | 2 << 10 | 3;
        let bytes: Vec<u8> = [(value >> 16) as u16, value as u16]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert_eq!(AngleWords::Tr2.decode(&bytes), AngleWords::Tr4.decode(&bytes));
    }

    #[test]
    fn a_three_axis_word_cut_short_is_reported() {
        assert!(decode(&[0x0001]).is_none());
    }
}
