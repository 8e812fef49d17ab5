//! Keyframe boxes read straight from their lines. They are most of a moveable's manifest (5 400
//! lines of a 445-animation Lara's 520 kB), and the YAML reader takes some 14 events a box. An
//! animation laid out exactly as import writes it has its boxes taken from their lines; any other
//! layout, or any doubt, is left to the YAML reader, which then reads (and reports) it as it is.

use crate::schema::BoxBounds;

/// The text of one animation item (`- name: …`, as `load` cuts it out of a manifest) with its
/// block of keyframe boxes under `kept_exactly:` replaced by `keyframe_boxes: []`, and the boxes;
/// `None` when the item is not laid out as import writes it.
pub(crate) fn take_keyframe_boxes(item: &str) -> Option<(String, Vec<BoxBounds>)> {
    // No quoted or block scalars, anchors, aliases, tags or comments: each line is what it
    // looks like.
    let plain = |b: u8| {
        !matches!(
            b,
            b'"' | b'\'' | b'|' | b'>' | b'&' | b'*' | b'!' | b'#' | b'\t' | b'\r'
        )
    };
    if !item.bytes().all(plain) {
        return None;
    }
    const KEY: &str = "\n    keyframe_boxes:\n";
    let start = item.find(KEY)? + 1;
    // The key's mapping is `kept_exactly:` (the nearest line above at a lesser indent).
    let above = item[..start - 1].lines().rev().find(|l| !l.starts_with("    "))?;
    if above != "  kept_exactly:" {
        return None;
    }
    let mut end = start + KEY.len() - 1;
    let mut boxes = Vec::new();
    while let Some(line) = item[end..].split_inclusive('\n').next() {
        let Some(text) = line.strip_prefix("    - ") else {
            break;
        };
        boxes.push(parse_box(text.strip_suffix('\n').unwrap_or(text))?);
        end += line.len();
    }
    // The list ends at a key of `kept_exactly` or above, or at the end.
    if boxes.is_empty() || item[end..].starts_with("     ") {
        return None;
    }
    Some((
        format!("{}    keyframe_boxes: []\n{}", &item[..start], &item[end..]),
        boxes,
    ))
}

/// `{min: [x, y, z], max: [x, y, z]}`, as import writes a box.
fn parse_box(text: &str) -> Option<BoxBounds> {
    let inner = text.strip_prefix("{min: [")?.strip_suffix("]}")?;
    let (min, max) = inner.split_once("], max: [")?;
    Some(BoxBounds {
        min: three(min)?,
        max: three(max)?,
    })
}

fn three(text: &str) -> Option<[i16; 3]> {
    let mut parts = text.split(", ");
    let values = [int(parts.next()?)?, int(parts.next()?)?, int(parts.next()?)?];
    parts.next().is_none().then_some(values)
}

/// A decimal integer as YAML reads a plain one the same way whatever its version: digits with an
/// optional `-`, no leading zero (YAML 1.1 reads `010` as octal), within the box's range.
fn int(text: &str) -> Option<i16> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let decimal = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (decimal && (digits.len() == 1 || !digits.starts_with('0')))
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ITEM: &str =
        "- name: 000_RUN\n  frames: 2\n  kept_exactly:\n    pose_fingerprint: 4805ce6a0d9f0417\n    \
                        keyframe_boxes:\n    - {min: [-104, -777, -312], max: [107, -84, 233]}\n    \
                        - {min: [0, 5, -6], max: [7, 0, 32767]}\n    undecodable_keyframes: x\n";

    #[test]
    fn boxes_as_import_writes_them_are_taken_from_their_lines() {
        let (text, boxes) = take_keyframe_boxes(ITEM).unwrap();
        assert_eq!(
            boxes,
            [
                BoxBounds {
                    min: [-104, -777, -312],
                    max: [107, -84, 233]
                },
                BoxBounds {
                    min: [0, 5, -6],
                    max: [7, 0, 32767]
                },
            ]
        );
        assert_eq!(
            text,
            "- name: 000_RUN\n  frames: 2\n  kept_exactly:\n    pose_fingerprint: 4805ce6a0d9f0417\n    \
             keyframe_boxes: []\n    undecodable_keyframes: x\n"
        );
        let at_the_end = ITEM.replace("    undecodable_keyframes: x\n", "");
        assert_eq!(take_keyframe_boxes(&at_the_end).unwrap().1.len(), 2);
    }

    #[test]
    fn anything_else_is_left_to_the_yaml_reader() {
        let changed = |from: &str, to: &str| {
            let item = ITEM.replacen(from, to, 1);
            assert_ne!(item, ITEM, "{from}");
            item
        };
        for item in [
            changed("-312", "0312"),                       // YAML 1.1 octal
            changed("32767", "32768"),                     // out of range
            changed("-104", "+104"),                       // a sign YAML reads, not this reader
            changed("-104, ", "-104,"),                    // spacing import does not write
            changed("000_RUN", "'000_RUN'"),               // a quoted scalar may span lines
            changed("frames: 2", "frames: 2 # two"),       // a comment
            changed("  kept_exactly:", "  next:"),         // boxes under another key
            changed("32767]}\n", "32767]}\n      more\n"), // a deeper line after the list
            changed("{min", "{ min"),
        ] {
            assert!(take_keyframe_boxes(&item).is_none(), "{item}");
        }
        assert!(take_keyframe_boxes(
            "- name: A\n  kept_exactly:\n    keyframe_boxes: [{min: [0, 0, 0], max: [0, 0, 0]}]\n"
        )
        .is_none());
    }
}
