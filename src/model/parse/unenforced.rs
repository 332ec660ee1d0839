//! Nothing dropped without a line saying so: walks every schema the model was built
//! from and warns, at its pointer, about each keyword the generated types do not
//! enforce (a `pattern`, a `minItems`, a `not`, an `anyOf` of alternatives that only
//! validate). Keywords the model represents are silent: types, properties, `required`,
//! `enum`/`const`, integer bounds, `additionalProperties`, the cross-field rules
//! [`Constraint`] recognises, annotations and `format` (whose mapping is documented).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::constraints::constraints_of;
use super::exclusive;
use super::keywords::subschemas;
use super::keywords::{
    ANNOTATIONS, closed_tuple, is_constraint, is_extension, only_required, props_of,
};
use super::refs::Resources;
use crate::json_pointer::child as join;
use crate::model::Reach;

/// Validation keywords no generated type enforces, with what they mean.
const UNENFORCED: &[(&str, &str)] = &[
    ("pattern", "a string pattern"),
    ("minLength", "a minimum string length"),
    ("maxLength", "a maximum string length"),
    ("minItems", "a minimum array length"),
    ("maxItems", "a maximum array length"),
    ("uniqueItems", "unique array items"),
    ("contains", "an item the array must contain"),
    ("minContains", "a minimum count of matching items"),
    ("maxContains", "a maximum count of matching items"),
    ("multipleOf", "a multiple"),
    ("minProperties", "a minimum property count"),
    ("maxProperties", "a maximum property count"),
    ("propertyNames", "a rule on property names"),
    (
        "dependentRequired",
        "properties required by another's presence",
    ),
    (
        "dependentSchemas",
        "schemas applied by another property's presence",
    ),
    ("unevaluatedItems", "a rule on unevaluated items"),
    ("not", "a schema the value must not match"),
    ("if", "a conditional schema (`if`/`then`/`else`)"),
    ("contentSchema", "the schema of encoded content"),
];

const MAX_DEPTH: usize = 256;

/// Every unenforced keyword below the schema at `pointer` of document `doc`: (pointer,
/// message, what the warning reaches).
pub(super) fn unenforced(
    resources: &Resources,
    doc: usize,
    pointer: &str,
) -> Vec<(String, String, Reach)> {
    let mut out = Found::default();
    let mut seen = HashSet::new();
    if let Some(schema) = resources.docs[doc].value.pointer(pointer) {
        let budget = std::cell::Cell::new(exclusive::BUDGET);
        let at = Document {
            reader: exclusive::Reader {
                resources,
                budget: &budget,
            },
            doc,
        };
        walk(
            &at,
            schema,
            pointer,
            Position::Plain,
            &mut out,
            &mut seen,
            0,
        );
    }
    let below = out.below.into_iter().map(|(p, m)| (p, m, Reach::Below));
    let keyword = out.keyword.into_iter().map(|(p, m)| (p, m, Reach::Keyword));
    below.chain(keyword).collect()
}

/// The warnings found: on a schema and all below it, or on one keyword alone.
#[derive(Default)]
struct Found {
    below: Vec<(String, String)>,
    keyword: Vec<(String, String)>,
}

/// The document being walked, for the `$ref`s a `oneOf`'s alternatives hold.
struct Document<'a> {
    reader: exclusive::Reader<'a>,
    doc: usize,
}

/// Where a schema sits, for the keywords whose meaning depends on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Plain,
    /// An alternative of `anyOf`/`oneOf`.
    Alternative,
    /// A property of an alternative: its `not: {enum}` is how an open union's unknown
    /// case excludes the known tags, which the model enforces.
    AlternativeProperty,
}

/// Whether `not` only excludes listed values (`{enum: [...]}` or `{const}`).
fn excludes_values(object: &Map<String, Value>) -> bool {
    object
        .get("not")
        .and_then(Value::as_object)
        .is_some_and(|not| {
            not.keys()
                .all(|k| k == "enum" || k == "const" || ANNOTATIONS.contains(&k.as_str()))
                && (not.contains_key("enum") || not.contains_key("const"))
        })
}

/// The groups of names one field goes by (`x-symgen-aliases`, `x-symgen-alias-of`).
fn alias_groups(object: &Map<String, Value>) -> Vec<HashSet<String>> {
    let mut groups: Vec<HashSet<String>> = Vec::new();
    let Some(props) = props_of(object) else {
        return groups;
    };
    for (name, schema) in props {
        let aliases: Vec<String> = schema
            .get("x-symgen-aliases")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if !aliases.is_empty() {
            let mut group: HashSet<String> = aliases.into_iter().collect();
            group.insert(name.clone());
            groups.push(group);
        }
    }
    for (name, schema) in props {
        if let Some(canonical) = schema.get("x-symgen-alias-of").and_then(Value::as_str) {
            match groups.iter_mut().find(|g| g.contains(canonical)) {
                Some(group) => {
                    group.insert(name.clone());
                }
                None => groups.push([name.clone(), canonical.to_owned()].into_iter().collect()),
            }
        }
    }
    groups
}

/// Every name a validation-only schema requires (at any depth).
fn required_names(schema: &Value, out: &mut HashSet<String>) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object {
                if key == "required" {
                    for name in value.as_array().into_iter().flatten() {
                        if let Some(name) = name.as_str() {
                            out.insert(name.to_owned());
                        }
                    }
                } else {
                    required_names(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| required_names(v, out)),
        _ => {}
    }
}

fn is_integer(object: &Map<String, Value>) -> bool {
    match object.get("type") {
        Some(Value::String(ty)) => ty == "integer",
        Some(Value::Array(types)) => {
            types.iter().any(|t| t == "integer") && !types.iter().any(|t| t == "number")
        }
        _ => false,
    }
}

fn walk(
    document: &Document<'_>,
    schema: &Value,
    pointer: &str,
    position: Position,
    out: &mut Found,
    seen: &mut HashSet<String>,
    depth: usize,
) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH || !seen.insert(pointer.to_owned()) {
        return;
    }
    for key in object.keys() {
        let key = key.as_str();
        let enforced = match key {
            // An open union's unknown case (or an open string enum) excludes the known
            // values.
            "not" => {
                excludes_values(object)
                    && (position == Position::AlternativeProperty
                        || object.get("x-symgen-unknown") == Some(&Value::Bool(true)))
            }
            // A closed tuple's length is its positions (an open one is an array of any
            // JSON, whose length is not enforced).
            "minItems" | "maxItems" => closed_tuple(object),
            _ => false,
        };
        if enforced {
            continue;
        }
        if let Some((_, what)) = UNENFORCED.iter().find(|(k, _)| *k == key) {
            out.below.push((
                join(pointer, key),
                format!("`{key}` ({what}) is not enforced by the generated types"),
            ));
        } else if matches!(
            key,
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
        ) && !is_integer(object)
        {
            out.below.push((
                join(pointer, key),
                format!("`{key}` on a value that is not an integer is not enforced by the generated types"),
            ));
        }
    }
    let known: HashSet<String> = props_of(object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let known = |key: &str| known.contains(key);
    let groups = alias_groups(object);
    // The cross-field rules the model recognises are enforced: their members are not
    // walked (their `not`/`if`/`then` are part of the rule).
    let mut skip: HashSet<String> = HashSet::new();
    if let Some(Value::Array(members)) = object.get("allOf") {
        for (i, member) in members.iter().enumerate() {
            let mut alone = Map::new();
            alone.insert("allOf".to_owned(), Value::Array(vec![member.clone()]));
            let at = format!("{}/{i}", join(pointer, "allOf"));
            let mut required = HashSet::new();
            required_names(member, &mut required);
            let alias_rule = !required.is_empty()
                && is_constraint(member, &known)
                && groups.iter().any(|g| required.is_subset(g));
            // A member that only requires keys is read with the object's own `required`.
            let read = member.as_object().is_some_and(only_required);
            if !constraints_of(&alone).is_empty() || alias_rule || read {
                skip.insert(at);
            } else if is_constraint(member, &known) && has_validation(member) {
                out.below.push((
                    at.clone(),
                    "this validation-only `allOf` member is not enforced by the generated types"
                        .to_owned(),
                ));
                skip.insert(at);
            }
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = object.get(key)
            && !members.is_empty()
            && members.iter().all(|m| is_constraint(m, &known))
            && members.iter().any(has_validation)
        {
            let at = join(pointer, key);
            out.below.push((
                at.clone(),
                format!(
                    "`{key}` of validation-only alternatives is not enforced by the generated types"
                ),
            ));
            for i in 0..members.len() {
                skip.insert(format!("{at}/{i}"));
            }
        } else if key == "oneOf"
            && matches!(object.get(key), Some(Value::Array(members)) if members.len() > 1)
            && !exclusive::disjoint_alternatives(
                document.reader,
                document.doc,
                &join(pointer, key),
                object.get("type"),
            )
        {
            out.keyword.push((
                join(pointer, key),
                "`oneOf`: a value that fits more than one alternative is read as the first that fits; \
                 \"exactly one\" is not enforced by the generated types"
                    .to_owned(),
            ));
        }
    }
    subschemas(object, pointer, |sub, at| {
        let conditional = ["/not", "/if", "/then", "/else"]
            .iter()
            .any(|end| at.ends_with(end));
        if !skip.contains(&at) && !conditional {
            let parent_key = at.rsplit('/').nth(1).unwrap_or_default();
            let next = if matches!(parent_key, "anyOf" | "oneOf") {
                Position::Alternative
            } else if parent_key == "properties" && position == Position::Alternative {
                Position::AlternativeProperty
            } else {
                Position::Plain
            };
            walk(document, sub, &at, next, out, seen, depth + 1);
        }
    });
}

/// Whether a validation-only schema says anything (not just `true` or `{}`).
fn has_validation(schema: &Value) -> bool {
    // `type: object` in a member of an object's `allOf` holds for the record itself.
    let holds = |k: &str, v: &Value| {
        ANNOTATIONS.contains(&k) || is_extension(k) || k == "type" && v == "object"
    };
    schema
        .as_object()
        .is_some_and(|o| o.iter().any(|(k, v)| !holds(k, v)))
}
