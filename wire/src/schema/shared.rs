//! Definitions shared between the protocols of one program. Two protocols that use the
//! same Rust type both get its definition from schemars; written out as files, the
//! later protocol (in registration order) does not copy it but `$ref`s the earlier
//! file's definition by that document's `$id`, so every generator renders one type and
//! a peer can pass it between the two protocols.
//!
//! A definition is shared only when it is identical in both documents *and* so is every
//! definition it refers to, transitively: two Rust types that merely share a name stay
//! apart.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::json_pointer;

const DEFS_PREFIX: &str = "#/$defs/";

/// The `$defs` of a document.
fn defs(document: &Value) -> Option<&Map<String, Value>> {
    document.get("$defs").and_then(Value::as_object)
}

/// The definitions a schema refers to with a local `#/$defs/…` reference.
fn local_refs(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object {
                if key == "$ref"
                    && let Some(name) = value.as_str().and_then(|r| r.strip_prefix(DEFS_PREFIX))
                    && !name.contains('/')
                {
                    out.insert(json_pointer::unescape(name).into_owned());
                } else {
                    local_refs(value, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| local_refs(item, out)),
        _ => {}
    }
}

/// The definitions of `later` that are identical in `earlier`, together with every
/// definition they refer to.
fn identical(earlier: &Value, later: &Value) -> BTreeSet<String> {
    let (Some(old), Some(new)) = (defs(earlier), defs(later)) else {
        return BTreeSet::new();
    };
    let mut same: BTreeSet<String> = new
        .iter()
        .filter(|(name, schema)| old.get(*name) == Some(*schema))
        .map(|(name, _)| name.clone())
        .collect();
    loop {
        let broken: Vec<String> = same
            .iter()
            .filter(|name| {
                let mut refs = BTreeSet::new();
                local_refs(&new[name.as_str()], &mut refs);
                refs.iter().any(|r| !same.contains(r))
            })
            .cloned()
            .collect();
        if broken.is_empty() {
            return same;
        }
        for name in broken {
            same.remove(&name);
        }
    }
}

/// Points every local reference to a definition in `owners` at the owner's `$id`.
fn redirect(schema: &mut Value, owners: &BTreeMap<String, String>) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                if key == "$ref"
                    && let Some(name) = value.as_str().and_then(|r| r.strip_prefix(DEFS_PREFIX))
                    && let Some(id) = owners.get(json_pointer::unescape(name).as_ref())
                {
                    *value = Value::String(format!("{id}{DEFS_PREFIX}{name}"));
                } else {
                    redirect(value, owners);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| redirect(item, owners)),
        _ => {}
    }
}

/// Links `documents` (in registration order, each as [`super::document`] built it): a
/// definition an earlier document also has is removed from the later one, whose
/// references now name the earlier document's `$id`.
pub(super) fn link(documents: &mut [Value]) {
    let originals: Vec<Value> = documents.to_vec();
    for (later, document) in documents.iter_mut().enumerate() {
        // Each shared definition's owner: the first document that has it identically.
        let mut owners: BTreeMap<String, String> = BTreeMap::new();
        for earlier in &originals[..later] {
            let Some(id) = earlier.get("$id").and_then(Value::as_str) else {
                continue;
            };
            for name in identical(earlier, &originals[later]) {
                owners.entry(name).or_insert_with(|| id.to_owned());
            }
        }
        if owners.is_empty() {
            continue;
        }
        if let Some(defs) = document.get_mut("$defs").and_then(Value::as_object_mut) {
            defs.retain(|name, _| !owners.contains_key(name));
        }
        redirect(document, &owners);
    }
}
