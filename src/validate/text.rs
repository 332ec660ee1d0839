//! Everything that can be wrong with the text before a schema applies: no text, bytes
//! that are not UTF-8, binary data, JSON syntax (NaN, truncation, trailing garbage),
//! nesting beyond the limit, numbers beyond f64.

use serde_json::Value;

use super::locate::position_of;
use super::report::{Position, Violation, ViolationKind};

/// Maximum nesting depth of a message: serde_json's recursion limit, which also bounds
/// every walk symgen does over a parsed value.
pub const MAX_DEPTH: usize = 128;

/// What a value nested past [`MAX_DEPTH`] is told, wherever it is found.
pub fn too_deep_message() -> String {
    format!("nested deeper than {MAX_DEPTH} levels")
}

/// Whether serde_json's error `message` is its recursion limit (in its parser, or in a
/// buffer serde reads before the type: an internally tagged or untagged enum).
pub fn is_recursion_limit(message: &str) -> bool {
    message.starts_with("recursion limit exceeded")
}

/// The bytes as text, or the violation that says why they are not.
pub fn as_text(bytes: &[u8]) -> Result<&str, Box<Violation>> {
    if let Some(offset) = memchr::memchr(0, bytes) {
        let position = byte_position(bytes, offset);
        return Err(Box::new(
            Violation::new(
                ViolationKind::Encoding,
                "",
                format!("binary data (NUL byte at byte offset {offset}), not JSON text"),
            )
            .at(position),
        ));
    }
    std::str::from_utf8(bytes).map_err(|err| {
        let offset = err.valid_up_to();
        Box::new(
            Violation::new(
                ViolationKind::Encoding,
                "",
                format!("invalid UTF-8 at byte offset {offset}; JSON text must be UTF-8"),
            )
            .at(byte_position(bytes, offset)),
        )
    })
}

/// The violation for text with no JSON message in it, if that is the case.
pub fn emptiness(text: &str) -> Option<Violation> {
    text.trim_matches([' ', '\t', '\n', '\r'])
        .is_empty()
        .then(|| {
            Violation::new(
                ViolationKind::Empty,
                "",
                "empty input: expected a JSON message",
            )
            .at(Position { line: 1, column: 1 })
        })
}

/// Position of a byte offset in bytes that may not be UTF-8: lines by `\n`, the column
/// in characters of the valid prefix of the line.
fn byte_position(bytes: &[u8], offset: usize) -> Position {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let column = match std::str::from_utf8(&before[line_start..]) {
        Ok(prefix) => prefix.chars().count(),
        Err(_) => before.len() - line_start,
    };
    Position {
        line,
        column: column as u64 + 1,
    }
}

/// The text offset of serde_json's 1-based line and byte column.
fn offset_of_line_column(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for _ in 1..line {
        match text[offset..].find('\n') {
            Some(i) => offset += i + 1,
            None => return text.len(),
        }
    }
    (offset + column.saturating_sub(1)).min(text.len())
}

/// The position serde_json reports, converted to a character column.
pub fn serde_position(text: &str, line: usize, column: usize) -> Position {
    if line == 0 {
        return Position { line: 1, column: 1 };
    }
    position_of(text, offset_of_line_column(text, line, column))
}

/// The number literal at serde_json's 1-based line and byte column (serde reports
/// where it stopped reading: the literal's last character), with where it starts.
pub fn number_at(text: &str, line: usize, column: usize) -> Option<(Position, &str)> {
    let bytes = text.as_bytes();
    let is_number = is_number_byte;
    let mut stop = offset_of_line_column(text, line, column);
    while stop < bytes.len() && is_number(bytes[stop]) {
        stop += 1;
    }
    let mut start = stop;
    while start > 0 && is_number(bytes[start - 1]) {
        start -= 1;
    }
    let token = &text[start..stop];
    let first = token.bytes().next()?;
    (first.is_ascii_digit() || first == b'-').then(|| (position_of(text, start), token))
}

/// Whether `b` can be part of a JSON number token.
pub fn is_number_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
}

/// What an integer literal no 64-bit type holds is (serde_json read it as a float).
pub fn beyond_64_bits(literal: &str) -> String {
    format!("integer {literal} is beyond the 64-bit range")
}

/// The violation for text serde_json cannot parse as JSON.
pub fn syntax_violation(text: &str, err: &serde_json::Error) -> Violation {
    let offset = offset_of_line_column(text, err.line(), err.column());
    let bare = err.to_string();
    let bare = bare
        .strip_suffix(&format!(" at line {} column {}", err.line(), err.column()))
        .unwrap_or(&bare)
        .to_owned();
    let near = |back: usize| text.get(offset.saturating_sub(back)..).unwrap_or("");
    let special = ["-Infinity", "+Infinity", "Infinity", "-NaN", "+NaN", "NaN"]
        .iter()
        .find_map(|token| {
            (0..4)
                .find(|back| near(*back).starts_with(*token))
                .map(|back| (*token, offset.saturating_sub(back)))
        });
    let mut at = serde_position(text, err.line(), err.column());
    let (kind, message) = if let Some((token, start)) = special {
        at = position_of(text, start);
        (
            ViolationKind::Syntax,
            format!("{token} is not a JSON number (JSON has no NaN or Infinity)"),
        )
    } else if is_recursion_limit(&bare) {
        (ViolationKind::TooDeep, too_deep_message())
    } else if bare.starts_with("number out of range") {
        (
            ViolationKind::OutOfRange,
            "number out of range: beyond what a 64-bit float holds".to_owned(),
        )
    } else if err.is_eof() {
        (
            ViolationKind::Syntax,
            format!("{bare}: the message ends early (truncated?)"),
        )
    } else if bare == "expected value" || bare == "expected ident" {
        let (start, token) = token_at(text, offset);
        at = position_of(text, start);
        (
            ViolationKind::Syntax,
            format!("not JSON: expected a JSON value, found {token}"),
        )
    } else {
        (ViolationKind::Syntax, format!("not JSON: {bare}"))
    };
    Violation::new(kind, "", message).at(at)
}

/// The word (or character) around `offset`, quoted and cut short, for messages, and
/// where it starts.
fn token_at(text: &str, offset: usize) -> (usize, String) {
    let mut start = offset.min(text.len());
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == '+' || c == '.';
    while let Some(c) = text[..start].chars().next_back() {
        if !is_word(c) {
            break;
        }
        start -= c.len_utf8();
    }
    let rest = &text[start..];
    let word: String = rest.chars().take_while(|&c| is_word(c)).take(20).collect();
    let shown = if word.is_empty() {
        rest.chars().next().map(String::from).unwrap_or_default()
    } else {
        word
    };
    if shown.is_empty() {
        (start, "the end of the input".to_owned())
    } else {
        (start, format!("`{shown}`"))
    }
}

/// The violation for a value nested deeper than [`MAX_DEPTH`], if it is. Iterative, so
/// a value of any depth is measured without recursion.
pub fn depth_violation(value: &Value) -> Option<Violation> {
    let mut stack: Vec<(&Value, usize, String)> = vec![(value, 1, String::new())];
    while let Some((value, depth, pointer)) = stack.pop() {
        let children: Box<dyn Iterator<Item = (String, &Value)>> = match value {
            Value::Array(items) => {
                Box::new(items.iter().enumerate().map(|(i, v)| (i.to_string(), v)))
            }
            Value::Object(map) => Box::new(
                map.iter()
                    .map(|(k, v)| (crate::json_pointer::escape(k).into_owned(), v)),
            ),
            _ => continue,
        };
        if depth > MAX_DEPTH {
            return Some(Violation::new(
                ViolationKind::TooDeep,
                pointer,
                too_deep_message(),
            ));
        }
        for (key, child) in children {
            if child.is_array() || child.is_object() {
                stack.push((child, depth + 1, format!("{pointer}/{key}")));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax(text: &str) -> Violation {
        let err = serde_json::from_str::<Value>(text).unwrap_err();
        syntax_violation(text, &err)
    }

    #[test]
    fn bytes_that_are_not_text() {
        let v = as_text(b"{\"a\":\n \"\xff\"}").unwrap_err();
        assert_eq!(v.kind, ViolationKind::Encoding);
        assert_eq!(v.position, Some(Position { line: 2, column: 3 }));
        let v = as_text(b"\x7fELF\x00\x01").unwrap_err();
        assert!(v.message.starts_with("binary data"), "{}", v.message);
        assert!(as_text(b"{}").is_ok());
    }

    #[test]
    fn syntax_errors_say_what_and_where() {
        let v = syntax("{\"a\": NaN}");
        assert!(
            v.message.starts_with("NaN is not a JSON number"),
            "{}",
            v.message
        );
        assert_eq!(v.position, Some(Position { line: 1, column: 7 }));
        assert!(syntax("[-Infinity]").message.starts_with("-Infinity"));
        let v = syntax("{\"é\": [1,");
        assert!(v.message.contains("truncated"), "{}", v.message);
        assert_eq!(v.position, Some(Position { line: 1, column: 9 }));
        assert_eq!(syntax("[1e400]").kind, ViolationKind::OutOfRange);
        let deep = "[".repeat(10_000);
        assert_eq!(syntax(&deep).kind, ViolationKind::TooDeep);
        assert!(
            syntax("{} x")
                .message
                .starts_with("not JSON: trailing characters")
        );
        assert_eq!(
            syntax("not json").message,
            "not JSON: expected a JSON value, found `not`"
        );
        assert_eq!(
            syntax("{\"a\": }").message,
            "not JSON: expected a JSON value, found `}`"
        );
    }

    #[test]
    fn depth_is_measured_without_recursion() {
        let mut value = Value::Null;
        for _ in 0..100_000 {
            value = Value::Array(vec![value]);
        }
        let v = depth_violation(&value).unwrap();
        assert_eq!(v.kind, ViolationKind::TooDeep);
        assert_eq!(v.pointer, "/0".repeat(MAX_DEPTH));
        // Dropping a deep value recurses in serde_json; take it apart iteratively.
        let mut value = value;
        while let Value::Array(mut items) = value {
            value = items.pop().unwrap_or(Value::Null);
        }
        assert!(depth_violation(&serde_json::json!({"a": [[1]]})).is_none());
    }

    #[test]
    fn empty_input() {
        assert_eq!(emptiness(" \n\t").unwrap().kind, ViolationKind::Empty);
        assert!(emptiness(" 0").is_none());
    }
}
