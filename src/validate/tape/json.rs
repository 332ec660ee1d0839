//! A [`Tape`] as a JSON representation the `jsonschema` engine validates directly
//! ([`jsonschema::json::Json`]), so that explaining a rejected message builds no
//! `Value` of it: only the values its errors report are built.
//!
//! Every answer is the one the `Value` built by [`Tape::to_value`] gives: numbers are
//! the same `serde_json::Number`s, objects keep their members in text order (a tape has
//! no key twice), strings are the same text.

use std::borrow::Cow;
use std::sync::OnceLock;

use jsonschema::json::{Array, Json, Node, NodeIdentity, Object, cmp};
use jsonschema::types::JsonType;
use jsonschema_value::LazyInstance;
use serde_json::{Number, Value};

use super::{Items, Members, Tape, Text, Token};
use crate::validate::few::same;

/// The representation: nodes are positions on a tape.
pub struct TapeJson;

/// The value starting at token `at` of a tape.
#[derive(Clone, Copy)]
pub struct TapeNode<'a> {
    tape: &'a Tape<'a>,
    at: usize,
}

impl<'a> TapeNode<'a> {
    /// The tape's whole message.
    pub fn root(tape: &'a Tape<'a>) -> Self {
        Self { tape, at: 0 }
    }

    fn token(&self) -> Token<'a> {
        self.tape.tokens[self.at]
    }

    fn at(&self, at: usize) -> Self {
        Self {
            tape: self.tape,
            at,
        }
    }
}

impl Json for TapeJson {
    type Node<'a> = TapeNode<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    // A lookup compares the keys one by one, as a members pass does.
    const KEYS_PER_LOOKUP: usize = 2;
    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(TapeNode<'_>) -> T) -> T {
        let tape = Tape {
            tokens: vec![Token::Str(Text::Source(string))],
            unescaped: String::new(),
            text: string,
        };
        f(TapeNode::root(&tape))
    }
}

impl<'a> Node<'a, TapeJson> for TapeNode<'a> {
    type Object = TapeObject<'a>;
    type Array = TapeArray<'a>;
    type Number = Number;

    fn as_object(&self) -> Option<TapeObject<'a>> {
        matches!(self.token(), Token::Object { .. }).then_some(TapeObject(*self))
    }

    fn as_array(&self) -> Option<TapeArray<'a>> {
        matches!(self.token(), Token::Array { .. }).then_some(TapeArray(*self))
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self.token() {
            Token::Str(text) => Some(Cow::Borrowed(self.tape.text(text))),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<Number> {
        match self.token() {
            Token::UInt(n) => Some(n.into()),
            Token::Int(n) => Some(n.into()),
            // A tape holds finite floats only (it refuses the rest).
            Token::Float(f) => Number::from_f64(f),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.token() {
            Token::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.token(), Token::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.token() {
            Token::Null => JsonType::Null,
            Token::Bool(_) => JsonType::Boolean,
            Token::UInt(_) | Token::Int(_) | Token::Float(_) => JsonType::Number,
            Token::Str(_) | Token::Key(_) => JsonType::String,
            Token::Array { .. } => JsonType::Array,
            Token::Object { .. } => JsonType::Object,
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        match (self.token(), expected) {
            (Token::Str(text), Value::String(expected)) => same(self.tape.text(text), expected),
            (Token::Str(_), _) => false,
            (Token::Null, _) => expected.is_null(),
            (Token::Bool(b), _) => expected.as_bool() == Some(b),
            (Token::UInt(_) | Token::Int(_) | Token::Float(_), Value::Number(expected)) => self
                .as_number()
                .is_some_and(|n| cmp::equal_numbers(&n, expected)),
            (Token::UInt(_) | Token::Int(_) | Token::Float(_), _) => false,
            _ => cmp::equal(&self.tape.to_value(self.at), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.tape.to_value(self.at))
    }

    /// An error's value: built at once for a scalar; for an array or object, only when
    /// the error's value is asked for (most are not: a missing key, or an alternative
    /// of a union that is not reported), from its own text (so asking for the values
    /// of many errors reads each one's text, not the message's each time).
    fn lazy_value(&self) -> LazyInstance<'a> {
        match self.tape.source(self.at) {
            Some(source) => LazyInstance::Deferred {
                bytes: source.as_bytes(),
                tag: 0,
                make: parsed,
                cell: OnceLock::new(),
            },
            None => LazyInstance::Ready(self.to_value()),
        }
    }

    fn identity(&self) -> Option<NodeIdentity> {
        let at = u32::try_from(self.at).ok()?;
        Some(NodeIdentity::tagged(
            std::ptr::from_ref(self.tape) as usize,
            at,
        ))
    }
}

/// The value of an array or object's text on a tape: serde_json reads it as the tape
/// does (a tape holds no value serde_json would refuse).
fn parsed(text: &[u8], _: u32) -> Value {
    serde_json::from_slice(text).unwrap_or(Value::Null)
}

/// An object on a tape.
pub struct TapeObject<'a>(TapeNode<'a>);

impl<'a> Object<'a, TapeJson> for TapeObject<'a> {
    type Node = TapeNode<'a>;
    type MemberName = &'a str;
    type MembersIter = TapeMembers<'a>;

    fn len(&self) -> usize {
        self.0.tape.count(self.0.at)
    }

    fn get(&self, key: &String) -> Option<TapeNode<'a>> {
        self.0.tape.member(self.0.at, key).map(|at| self.0.at(at))
    }

    fn members(&self) -> TapeMembers<'a> {
        TapeMembers(self.0.tape.members(self.0.at), self.0.tape)
    }
}

/// The members of an object on a tape, in text order.
pub struct TapeMembers<'a>(Members<'a, 'a>, &'a Tape<'a>);

impl<'a> Iterator for TapeMembers<'a> {
    type Item = (&'a str, TapeNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let (key, at) = self.0.next()?;
        Some((key, TapeNode { tape: self.1, at }))
    }
}

/// An array on a tape.
pub struct TapeArray<'a>(TapeNode<'a>);

impl<'a> Array<'a, TapeJson> for TapeArray<'a> {
    type Node = TapeNode<'a>;
    type ElementsIter = TapeItems<'a>;

    fn len(&self) -> usize {
        self.0.tape.count(self.0.at)
    }

    fn elements(&self) -> TapeItems<'a> {
        TapeItems(self.0.tape.items(self.0.at), self.0.tape)
    }
}

/// The items of an array on a tape, in order.
pub struct TapeItems<'a>(Items<'a, 'a>, &'a Tape<'a>);

impl<'a> Iterator for TapeItems<'a> {
    type Item = TapeNode<'a>;

    fn next(&mut self) -> Option<TapeNode<'a>> {
        let at = self.0.next()?;
        Some(TapeNode { tape: self.1, at })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `jsonschema`'s own check of a representation's contract.
    #[test]
    fn a_tape_keeps_the_contract_of_a_json_representation() {
        let text = jsonschema::json::conformance::document().to_string();
        let tape = super::super::read(&text, false).expect("a tape");
        jsonschema::json::conformance::assert_conformance::<TapeJson>(&TapeNode::root(&tape));
    }

    /// The engine gives the same errors on a tape as on the `Value` built from it.
    #[test]
    fn the_engine_reports_on_a_tape_what_it_reports_on_its_value() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 2},
                "f": {"multipleOf": 0.5},
                "s": {"enum": ["a", "b\u{e9}"], "minLength": 2},
                "k": {"const": {"x": [1, 2.0]}},
                "m": {"enum": ["a", 1, null, false, [2]]},
                "u": {"type": "array", "uniqueItems": true, "items": {"type": ["string", "null"]}},
                "p": {"propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "boolean"}}
            },
            "required": ["n", "missing"],
            "additionalProperties": false
        });
        let on_value = jsonschema::options().build(&schema).unwrap();
        let on_tape = jsonschema::options_for::<TapeJson>()
            .build(&schema)
            .unwrap();
        for text in [
            r#"{"n": 1, "f": 0.3, "s": "b\u00e9", "k": {"x": [1, 2]}, "u": ["a", "a", 3], "p": {"A": 1, "ok": true}, "extra": null}"#,
            r#"{"n": 2.0, "f": 1.5, "s": "c", "k": {"x": [1, 2.5]}, "u": [null], "p": {}, "missing": 1}"#,
            r#"{"n": -3, "s": "a", "k": [1], "m": "a"}"#,
            r#"{"n": 3, "m": "b"}"#,
            r#"{"n": 3, "m": 1.0}"#,
            r#"{"n": 3, "m": true}"#,
            r#"{"n": 3, "m": [2.0]}"#,
            r#"[1, "a", {"b": null}]"#,
            r#""text""#,
            "12345678901234567890",
        ] {
            let tape = super::super::read(text, false).expect("a tape");
            let value: Value = serde_json::from_str(text).unwrap();
            let errors = |errors: jsonschema::ErrorIterator<'_>| {
                errors
                    .map(|e| (e.instance_path().to_string(), e.to_string()))
                    .collect::<Vec<_>>()
            };
            let expected = errors(on_value.iter_errors(&value));
            assert_eq!(
                errors(on_tape.iter_errors(TapeNode::root(&tape))),
                expected,
                "{text}"
            );
            assert_eq!(
                on_tape.is_valid(TapeNode::root(&tape)),
                expected.is_empty(),
                "{text}"
            );
        }
    }
}
