//! JSON Pointers (RFC 6901): the one place that escapes and unescapes their tokens, for
//! the schema builder, the model, the generators and the validator.

use std::borrow::Cow;

/// A token escaped for a pointer: `~` → `~0`, `/` → `~1` (borrowed when nothing changes).
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// A pointer token unescaped: `~1` → `/`, `~0` → `~` (in that order, as the RFC says).
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Appends `/token` (escaped) to `pointer`.
pub fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&escape(token));
}

/// `parent/token`, with `token` escaped.
pub fn child(parent: &str, token: &str) -> String {
    let mut pointer = String::with_capacity(parent.len() + token.len() + 1);
    pointer.push_str(parent);
    push(&mut pointer, token);
    pointer
}

/// The unescaped tokens of `pointer` (none for the whole document, `""`).
pub fn tokens(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(unescape)
}

/// The value `pointer` points to in `value`, as [`serde_json::Value::pointer`] finds it,
/// without a copy of each token (only a token with an escape is copied).
pub fn get<'v>(value: &'v serde_json::Value, pointer: &str) -> Option<&'v serde_json::Value> {
    use serde_json::Value;
    if pointer.is_empty() {
        return Some(value);
    }
    if !pointer.starts_with('/') {
        return None;
    }
    tokens(pointer).try_fold(value, |target, token| match target {
        Value::Object(map) => map.get(token.as_ref()),
        Value::Array(items) => index(&token).and_then(|i| items.get(i)),
        _ => None,
    })
}

/// An array index as a pointer writes it: digits, no sign, no leading zero.
pub fn index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// The pointer of the `$defs` entry called `name`.
pub fn def(name: &str) -> String {
    child("/$defs", name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_through_escaping() {
        for token in ["a", "a/b", "~", "~1", "a~0/b", ""] {
            assert_eq!(unescape(&escape(token)), token);
            let pointer = child("/x", token);
            assert_eq!(tokens(&pointer).collect::<Vec<_>>(), ["x", token]);
        }
        assert_eq!(child("", "a/b~c"), "/a~1b~0c");
        assert_eq!(def("Page/2"), "/$defs/Page~12");
        assert_eq!(tokens("").count(), 0);
    }

    #[test]
    fn get_finds_what_serde_json_finds() {
        let value = serde_json::json!({
            "a": [10, {"b/c": 1, "d~e": [true]}],
            "": {"": 2},
            "0": "zero"
        });
        for pointer in [
            "",
            "/",
            "//",
            "/a",
            "/a/0",
            "/a/1/b~1c",
            "/a/1/d~0e/0",
            "/a/01",
            "/a/+1",
            "/a/-",
            "/a/2",
            "/0",
            "/x",
            "a",
            "/a/1/b/c",
            "/a/0/x",
        ] {
            assert_eq!(get(&value, pointer), value.pointer(pointer), "{pointer:?}");
        }
    }
}
