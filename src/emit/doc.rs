//! Documentation as every backend writes it: one [`DocBlock`] per declaration, built
//! from the schema's `title`, `description` and `deprecated` plus the backend's notes,
//! and split into lines at every line terminator a target language knows (`\n`, `\r`,
//! U+0085, U+2028, U+2029, vertical tab and form feed), so no text from a schema can
//! end a comment line and continue as code. Each backend adds only its comment syntax
//! and the escaping of its comment terminator.

use crate::model::Docs;

/// The documentation of one declaration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocBlock {
    paragraphs: Vec<String>,
    deprecated: bool,
}

/// `text` split at every line terminator (`\r\n` counts once), trailing spaces removed;
/// any other control character (tab aside) and every invisible or reordering character
/// (NUL, ESC, BEL, bidirectional overrides, zero widths) written as the visible escape
/// `\u{XXXX}`, so a comment shows what the text says and no compiler or terminal sees
/// the raw character.
pub fn lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if super::text::is_line_terminator(c) {
            if c == '\r' && chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push(current.trim_end().to_owned());
            current.clear();
        } else if (c.is_control() && c != '\t') || super::text::is_invisible(c) {
            current.push_str(&super::text::visible_escape(c));
        } else {
            current.push(c);
        }
    }
    out.push(current.trim_end().to_owned());
    out
}

impl DocBlock {
    /// The block of a schema's docs: the title (when it is not used as a name) and the
    /// description as paragraphs, and whether it is deprecated.
    pub fn new(docs: &Docs) -> Self {
        let mut block = Self {
            paragraphs: Vec::new(),
            deprecated: docs.deprecated,
        };
        for text in docs.title.iter().chain(&docs.description) {
            block.push(text);
        }
        block
    }

    /// The block of a plain description.
    pub fn text(text: Option<&str>) -> Self {
        let mut block = Self::default();
        if let Some(text) = text {
            block.push(text);
        }
        block
    }

    fn push(&mut self, text: &str) {
        let text = text.trim_matches(|c: char| c.is_whitespace());
        if !text.is_empty() {
            self.paragraphs.push(text.to_owned());
        }
    }

    /// Adds a paragraph (a backend's note: a range, a reply type, an alias).
    pub fn note(mut self, text: impl AsRef<str>) -> Self {
        self.push(text.as_ref());
        self
    }

    /// Whether the schema marks it deprecated.
    pub fn is_deprecated(&self) -> bool {
        self.deprecated
    }

    /// Whether there is nothing to say (not even a deprecation).
    pub fn is_empty(&self) -> bool {
        self.paragraphs.is_empty() && !self.deprecated
    }

    /// The paragraphs' lines, a blank line between paragraphs.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for paragraph in &self.paragraphs {
            if !out.is_empty() {
                out.push(String::new());
            }
            out.extend(lines(paragraph));
        }
        out
    }

    /// The paragraphs as one text (`\n`-separated lines, blank lines between
    /// paragraphs); `None` when there are none.
    pub fn joined(&self) -> Option<String> {
        let lines = self.lines();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::{DocBlock, lines};
    use crate::model::Docs;

    #[test]
    fn every_line_terminator_ends_a_line() {
        let text = "a\rb\r\nc\u{2028}d\u{2029}e\u{85}f\u{b}g\u{c}h\ni  ";
        assert_eq!(lines(text), ["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
    }

    #[test]
    fn control_and_invisible_characters_are_escaped() {
        let text = "nul\u{0}esc\u{1b}bel\u{7}rlo\u{202e}zw\u{200b}\tend";
        assert_eq!(
            lines(text),
            ["nul\\u{0000}esc\\u{001B}bel\\u{0007}rlo\\u{202E}zw\\u{200B}\tend"]
        );
    }

    #[test]
    fn paragraphs_come_from_title_description_and_notes() {
        let docs = Docs {
            title: Some("Title".into()),
            description: Some("One\nTwo\u{2028}Three".into()),
            deprecated: true,
            ..Docs::default()
        };
        let block = DocBlock::new(&docs).note("A note.");
        assert_eq!(
            block.lines(),
            ["Title", "", "One", "Two", "Three", "", "A note."]
        );
        assert!(block.is_deprecated());
        assert!(DocBlock::text(Some("  ")).is_empty());
    }
}
