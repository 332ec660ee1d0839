//! The message a rejection is explained for: its tape, when it has one, or its `Value`.
//!
//! Building a message's `Value` costs more than reading its tape, and dropping it about
//! half as much again. A narrowed explanation ([`super::narrow`]) walks the tape
//! itself ([`super::tape::json`]); only what needs the whole `Value` (the general
//! engine on a whole root, serde's fallbacks) builds it, once.

use std::borrow::Cow;
use std::cell::OnceCell;

use serde_json::Value;

use super::tape::{Tape, Token};

/// A message being judged.
pub enum Message<'m> {
    /// On its tape; the `Value` is built on first need.
    Tape(&'m Tape<'m>, OnceCell<Value>),
    /// As a `Value`.
    Value(&'m Value),
}

/// The value of one member of a message: a string, or any other value (built only
/// when asked, for a message on its tape).
pub enum Member<'a> {
    Str(&'a str),
    Value(&'a Value),
    Tape(&'a Tape<'a>, usize),
}

impl<'m> Message<'m> {
    /// The message on `tape`.
    pub fn on_tape(tape: &'m Tape<'m>) -> Self {
        Message::Tape(tape, OnceCell::new())
    }

    /// The message's `Value`, built from its tape on the first call.
    pub fn value(&self) -> &Value {
        match self {
            Message::Tape(tape, value) => value.get_or_init(|| tape.to_value(0)),
            Message::Value(value) => value,
        }
    }

    /// The message's tape, if it has one.
    pub fn tape(&self) -> Option<&Tape<'m>> {
        match self {
            Message::Tape(tape, _) => Some(tape),
            Message::Value(_) => None,
        }
    }

    /// Whether the message is an object.
    pub fn is_object(&self) -> bool {
        match self {
            Message::Tape(tape, _) => matches!(tape.token(0), Token::Object { .. }),
            Message::Value(value) => value.is_object(),
        }
    }

    /// Whether the value JSON Pointer `pointer` points to is an object.
    pub fn is_object_at(&self, pointer: &str) -> bool {
        match self {
            Message::Tape(tape, _) => tape
                .pointer(pointer)
                .is_some_and(|at| matches!(tape.token(at), Token::Object { .. })),
            Message::Value(value) => {
                crate::json_pointer::get(value, pointer).is_some_and(Value::is_object)
            }
        }
    }

    /// The bytes of the JSON Pointers of all the message's values together: what an
    /// explanation that reported every value would copy (each error's location repeats
    /// the keys above it). Computed in one pass; an array index counts as its digits.
    pub fn pointer_bytes(&self) -> u64 {
        match self {
            Message::Tape(tape, _) => tape_pointer_bytes(tape),
            Message::Value(value) => value_pointer_bytes(value, 0),
        }
    }

    /// Member `key` of the message, when it is an object that has one.
    pub fn member(&self, key: &str) -> Option<Member<'_>> {
        match self {
            Message::Tape(tape, _) => {
                let at = tape.member(0, key)?;
                Some(match tape.str_at(at) {
                    Some(text) => Member::Str(text),
                    None => Member::Tape(tape, at),
                })
            }
            Message::Value(value) => super::compiled::member(value, key).map(Member::of),
        }
    }
}

/// [`Message::pointer_bytes`] of a message on `tape`: the tokens are in text order, so
/// a stack of the open containers (where each ends, its pointer's length, the next
/// item's index) gives every value's pointer length.
fn tape_pointer_bytes(tape: &Tape<'_>) -> u64 {
    // (the index of the token after the container, its pointer's length, next index)
    let mut open: Vec<(usize, u64, u64)> = Vec::new();
    let mut total = 0u64;
    let mut key_len = None;
    for at in 0..tape.len() {
        while open.last().is_some_and(|(end, ..)| *end <= at) {
            open.pop();
        }
        let token = tape.token(at);
        if let Token::Key(text) = token {
            key_len = Some(tape.text(*text).len() as u64);
            continue;
        }
        let length = match (open.last_mut(), key_len.take()) {
            (None, _) => 0,
            (Some((_, base, _)), Some(key)) => *base + 1 + key,
            (Some((_, base, next)), None) => {
                *next += 1;
                *base + 1 + digits(*next - 1)
            }
        };
        total = total.saturating_add(length);
        if let Token::Array { end, .. } | Token::Object { end, .. } = token {
            open.push((*end as usize, length, 0));
        }
    }
    total
}

/// [`Message::pointer_bytes`] of `value`, whose own pointer is `length` bytes.
fn value_pointer_bytes(value: &Value, length: u64) -> u64 {
    let below = match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| value_pointer_bytes(item, length + 1 + digits(index as u64)))
            .fold(0u64, u64::saturating_add),
        Value::Object(map) => map
            .iter()
            .map(|(key, item)| value_pointer_bytes(item, length + 1 + key.len() as u64))
            .fold(0u64, u64::saturating_add),
        _ => 0,
    };
    length.saturating_add(below)
}

/// How many decimal digits `n` has.
fn digits(n: u64) -> u64 {
    u64::from(n.checked_ilog10().unwrap_or(0)) + 1
}

impl<'a> Member<'a> {
    /// `value` as a member.
    pub fn of(value: &'a Value) -> Self {
        match value {
            Value::String(text) => Member::Str(text),
            other => Member::Value(other),
        }
    }

    /// The string, if the member is one.
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            Member::Str(text) => Some(text),
            Member::Value(_) | Member::Tape(..) => None,
        }
    }

    /// Whether the member is `null`.
    pub fn is_null(&self) -> bool {
        match self {
            Member::Str(_) => false,
            Member::Value(value) => value.is_null(),
            Member::Tape(tape, at) => matches!(tape.token(*at), Token::Null),
        }
    }

    /// The member as a `Value`.
    pub fn to_value(&self) -> Cow<'a, Value> {
        match self {
            Member::Str(text) => Cow::Owned(Value::String((*text).to_owned())),
            Member::Value(value) => Cow::Borrowed(value),
            Member::Tape(tape, at) => Cow::Owned(tape.to_value(*at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_message_on_its_tape_answers_as_its_value_does() {
        for text in [
            r#"{"kind": "a", "n": null, "o": {"p": [1, {}]}, "e": "\u0041"}"#,
            r#"[{"kind": "a"}]"#,
            r#""kind""#,
            "{}",
        ] {
            let tape = super::super::tape::read(text, false).unwrap();
            let value: Value = serde_json::from_str(text).unwrap();
            let (on_tape, of_value) = (Message::on_tape(&tape), Message::Value(&value));
            assert_eq!(on_tape.is_object(), of_value.is_object(), "{text}");
            for pointer in ["", "/o", "/o/p", "/o/p/1", "/0", "/kind", "/zz"] {
                assert_eq!(
                    on_tape.is_object_at(pointer),
                    of_value.is_object_at(pointer),
                    "{text} {pointer}"
                );
            }
            for key in ["kind", "n", "o", "e", "zz"] {
                let (a, b) = (on_tape.member(key), of_value.member(key));
                assert_eq!(
                    a.as_ref()
                        .map(|m| (m.as_str(), m.is_null(), m.to_value().into_owned())),
                    b.as_ref()
                        .map(|m| (m.as_str(), m.is_null(), m.to_value().into_owned())),
                    "{text} {key}"
                );
            }
            assert_eq!(on_tape.value(), &value);
            assert_eq!(on_tape.pointer_bytes(), of_value.pointer_bytes(), "{text}");
        }
        // "" 0, /kind 5, /n 2, /o 2, /o/p 4, /o/p/0 6, /o/p/1 6, /e 2; an array of
        // eleven: /0 … /9 2 each, /10 3.
        let counted = |text: &str| {
            let tape = super::super::tape::read(text, false).unwrap();
            Message::on_tape(&tape).pointer_bytes()
        };
        assert_eq!(
            counted(r#"{"kind": "a", "n": null, "o": {"p": [1, {}]}, "e": "\u0041"}"#),
            27
        );
        assert_eq!(counted("[0,1,2,3,4,5,6,7,8,9,10]"), 23);
        assert_eq!(counted(r#"[[], {"a": [true]}]"#), 2 + 2 + 4 + 6);
        assert_eq!(
            Message::Value(&json!({"e": "A"}))
                .member("e")
                .unwrap()
                .as_str(),
            Some("A")
        );
    }
}
