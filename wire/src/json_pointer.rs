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
}
