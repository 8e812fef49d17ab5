//! The YAML reader loads every event of a document (each scalar, collection start and end,
//! alias) into memory before turning it into values: about 120 bytes an event, so a text of
//! short values (`[1, 1, 1, …]`) takes 40 times its size. Before a manifest is read, its events
//! are counted by the same parser, streaming, keeping none, and a text with more than
//! [`allowed`] events is refused: that bounds the reader's memory to about 18 MB plus 20 times
//! the text's size. The manifests import writes have a few events per line, far below it (the
//! largest, a TR4 Lara's, in `tests/hostile_files.rs`).

use std::mem::MaybeUninit;

use unsafe_libyaml_norway as unsafe_yaml;

/// Events any manifest may have.
const BASE_EVENTS: u64 = 150_000;
/// Bytes of text per event allowed on top of [`BASE_EVENTS`].
const BYTES_PER_EVENT: u64 = 6;

/// The most events `text` may have.
pub(crate) fn allowed(text: &str) -> u64 {
    BASE_EVENTS + text.len() as u64 / BYTES_PER_EVENT
}

/// The events of `text`, counted until the end of the stream, a syntax error (the reader reports
/// it) or `limit + 1`, whichever comes first.
pub(crate) fn count(text: &str, limit: u64) -> u64 {
    // SAFETY: the parser is initialised before use, lives in a box (libyaml keeps pointers into
    // it, so it must not move), reads `text` only while `text` is borrowed here, and is deleted
    // once; each event is deleted after it is counted.
    unsafe {
        let mut parser: Box<MaybeUninit<unsafe_yaml::yaml_parser_t>> = Box::new_uninit();
        let parser = parser.as_mut_ptr();
        if unsafe_yaml::yaml_parser_initialize(parser).fail {
            return 0;
        }
        unsafe_yaml::yaml_parser_set_encoding(parser, unsafe_yaml::YAML_UTF8_ENCODING);
        unsafe_yaml::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as u64);
        let mut events = 0u64;
        loop {
            let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
            if unsafe_yaml::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                break;
            }
            let end = (*event.as_ptr()).type_ == unsafe_yaml::YAML_STREAM_END_EVENT;
            unsafe_yaml::yaml_event_delete(event.as_mut_ptr());
            events += 1;
            if end || events > limit {
                break;
            }
        }
        unsafe_yaml::yaml_parser_delete(parser);
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_event_of_a_document() {
        // Stream, document, mapping start, key, sequence start, 3 scalars, sequence end,
        // mapping end, document end, stream end.
        assert_eq!(count("a: [1, 2, 3]\n", 1_000), 12);
        assert_eq!(count("a: [1, 2, 3]\n", 4), 5, "stops past the limit");
        assert_eq!(count("a: [1, 2\n", 1_000), 7, "stops at a syntax error");
        assert_eq!(count("", 1_000), 2);
    }

    #[test]
    fn short_values_are_refused_long_before_their_events_fill_memory() {
        let dense = format!("a: [{}]\n", ["1"; 400_000].join(", "));
        assert!(count(&dense, allowed(&dense)) > allowed(&dense));
        let sparse = format!("a: [{}]\n", ["123456789"; 100_000].join(", "));
        assert!(count(&sparse, allowed(&sparse)) <= allowed(&sparse));
    }
}
