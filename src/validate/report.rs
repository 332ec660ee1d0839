//! What validating one message produces: an [`Outcome`], the message's type and every
//! [`Violation`] with its location.

use std::borrow::Cow;

use serde::Serialize;

/// A name that is usually `'static` (a built-in root or tag, or one of a user schema's
/// names interned by [`interned`]), so reporting a valid message allocates nothing.
pub type Name = Cow<'static, str>;

/// A copy of `name`: for the usual `'static` name, the pointer, without the call the
/// generic `Cow::clone` costs on every valid message.
#[inline(always)]
pub(crate) fn copied(name: &Name) -> Name {
    match name {
        Cow::Borrowed(name) => Cow::Borrowed(name),
        Cow::Owned(name) => Cow::Owned(name.clone()),
    }
}

/// How many bytes of names [`interned`] keeps for the life of the process at most.
const INTERNED_BYTES: usize = 1 << 20;

/// `name` as a `'static` [`Name`]: a user schema's root names and tags, read when its
/// validator is built, so that a report names them without allocating. Each distinct
/// name is kept once for the life of the process, up to [`INTERNED_BYTES`] in all (a
/// process that builds validators from many schemas, or from a hostile one, keeps no
/// more); past that, the name is an owned copy, as before.
pub(crate) fn interned(name: &str) -> Name {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static NAMES: Mutex<(BTreeSet<&'static str>, usize)> = Mutex::new((BTreeSet::new(), 0));
    let mut names = NAMES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&kept) = names.0.get(name) {
        return Cow::Borrowed(kept);
    }
    if names.1 + name.len() > INTERNED_BYTES {
        return Cow::Owned(name.to_owned());
    }
    let kept: &'static str = Box::leak(Box::from(name));
    names.0.insert(kept);
    names.1 += name.len();
    Cow::Borrowed(kept)
}

/// The verdict on one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The message obeys the contract.
    Valid,
    /// A well-formed message whose tag (`type`, `method`) the protocol does not know (rule
    /// R4). Not a failure: P1 relays forward it, P4 drops it, P5 answers error -32601.
    Unknown,
    /// The message breaks the contract; the report lists every violation.
    Invalid,
}

/// What kind of rule a violation breaks. The first six match the `fault` of the
/// conformance vectors; the rest concern the text before any schema applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViolationKind {
    /// A required key is absent (or `null`, which means absent: R3).
    MissingRequired,
    /// A value has the wrong JSON type.
    WrongType,
    /// A number (or length) is outside its range.
    OutOfRange,
    /// A string is not one of a closed enum's values.
    UnknownEnumValue,
    /// A fixed value (a tag, `"2.0"`) has another value.
    WrongConst,
    /// A cross-field rule: at least one of, required when, alias and canonical key both
    /// present, or any other schema rule.
    Constraint,
    /// The text is not JSON (including NaN/Infinity, trailing garbage, truncation).
    Syntax,
    /// The bytes are not UTF-8 text (invalid UTF-8, binary data).
    Encoding,
    /// Nested deeper than the limit.
    TooDeep,
    /// Longer than the line (or document) size limit.
    TooLong,
    /// There is no message at all.
    Empty,
}

impl ViolationKind {
    /// The snake_case name used in JSON output and in the vectors' `fault`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MissingRequired => "missing_required",
            Self::WrongType => "wrong_type",
            Self::OutOfRange => "out_of_range",
            Self::UnknownEnumValue => "unknown_enum_value",
            Self::WrongConst => "wrong_const",
            Self::Constraint => "constraint",
            Self::Syntax => "syntax",
            Self::Encoding => "encoding",
            Self::TooDeep => "too_deep",
            Self::TooLong => "too_long",
            Self::Empty => "empty",
        }
    }
}

/// A 1-based position in the validated text. `column` counts Unicode scalar values
/// (characters), not bytes, except in text that is not valid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

/// One broken rule, located.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// What kind of rule.
    pub kind: ViolationKind,
    /// JSON Pointer of the offending value (for a missing key: where it should be; `""`
    /// is the whole message).
    pub pointer: String,
    /// One line for a person, e.g. `must be one of "debug", "info", "warn", "error"`.
    pub message: String,
    /// What the contract expects there, when it can be said briefly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What the message has there (`absent` for a missing key), abbreviated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// Other locations the rule involves (e.g. both keys of an "at least one of").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<String>,
    /// Where in the text, for text input.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
}

impl Violation {
    /// A violation with no expected/found detail and no position yet.
    pub fn new(
        kind: ViolationKind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            kind,
            pointer: pointer.into(),
            message: message.into(),
            expected: None,
            found: None,
            related: Vec::new(),
            position: None,
        }
    }

    /// Sets what was expected and found.
    pub fn expected_found(mut self, expected: impl Into<String>, found: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self.found = Some(found.into());
        self
    }

    /// Sets the related pointers.
    pub fn related(mut self, related: Vec<String>) -> Self {
        self.related = related;
        self
    }

    /// Sets the position.
    pub fn at(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    /// Whether this violation concerns `pointer`: at it, inside it, or naming it among
    /// the locations its rule involves.
    pub fn concerns(&self, pointer: &str) -> bool {
        self.pointer == pointer
            || self.related.iter().any(|r| r == pointer)
            || self
                .pointer
                .strip_prefix(pointer)
                .is_some_and(|rest| rest.starts_with('/'))
    }
}

/// The result of validating one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The verdict.
    pub outcome: Outcome,
    /// The schema root the message was judged as (e.g. `IpcMessage`), when one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<Name>,
    /// The message's tag (`type`, JSON-RPC `method`) when it has one.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub message_type: Option<Name>,
    /// Every violation; empty unless the outcome is [`Outcome::Invalid`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

impl Report {
    /// A valid (or unknown) report.
    pub fn accepted(outcome: Outcome, root: Option<Name>, message_type: Option<Name>) -> Self {
        Self {
            outcome,
            root,
            message_type,
            violations: Vec::new(),
        }
    }

    /// An invalid report.
    pub fn invalid(
        root: Option<Name>,
        message_type: Option<Name>,
        violations: Vec<Violation>,
    ) -> Self {
        Self {
            outcome: Outcome::Invalid,
            root,
            message_type,
            violations,
        }
    }

    /// Whether the message obeys the contract (valid, or an unknown tag per R4).
    pub fn is_accepted(&self) -> bool {
        self.outcome != Outcome::Invalid
    }

    /// The name to count this message under: its tag, else its root.
    pub fn type_name(&self) -> Option<&str> {
        self.message_type.as_deref().or(self.root.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_interned_once_and_only_up_to_the_bound() {
        let (Cow::Borrowed(a), Cow::Borrowed(b)) = (interned("interned-x"), interned("interned-x"))
        else {
            panic!("a short name is interned");
        };
        assert!(std::ptr::eq(a, b), "one copy per distinct name");
        // A name that would pass the bound is copied, not kept.
        let huge = "n".repeat(INTERNED_BYTES + 1);
        assert!(matches!(interned(&huge), Cow::Owned(name) if name == huge));
    }
}
