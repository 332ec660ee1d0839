//! Unions of string constants, written as `enum`s for the engines that explain a
//! rejected message.
//!
//! schemars writes a documented enum as `oneOf: [{const: "a", description: …}, …]`.
//! The general engine checks a failed union against every alternative and keeps an
//! error, with its own copy of the value, per alternative; the explainer then reports
//! them as one "must be one of …", as it reports an `enum`. Written as an `enum`, the
//! union accepts the same values and fails with that one error.

use jsonschema::{Draft, Retrieve, Uri};
use serde_json::{Map, Value};

use crate::model::{MAX_SCHEMA_DEPTH, subschemas_mut};

/// Annotations an alternative may carry beside its constant. Narrower than the model's
/// annotation keywords: an alternative with an `$id`, `$anchor` or `$defs` may be a
/// `$ref`'s target, which the rewrite would remove.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "deprecated",
    "$comment",
    "examples",
    "readOnly",
    "writeOnly",
];

/// `document` with every `oneOf`/`anyOf` of string constants in a subschema written as an
/// `enum` of the constants, in the keyword's place (see [`as_enum`]), down to the depth
/// the model parses schemas to. A draft-04 document (which has no `const`) and a
/// subschema with a `$schema` of its own are left as they are.
pub fn with_enums(mut document: Value) -> Value {
    if !matches!(Draft::default().detect(&document), Draft::Draft4) {
        walk(&mut document, 0);
    }
    document
}

/// A retriever whose documents come [`with_enums`].
#[derive(Debug, Clone)]
pub struct WithEnums<R>(pub R);

impl<R: Retrieve> Retrieve for WithEnums<R> {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        self.0.retrieve(uri).map(with_enums)
    }
}

fn walk(node: &mut Value, depth: usize) {
    let Some(schema) = node.as_object_mut().filter(|schema| {
        depth < MAX_SCHEMA_DEPTH && (depth == 0 || !schema.contains_key("$schema"))
    }) else {
        return;
    };
    for keyword in ["oneOf", "anyOf"] {
        if let Some(values) = as_enum(schema, keyword) {
            let at = schema.keys().position(|k| k == keyword).unwrap_or(0);
            schema.shift_remove(keyword);
            schema.shift_insert(at, "enum".to_owned(), Value::Array(values));
        }
    }
    subschemas_mut(schema, |sub| walk(sub, depth + 1));
}

/// The constants of `schema`'s `keyword` union, when it is exactly an `enum` of them:
/// each alternative is a string `const` with nothing beside it but annotations (or
/// `type: "string"`), the schema has no `enum` of its own, and for `oneOf` no constant
/// is given twice (one value matching two alternatives fails a `oneOf`; an `anyOf`'s
/// repeated constant is listed once).
fn as_enum(schema: &Map<String, Value>, keyword: &str) -> Option<Vec<Value>> {
    if schema.contains_key("enum") {
        return None;
    }
    let alternatives = schema.get(keyword)?.as_array()?;
    let mut values: Vec<Value> = Vec::with_capacity(alternatives.len());
    for alternative in alternatives {
        let alternative = alternative.as_object()?;
        let value = alternative.get("const").filter(|v| v.is_string())?;
        let plain = alternative.iter().all(|(key, v)| {
            key == "const"
                || ANNOTATIONS.contains(&key.as_str())
                || (key == "type" && v == "string")
        });
        if !plain {
            return None;
        }
        if values.contains(value) {
            if keyword == "oneOf" {
                return None;
            }
        } else {
            values.push(value.clone());
        }
    }
    (!values.is_empty()).then_some(values)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unions_of_string_constants_become_enums_in_place() {
        let mode = json!({"type": "string", "oneOf": [
            {"const": "a", "description": "A."},
            {"const": "b", "deprecated": true, "type": "string"},
        ], "description": "after"});
        let document = json!({"$defs": {"Mode": mode, "Holder": {"properties": {"m": {"anyOf": [{"const": "x"}]}}}}});
        let rewritten = with_enums(document);
        assert_eq!(
            rewritten["$defs"]["Mode"],
            json!({"type": "string", "enum": ["a", "b"], "description": "after"})
        );
        let keys: Vec<&String> = rewritten["$defs"]["Mode"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["type", "enum", "description"]);
        assert_eq!(
            rewritten["$defs"]["Holder"]["properties"]["m"],
            json!({"enum": ["x"]})
        );
    }

    #[test]
    fn anything_else_is_left_alone() {
        for union in [
            // A constant given twice fails a oneOf.
            json!({"oneOf": [{"const": "a"}, {"const": "a"}]}),
            // A constraint beside the constant, a non-string constant, a wrong type.
            json!({"oneOf": [{"const": "a", "minLength": 3}]}),
            json!({"oneOf": [{"const": 1}]}),
            json!({"oneOf": [{"const": "a", "type": "integer"}]}),
            // An enum of its own, an alternative that is not a constant, no alternative.
            json!({"enum": ["a"], "oneOf": [{"const": "a"}]}),
            json!({"anyOf": [{"const": "a"}, {"type": "string"}]}),
            json!({"anyOf": []}),
        ] {
            assert_eq!(with_enums(union.clone()), union);
        }
        // Values that only look like schemas are not schemas.
        let data =
            json!({"const": {"oneOf": [{"const": "a"}]}, "default": {"anyOf": [{"const": "b"}]}});
        assert_eq!(with_enums(data.clone()), data);
        // Draft 4 has no `const`; a subschema may name its own draft.
        let old = json!({"$schema": "http://json-schema.org/draft-04/schema#", "oneOf": [{"const": "a"}]});
        assert_eq!(with_enums(old.clone()), old);
        let own = json!({"$defs": {"X": {"$schema": "http://json-schema.org/draft-04/schema#", "oneOf": [{"const": "a"}]}}});
        assert_eq!(with_enums(own.clone()), own);
        // A duplicate constant is fine in an anyOf.
        assert_eq!(
            with_enums(json!({"anyOf": [{"const": "a"}, {"const": "b"}, {"const": "a"}]})),
            json!({"enum": ["a", "b"]})
        );
    }
}
