//! The validator on arbitrary bytes, for every built-in protocol: no panic, and one
//! verdict: the typed fast path, the schema walk alone (what `validate --schema` does),
//! the checks compiled from the schema on their own (where they answer) and serde's
//! typed decode of each root must agree, and each root's quick decode (`Root::verdict`)
//! must give serde_json's verdict (`Root::check`).
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use symgen::validate::Validator;

struct Pair {
    protocol: symgen::Protocol,
    typed: Validator,
    schema: Validator,
}

static PAIRS: LazyLock<Vec<Pair>> = LazyLock::new(|| {
    symgen_protocols::all()
        .into_iter()
        .map(|protocol| Pair {
            typed: Validator::for_protocol(&protocol).expect("built-in protocol"),
            schema: Validator::for_protocol(&protocol)
                .expect("built-in protocol")
                .schema_only(),
            protocol,
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
