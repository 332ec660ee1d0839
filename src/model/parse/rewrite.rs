//! Rewrites of schema shapes into ones the parser reads directly, each meaning exactly
//! the same: a `type` beside `anyOf`/`oneOf` distributed into the alternatives.

use serde_json::{Map, Value};

fn types_of(value: Option<&Value>) -> Option<Vec<String>> {
    match value? {
        Value::String(ty) => Some(vec![ty.clone()]),
        Value::Array(types) => Some(
            types
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        _ => None,
    }
}

/// The types both lists allow (`integer` is a `number`).
fn intersect(outer: &[String], inner: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for ty in inner {
        let allowed =
            outer.contains(ty) || (ty == "integer" && outer.iter().any(|o| o == "number"));
        if allowed && !out.contains(ty) {
            out.push(ty.clone());
        }
    }
    for ty in outer {
        if ty == "integer" && inner.iter().any(|i| i == "number") && !out.contains(ty) {
            out.push(ty.clone());
        }
    }
    out
}

fn type_value(types: Vec<String>) -> Value {
    match types.as_slice() {
        [single] => Value::String(single.clone()),
        _ => Value::Array(types.into_iter().map(Value::String).collect()),
    }
}

/// Keywords that make a schema more than validation of the value's own type.
const SHAPING: &[&str] = &[
    "type",
    "enum",
    "const",
    "$ref",
    "$dynamicRef",
    "properties",
    "additionalProperties",
    "patternProperties",
    "items",
    "prefixItems",
    "allOf",
    "anyOf",
    "oneOf",
];

/// Whether an alternative says what the value is, not only what it must satisfy.
pub(super) fn shapes(member: &Value) -> bool {
    member
        .as_object()
        .is_some_and(|m| m.keys().any(|k| SHAPING.contains(&k.as_str())))
}

/// `{type: T, anyOf: [A, B]}` (or `oneOf`) where `T` is not just `object` and the
/// alternatives say more than validation: `{anyOf: [A ∧ T, B ∧ T]}`, where `A ∧ T`
/// restricts `A`'s own `type` to `T` (an alternative `T` excludes is dropped; one that
/// is a `$ref` is kept as it is). `None` when the schema is not of this shape.
pub(super) fn distribute_type(object: &Map<String, Value>) -> Option<Value> {
    let outer = types_of(object.get("type"))?;
    if outer.iter().all(|t| t == "object") {
        return None;
    }
    let key = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| object.get(*k).is_some_and(Value::is_array))?;
    let members = object[key].as_array()?;
    // symgen's open string enum (`x-symgen-unknown` beside the values) is read as such.
    let open_enum = members.iter().any(|m| m.get("x-symgen-unknown").is_some());
    if open_enum || !members.iter().any(shapes) {
        return None;
    }
    let mut distributed = Vec::new();
    for member in members {
        let mut member = match member {
            Value::Bool(true) => Map::new(),
            Value::Bool(false) => continue,
            Value::Object(m) => m.clone(),
            _ => return None,
        };
        if member.contains_key("$ref") {
            distributed.push(Value::Object(member));
            continue;
        }
        let types = match types_of(member.get("type")) {
            Some(inner) => intersect(&outer, &inner),
            None => outer.clone(),
        };
        if types.is_empty() {
            continue;
        }
        member.insert("type".to_owned(), type_value(types));
        distributed.push(Value::Object(member));
    }
    let mut out = object.clone();
    out.remove("type");
    out.insert(key.to_owned(), Value::Array(distributed));
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::distribute_type;

    #[test]
    fn the_outer_type_goes_into_each_alternative() {
        let schema = json!({
            "type": ["string", "null"],
            "oneOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}, {"type": "integer"}],
            "title": "T"
        });
        let out = distribute_type(schema.as_object().unwrap()).unwrap();
        assert_eq!(
            out,
            json!({
                "oneOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}],
                "title": "T"
            })
        );
        let refs = json!({"type": "string", "anyOf": [{"$ref": "#/$defs/A"}, {"enum": ["b"]}]});
        let out = distribute_type(refs.as_object().unwrap()).unwrap();
        assert_eq!(
            out,
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"enum": ["b"], "type": "string"}]})
        );
        // Validation-only alternatives, or an object type, are left alone.
        let constraint = json!({"type": "string", "anyOf": [{"pattern": "a"}, {"format": "uri"}]});
        assert!(distribute_type(constraint.as_object().unwrap()).is_none());
        let object = json!({"type": "object", "oneOf": [{"required": ["a"]}]});
        assert!(distribute_type(object.as_object().unwrap()).is_none());
    }
}
