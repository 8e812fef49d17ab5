//! What a YAML text would cost to read, measured before it is read. Two things can make a small
//! text take a lot of memory:
//!
//! - The reader (serde_norway) loads every event of a document (each scalar, collection start
//!   and end, alias) before turning it into values: about 120 bytes an event, so a text of short
//!   values (`[1, 1, 1, …]`) takes 40 times its size. A text may have the events
//!   `Limits::yaml_events` allows (format's table of bounds).
//! - Aliases (`*name`) repeat what their anchor (`&name`) holds, so a few lines of nested aliases
//!   can stand for billions of values (the "billion laughs"; the reader's own limit of 100 alias
//!   jumps per event still lets one alias of a large anchor, repeated, grow a document as the
//!   square of its text). A text may expand to `Limits::yaml_values`, every alias expanded, a
//!   scalar weighing one value per [`SCALAR_BYTES_PER_VALUE`] bytes of it besides its own (an
//!   alias of a 1 MB string copies the string): text without aliases never comes near it, as
//!   every value takes at least one character.
//!
//! Both are counted in one pass of the reader's own parser, streaming, keeping no event: the
//! size of each anchor as it closes, so an alias adds its anchor's size. That pass costs as much
//! as reading the text, so a text is first bounded by a scan of its bytes ([`quick_bound`]): one
//! without aliases whose bound is within the limits needs no count.

use std::collections::HashMap;
use std::ffi::CStr;
use std::mem::MaybeUninit;

use unsafe_libyaml_norway as unsafe_yaml;
use wadforge_model::{Bound, Limits};

/// Bytes of a scalar that weigh as much as one more value.
const SCALAR_BYTES_PER_VALUE: u64 = 8;
/// Events a part of a text read on its own may have besides its share (an animation item as
/// import writes it has a few hundred).
const PART_BASE_EVENTS: u64 = 4096;

/// What a text may cost to read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Allowance {
    pub events: u64,
    pub values: u64,
}

impl Allowance {
    /// For a whole text: what `Limits::yaml_events` and `yaml_values` allow for its size.
    pub fn whole(text: &str) -> Allowance {
        let limits = Limits::DEFAULT;
        Allowance {
            events: limits.yaml_events.allowed(text.len() as u64),
            values: limits.yaml_values.allowed(text.len() as u64),
        }
    }

    /// For each of many parts of a text read apart (several at once): what the part's own size
    /// allows, with a small base, so that the parts of a text together stay within what the
    /// text's size allows however many there are.
    pub fn part(text: &str) -> Allowance {
        let limits = Limits::DEFAULT;
        let events = Bound {
            base: PART_BASE_EVENTS,
            ..limits.yaml_events
        };
        let values = Bound {
            base: 0,
            ..limits.yaml_values
        };
        Allowance {
            events: events.allowed(text.len() as u64),
            values: values.allowed(text.len() as u64),
        }
    }
}

/// What counting found: all of the text, or where it stopped past a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cost {
    /// Within both limits (or a syntax error, which the reader then reports).
    Within,
    TooManyEvents,
    TooManyValues,
}

/// Counts the events and the expanded values of `text`, stopping at the first limit passed.
pub(crate) fn cost(text: &str, limits: Allowance) -> Cost {
    if let Some((events, values)) = quick_bound(text) {
        if events <= limits.events && values <= limits.values {
            return Cost::Within;
        }
    }
    let mut counter = Counter::default();
    let (max_events, max_values) = (limits.events, limits.values);
    let mut cost = Cost::Within;
    parse(text, |event| {
        counter.event(event);
        cost = if counter.events > max_events {
            Cost::TooManyEvents
        } else if counter.values > max_values {
            Cost::TooManyValues
        } else {
            return true;
        };
        false
    });
    cost
}

/// Bytes one of which comes with every event of a text but a few: each collection starts with
/// `[`, `{`, a `-` entry, or a `:` or `?` key (a flow pair's mapping too); each scalar ends at one
/// of these or at the end, as does each empty scalar the parser adds; documents start or end
/// with `---` or `...`.
fn is_structural(b: u8) -> bool {
    matches!(b, b':' | b',' | b'-' | b'?' | b'[' | b']' | b'{' | b'}' | b'.')
}

/// Events and values a text without aliases can have at most, from its bytes alone: each
/// structural byte brings at most a collection's start and end and two scalars (a key and a
/// value, either empty); the stream, the first document and a last scalar bring a few more. Each
/// value is an event, a scalar weighing one more per [`SCALAR_BYTES_PER_VALUE`] bytes. `None`
/// when the text may hold an alias (a `*`), whose values only a count can tell.
fn quick_bound(text: &str) -> Option<(u64, u64)> {
    let bytes = text.as_bytes();
    if bytes.contains(&b'*') {
        return None;
    }
    let structural = bytes.iter().filter(|&&b| is_structural(b)).count() as u64;
    let events = 4 * structural + 8;
    Some((events, events + bytes.len() as u64 / SCALAR_BYTES_PER_VALUE))
}

/// One event, as far as counting needs it.
enum Event {
    /// A scalar (with its length in bytes), or the start of a sequence or mapping, with its
    /// anchor.
    Value {
        anchor: Option<Vec<u8>>,
        collection: bool,
        bytes: u64,
    },
    End,
    Alias(Vec<u8>),
    Other,
}

#[derive(Default)]
struct Counter {
    events: u64,
    values: u64,
    /// The open collections: the anchor and the values counted before it, for anchored ones.
    open: Vec<Option<(Vec<u8>, u64)>>,
    /// The expanded size of each anchor closed so far.
    anchors: HashMap<Vec<u8>, u64>,
}

impl Counter {
    fn event(&mut self, event: Event) {
        self.events += 1;
        match event {
            Event::Value {
                anchor,
                collection,
                bytes,
            } => {
                let before = self.values;
                let weight = 1 + bytes / SCALAR_BYTES_PER_VALUE;
                self.values += weight;
                match (collection, anchor) {
                    (true, anchor) => self.open.push(anchor.map(|a| (a, before))),
                    (false, Some(anchor)) => {
                        self.anchors.insert(anchor, weight);
                    }
                    (false, None) => {}
                }
            }
            Event::End => {
                if let Some(Some((anchor, before))) = self.open.pop() {
                    self.anchors.insert(anchor, self.values - before);
                }
            }
            // An unknown (or still open, recursive) anchor: the reader reports it.
            Event::Alias(anchor) => self.values += self.anchors.get(&anchor).copied().unwrap_or(1),
            Event::Other => {}
        }
    }
}

/// Streams the events of `text` to `each` until the end, a syntax error, or `each` says stop.
fn parse(text: &str, mut each: impl FnMut(Event) -> bool) {
    // SAFETY: the parser is initialised before use, lives in a box (libyaml keeps pointers into
    // it, so it must not move), reads `text` only while `text` is borrowed here, and is deleted
    // once; each event is read according to its type and deleted after.
    unsafe {
        let mut parser: Box<MaybeUninit<unsafe_yaml::yaml_parser_t>> = Box::new_uninit();
        let parser = parser.as_mut_ptr();
        if unsafe_yaml::yaml_parser_initialize(parser).fail {
            return;
        }
        unsafe_yaml::yaml_parser_set_encoding(parser, unsafe_yaml::YAML_UTF8_ENCODING);
        unsafe_yaml::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as u64);
        loop {
            let mut event = MaybeUninit::<unsafe_yaml::yaml_event_t>::uninit();
            if unsafe_yaml::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                break;
            }
            let raw = &*event.as_ptr();
            let end = raw.type_ == unsafe_yaml::YAML_STREAM_END_EVENT;
            let anchor = |p: *mut u8| (!p.is_null()).then(|| CStr::from_ptr(p.cast()).to_bytes().to_vec());
            let counted = match raw.type_ {
                unsafe_yaml::YAML_SCALAR_EVENT => Event::Value {
                    anchor: anchor(raw.data.scalar.anchor),
                    collection: false,
                    bytes: raw.data.scalar.length,
                },
                unsafe_yaml::YAML_SEQUENCE_START_EVENT => Event::Value {
                    anchor: anchor(raw.data.sequence_start.anchor),
                    collection: true,
                    bytes: 0,
                },
                unsafe_yaml::YAML_MAPPING_START_EVENT => Event::Value {
                    anchor: anchor(raw.data.mapping_start.anchor),
                    collection: true,
                    bytes: 0,
                },
                unsafe_yaml::YAML_SEQUENCE_END_EVENT | unsafe_yaml::YAML_MAPPING_END_EVENT => Event::End,
                unsafe_yaml::YAML_ALIAS_EVENT => {
                    Event::Alias(anchor(raw.data.alias.anchor).unwrap_or_default())
                }
                _ => Event::Other,
            };
            unsafe_yaml::yaml_event_delete(event.as_mut_ptr());
            if !each(counted) || end {
                break;
            }
        }
        unsafe_yaml::yaml_parser_delete(parser);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(text: &str) -> Counter {
        let mut counter = Counter::default();
        parse(text, |e| {
            counter.event(e);
            true
        });
        counter
    }

    #[test]
    fn counts_every_event_and_value_of_a_document() {
        // Stream, document, mapping start, key, sequence start, 3 scalars, sequence end,
        // mapping end, document end, stream end; values: the mapping, the key, the sequence, 3.
        let c = counted("a: [1, 2, 3]\n");
        assert_eq!((c.events, c.values), (12, 6));
        assert_eq!(counted("a: [1, 2\n").events, 7, "stops at a syntax error");
        assert_eq!(counted("").events, 2);
    }

    #[test]
    fn an_alias_counts_its_anchors_values_nested_aliases_expanded() {
        // The mapping and its three keys; l0: 1 sequence + 3 scalars = 4; l1: 1 + 3 × 4 = 13;
        // l2: 1 + 2 × 13 = 27.
        let c = counted("l0: &a [x, y, z]\nl1: &b [*a, *a, *a]\nl2: [*b, *b]\n");
        assert_eq!(c.values, 1 + 3 + 4 + 13 + 27);
        // The mapping, two keys, the anchored scalar, the sequence and its two aliases.
        assert_eq!(counted("k: &s one\nv: [*s, *s]\n").values, 1 + 2 + 1 + 1 + 2);
    }

    #[test]
    fn short_values_and_repeated_anchors_are_refused_and_others_pass() {
        let dense = format!("a: [{}]\n", ["1"; 400_000].join(", "));
        assert_eq!(cost(&dense, Allowance::whole(&dense)), Cost::TooManyEvents);
        let sparse = format!("a: [{}]\n", ["123456789"; 100_000].join(", "));
        assert_eq!(cost(&sparse, Allowance::whole(&sparse)), Cost::Within);
        let square = format!(
            "a: &a [{}]\nb: [{}]\n",
            ["0"; 3000].join(", "),
            ["*a"; 3000].join(", ")
        );
        assert_eq!(cost(&square, Allowance::whole(&square)), Cost::TooManyValues);
    }

    #[test]
    fn the_quick_bound_is_never_below_the_count() {
        let texts = [
            "",
            "a",
            "a: [1, 2, 3]\n",
            "- - - - a\n",
            "[a: b, c: d, : , ? e]",
            "{a, b, c, : , ? }",
            "? a\n: b\n?\n:\n",
            "a\n...\nb\n...\nc\n",
            "---\n---\n--- a\n...\n",
            "- \n- \n-\n- a:\n  b:\n  - [, ]\n",
            "k: |\n  text: [not, parsed]\n- x\n",
            "!t &a {x: !!str 'q''s', y: \"z\"}\n",
        ];
        let manifest = include_str!("../../examples/switch_and_plant/moveables/306_SWITCH_TYPE1.yaml");
        for text in texts.iter().copied().chain([manifest]) {
            let (events, values) = quick_bound(text).unwrap();
            let c = counted(text);
            assert!(
                c.events <= events && c.values <= values,
                "{text:?}: {} {}",
                c.events,
                c.values
            );
        }
        // Every arrangement of a few tokens, read as far as each reads.
        let tokens = [
            "a", "-", ":", " ", "\n", "[", "]", "{", "}", ",", "?", "...", "---", "'q'", "|", "&x", "!t",
            "  ",
        ];
        let mut text = String::new();
        for n in 0..tokens.len().pow(5) {
            text.clear();
            let mut k = n;
            for _ in 0..5 {
                text.push_str(tokens[k % tokens.len()]);
                k /= tokens.len();
            }
            let (events, _) = quick_bound(&text).unwrap();
            assert!(counted(&text).events <= events, "{text:?}");
        }
        assert_eq!(quick_bound("a: *x"), None, "an alias needs counting");
    }

    #[test]
    fn an_alias_of_a_long_scalar_weighs_its_length() {
        // Found by review: a scalar anchor weighed one value whatever its length, so 30 000
        // aliases of a 100 kB string (a 190 kB file) stood for 3 GB of strings.
        let long = "x".repeat(100_000);
        let aliases = format!("a: &a {long}\nb: [{}]\n", ["*a"; 30].join(", "));
        assert_eq!(cost(&aliases, Allowance::whole(&aliases)), Cost::TooManyValues);
        let written_out = format!("a: {long}\nb: [{}]\n", [long.as_str(); 30].join(", "));
        assert_eq!(cost(&written_out, Allowance::whole(&written_out)), Cost::Within);
        let c = counted(&format!("k: &s {}\nv: [*s, *s]\n", "y".repeat(80)));
        assert_eq!(c.values, 1 + 2 + 11 + 1 + 2 * 11, "80 bytes weigh 10 values more");
    }
}
