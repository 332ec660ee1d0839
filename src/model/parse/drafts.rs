//! Every draft in, one draft out: a schema document of draft-04, -06, -07, 2019-09 or
//! 2020-12 (without `$schema`, or with the versionless "latest" URI, read as 2020-12
//! unless it uses an older draft's syntax, with a warning) is first checked against its draft's
//! meta-schema, then rewritten into the 2020-12 spelling the parser reads:
//!
//! | older spelling | 2020-12 |
//! |---|---|
//! | `id` (draft-04) | `$id` |
//! | `exclusiveMinimum: true` beside `minimum` (draft-04) | `exclusiveMinimum: <minimum>` |
//! | `items: [..]`, `additionalItems` (up to 2019-09) | `prefixItems: [..]`, `items` |
//! | `dependencies` (up to draft-07) | `dependentRequired` / `dependentSchemas` |
//! | `$recursiveRef` / `$recursiveAnchor` (2019-09) | `$ref` to the recursive anchor's schema (the document root) |
//!
//! Only schema positions are rewritten (a property called `id` stays a property).

use serde_json::{Map, Value};

use super::Error;
use super::keywords::{join, subschemas};
use super::refs::collect_refs;

/// The drafts symgen reads, by their `$schema` URI (without the empty fragment).
const DRAFTS: &[(&str, Draft)] = &[
    ("https://json-schema.org/draft/2020-12/schema", Draft::D2020),
    ("https://json-schema.org/draft/2019-09/schema", Draft::D2019),
    ("http://json-schema.org/draft-07/schema", Draft::D7),
    ("http://json-schema.org/draft-06/schema", Draft::D6),
    ("http://json-schema.org/draft-04/schema", Draft::D4),
];

/// A JSON Schema draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Draft {
    D4,
    D6,
    D7,
    D2019,
    D2020,
}

/// The draft a document declares (`$schema`), and a note when the draft was assumed:
/// `$schema` naming the latest draft without a version (read as 2020-12), or no
/// `$schema` (2020-12, unless the document uses an older draft's syntax: then that
/// draft, see [`older_syntax`]).
pub(super) fn draft_of(
    file: &str,
    root: &Map<String, Value>,
) -> Result<(Draft, Option<String>), Error> {
    let Some(declared) = root.get("$schema") else {
        let Some((draft, name, at)) = older_syntax(root) else {
            return Ok((Draft::D2020, None));
        };
        let note =
            format!("no `$schema`: read as {name}, whose syntax the document uses (at {at:?})");
        return Ok((draft, Some(note)));
    };
    let uri = declared.as_str().unwrap_or_default();
    let normalized = uri.trim_end_matches('#').replacen(
        "https://json-schema.org/draft-0",
        "http://json-schema.org/draft-0",
        1,
    );
    if let Some((_, draft)) = DRAFTS.iter().find(|(known, _)| *known == normalized) {
        return Ok((*draft, None));
    }
    if LATEST.contains(&normalized.as_str()) {
        let note = format!("`$schema` {uri:?} names no draft (the latest): read as 2020-12");
        return Ok((Draft::D2020, Some(note)));
    }
    Err(Error::new(
        file,
        "/$schema",
        format!(
            "unsupported `$schema` {uri:?}: symgen reads draft-04, -06, -07, 2019-09 and 2020-12"
        ),
    ))
}

/// `document` with what symgen assumes in reading it written out, for a reader that
/// assumes nothing (the validator's engine): the draft it was read as, where
/// [`draft_of`] assumed one (the versionless "latest" URI, or no `$schema` beside an
/// older draft's syntax), and the leading `/` of each same-document `$ref` fragment
/// that is a JSON Pointer without it (`#definitions/Foo`: no anchor has a `/`). None
/// when nothing was assumed.
pub fn explicit_reading(document: &Value) -> Option<Value> {
    let root = document.as_object()?;
    let mut out: Option<Value> = None;
    if let Ok((draft, Some(_))) = draft_of("", root) {
        let copy = out.get_or_insert_with(|| document.clone());
        copy["$schema"] = Value::String(format!("{}#", uri_of(draft)));
    }
    let mut refs = Vec::new();
    collect_refs(document, "", &mut refs, 0);
    for (pointer, reference) in refs {
        let Some(fragment) = reference.strip_prefix('#') else {
            continue;
        };
        if fragment.starts_with('/')
            || !fragment.contains('/')
            || document.pointer(&format!("/{fragment}")).is_none()
        {
            continue;
        }
        let copy = out.get_or_insert_with(|| document.clone());
        if let Some(slot) = copy.pointer_mut(&pointer) {
            *slot = Value::String(format!("#/{fragment}"));
        }
    }
    out
}

/// `$schema` URIs (without the empty fragment) that name "the latest draft".
const LATEST: &[&str] = &[
    "http://json-schema.org/schema",
    "https://json-schema.org/schema",
];

/// The older draft a document without `$schema` is written in, its name and the
/// pointer of a keyword that says so: `items` as an array of schemas, `additionalItems`
/// or `dependencies` listing property names (draft-07 and before), a boolean
/// `exclusiveMinimum` or `exclusiveMaximum` (draft-04). None when nothing says so.
fn older_syntax(root: &Map<String, Value>) -> Option<(Draft, &'static str, String)> {
    let mut found: Option<(Draft, &'static str, String)> = None;
    let mut pending: Vec<(&Map<String, Value>, String, usize)> = vec![(root, String::new(), 0)];
    while let Some((schema, pointer, depth)) = pending.pop() {
        for (key, value) in schema {
            let older = match (key.as_str(), value) {
                ("exclusiveMinimum" | "exclusiveMaximum", Value::Bool(_)) => {
                    Some((Draft::D4, "draft-04"))
                }
                ("items", Value::Array(_))
                | ("additionalItems", Value::Object(_) | Value::Bool(_)) => {
                    Some((Draft::D7, "draft-07"))
                }
                // Property dependencies: lists of names, which no schema is.
                ("dependencies", Value::Object(entries))
                    if !entries.is_empty() && entries.values().all(Value::is_array) =>
                {
                    Some((Draft::D7, "draft-07"))
                }
                _ => None,
            };
            if let Some((draft, name)) = older
                && found.as_ref().is_none_or(|(d, _, _)| draft < *d)
            {
                found = Some((draft, name, join(&pointer, key)));
            }
        }
        // Only schemas are read (never an instance: an example's `"items": [..]` says
        // nothing about the draft), draft-07's array of `items` included.
        if depth < MAX_DEPTH {
            subschemas(schema, &pointer, |sub, at| match sub {
                Value::Object(inner) => pending.push((inner, at, depth + 1)),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let Value::Object(inner) = item {
                            pending.push((inner, format!("{at}/{i}"), depth + 1));
                        }
                    }
                }
                _ => {}
            });
        }
    }
    found
}

/// The `$schema` URI of `draft`, as [`DRAFTS`] spells it.
fn uri_of(draft: Draft) -> &'static str {
    DRAFTS
        .iter()
        .find(|(_, d)| *d == draft)
        .map(|(uri, _)| *uri)
        .unwrap_or_default()
}

/// The draft's name as its specification spells it.
fn name_of(draft: Draft) -> &'static str {
    match draft {
        Draft::D4 => "draft-04",
        Draft::D6 => "draft-06",
        Draft::D7 => "draft-07",
        Draft::D2019 => "draft 2019-09",
        Draft::D2020 => "draft 2020-12",
    }
}

/// Checks `document` against its draft's meta-schema: the first violation as a located
/// error.
pub(super) fn meta_validate(file: &str, document: &Value, draft: Draft) -> Result<(), Error> {
    // The meta-schema is found by the exact URI; spellings of it symgen accepts (`https`
    // for the older drafts, no `#`) are checked as the canonical one.
    let canonical = uri_of(draft);
    let respell = match document.get("$schema").and_then(Value::as_str) {
        Some(uri) => uri.trim_end_matches('#') != canonical,
        // No `$schema`, read as an older draft for its syntax (`draft_of`).
        None => draft != Draft::D2020,
    };
    let respelled;
    let document = if respell {
        let mut copy = document.clone();
        copy["$schema"] = Value::String(format!("{canonical}#"));
        respelled = copy;
        &respelled
    } else {
        document
    };
    match jsonschema::meta::validate(document) {
        Ok(()) => Ok(()),
        Err(err) => Err(Error::new(
            file,
            err.instance_path().as_str(),
            format!("not a valid JSON Schema: {err}"),
        )),
    }
}

/// `document` in the 2020-12 spelling, the document as written when that differs
/// (a 2020-12 document is its own spelling: nothing is copied or compared), and the
/// keywords dropped because they stand beside a `$ref` in a draft that ignores them
/// ([`ignored_beside_ref`]).
pub(super) fn normalized(
    mut document: Value,
    draft: Draft,
) -> (Value, Option<Value>, Vec<Ignored>) {
    if draft == Draft::D2020 {
        return (document, None, Vec::new());
    }
    let ignored = ignored_beside_ref(&mut document, draft);
    let normal = normalize(&document, draft);
    let written = (normal != document).then_some(document);
    (normal, written, ignored)
}

/// Keywords a schema held beside its `$ref`: where (a pointer into the document as
/// written) and which.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Ignored {
    pub pointer: String,
    pub keywords: Vec<String>,
}

impl Ignored {
    /// What a reader of the schema is told: the keywords are not read, by the
    /// validator nor by the generated types, and how to have them read.
    pub fn message(&self, draft: Draft) -> String {
        let names: Vec<String> = self.keywords.iter().map(|k| format!("`{k}`")).collect();
        format!(
            "{} beside `$ref` ignored, as {} says (before 2019-09 a `$ref` is the whole schema): \
             neither the validator nor the generated types read them; to apply them, write \
             `allOf: [{{\"$ref\": ...}}, {{...}}]`",
            names.join(", "),
            name_of(draft)
        )
    }
}

/// Drops the keywords that stand beside a `$ref` from every schema of a draft-04, -06
/// or -07 `document` and says where: those drafts define a schema with `$ref` as the
/// schema it names, its siblings ignored, and so does the validator. Annotations,
/// definitions, `$id` and extension keywords stay (they assert nothing, and a `$ref`
/// may point into definitions kept there).
fn ignored_beside_ref(document: &mut Value, draft: Draft) -> Vec<Ignored> {
    let mut out = Vec::new();
    if draft <= Draft::D7 {
        strip_beside_ref(document, String::new(), 0, &mut out);
    }
    out
}

/// Whether `key` beside a `$ref` would assert or apply something, were it read.
fn asserts(key: &str) -> bool {
    super::keywords::is_structural(key)
        || super::keywords::VALIDATION.contains(&key)
        || matches!(
            key,
            "type" | "dependencies" | "additionalItems" | "unevaluatedItems" | "contentSchema"
        )
}

fn strip_beside_ref(schema: &mut Value, pointer: String, depth: usize, out: &mut Vec<Ignored>) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if object.get("$ref").is_some_and(Value::is_string) {
        let keywords: Vec<String> = object.keys().filter(|k| asserts(k)).cloned().collect();
        for key in &keywords {
            object.remove(key);
        }
        if !keywords.is_empty() {
            out.push(Ignored {
                pointer: pointer.clone(),
                keywords,
            });
        }
    }
    for (key, value) in object.iter_mut() {
        let at = join(&pointer, key);
        let key = key.as_str();
        let one = super::keywords::ONE_SCHEMA.contains(&key) || key == "additionalItems";
        let list = super::keywords::SCHEMA_LISTS.contains(&key) || key == "items";
        let map = super::keywords::SCHEMA_MAPS.contains(&key) || key == "dependencies";
        match value {
            Value::Array(items) if list => {
                for (i, sub) in items.iter_mut().enumerate() {
                    strip_beside_ref(sub, format!("{at}/{i}"), depth + 1, out);
                }
            }
            Value::Object(entries) if map => {
                for (name, sub) in entries.iter_mut() {
                    strip_beside_ref(sub, join(&at, name), depth + 1, out);
                }
            }
            sub @ Value::Object(_) if one => strip_beside_ref(sub, at, depth + 1, out),
            _ => {}
        }
    }
}

/// `document` in the 2020-12 spelling.
pub(super) fn normalize(document: &Value, draft: Draft) -> Value {
    let mut out = document.clone();
    if draft < Draft::D2020 {
        rewrite(&mut out, draft, 0);
    }
    out
}

/// How deep the rewrite follows nesting; deeper schemas are left for the parser's own
/// depth limit to report.
const MAX_DEPTH: usize = 256;

fn rewrite(schema: &mut Value, draft: Draft, depth: usize) {
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if draft == Draft::D4 {
        if let Some(id) = object.remove("id") {
            if id.is_string() && !object.contains_key("$id") {
                object.insert("$id".to_owned(), id);
            } else {
                object.insert("id".to_owned(), id);
            }
        }
        for (bound, flag) in [
            ("minimum", "exclusiveMinimum"),
            ("maximum", "exclusiveMaximum"),
        ] {
            match object.get(flag) {
                Some(Value::Bool(true)) => {
                    if let Some(value) = object.remove(bound) {
                        object.insert(flag.to_owned(), value);
                    } else {
                        object.remove(flag);
                    }
                }
                Some(Value::Bool(false)) => {
                    object.remove(flag);
                }
                _ => {}
            }
        }
    }
    if draft <= Draft::D2019 {
        if let Some(Value::Array(items)) = object.get("items").cloned() {
            object.remove("items");
            object.insert("prefixItems".to_owned(), Value::Array(items));
            if let Some(additional) = object.remove("additionalItems") {
                object.insert("items".to_owned(), additional);
            }
        } else {
            // `additionalItems` without an `items` array has no effect.
            object.remove("additionalItems");
        }
        if draft == Draft::D2019 {
            if let Some(Value::String(reference)) = object.remove("$recursiveRef") {
                object.insert("$ref".to_owned(), Value::String(reference));
            }
            object.remove("$recursiveAnchor");
        }
    }
    if draft <= Draft::D7
        && let Some(Value::Object(dependencies)) = object.remove("dependencies")
    {
        let mut required = Map::new();
        let mut schemas = Map::new();
        for (key, value) in dependencies {
            if value.is_array() {
                required.insert(key, value);
            } else {
                schemas.insert(key, value);
            }
        }
        if !required.is_empty() {
            object.insert("dependentRequired".to_owned(), Value::Object(required));
        }
        if !schemas.is_empty() {
            object.insert("dependentSchemas".to_owned(), Value::Object(schemas));
        }
    }
    super::keywords::subschemas_mut(object, |sub| rewrite(sub, draft, depth + 1));
}

/// A pointer into a document's 2020-12 spelling ([`normalize`]) as a pointer into the
/// document as written (`original`), so a warning or an error names the keyword the
/// author wrote, where the validator (which reads the document as written) reports it:
/// `dependentRequired`/`dependentSchemas` are `dependencies`, `prefixItems` is an
/// `items` array and the `items` beside it `additionalItems`, `$ref` a `$recursiveRef`,
/// `$id` an `id`, and a draft-04 exclusive bound the `minimum`/`maximum` its flag
/// applies to. A token the original does not hold is kept as it is.
pub(super) fn as_written(original: &Value, pointer: &str) -> String {
    let mut out = String::new();
    let mut at = Some(original);
    for token in crate::json_pointer::tokens(pointer) {
        let token = token.as_ref();
        let object = at.and_then(Value::as_object);
        let written = object.map_or(token, |object| spelled(object, token));
        crate::json_pointer::push(&mut out, written);
        at = match at {
            Some(Value::Object(object)) => object.get(written),
            Some(Value::Array(items)) => {
                crate::json_pointer::index(written).and_then(|i| items.get(i))
            }
            _ => None,
        };
    }
    out
}

/// The keyword of `object` (a schema as written) that the 2020-12 keyword `key` of its
/// rewrite stands for.
fn spelled<'k>(object: &Map<String, Value>, key: &'k str) -> &'k str {
    let holds = |k: &str| object.contains_key(k);
    let items_array = matches!(object.get("items"), Some(Value::Array(_)));
    match key {
        "dependentRequired" | "dependentSchemas" if !holds(key) && holds("dependencies") => {
            "dependencies"
        }
        "prefixItems" if !holds(key) && items_array => "items",
        "items" if items_array && holds("additionalItems") => "additionalItems",
        "$ref" if !holds(key) && holds("$recursiveRef") => "$recursiveRef",
        "$id" if !holds(key) && holds("id") => "id",
        "exclusiveMinimum" if matches!(object.get(key), Some(Value::Bool(_))) => "minimum",
        "exclusiveMaximum" if matches!(object.get(key), Some(Value::Bool(_))) => "maximum",
        _ => key,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn draft_04_spellings_become_2020_12() {
        let document = json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "id": "urn:x",
            "properties": {
                "id": {"type": "string"},
                "n": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
                "m": {"type": "integer", "maximum": 9, "exclusiveMaximum": false},
                "pair": {"items": [{"type": "string"}], "additionalItems": false}
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}
        });
        let (draft, assumed) = draft_of("f", document.as_object().unwrap()).unwrap();
        assert_eq!(draft, Draft::D4);
        assert_eq!(assumed, None);
        let out = normalize(&document, draft);
        assert_eq!(out["$id"], "urn:x");
        assert!(out.get("id").is_none());
        assert_eq!(out["properties"]["id"], json!({"type": "string"}));
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "exclusiveMinimum": 0})
        );
        assert_eq!(
            out["properties"]["m"],
            json!({"type": "integer", "maximum": 9})
        );
        assert_eq!(
            out["properties"]["pair"],
            json!({"prefixItems": [{"type": "string"}], "items": false})
        );
        assert_eq!(out["dependentRequired"], json!({"a": ["b"]}));
        assert_eq!(out["dependentSchemas"], json!({"c": {"required": ["d"]}}));
    }

    #[test]
    fn unknown_drafts_are_refused_and_missing_means_2020_12() {
        let none = json!({"type": "string"});
        assert_eq!(
            draft_of("f", none.as_object().unwrap()).unwrap(),
            (Draft::D2020, None)
        );
        let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#"});
        let err = draft_of("f", draft3.as_object().unwrap()).unwrap_err();
        assert_eq!(err.pointer, "/$schema");
    }

    #[test]
    fn the_latest_uri_and_older_syntax_without_schema_are_read_with_a_note() {
        for uri in [
            "http://json-schema.org/schema#",
            "https://json-schema.org/schema",
        ] {
            let latest = json!({"$schema": uri, "type": "string"});
            let (draft, note) = draft_of("f", latest.as_object().unwrap()).unwrap();
            assert_eq!(draft, Draft::D2020);
            assert!(note.unwrap().contains("read as 2020-12"));
        }
        let tuple = json!({"properties": {"p": {"items": [{"type": "string"}]}}});
        let (draft, note) = draft_of("f", tuple.as_object().unwrap()).unwrap();
        assert_eq!(draft, Draft::D7);
        assert!(note.unwrap().contains("\"/properties/p/items\""));
        let old = json!({"properties": {"n": {"minimum": 0, "exclusiveMinimum": true}},
            "dependencies": {"a": ["b"]}});
        let (draft, note) = draft_of("f", old.as_object().unwrap()).unwrap();
        assert_eq!(draft, Draft::D4);
        assert!(note.unwrap().contains("draft-04"));
        // An example's `items` says nothing.
        let example = json!({"examples": [{"items": [1, 2]}], "default": {"items": []}});
        assert_eq!(
            draft_of("f", example.as_object().unwrap()).unwrap(),
            (Draft::D2020, None)
        );
        // A property called `dependencies` (a schema, not a list of names) says nothing.
        let named = json!({"properties": {"dependencies": {"type": "object"}}});
        assert_eq!(
            draft_of("f", named.as_object().unwrap()).unwrap(),
            (Draft::D2020, None)
        );
        // The validator's engine is told the draft assumed.
        let told = explicit_reading(&tuple).unwrap();
        assert_eq!(told["$schema"], "http://json-schema.org/draft-07/schema#");
        assert_eq!(explicit_reading(&named), None);
        // Read as draft-07, the tuple passes the meta-schema and becomes `prefixItems`.
        meta_validate("f", &tuple, Draft::D7).unwrap();
        assert_eq!(
            normalize(&tuple, Draft::D7)["properties"]["p"],
            json!({"prefixItems": [{"type": "string"}]})
        );
    }

    #[test]
    fn a_slashless_pointer_fragment_is_written_with_its_slash() {
        let document = json!({"properties": {"x": {"$ref": "#definitions/X"},
            "y": {"$ref": "#nothing/here"}, "z": {"$ref": "#anchor"},
            "w": {"const": {"$ref": "#definitions/X"}}},
            "definitions": {"X": {"type": "string"}}});
        let told = explicit_reading(&document).unwrap();
        assert_eq!(told["properties"]["x"]["$ref"], "#/definitions/X");
        assert_eq!(told["properties"]["y"]["$ref"], "#nothing/here");
        assert_eq!(told["properties"]["z"]["$ref"], "#anchor");
        // An instance is data, kept as written.
        assert_eq!(told["properties"]["w"]["const"]["$ref"], "#definitions/X");
        assert!(told.get("$schema").is_none());
    }

    #[test]
    fn invalid_schemas_get_a_located_error() {
        let bad = json!({"properties": {"a": {"type": "nope"}}});
        let err = meta_validate("f", &bad, Draft::D2020).unwrap_err();
        assert_eq!(err.pointer, "/properties/a/type");
        assert!(meta_validate("f", &json!({"required": ["a"]}), Draft::D2020).is_ok());
    }

    #[test]
    fn a_rewritten_keyword_is_named_as_written() {
        let original = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
            "properties": {
                "pair": {"items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
                "list": {"items": {"type": "string"}}
            }
        });
        let normal = normalize(&original, Draft::D7);
        for (rewritten, written) in [
            ("/dependentRequired/a", "/dependencies/a"),
            ("/dependentSchemas/c/required", "/dependencies/c/required"),
            (
                "/properties/pair/prefixItems/0/type",
                "/properties/pair/items/0/type",
            ),
            (
                "/properties/pair/items/type",
                "/properties/pair/additionalItems/type",
            ),
            ("/properties/list/items/type", "/properties/list/items/type"),
            ("/properties/a~1b/x", "/properties/a~1b/x"),
        ] {
            assert_eq!(as_written(&original, rewritten), written, "{rewritten}");
        }
        // Each translated pointer names a value of the original where the rewrite has one.
        assert!(normal.pointer("/dependentRequired/a").is_some());
        assert!(original.pointer("/dependencies/a").is_some());

        let draft4 = json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "id": "urn:x",
            "properties": {"n": {"minimum": 0, "exclusiveMinimum": true}}
        });
        assert_eq!(as_written(&draft4, "/$id"), "/id");
        assert_eq!(
            as_written(&draft4, "/properties/n/exclusiveMinimum"),
            "/properties/n/minimum"
        );
    }
}
