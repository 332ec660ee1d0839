//! Text from a schema (or a file name) made safe for generated comments: every
//! backend's headers and doc comments go through here.

/// `text` on one line: line terminators (`\n`, `\r`, U+2028, U+2029, U+0085) and other
/// control characters become escapes (`\n`, `\u{2028}`), so the text cannot end a
/// `//` comment and start code.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_line_terminator(c) || is_invisible(c) => {
                out.push_str(&format!("\\u{{{:04x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether `c` ends a line in some target language's comments or strings: the ASCII
/// ones, NEL, and the Unicode line and paragraph separators.
pub fn is_line_terminator(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` is invisible or reorders the text around it: zero-width characters,
/// bidirectional controls and the byte-order mark (what linters call invisible
/// characters). Generated comments and docs write them as escapes, so what a reader
/// sees is what the text says.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// `c` as the visible escape `\u{XXXX}` (uppercase hex, at least four digits): what
/// generated comments, doc lines and pages write for a character a reader must see.
pub fn visible_escape(c: char) -> String {
    format!("\\u{{{:04X}}}", u32::from(c))
}

/// Indents every non-empty line of `text` by `spaces`.
pub fn indented(text: &str, spaces: usize) -> String {
    let pad = " ".repeat(spaces);
    text.split('\n')
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("{pad}{line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A TOML basic string: quotes, backslashes and control characters escaped.
pub fn toml_string(text: &str) -> String {
    let mut out = String::from('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || is_line_terminator(c) => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn every_line_terminator_is_escaped() {
        let text = "a\nb\rc\u{2028}d\u{2029}e\u{85}f\u{0}g";
        let line = one_line(text);
        assert_eq!(line, "a\\nb\\rc\\u{2028}d\\u{2029}e\\u{0085}f\\u{0000}g");
        assert!(!line.chars().any(super::is_line_terminator));
    }
}
