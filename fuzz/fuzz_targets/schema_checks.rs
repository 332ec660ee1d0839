//! The checks compiled from a user's schema (src/validate/checks/) on arbitrary schemas:
//! compiling never panics, and on a fixed set of messages (every JSON type, nested
//! values, a tag-like key) the text path (checks first) gives the verdict of the value
//! path (the `jsonschema` engine alone), and the checks' own answer, where they give
//! one, is the engine's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use symgen::validate::{Outcome, SchemaOptions, Validator};

const MESSAGES: &[&str] = &[
    "null",
    "true",
    "0",
    "-7",
    "2.5",
    "18446744073709551615",
    r#""""#,
    r#""ab""#,
    "[]",
    r#"[1, "a", [null]]"#,
    "{}",
    r#"{"a": 1}"#,
    r#"{"type": "x", "a": [null, {"b": "c"}], "id": "1"}"#,
];

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let Ok(validator) = Validator::from_schema(schema, SchemaOptions::default()) else {
        return;
    };
    let root = validator.root_names().next().expect("a root").to_owned();
    for text in MESSAGES {
        let value: Value = serde_json::from_str(text).expect("a fixed message");
        let engine = validator.validate_value(&value).outcome;
        let through_text = validator.validate_str(text).outcome;
        assert_eq!(through_text, engine, "text vs value on {text}");
        if let Some(accepted) = validator.checks_verdict(&root, text) {
            let first = validator
                .validate_root_value(&root, &value)
                .expect("the first root")
                .outcome;
            assert_eq!(
                accepted,
                first != Outcome::Invalid,
                "compiled checks vs engine on {text} (root {root})"
            );
        }
    }
});
