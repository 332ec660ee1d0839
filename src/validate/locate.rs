//! From a JSON Pointer to a line and column in the text it came from.
//!
//! Runs only on text serde_json has already parsed (so it is valid JSON) and only to
//! report violations. The scan is iterative: nesting depth costs no stack.

use std::borrow::Cow;

use super::few::same;
use super::report::Position;
use super::tape::{Tape, Text, Token};

/// The byte offset where the value at `pointer` starts in `text`. When the pointer leads
/// to something absent (a missing key), the offset of the deepest existing value on its
/// path: the object the key is missing from. With duplicate keys, the last one counts, as
/// in the parsed value.
pub fn offset_of(text: &str, pointer: &str) -> usize {
    offset_in(text, pointer, Keys::LastWins)
}

/// Which member [`find_member`] takes for a key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keys {
    /// The last one with the key, as serde_json keeps it: the whole object is read.
    LastWins,
    /// The first one: the caller knows no object in the text has a key twice, so the
    /// scan stops there.
    Unique,
}

fn offset_in(text: &str, pointer: &str, keys: Keys) -> usize {
    let pos = skip_ws(text.as_bytes(), 0);
    if pointer.is_empty() {
        return pos;
    }
    scan_from(text, pos, crate::json_pointer::tokens(pointer), keys)
}

/// The offset of the value the `segments` lead to from the value at offset `pos`.
fn scan_from<'p>(
    text: &str,
    mut pos: usize,
    segments: impl Iterator<Item = Cow<'p, str>>,
    keys: Keys,
) -> usize {
    let bytes = text.as_bytes();
    for segment in segments {
        match bytes.get(pos) {
            Some(b'{') => match find_member(text, pos, &segment, keys) {
                Some(value) => pos = value,
                None => return pos,
            },
            Some(b'[') => match segment
                .parse::<usize>()
                .ok()
                .and_then(|i| find_element(bytes, pos, i))
            {
                Some(value) => pos = value,
                None => return pos,
            },
            _ => return pos,
        }
    }
    pos
}

/// What a cheap scan says about a top-level key (see [`peek`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peek<'t> {
    /// The key holds this plain string (no escapes).
    String(&'t str),
    /// The text is an object without the key (keys compared as written). Once `"key"`
    /// occurs nowhere in the rest of the text, the rest is not checked for syntax: a
    /// text that opens an object and holds no `"key"` at all is `Absent` at once.
    Absent,
    /// Anything else: not an object, not a plain string, malformed.
    Unsure,
}

/// What the text holds at top-level key `key`, by a cheap scan (see [`Peek`]).
#[cfg(test)]
pub fn peek<'t>(text: &'t str, key: &str) -> Peek<'t> {
    let quoted = format!("\"{key}\"");
    peek_with(text, key, &memchr::memmem::Finder::new(quoted.as_bytes()))
}

/// [`peek`] with a prepared search for `"key"` (the key in quotes, as written). It
/// searches the text for `"key"` before reading the first member, and the rest of the
/// text before skipping an array or object member, which may be long: where that occurs
/// nowhere, the key is absent.
pub fn peek_with<'t>(
    text: &'t str,
    key: &str,
    quoted_key: &memchr::memmem::Finder<'_>,
) -> Peek<'t> {
    // The key written first and tight against its string (`{"type":"…`), as serde
    // writes an internally tagged union: the string is read at once.
    if let Some(tight) = tight(text, key) {
        return tight;
    }
    scan(text, key, quoted_key).unwrap_or(Peek::Unsure)
}

/// The length from which [`scan`] searches the text for the key before reading it.
const SEARCH_FIRST: usize = 128;

fn scan<'t>(text: &'t str, key: &str, quoted_key: &memchr::memmem::Finder<'_>) -> Option<Peek<'t>> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, 0);
    if bytes.get(pos) != Some(&b'{') {
        return None;
    }
    pos += 1;
    // In a long text (a response without `"method"`, say), whether the key occurs at
    // all is told faster than the members before it are read; in a short one, not.
    if bytes.len() >= SEARCH_FIRST && quoted_key.find(&bytes[pos..]).is_none() {
        return Some(Peek::Absent);
    }
    pos = skip_ws(bytes, pos);
    if bytes.get(pos) == Some(&b'}') {
        return Some(Peek::Absent);
    }
    while bytes.get(pos) == Some(&b'"') {
        let key_end = string_end(bytes, pos)?;
        let raw = text.get(pos + 1..key_end - 1)?;
        pos = skip_ws(bytes, key_end);
        if bytes.get(pos) != Some(&b':') {
            return None;
        }
        pos = skip_ws(bytes, pos + 1);
        if same(raw, key) {
            return plain_string(text, pos);
        }
        if matches!(bytes.get(pos), Some(b'{' | b'[')) && quoted_key.find(&bytes[pos..]).is_none() {
            return Some(Peek::Absent);
        }
        pos = skip_ws(bytes, skip_value(bytes, pos));
        match bytes.get(pos) {
            Some(b',') => pos = skip_ws(bytes, pos + 1),
            Some(b'}') => return Some(Peek::Absent),
            _ => return None,
        }
    }
    None
}

/// The plain string of `key` when the text starts with `{`, `key` in quotes, a colon
/// and that string, with no white space between them.
#[inline]
fn tight<'t>(text: &'t str, key: &str) -> Option<Peek<'t>> {
    let bytes = text.as_bytes();
    // A first key that is another one mostly differs in its first letter.
    if bytes.get(2) != key.as_bytes().first() || bytes.get(..2)? != b"{\"" {
        return None;
    }
    let after = 2 + key.len();
    if bytes.get(after..after + 2)? != b"\":" || !same(text.get(2..after)?, key) {
        return None;
    }
    plain_string(text, after + 2)
}

/// The string starting at `pos`, when it is a plain one: a plain string ends at its
/// first quote; one with an escape is not read (`None`, as for anything else at `pos`).
#[inline(always)]
fn plain_string(text: &str, pos: usize) -> Option<Peek<'_>> {
    let bytes = text.as_bytes();
    if bytes.get(pos) != Some(&b'"') {
        return None;
    }
    let end = quote_or_backslash(bytes, pos + 1)?;
    if bytes[end] != b'"' {
        return None;
    }
    text.get(pos + 1..end).map(Peek::String)
}

/// The 1-based line and character column of byte `offset` in `text`.
pub fn position_of(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    // Most messages are one line: no newline before the offset, nothing to count.
    let (line, line_start) = match memchr::memrchr(b'\n', before.as_bytes()) {
        None => (1, 0),
        Some(last) => (
            memchr::memchr_iter(b'\n', &before.as_bytes()[..last]).count() as u64 + 2,
            last + 1,
        ),
    };
    Position {
        line,
        column: before[line_start..].chars().count() as u64 + 1,
    }
}

/// The position of the value at `pointer` in `text`.
pub fn locate(text: &str, pointer: &str) -> Position {
    position_of(text, offset_of(text, pointer))
}

/// [`locate_unique`] for a text read into `tape`, which finds the members on the
/// pointer's path without reading the text: a member whose key has no escape is placed
/// by its key, borrowed from `text`. Only past the last member so placed (into an
/// array, or at a key with an escape) is the text scanned. (A text with a tape has no
/// key twice.)
pub fn locate_on_tape(text: &str, tape: &Tape<'_>, pointer: &str) -> Position {
    position_of(text, offset_on_tape(text, tape, pointer))
}

fn offset_on_tape(text: &str, tape: &Tape<'_>, pointer: &str) -> usize {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, 0);
    let mut at = 0;
    let mut segments = crate::json_pointer::tokens(pointer).peekable();
    while let Some(segment) = segments.peek() {
        match tape.token(at) {
            Token::Object { .. } => {}
            Token::Array { .. } => break,
            _ => return pos,
        }
        let Some(value) = tape.member(at, segment) else {
            return pos;
        };
        let Token::Key(Text::Source(key)) = *tape.token(value - 1) else {
            break;
        };
        let Some(start) = (key.as_ptr() as usize)
            .checked_sub(text.as_ptr() as usize)
            .filter(|start| start + key.len() < text.len())
        else {
            break;
        };
        // Past the key's closing quote, the colon and the white space around it.
        pos = skip_ws(bytes, skip_ws(bytes, start + key.len() + 1) + 1);
        at = value;
        segments.next();
    }
    scan_from(text, pos, segments, Keys::Unique)
}

/// [`locate`] in a text where no object has a key twice (a message whose read found no
/// [`super::faults::FaultKind::Duplicate`]): the scan stops at the member it wants
/// instead of reading each object on the path to its end.
pub fn locate_unique(text: &str, pointer: &str) -> Position {
    position_of(text, offset_in(text, pointer, Keys::Unique))
}

pub(super) fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// `pos` is at an opening quote; returns the offset just past the closing quote (the
/// end of the text when there is none).
fn skip_string(bytes: &[u8], pos: usize) -> usize {
    string_end(bytes, pos).unwrap_or(bytes.len())
}

/// `pos` is at an opening quote; the offset just past the closing quote, if there is one.
/// Jumps from one quote or backslash to the next.
pub(super) fn string_end(bytes: &[u8], mut pos: usize) -> Option<usize> {
    pos += 1;
    loop {
        pos = quote_or_backslash(bytes, pos)?;
        if bytes[pos] == b'"' {
            return Some(pos + 1);
        }
        pos += 2;
    }
}

/// A one in each byte of a word, and the high bit of each byte.
const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGHS: u64 = ONES << 7;

/// The zero bytes of `word`, by their high bits (mask with [`HIGHS`]): the lowest flag
/// is exact, and a higher one may be false (a borrow only flags bytes above a zero one),
/// so the lowest flag of several such tests ORed together is the first byte any of
/// them matches.
#[inline(always)]
fn zeros(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word
}

/// How many bytes [`quote_or_backslash`] looks at a word at a time before it hands the
/// rest to `memchr2`, whose set-up costs more than a short key or tag takes to read.
const WORDS_FIRST: usize = 32;

/// The first quote or backslash from `at` on, eight bytes at a time at first (see
/// [`zeros`]).
#[inline(always)]
fn quote_or_backslash(bytes: &[u8], mut at: usize) -> Option<usize> {
    let words_end = at.saturating_add(WORDS_FIRST);
    while at < words_end
        && let Some(chunk) = bytes.get(at..at + 8)
    {
        let chunk = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let flagged = (zeros(chunk ^ (ONES * u64::from(b'"')))
            | zeros(chunk ^ (ONES * u64::from(b'\\'))))
            & HIGHS;
        if flagged != 0 {
            return Some(at + (flagged.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = bytes.get(at..)?;
    // Fewer than eight bytes left (the end of a short message): a call to `memchr2`
    // would cost more than reading them.
    if rest.len() < 8 {
        return rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .map(|i| at + i);
    }
    Some(at + memchr::memchr2(b'"', b'\\', rest)?)
}

/// `pos` is at the start of a value; returns the offset just past it.
pub(super) fn skip_value(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos) {
        Some(b'"') => skip_string(bytes, pos),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut pos = pos;
            loop {
                pos = next_structural(bytes, pos);
                match bytes.get(pos) {
                    None => return pos,
                    Some(b'"') => pos = skip_string(bytes, pos),
                    Some(b'{' | b'[') => {
                        depth += 1;
                        pos += 1;
                    }
                    _ => {
                        depth -= 1;
                        pos += 1;
                        if depth == 0 {
                            return pos;
                        }
                    }
                }
            }
        }
        _ => {
            let mut pos = pos;
            while let Some(b) = bytes.get(pos) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                pos += 1;
            }
            pos
        }
    }
}

/// The first quote or bracket (`{`, `}`, `[`, `]`) from `at` on, or `bytes.len()`. Eight
/// bytes at a time: setting each byte's `0x20` bit makes `[` and `]` into `{` and `}`
/// (and nothing else into them), so three [`zeros`] tests cover the five bytes.
/// A control character `0x02` would pass for a quote that way, so quotes are tested on
/// the bytes as they are.
fn next_structural(bytes: &[u8], mut at: usize) -> usize {
    while let Some(chunk) = bytes.get(at..at + 8) {
        let chunk = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let folded = chunk | (ONES * 0x20);
        let flagged = (zeros(folded ^ (ONES * u64::from(b'{')))
            | zeros(folded ^ (ONES * u64::from(b'}')))
            | zeros(chunk ^ (ONES * u64::from(b'"'))))
            & HIGHS;
        if flagged != 0 {
            return at + (flagged.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while bytes
        .get(at)
        .is_some_and(|b| !matches!(b, b'"' | b'{' | b'}' | b'[' | b']'))
    {
        at += 1;
    }
    at
}

fn find_member(text: &str, open: usize, wanted: &str, keys: Keys) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, open + 1);
    let mut found = None;
    while bytes.get(pos) == Some(&b'"') {
        let key_end = skip_string(bytes, pos);
        let raw = &text[pos..key_end];
        let inner = &raw[1..raw.len() - 1];
        // An escape always makes the written key longer than the key it stands for:
        // a key written as long as `wanted` matches only as written (and then has no
        // escape), one written longer only through an escape.
        let matches = match inner.len().cmp(&wanted.len()) {
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => inner == wanted && !inner.contains('\\'),
            std::cmp::Ordering::Greater => {
                inner.contains('\\')
                    && serde_json::from_str::<String>(raw).is_ok_and(|key| key == wanted)
            }
        };
        pos = skip_ws(bytes, key_end);
        pos = skip_ws(bytes, pos + 1); // past ':'
        if matches {
            if keys == Keys::Unique {
                return Some(pos);
            }
            found = Some(pos);
        }
        pos = skip_ws(bytes, skip_value(bytes, pos));
        if bytes.get(pos) != Some(&b',') {
            break;
        }
        pos = skip_ws(bytes, pos + 1);
    }
    found
}

fn find_element(bytes: &[u8], open: usize, index: usize) -> Option<usize> {
    let mut pos = skip_ws(bytes, open + 1);
    if bytes.get(pos) == Some(&b']') {
        return None;
    }
    for _ in 0..index {
        pos = skip_ws(bytes, skip_value(bytes, pos));
        if bytes.get(pos) != Some(&b',') {
            return None;
        }
        pos = skip_ws(bytes, pos + 1);
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\"a\": {\"b\": [1, {\"c\": \"x,]}\"}, [2]],\n  \"d~/\": true},\n \"e\\u0041\": null, \"n\": -1.5e3}";

    fn at(pointer: &str) -> &'static str {
        &TEXT[offset_of(TEXT, pointer)..]
    }

    /// `string_end` against a byte-by-byte scan: a quote, an escaped quote or a byte
    /// that differs from a quote or backslash only in its high bit, at every place of
    /// strings read a word at a time, past the words into `memchr2`, and unterminated.
    #[test]
    fn string_end_finds_the_closing_quote_at_every_place() {
        fn naive(bytes: &[u8], mut pos: usize) -> Option<usize> {
            pos += 1;
            loop {
                match bytes.get(pos)? {
                    b'"' => return Some(pos + 1),
                    b'\\' => pos += 2,
                    _ => pos += 1,
                }
            }
        }
        for len in 0..2 * WORDS_FIRST + 9 {
            for at in 0..=len {
                for piece in [&b"\"x"[..], b"\\\"", b"\\\\", &[0xa2], &[0xdc], b"\\"] {
                    let mut text = vec![b'"'];
                    text.extend(std::iter::repeat_n(b'a', at));
                    text.extend_from_slice(piece);
                    text.extend(std::iter::repeat_n(b'b', len - at));
                    let open = text.clone();
                    text.push(b'"');
                    for bytes in [&text, &open] {
                        assert_eq!(string_end(bytes, 0), naive(bytes, 0), "{bytes:?}");
                    }
                }
            }
        }
    }

    /// `next_structural` against a byte-by-byte search, each byte value at each place
    /// of a run read a word at a time and past it.
    #[test]
    fn next_structural_finds_the_first_quote_or_bracket() {
        for len in 0..20 {
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    let naive = bytes
                        .iter()
                        .position(|b| b"\"{}[]".contains(b))
                        .unwrap_or(len);
                    assert_eq!(next_structural(&bytes, 0), naive, "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn follows_pointers_through_objects_and_arrays() {
        assert!(at("").starts_with("{\"a\""));
        assert!(at("/a").starts_with("{\"b\""));
        assert!(at("/a/b/1").starts_with("{\"c\""));
        assert!(at("/a/b/1/c").starts_with("\"x,]}\""));
        assert!(at("/a/b/2").starts_with("[2]"));
        assert!(at("/a/b/2/0").starts_with("2]"));
        assert!(at("/a/d~0~1").starts_with("true"));
        assert!(at("/eA").starts_with("null"));
        assert!(at("/n").starts_with("-1.5e3"));
    }

    #[test]
    fn a_key_given_twice_is_the_last_one_unless_keys_are_known_unique() {
        let twice = r#"{"a": 1, "b": {"c": 2, "c": 3}, "a": 4}"#;
        assert!(twice[offset_of(twice, "/a")..].starts_with("4}"));
        assert!(twice[offset_of(twice, "/b/c")..].starts_with("3}"));
        assert!(twice[offset_in(twice, "/a", Keys::Unique)..].starts_with("1,"));
        assert!(twice[offset_in(twice, "/b/c", Keys::Unique)..].starts_with("2,"));
        // Where keys are unique, stopping at the first match finds the same place,
        // missing keys included.
        for pointer in [
            "",
            "/a",
            "/a/b/1/c",
            "/a/d~0~1",
            "/eA",
            "/n",
            "/a/missing",
            "/x/y",
        ] {
            assert_eq!(
                offset_in(TEXT, pointer, Keys::Unique),
                offset_of(TEXT, pointer),
                "{pointer}"
            );
        }
        assert_eq!(locate_unique(TEXT, "/a/d~0~1"), locate(TEXT, "/a/d~0~1"));
        // A key with an escape is compared as it decodes, not as written.
        let escaped = r#"{"a\\b": 1, "c": 2}"#;
        assert!(escaped[offset_of(escaped, "/a\\b")..].starts_with("1,"));
        assert!(escaped[offset_of(escaped, "/a\\\\b")..].starts_with("{"));
    }

    #[test]
    fn missing_locations_fall_back_to_the_deepest_existing_value() {
        assert!(at("/a/missing").starts_with("{\"b\""));
        assert!(at("/a/b/7").starts_with("[1,"));
        assert!(at("/n/deeper").starts_with("-1.5e3"));
    }

    #[test]
    fn positions_count_lines_and_characters() {
        assert_eq!(
            locate(TEXT, "/a/d~0~1"),
            Position {
                line: 2,
                column: 10
            }
        );
        let text = "{\"é\": 1, \"k\": 2}";
        assert_eq!(
            locate(text, "/k"),
            Position {
                line: 1,
                column: 15
            }
        );
    }

    #[test]
    fn peeks_a_top_level_string_in_any_text() {
        let text = r#"{"jsonrpc":"2.0","id":{"method":"no"},"method":"ping"}"#;
        assert_eq!(peek(text, "method"), Peek::String("ping"));
        assert_eq!(peek(text, "id"), Peek::Unsure);
        assert_eq!(peek(r#"{"type":"a\"b"}"#, "type"), Peek::Unsure);
        assert_eq!(
            peek(r#"{"a": [1, {"type": "x"}], "b": 2}"#, "type"),
            Peek::Absent
        );
        assert_eq!(peek("{ }", "type"), Peek::Absent);
        // Arrays and objects are skipped whole, or not read at all when the key occurs
        // nowhere after them.
        assert_eq!(
            peek(
                r#"{"a": {"b": ["]}\"{", {"type": "no"}]}, "type": "yes"}"#,
                "type"
            ),
            Peek::String("yes")
        );
        assert_eq!(
            peek(r#"{"a": [[[]]], "b": {}, "c": "}"}"#, "type"),
            Peek::Absent
        );
        assert_eq!(
            peek(r#"{"a": [1, 2], "b": {"c": "type"}}"#, "type"),
            Peek::Absent
        );
        assert_eq!(peek(r#"{"type": 5}"#, "type"), Peek::Unsure);
        for broken in [
            "",
            "{",
            "{\"",
            "{\"type",
            "{\"type\":",
            "{\"type\":\"x",
            "[1]",
            "{\"a\":1 \"type\":\"x\"}",
        ] {
            assert_eq!(peek(broken, "type"), Peek::Unsure, "{broken}");
        }
        // A long object without `"type"` anywhere is not read: what follows its `{` is
        // not checked for syntax.
        let padding = " ".repeat(SEARCH_FIRST);
        for without in ["{", "{\"", "{\"type", "{\"a\": [}", r#"{"types": "type"}"#] {
            let long = format!("{without}{padding}");
            assert_eq!(peek(&long, "type"), Peek::Absent, "{without}");
        }
    }

    #[test]
    fn a_tight_first_key_reads_as_the_member_by_member_scan_does() {
        // A space after `{` turns the tight reading off; the answer must not change.
        for text in [
            r#"{"type":"x","a":1}"#,
            r#"{"type":"","a":1}"#,
            r#"{"type":"a\"b"}"#,
            r#"{"type":"\u0041"}"#,
            r#"{"type":5}"#,
            r#"{"type":"x"#,
            r#"{"type":"#,
            r#"{"type""#,
            r#"{"types":"x","type":"y"}"#,
            r#"{"typ":"x","type":"y"}"#,
            r#"{"type":"x","type":"y"}"#,
            r#"{"type":"ünï","b":[1]}"#,
        ] {
            let spaced = format!("{{ {}", &text[1..]);
            assert_eq!(peek(text, "type"), peek(&spaced, "type"), "{text}");
        }
        assert_eq!(peek(r#"{"type":"x","a":1}"#, "type"), Peek::String("x"));
        assert_eq!(peek(r#"{"type":"ünï"}"#, "type"), Peek::String("ünï"));
    }

    #[test]
    fn duplicate_keys_resolve_to_the_last() {
        let text = r#"{"k": 1, "k": 22}"#;
        assert_eq!(&text[offset_of(text, "/k")..], "22}");
    }

    /// Every pointer to a value of `value`, and one below it that leads nowhere (a
    /// missing key, an item past the end, a key of a scalar).
    fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match value {
            serde_json::Value::Object(map) => {
                out.push(crate::json_pointer::child(&at, "absent"));
                for (key, value) in map {
                    pointers(value, crate::json_pointer::child(&at, key), out);
                }
            }
            serde_json::Value::Array(items) => {
                out.push(format!("{at}/{}", items.len()));
                for (index, item) in items.iter().enumerate() {
                    pointers(item, format!("{at}/{index}"), out);
                }
            }
            _ => out.push(format!("{at}/0")),
        }
    }

    /// The tape's answer is the text scan's, for every pointer into texts with white
    /// space everywhere, keys with escapes (also on the way to a value), arrays on the
    /// way, keys that look like indices and pointers that need escaping.
    #[test]
    fn the_tape_places_every_pointer_where_the_text_scan_does() {
        let texts = [
            TEXT,
            r#"{"type":"log","payload":{"level":"info","message":"a \"quoted\" é","data":{"n":[1,2,{"x":"y"}]}}}"#,
            " \n{ \"k\\u0031\" : { \"in\" : [ { \"0\" : 1 } , \"s\" ] } ,\t\"a/b\" : { \"~\" : [ ] } } ",
            r#"[{"a": 1}, [true, {"b": {"c": null}}]]"#,
            r#""just a string""#,
            "{}",
        ];
        for text in texts {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let tape = crate::validate::tape::read(text, false).unwrap();
            let mut all = Vec::new();
            pointers(&value, String::new(), &mut all);
            assert!(all.len() > 2 || text.len() < 20, "{text}");
            for pointer in all {
                assert_eq!(
                    offset_on_tape(text, &tape, &pointer),
                    offset_in(text, &pointer, Keys::Unique),
                    "{pointer} in {text}"
                );
            }
        }
    }
}
