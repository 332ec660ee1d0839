//! One verdict for a message whose values JSON's grammar allows but a decoder may refuse
//! (`1e400`, lone surrogate escapes, nesting past the limit): serde's typed decode, the validator's typed fast
//! path and the schema walk alone (`Validator::schema_only`, what `validate --schema`
//! does) must agree, wherever the fault sits.
//!
//! Every valid and unknown conformance vector is rewritten at every location: each value
//! replaced by a fault, each object given an unknown key holding one (or holding a
//! container with one inside), each object given a key that is a fault, each key of
//! each object given twice, and each integer written as a float (`7.0`, `7e0`, `-0`) or
//! beyond 64 bits. serde skips the value of a key its type does not declare
//! and decodes everything else, and refuses a declared key twice; the validators must
//! say what serde says (src/validate/faults.rs).

use crate::support::vectors::load;
use crate::support::verdict::serde_verdict;

use serde_json::{Map, Value};
use symgen::validate::{MAX_DEPTH, Outcome, Validator};
use symgen_protocols::all as registry;

/// Stands for a fault in a message until it is written as text.
const MARK: &str = "\u{1}fault\u{1}";

/// Stands for a key given a second time until the message is written as text.
const TWICE: &str = "\u{1}twice\u{1}";

/// The faults, as JSON text: beyond f64, lone surrogates, nesting past the limit
/// wherever it is put.
fn faults() -> Vec<String> {
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    ["1e400", "-1e400", r#""\ud800""#, r#""a\udc00b""#, &deep]
        .map(str::to_owned)
        .into()
}

/// The message with each mark replaced by `fault`.
fn text_with(message: &Value, fault: &str) -> String {
    let marked = serde_json::to_string(MARK).unwrap();
    serde_json::to_string(message)
        .unwrap()
        .replace(&marked, fault)
}

/// Every JSON Pointer into `value` (the root included).
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(child, symgen::json_pointer::child(&at, key), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// The variants of `message` with a fault placed at or in `pointer`, as texts.
fn variants(message: &Value, pointer: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut replaced = message.clone();
    *replaced.pointer_mut(pointer).unwrap() = Value::String(MARK.into());
    texts.extend(faults().iter().map(|fault| text_with(&replaced, fault)));
    // Integral numbers serde_json reads as floats: a Rust integer refuses them.
    if let Some(number) = message.pointer(pointer).and_then(Value::as_i64) {
        let mut floats = vec![format!("{number}.0"), format!("{number}e0")];
        if number == 0 {
            floats.push("-0".into());
        }
        floats.push(
            if number < 0 {
                "-9223372036854775809"
            } else {
                "18446744073709551616"
            }
            .into(),
        );
        texts.extend(floats.iter().map(|float| text_with(&replaced, float)));
    }
    if message.pointer(pointer).is_some_and(Value::is_object) {
        let inside = |value: Value| {
            let mut added = message.clone();
            let object = added.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
            object.insert("zzUnknown".into(), value);
            added
        };
        for fault in &faults() {
            texts.push(text_with(&inside(Value::String(MARK.into())), fault));
            let nested = Value::Object(Map::from_iter([(
                "list".to_owned(),
                Value::Array(vec![Value::from(1), Value::String(MARK.into())]),
            )]));
            texts.push(text_with(&inside(nested), fault));
        }
        let keyed = text_with(&inside(Value::String(MARK.into())), "0");
        texts.push(keyed.replace(r#""zzUnknown""#, r#""zz\ud800Unknown""#));
        // Each key given twice (the second time last), an unknown one included.
        let mut keys: Vec<String> = message
            .pointer(pointer)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.push("zzUnknown".into());
        for key in keys {
            let mut twice = inside(Value::from(1));
            let object = twice.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
            let value = object[&key].clone();
            object.insert(TWICE.into(), value);
            let quoted = serde_json::to_string(&key).unwrap();
            texts.push(
                text_with(&twice, "0").replace(&serde_json::to_string(TWICE).unwrap(), &quoted),
            );
        }
    }
    texts
}

#[test]
fn typed_path_schema_path_and_serde_agree_on_faults() {
    let (mut decoded, mut skipped) = (0, 0);
    let mut disagreements = Vec::new();
    for protocol in registry() {
        let typed = Validator::for_protocol(&protocol).unwrap();
        let schema = Validator::for_protocol(&protocol).unwrap().schema_only();
        for kind in ["valid", "unknown"] {
            for vector in load(protocol.id(), kind) {
                let mut at = Vec::new();
                pointers(&vector.message, String::new(), &mut at);
                for pointer in &at {
                    for text in variants(&vector.message, pointer) {
                        let serde = serde_verdict(&protocol, &vector.root, &text).unwrap();
                        for (mode, validator) in [("typed", &typed), ("schema-only", &schema)] {
                            let report = validator.validate_root_str(&vector.root, &text).unwrap();
                            if report.outcome != serde {
                                disagreements.push(format!(
                                    "{}/{} ({mode}) at {pointer:?}: {:?}, serde says {serde:?}\n  {text}\n  {:?}",
                                    protocol.id(),
                                    vector.name,
                                    report.outcome,
                                    report.violations.first().map(|v| (&v.pointer, &v.message))
                                ));
                            }
                        }
                        // Against every root, the schema walk combines the roots'
                        // verdicts as the typed path combines serde's.
                        let every = [&typed, &schema].map(|v| v.validate_str(&text).outcome);
                        if every[0] != every[1] {
                            disagreements.push(format!(
                                "{}/{} (every root): typed {:?}, schema-only {:?}\n  {text}",
                                protocol.id(),
                                vector.name,
                                every[0],
                                every[1]
                            ));
                        }
                        match serde {
                            Outcome::Invalid => decoded += 1,
                            _ => skipped += 1,
                        }
                    }
                }
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, the first ones:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(12)].join("\n")
    );
    // Both verdicts occur: faults where serde decodes them and where it skips them.
    assert!(
        decoded > 1000 && skipped > 1000,
        "{decoded} decoded, {skipped} skipped"
    );
}

/// Found by the `validate` fuzz target: a message with a tag no root knows and a key given
/// twice that only a root without a tag declares. serde refuses that root (`duplicate
/// key`) and takes the message as unknown by the union; the schema walk accepted the
/// tagless root's stand-ins (the last of the two values) and then reported the key,
/// so `--schema` said invalid where `--protocol` said unknown.
#[test]
fn a_key_twice_rejects_the_root_that_declares_it_before_the_roots_are_combined() {
    let protocol = registry()
        .into_iter()
        .find(|p| p.id() == "dialectic")
        .unwrap();
    let typed = Validator::for_protocol(&protocol).unwrap();
    let schema = Validator::for_protocol(&protocol).unwrap().schema_only();
    let twice = r#"{"type":"peplace","id":"x","success":false,"error":"a","error":"b"}"#;
    let once = r#"{"type":"peplace","id":"x","success":false,"error":"b"}"#;
    for (text, outcome, root) in [
        (twice, Outcome::Unknown, "DialecticRequest"),
        (once, Outcome::Valid, "IPCResponse"),
    ] {
        for validator in [&typed, &schema] {
            let report = validator.validate_str(text);
            assert_eq!(
                (report.outcome, report.root.as_deref()),
                (outcome, Some(root)),
                "{text}: {report:?}"
            );
        }
    }
    // Asked as that root alone, both say why.
    for validator in [&typed, &schema] {
        let report = validator.validate_root_str("IPCResponse", twice).unwrap();
        assert_eq!(report.outcome, Outcome::Invalid);
        assert_eq!(report.violations[0].pointer, "/error", "{report:?}");
    }
}

/// Found by the generated vectors (`symgen vectors`): a schema read from its file whose
/// Rust integers sit in another document (P2's `sender` is P1's `MessageSender`) refused
/// no integral float there, and reply data checked by the schema alone took `1.0` for
/// a `u32`; serde refuses both.
#[test]
fn integral_floats_are_refused_through_other_documents_and_in_reply_data() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let p2 = Validator::from_schema_file(&dir.join("taskspace-state.schema.json")).unwrap();
    let message = r#"{"type":"taskspace_state","id":"x","sender":{"workingDirectory":"/","shellPid":1.0},"payload":{"project_path":"a","taskspace_uuid":"b"}}"#;
    let report = p2.validate_str(message);
    assert_eq!(report.outcome, Outcome::Invalid, "{report:?}");
    assert_eq!(report.violations[0].pointer, "/sender/shellPid");
    let integral = message.replace("1.0", "1");
    assert_eq!(p2.validate_str(&integral).outcome, Outcome::Valid);

    let p1 = Validator::from_schema_file(&dir.join("symposium.schema.json")).unwrap();
    let reply = r#"{"type":"response","id":"x","sender":{"workingDirectory":"/"},"payload":{"success":true,"data":{"startLine":1.0}}}"#;
    let report = p1.reply_to("get_selection").unwrap().validate_str(reply);
    assert_eq!(report.outcome, Outcome::Invalid, "{report:?}");
    assert_eq!(report.violations[0].pointer, "/payload/data/startLine");
    let report = p1
        .reply_to("get_selection")
        .unwrap()
        .validate_str(&reply.replace("1.0", "1"));
    assert_eq!(report.outcome, Outcome::Valid, "{report:?}");
}

/// Found by the `validate` fuzz target once it judged inputs as a `--root` beyond the
/// roots: with a root that has no Rust types (a definition, `#`), a message no typed
/// root was asked about (the empty text) indexed an empty list of serde's verdicts.
#[test]
fn a_root_without_rust_types_judges_any_text_without_a_panic() {
    for protocol in registry() {
        for selector in ["#", "FileChange", "#/$defs/FileChange"] {
            let Ok(validator) = Validator::for_protocol(&protocol)
                .unwrap()
                .with_root(selector)
            else {
                continue;
            };
            for text in ["", " ", "{}", "5", "nul", r#"{"type": "x"}"#] {
                let report = validator
                    .validate_root_str(selector, text)
                    .expect("the root was added");
                if text.trim().is_empty() || text == "nul" {
                    assert_eq!(report.outcome, Outcome::Invalid, "{selector} {text:?}");
                }
            }
        }
    }
}

/// A root chosen with `--root` gets its own variants' reply types: the reply lookup
/// reads the root's schema where the root is (a draft-07 `definitions` entry, a
/// `#/…` pointer), not at `/$defs/<the name it was given>`. Before, it fell back to
/// the whole document: no reply, or the document's own alternatives' reply type.
#[test]
fn a_root_given_by_pointer_or_definitions_gets_its_own_reply_types() {
    let variant = |tag: &str, reply: Value| {
        serde_json::json!({"type": "object", "required": ["method"],
            "properties": {"method": {"const": tag}}, "x-symgen-reply": reply})
    };
    let document = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Whole",
        "x-symgen-protocol": {"replyData": "/result"},
        // The document's own alternatives, which a lookup of the wrong schema reads.
        "oneOf": [
            variant("ping", serde_json::json!({"type": "string"})),
            variant("pong", Value::Null)
        ],
        "definitions": {
            "Msg": {"oneOf": [
                variant("pong", Value::Null),
                variant("ping", serde_json::json!({"type": "integer"}))
            ]}
        }
    });
    for selector in ["Msg", "#/definitions/Msg"] {
        let validator = Validator::from_schema(document.clone(), Default::default())
            .unwrap()
            .with_root(selector)
            .unwrap();
        let reply = validator.reply_to("ping").unwrap();
        // Both roots declare `ping`; the document's own root comes first and wins.
        let pong = r#"{"method":"pong","result":"s"}"#;
        assert_eq!(reply.validate_str(pong).outcome, Outcome::Valid);
        let only = Validator::from_schema(
            serde_json::json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "title": "Bag",
                "x-symgen-protocol": {"replyData": "/result"},
                "definitions": document["definitions"].clone()
            }),
            Default::default(),
        )
        .unwrap()
        .with_root(selector)
        .unwrap();
        let reply = only
            .reply_to("ping")
            .unwrap_or_else(|e| panic!("{selector}: {e}"));
        assert_eq!(
            reply.validate_str(r#"{"result":7}"#).outcome,
            Outcome::Valid,
            "{selector}"
        );
        assert_eq!(
            reply.validate_str(r#"{"result":"s"}"#).outcome,
            Outcome::Invalid,
            "{selector}"
        );
    }
}
