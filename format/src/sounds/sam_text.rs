//! The text of a `.sam`. TRLE is a Windows program of its time: its `.sam` files, and the sample
//! names in them, are in the Windows ANSI code page (1252 for the western builders who made most
//! of them), not UTF-8. A `.sam` is read as UTF-8 when it is valid UTF-8, else as Windows-1252
//! (every byte is a character there, so nothing is refused); it is written in Windows-1252 when
//! every character has a byte there (an ASCII name, the usual case, is the same bytes either
//! way), else as UTF-8, the one encoding that holds every name.

/// The characters of Windows-1252's bytes 0x80–0x9F; the five it leaves undefined (0x81, 0x8D,
/// 0x8F, 0x90, 0x9D) stand for the control characters of the same number, as Windows maps them.
const HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// A `.sam`'s bytes as text: UTF-8 when they are, else Windows-1252.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| windows_1252_char(b)).collect(),
    }
}

/// A `.sam`'s text as bytes: Windows-1252 when every character has a byte there, else UTF-8.
pub fn encode(text: &str) -> Vec<u8> {
    text.chars()
        .map(windows_1252_byte)
        .collect::<Option<Vec<u8>>>()
        .unwrap_or_else(|| text.as_bytes().to_vec())
}

fn windows_1252_char(byte: u8) -> char {
    match byte {
        0x80..=0x9F => HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

fn windows_1252_byte(c: char) -> Option<u8> {
    match u32::from(c) {
        0..=0x7F | 0xA0..=0xFF => u8::try_from(u32::from(c)).ok(),
        _ => HIGH.iter().position(|&h| h == c).map(|at| 0x80 + at as u8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_1252_sam_reads_and_writes_back_the_same_bytes() {
        // "écho€.wav" as a French builder's TRLE wrote it.
        let bytes = b"\xE9cho\x80.wav\r\nfeet.wav\r\n";
        let text = decode(bytes);
        assert_eq!(text, "écho€.wav\r\nfeet.wav\r\n");
        assert_eq!(encode(&text), bytes);
    }

    #[test]
    fn every_byte_reads_as_a_character_that_writes_back_as_that_byte() {
        let all: Vec<u8> = (0..=255u8).filter(|b| *b >= 0x80).collect();
        assert_eq!(encode(&decode(&all)), all);
    }

    #[test]
    fn utf8_stays_utf8_and_a_name_windows_1252_cannot_hold_is_written_as_utf8() {
        assert_eq!(decode("écho.wav".as_bytes()), "écho.wav");
        assert_eq!(encode("ascii.wav"), b"ascii.wav");
        assert_eq!(encode("звук.wav"), "звук.wav".as_bytes());
    }
}
