//! The validator's view of a union's tag: the alternatives of a `oneOf`/`anyOf` with
//! their `$ref`s followed, handed to the shared tag detection ([`crate::tags`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

pub use crate::tags::Discriminator;

/// Decodes a JSON Pointer from a URI fragment (`#/$defs/A%20B/oneOf`).
pub fn fragment_pointer(fragment: &str) -> String {
    percent_decode(fragment.strip_prefix('#').unwrap_or(fragment))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Follows a local `$ref` (`#/...`) of a schema that has no `properties` of its own, up to
/// a few hops. Other schemas are returned as they are.
pub fn resolve<'a>(document: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..8 {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        if schema.get("properties").is_some() {
            break;
        }
        let Some(pointer) = reference.strip_prefix('#') else {
            break;
        };
        match crate::json_pointer::get(document, &percent_decode(pointer)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The discriminator of the alternatives `branches` (the array of a `oneOf`/`anyOf`,
/// `$ref`s followed), when one property tells them apart (see [`crate::tags::find`]).
pub fn discriminator(document: &Value, branches: &[Value]) -> Option<Discriminator> {
    let resolved: Vec<&Value> = branches.iter().map(|b| resolve(document, b)).collect();
    crate::tags::find(
        &resolved,
        crate::tags::Rules {
            tag_required: false,
            excluding_is_open: true,
            min_known: 2,
        },
    )
}

/// The discriminators of one document's unions, each found on first need: the
/// explainer asks for a union's tag message after message, and finding it walks every
/// alternative. Keyed by where the alternatives are, so the memo must describe a document
/// that does not change while it is in use ([`super::compiled::CompiledSchema`] owns
/// both).
#[derive(Debug, Default)]
pub struct Memo(Mutex<HashMap<Where, Option<Arc<Discriminator>>>>);

/// Where an array of alternatives is: its address and length.
type Where = (usize, usize);

impl Memo {
    /// [`discriminator`] of `branches`, an array of `document`.
    pub fn get(&self, document: &Value, branches: &[Value]) -> Option<Arc<Discriminator>> {
        let key = (branches.as_ptr() as usize, branches.len());
        let mut memo = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        memo.entry(key)
            .or_insert_with(|| discriminator(document, branches).map(Arc::new))
            .clone()
    }
}

/// A short name for an alternative in messages: its `title`, the name its `$ref`
/// points to, its `const`, or its `type`.
pub fn describe(schema: &Value) -> String {
    if let Some(title) = schema.get("title").and_then(Value::as_str) {
        return title.to_owned();
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => match schema.get("required").and_then(Value::as_array) {
            Some(keys) => format!(
                "with {}",
                keys.iter()
                    .filter_map(Value::as_str)
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => "an alternative".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_memo_finds_each_union_once_and_tells_unions_apart() {
        let doc = json!({
            "tagged": [
                {"properties": {"kind": {"const": "a"}}},
                {"properties": {"kind": {"const": "b"}}}
            ],
            "untagged": [{"type": "string"}, {"type": "number"}]
        });
        let tagged = doc["tagged"].as_array().unwrap();
        let untagged = doc["untagged"].as_array().unwrap();
        let memo = Memo::default();
        let first = memo.get(&doc, tagged).unwrap();
        assert_eq!(Some(&*first), discriminator(&doc, tagged).as_ref());
        assert!(Arc::ptr_eq(&first, &memo.get(&doc, tagged).unwrap()));
        assert_eq!(memo.get(&doc, untagged), None);
        assert_eq!(
            memo.get(&doc, &tagged[..1]),
            None,
            "a shorter array is another union"
        );
        assert_eq!(first.key, "kind");
    }

    #[test]
    fn finds_the_tag_of_a_symgen_envelope_with_aliases_and_an_open_case() {
        let doc = json!({"$defs": {"P": {"type": "object"}}});
        let branches = json!([
            {"properties": {"type": {"const": "a"}, "payload": {"$ref": "#/$defs/P"}}},
            {"properties": {"type": {"enum": ["b", "B"]}}},
            {"properties": {"type": {"type": "string", "not": {"enum": ["a", "b", "B"]}}},
             "x-symgen-unknown": true}
        ]);
        let d = discriminator(&doc, branches.as_array().unwrap()).unwrap();
        assert_eq!(d.key, "type");
        assert_eq!(d.select(&json!("a")), Some(0));
        assert_eq!(d.select(&json!("B")), Some(1));
        assert_eq!(d.select(&json!("zzz")), Some(2));
        assert!(d.knows(&json!("b")) && !d.knows(&json!("zzz")) && d.is_open());
        assert_eq!(
            d.known_tags().collect::<Vec<_>>(),
            [&json!("a"), &json!("b"), &json!("B")]
        );
    }

    #[test]
    fn follows_refs_and_rejects_overlapping_or_untagged_alternatives() {
        let doc = json!({"$defs": {
            "A": {"properties": {"kind": {"const": "a"}}},
            "B": {"properties": {"kind": {"const": "b"}}}
        }});
        let refs = json!([{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]);
        let d = discriminator(&doc, refs.as_array().unwrap()).unwrap();
        assert_eq!(d.key, "kind");
        assert_eq!(d.select(&json!("c")), None);

        let booleans = json!([
            {"properties": {"active": {"const": false}}},
            {"properties": {"active": {"const": true}}, "$ref": "#/$defs/A"}
        ]);
        let d = discriminator(&doc, booleans.as_array().unwrap()).unwrap();
        assert_eq!(
            (d.key.as_str(), d.select(&json!(true))),
            ("active", Some(1))
        );

        let overlap = json!([
            {"properties": {"k": {"const": "a"}}},
            {"properties": {"k": {"enum": ["a", "b"]}}}
        ]);
        assert_eq!(discriminator(&doc, overlap.as_array().unwrap()), None);
        let untagged = json!([{"type": "integer"}, {"type": "string"}]);
        assert_eq!(discriminator(&doc, untagged.as_array().unwrap()), None);
    }

    #[test]
    fn decodes_fragments() {
        assert_eq!(fragment_pointer("#/$defs/A%20B/oneOf"), "/$defs/A B/oneOf");
        assert_eq!(fragment_pointer("#/x%2"), "/x%2");
    }
}
