//! From the `jsonschema` crate's error tree to precise [`Violation`]s.
//!
//! `jsonschema` does the validating; this module only reads its errors. A failed
//! `oneOf`/`anyOf` carries the errors of every alternative; instead of reporting "matched
//! none of 24 alternatives", the alternative the message's tag selects is found (see
//! [`super::discriminator`]) and its errors are reported. Alternatives without a tag are
//! ranked: the one the message fails most deeply (fewest errors at the union's own level)
//! is reported when it is the single best; otherwise one violation lists what would fit.

use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use super::discriminator::{self, Discriminator};
use super::message::Message;
use super::report::{Violation, ViolationKind};
use crate::json_pointer;

/// How many bytes of pointers one report holds at most: past them, the violations still
/// to come are left out, as past `--max-errors` (the first is always reported).
pub const REPORT_BYTES: usize = 1 << 20;

/// How many bytes of pointers a message's values may hold together for its rejection to
/// be explained value by value (the engine locates every error before the first is
/// read, each location a copy of the keys above it); past them, the report says the
/// message is rejected and why it is not explained ([`unexplained`]).
pub const EXPLAIN_POINTER_BYTES: u64 = 64 << 20;

/// The one violation of a rejected message whose values' pointers hold `pointer_bytes`,
/// more than [`EXPLAIN_POINTER_BYTES`].
pub fn unexplained(pointer_bytes: u64) -> Violation {
    Violation::new(
        ViolationKind::Constraint,
        "",
        format!(
            "rejected by the schema; not explained value by value, since the pointers of \
             its values hold {} MiB together, more than the {} MiB an explanation may copy",
            pointer_bytes.div_ceil(1 << 20),
            EXPLAIN_POINTER_BYTES >> 20
        ),
    )
}

/// Reads errors against one schema document.
pub struct Explainer<'a> {
    document: &'a Value,
    /// The document's `$id`, read on first need (most messages' errors do not ask).
    base: std::cell::OnceCell<Option<&'a str>>,
    message: &'a Message<'a>,
    /// Where the document's unions' tags are kept from message to message.
    unions: Option<&'a discriminator::Memo>,
}

impl<'a> Explainer<'a> {
    /// An explainer for the errors of `message` from validators compiled from
    /// `document`.
    pub fn new(document: &'a Value, message: &'a Message<'a>) -> Self {
        Self {
            document,
            base: std::cell::OnceCell::new(),
            message,
            unions: None,
        }
    }

    /// The explainer, finding each union's tag once in `unions` (which must describe
    /// this explainer's document).
    pub fn with_unions(self, unions: &'a discriminator::Memo) -> Self {
        Self {
            unions: Some(unions),
            ..self
        }
    }

    /// Whether the value at `pointer` is a member of an object (not an array item).
    fn is_member(&self, pointer: &str) -> bool {
        match pointer.rsplit_once('/') {
            Some((parent, _)) => self.message.is_object_at(parent),
            None => false,
        }
    }

    /// Every violation the errors describe, duplicates removed, in order.
    #[cfg(test)]
    pub fn explain<'e, I>(&self, errors: I) -> Vec<Violation>
    where
        I: IntoIterator<Item = ValidationError<'e>>,
    {
        self.explain_at_most(errors, usize::MAX)
    }

    /// [`Self::explain`], stopping once `limit` distinct violations are found (the
    /// engine's errors are produced lazily, so the rest are never computed). Linear in
    /// the errors read.
    pub fn explain_at_most<'e, I>(&self, errors: I, limit: usize) -> Vec<Violation>
    where
        I: IntoIterator<Item = ValidationError<'e>>,
    {
        // What `kept` holds, by kind and pointer; filled once a second violation comes,
        // so a message with one violation hashes nothing.
        let mut seen = std::collections::HashSet::new();
        let mut kept: Vec<Violation> = Vec::new();
        let mut copied = 0;
        for error in errors {
            // The error's violations are added to `kept`, then those already there are
            // taken out again, keeping the order.
            let start = kept.len();
            self.one(&error, &mut kept);
            let mut write = start;
            for read in start..kept.len() {
                if read > 0 && seen.is_empty() {
                    seen.insert((kept[0].kind, kept[0].pointer.clone()));
                }
                let fresh = read == 0 || seen.insert((kept[read].kind, kept[read].pointer.clone()));
                if fresh {
                    kept.swap(write, read);
                    write += 1;
                }
            }
            kept.truncate(write);
            if kept.len() >= limit {
                kept.truncate(limit);
                break;
            }
            // Each pointer is a copy of the message's keys: a report copies at most
            // `REPORT_BYTES` of them (a 16 MB key in 100 violations would be 1.6 GB).
            copied += kept[start..].iter().map(|v| v.pointer.len()).sum::<usize>();
            if copied >= REPORT_BYTES {
                break;
            }
        }
        kept
    }

    /// The `oneOf`/`anyOf` array an error comes from, when it is in this document.
    fn alternatives(&self, error: &ValidationError<'_>) -> Option<&'a [Value]> {
        let pointer = match error.absolute_keyword_location() {
            Some(location) => {
                let (base, fragment) = location.as_str().split_once('#')?;
                if self
                    .base
                    .get_or_init(|| self.document.get("$id").and_then(Value::as_str))
                    .is_some_and(|own| own.trim_end_matches('#') != base)
                {
                    return None;
                }
                discriminator::fragment_pointer(fragment)
            }
            None => error.schema_path().as_str().to_owned(),
        };
        let array = json_pointer::get(self.document, &pointer)?.as_array()?;
        Some(array.as_slice())
    }

    fn one(&self, error: &ValidationError<'_>, out: &mut Vec<Violation>) {
        let at = error.instance_path().as_str().to_owned();
        // Built on first need (a missing key needs none; see `tape::json`).
        let instance = || -> &Value { error.instance() };
        match error.kind() {
            ValidationErrorKind::Required { property } => {
                let key = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned);
                let (kind, message) = match self.condition(error) {
                    Some(condition) => (
                        ViolationKind::Constraint,
                        format!("required key `{key}` is missing ({condition})"),
                    ),
                    None => (
                        ViolationKind::MissingRequired,
                        format!("required key `{key}` is missing"),
                    ),
                };
                out.push(
                    Violation::new(kind, child(&at, &key), message)
                        .expected_found("present", "absent"),
                );
            }
            ValidationErrorKind::Type { kind } if instance().is_null() && self.is_member(&at) => {
                let key = at.rsplit('/').next().unwrap_or_default();
                let key = crate::json_pointer::unescape(key);
                let expected = type_names(kind);
                let (kind, message) = match self.condition(error) {
                    Some(condition) => (
                        ViolationKind::Constraint,
                        format!("required key `{key}` is null ({condition}; null means absent)"),
                    ),
                    None => (
                        ViolationKind::MissingRequired,
                        format!("required key `{key}` is null (null means absent)"),
                    ),
                };
                out.push(Violation::new(kind, at, message).expected_found(expected, "null"));
            }
            ValidationErrorKind::Type { kind } => {
                out.push(wrong_type(at, &type_names(kind), instance()));
            }
            ValidationErrorKind::Enum { options } => {
                let expected = one_of(options.as_array().map_or(&[][..], Vec::as_slice));
                out.push(must_be(
                    ViolationKind::UnknownEnumValue,
                    at,
                    expected,
                    instance(),
                ));
            }
            ValidationErrorKind::Constant { expected_value } => {
                let expected = abbreviate(expected_value);
                out.push(must_be(ViolationKind::WrongConst, at, expected, instance()));
            }
            ValidationErrorKind::Minimum { limit } => out.push(range(&at, ">=", limit, instance())),
            ValidationErrorKind::Maximum { limit } => out.push(range(&at, "<=", limit, instance())),
            ValidationErrorKind::ExclusiveMinimum { limit } => {
                out.push(range(&at, ">", limit, instance()))
            }
            ValidationErrorKind::ExclusiveMaximum { limit } => {
                out.push(range(&at, "<", limit, instance()))
            }
            ValidationErrorKind::Not { schema } => out.push(self.not(&at, schema, instance())),
            ValidationErrorKind::OneOfNotValid { context }
            | ValidationErrorKind::AnyOf { context } => {
                self.none_matched(error, &at, instance(), context, out)
            }
            ValidationErrorKind::OneOfMultipleValid { .. } => {
                out.push(self.several_matched(error, &at))
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                for key in unexpected {
                    out.push(
                        Violation::new(
                            ViolationKind::Constraint,
                            child(&at, key),
                            format!("unexpected key `{key}`"),
                        )
                        .expected_found("absent", "present"),
                    );
                }
            }
            ValidationErrorKind::FalseSchema => out.push(Violation::new(
                ViolationKind::Constraint,
                at,
                format!("no value is allowed here; found {}", abbreviate(instance())),
            )),
            _ => {
                let kind = match error.kind() {
                    ValidationErrorKind::MinLength { .. }
                    | ValidationErrorKind::MaxLength { .. }
                    | ValidationErrorKind::MinItems { .. }
                    | ValidationErrorKind::MaxItems { .. }
                    | ValidationErrorKind::MinProperties { .. }
                    | ValidationErrorKind::MaxProperties { .. }
                    | ValidationErrorKind::MultipleOf { .. } => ViolationKind::OutOfRange,
                    _ => ViolationKind::Constraint,
                };
                out.push(Violation::new(kind, at, error.to_string()));
            }
        }
    }

    /// For an error under the `then`/`else` of a conditional, the condition in words
    /// (e.g. ``required when `mode` is "update-section"``).
    fn condition(&self, error: &ValidationError<'_>) -> Option<String> {
        let path = error.schema_path().as_str();
        let (base, branch) = last_segment(path, "then")
            .map(|i| (&path[..i], true))
            .or_else(|| last_segment(path, "else").map(|i| (&path[..i], false)))?;
        let condition = json_pointer::get(self.document, &format!("{base}/if"));
        let pinned: Vec<String> = condition
            .and_then(|c| c.get("properties"))
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .filter_map(|(key, schema)| {
                        let values = match (schema.get("enum"), schema.get("const")) {
                            (Some(Value::Array(values)), _) => values.as_slice(),
                            (_, Some(value)) => std::slice::from_ref(value),
                            _ => return None,
                        };
                        Some(format!("`{key}` is {}", one_of(values)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(match (pinned.is_empty(), branch) {
            (true, _) => "required by a rule on other keys".to_owned(),
            (false, true) => format!("required when {}", pinned.join(" and ")),
            (false, false) => format!("required unless {}", pinned.join(" and ")),
        })
    }

    fn not(&self, at: &str, schema: &Value, instance: &Value) -> Violation {
        let keys: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|keys| keys.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if keys.len() >= 2 && schema.as_object().is_some_and(|o| o.len() == 1) {
            let names = keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>();
            let last = keys[keys.len() - 1];
            return Violation::new(
                ViolationKind::Constraint,
                child(at, last),
                format!("{} must not both be present", names.join(" and ")),
            )
            .expected_found("only one of them", "all of them")
            .related(keys.iter().map(|k| child(at, k)).collect());
        }
        if schema.get("type").and_then(Value::as_str) == Some("null") {
            return Violation::new(ViolationKind::WrongType, at, "must not be null")
                .expected_found("a value", "null");
        }
        Violation::new(
            ViolationKind::Constraint,
            at,
            format!(
                "must not match {}; found {}",
                abbreviate(schema),
                abbreviate(instance)
            ),
        )
    }

    fn none_matched(
        &self,
        error: &ValidationError<'_>,
        at: &str,
        instance: &Value,
        context: &[Vec<ValidationError<'static>>],
        out: &mut Vec<Violation>,
    ) {
        let alternatives = self
            .alternatives(error)
            .filter(|a| a.len() == context.len());
        if let Some(alternatives) = alternatives {
            let d = match self.unions {
                Some(unions) => unions.get(self.document, alternatives),
                None => discriminator::discriminator(self.document, alternatives).map(Into::into),
            };
            if let Some(d) = d {
                return self.by_tag(&d, at, instance, context, out);
            }
            if let Some(keys) = required_sets(alternatives) {
                let names = keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>();
                if matches!(error.kind(), ValidationErrorKind::OneOfNotValid { .. }) {
                    // Exactly one of a key and its input aliases: the key is required.
                    out.push(
                        Violation::new(
                            ViolationKind::MissingRequired,
                            child(at, keys[0]),
                            format!(
                                "required key `{}` is missing (or its alias {})",
                                keys[0],
                                names[1..].join(", ")
                            ),
                        )
                        .expected_found("present", "absent")
                        .related(keys.iter().map(|k| child(at, k)).collect()),
                    );
                    return;
                }
                out.push(
                    Violation::new(
                        ViolationKind::Constraint,
                        at,
                        format!(
                            "at least one of {} must be present and not null",
                            names.join(", ")
                        ),
                    )
                    .expected_found(format!("one of {}", names.join(", ")), "none")
                    .related(keys.iter().map(|k| child(at, k)).collect()),
                );
                return;
            }
        }
        match best_alternative(at, context) {
            Some(index) => {
                for inner in &context[index] {
                    self.one(inner, out);
                }
            }
            None => out.push(self.summary(at, instance, alternatives, context)),
        }
    }

    fn by_tag(
        &self,
        d: &Discriminator,
        at: &str,
        instance: &Value,
        context: &[Vec<ValidationError<'static>>],
        out: &mut Vec<Violation>,
    ) {
        match self.tag_fault(d, at, instance) {
            Some(violation) => out.push(violation),
            None => {
                let selected = instance.get(&d.key).and_then(|tag| d.select(tag));
                for inner in selected
                    .and_then(|index| context.get(index))
                    .into_iter()
                    .flatten()
                {
                    self.one(inner, out);
                }
            }
        }
    }

    /// What is wrong with the tag of `instance`, a message of the union tagged as `d`
    /// says, at `at`: not an object, no tag, a `null` tag, a tag of the wrong type or
    /// one no alternative knows. `None` when the tag selects an alternative: its errors
    /// are then what is wrong.
    pub fn tag_fault(&self, d: &Discriminator, at: &str, instance: &Value) -> Option<Violation> {
        if !instance.is_object() {
            return Some(wrong_type(at, "object", instance));
        }
        self.member_fault(d, at, instance.get(&d.key))
    }

    /// [`Self::tag_fault`] of an object whose tag member is `tag` (`None`: absent).
    pub fn member_fault(
        &self,
        d: &Discriminator,
        at: &str,
        tag: Option<&Value>,
    ) -> Option<Violation> {
        let pointer = child(at, &d.key);
        Some(match tag {
            None => Violation::new(
                ViolationKind::MissingRequired,
                pointer,
                format!("required key `{}` is missing", d.key),
            )
            .expected_found(one_of(d.known_tags()), "absent"),
            Some(Value::Null) => Violation::new(
                ViolationKind::MissingRequired,
                pointer,
                format!("required key `{}` is null (null means absent)", d.key),
            )
            .expected_found(one_of(d.known_tags()), "null"),
            Some(tag) if d.known_tags().any(|t| same_type(t, tag)) => {
                if d.select(tag).is_some() {
                    return None;
                }
                let expected = one_of(d.known_tags());
                let kind = if d.known_count() > 1 {
                    ViolationKind::UnknownEnumValue
                } else {
                    ViolationKind::WrongConst
                };
                Violation::new(
                    kind,
                    pointer,
                    format!(
                        "unknown `{}` {}: must be {expected}",
                        d.key,
                        abbreviate(tag)
                    ),
                )
                .expected_found(expected, abbreviate(tag))
            }
            Some(other) => {
                let expected = d.known_tags().next().map_or("string", |t| json_type(t));
                wrong_type(&pointer, expected, other)
            }
        })
    }

    fn several_matched(&self, error: &ValidationError<'_>, at: &str) -> Violation {
        if let Some(keys) = self.alternatives(error).and_then(required_sets) {
            let names = keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>();
            return Violation::new(
                ViolationKind::Constraint,
                child(at, keys[keys.len() - 1]),
                format!("only one of {} may be present", names.join(", ")),
            )
            .expected_found("only one of them", "several")
            .related(keys.iter().map(|k| child(at, k)).collect());
        }
        let names = self
            .alternatives(error)
            .map(|a| {
                a.iter()
                    .map(discriminator::describe)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_else(|| "its alternatives".to_owned());
        Violation::new(
            ViolationKind::Constraint,
            at,
            format!("must match exactly one of {names}, but matches several"),
        )
    }

    fn summary(
        &self,
        at: &str,
        instance: &Value,
        alternatives: Option<&[Value]>,
        context: &[Vec<ValidationError<'static>>],
    ) -> Violation {
        // Alternatives that are each one value (an enum whose values have their own
        // descriptions) are an enum.
        let consts: Option<Vec<&Value>> = alternatives.and_then(|a| {
            a.iter()
                .map(|s| discriminator::resolve(self.document, s).get("const"))
                .collect()
        });
        if let Some(values) = consts {
            let expected = one_of(values.iter().copied());
            return must_be(
                ViolationKind::UnknownEnumValue,
                at.to_owned(),
                expected,
                instance,
            );
        }
        let expected = match alternatives {
            Some(a) => alternatives_named(a.iter().map(discriminator::describe)),
            None => format!("one of {} alternatives", context.len()),
        };
        if instance.is_null() && self.is_member(at) {
            let key = at.rsplit('/').next().unwrap_or_default();
            return Violation::new(
                ViolationKind::MissingRequired,
                at,
                format!("required key `{key}` is null (null means absent)"),
            )
            .expected_found(expected, "null");
        }
        let missing: Option<Vec<Vec<String>>> = context
            .iter()
            .map(|errors| {
                errors
                    .iter()
                    .map(|e| match e.kind() {
                        ValidationErrorKind::Required { property }
                            if e.instance_path().as_str() == at =>
                        {
                            property.as_str().map(str::to_owned)
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        if let Some(missing) = missing.filter(|m| m.iter().all(|keys| !keys.is_empty())) {
            let names: Vec<String> = missing
                .iter()
                .map(|keys| {
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                })
                .collect();
            let mut seen = std::collections::HashSet::new();
            let related: Vec<String> = missing
                .iter()
                .flatten()
                .filter(|k| seen.insert(*k))
                .map(|k| child(at, k))
                .collect();
            let names = alternatives_named(names.into_iter());
            return Violation::new(
                ViolationKind::MissingRequired,
                at,
                format!("required: {names} (for {expected})"),
            )
            .expected_found(names, "absent")
            .related(related);
        }
        let all_type_errors = context.iter().all(|errors| {
            errors.iter().any(|e| {
                e.instance_path().as_str() == at
                    && matches!(e.kind(), ValidationErrorKind::Type { .. })
            })
        });
        let kind = if all_type_errors {
            ViolationKind::WrongType
        } else {
            ViolationKind::Constraint
        };
        let found = abbreviate(instance);
        Violation::new(kind, at, format!("must be {expected}; found {found}"))
            .expected_found(expected, found)
    }
}

/// Where the last `/{name}/` is in `path`, as `str::rfind` finds it, read segment by
/// segment from the end (a call per error: `rfind`'s set-up cost more than the walk).
fn last_segment(path: &str, name: &str) -> Option<usize> {
    let bytes = path.as_bytes();
    let mut end = bytes.len();
    while let Some(slash) = memchr::memrchr(b'/', &bytes[..end]) {
        let rest = &bytes[slash + 1..];
        if rest.len() > name.len() && rest.starts_with(name.as_bytes()) && rest[name.len()] == b'/'
        {
            return Some(slash);
        }
        end = slash;
    }
    None
}

/// The alternative a message fails most deeply: no type mismatch at the union's own
/// level, then no wrong value there, then the fewest errors there, then the fewest in
/// all. `None` on a tie.
pub(super) fn best_alternative(at: &str, context: &[Vec<ValidationError<'_>>]) -> Option<usize> {
    let score = |errors: &Vec<ValidationError<'_>>| {
        let shallow: Vec<_> = errors
            .iter()
            .filter(|e| e.instance_path().as_str() == at)
            .collect();
        let type_mismatch = shallow.iter().any(|e| {
            matches!(
                e.kind(),
                ValidationErrorKind::Type { .. } | ValidationErrorKind::FalseSchema
            )
        });
        let value_mismatch = shallow.iter().any(|e| {
            matches!(
                e.kind(),
                ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. }
            )
        });
        (type_mismatch, value_mismatch, shallow.len(), errors.len())
    };
    let scores: Vec<_> = context.iter().map(score).collect();
    let best = scores.iter().min()?;
    let mut winners = scores.iter().enumerate().filter(|(_, s)| *s == best);
    let (index, _) = winners.next()?;
    winners.next().is_none().then_some(index)
}

/// When every alternative only requires keys (`{"required": [k], ...}`, as in "at least
/// one of" and alias rules), the keys in order.
pub(super) fn required_sets(alternatives: &[Value]) -> Option<Vec<&str>> {
    let mut keys = Vec::new();
    for alternative in alternatives {
        let object = alternative.as_object()?;
        if object
            .keys()
            .any(|k| !matches!(k.as_str(), "required" | "properties" | "description"))
        {
            return None;
        }
        let required = object.get("required")?.as_array()?;
        for key in required {
            keys.push(key.as_str()?);
        }
    }
    (!keys.is_empty()).then_some(keys)
}

pub use crate::json_pointer::child;

fn same_type(a: &Value, b: &Value) -> bool {
    json_type(a) == json_type(b)
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_names(kind: &TypeKind) -> std::borrow::Cow<'static, str> {
    match kind {
        TypeKind::Single(t) => t.as_str().into(),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(" or ")
            .into(),
    }
}

fn wrong_type(at: impl Into<String>, expected: &str, instance: &Value) -> Violation {
    let found = abbreviate(instance);
    let article = article(expected);
    let mut message = String::with_capacity(
        "must be ; found ".len() + article.len() + expected.len() + found.len(),
    );
    for part in ["must be ", article, expected, "; found ", &found] {
        message.push_str(part);
    }
    Violation::new(ViolationKind::WrongType, at, message).expected_found(expected, found)
}

/// "must be {expected}; found {instance}", abbreviated.
fn must_be(kind: ViolationKind, at: String, expected: String, instance: &Value) -> Violation {
    let found = abbreviate(instance);
    let mut message =
        String::with_capacity("must be ; found ".len() + expected.len() + found.len());
    for part in ["must be ", &expected, "; found ", &found] {
        message.push_str(part);
    }
    Violation::new(kind, at, message).expected_found(expected, found)
}

fn range(at: &str, op: &str, limit: &Value, instance: &Value) -> Violation {
    let expected = format!("{op} {limit}");
    Violation::new(
        ViolationKind::OutOfRange,
        at,
        format!("must be {expected}; found {instance}"),
    )
    .expected_found(expected, instance.to_string())
}

/// What goes before a type's name in "must be …": `an integer`, `a string`, `null`,
/// `a string or null` (written out by [`type_names`]).
fn article(type_name: &str) -> &'static str {
    match type_name {
        "integer" | "object" | "array" => "an ",
        "null" => "",
        t if t.contains(" or ") => "",
        _ => "a ",
    }
}

/// How many distinct alternatives a message names at most (a union of thousands would
/// otherwise make every rejection as long as the schema).
const NAMED_ALTERNATIVES: usize = 8;

/// The alternatives' descriptions, each once, in order: `a or b`, or past
/// [`NAMED_ALTERNATIVES`] `a, b, …, h or one of 12 other alternatives`.
fn alternatives_named(descriptions: impl Iterator<Item = String>) -> String {
    let mut distinct: Vec<String> = Vec::new();
    let mut more = 0;
    for description in descriptions {
        if distinct.contains(&description) {
            continue;
        }
        if distinct.len() < NAMED_ALTERNATIVES {
            distinct.push(description);
        } else {
            more += 1;
        }
    }
    if more == 0 {
        return distinct.join(" or ");
    }
    format!(
        "{} or one of {more} other alternatives",
        distinct.join(", ")
    )
}

/// `"a"`, `"a" or "b"`, `one of "a", "b", "c"`.
fn one_of<'v, I>(values: I) -> String
where
    I: IntoIterator<Item = &'v Value>,
    I::IntoIter: Clone,
{
    let values = values.into_iter();
    let count = values.clone().count();
    let mut out = String::with_capacity(
        8 + values
            .clone()
            .map(|v| v.as_str().map_or(16, str::len) + 4)
            .sum::<usize>(),
    );
    if count == 0 {
        out.push_str("nothing");
    } else if count > 2 {
        out.push_str("one of ");
    }
    for (i, value) in values.enumerate() {
        if i > 0 {
            out.push_str(if count == 2 { " or " } else { ", " });
        }
        abbreviate_into(&mut out, value);
    }
    out
}

/// A value as JSON, cut to about 60 characters, with its type for containers.
pub fn abbreviate(value: &Value) -> String {
    let mut out = String::with_capacity(match value {
        // Room for a few escapes.
        Value::String(text) => text.len().min(LIMIT) + 8,
        _ => 32,
    });
    abbreviate_into(&mut out, value);
    out
}

/// How many characters of a value [`abbreviate`] keeps.
const LIMIT: usize = 60;

/// [`abbreviate`], written at the end of `out`.
fn abbreviate_into(out: &mut String, value: &Value) {
    use std::fmt::Write;
    let start = out.len();
    // A short string is its text in quotes (most enum values and tags have nothing to
    // escape), or else serde_json's escaping of it, without displaying a `Value`.
    if let Value::String(text) = value
        && text.len() + 2 <= LIMIT
    {
        if text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
            out.push_str(&serde_json::to_string(text).unwrap_or_default());
        } else {
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
    } else {
        out.push_str(match value {
            Value::Object(_) => "object ",
            Value::Array(_) => "array ",
            Value::Number(_) => "number ",
            Value::Bool(_) => "boolean ",
            _ => "",
        });
        // Scalars written directly (a `Value` is displayed through serde_json's
        // serializer), and no further than the cut: the writer refuses what comes after
        // it, which ends the serializer's walk of a long string or a big container there.
        let written = out.len();
        let mut bounded = Bounded {
            // Enough bytes for the cut's characters and one more, at four bytes each.
            stop: written + 4 * (LIMIT + 1),
            out: std::mem::take(out),
        };
        let _ = match value {
            Value::Null => write!(bounded, "null"),
            Value::Bool(b) => write!(bounded, "{b}"),
            Value::Number(n) => write!(bounded, "{n}"),
            _ => write!(bounded, "{value}"),
        };
        *out = bounded.out;
        return cut(out, written);
    }
    cut(out, start);
}

/// Cuts what `out` holds after `start` to [`LIMIT`] characters, marking the cut.
fn cut(out: &mut String, start: usize) {
    if out.len() - start > LIMIT
        && let Some((at, _)) = out[start..].char_indices().nth(LIMIT)
    {
        out.truncate(start + at);
        out.push('…');
    }
}

/// A `String` that refuses more once it is `stop` bytes long.
struct Bounded {
    out: String,
    stop: usize,
}

impl std::fmt::Write for Bounded {
    fn write_str(&mut self, piece: &str) -> std::fmt::Result {
        if self.out.len() >= self.stop {
            return Err(std::fmt::Error);
        }
        self.out.push_str(piece);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn violations(schema: Value, instance: Value) -> Vec<Violation> {
        let validator = jsonschema::validator_for(&schema).unwrap();
        Explainer::new(&schema, &Message::Value(&instance))
            .explain(validator.iter_errors(&instance))
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut samples: Vec<String> = (0u8..0x80)
            .map(|b| format!("a{}z", char::from(b)))
            .collect();
        samples.extend(
            [
                "",
                "é\u{7f}\u{2028}",
                "\"quoted\" \\ back",
                "\u{1}not-an-allowed-value",
            ]
            .map(String::from),
        );
        samples.push("\n".repeat(40));
        for text in samples {
            let value = Value::String(text.clone());
            let mut expected = value.to_string();
            if let Some((at, _)) = expected.char_indices().nth(60) {
                expected.truncate(at);
                expected.push('…');
            }
            assert_eq!(abbreviate(&value), expected, "{text:?}");
        }
    }

    #[test]
    fn abbreviations_name_the_type_and_cut_at_sixty_characters() {
        assert_eq!(abbreviate(&json!(7)), "number 7");
        assert_eq!(abbreviate(&json!("é")), "\"é\"");
        assert_eq!(abbreviate(&json!({"a": [true]})), "object {\"a\":[true]}");
        let long = "é".repeat(70);
        let cut = abbreviate(&json!(long));
        assert_eq!(cut, format!("\"{}…", "é".repeat(59)));
        assert_eq!(abbreviate(&json!("é".repeat(58))).chars().count(), 60);
        // The serializer is stopped at the cut: the same text as writing the whole
        // value and cutting it after, at every length around the cut.
        let whole = |value: &Value| {
            let text = value.to_string();
            match text.char_indices().nth(60) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text,
            }
        };
        for n in 50..70 {
            let string = json!("é".repeat(n));
            assert_eq!(abbreviate(&string), whole(&string), "{n}");
            let array = json!(vec!["ab"; n / 4]);
            assert_eq!(
                abbreviate(&array),
                format!("array {}", whole(&array)),
                "{n}"
            );
        }
    }

    #[test]
    fn a_tagged_union_reports_the_selected_alternative_only() {
        let schema = json!({
            "$id": "urn:test",
            "oneOf": [
                {"properties": {"t": {"const": "a"}, "n": {"type": "integer"}}, "required": ["t", "n"]},
                {"properties": {"t": {"const": "b"}, "s": {"enum": ["x", "y"]}}, "required": ["t"]}
            ]
        });
        let v = violations(schema.clone(), json!({"t": "b", "s": "z"}));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].pointer, "/s");
        assert_eq!(v[0].kind, ViolationKind::UnknownEnumValue);
        assert_eq!(v[0].message, r#"must be "x" or "y"; found "z""#);

        let v = violations(schema.clone(), json!({"t": "c"}));
        assert_eq!(
            (v[0].pointer.as_str(), v[0].kind),
            ("/t", ViolationKind::UnknownEnumValue)
        );
        let v = violations(schema, json!({"n": 1}));
        assert_eq!(
            (v[0].pointer.as_str(), v[0].kind),
            ("/t", ViolationKind::MissingRequired)
        );
    }

    #[test]
    fn the_last_then_or_else_is_found_as_rfind_finds_it() {
        for path in [
            "",
            "/then/",
            "/allOf/0/then/required",
            "/then/properties/then/type",
            "/if/then",
            "then/x",
            "/thenx/y",
            "/x/else/then/",
            "//then//",
            "/properties/é/then/a",
        ] {
            for name in ["then", "else"] {
                assert_eq!(
                    last_segment(path, name),
                    path.rfind(&format!("/{name}/")),
                    "{path} {name}"
                );
            }
        }
    }

    #[test]
    fn untagged_alternatives_pick_the_deepest_failure_or_summarise() {
        let schema = json!({"anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"type": "integer"}
        ]});
        let v = violations(schema.clone(), json!({"a": 5}));
        assert_eq!(
            (v[0].pointer.as_str(), v[0].kind),
            ("/a", ViolationKind::WrongType)
        );
        let v = violations(schema, json!(true));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kind, ViolationKind::WrongType);
        assert_eq!(
            v[0].message,
            "must be object or integer; found boolean true"
        );
    }

    #[test]
    fn required_alternatives_and_exclusions_name_every_key() {
        let schema = json!({"anyOf": [{"required": ["path"]}, {"required": ["uri"]}],
                            "not": {"required": ["a", "b"]}});
        let v = violations(schema, json!({"a": 1, "b": 2}));
        assert_eq!(v.len(), 2, "{v:?}");
        assert!(v.iter().any(|v| v.kind == ViolationKind::Constraint
            && v.concerns("/path")
            && v.concerns("/uri")));
        assert!(v.iter().any(|v| v.pointer == "/b" && v.concerns("/a")));
    }

    #[test]
    fn ranges_and_required_keys_have_expected_and_found() {
        let schema = json!({"properties": {"n": {"maximum": 10}}, "required": ["k"]});
        let v = violations(schema, json!({"n": 11}));
        let n = v.iter().find(|v| v.pointer == "/n").unwrap();
        assert_eq!(n.kind, ViolationKind::OutOfRange);
        assert_eq!(n.expected.as_deref(), Some("<= 10"));
        let k = v.iter().find(|v| v.pointer == "/k").unwrap();
        assert_eq!(k.kind, ViolationKind::MissingRequired);
        assert_eq!(k.found.as_deref(), Some("absent"));
    }

    #[test]
    fn a_union_names_each_alternative_once_and_a_few_at_most() {
        let same: Vec<Value> = (0..3)
            .map(|i| json!({"type": "object", "required": [format!("k{i}")]}))
            .collect();
        let v = violations(json!({"oneOf": same}), json!(1));
        assert_eq!(v[0].expected.as_deref(), Some("object"), "{v:?}");
        let titled: Vec<Value> = (0..20)
            .map(|i| json!({"title": format!("T{i}"), "type": "object", "required": ["k"]}))
            .collect();
        let v = violations(json!({"oneOf": titled}), json!({}));
        assert_eq!(
            v[0].message,
            "required: `k` (for T0, T1, T2, T3, T4, T5, T6, T7 or one of 12 other alternatives)",
            "{v:?}"
        );
    }

    #[test]
    fn a_report_copies_a_bounded_number_of_bytes_of_keys() {
        let schema = json!({"additionalProperties": {"items": {"type": "integer"}}});
        let key = "k".repeat(REPORT_BYTES / 10);
        let v = violations(schema, json!({ key: vec!["a"; 100] }));
        // Ten pointers of a tenth of the budget each fill it; the first is always kept.
        assert_eq!(v.len(), 10, "{}", v.len());
        assert!(v.iter().map(|v| v.pointer.len()).sum::<usize>() < 2 * REPORT_BYTES);
    }

    #[test]
    fn a_message_whose_pointers_exceed_the_bound_gets_its_verdict_alone() {
        use crate::validate::{Outcome, SchemaOptions, Validator};
        let schema = json!({"additionalProperties": {"items": {"type": "integer"}}});
        let validator = Validator::from_schema(schema, SchemaOptions::default()).unwrap();
        // 65 values under a key of 1 MiB: 65 MiB of pointers, past the bound.
        let key = "k".repeat(1 << 20);
        let rejected = serde_json::to_string(&json!({ &key: vec!["a"; 64] })).unwrap();
        let report = validator.validate_str(&rejected);
        assert_eq!(report.outcome, Outcome::Invalid);
        assert_eq!(report.violations.len(), 1, "{:?}", report.violations.len());
        assert_eq!(report.violations[0].pointer, "");
        assert!(
            report.violations[0]
                .message
                .contains("hold 66 MiB together, more than the 64 MiB"),
            "{}",
            report.violations[0].message
        );
        let accepted = serde_json::to_string(&json!({ &key: vec![1; 64] })).unwrap();
        assert_eq!(validator.validate_str(&accepted).outcome, Outcome::Valid);
        // Under the bound, value by value.
        let short = serde_json::to_string(&json!({ "k": vec!["a"; 64] })).unwrap();
        assert_eq!(validator.validate_str(&short).violations.len(), 64);
    }
}
