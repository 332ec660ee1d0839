//! A message read once into a flat list of tokens (a tape), for the compiled checks of a
//! user schema ([`super::checks`]): no `Value` is built, strings without escapes are
//! borrowed from the text, and each container knows where it ends, so a check can skip
//! a value or read it twice (`anyOf`) without parsing again.
//!
//! [`read`] accepts exactly the messages serde_json parses, and reads them as serde_json
//! does ([`lex`]), with less work. A tape exists only for a message with none of the
//! values [`super::faults`] deals with: serde_json refuses numbers beyond `f64`, lone
//! surrogates and nesting past its limit (the same as [`super::text::MAX_DEPTH`]), and
//! [`read`] refuses an object with a key given twice and, when asked, an integral number
//! serde_json reads as a float. On a tape, a message means exactly what the `Value` the
//! schema walk would build means.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Visitor};
use serde_json::{Map, Value};

use super::few::same;

pub mod json;
mod lex;

/// One token of a [`Tape`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Token<'t> {
    Null,
    Bool(bool),
    UInt(u64),
    Int(i64),
    Float(f64),
    Str(Text<'t>),
    /// An array of `len` items; its items follow, and the next value starts at `end`.
    /// Its text is `from..to` (brackets included).
    Array {
        end: u32,
        from: u32,
        to: u32,
        len: u32,
    },
    /// An object of `len` members; `Key`, value pairs follow, and the next value starts
    /// at `end`. Its text is `from..to` (braces included).
    Object {
        end: u32,
        from: u32,
        to: u32,
        len: u32,
    },
    /// An object's key; its value follows.
    Key(Text<'t>),
}

/// Where a string's text is: in the message (no escapes) or, unescaped, in the tape's
/// own buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text<'t> {
    Source(&'t str),
    Unescaped { start: u32, len: u32 },
}

/// A message as tokens, in text order.
#[derive(Debug)]
pub struct Tape<'t> {
    tokens: Vec<Token<'t>>,
    /// The strings with escapes, unescaped, one after the other.
    unescaped: String,
    /// The text read (for [`Self::source`]).
    text: &'t str,
}

impl<'t> Tape<'t> {
    /// The token at `at`.
    #[inline]
    pub fn token(&self, at: usize) -> &Token<'t> {
        &self.tokens[at]
    }

    /// The text of a string or key token.
    #[inline]
    pub fn text<'a>(&'a self, text: Text<'a>) -> &'a str {
        match text {
            Text::Source(text) => text,
            Text::Unescaped { start, len } => {
                &self.unescaped[start as usize..(start + len) as usize]
            }
        }
    }

    /// The string at `at`, if a string starts there.
    #[inline]
    pub fn str_at(&self, at: usize) -> Option<&str> {
        match self.tokens[at] {
            Token::Str(text) => Some(self.text(text)),
            _ => None,
        }
    }

    /// Where the value starting at `at` ends (the index of the next token).
    #[inline]
    pub fn end(&self, at: usize) -> usize {
        match self.tokens[at] {
            Token::Array { end, .. } | Token::Object { end, .. } => end as usize,
            _ => at + 1,
        }
    }

    /// How many tokens the tape holds.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// The members of the object at `at`: (key, index of its value).
    pub fn members(&self, at: usize) -> Members<'_, 't> {
        Members {
            tape: self,
            next: at + 1,
            end: self.end(at),
        }
    }

    /// How many items the array, or members the object, at `at` has (0 for a scalar).
    #[inline]
    pub fn count(&self, at: usize) -> usize {
        match self.tokens[at] {
            Token::Array { len, .. } | Token::Object { len, .. } => len as usize,
            _ => 0,
        }
    }

    /// The items of the array at `at`: the index of each.
    pub fn items(&self, at: usize) -> Items<'_, 't> {
        Items {
            tape: self,
            next: at + 1,
            end: self.end(at),
        }
    }

    /// The value of member `key` of the object at `at`.
    pub fn member(&self, at: usize, key: &str) -> Option<usize> {
        let Token::Object { end, .. } = *self.tokens.get(at)? else {
            return None;
        };
        let end = (end as usize).min(self.tokens.len());
        let mut next = at + 1;
        while next < end {
            let Token::Key(k) = self.tokens[next] else {
                return None;
            };
            if same(self.text(k), key) {
                return Some(next + 1);
            }
            next = self.end(next + 1);
        }
        None
    }

    /// The text of the array or object starting at `at`, as the message writes it.
    pub fn source(&self, at: usize) -> Option<&'t str> {
        match self.tokens[at] {
            Token::Array { from, to, .. } | Token::Object { from, to, .. } => {
                self.text.get(from as usize..to as usize)
            }
            _ => None,
        }
    }

    /// The value JSON Pointer `pointer` points to, as
    /// [`crate::json_pointer::get`] finds it in the message's `Value`.
    pub fn pointer(&self, pointer: &str) -> Option<usize> {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return None;
        }
        crate::json_pointer::tokens(pointer).try_fold(0, |at, token| match self.tokens[at] {
            Token::Object { .. } => self.member(at, &token),
            Token::Array { .. } => self.items(at).nth(crate::json_pointer::index(&token)?),
            _ => None,
        })
    }

    /// The value starting at `at`, built (for a check the compiled form leaves to the
    /// general engine).
    pub fn to_value(&self, at: usize) -> Value {
        match self.tokens[at] {
            Token::Null => Value::Null,
            Token::Bool(b) => Value::Bool(b),
            Token::UInt(n) => Value::Number(n.into()),
            Token::Int(n) => Value::Number(n.into()),
            Token::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            Token::Str(text) | Token::Key(text) => Value::String(self.text(text).to_owned()),
            Token::Array { .. } => Value::Array(self.items(at).map(|i| self.to_value(i)).collect()),
            Token::Object { .. } => {
                let mut map = Map::with_capacity(self.count(at));
                for (key, value) in self.members(at) {
                    map.insert(key.to_owned(), self.to_value(value));
                }
                Value::Object(map)
            }
        }
    }
}

/// See [`Tape::members`].
pub struct Members<'a, 't> {
    tape: &'a Tape<'t>,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Members<'a, '_> {
    type Item = (&'a str, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.end {
            return None;
        }
        let Token::Key(key) = self.tape.tokens[self.next] else {
            return None;
        };
        let value = self.next + 1;
        self.next = self.tape.end(value);
        Some((self.tape.text(key), value))
    }
}

/// See [`Tape::items`].
pub struct Items<'a, 't> {
    tape: &'a Tape<'t>,
    next: usize,
    end: usize,
}

impl Iterator for Items<'_, '_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let at = self.next;
        self.next = self.tape.end(at);
        Some(at)
    }
}

thread_local! {
    /// The buffers of the last tape this thread dropped, kept for the next (a stream
    /// of messages allocates them once).
    static SPARE: Cell<(Vec<Token<'static>>, String)> =
        const { Cell::new((Vec::new(), String::new())) };
}

/// An empty vector on `tokens`' allocation, for tokens of another lifetime. No token is
/// converted (there are none); the standard library collects in place.
fn relabel<'a, 'b>(mut tokens: Vec<Token<'a>>) -> Vec<Token<'b>> {
    tokens.clear();
    tokens
        .into_iter()
        .map(|_| -> Token<'b> { unreachable!("the vector is empty") })
        .collect()
}

impl Drop for Tape<'_> {
    fn drop(&mut self) {
        let tokens = std::mem::take(&mut self.tokens);
        let mut unescaped = std::mem::take(&mut self.unescaped);
        if tokens.capacity() <= 1 << 16 && unescaped.capacity() <= 1 << 20 {
            unescaped.clear();
            SPARE.with(|spare| spare.set((relabel(tokens), unescaped)));
        }
    }
}

/// The tape of `text`, or `None` when serde_json refuses it or it holds a value the
/// schema walk must see (see the module documentation). `integral_floats`: refuse a
/// float with an integral value too (a document with Rust integer formats).
pub fn read(text: &str, integral_floats: bool) -> Option<Tape<'_>> {
    let (tokens, unescaped) = SPARE.with(Cell::take);
    let mut tape = Tape {
        tokens: relabel(tokens),
        unescaped,
        text,
    };
    tape.tokens.reserve(text.len() / 6 + 4);
    lex::Lexer::new(text, &mut tape, integral_floats).document()?;
    Some(tape)
}

/// Appends one number's token, as serde_json reads it (for [`lex`]'s numbers other
/// than short integers).
struct Number<'a, 't> {
    tape: &'a mut Tape<'t>,
    integral_floats: bool,
}

impl<'de> DeserializeSeed<'de> for Number<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Number<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_i64<E>(self, value: i64) -> Result<(), E> {
        self.tape.tokens.push(Token::Int(value));
        Ok(())
    }

    fn visit_u64<E>(self, value: u64) -> Result<(), E> {
        self.tape.tokens.push(Token::UInt(value));
        Ok(())
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<(), E> {
        if !value.is_finite() || (self.integral_floats && value.fract() == 0.0) {
            return Err(E::custom("left to the schema walk"));
        }
        self.tape.tokens.push(Token::Float(value));
        Ok(())
    }
}

/// A 64-bit summary of an object's keys (one bit per key, from its length and end
/// bytes): keys are compared only when two of them share a bit.
#[derive(Default)]
struct KeyIndex {
    summary: u64,
    collided: bool,
}

impl KeyIndex {
    fn push(&mut self, key: &str) {
        let bytes = key.as_bytes();
        let mix = bytes.len()
            ^ (bytes.first().copied().unwrap_or(0) as usize).wrapping_mul(7)
            ^ (bytes.last().copied().unwrap_or(0) as usize).wrapping_mul(31);
        let bit = 1u64 << (mix % 64);
        self.collided |= self.summary & bit != 0;
        self.summary |= bit;
    }

    /// Whether two keys of the object at `at` (complete on the tape up to its last
    /// value) are equal: no when no two keys share a bit, without a call.
    #[inline(always)]
    fn has_duplicate(&self, tape: &Tape<'_>, at: usize) -> bool {
        self.collided && Self::compare_keys(tape, at)
    }

    /// [`Self::has_duplicate`] when two keys share a bit: their texts compared.
    #[inline(never)]
    fn compare_keys(tape: &Tape<'_>, at: usize) -> bool {
        let mut few = [""; 16];
        let mut count = 0;
        let mut many: Vec<&str> = Vec::new();
        let mut next = at + 1;
        while next < tape.tokens.len() {
            let Token::Key(key) = tape.tokens[next] else {
                break;
            };
            let key = tape.text(key);
            if count < few.len() {
                few[count] = key;
            } else {
                if many.is_empty() {
                    many.extend_from_slice(&few);
                }
                many.push(key);
            }
            count += 1;
            next = tape.end(next + 1);
        }
        if many.is_empty() {
            let keys = &few[..count];
            return keys
                .iter()
                .enumerate()
                .any(|(i, key)| keys[i + 1..].contains(key));
        }
        many.sort_unstable();
        many.windows(2).any(|pair| pair[0] == pair[1])
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_a_message_and_builds_it_back() {
        let text = r#"{"a": [1, -2, 2.5, "x\n", null, true], "b": {}, "c": "y"}"#;
        let tape = read(text, false).unwrap();
        assert_eq!(
            tape.to_value(0),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert_eq!(tape.end(0), tape.len());
        let a = tape.member(0, "a").unwrap();
        assert_eq!(tape.items(a).count(), 6);
        assert_eq!(
            tape.member(0, "c").map(|at| tape.to_value(at)),
            Some(json!("y"))
        );
        assert_eq!(tape.str_at(tape.member(0, "c").unwrap()), Some("y"));
        let escaped = read(r#"{"k\u0065y": "a\"b"}"#, false).unwrap();
        assert_eq!(escaped.str_at(1 + 1), Some("a\"b"));
        assert_eq!(escaped.member(0, "key"), Some(2));
        assert_eq!(tape.member(0, "zz"), None);
    }

    #[test]
    fn a_container_s_source_reads_as_its_value() {
        let text = r#" {"a": [10, {"b": null, "c": [1]} ], "e": {}, "k\u0065y": [ ]} "#;
        let tape = read(text, false).unwrap();
        let mut containers = 0;
        for at in 0..tape.len() {
            match tape.source(at) {
                Some(source) => {
                    containers += 1;
                    let value: Value = serde_json::from_str(source).unwrap();
                    assert_eq!(value, tape.to_value(at), "{source}");
                    assert!(source.starts_with(['[', '{']) && source.ends_with([']', '}']));
                    // Its count is its number of items or members.
                    let counted = match &value {
                        Value::Array(items) => items.len(),
                        Value::Object(members) => members.len(),
                        _ => unreachable!("{source}"),
                    };
                    assert_eq!(tape.count(at), counted, "{source}");
                }
                None => assert!(!matches!(
                    tape.token(at),
                    Token::Array { .. } | Token::Object { .. }
                )),
            }
        }
        assert_eq!(containers, 6);
        // The spans and counts cost a token no room.
        assert!(std::mem::size_of::<Token<'_>>() <= 24);
    }

    #[test]
    fn a_pointer_finds_on_the_tape_what_it_finds_in_the_value() {
        let text = r#"{"a": [10, {"b~/c": null}, [], {}], "": {"x": "y"}, "k\u0065y": 1}"#;
        let tape = read(text, false).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        for pointer in [
            "",
            "/a",
            "/a/0",
            "/a/1",
            "/a/1/b~0~1c",
            "/a/2",
            "/a/3",
            "/a/4",
            "/a/01",
            "/a/+1",
            "/a/-",
            "//x",
            "/",
            "/key",
            "/a/0/x",
            "a",
            "/zz",
        ] {
            let expected = crate::json_pointer::get(&value, pointer);
            let found = tape.pointer(pointer).map(|at| tape.to_value(at));
            assert_eq!(found.as_ref(), expected, "{pointer}");
        }
    }

    #[test]
    fn leaves_what_the_schema_walk_must_see() {
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"[{"k": 1, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0, "l": 0, "m": 0, "n": 0, "o": 0, "p": 0, "q": 0, "r": 0, "k": 2}]"#,
            r#"["\ud800"]"#,
            "1e400",
            "[1] x",
            "",
        ] {
            assert!(read(text, false).is_none(), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(read(&deep, false).is_none());
        assert!(read("[1.0]", true).is_none() && read("[-0]", true).is_none());
        assert!(read("[1.0, 1.5]", false).is_some() && read("[1.5]", true).is_some());
    }

    #[test]
    fn a_dropped_tape_lends_its_buffer_to_the_next() {
        let text = format!("[{}]", vec!["1"; 500].join(","));
        let first = read(&text, false).unwrap();
        let capacity = first.tokens.capacity();
        drop(first);
        let second = read("[]", false).unwrap();
        assert_eq!(second.tokens.capacity(), capacity);
        assert_eq!(second.len(), 1);
    }
}
