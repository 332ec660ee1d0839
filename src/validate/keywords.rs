//! Which schema keywords a rejected value breaks, by their location in the schema
//! document: what the conformance vectors ask to tell a rule the generated types
//! enforce from one they are documented not to (a `pattern`, a `minLength`).

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;

/// One reason a value fails a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A keyword fails, at this JSON Pointer of the schema document it is in.
    Keyword(String),
    /// No alternative of an `anyOf`/`oneOf` (at the pointer) accepts the value; each
    /// alternative's own failures.
    Alternatives(String, Vec<Vec<Failure>>),
}

/// The failures of `errors`, alternatives kept apart.
pub(super) fn failures<'e>(errors: impl IntoIterator<Item = ValidationError<'e>>) -> Vec<Failure> {
    errors.into_iter().map(|error| failure(&error)).collect()
}

fn failure(error: &ValidationError<'_>) -> Failure {
    let location = location(error);
    match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            Failure::Alternatives(
                location,
                context
                    .iter()
                    .map(|errors| errors.iter().map(failure).collect())
                    .collect(),
            )
        }
        _ => Failure::Keyword(location),
    }
}

/// Where the failing keyword is: in the document a `$ref` led to (the fragment of its
/// absolute location), else along the schema from the root.
fn location(error: &ValidationError<'_>) -> String {
    match error.absolute_keyword_location() {
        Some(location) => match location.as_str().split_once('#') {
            Some((_, fragment)) => super::discriminator::fragment_pointer(fragment),
            None => String::new(),
        },
        None => error.schema_path().as_str().to_owned(),
    }
}

/// Whether `value` fails only where `covered` says a keyword location is covered
/// (every failure covered; for alternatives, some alternative's failures all covered).
pub fn only(failures: &[Failure], covered: &dyn Fn(&str) -> bool) -> bool {
    !failures.is_empty()
        && failures.iter().all(|failure| match failure {
            Failure::Keyword(location) => covered(location),
            Failure::Alternatives(location, alternatives) => {
                covered(location) || alternatives.iter().any(|errors| only(errors, covered))
            }
        })
}
