//! Signed LEB128, the number encoding of every Wad2 id length, size and integer value.
//!
//! Signed even for sizes: TombLib reads them signed, so 64 is `C0 00`, not `40`.

use super::error::{Wad2Error, Wad2Problem};

/// The longest encoding of an i64: 10 groups of 7 bits.
pub const MAX_WIDTH: usize = 10;

/// Reads one number at `*pos`, moving `*pos` past it. Accepts padded encodings (continuation bits
/// on redundant bytes); refuses more than [`MAX_WIDTH`] bytes and values outside i64. An error's
/// offset is the number's first byte in `bytes`.
pub fn read(bytes: &[u8], pos: &mut usize) -> Result<i64, Wad2Error> {
    let start = *pos;
    let fail = |problem| Wad2Error {
        offset: start as u64,
        inflated: false,
        problem,
    };
    let mut value: i64 = 0;
    for index in 0..MAX_WIDTH - 1 {
        let Some(&byte) = bytes.get(start + index) else {
            return Err(fail(Wad2Problem::Truncated {
                what: "a LEB128 number",
            }));
        };
        let used = 7 * (index as u32 + 1);
        value |= i64::from(byte & 0x7F) << (used - 7);
        if byte & 0x80 == 0 {
            *pos = start + index + 1;
            // Sign-extend from the last group's top bit.
            return Ok((value << (64 - used)) >> (64 - used));
        }
    }
    let Some(&last) = bytes.get(start + MAX_WIDTH - 1) else {
        return Err(fail(Wad2Problem::Truncated {
            what: "a LEB128 number",
        }));
    };
    if last & 0x80 != 0 {
        return Err(fail(Wad2Problem::NumberTooLong));
    }
    // The tenth byte holds bit 63 and six copies of it, or the value overflows i64.
    let group = i64::from(last & 0x7F);
    if group != 0 && group != 0x7F {
        return Err(fail(Wad2Problem::NumberTooLarge));
    }
    *pos = start + MAX_WIDTH;
    Ok(value | (group << 63))
}

/// How many bytes the minimal encoding of `value` takes.
pub fn minimal_width(value: i64) -> usize {
    let mut width = 1;
    let mut rest = value >> 6;
    while rest != 0 && rest != -1 {
        rest >>= 7;
        width += 1;
    }
    width
}

/// Appends the minimal encoding of `value`.
pub fn write(value: i64, out: &mut Vec<u8>) {
    write_padded(value, 1, out);
}

/// Appends `value` in at least `width` bytes, padding with continuation bytes as TombLib does
/// for some sizes; a value that needs more bytes than `width` takes its minimal width instead.
pub fn write_padded(value: i64, width: usize, out: &mut Vec<u8>) {
    let width = width.clamp(minimal_width(value), MAX_WIDTH);
    let mut rest = value;
    for _ in 1..width {
        out.push((rest & 0x7F) as u8 | 0x80);
        rest >>= 7;
    }
    out.push((rest & 0x7F) as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(value: i64, width: usize) -> Vec<u8> {
        let mut out = Vec::new();
        write_padded(value, width, &mut out);
        out
    }

    fn decode(bytes: &[u8]) -> Result<(i64, usize), Wad2Problem> {
        let mut pos = 0;
        read(bytes, &mut pos)
            .map(|value| (value, pos))
            .map_err(|e| e.problem)
    }

    #[test]
    fn known_encodings() {
        for (value, bytes) in [
            (0, &[0x00][..]),
            (1, &[0x01]),
            (63, &[0x3F]),
            (64, &[0xC0, 0x00]),
            (127, &[0xFF, 0x00]),
            (256, &[0x80, 0x02]),
            (-1, &[0x7F]),
            (-64, &[0x40]),
            (-65, &[0xBF, 0x7F]),
            (-128, &[0x80, 0x7F]),
        ] {
            assert_eq!(encode(value, 1), bytes, "{value}");
            assert_eq!(decode(bytes), Ok((value, bytes.len())), "{value}");
            assert_eq!(minimal_width(value), bytes.len(), "{value}");
        }
    }

    #[test]
    fn padded_forms_read_back() {
        assert_eq!(encode(126, 4), [0xFE, 0x80, 0x80, 0x00]);
        assert_eq!(
            encode(5, 10),
            [0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]
        );
        assert_eq!(encode(-2, 3), [0xFE, 0xFF, 0x7F]);
        for value in [0, 1, -1, 64, -65, 300, -300, 1 << 20] {
            for width in 1..=MAX_WIDTH {
                let bytes = encode(value, width);
                assert_eq!(bytes.len(), width.max(minimal_width(value)));
                assert_eq!(decode(&bytes), Ok((value, bytes.len())));
            }
        }
    }

    #[test]
    fn extremes_round_trip() {
        for value in [i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1] {
            let bytes = encode(value, 1);
            assert_eq!(bytes.len(), MAX_WIDTH);
            assert_eq!(decode(&bytes), Ok((value, MAX_WIDTH)));
        }
    }

    #[test]
    fn refuses_over_long_and_too_large() {
        assert_eq!(decode(&[0x80; 11]), Err(Wad2Problem::NumberTooLong));
        let mut too_large = vec![0xFF; 9];
        too_large.push(0x01);
        assert_eq!(decode(&too_large), Err(Wad2Problem::NumberTooLarge));
        assert_eq!(
            decode(&[0x80, 0x80]),
            Err(Wad2Problem::Truncated {
                what: "a LEB128 number"
            })
        );
        assert_eq!(
            decode(&[]),
            Err(Wad2Problem::Truncated {
                what: "a LEB128 number"
            })
        );
    }

    #[test]
    fn error_says_where_the_number_starts() {
        let mut pos = 2;
        let error = read(&[0, 0, 0x80], &mut pos).unwrap_err();
        assert_eq!(error.offset, 2);
        assert_eq!(pos, 2);
    }
}
