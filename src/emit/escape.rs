//! The escaper every code template uses (`askama.toml` maps the templates' file
//! extensions to it), so a bare `{{ value }}` can never insert raw text into generated
//! code.
//!
//! Only what cannot change the code's structure passes through: ASCII letters and
//! digits, `_`, `$`, `.`, `-`, and other characters that may continue an identifier
//! (Unicode `XID_Continue`: letters, digits, marks of any script). Everything else — quotes, backslashes, brackets,
//! spaces, comment and interpolation starts, line terminators, any other character —
//! is written as the visible escape `\u{XXXX}`, which no target language reads as the
//! character itself outside a string literal: at worst the output does not compile,
//! it never does something else.
//!
//! Templates therefore insert names and other identifier-like values bare, and text in
//! any other position through a filter that escapes for that position (a string
//! literal, a doc comment) or through a view whose rendering does. Raw insertion is the
//! explicit `|safe` filter, and every use carries a `{#- raw: ... #}` comment saying
//! why that text is safe.

use std::fmt::{self, Write};

/// See the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Code;

/// Whether `c` passes [`Code`] unchanged.
pub fn is_inert(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '_' | '$' | '.' | '-')
        || (!c.is_ascii() && unicode_ident::is_xid_continue(c))
}

impl askama::filters::Escaper for Code {
    fn write_escaped_str<W: Write>(&self, mut dest: W, string: &str) -> fmt::Result {
        for c in string.chars() {
            self.write_escaped_char(&mut dest, c)?;
        }
        Ok(())
    }

    fn write_escaped_char<W: Write>(&self, mut dest: W, c: char) -> fmt::Result {
        if is_inert(c) {
            dest.write_char(c)
        } else {
            write!(dest, "\\u{{{:04X}}}", u32::from(c))
        }
    }
}

#[cfg(test)]
mod tests {
    use askama::filters::Escaper;

    use super::Code;

    fn escape(text: &str) -> String {
        let mut out = String::new();
        Code.write_escaped_str(&mut out, text).unwrap();
        out
    }

    #[test]
    fn only_inert_characters_pass() {
        assert_eq!(escape("IpcMessage_2.x-y$"), "IpcMessage_2.x-y$");
        assert_eq!(escape("Ωx"), "Ωx");
        assert_eq!(escape("a b"), "a\\u{0020}b");
        assert_eq!(escape("*/\"\n"), "\\u{002A}\\u{002F}\\u{0022}\\u{000A}");
        for hostile in [
            "\u{2028}", "\u{85}", "${", "\\", "`", "#", "'", "}", "*/", "\"\"\"",
        ] {
            let out = escape(hostile);
            let expected: String = hostile
                .chars()
                .map(|c| match super::is_inert(c) {
                    true => c.to_string(),
                    false => format!("\\u{{{:04X}}}", u32::from(c)),
                })
                .collect();
            assert_eq!(out, expected, "{hostile:?}");
            assert!(out.contains("\\u{"), "{hostile:?} → {out}");
        }
    }
}
