//! Closed string enums: `enum X: String, Codable, Hashable, Sendable, CaseIterable`.

use askama::Template;

use crate::model::{self, Enum, Literal, NamedType};

use super::layout::{self, doc_comment, string_literal};
use super::naming::{self, Scope};
use super::templates::{LiteralEnumTemplate, OpenEnumTemplate, StringEnumTemplate};
use super::types::{self, TypeContext};

/// The Swift case name of a literal value (before making it unique).
fn literal_case(value: &Literal) -> String {
    match value {
        Literal::String(s) => naming::member_name(s),
        Literal::Number(n) => {
            let text = n.to_string().replace('.', "Dot").replace('+', "");
            match text.strip_prefix('-') {
                Some(negative) => format!("minus{negative}"),
                None => format!("n{text}"),
            }
        }
        Literal::Bool(b) => b.to_string(),
        Literal::Null => "null".to_owned(),
    }
}

/// The Swift case names of an enum's values, unique, escaped and in value order.
pub fn case_names(e: &Enum) -> Vec<String> {
    // The members the enum declares besides its cases.
    let reserved: &[&str] = if e.is_string() {
        &["rawValue", "allCases"]
    } else {
        &["value", "allCases"]
    };
    let reserved: &[&str] = if e.open {
        &["rawValue", "allKnown", "isKnown"]
    } else {
        reserved
    };
    let mut scope = Scope::with_reserved(reserved);
    e.values
        .iter()
        .map(|v| naming::escaped(&scope.claim(literal_case(&v.value))))
        .collect()
}

/// Renders an enum whose values are not all strings: decoded through `JSONValue`.
fn render_literal_enum(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    e: &Enum,
) -> Result<String, model::Error> {
    let cases = case_names(e);
    let mut declarations = Vec::new();
    let mut value_arms = Vec::new();
    let mut decode_arms = Vec::new();
    for (value, case) in e.values.iter().zip(&cases) {
        declarations.push(format!(
            "{}{}",
            doc_comment(layout::doc_text(&value.docs).as_deref(), 2),
            layout::guarded(format!("  case {case}\n"), 2).trim_end()
        ));
        let arm = format!("    case .{case}: {}\n", types::literal_json(&value.value));
        value_arms.push(layout::guarded(arm, 4).trim_end().to_owned());
        let patterns: Vec<String> = std::iter::once(&value.value)
            .chain(&value.aliases)
            .map(types::literal_json)
            .collect();
        let arm = format!("    case {}: self = .{case}\n", patterns.join(", "));
        decode_arms.push(layout::guarded(arm, 4).trim_end().to_owned());
    }
    LiteralEnumTemplate {
        docs: doc_comment(layout::doc_text(&named.docs).as_deref(), 0),
        header: layout::type_header(
            0,
            &format!("public enum {name}: "),
            &["Codable", "Hashable", "Sendable", "CaseIterable"],
        )
        .trim_end()
        .to_owned(),
        unknown_throw: layout::call(
            6,
            "throw DecodingError.unknownValue(",
            &[
                "value".to_owned(),
                format!("of: {}", string_literal(name)),
                "in: decoder".to_owned(),
            ],
            ")",
        )
        .trim_end()
        .to_owned(),
        cases: declarations,
        value_arms,
        decode_arms,
    }
    .render()
    .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}

/// The enum a named constant (`"Answer": {"const": 42}`) is rendered as: one case, so
/// that its decoder refuses any other value (a `typealias` of the constant's type would
/// take every value of that type). None for other types, and for `null` (free-form
/// JSON's `null` already is the only value of its own alias).
pub fn constant_enum(kind: &model::TypeKind) -> Option<Enum> {
    match kind {
        model::TypeKind::Alias(model::TypeExpr::Literal(value)) if *value != Literal::Null => {
            Some(Enum {
                values: vec![model::EnumValue {
                    value: value.clone(),
                    docs: model::Docs::default(),
                    aliases: Vec::new(),
                }],
                open: false,
            })
        }
        _ => None,
    }
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
        return render_literal_enum(ctx, named, name, e);
    }
    if e.open {
        return render_open_enum(ctx, named, name, e);
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
            "{}{}",
            doc_comment(layout::doc_text(&value.docs).as_deref(), 2),
            layout::guarded(format!("{declaration}\n"), 2).trim_end()
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
        docs: doc_comment(layout::doc_text(&named.docs).as_deref(), 0),
        name: name.to_owned(),
        header: layout::type_header(
            0,
            &format!("public enum {name}: "),
            &["String", "Codable", "Hashable", "Sendable", "CaseIterable"],
        )
        .trim_end()
        .to_owned(),
        cases: declarations,
        alias_arms,
    };
    template
        .render()
        .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}

/// Renders an open string enum: a `RawRepresentable` struct that keeps any string, with
/// one constant per known value.
fn render_open_enum(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    e: &Enum,
) -> Result<String, model::Error> {
    let cases = case_names(e);
    let mut declarations = Vec::new();
    let mut alias_arms = Vec::new();
    let has_aliases = e.values.iter().any(|v| !v.aliases.is_empty());
    for (value, case) in e.values.iter().zip(&cases) {
        let raw = value.value.as_str().unwrap_or_default();
        let declaration = format!(
            "  public static let {case} = {name}(rawValue: {})\n",
            string_literal(raw)
        );
        declarations.push(format!(
            "{}{}",
            doc_comment(layout::doc_text(&value.docs).as_deref(), 2),
            layout::guarded(declaration, 2).trim_end()
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
    let all_known = cases
        .iter()
        .map(|c| format!(".{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    OpenEnumTemplate {
        docs: doc_comment(layout::doc_text(&named.docs).as_deref(), 0),
        name: name.to_owned(),
        header: layout::type_header(
            0,
            &format!("public struct {name}: "),
            &["RawRepresentable", "Codable", "Hashable", "Sendable"],
        )
        .trim_end()
        .to_owned(),
        cases: declarations,
        all_known,
        alias_arms,
    }
    .render()
    .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}
