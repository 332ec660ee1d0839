//! Keyword tables and small helpers shared by the parser: JSON pointers, literals,
//! docs, and which keywords are structural, annotations or validation-only.

use super::*;

/// Keywords that only annotate; they never change the shape of a type.
pub(super) const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "deprecated",
    "default",
    "examples",
    "$comment",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
];

/// Keywords that only validate; the model ignores them (see `is_constraint`).
pub(super) const VALIDATION: &[&str] = &[
    "required",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "format",
];

pub(super) use crate::json_pointer::child as join;

/// `Parent` + `top_error-files` → `ParentTopErrorFiles`: the neutral composition used for
/// hoisted names (see [`crate::emit::case::pascal_case`]).
pub use crate::emit::case::pascal_case;

pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

pub(super) fn docs_of(schema: &Map<String, Value>, keep_title: bool) -> Docs {
    let text = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    Docs {
        title: if keep_title { text("title") } else { None },
        description: text("description"),
        deprecated: schema.get("deprecated") == Some(&Value::Bool(true)),
        direction: Direction {
            sent_by: party_list(schema.get("x-symgen-sent-by")),
            received_by: party_list(schema.get("x-symgen-received-by")),
        },
    }
}

/// A list of party names (the shape is checked by `directions::check`).
fn party_list(value: Option<&Value>) -> Option<Vec<String>> {
    let items = value?.as_array()?;
    items
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

pub(super) fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

pub(super) fn literal_of(value: &Value) -> Option<Literal> {
    Some(match value {
        Value::String(s) => Literal::String(s.clone()),
        Value::Number(n) => Literal::Number(n.clone()),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Null => Literal::Null,
        Value::Array(_) | Value::Object(_) => return None,
    })
}

pub(super) fn string_list(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The JSON types a `type` keyword names.
pub(super) fn types_of(keyword: Option<&Value>) -> Option<HashSet<&str>> {
    match keyword? {
        Value::String(ty) => Some([ty.as_str()].into_iter().collect()),
        Value::Array(types) => Some(types.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// The keys an object schema requires, each with the pointer of its name: its own
/// `required`, then those of its `allOf` members that say nothing but `required` (a
/// member's `required` holds for the object as much as the object's own does).
pub(super) fn required_keys(object: &Map<String, Value>, pointer: &str) -> Vec<(String, String)> {
    let own = |object: &Map<String, Value>, pointer: &str| -> Vec<(String, String)> {
        let at = join(pointer, "required");
        string_list(object.get("required"))
            .into_iter()
            .enumerate()
            .map(|(i, key)| (key.to_owned(), format!("{at}/{i}")))
            .collect()
    };
    let mut keys = own(object, pointer);
    let members = object.get("allOf").and_then(Value::as_array);
    for (i, member) in members.into_iter().flatten().enumerate() {
        if let Some(member) = member.as_object().filter(|m| only_required(m)) {
            let at = format!("{}/{i}", join(pointer, "allOf"));
            keys.extend(own(member, &at));
        }
    }
    keys
}

/// Whether an object schema says nothing but that some keys are present (`required`,
/// with `type: object`, annotations and extensions).
pub(super) fn only_required(object: &Map<String, Value>) -> bool {
    object.contains_key("required")
        && object.iter().all(|(key, value)| match key.as_str() {
            "required" => true,
            "type" => value == "object",
            key => is_extension(key) || ANNOTATIONS.contains(&key),
        })
}

/// The `(properties, required)` of an object schema, if it has properties.
pub(super) fn props_of(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

/// Whether the keyword is one that changes what a `$ref` beside it means.
pub(super) fn is_structural(key: &str) -> bool {
    matches!(
        key,
        "properties"
            | "additionalProperties"
            | "unevaluatedProperties"
            | "patternProperties"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "items"
            | "prefixItems"
            | "enum"
            | "const"
    )
}

/// The tag values a property schema fixes: `const`, or `enum` (first value canonical,
/// the rest input aliases). `None` when the property is not a constant.
pub(super) fn tag_values(schema: &Value) -> Option<(Literal, Vec<Literal>)> {
    let schema = schema.as_object()?;
    if let Some(value) = schema.get("const") {
        return Some((literal_of(value)?, Vec::new()));
    }
    let values = schema.get("enum")?.as_array()?;
    let mut literals = values.iter().map(literal_of);
    let first = literals.next()??;
    let rest: Option<Vec<Literal>> = literals.collect();
    Some((first, rest?))
}

/// Whether a schema only adds validation on top of `known` properties: `required` sets,
/// `not`, `if`/`then`/`else`, count limits, and combinations of those. Such `allOf`,
/// `oneOf` or `anyOf` members do not change the type and are ignored.
pub(super) fn is_constraint(schema: &Value, known: &dyn Fn(&str) -> bool) -> bool {
    let Some(object) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    object.iter().all(|(key, value)| match key.as_str() {
        "allOf" | "anyOf" | "oneOf" => value
            .as_array()
            .is_some_and(|members| members.iter().all(|m| is_constraint(m, known))),
        "properties" => value
            .as_object()
            .is_some_and(|props| props.keys().all(|k| known(k))),
        "type" => value == "object",
        key => {
            is_extension(key)
                || ANNOTATIONS.contains(&key)
                || (VALIDATION.contains(&key) && key != "format")
        }
    })
}

pub(super) fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(is_null_object)
}

/// Whether a schema object only allows `null` (`type: null`, `const: null`).
pub(super) fn is_null_object(schema: &Map<String, Value>) -> bool {
    schema.get("type") == Some(&Value::String("null".into()))
        || schema.get("const") == Some(&Value::Null)
}

pub(super) fn make_nullable(shape: Shape) -> Shape {
    match shape {
        Shape::Expr(expr) => Shape::Expr(expr.nullable()),
        Shape::Kind { kind, .. } => Shape::Kind {
            kind,
            nullable: true,
        },
    }
}

/// Keywords whose value is one subschema (with symgen's own: the reply type of a
/// request, the open case of a union).
pub(super) const ONE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "items",
    "x-symgen-reply",
    "x-symgen-unknown",
];

/// Keywords whose value is an array of subschemas.
pub(super) const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Whether an array schema with `prefixItems` is exactly its positions: nothing may
/// follow them (`items: false`, or `maxItems` equal to their count) and none may be
/// missing (`minItems` equal to their count). The model reads such a tuple as a tuple;
/// any other as an array of any JSON.
pub(super) fn closed_tuple(object: &Map<String, Value>) -> bool {
    let Some(count) = object
        .get("prefixItems")
        .and_then(Value::as_array)
        .map(|members| members.len() as u64)
    else {
        return false;
    };
    (object.get("items") == Some(&Value::Bool(false))
        || object.get("maxItems").and_then(Value::as_u64) == Some(count))
        && object.get("minItems").and_then(Value::as_u64) == Some(count)
}

/// Keywords whose value is an instance (or instances), never a schema: a keyword's
/// name inside one is data.
pub(crate) const INSTANCE_VALUED: &[&str] = &["const", "enum", "default", "examples"];

/// Keywords whose value maps names to subschemas.
pub(crate) const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Calls `visit` with every subschema of `schema` (at `pointer`) and its pointer.
pub(super) fn subschemas<'v>(
    schema: &'v Map<String, Value>,
    pointer: &str,
    mut visit: impl FnMut(&'v Value, String),
) {
    for key in ONE_SCHEMA {
        if let Some(sub) = schema.get(*key) {
            visit(sub, join(pointer, key));
        }
    }
    for key in SCHEMA_LISTS {
        if let Some(Value::Array(items)) = schema.get(*key) {
            for (i, sub) in items.iter().enumerate() {
                visit(sub, format!("{}/{i}", join(pointer, key)));
            }
        }
    }
    for key in SCHEMA_MAPS {
        if let Some(Value::Object(entries)) = schema.get(*key) {
            let at = join(pointer, key);
            for (name, sub) in entries {
                visit(sub, join(&at, name));
            }
        }
    }
}

/// Calls `visit` with every subschema of `schema`, mutably (the same keywords as
/// [`subschemas`]).
pub(crate) fn subschemas_mut(schema: &mut Map<String, Value>, mut visit: impl FnMut(&mut Value)) {
    for (key, value) in schema.iter_mut() {
        let key = key.as_str();
        if ONE_SCHEMA.contains(&key) {
            visit(value);
        } else if SCHEMA_LISTS.contains(&key) {
            if let Value::Array(items) = value {
                items.iter_mut().for_each(&mut visit);
            }
        } else if SCHEMA_MAPS.contains(&key)
            && let Value::Object(entries) = value
        {
            entries.values_mut().for_each(&mut visit);
        }
    }
}
