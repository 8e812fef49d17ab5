//! YAML text a person reads at a glance: block style for the structure, flow style for the
//! small things (a sphere centre `[3, 19, 4]`, a dispatch range `[5, 6]`, a keyframe box
//! `{min: [..], max: [..]}` on one line, a state `{id: 3, name: JUMP_FORWARD}`).
//!
//! serde_yaml writes every list one item a line; this writer takes its value tree and writes a
//! container on one line when it holds only scalars (or such small containers: see [`ITEM_DEPTH`] and [`VALUE_DEPTH`])
//! and fits within [`WIDTH`]. Scalars are rendered by serde_yaml itself, so quoting stays its own.

use serde_yaml::Value;

/// Lines stay within this many characters where a container is written on one line.
pub(crate) const WIDTH: usize = 110;
/// How deep a list item written on one line may be: a record of scalars and short lists (a
/// keyframe box, a dispatch); larger items (a bone, a state change) keep one key a line.
const ITEM_DEPTH: usize = 2;
/// How deep a key's value written on one line may be: a list of such records (a state change's
/// one dispatch, a few commands).
const VALUE_DEPTH: usize = 3;

/// The YAML text of `value`, or `None` when it holds something this writer does not lay out
/// (multi-line strings, tagged values): the caller then uses serde_yaml's own text.
pub(crate) fn compact(value: &Value) -> Option<String> {
    let mut out = String::new();
    match value {
        Value::Mapping(_) | Value::Sequence(_) => block(value, 0, &mut out)?,
        _ => {
            out.push_str(&scalar(value)?);
            out.push('\n');
        }
    }
    Some(out)
}

/// The items of the sequence `value` in block style at `indent`, as [`compact`] writes them in a
/// sequence under a key at that indent.
pub(crate) fn sequence(value: &Value, indent: usize) -> Option<String> {
    let mut out = String::new();
    matches!(value, Value::Sequence(_)).then_some(())?;
    block(value, indent, &mut out)?;
    Some(out)
}

/// A container in block style at `indent`, one entry a line (or more for nested blocks).
fn block(value: &Value, indent: usize, out: &mut String) -> Option<()> {
    let pad = " ".repeat(indent);
    match value {
        Value::Mapping(map) => {
            for (key, v) in map {
                let key = scalar(key)?;
                entry(&format!("{pad}{key}:"), v, indent, out)?;
            }
        }
        Value::Sequence(items) => {
            for item in items {
                let Value::Mapping(map) = item else {
                    entry(&format!("{pad}-"), item, indent, out)?;
                    continue;
                };
                // A mapping on one line beside the dash, or its first key there when it does not fit.
                match flow(item, WIDTH - indent - 2, ITEM_DEPTH) {
                    Some(text) if !map.is_empty() => {
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&text);
                        out.push('\n');
                    }
                    None if !map.is_empty() => {
                        let mut inner = String::new();
                        block(item, indent + 2, &mut inner)?;
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&inner[indent + 2..]);
                    }
                    _ => entry(&format!("{pad}-"), item, indent, out)?,
                }
            }
        }
        _ => return None,
    }
    Some(())
}

/// `lead` (a key with its colon, or a dash) and its value: on the same line when it fits, else
/// in block style below (a sequence under a key at the key's indentation, as serde_yaml does).
fn entry(lead: &str, value: &Value, indent: usize, out: &mut String) -> Option<()> {
    let depth = if lead.ends_with('-') {
        ITEM_DEPTH
    } else {
        VALUE_DEPTH
    };
    if let Some(text) = flow(value, WIDTH.saturating_sub(lead.len() + 1), depth) {
        out.push_str(lead);
        out.push(' ');
        out.push_str(&text);
        out.push('\n');
        return Some(());
    }
    out.push_str(lead);
    out.push('\n');
    let nested = match value {
        Value::Sequence(_) if !lead.ends_with('-') => indent,
        _ => indent + 2,
    };
    block(value, nested, out)
}

/// Whether the flow text `text` goes on the line of `lead` (a key with its colon at its indent),
/// as [`entry`] decides: within [`WIDTH`] with a space between.
pub(crate) fn fits_beside(lead: &str, text: &str) -> bool {
    text.chars().count() <= WIDTH.saturating_sub(lead.len() + 1)
}

/// `value` on one line of at most `room` characters: a scalar, or a container of at most `depth`
/// levels whose scalars all read the same in flow style.
fn flow(value: &Value, room: usize, depth: usize) -> Option<String> {
    let mut out = String::new();
    flow_into(value, depth, room, &mut out)?;
    (out.chars().count() <= room).then_some(out)
}

/// Writes `value` in flow style to `out`; `None` as soon as it cannot be written so, or `out`
/// holds more than `room` characters (a long list is not written out only to be dropped).
fn flow_into(value: &Value, depth: usize, room: usize, out: &mut String) -> Option<()> {
    let past_room = |out: &String| out.len() > room && out.chars().count() > room;
    let inner = match value {
        Value::Sequence(_) | Value::Mapping(_) => depth.checked_sub(1)?,
        _ => 0,
    };
    match value {
        Value::Sequence(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                flow_into(item, inner, room, out)?;
                if past_room(out) {
                    return None;
                }
            }
            out.push(']');
        }
        Value::Mapping(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&flow_scalar(key)?);
                out.push_str(": ");
                flow_into(item, inner, room, out)?;
                if past_room(out) {
                    return None;
                }
            }
            out.push('}');
        }
        _ => out.push_str(&flow_scalar(value)?),
    }
    Some(())
}

/// A scalar as serde_yaml writes it, when it means the same inside `[...]` and `{...}`.
fn flow_scalar(value: &Value) -> Option<String> {
    let text = scalar(value)?;
    let quoted = text.starts_with('\'') || text.starts_with('"');
    (quoted || !text.contains([',', '[', ']', '{', '}', '#'])).then_some(text)
}

/// A scalar as serde_yaml writes it, when it takes one line.
///
/// Integers (most of a manifest: boxes, frames, ids) are written here as serde_yaml writes them
/// (decimal digits); other scalars go through serde_yaml, each distinct one once per thread,
/// since starting its emitter costs far more than the text.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => return None,
        Value::Number(n) if n.is_i64() || n.is_u64() => return Some(n.to_string()),
        _ => {}
    }
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<Value, Option<String>>> =
            Default::default();
    }
    if let Some(known) = KNOWN.with(|k| k.borrow().get(value).cloned()) {
        return known;
    }
    let text = serde_yaml_scalar(value);
    KNOWN.with(|k| {
        let mut k = k.borrow_mut();
        // Bounded: names and decimals repeat; a manifest of unusual text must not grow it forever.
        if k.len() > 100_000 {
            k.clear();
        }
        k.insert(value.clone(), text.clone());
    });
    text
}

fn serde_yaml_scalar(value: &Value) -> Option<String> {
    let text = serde_yaml::to_string(value).ok()?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    (!text.contains('\n') && !text.starts_with('|') && !text.starts_with('>')).then(|| text.to_string())
}
