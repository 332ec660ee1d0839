//! The benchmark inputs are what the benchmarks claim. The validation corpora are
//! deterministic, realistic in size and type mix, and valid for both serde (the Rust
//! types) and the committed schemas; the synthetic codegen schema is a valid draft
//! 2020-12 document whose thousands of types are all reachable from its root.

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;

use serde_json::Value;

use crate::support::bench::approaches::prepare;
use crate::support::bench::corpus::{self, PROTOCOLS};
use crate::support::bench::synthetic_schema::synthetic_schema;

#[test]
fn corpora_are_deterministic() {
    for id in PROTOCOLS {
        let a = corpus::generate(id, 300).expect("known protocol");
        let b = corpus::generate(id, 300).expect("known protocol");
        let a: Vec<&str> = a.messages.iter().map(|m| m.text.as_str()).collect();
        let b: Vec<&str> = b.messages.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(a, b, "{id}: two generations differ");
    }
}

#[test]
fn p1_corpus_mixes_every_message_type_at_realistic_size() {
    let corpus = corpus::generate("symposium", 10_000).expect("P1");
    let seen: BTreeSet<&str> = corpus.messages.iter().map(|m| m.tag.as_str()).collect();
    let p1 = symgen_protocols::find("symposium").expect("P1 is registered");
    let known: BTreeSet<&str> = p1.roots()[0].variants().iter().map(|v| v.tag).collect();
    assert_eq!(
        seen, known,
        "the P1 corpus must contain exactly the 24 known types"
    );
    assert_eq!(known.len(), 24);
    let average = corpus.average_bytes();
    assert!(
        (250..=350).contains(&average),
        "P1 messages average {average} bytes; the benchmark promises 250..=350"
    );
}

#[test]
fn every_corpus_message_is_valid_for_serde_and_for_the_committed_schema() {
    let schema_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    for id in PROTOCOLS {
        let corpus = corpus::generate(id, 1_500).expect("known protocol");
        let protocol = symgen_protocols::find(id).expect("registered");
        for message in &corpus.messages {
            let root = protocol
                .root_named(message.root)
                .unwrap_or_else(|| panic!("{id}: no root {}", message.root));
            let decoded = root
                .roundtrip(&message.text)
                .unwrap_or_else(|e| panic!("{id}: serde rejects {}: {e}", message.text));
            assert!(!decoded.unknown, "{id}: unknown tag in {}", message.text);
        }
        for key in ["typed", "jsonschema", "symgen", "symgen-root"] {
            let mut pass = prepare(key, &corpus, &schema_dir).expect("prepares");
            assert_eq!(
                pass(),
                corpus.messages.len(),
                "{id}: {key} rejects messages"
            );
        }
    }
}

fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                out.push(target.clone());
            }
            map.values().for_each(|v| refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[test]
fn synthetic_schema_is_large_valid_deterministic_and_fully_reachable() {
    let schema = synthetic_schema(2_400, 7);
    assert_eq!(schema, synthetic_schema(2_400, 7), "not deterministic");
    assert!(
        jsonschema::draft202012::meta::is_valid(&schema),
        "not a valid 2020-12 schema"
    );
    let defs = schema["$defs"].as_object().expect("$defs");
    assert_eq!(defs.len(), 2_400);

    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::new();
    let mut root_refs = Vec::new();
    refs(&schema["anyOf"], &mut root_refs);
    queue.extend(root_refs);
    while let Some(target) = queue.pop_front() {
        let name = target
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unexpected $ref {target}"));
        let def = defs
            .get(name)
            .unwrap_or_else(|| panic!("dangling $ref {target}"));
        if seen.insert(name.to_string()) {
            let mut next = Vec::new();
            refs(def, &mut next);
            queue.extend(next);
        }
    }
    assert_eq!(
        seen.len(),
        defs.len(),
        "every type is reachable from the root"
    );

    let text = schema.to_string();
    for shape in [
        "\"oneOf\"",
        "\"enum\"",
        "\"additionalProperties\":{\"$ref\"",
        "\"items\":{\"$ref\"",
        "{\"type\":\"null\"}",
    ] {
        assert!(text.contains(shape), "the synthetic schema lacks {shape}");
    }
}

/// Each committed schema, used as a user's schema (what `validate --schema` and the
/// `symgen-schema` benchmark row do), is judged by the checks compiled from it without
/// the general engine: every corpus message gets a verdict from them on every root,
/// and some root accepts it. A keyword the checks stop covering, or a `$ref` they stop
/// following, fails here before it shows in the benchmark.
#[test]
fn compiled_checks_judge_every_corpus_message_of_each_schema() {
    for id in PROTOCOLS {
        let corpus = corpus::generate(id, 300).expect("known protocol");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schema/{id}.schema.json"));
        let validator = symgen::validate::Validator::from_schema_file(&path).unwrap();
        let roots: Vec<String> = validator.root_names().map(str::to_owned).collect();
        for message in &corpus.messages {
            let verdicts: Vec<Option<bool>> = roots
                .iter()
                .map(|root| validator.checks_verdict(root, &message.text))
                .collect();
            assert!(
                verdicts.iter().all(Option::is_some) && verdicts.contains(&Some(true)),
                "{id}: {verdicts:?} on {}",
                message.text
            );
        }
    }
}
