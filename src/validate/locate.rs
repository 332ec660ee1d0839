//! From a JSON Pointer to a line and column in the text it came from.
//!
//! Runs only on text serde_json has already parsed (so it is valid JSON) and only to
//! report violations. The scan is iterative: nesting depth costs no stack.

use super::report::Position;

/// The byte offset where the value at `pointer` starts in `text`. When the pointer leads
/// to something absent (a missing key), the offset of the deepest existing value on its
/// path: the object the key is missing from. With duplicate keys, the last one counts, as
/// in the parsed value.
pub fn offset_of(text: &str, pointer: &str) -> usize {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, 0);
    if pointer.is_empty() {
        return pos;
    }
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        match bytes.get(pos) {
            Some(b'{') => match find_member(text, pos, &segment) {
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

/// The 1-based line and character column of byte `offset` in `text`.
pub fn position_of(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: before.bytes().filter(|&b| b == b'\n').count() as u64 + 1,
        column: before[line_start..].chars().count() as u64 + 1,
    }
}

/// The position of the value at `pointer` in `text`.
pub fn locate(text: &str, pointer: &str) -> Position {
    position_of(text, offset_of(text, pointer))
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// `pos` is at an opening quote; returns the offset just past the closing quote.
fn skip_string(bytes: &[u8], mut pos: usize) -> usize {
    pos += 1;
    while let Some(&b) = bytes.get(pos) {
        match b {
            b'\\' => pos += 2,
            b'"' => return pos + 1,
            _ => pos += 1,
        }
    }
    pos
}

/// `pos` is at the start of a value; returns the offset just past it.
fn skip_value(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos) {
        Some(b'"') => skip_string(bytes, pos),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut pos = pos;
            loop {
                match bytes.get(pos) {
                    None => return pos,
                    Some(b'"') => pos = skip_string(bytes, pos),
                    Some(b'{' | b'[') => {
                        depth += 1;
                        pos += 1;
                    }
                    Some(b'}' | b']') => {
                        depth -= 1;
                        pos += 1;
                        if depth == 0 {
                            return pos;
                        }
                    }
                    Some(_) => pos += 1,
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

fn find_member(text: &str, open: usize, wanted: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, open + 1);
    let mut found = None;
    while bytes.get(pos) == Some(&b'"') {
        let key_end = skip_string(bytes, pos);
        let raw = &text[pos..key_end];
        let matches = if raw.contains('\\') {
            serde_json::from_str::<String>(raw).is_ok_and(|key| key == wanted)
        } else {
            &raw[1..raw.len() - 1] == wanted
        };
        pos = skip_ws(bytes, key_end);
        pos = skip_ws(bytes, pos + 1); // past ':'
        if matches {
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
    fn duplicate_keys_resolve_to_the_last() {
        let text = r#"{"k": 1, "k": 22}"#;
        assert_eq!(&text[offset_of(text, "/k")..], "22}");
    }
}
