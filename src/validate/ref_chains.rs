//! Chains of schemas that are nothing but a `$ref` (`A: {"$ref": "#/$defs/B"}`,
//! `B: {"$ref": "#/$defs/C"}`), cut short before the engine compiles the document: each
//! `$ref` into such a chain points at its end. The `jsonschema` crate copies its
//! reference context once per step it follows, so an n-step chain cost it O(n²) (a
//! 16,000-step chain: 1.4 s; 32,000: 5.5 s); followed here once, with every step
//! remembered, it costs O(n) in all.
//!
//! A schema that holds only a `$ref` accepts exactly what its target accepts, so the
//! verdicts and the instance locations of violations are unchanged. Only references
//! written as a JSON Pointer into the same document (`#/…`) are followed, and only in a
//! document with no `$id` below its root (where `#/…` could mean another resource's
//! root) and no percent-escapes in the pointer.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// `schema`, with every local `$ref` that leads into a chain of `$ref`-only schemas
/// pointed at the chain's end; `schema` itself when there is none.
pub(super) fn shortcut(schema: &Value) -> Cow<'_, Value> {
    let Some(references) = refs(schema) else {
        return Cow::Borrowed(schema);
    };
    let mut ends: HashMap<String, Option<String>> = HashMap::new();
    let mut changes = false;
    for reference in references {
        if let Some(end) = chain_end(schema, reference, &mut ends)
            && end != reference
        {
            changes = true;
        }
    }
    if !changes {
        return Cow::Borrowed(schema);
    }
    let mut copy = schema.clone();
    let mut stack = vec![&mut copy];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if key == "$ref"
                        && let Value::String(reference) = value
                        && let Some(Some(end)) = ends.get(reference.as_str())
                    {
                        *reference = end.clone();
                    } else {
                        stack.push(value);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    Cow::Owned(copy)
}

/// Every `$ref` string in the document; `None` when a schema below the root declares a
/// `$id`.
fn refs(schema: &Value) -> Option<Vec<&str>> {
    let mut found = Vec::new();
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if !std::ptr::eq(node, schema) && map.contains_key("$id") {
                    return None;
                }
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("$ref", Value::String(reference)) => found.push(reference.as_str()),
                        _ => stack.push(value),
                    }
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    Some(found)
}

/// The schema a local `$ref` leads to (`#/…` without percent-escapes).
fn target<'a>(schema: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if !pointer.starts_with('/') || pointer.contains('%') {
        return None;
    }
    schema.pointer(pointer)
}

/// The `$ref` of a schema that holds nothing else.
fn only_ref(node: &Value) -> Option<&str> {
    match node.as_object()? {
        map if map.len() == 1 => map.get("$ref")?.as_str(),
        _ => None,
    }
}

/// Where the chain of `$ref`-only schemas that `reference` starts ends: the last
/// reference of the chain (`reference` itself when its target is not `$ref`-only);
/// `None` when it cannot be followed (not local, or it comes back to itself). Every
/// reference on the way is remembered in `ends` with the same end.
fn chain_end(
    schema: &Value,
    reference: &str,
    ends: &mut HashMap<String, Option<String>>,
) -> Option<String> {
    let mut path: Vec<&str> = Vec::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    let mut current = reference;
    let end = loop {
        if let Some(end) = ends.get(current) {
            break end.clone();
        }
        let Some(node) = target(schema, current) else {
            break None;
        };
        if !on_path.insert(current) {
            break None;
        }
        path.push(current);
        match only_ref(node) {
            Some(next) if target(schema, next).is_some() => current = next,
            _ => break Some(current.to_owned()),
        }
    };
    for step in path {
        ends.insert(step.to_owned(), end.clone());
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_chain_of_ref_only_schemas_is_cut_to_its_end() {
        let schema = json!({
            "$ref": "#/$defs/A",
            "$defs": {
                "A": {"$ref": "#/$defs/B"},
                "B": {"$ref": "#/$defs/C"},
                "C": {"type": "string"},
                "D": {"type": "array", "items": {"$ref": "#/$defs/A"}},
                "E": {"$ref": "#/$defs/C", "minLength": 1}
            }
        });
        let cut = shortcut(&schema);
        assert_eq!(cut["$ref"], "#/$defs/C");
        assert_eq!(cut["$defs"]["A"]["$ref"], "#/$defs/C");
        assert_eq!(cut["$defs"]["B"]["$ref"], "#/$defs/C");
        assert_eq!(cut["$defs"]["D"]["items"]["$ref"], "#/$defs/C");
        // A `$ref` beside other keywords is a step of its own: kept, and not skipped.
        assert_eq!(cut["$defs"]["E"], schema["$defs"]["E"]);
    }

    #[test]
    fn references_it_cannot_follow_are_left_as_written() {
        let cycle = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
        assert!(matches!(shortcut(&cycle), Cow::Borrowed(_)));
        let remote = json!({"$defs": {"A": {"$ref": "other.json#/$defs/B"}}});
        assert!(matches!(shortcut(&remote), Cow::Borrowed(_)));
        let escaped = json!({"$defs": {"A": {"$ref": "#/$defs/B%20C"}, "B C": {"$ref": "#/$defs/D"}, "D": {}}});
        assert!(matches!(shortcut(&escaped), Cow::Borrowed(_)));
        // Below a `$id`, `#/…` may name that resource's root, not the document's.
        let inner = json!({
            "$defs": {
                "A": {"$ref": "#/$defs/B"},
                "B": {"$ref": "#/$defs/C"},
                "C": {"$id": "c.json", "type": "string"}
            }
        });
        assert!(matches!(shortcut(&inner), Cow::Borrowed(_)));
    }
}
