//! Closed string enums: `enum X: String, Codable, Hashable, Sendable, CaseIterable`.

use askama::Template;

use crate::model::{self, Enum, NamedType};

use super::layout::{doc_comment, string_literal};
use super::naming::{self, Scope};
use super::templates::StringEnumTemplate;
use super::types::TypeContext;

/// The Swift case names of an enum's values, unique and in value order.
pub fn case_names(e: &Enum) -> Vec<String> {
    let mut scope = Scope::default();
    e.values
        .iter()
        .map(|v| {
            let raw = v.value.as_str().unwrap_or_default();
            naming::escaped(&scope.claim(naming::member_name(raw)))
        })
        .collect()
}

/// Renders a string enum. Values with input aliases get a hand-written decoder that
/// maps each alias to its canonical case; encoding always writes the canonical value.
pub fn render(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    e: &Enum,
) -> Result<String, model::Error> {
    if !e.is_string() {
        return Err(ctx.error(
            &named.pointer,
            "the Swift generator supports enums of string values only",
        ));
    }
    let cases = case_names(e);
    let mut declarations = Vec::new();
    let mut alias_arms = Vec::new();
    let has_aliases = e.values.iter().any(|v| !v.aliases.is_empty());
    for (value, case) in e.values.iter().zip(&cases) {
        let raw = value.value.as_str().unwrap_or_default();
        let bare = case.trim_matches('`');
        let declaration = if bare == raw {
            format!("  case {case}")
        } else {
            format!("  case {case} = {}", string_literal(raw))
        };
        declarations.push(format!(
            "{}{declaration}",
            doc_comment(value.docs.description.as_deref(), 2)
        ));
        if has_aliases {
            let mut spellings = vec![string_literal(raw)];
            spellings.extend(
                value
                    .aliases
                    .iter()
                    .filter_map(|a| a.as_str())
                    .map(string_literal),
            );
            alias_arms.push(format!("    case {}: self = .{case}", spellings.join(", ")));
        }
    }
    let template = StringEnumTemplate {
        docs: doc_comment(named.docs.description.as_deref(), 0),
        name: name.to_owned(),
        cases: declarations,
        alias_arms,
    };
    template
        .render()
        .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}
