//! The checks compiled from a user's schema (src/validate/checks/) give the general
//! engine's verdict on schemas symgen did not write: the real-world corpus
//! (tests/fixtures/real: SchemaStore schemas, draft-07 and 2020-12, and the MCP types)
//! with every published instance (valid, invalid, unknown) and mutations of each (a
//! member removed, a member's value swapped for another JSON type, one level down too).
//! Wherever the checks answer on their own (`Validator::checks_verdict`), their answer
//! must be the one `validate_root_value` gets from the `jsonschema` crate.

use std::path::Path;

use serde_json::Value;
use symgen::validate::{Outcome, Validator};

/// Values of every JSON type, swapped in for a member.
fn others() -> [Value; 6] {
    [
        Value::from(7),
        Value::from("x"),
        Value::Null,
        Value::Bool(true),
        Value::Array(Vec::new()),
        Value::Object(Default::default()),
    ]
}

/// The message and mutations of it: each of its first members removed or replaced by a
/// value of each JSON type, the same one level down, and an array's first item replaced.
fn variants(message: &Value) -> Vec<Value> {
    let mut out = vec![message.clone()];
    out.extend(mutations(message, 8, &others(), true));
    out
}

/// Each of the first `keys` members of an object removed or swapped for each of
/// `swaps` (with `nested`, then each member's own mutations, 4 members and 3 swaps);
/// an array's first item swapped for each of `swaps`.
fn mutations(value: &Value, keys: usize, swaps: &[Value], nested: bool) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Object(map) => {
            for key in map.keys().take(keys) {
                let mut removed = map.clone();
                removed.shift_remove(key);
                out.push(Value::Object(removed));
                for other in swaps {
                    let mut swapped = map.clone();
                    swapped.insert(key.clone(), other.clone());
                    out.push(Value::Object(swapped));
                }
                if nested {
                    for inner in mutations(&map[key], 4, &swaps[..3], false) {
                        let mut with = map.clone();
                        with.insert(key.clone(), inner);
                        out.push(Value::Object(with));
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for other in swaps {
                let mut swapped = items.clone();
                swapped[0] = other.clone();
                out.push(Value::Array(swapped));
            }
        }
        _ => {}
    }
    out
}

#[test]
fn compiled_checks_agree_with_the_engine_on_real_world_schemas() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real");
    let mut files: Vec<_> = std::fs::read_dir(corpus.join("schemas"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut judged, mut unsure, mut rejected) = (0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let mut validator = Validator::from_schema_file(file)
            .unwrap_or_else(|err| panic!("{}: {err}", file.display()));
        for kind in ["valid", "invalid", "unknown"] {
            let path = corpus.join(format!("vectors/{stem}/{kind}.json"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let vectors: Vec<Value> = serde_json::from_str(&text).unwrap();
            for vector in vectors {
                // The vector names the root as the generated types do: a definition, or
                // the type named after the document's title (its only root).
                let named = vector["root"].as_str().unwrap();
                let root = if validator.definitions().iter().any(|d| d == named) {
                    if !validator.root_names().any(|name| name == named) {
                        validator = validator
                            .with_root(named)
                            .unwrap_or_else(|err| panic!("{stem}: root {named}: {err}"));
                    }
                    named.to_owned()
                } else {
                    validator.root_names().next().unwrap().to_owned()
                };
                for message in variants(&vector["message"]) {
                    let text = serde_json::to_string(&message).unwrap();
                    let Some(checks) = validator.checks_verdict(&root, &text) else {
                        unsure += 1;
                        continue;
                    };
                    judged += 1;
                    let engine = validator
                        .validate_root_value(&root, &message)
                        .unwrap()
                        .outcome
                        != Outcome::Invalid;
                    rejected += usize::from(!engine);
                    if checks != engine {
                        disagreements.push(format!(
                            "{stem} {root}: the checks say {checks}, the engine {engine}: {text}"
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "real-world corpus: {} schemas; {judged} messages judged by the compiled checks ({rejected} rejected), {unsure} left to the engine",
        files.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    // The checks must answer for most messages (the rest: draft-04 schemas, which they do
    // not read, and nodes whose engine of their own cannot be built), and the
    // mutations must break many.
    assert!(judged > 10 * unsure, "{judged} judged, {unsure} unsure");
    assert!(
        rejected * 5 > judged,
        "only {rejected} of {judged} rejected"
    );
}
