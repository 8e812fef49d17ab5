//! A minimal XML reader for Tomb Editor's sound catalogues: elements, their text and children,
//! with the line each starts on. Attributes, comments, processing instructions and the
//! declaration are read past; character references and the five named entities are decoded.
//! No DTDs and no CDATA (TombLib writes neither): they are refused, never guessed at.
//!
//! Bounded: the tree holds at most one element per `<` of the input and no more than
//! `Limits::sound_catalogue_elements` allows for its size, and nesting deeper than [`MAX_DEPTH`]
//! is refused, so a hostile file asks no more than its size.

use wadforge_model::Limits;

use super::SoundsError;

/// Deeper than any catalogue (TombLib's is five levels).
pub const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    /// The element's own text (its children's apart), entities decoded.
    pub text: String,
    pub children: Vec<Element>,
    pub line: usize,
}

impl Element {
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
    /// The line of `counted_to`: lines are counted once, as the cursor only moves on.
    line: usize,
    counted_to: usize,
}

impl Cursor<'_> {
    fn line(&mut self) -> usize {
        let newlines = self.text.as_bytes()[self.counted_to..self.at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line += newlines;
        self.counted_to = self.at;
        self.line
    }

    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn error(&mut self, problem: String) -> SoundsError {
        SoundsError::xml(self.line(), problem)
    }

    /// Moves past `end`, which must follow.
    fn skip_past(&mut self, end: &str, what: &str) -> Result<(), SoundsError> {
        match self.rest().find(end) {
            Some(i) => {
                self.at += i + end.len();
                Ok(())
            }
            None => Err(self.error(format!(
                "{what} never ends ({end} is missing): the file is cut short"
            ))),
        }
    }
}

/// Parses `text` into its root element.
pub fn parse(text: &str) -> Result<Element, SoundsError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut cursor = Cursor {
        text,
        at: 0,
        line: 1,
        counted_to: 0,
    };
    let mut open: Vec<Element> = Vec::new();
    let mut elements = 0u64;
    loop {
        let Some(next) = cursor.rest().find('<') else {
            return Err(cursor.error(match open.last() {
                Some(e) => format!("<{}> is never closed: the file is cut short", e.name),
                None => "no root element: this is not a sound catalogue".into(),
            }));
        };
        if let Some(parent) = open.last_mut() {
            let line = cursor.line();
            parent
                .text
                .push_str(&decode(&text[cursor.at..cursor.at + next], line)?);
        }
        cursor.at += next;
        let rest = cursor.rest();
        if rest.starts_with("<?") {
            cursor.skip_past("?>", "a processing instruction")?;
        } else if rest.starts_with("<!--") {
            cursor.skip_past("-->", "a comment")?;
        } else if rest.starts_with("<!") {
            return Err(cursor.error("a DTD or CDATA section, which sound catalogues never hold".into()));
        } else if let Some(closing) = rest.strip_prefix("</") {
            let name = closing
                .split(|c: char| c == '>' || c.is_whitespace())
                .next()
                .unwrap_or("");
            let Some(element) = open.pop().filter(|e| e.name == name) else {
                return Err(cursor.error(format!("</{name}> closes no open element: the file is damaged")));
            };
            cursor.skip_past(">", "a closing tag")?;
            match open.last_mut() {
                Some(parent) => parent.children.push(element),
                None => return Ok(element),
            }
        } else {
            let (element, closed) = open_tag(&mut cursor)?;
            elements += 1;
            let bound = Limits::DEFAULT.sound_catalogue_elements;
            if let Err(too_much) = bound.check(elements, text.len() as u64) {
                return Err(SoundsError::xml(element.line, too_much.to_string()));
            }
            if closed {
                match open.last_mut() {
                    Some(parent) => parent.children.push(element),
                    None => return Ok(element),
                }
            } else if open.len() == MAX_DEPTH {
                return Err(cursor.error(format!(
                    "elements nest deeper than {MAX_DEPTH}: this is no sound catalogue"
                )));
            } else {
                open.push(element);
            }
        }
    }
}

/// Reads `<name attributes...>` or `<name .../>`: the element and whether it closed itself.
fn open_tag(cursor: &mut Cursor) -> Result<(Element, bool), SoundsError> {
    let line = cursor.line();
    let tag = &cursor.rest()[1..];
    let name: String = tag
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
        .collect();
    if name.is_empty() {
        return Err(cursor.error("a '<' that starts no element: the file is damaged".into()));
    }
    // Past the attributes: quoted values may hold '>' and '/'.
    let mut quote = None;
    let mut end = None;
    for (i, c) in tag.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => {
                end = Some(i);
                break;
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return Err(cursor.error(format!("<{name} never ends: the file is cut short")));
    };
    let closed = tag[..end].ends_with('/');
    cursor.at += 1 + end + 1;
    Ok((
        Element {
            name,
            text: String::new(),
            children: Vec::new(),
            line,
        },
        closed,
    ))
}

/// Decodes the five named entities and character references.
fn decode(text: &str, line: usize) -> Result<String, SoundsError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let Some(semi) = after.find(';') else {
            return Err(SoundsError::xml(
                line,
                "a '&' that starts no entity: write it as &amp;".into(),
            ));
        };
        let entity = &after[..=semi];
        let decoded = match entity {
            "&amp;" => Some('&'),
            "&lt;" => Some('<'),
            "&gt;" => Some('>'),
            "&quot;" => Some('"'),
            "&apos;" => Some('\''),
            _ => entity
                .strip_prefix("&#x")
                .map(|hex| u32::from_str_radix(&hex[..hex.len() - 1], 16))
                .or_else(|| entity.strip_prefix("&#").map(|dec| dec[..dec.len() - 1].parse()))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        };
        let Some(c) = decoded else {
            return Err(SoundsError::xml(
                line,
                format!("{entity} is no entity XML defines: correct it"),
            ));
        };
        out.push(c);
        rest = &after[semi + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_text_and_lines_are_read_and_markup_around_them_read_past() {
        let root = parse("<?xml version='1.0'?>\n<a x='1>/'>\n <b>&lt;&#65;&#x42;</b><c/>\n</a>").unwrap();
        assert_eq!(root.name, "a");
        assert_eq!(root.line, 2);
        assert_eq!(root.child("b").unwrap().text, "<AB");
        assert_eq!(root.child("c").unwrap().line, 3);
    }

    #[test]
    fn more_elements_than_the_catalogue_s_size_allows_are_refused_with_the_line() {
        let bound = Limits::DEFAULT.sound_catalogue_elements;
        let tiny = |count: usize| format!("<a>\n{}</a>", "<b/>".repeat(count));
        let (fits, over) = (bound.base as usize / 2, bound.base as usize * 2);
        assert_eq!(parse(&tiny(fits)).unwrap().children.len(), fits);
        let error = parse(&tiny(over)).unwrap_err().to_string();
        assert!(
            error.contains("line 2") && error.contains("elements in the sound catalogue"),
            "{error}"
        );
        // An element a line, as Tomb Editor writes them, stays within at any size.
        let lines = format!("<a>\n{}</a>", "  <Id>1</Id>\r\n".repeat(2 * over));
        assert_eq!(parse(&lines).unwrap().children.len(), 2 * over);
    }

    #[test]
    fn cut_short_files_are_refused_never_guessed() {
        for text in [
            "",
            "<a",
            "<a>",
            "<a><!-- x",
            "<a>&amp",
            "<a><![CDATA[x]]></a>",
            "<>",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
