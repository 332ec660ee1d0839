//! Which schema keywords a rejected value breaks, by their location in the schema
//! document and in the value: what the conformance vectors ask to tell a rule the
//! generated types enforce from one they are documented not to (a `pattern`, a
//! `minLength`), and to mend a generated value that breaks only such a rule.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

/// One reason a value fails a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// A keyword fails.
    Keyword {
        /// Its JSON Pointer in the schema document it is in.
        location: String,
        /// JSON Pointer of the value it fails on.
        instance: String,
        /// The way the engine came to it from the root: the keywords it passed, each
        /// `$ref` it followed among them (JSON Schema's evaluation path).
        via: String,
        /// What the keyword asks, where a value can be made to obey it.
        asks: Option<Asks>,
    },
    /// No alternative of an `anyOf`/`oneOf` accepts the value.
    Alternatives {
        /// The keyword's JSON Pointer in its schema document.
        location: String,
        /// JSON Pointer of the value.
        instance: String,
        /// The way the engine came to it from the root (see [`Failure::Keyword`]).
        via: String,
        /// Each alternative's own failures.
        alternatives: Vec<Vec<Failure>>,
    },
}

/// What a failing keyword asks of the value.
#[derive(Debug, Clone, PartialEq)]
pub enum Asks {
    /// A string matching this pattern (ECMA-262).
    Pattern(String),
    /// A string of at least this many characters.
    MinLength(u64),
    /// A string of at most this many characters.
    MaxLength(u64),
    /// An array of at least this many items.
    MinItems(u64),
    /// An array of at most this many items.
    MaxItems(u64),
    /// A number at least (or, `exclusive`, above) this.
    Minimum(Value, bool),
    /// A number at most (or, `exclusive`, below) this.
    Maximum(Value, bool),
    /// A multiple of this number.
    MultipleOf(f64),
    /// A string of this format.
    Format(String),
    /// One of these values.
    OneOf(Vec<Value>),
    /// Items that differ from each other.
    UniqueItems,
    /// An object without these keys (`additionalProperties: false` or
    /// `unevaluatedProperties: false` beside the keys it allows).
    NoKeys(Vec<String>),
    /// The object's key `key` renamed to obey what `propertyNames` asks of it.
    KeyName(String, Box<Asks>),
}

/// The failures of `errors`, alternatives kept apart.
pub(super) fn failures<'e>(errors: impl IntoIterator<Item = ValidationError<'e>>) -> Vec<Failure> {
    errors.into_iter().map(|error| failure(&error)).collect()
}

fn failure(error: &ValidationError<'_>) -> Failure {
    let location = location(error);
    let instance = error.instance_path().as_str().to_owned();
    let via = error.evaluation_path().as_str().to_owned();
    let asks = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            return Failure::Alternatives {
                location,
                instance,
                via,
                alternatives: context
                    .iter()
                    .map(|errors| errors.iter().map(failure).collect())
                    .collect(),
            };
        }
        ValidationErrorKind::Pattern { pattern } => Some(Asks::Pattern(pattern.clone())),
        ValidationErrorKind::MinLength { limit } => Some(Asks::MinLength(*limit)),
        ValidationErrorKind::MaxLength { limit } => Some(Asks::MaxLength(*limit)),
        ValidationErrorKind::MinItems { limit } => Some(Asks::MinItems(*limit)),
        ValidationErrorKind::MaxItems { limit } => Some(Asks::MaxItems(*limit)),
        ValidationErrorKind::Minimum { limit } => Some(Asks::Minimum(limit.clone(), false)),
        ValidationErrorKind::ExclusiveMinimum { limit } => Some(Asks::Minimum(limit.clone(), true)),
        ValidationErrorKind::Maximum { limit } => Some(Asks::Maximum(limit.clone(), false)),
        ValidationErrorKind::ExclusiveMaximum { limit } => Some(Asks::Maximum(limit.clone(), true)),
        ValidationErrorKind::MultipleOf { multiple_of } => Some(Asks::MultipleOf(*multiple_of)),
        ValidationErrorKind::Format { format } => Some(Asks::Format(format.clone())),
        ValidationErrorKind::Enum { options } => options.as_array().map(|o| Asks::OneOf(o.clone())),
        ValidationErrorKind::Constant { expected_value } => {
            Some(Asks::OneOf(vec![(**expected_value).clone()]))
        }
        ValidationErrorKind::UniqueItems => Some(Asks::UniqueItems),
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            Some(Asks::NoKeys(unexpected.clone()))
        }
        ValidationErrorKind::PropertyNames { error } => {
            // The inner error is about the key, a string instance of `propertyNames`.
            let key = error.instance().as_str().map(str::to_owned);
            match (key, failure(error)) {
                (
                    Some(key),
                    Failure::Keyword {
                        asks: Some(asks), ..
                    },
                ) => Some(Asks::KeyName(key, Box::new(asks))),
                _ => None,
            }
        }
        _ => None,
    };
    Failure::Keyword {
        location,
        instance,
        via,
        asks,
    }
}

/// Where the failing keyword is: in the document a `$ref` led to (the fragment of its
/// absolute location; in a draft's meta-schema, below the model's place for it, as the
/// conformance kit reads a warning's location: what follows its `#`), else along the
/// schema from the root.
fn location(error: &ValidationError<'_>) -> String {
    match error.absolute_keyword_location() {
        Some(location) => match location.as_str().split_once('#') {
            Some((uri, fragment)) if crate::model::is_meta_schema(uri) => format!(
                "{}{}",
                crate::model::META_SCHEMA_POINTER.trim_start_matches('#'),
                super::discriminator::fragment_pointer(fragment)
            ),
            Some((_, fragment)) => super::discriminator::fragment_pointer(fragment),
            None => String::new(),
        },
        None => error.schema_path().as_str().to_owned(),
    }
}

/// Whether every failure is one `covered` says is covered (for alternatives: the union
/// itself, or some alternative's failures all covered).
pub fn only(failures: &[Failure], covered: &dyn Fn(&Failure) -> bool) -> bool {
    !failures.is_empty()
        && failures.iter().all(|failure| {
            covered(failure)
                || matches!(failure, Failure::Alternatives { alternatives, .. }
                    if alternatives.iter().any(|errors| only(errors, covered)))
        })
}
