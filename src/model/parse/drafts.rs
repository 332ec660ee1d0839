//! Every draft in, one draft out: a schema document of draft-04, -06, -07, 2019-09 or
//! 2020-12 (or without `$schema`, read as 2020-12) is first checked against its draft's
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

/// The draft a document declares (`$schema`), or 2020-12 when it declares none.
pub(super) fn draft_of(file: &str, root: &Map<String, Value>) -> Result<Draft, Error> {
    let Some(declared) = root.get("$schema") else {
        return Ok(Draft::D2020);
    };
    let uri = declared.as_str().unwrap_or_default();
    let normalized = uri.trim_end_matches('#').replacen(
        "https://json-schema.org/draft-0",
        "http://json-schema.org/draft-0",
        1,
    );
    DRAFTS
        .iter()
        .find(|(known, _)| *known == normalized)
        .map(|(_, draft)| *draft)
        .ok_or_else(|| {
            Error::new(
                file,
                "/$schema",
                format!(
                    "unsupported `$schema` {uri:?}: symgen reads draft-04, -06, -07, 2019-09 and 2020-12"
                ),
            )
        })
}

/// Checks `document` against its draft's meta-schema: the first violation as a located
/// error.
pub(super) fn meta_validate(file: &str, document: &Value, draft: Draft) -> Result<(), Error> {
    // The meta-schema is found by the exact URI; spellings of it symgen accepts (`https`
    // for the older drafts, no `#`) are checked as the canonical one.
    let canonical = DRAFTS
        .iter()
        .find(|(_, d)| *d == draft)
        .map(|(uri, _)| *uri)
        .unwrap_or_default();
    let declared = document.get("$schema").and_then(Value::as_str);
    let respelled;
    let document = match declared {
        Some(uri) if uri.trim_end_matches('#') != canonical => {
            let mut copy = document.clone();
            copy["$schema"] = Value::String(format!("{canonical}#"));
            respelled = copy;
            &respelled
        }
        _ => document,
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
        let draft = draft_of("f", document.as_object().unwrap()).unwrap();
        assert_eq!(draft, Draft::D4);
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
            Draft::D2020
        );
        let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#"});
        let err = draft_of("f", draft3.as_object().unwrap()).unwrap_err();
        assert_eq!(err.pointer, "/$schema");
    }

    #[test]
    fn invalid_schemas_get_a_located_error() {
        let bad = json!({"properties": {"a": {"type": "nope"}}});
        let err = meta_validate("f", &bad, Draft::D2020).unwrap_err();
        assert_eq!(err.pointer, "/properties/a/type");
        assert!(meta_validate("f", &json!({"required": ["a"]}), Draft::D2020).is_ok());
    }
}
