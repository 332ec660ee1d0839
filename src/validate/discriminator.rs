//! Finding the tag of a tagged union in a schema: the property whose `const` (or `enum`)
//! tells the alternatives of a `oneOf`/`anyOf` apart. With it, a message is judged by the
//! one alternative its tag selects instead of "matched none of 24 alternatives".
//!
//! Works on any schema (symgen's envelopes and unions, serde-style internally tagged
//! enums, OpenAPI-style discriminated unions in user schemas); symgen's `x-symgen-unknown`
//! marks the open alternative that takes every other tag (rule R4).

use serde_json::Value;

/// The tag property of a union and what each alternative accepts there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discriminator {
    /// The tag property, e.g. `type`.
    pub key: String,
    /// One entry per alternative, in order.
    pub branches: Vec<BranchTag>,
}

/// What one alternative of a union accepts as its tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchTag {
    /// These tag values (a canonical tag and its input aliases; strings, or booleans
    /// and numbers for tags like `{"active": true}`).
    Known(Vec<Value>),
    /// Every tag no other alternative has (the open, unknown case).
    Unknown,
}

impl Discriminator {
    /// The alternative that `tag` selects: a known one, else the open one.
    pub fn select(&self, tag: &Value) -> Option<usize> {
        self.branches
            .iter()
            .position(|b| matches!(b, BranchTag::Known(tags) if tags.contains(tag)))
            .or_else(|| self.branches.iter().position(|b| *b == BranchTag::Unknown))
    }

    /// Whether `tag` is one of the known tags.
    pub fn knows(&self, tag: &Value) -> bool {
        self.branches
            .iter()
            .any(|b| matches!(b, BranchTag::Known(tags) if tags.contains(tag)))
    }

    /// Whether an open alternative takes unknown tags.
    pub fn is_open(&self) -> bool {
        self.branches.contains(&BranchTag::Unknown)
    }

    /// Every known tag, in order (canonical tags and aliases).
    pub fn known_tags(&self) -> impl Iterator<Item = &Value> {
        self.branches.iter().flat_map(|b| match b {
            BranchTag::Known(tags) => tags.as_slice(),
            BranchTag::Unknown => &[],
        })
    }

    /// How many alternatives have known tags.
    pub fn known_count(&self) -> usize {
        self.branches
            .iter()
            .filter(|b| matches!(b, BranchTag::Known(_)))
            .count()
    }
}

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
        match document.pointer(&percent_decode(pointer)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The scalar values a property schema pins: its `const`, or its `enum` when every
/// value is a string, boolean or number.
fn pinned_values(property: &Value) -> Option<Vec<Value>> {
    let scalar = |v: &Value| !(v.is_object() || v.is_array() || v.is_null());
    if let Some(value) = property.get("const") {
        return scalar(value).then(|| vec![value.clone()]);
    }
    let values = property.get("enum")?.as_array()?;
    (!values.is_empty() && values.iter().all(scalar)).then(|| values.clone())
}

fn is_open_branch(branch: &Value, key: &str) -> bool {
    branch.get("x-symgen-unknown").and_then(Value::as_bool) == Some(true)
        || branch
            .get("properties")
            .and_then(|p| p.get(key))
            .and_then(|p| p.get("not"))
            .is_some_and(|not| not.get("enum").is_some() || not.get("const").is_some())
}

/// The discriminator of the alternatives `branches` (the array of a `oneOf`/`anyOf`),
/// when one property tells them apart: every alternative pins it to distinct string
/// values, except at most an open alternative.
pub fn discriminator(document: &Value, branches: &[Value]) -> Option<Discriminator> {
    let resolved: Vec<&Value> = branches.iter().map(|b| resolve(document, b)).collect();
    let first_known = resolved
        .iter()
        .find(|b| b.get("x-symgen-unknown").and_then(Value::as_bool) != Some(true))?;
    let candidates = first_known.get("properties")?.as_object()?;
    'keys: for (key, property) in candidates {
        if pinned_values(property).is_none() {
            continue;
        }
        let mut tags = Vec::with_capacity(resolved.len());
        let mut seen: Vec<Value> = Vec::new();
        for branch in &resolved {
            let pinned = branch
                .get("properties")
                .and_then(|p| p.get(key))
                .and_then(pinned_values);
            match pinned {
                Some(values) => {
                    if values.iter().any(|v| seen.contains(v)) {
                        continue 'keys;
                    }
                    seen.extend(values.iter().cloned());
                    tags.push(BranchTag::Known(values));
                }
                None if is_open_branch(branch, key) && !tags.contains(&BranchTag::Unknown) => {
                    tags.push(BranchTag::Unknown)
                }
                None => continue 'keys,
            }
        }
        let known = tags
            .iter()
            .filter(|t| matches!(t, BranchTag::Known(_)))
            .count();
        if known >= 2 || (known == 1 && tags.len() == 2) {
            return Some(Discriminator {
                key: key.clone(),
                branches: tags,
            });
        }
    }
    None
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
