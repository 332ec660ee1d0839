//! A field that tells `null` from absent, refused: serde's double-option pattern
//! (`Option<Option<T>>` with `serde_with::rust::double_option`: absent leaves a value
//! unchanged, `null` clears it) decodes `{"f": null}` as "clear" and writes the `null`
//! back, while an absent key stays absent. The schema schemars writes for it is that of
//! an `Option<T>` (the key may be absent or `null`), and every generated language reads
//! `null` in an optional field as absent (R3), so a peer's "clear" would silently become
//! "unchanged". No schema keyword says which fields mean it, so it is found by asking
//! serde: from a message built from each root's schema, each optional field that admits
//! `null` is given `null`, and the message is decoded and encoded again; where serde
//! writes back the `null` and leaves the key out when it is absent, the field is refused
//! with its location.
//!
//! The probe reaches the fields of the objects its message holds: a root's required
//! fields and, one at a time, each optional field given a value, through the first
//! alternative of a union (the one the message is built with). A field only another
//! alternative holds is not asked; the conformance vectors (`symgen vectors`) hold every
//! alternative's `null` to serde's re-encoding.

use serde_json::{Map, Value};

use super::serde_gaps::sample;
use crate::json_pointer;
use crate::protocol::Root;

/// How many decodes the probe makes per root at most.
const MAX_PROBES: usize = 512;

/// An object position of the probe's message: where it is, and the object schemas
/// whose `properties` apply there (its own, then those of the alternative it was built
/// with and of its `allOf` members, the later the more specific).
struct Position {
    /// JSON Pointer in the message.
    at: String,
    /// JSON Pointers of the object schemas in the document.
    schemas: Vec<String>,
}

/// Refuses the first field of `roots` that tells `null` from absent, as (schema
/// pointer, message); `Ok` when serde reads `null` as absent (or refuses it) everywhere
/// it asks.
pub(crate) fn refuse(document: &Value, roots: &[Root]) -> Result<(), (String, String)> {
    let empty = Map::new();
    let defs = document
        .get("$defs")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (index, root) in roots.iter().enumerate() {
        let pointer = format!("/anyOf/{index}");
        let mut probe = Probe {
            document,
            defs,
            root,
            left: MAX_PROBES,
        };
        let Some(message) = probe.build(&pointer, 0) else {
            continue;
        };
        let Some(encoded) = probe.encoded(&message) else {
            continue;
        };
        probe.walk(message, encoded, &pointer)?;
    }
    Ok(())
}

struct Probe<'a> {
    document: &'a Value,
    defs: &'a Map<String, Value>,
    root: &'a Root,
    left: usize,
}

impl Probe<'_> {
    /// serde's re-encoding of `message`, while the budget lasts.
    fn encoded(&mut self, message: &Value) -> Option<Value> {
        self.left = self.left.checked_sub(1)?;
        let text = serde_json::to_string(message).ok()?;
        self.root.roundtrip(&text).ok().map(|r| r.encoded)
    }

    /// Asks every optional field of every object position of `message`, breadth first.
    /// `encoded` is serde's re-encoding of `message`, kept beside it as the message grows
    /// (every field's question compares against it).
    fn walk(
        &mut self,
        mut message: Value,
        mut encoded: Value,
        root_schema: &str,
    ) -> Result<(), (String, String)> {
        let mut queue = std::collections::VecDeque::new();
        queue.push_back(Position {
            at: String::new(),
            schemas: self.object_schemas(root_schema, 0),
        });
        while let Some(position) = queue.pop_front() {
            if self.left == 0 {
                break;
            }
            for (key, field_schema) in self.fields(&position.schemas) {
                let field_at = json_pointer::child(&position.at, &key);
                let present = json_pointer::get(&message, &field_at).is_some();
                let property = json_pointer::get(self.document, &field_schema);
                if !present && property.is_some_and(|p| self.admits_null(p, 0)) {
                    let mut with_null = message.clone();
                    set(&mut with_null, &position.at, &key, Value::Null);
                    let Some(kept) = self.encoded(&with_null) else {
                        continue;
                    };
                    if json_pointer::get(&kept, &field_at) == Some(&Value::Null)
                        && json_pointer::get(&encoded, &field_at).is_none()
                    {
                        return Err((field_schema, refusal(&key)));
                    }
                }
                // The field with a value, to reach the objects below it.
                let inner = self.object_schemas(&field_schema, 0);
                if inner.is_empty() {
                    continue;
                }
                if !present {
                    let Some(value) = self.build(&field_schema, 0) else {
                        continue;
                    };
                    let mut with_value = message.clone();
                    set(&mut with_value, &position.at, &key, value);
                    let Some(again) = self.encoded(&with_value) else {
                        continue;
                    };
                    message = with_value;
                    encoded = again;
                }
                if json_pointer::get(&message, &field_at).is_some_and(Value::is_object) {
                    queue.push_back(Position {
                        at: field_at,
                        schemas: inner,
                    });
                }
            }
        }
        Ok(())
    }

    /// The properties of the object schemas `schemas`, in order, each with the schema
    /// pointer of its most specific declaration.
    fn fields(&self, schemas: &[String]) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for schema in schemas {
            let properties = format!("{schema}/properties");
            let Some(Value::Object(declared)) = json_pointer::get(self.document, &properties)
            else {
                continue;
            };
            for key in declared.keys() {
                let pointer = json_pointer::child(&properties, key);
                match out.iter_mut().find(|(k, _)| k == key) {
                    Some(field) => field.1 = pointer,
                    None => out.push((key.clone(), pointer)),
                }
            }
        }
        out
    }

    /// A value of the schema at `pointer` that serde may take: an object holds its
    /// required keys (an alternative's spelling of a key over the one beside it).
    fn build(&self, pointer: &str, depth: usize) -> Option<Value> {
        if depth > 16 {
            return None;
        }
        let schema = json_pointer::get(self.document, pointer)?;
        let objects = self.object_schemas(pointer, 0);
        if objects.is_empty() {
            return sample(self.defs, schema, 0);
        }
        let fields = self.fields(&objects);
        // The required keys, and those serde requires under one of several names
        // (`x-symgen-required` beside an alias).
        let mut required: Vec<&str> = Vec::new();
        for object in &objects {
            let listed = json_pointer::get(self.document, &format!("{object}/required"));
            required.extend(
                listed
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str),
            );
        }
        for (key, field) in &fields {
            let flagged = json_pointer::get(self.document, &format!("{field}/x-symgen-required"));
            if flagged == Some(&Value::Bool(true)) {
                required.push(key);
            }
        }
        let mut out = Map::new();
        for key in required {
            if out.contains_key(key) {
                continue;
            }
            let value = match fields.iter().find(|(k, _)| k == key) {
                Some((_, field)) => self.build(field, depth + 1)?,
                None => Value::Null,
            };
            out.insert(key.to_owned(), value);
        }
        Some(Value::Object(out))
    }

    /// The object schemas (those with `properties` or `type: object`) that `pointer`'s
    /// schema is, through `$ref`s, `allOf` and the first alternative a value can be
    /// built for; none when it is no object.
    fn object_schemas(&self, pointer: &str, depth: usize) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_objects(pointer, depth, &mut out);
        out
    }

    fn collect_objects(&self, pointer: &str, depth: usize, out: &mut Vec<String>) {
        let Some(schema) = json_pointer::get(self.document, pointer).and_then(Value::as_object)
        else {
            return;
        };
        if depth > 16 {
            return;
        }
        // A `$ref` applies beside the keywords around it (2020-12), the more specific.
        let referenced = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|target| target.strip_prefix('#'));
        if schema.contains_key("const") || schema.contains_key("enum") {
            return;
        }
        let object = schema.contains_key("properties")
            || schema.get("type").and_then(Value::as_str) == Some("object");
        if object {
            out.push(pointer.to_owned());
        }
        if let Some(target) = referenced {
            self.collect_objects(target, depth + 1, out);
        }
        if let Some(members) = schema.get("allOf").and_then(Value::as_array) {
            for index in 0..members.len() {
                self.collect_objects(&format!("{pointer}/allOf/{index}"), depth + 1, out);
            }
        }
        for key in ["oneOf", "anyOf"] {
            let Some(alternatives) = schema.get(key).and_then(Value::as_array) else {
                continue;
            };
            // The first alternative that is an object (not the open case of unknown
            // tags) is the one a message is built with.
            for (index, alternative) in alternatives.iter().enumerate() {
                if alternative.get("x-symgen-unknown").is_some() {
                    continue;
                }
                let mut inner = Vec::new();
                self.collect_objects(&format!("{pointer}/{key}/{index}"), depth + 1, &mut inner);
                if !inner.is_empty() {
                    out.extend(inner);
                    break;
                }
            }
        }
    }

    /// Whether the schema takes `null`.
    fn admits_null(&self, schema: &Value, depth: usize) -> bool {
        let Some(schema) = schema.as_object().filter(|_| depth <= 16) else {
            return schema == &Value::Bool(true);
        };
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let resolved = target
                .strip_prefix('#')
                .and_then(|p| json_pointer::get(self.document, p));
            return resolved.is_some_and(|s| self.admits_null(s, depth + 1));
        }
        match schema.get("type") {
            Some(Value::String(kind)) => return kind == "null",
            Some(Value::Array(kinds)) => return kinds.iter().any(|k| k == "null"),
            _ => {}
        }
        if let Some(value) = schema.get("const") {
            return value.is_null();
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return values.iter().any(Value::is_null);
        }
        ["oneOf", "anyOf"].iter().any(|key| {
            schema
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|alts| alts.iter().any(|alt| self.admits_null(alt, depth + 1)))
        })
    }
}

/// `message` with the object at `at` holding `key: value`.
fn set(message: &mut Value, at: &str, key: &str, value: Value) {
    let target = if at.is_empty() {
        Some(message)
    } else {
        message.pointer_mut(at)
    };
    if let Some(Value::Object(object)) = target {
        object.insert(key.to_owned(), value);
    }
}

fn refusal(key: &str) -> String {
    format!(
        "serde tells `null` from absent in the field `{key}`: it writes back the `null` it \
         reads and leaves the key out when it is absent (serde's double-option pattern, \
         `Option<Option<T>>` with `serde_with::rust::double_option`, or a type of that \
         kind), while the schema can only say that the key may be absent or `null`, and \
         every generated language reads both as no value. Say \"clear\" with a value of its \
         own (an enum such as `{{\"set\": …}}` / `\"clear\"`, or a separate field), or read \
         `null` as absent (`Option<T>`)"
    )
}
