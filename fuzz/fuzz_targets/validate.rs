//! The validator on arbitrary bytes, for every built-in protocol: no panic, and one
//! verdict: the typed fast path, the schema walk alone (what `validate --schema` does),
//! the checks compiled from the schema on their own (where they answer) and serde's
//! typed decode of each root must agree, and each root's quick decode (`Root::verdict`)
//! must give serde_json's verdict (`Root::check`). Each input is also judged as one
//! `--root` taken from outside the protocol's roots (a definition by name, by `#/$defs/…`,
//! or `#`), chosen by the input's length, on the typed validator and on the schema walk
//! alone: the two must agree.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use symgen::validate::Validator;

struct Pair {
    protocol: symgen::Protocol,
    typed: Validator,
    schema: Validator,
    /// `--root` selectors beyond the roots: (selector, typed, schema alone).
    rooted: Vec<(String, Validator, Validator)>,
}

static PAIRS: LazyLock<Vec<Pair>> = LazyLock::new(|| {
    symgen_protocols::all()
        .into_iter()
        .map(|protocol| {
            let typed = Validator::for_protocol(&protocol).expect("built-in protocol");
            let mut selectors = vec!["#".to_owned()];
            for (i, name) in typed.definitions().into_iter().enumerate() {
                // Every definition by name; every third one by pointer too.
                if i % 3 == 0 {
                    selectors.push(format!("#/$defs/{name}"));
                }
                selectors.push(name);
            }
            let rooted = selectors
                .into_iter()
                .filter_map(|selector| {
                    let typed = Validator::for_protocol(&protocol)
                        .ok()?
                        .with_root(&selector)
                        .ok()?;
                    let schema = Validator::for_protocol(&protocol)
                        .ok()?
                        .schema_only()
                        .with_root(&selector)
                        .ok()?;
                    Some((selector, typed, schema))
                })
                .collect();
            Pair {
                schema: Validator::for_protocol(&protocol)
                    .expect("built-in protocol")
                    .schema_only(),
                typed,
                rooted,
                protocol,
            }
        })
        .collect()
});

#[path = "../../tests/it/support/verdict.rs"]
mod verdict;

fuzz_target!(|data: &[u8]| {
    for pair in PAIRS.iter() {
        let typed = pair.typed.validate_bytes(data);
        let schema = pair.schema.validate_bytes(data);
        assert_eq!(
            typed.outcome,
            schema.outcome,
            "{}: typed vs schema",
            pair.protocol.id()
        );
        let Ok(text) = std::str::from_utf8(data) else {
            continue;
        };
        if !pair.rooted.is_empty() {
            let (selector, typed, schema) = &pair.rooted[data.len() % pair.rooted.len()];
            let typed = typed.validate_root_str(selector, text).map(|r| r.outcome);
            let schema = schema.validate_root_str(selector, text).map(|r| r.outcome);
            assert!(
                typed.is_some(),
                "{}: --root {selector} is not a root",
                pair.protocol.id()
            );
            assert_eq!(
                typed,
                schema,
                "{}: --root {selector}: typed vs schema",
                pair.protocol.id()
            );
        }
        for root in pair.protocol.roots() {
            match (root.verdict(text), root.check(text)) {
                (Ok(quick), Ok(serde)) => assert_eq!(quick, serde, "{}: quick decode", root.name()),
                (Err(_), Err(_)) => {}
                (quick, serde) => panic!(
                    "{} {}: quick decode {quick:?}, serde_json {serde:?}",
                    pair.protocol.id(),
                    root.name()
                ),
            }
            let report = pair.schema.validate_root_str(root.name(), text);
            let (Some(report), Some(serde)) = (
                report,
                verdict::serde_verdict(&pair.protocol, root.name(), text),
            ) else {
                continue;
            };
            assert_eq!(
                report.outcome,
                serde,
                "{} {}: schema vs serde",
                pair.protocol.id(),
                root.name()
            );
            if let Some(accepted) = pair.schema.checks_verdict(root.name(), text) {
                assert_eq!(
                    accepted,
                    serde != symgen::validate::Outcome::Invalid,
                    "{} {}: compiled checks vs serde",
                    pair.protocol.id(),
                    root.name()
                );
            }
        }
    }
});
