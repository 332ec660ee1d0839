//! Conformance vectors against the Rust types (serde's verdict): every valid vector
//! round-trips, every invalid one is rejected with an error naming the offending field,
//! every unknown one decodes to the unknown case and re-encodes unchanged.

use crate::support::vectors;

use serde_json::Value;
use symgen::Protocol;
use symgen_protocols::all as registry;
use vectors::Vector;

const FAULTS: &[&str] = &[
    "missing_required",
    "wrong_type",
    "out_of_range",
    "unknown_enum_value",
    "wrong_const",
    "constraint",
];

fn load(protocol: &Protocol, kind: &str) -> Vec<Vector> {
    vectors::load(protocol.id(), kind)
}

/// Removes every object key whose value is `null`, recursively (R3: null = absent).
fn drop_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), drop_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(drop_nulls).collect()),
        other => other.clone(),
    }
}

fn tag_key(protocol: &Protocol, root: &str) -> Option<String> {
    let doc = symgen::schema::document(protocol).unwrap();
    let def = &doc["$defs"][root];
    def["x-symgen-envelope"]["tag"]
        .as_str()
        .or_else(|| def["x-symgen-union"]["tag"].as_str())
        .map(str::to_owned)
}

/// Whether `tag` is a variant of an internally tagged union (P4) whose payload declares no
/// fields: such a message is the tag plus ignored keys (R2), so no message carrying that
/// tag can be invalid, and the coverage test cannot ask for an invalid vector.
fn is_fieldless_inline(protocol: &Protocol, root: &str, tag: &str) -> bool {
    let doc = symgen::schema::document(protocol).unwrap();
    let def = &doc["$defs"][root];
    let Some(tag_key) = def["x-symgen-union"]["tag"].as_str() else {
        return false;
    };
    let variants = def["oneOf"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let Some(variant) = variants
        .iter()
        .find(|v| v["properties"][tag_key]["const"] == tag)
    else {
        return false;
    };
    let payload = match variant["$ref"].as_str() {
        Some(reference) => &doc["$defs"][reference.trim_start_matches("#/$defs/")],
        None => variant,
    };
    payload["required"].as_array().is_none_or(Vec::is_empty)
        && payload["properties"]
            .as_object()
            .is_none_or(|p| p.keys().all(|k| k == tag_key))
}

fn reply_data<'a>(protocol: &Protocol, message: &'a Value) -> Option<&'a Value> {
    message.pointer(protocol.reply_data()?)
}

#[test]
fn valid_vectors_round_trip() {
    let mut checked = 0;
    for protocol in registry() {
        for vector in load(&protocol, "valid") {
            let ctx = format!("{}/valid {}", protocol.id(), vector.name);
            let root = protocol
                .root_named(&vector.root)
                .unwrap_or_else(|| panic!("{ctx}: unknown root {}", vector.root));
            let text = vector.wire();
            let decoded = root
                .roundtrip(&text)
                .unwrap_or_else(|err| panic!("{ctx}: rejected: {err}"));
            assert!(!decoded.unknown, "{ctx}: decoded as unknown");
            let mut encoded = decoded.encoded;
            if let Some(tag) = &vector.reply_to {
                // The envelope carries reply data untyped; a client decodes it as the
                // request's reply type (R8), so the typed re-encoding is what must match
                // (input aliases and unknown keys in it are canonicalized). `null` data is
                // absent (R3).
                let data = reply_data(&protocol, &vector.message).filter(|d| !d.is_null());
                if let Some(data) = data {
                    let typed = protocol
                        .reply_roundtrip(tag, data)
                        .unwrap_or_else(|| panic!("{ctx}: {tag} has no typed reply"))
                        .unwrap_or_else(|err| panic!("{ctx}: reply rejected: {err}"));
                    let pointer = protocol.reply_data().unwrap_or_default();
                    *encoded
                        .pointer_mut(pointer)
                        .unwrap_or_else(|| panic!("{ctx}: reply data lost on re-encoding")) = typed;
                }
            }
            // `canonical` is exactly what an encoder emits (it may keep a meaningful
            // `null`, such as a JSON-RPC parse error's `id`); without it, the input
            // minus its `null`-valued keys (R3).
            let expected = match &vector.canonical {
                Some(canonical) => canonical.clone(),
                None => drop_nulls(&vector.message),
            };
            assert_eq!(encoded, expected, "{ctx}: re-encoding differs");
            assert!(
                vector.fault.is_none() && vector.why.is_none(),
                "{ctx}: fault on a valid vector"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no valid vectors found");
}

/// The last pointer segment that names a field (array indices skipped).
fn field_name(pointer: &str) -> &str {
    pointer
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or("")
}

#[test]
fn invalid_vectors_are_rejected_naming_the_field() {
    let mut checked = 0;
    for protocol in registry() {
        for vector in load(&protocol, "invalid") {
            let ctx = format!("{}/invalid {}", protocol.id(), vector.name);
            let fault = vector
                .fault
                .as_deref()
                .unwrap_or_else(|| panic!("{ctx}: no fault"));
            assert!(FAULTS.contains(&fault), "{ctx}: unknown fault {fault}");
            assert!(
                vector.why.as_deref().is_some_and(|w| !w.is_empty()),
                "{ctx}: no why"
            );
            let pointer = vector
                .pointer
                .as_deref()
                .unwrap_or_else(|| panic!("{ctx}: no pointer"));
            let root = protocol
                .root_named(&vector.root)
                .unwrap_or_else(|| panic!("{ctx}: unknown root {}", vector.root));
            let text = vector.wire();
            let error = match (root.roundtrip(&text), &vector.reply_to) {
                (Err(err), _) => err,
                (Ok(_), Some(tag)) => {
                    let data = reply_data(&protocol, &vector.message)
                        .unwrap_or_else(|| panic!("{ctx}: no reply data"));
                    match protocol.reply_roundtrip(tag, data) {
                        Some(Err(err)) => err,
                        other => panic!("{ctx}: reply accepted: {other:?}"),
                    }
                }
                (Ok(decoded), None) => panic!("{ctx}: accepted as {}", decoded.encoded),
            };
            let field = field_name(pointer);
            assert!(
                error.contains(field),
                "{ctx}: error does not name `{field}`: {error}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no invalid vectors found");
}

#[test]
fn unknown_vectors_decode_to_unknown_and_re_encode_unchanged() {
    let mut checked = 0;
    for protocol in registry() {
        for vector in load(&protocol, "unknown") {
            let ctx = format!("{}/unknown {}", protocol.id(), vector.name);
            let root = protocol.root_named(&vector.root).expect("known root");
            let text = vector.wire();
            let decoded = root
                .roundtrip(&text)
                .unwrap_or_else(|err| panic!("{ctx}: rejected: {err}"));
            assert!(decoded.unknown, "{ctx}: not decoded as unknown");
            assert_eq!(
                decoded.encoded, vector.message,
                "{ctx}: not re-encoded unchanged"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no unknown vectors found");
}

#[test]
fn every_message_type_has_valid_and_invalid_vectors() {
    let required_faults = [
        "missing_required",
        "wrong_type",
        "out_of_range",
        "unknown_enum_value",
    ];
    for protocol in registry() {
        let valid = load(&protocol, "valid");
        let invalid = load(&protocol, "invalid");
        for root in protocol.roots() {
            let tag_key = tag_key(&protocol, root.name());
            let tags_of = |vectors: &[Vector]| -> Vec<String> {
                vectors
                    .iter()
                    .filter(|v| v.root == root.name())
                    .map(|v| match &tag_key {
                        Some(key) => v.message[key.as_str()].as_str().unwrap_or("").to_owned(),
                        None => String::new(),
                    })
                    .collect()
            };
            let (valid_tags, invalid_tags) = (tags_of(&valid), tags_of(&invalid));
            if root.variants().is_empty() {
                assert!(
                    !valid_tags.is_empty(),
                    "{}: {} has no valid vector",
                    protocol.id(),
                    root.name()
                );
                assert!(
                    !invalid_tags.is_empty(),
                    "{}: {} has no invalid vector",
                    protocol.id(),
                    root.name()
                );
            }
            for variant in root.variants() {
                let has = |tags: &[String]| tags.iter().any(|t| t == variant.tag);
                assert!(
                    has(&valid_tags),
                    "{}: {} has no valid vector",
                    protocol.id(),
                    variant.tag
                );
                assert!(
                    has(&invalid_tags) || is_fieldless_inline(&protocol, root.name(), variant.tag),
                    "{}: {} has no invalid vector",
                    protocol.id(),
                    variant.tag
                );
            }
        }
        let doc = symgen::schema::document(&protocol).unwrap();
        let has_ranged_integers = doc.to_string().contains("\"maximum\"");
        let has_string_enums = doc["$defs"].as_object().unwrap().values().any(|def| {
            def["type"] == "string" && (def.get("enum").is_some() || def.get("oneOf").is_some())
        });
        for fault in required_faults {
            // A protocol without integers (or enums) cannot have that fault.
            if (fault == "out_of_range" && !has_ranged_integers)
                || (fault == "unknown_enum_value" && !has_string_enums)
            {
                continue;
            }
            assert!(
                invalid.iter().any(|v| v.fault.as_deref() == Some(fault)),
                "{}: no invalid vector with fault {fault}",
                protocol.id()
            );
        }
    }
}
