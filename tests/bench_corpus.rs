//! The benchmark corpora are what the benchmarks claim: deterministic, realistic in size
//! and type mix, and valid for both serde (the Rust types) and the committed schemas.

#[path = "../benches/support/mod.rs"]
mod support;

use std::collections::BTreeSet;
use std::path::Path;

use support::approaches::prepare;
use support::corpus::{self, PROTOCOLS};

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
    let p1 = symgen::protocols::find("symposium").expect("P1 is registered");
    let known: BTreeSet<&str> = p1.roots[0].variants().iter().map(|v| v.tag).collect();
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
        let protocol = symgen::protocols::find(id).expect("registered");
        for message in &corpus.messages {
            let root = protocol
                .root(message.root)
                .unwrap_or_else(|| panic!("{id}: no root {}", message.root));
            let decoded = root
                .roundtrip(&message.text)
                .unwrap_or_else(|e| panic!("{id}: serde rejects {}: {e}", message.text));
            assert!(!decoded.unknown, "{id}: unknown tag in {}", message.text);
        }
        for key in ["typed", "jsonschema"] {
            let mut pass = prepare(key, &corpus, &schema_dir).expect("prepares");
            assert_eq!(
                pass(),
                corpus.messages.len(),
                "{id}: {key} rejects messages"
            );
        }
    }
}
