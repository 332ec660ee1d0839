//! Rejected corpora: each message of a corpus with one fault of one kind, for the
//! `symgen-rejected*` rows of `--count` (benches/instructions.sh).
//!
//! A fault is made in the message's `Value` and written back; a candidate counts only
//! when the validator rejects the result with a violation of the kind's own (not when it
//! takes it as valid or as an unknown tag), so every message of a rejected corpus is
//! invalid for the reason its kind says.

use serde_json::Value;

use symgen::validate::{Outcome, Validator, ViolationKind};

use super::corpus::Corpus;

/// What is wrong with each message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string value made the number 7.
    Type,
    /// A key the schema requires, removed.
    Missing,
    /// A string value the schema restricts (enum, const, pattern, format), replaced by
    /// one it does not allow.
    Value,
    /// The text cut off two thirds of the way in: not JSON.
    Syntax,
}

impl Kind {
    /// The kind of approach `key` (`symgen-rejected` is the wrong type).
    pub fn of(key: &str) -> Option<Kind> {
        Some(match key {
            "symgen-rejected" => Kind::Type,
            "symgen-rejected-missing" => Kind::Missing,
            "symgen-rejected-value" => Kind::Value,
            "symgen-rejected-syntax" => Kind::Syntax,
            _ => return None,
        })
    }

    /// Whether a violation of kind `found` is what a fault of this kind causes.
    pub fn explains(self, found: ViolationKind) -> bool {
        match self {
            Kind::Type => found == ViolationKind::WrongType,
            Kind::Missing => found == ViolationKind::MissingRequired,
            Kind::Value => matches!(
                found,
                ViolationKind::UnknownEnumValue
                    | ViolationKind::WrongConst
                    | ViolationKind::Constraint
            ),
            Kind::Syntax => found == ViolationKind::Syntax,
        }
    }
}

/// A string no schema of the corpora allows where it restricts a string.
const NOT_ALLOWED: &str = "\u{1}not-an-allowed-value";

/// As many faulty messages as `corpus` has, one fault of `kind` each: the messages where
/// the kind applies, in corpus order, repeated when some do not take it.
///
/// The fault goes to the first value, in text order, where it is rejected as the kind
/// says, looking below the top level first (for `Type` on P1, the first string value
/// below the top level, as this row always measured), then at the top level; the
/// message's tag is left alone (a changed tag is an unknown message, or a fault of the
/// tag itself).
pub fn corpus(corpus: &Corpus, validator: &Validator, kind: Kind) -> Result<Vec<String>, String> {
    let rejected = |text: &str| {
        let report = validator.validate_str(text);
        report.outcome == Outcome::Invalid
            && report.violations.iter().any(|v| kind.explains(v.kind))
    };
    let faulty: Vec<String> = corpus
        .messages
        .iter()
        .filter_map(|m| with_fault(&m.text, &m.tag, kind, &rejected))
        .collect();
    if faulty.is_empty() {
        return Err(format!(
            "{}: no message takes a fault of kind {kind:?}",
            corpus.protocol
        ));
    }
    Ok(faulty
        .iter()
        .cycle()
        .take(corpus.messages.len())
        .cloned()
        .collect())
}

/// `text` (tagged `tag`) with one fault of `kind` that `rejected` confirms, if it can
/// take one.
fn with_fault(
    text: &str,
    tag: &str,
    kind: Kind,
    rejected: &dyn Fn(&str) -> bool,
) -> Option<String> {
    if kind == Kind::Syntax {
        let mut cut = text.len() * 2 / 3;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return Some(text[..cut].to_owned()).filter(|t| rejected(t));
    }
    let value: Value = serde_json::from_str(text).ok()?;
    let mut places = Vec::new();
    walk(&value, &mut Vec::new(), &mut places);
    let is_tag = |path: &[Step]| matches!(path, [Step::Key(key)] if value.get(key.as_str()).and_then(Value::as_str) == Some(tag));
    // Below the top level first (a stable sort keeps text order within each).
    places.retain(|(path, _)| !is_tag(path));
    places.sort_by_key(|(path, _)| path.len() < 2);
    places.into_iter().find_map(|(path, leaf)| {
        let mut copy = value.clone();
        let changed = match kind {
            Kind::Type if matches!(leaf, Leaf::String) => set(&mut copy, &path, Value::from(7)),
            Kind::Missing => remove(&mut copy, &path),
            Kind::Value if matches!(leaf, Leaf::String) => {
                set(&mut copy, &path, Value::from(NOT_ALLOWED))
            }
            _ => false,
        };
        let text = copy.to_string();
        (changed && rejected(&text)).then_some(text)
    })
}

/// One step from a container to a value in it.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// What a place holds.
enum Leaf {
    String,
    Other,
}

/// Every value below `value` (not `value` itself), in text order, with its path.
fn walk(value: &Value, path: &mut Vec<Step>, out: &mut Vec<(Vec<Step>, Leaf)>) {
    let children: Vec<(Step, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (Step::Key(k.clone()), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (Step::Index(i), v))
            .collect(),
        _ => return,
    };
    for (step, child) in children {
        path.push(step);
        let leaf = if child.is_string() {
            Leaf::String
        } else {
            Leaf::Other
        };
        out.push((path.clone(), leaf));
        walk(child, path, out);
        path.pop();
    }
}

fn parent<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path[..path.len() - 1]
        .iter()
        .try_fold(value, |v, step| match step {
            Step::Key(k) => v.get_mut(k.as_str()),
            Step::Index(i) => v.get_mut(*i),
        })
}

fn set(value: &mut Value, path: &[Step], to: Value) -> bool {
    let Some(parent) = parent(value, path) else {
        return false;
    };
    let slot = match path.last() {
        Some(Step::Key(k)) => parent.get_mut(k.as_str()),
        Some(Step::Index(i)) => parent.get_mut(*i),
        None => None,
    };
    slot.map(|slot| *slot = to).is_some()
}

/// Removes the member at `path` (a member of an object, not an array item).
fn remove(value: &mut Value, path: &[Step]) -> bool {
    match (parent(value, path), path.last()) {
        (Some(Value::Object(map)), Some(Step::Key(k))) => map.shift_remove(k.as_str()).is_some(),
        _ => false,
    }
}
