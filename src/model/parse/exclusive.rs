//! Whether no value fits two alternatives of a `oneOf`: then the generated decoders,
//! which take the first alternative that fits, give `oneOf`'s verdict ("exactly one").
//! Otherwise a value that fits several is read as the first, where the schema refuses
//! it, and the model warns ([`super::unenforced`]).
//!
//! Two alternatives are disjoint, as far as this tells, when their JSON types do not
//! meet, their `const`/`enum` values do not meet, a key both require holds `const`/`enum`
//! values that do not meet (a tag), or one requires a key the other's closed object does
//! not have. What it does not read narrows an alternative and is left out (the rest
//! accepts more); a `$ref` it cannot follow counts as overlapping: the warning errs on
//! the side of being said.

use std::cell::Cell;
use std::collections::HashSet;

use serde_json::Value;

use super::keywords::types_of;
use super::refs::{Resources, Target};
use crate::json_pointer::child as join;

/// How many `$ref`s in a row (and `allOf`s within each other) are followed.
const MAX_STEPS: usize = 32;

/// Up to this many alternatives, each pair is compared; past it, only distinct tags
/// count ([`distinct_tags`]), so a `oneOf` of thousands costs linear time.
const PAIRWISE: usize = 64;

/// How many schemas one document's `oneOf`s may read together ([`Reader`]): an `allOf`
/// of `$ref`s to `allOf`s grows as a tree, so a hostile schema could ask for billions.
/// Past it, no more `oneOf` is proved exclusive (each is warned about).
pub(super) const BUDGET: usize = 1_000_000;

/// The documents, and what is left of the [`BUDGET`] of schemas to read.
#[derive(Clone, Copy)]
pub(super) struct Reader<'a> {
    pub resources: &'a Resources,
    pub budget: &'a Cell<usize>,
}

/// An alternative as far as disjointness goes.
struct Shape<'a> {
    /// Its JSON types (`integer` stands inside `number`), when it says.
    types: Option<HashSet<&'a str>>,
    /// Its only values (`const`/`enum`), when it lists them.
    values: Option<Vec<&'a Value>>,
    /// Values it refuses (`not: {enum}`: an open union's unknown case).
    excluded: Vec<&'a Value>,
    required: HashSet<&'a str>,
    /// Its properties (resolved), with where each is.
    properties: Vec<(&'a str, Located<'a>)>,
    /// No key beyond `properties` (`additionalProperties: false`, no patterns).
    closed: bool,
}

/// A schema with the document and pointer it is at.
#[derive(Clone)]
struct Located<'a> {
    doc: usize,
    pointer: String,
    value: &'a Value,
}

/// Whether the alternatives of the `oneOf` at `at` (in document `doc`) are pairwise
/// disjoint. `parent_type` is the `type` beside the `oneOf`, which every alternative
/// also meets.
pub(super) fn disjoint_alternatives(
    reader: Reader<'_>,
    doc: usize,
    at: &str,
    parent_type: Option<&Value>,
) -> bool {
    let inherited = types_of(parent_type);
    let Some(Value::Array(members)) = reader.resources.docs[doc].value.pointer(at) else {
        return false;
    };
    let shapes: Option<Vec<Shape<'_>>> = members
        .iter()
        .enumerate()
        .map(|(i, value)| {
            shape(
                reader,
                Located {
                    doc,
                    pointer: format!("{at}/{i}"),
                    value,
                },
                0,
            )
        })
        .collect();
    let Some(mut shapes) = shapes else {
        return false;
    };
    if let Some(inherited) = inherited {
        for shape in &mut shapes {
            shape.types = Some(match shape.types.take() {
                Some(own) => own.intersection(&inherited).copied().collect(),
                None => inherited.clone(),
            });
        }
    }
    if shapes.len() > PAIRWISE {
        return distinct_tags(reader, &shapes);
    }
    shapes
        .iter()
        .enumerate()
        .all(|(i, a)| shapes[i + 1..].iter().all(|b| apart(reader, a, b)))
}

/// Whether every alternative requires one key whose listed values (strings of a
/// `const` or `enum`) no other alternative lists, or whose schema refuses every value
/// the others list (an open union's unknown case): the test for many alternatives, in
/// linear time.
fn distinct_tags(reader: Reader<'_>, shapes: &[Shape<'_>]) -> bool {
    let Some(first) = shapes.first() else {
        return true;
    };
    first.required.iter().any(|key| {
        let mut listed: HashSet<&str> = HashSet::new();
        let mut refusing: Vec<HashSet<&str>> = Vec::new();
        let tags_apart = shapes.iter().all(|shape| {
            let Some(tag) = shape
                .required
                .contains(key)
                .then(|| tag(reader, shape, key))
                .flatten()
            else {
                return false;
            };
            match tag.values {
                Some(values) => values
                    .iter()
                    .all(|v| v.as_str().is_some_and(|v| listed.insert(v))),
                None => {
                    refusing.push(tag.excluded.iter().filter_map(|v| v.as_str()).collect());
                    true
                }
            }
        });
        tags_apart
            && refusing
                .iter()
                .all(|refused| listed.iter().all(|v| refused.contains(v)))
    })
}

/// `schema` with its `$ref`s followed (`None` where one leads nowhere it can read).
fn followed<'a>(reader: Reader<'a>, mut schema: Located<'a>) -> Option<Located<'a>> {
    for _ in 0..MAX_STEPS {
        let Some(reference) = schema.value.get("$ref").and_then(Value::as_str) else {
            return Some(schema);
        };
        // A `$ref` beside other keywords applies both: the keywords alone accept more,
        // and what they keep apart stays apart.
        if schema.value.as_object()?.keys().any(|k| is_assertion(k)) {
            return Some(schema);
        }
        let Ok(Target::Schema { doc, pointer }) =
            reader
                .resources
                .target(schema.doc, &schema.pointer, reference)?
        else {
            return None;
        };
        schema = Located {
            doc: *doc,
            pointer: pointer.clone(),
            value: reader.resources.docs[*doc].value.pointer(pointer)?,
        };
    }
    None
}

/// Whether `key` beside a `$ref` changes what the schema accepts.
fn is_assertion(key: &str) -> bool {
    !matches!(
        key,
        "$ref"
            | "$id"
            | "$schema"
            | "$anchor"
            | "$comment"
            | "$defs"
            | "definitions"
            | "title"
            | "description"
            | "default"
            | "examples"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) && !key.starts_with("x-")
}

fn shape<'a>(reader: Reader<'a>, schema: Located<'a>, depth: usize) -> Option<Shape<'a>> {
    let left = reader.budget.get().checked_sub(1)?;
    reader.budget.set(left);
    let schema = followed(reader, schema)?;
    let object = schema.value.as_object()?;
    // What this does not read (a nested union, `if`, a `not` of a schema, `allOf`
    // members past `MAX_STEPS` levels) only narrows the alternative: left out, it
    // accepts more, and what it keeps apart from another stays apart.
    let excluded = match object.get("not").and_then(Value::as_object) {
        Some(not) if not.len() == 1 => match (not.get("const"), not.get("enum")) {
            (Some(value), _) => vec![value],
            (None, Some(Value::Array(values))) => values.iter().collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let values = match (object.get("const"), object.get("enum")) {
        (Some(value), _) => Some(vec![value]),
        (None, Some(Value::Array(values))) => Some(values.iter().collect()),
        _ => None,
    };
    let types = types_of(object.get("type")).or_else(|| {
        values
            .as_ref()
            .map(|values| values.iter().map(|v| type_of(v)).collect())
    });
    let required = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties_at = join(&schema.pointer, "properties");
    let properties = match object.get("properties") {
        Some(Value::Object(properties)) => properties
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str(),
                    Located {
                        doc: schema.doc,
                        pointer: join(&properties_at, name),
                        value,
                    },
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false))
        && !object.contains_key("patternProperties");
    let mut own = Shape {
        types,
        values,
        excluded,
        required,
        properties,
        closed,
    };
    // An `allOf` member narrows the same value: its types meet these, its keys are
    // required too, and a closed member forbids what none of the members names.
    if let Some(Value::Array(members)) = object.get("allOf")
        && depth < MAX_STEPS
    {
        let at = join(&schema.pointer, "allOf");
        for (i, value) in members.iter().enumerate() {
            let member = Located {
                doc: schema.doc,
                pointer: format!("{at}/{i}"),
                value,
            };
            if let Some(member) = shape(reader, member, depth + 1) {
                own.meet(member);
            }
        }
    }
    Some(own)
}

impl<'a> Shape<'a> {
    /// This shape narrowed by `other`, a shape the same value also meets.
    fn meet(&mut self, other: Shape<'a>) {
        self.types = match (self.types.take(), other.types) {
            (Some(mine), Some(theirs)) => Some(mine.intersection(&theirs).copied().collect()),
            (mine, theirs) => mine.or(theirs),
        };
        if self.values.is_none() {
            self.values = other.values;
        }
        self.excluded.extend(other.excluded);
        self.required.extend(other.required);
        self.properties.extend(other.properties);
        self.closed |= other.closed;
    }
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether two lists of JSON types have none in common (`integer` is a `number`).
fn types_apart(a: &HashSet<&str>, b: &HashSet<&str>) -> bool {
    let meets = |x: &str, y: &str| {
        x == y || matches!((x, y), ("integer", "number") | ("number", "integer"))
    };
    !a.iter().any(|x| b.iter().any(|y| meets(x, y)))
}

/// Whether no value is in both lists (numbers compared as numbers: `1` is `1.0`).
fn values_apart(a: &[&Value], b: &[&Value]) -> bool {
    let same = |x: &Value, y: &Value| match (x.as_f64(), y.as_f64()) {
        (Some(x), Some(y)) if x.is_finite() => x == y,
        _ => x == y,
    };
    !a.iter().any(|x| b.iter().any(|y| same(x, y)))
}

/// Whether no value fits both `a` and `b`.
fn apart(reader: Reader<'_>, a: &Shape<'_>, b: &Shape<'_>) -> bool {
    if let (Some(x), Some(y)) = (&a.types, &b.types)
        && types_apart(x, y)
    {
        return true;
    }
    if let (Some(x), Some(y)) = (&a.values, &b.values)
        && values_apart(x, y)
    {
        return true;
    }
    // Only objects are left: a tag, or a key one requires and the other forbids.
    let object_only = |s: &Shape<'_>| {
        s.types
            .as_ref()
            .is_some_and(|t| t.len() == 1 && t.contains("object"))
    };
    if !(object_only(a) && object_only(b)) {
        return false;
    }
    let forbids =
        |s: &Shape<'_>, key: &str| s.closed && !s.properties.iter().any(|(n, _)| *n == key);
    if a.required.iter().any(|k| forbids(b, k)) || b.required.iter().any(|k| forbids(a, k)) {
        return true;
    }
    a.required.intersection(&b.required).any(|key| {
        match (tag(reader, a, key), tag(reader, b, key)) {
            (Some(x), Some(y)) => tags_apart(&x, &y),
            _ => false,
        }
    })
}

/// Property `key` of `shape`, read as a tag: the first of its schemas (an `allOf` may
/// give several) that lists values or refuses some.
fn tag<'a>(reader: Reader<'a>, shape_of: &Shape<'a>, key: &str) -> Option<Shape<'a>> {
    shape_of
        .properties
        .iter()
        .filter(|(n, _)| *n == key)
        .filter_map(|(_, located)| shape(reader, located.clone(), MAX_STEPS))
        .find(|tag| tag.values.is_some() || !tag.excluded.is_empty())
}

/// Whether two tags take no value in common: both list their values and none meet, or
/// one lists values the other refuses (an open union's unknown case).
fn tags_apart(a: &Shape<'_>, b: &Shape<'_>) -> bool {
    let refused = |values: &[&Value], excluded: &[&Value]| {
        !excluded.is_empty() && values.iter().all(|v| !values_apart(&[v], excluded))
    };
    match (&a.values, &b.values) {
        (Some(x), Some(y)) => values_apart(x, y),
        (Some(x), None) => refused(x, &b.excluded),
        (None, Some(y)) => refused(y, &a.excluded),
        (None, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// One document, `schema`, with no other sources.
    fn loaded(schema: Value) -> Resources {
        Resources::load(
            "t.json",
            None,
            schema,
            None,
            super::super::drafts::Draft::D2020,
            &super::super::refs::Sources::none(),
        )
        .unwrap()
    }

    fn disjoint(schema: Value) -> bool {
        let resources = loaded(schema);
        let parent = resources.docs[0].value.get("type").cloned();
        let budget = Cell::new(BUDGET);
        let reader = Reader {
            resources: &resources,
            budget: &budget,
        };
        disjoint_alternatives(reader, 0, "/oneOf", parent.as_ref())
    }

    #[test]
    fn alternatives_apart_by_type_value_tag_or_closed_key_are_disjoint() {
        assert!(disjoint(
            json!({"oneOf": [{"type": "string"}, {"type": "object"}]})
        ));
        assert!(disjoint(
            json!({"oneOf": [{"const": "a"}, {"enum": ["b", 1]}]})
        ));
        assert!(disjoint(json!({"oneOf": [
            {"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
            "$defs": {
                "A": {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                "B": {"type": "object", "properties": {"kind": {"enum": ["b"]}, "n": {}}, "required": ["kind", "n"]}
            }
        })));
        assert!(disjoint(json!({"oneOf": [
            {"type": "object", "properties": {"A": {}}, "required": ["A"], "additionalProperties": false},
            {"type": "object", "properties": {"B": {}}, "required": ["B"], "additionalProperties": false}
        ]})));
    }

    #[test]
    fn alternatives_that_may_meet_are_not() {
        assert!(!disjoint(
            json!({"oneOf": [{"type": "integer"}, {"type": "number"}]})
        ));
        assert!(!disjoint(json!({"oneOf": [{"const": 1}, {"const": 1.0}]})));
        assert!(!disjoint(json!({"oneOf": [
            {"type": "object", "properties": {"a": {}}},
            {"type": "object", "properties": {"b": {}}}
        ]})));
        // A tag one side does not require, a `$ref` that leads nowhere, a nested `anyOf`.
        assert!(!disjoint(json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}}},
            {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}
        ]})));
        assert!(!disjoint(
            json!({"oneOf": [{"$ref": "#/nowhere"}, {"type": "string"}]})
        ));
        assert!(!disjoint(
            json!({"oneOf": [{"anyOf": [{"type": "string"}]}, {"type": "object"}]})
        ));
        // An `allOf` member narrows its alternative.
        assert!(disjoint(
            json!({"oneOf": [{"allOf": [{"type": "string"}]}, {"type": "object"}]})
        ));
        // An unknown case that does not refuse every known tag.
        assert!(!disjoint(json!({"type": "object", "oneOf": [
            {"properties": {"type": {"const": "a"}}, "required": ["type"]},
            {"properties": {"type": {"not": {"enum": ["b"]}}}, "required": ["type"]}
        ]})));
    }

    #[test]
    fn a_tag_beside_the_unions_type_or_a_ref_keeps_alternatives_apart() {
        // The `type` beside the `oneOf`, and an open union's unknown case.
        assert!(disjoint(
            json!({"type": "object", "required": ["type"], "oneOf": [
                {"properties": {"type": {"const": "a"}}, "required": ["type"]},
                {"properties": {"type": {"const": "b"}}, "required": ["type"]},
                {"properties": {"type": {"type": "string", "not": {"enum": ["a", "b"]}}},
                 "required": ["type"]}
            ]})
        ));
        // Tags beside a `$ref` (the `$ref` only narrows), one of them unresolvable.
        assert!(disjoint(json!({"type": "object", "oneOf": [
            {"properties": {"t": {"const": 1}}, "required": ["t"], "$ref": "#/$defs/A"},
            {"properties": {"t": {"const": 2}}, "required": ["t"], "$ref": "urn:elsewhere"}
        ], "$defs": {"A": {"type": "object"}}})));
    }

    #[test]
    fn tags_refined_through_all_of_and_many_alternatives_are_read() {
        assert!(disjoint(
            json!({"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
                "$defs": {
                    "Base": {"type": "object", "properties": {"kind": {"type": "string"}},
                             "required": ["kind"]},
                    "A": {"allOf": [{"$ref": "#/$defs/Base"},
                                    {"properties": {"kind": {"enum": ["a"]}}}]},
                    "B": {"allOf": [{"$ref": "#/$defs/Base"},
                                    {"properties": {"kind": {"const": "b"}}}]}
                }
            })
        ));
        let many = |tags: Vec<String>| {
            let mut alternatives: Vec<Value> = tags
                .iter()
                .map(|t| json!({"properties": {"t": {"const": t}}, "required": ["t"]}))
                .collect();
            alternatives
                .push(json!({"properties": {"t": {"not": {"enum": tags}}}, "required": ["t"]}));
            json!({"type": "object", "oneOf": alternatives})
        };
        let distinct: Vec<String> = (0..200).map(|i| format!("t{i}")).collect();
        assert!(disjoint(many(distinct.clone())));
        let mut twice = distinct;
        twice[7] = "t3".to_owned();
        assert!(!disjoint(many(twice)));
    }

    #[test]
    fn a_tree_of_all_of_references_stops_at_the_budget() {
        // Each level's `allOf` names the next twice: 2^30 schemas to read in full.
        let mut defs = serde_json::Map::new();
        for level in 0..30 {
            let next = format!("#/$defs/L{}", level + 1);
            defs.insert(
                format!("L{level}"),
                json!({"allOf": [{"$ref": next}, {"$ref": next}]}),
            );
        }
        defs.insert("L30".into(), json!({"type": "object"}));
        let schema = json!({"$defs": defs, "oneOf": [{"$ref": "#/$defs/L0"}, {"type": "string"}]});
        let resources = loaded(schema);
        let budget = Cell::new(10_000);
        let reader = Reader {
            resources: &resources,
            budget: &budget,
        };
        // The budget runs out: not proved apart, and said so.
        assert!(!disjoint_alternatives(reader, 0, "/oneOf", None));
        assert_eq!(budget.get(), 0);
    }
}
