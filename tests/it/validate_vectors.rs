//! The runtime validator against every conformance vector, vector by vector: valid ones
//! validate, invalid ones are rejected with a violation at (or naming) the vector's
//! pointer and of the vector's kind of fault, unknown ones give the unknown outcome.
//!
//! Each check runs twice: with the typed fast path (serde decides, the schema walk
//! explains) and with the schema walk alone, whose verdict must equal serde's.

use crate::support::vectors;

use serde_json::Value;
use symgen::validate::{Outcome, Report, Validator};
use symgen_protocols::all as registry;
use vectors::{Vector, load};

/// Both validators of a protocol: typed (fast path) and schema-only.
fn validators(id: &str) -> [(&'static str, Validator); 2] {
    let typed = Validator::for_protocol(&symgen_protocols::find(id).unwrap()).unwrap();
    assert!(typed.is_typed());
    let schema = Validator::for_protocol(&symgen_protocols::find(id).unwrap())
        .unwrap()
        .schema_only();
    assert!(!schema.is_typed());
    [("typed", typed), ("schema-only", schema)]
}

/// Validates a vector's message as text (its root only), then its reply data when the
/// vector names the request it answers.
fn check(validator: &Validator, vector: &Vector) -> Report {
    let text = vector.wire();
    let report = validator
        .validate_root_str(&vector.root, &text)
        .unwrap_or_else(|| panic!("{}: no root {}", vector.name, vector.root));
    match &vector.reply_to {
        Some(tag) if report.outcome == Outcome::Valid => validator
            .reply_to(tag)
            .unwrap_or_else(|err| panic!("{}: reply_to({tag}): {err}", vector.name))
            .validate_str(&text),
        _ => report,
    }
}

fn show(report: &Report) -> String {
    report
        .violations
        .iter()
        .map(|v| format!("\n    {} {} {}", v.kind.as_str(), v.pointer, v.message))
        .collect()
}

#[test]
fn every_valid_vector_validates() {
    let mut checked = 0;
    for protocol in registry() {
        for (mode, validator) in validators(protocol.id()) {
            for vector in load(protocol.id(), "valid") {
                let report = check(&validator, &vector);
                assert_eq!(
                    report.outcome,
                    Outcome::Valid,
                    "{}/{} ({mode}): {}",
                    protocol.id(),
                    vector.name,
                    show(&report)
                );
                // Judged against every root, it is valid too.
                let any = validator.validate_value(&vector.message);
                assert_eq!(
                    any.outcome,
                    Outcome::Valid,
                    "{}/{} ({mode}, any root)",
                    protocol.id(),
                    vector.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} valid vectors checked");
}

#[test]
fn every_invalid_vector_is_rejected_at_its_pointer_with_its_fault() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for protocol in registry() {
        for (mode, validator) in validators(protocol.id()) {
            for vector in load(protocol.id(), "invalid") {
                let ctx = format!("{}/{} ({mode})", protocol.id(), vector.name);
                let pointer = vector
                    .pointer
                    .as_deref()
                    .expect("invalid vectors have a pointer");
                let fault = vector
                    .fault
                    .as_deref()
                    .expect("invalid vectors have a fault");
                let report = check(&validator, &vector);
                if report.outcome != Outcome::Invalid {
                    failures.push(format!("{ctx}: not rejected ({:?})", report.outcome));
                    continue;
                }
                let at_pointer: Vec<_> = report
                    .violations
                    .iter()
                    .filter(|v| v.concerns(pointer))
                    .collect();
                // A null where a value is required is both "missing" (null means absent,
                // R3) and "of the wrong type"; vectors name either.
                let is_null = vector.message.pointer(pointer).is_some_and(Value::is_null);
                let same_fault = |kind: &str| {
                    kind == fault
                        || (is_null
                            && matches!(kind, "missing_required" | "wrong_type")
                            && matches!(fault, "missing_required" | "wrong_type"))
                };
                if at_pointer.is_empty() {
                    failures.push(format!(
                        "{ctx}: no violation at {pointer}:{}",
                        show(&report)
                    ));
                } else if !at_pointer.iter().any(|v| same_fault(v.kind.as_str())) {
                    failures.push(format!(
                        "{ctx}: violation at {pointer} is not {fault}:{}",
                        show(&report)
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 100, "only {checked} invalid vectors checked");
}

#[test]
fn every_unknown_vector_gives_the_unknown_outcome() {
    let mut checked = 0;
    for protocol in registry() {
        for (mode, validator) in validators(protocol.id()) {
            for vector in load(protocol.id(), "unknown") {
                let report = check(&validator, &vector);
                assert_eq!(
                    report.outcome,
                    Outcome::Unknown,
                    "{}/{} ({mode}): {}",
                    protocol.id(),
                    vector.name,
                    show(&report)
                );
                assert!(report.message_type.is_some(), "{}: no type", vector.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} unknown vectors checked");
}
