//! The schema's verdict equals serde's, on thousands of generated messages per protocol.
//!
//! Messages are built from each protocol's committed schema (tests/support/schema_gen.rs):
//! mostly valid ones, and mutations of them (a required key dropped, a type changed, a
//! number pushed out of range, a string no enum has, an unknown key added, a value
//! nulled, an object sent as an array). For every message and every root, serde's
//! verdict on the Rust type (`RootType::roundtrip`: valid, unknown tag, or rejected) must
//! equal the verdict of the schema walk alone (`Validator::schema_only`), and the verdict
//! of the checks compiled from the schema, where they give one on their own
//! (`Validator::checks_verdict`). Reply data is checked the same way against each
//! request's reply type.
//!
//! Any disagreement is a bug in the schema generation (src/schema, src/protocols).

use crate::support::schema_gen;

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;

use symgen::Protocol;
use symgen::validate::{Outcome, Validator};

use schema_gen::{Gen, mutate, mutation};

/// Generated messages per protocol and kind (valid-ish, mutated).
const CASES: u32 = 1500;

fn serde_verdict(protocol: &Protocol, root: &str, text: &str) -> Outcome {
    match protocol.root_named(root).unwrap().roundtrip(text) {
        Ok(rt) if rt.unknown => Outcome::Unknown,
        Ok(_) => Outcome::Valid,
        Err(_) => Outcome::Invalid,
    }
}

/// Counts outcomes so the test can show it exercised all of them.
#[derive(Default)]
struct Seen {
    valid: AtomicUsize,
    invalid: AtomicUsize,
    unknown: AtomicUsize,
    /// Messages the compiled checks of the schema judged on their own.
    checked: AtomicUsize,
    /// Rejected messages explained both ways, per root.
    explained: AtomicUsize,
    /// Rejected messages whose report, judged against every root, was compared with the
    /// one explaining every root's rejection.
    picked: AtomicUsize,
}

impl Seen {
    fn add(&self, outcome: Outcome) {
        match outcome {
            Outcome::Valid => &self.valid,
            Outcome::Invalid => &self.invalid,
            Outcome::Unknown => &self.unknown,
        }
        .fetch_add(1, Ordering::Relaxed);
    }
}

fn agree(
    protocol: &Protocol,
    validator: &Validator,
    every_root: &Validator,
    root: &str,
    message: &Value,
    seen: &Seen,
) -> Result<(), TestCaseError> {
    let text = serde_json::to_string(message).unwrap();
    let serde = serde_verdict(protocol, root, &text);
    let report = validator.validate_root_str(root, &text).unwrap();
    seen.add(serde);
    if let Some(accepted) = validator.checks_verdict(root, &text) {
        seen.checked.fetch_add(1, Ordering::Relaxed);
        prop_assert_eq!(
            accepted,
            serde != Outcome::Invalid,
            "{} {}: the compiled checks say {}, serde says {:?}\n{}",
            protocol.id(),
            root,
            accepted,
            serde,
            text
        );
    }
    // A rejected message is explained root by root by what its tag decides, not by the
    // whole union: the same violations, in the same order, as the whole root's errors.
    if serde == Outcome::Invalid {
        // Judged against every root, the report is the one explaining every root's
        // rejection would pick.
        let report = validator.validate_str(&text);
        if report.outcome == Outcome::Invalid {
            seen.picked.fetch_add(1, Ordering::Relaxed);
            // Placed (from the tape, where the message has one) where the text scan
            // places each pointer.
            for violation in &report.violations {
                prop_assert_eq!(
                    violation.position,
                    Some(symgen::validate::locate(&text, &violation.pointer)),
                    "{}: {:?} placed\n{}",
                    protocol.id(),
                    violation,
                    text
                );
            }
            prop_assert_eq!(
                &report,
                &every_root.validate_str(&text),
                "{}: picked among the roots as if every one were explained\n{}",
                protocol.id(),
                text
            );
            // Given as a `Value` (no tape: a narrowed explanation walks the `Value`
            // with engines of its own), the same violations (in another order: a
            // text's are sorted by position).
            let unplaced = |report: &symgen::validate::Report| {
                let mut report = report.clone();
                for violation in &mut report.violations {
                    violation.position = None;
                }
                report
                    .violations
                    .sort_by(|a, b| (&a.pointer, &a.message).cmp(&(&b.pointer, &b.message)));
                report
            };
            prop_assert_eq!(
                unplaced(&every_root.validate_value(message)),
                unplaced(&report),
                "{}: given as a value\n{}",
                protocol.id(),
                text
            );
        }
        for other in protocol.roots().iter().map(|r| r.name()) {
            let (narrowed, whole) = validator.explanations(other, &text).unwrap();
            seen.explained.fetch_add(1, Ordering::Relaxed);
            prop_assert_eq!(
                &narrowed,
                &whole,
                "{} {}: explained by the tag, and by the whole root\n{}",
                protocol.id(),
                other,
                text
            );
        }
    }
    prop_assert_eq!(
        report.outcome,
        serde,
        "{} {}: schema says {:?}, serde says {:?} ({:?})\n{}\nviolations: {:#?}",
        protocol.id(),
        root,
        report.outcome,
        serde,
        protocol.root_named(root).unwrap().roundtrip(&text).err(),
        text,
        report.violations
    );
    Ok(())
}

fn run_protocol(id: &str, mutated: bool) {
    let protocol = symgen_protocols::find(id).unwrap();
    let validator = Validator::for_protocol(&symgen_protocols::find(id).unwrap())
        .unwrap()
        .schema_only();
    let every_root = Validator::for_protocol(&symgen_protocols::find(id).unwrap())
        .unwrap()
        .schema_only()
        .explaining_every_root();
    let document = validator.document().clone();
    let generator = Gen {
        document: &document,
    };
    let seen = Seen::default();
    for root in protocol.roots().iter().map(|r| r.name()) {
        let schema = document.pointer(&format!("/$defs/{root}")).unwrap();
        let strategy = generator.value(schema, 0);
        let mut runner = TestRunner::new(Config {
            cases: CASES / protocol.roots().len() as u32,
            failure_persistence: None,
            ..Config::default()
        });
        let result = if mutated {
            runner
                .run(
                    &(strategy, mutation(), any::<usize>()),
                    |(message, kind, at)| {
                        agree(
                            &protocol,
                            &validator,
                            &every_root,
                            root,
                            &mutate(message, kind, at),
                            &seen,
                        )
                    },
                )
                .map_err(|err| err.to_string())
        } else {
            runner
                .run(&strategy, |message| {
                    agree(&protocol, &validator, &every_root, root, &message, &seen)
                })
                .map_err(|err| err.to_string())
        };
        if let Err(err) = result {
            panic!("{err}");
        }
    }
    let (valid, invalid, unknown) = (
        seen.valid.load(Ordering::Relaxed),
        seen.invalid.load(Ordering::Relaxed),
        seen.unknown.load(Ordering::Relaxed),
    );
    let checked = seen.checked.load(Ordering::Relaxed);
    let explained = seen.explained.load(Ordering::Relaxed);
    let picked = seen.picked.load(Ordering::Relaxed);
    eprintln!(
        "{id} ({}): {valid} valid, {invalid} invalid, {unknown} unknown; {checked} judged by the compiled checks; {explained} explanations compared; {picked} picks among the roots compared",
        if mutated { "mutated" } else { "generated" }
    );
    assert!(
        !mutated || explained >= invalid,
        "{id}: only {explained} explanations compared"
    );
    assert!(
        !mutated || picked > 0,
        "{id}: no pick among the roots compared"
    );
    // The checks must judge most messages themselves (the rest hold a value they leave
    // to the schema walk: an integral float where a Rust integer is, a duplicate key).
    assert!(
        checked * 10 >= (valid + invalid + unknown) * 9,
        "{id}: the compiled checks judged only {checked} messages"
    );
    // The generator must mostly produce valid messages, and mutations must break them.
    if mutated {
        assert!(
            invalid * 4 >= (valid + invalid + unknown),
            "{id}: too few mutations were invalid"
        );
    } else {
        assert!(
            valid * 2 >= (valid + invalid + unknown),
            "{id}: too few generated messages were valid"
        );
    }
}

/// Reply data generated from each request's reply schema (and mutated), judged by serde
/// (`Protocol::reply_roundtrip`) and by the schema (`Validator::reply_to`).
fn run_replies(id: &str) {
    let protocol = symgen_protocols::find(id).unwrap();
    let pointer = protocol.reply_data().unwrap();
    let validator = Validator::for_protocol(&symgen_protocols::find(id).unwrap())
        .unwrap()
        .schema_only();
    let document = validator.document().clone();
    let generator = Gen {
        document: &document,
    };
    let carrier: Value = match id {
        "symposium" => {
            serde_json::json!({"type": "response", "id": "1", "sender": {"workingDirectory": "/tmp"}, "payload": {"success": true, "data": null}})
        }
        "ck3lens" => serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
        other => panic!("no reply carrier for {other}"),
    };
    let mut checked = 0;
    let all = Seen::default();
    for root in protocol.roots() {
        for variant in root.variants() {
            let Ok(reply) = validator.reply_to(variant.tag) else {
                continue;
            };
            let schema = reply.request_tag().to_owned();
            let reply_schema = document
                .pointer(&format!("/$defs/{}", root.name()))
                .and_then(|def| def.get("oneOf"))
                .and_then(Value::as_array)
                .and_then(|variants| {
                    variants.iter().find(|v| {
                        v.pointer(&format!("/properties/{}", tag_key(id)))
                            .is_some_and(|t| {
                                t.get("const") == Some(&Value::String(variant.tag.into()))
                                    || t.get("enum").and_then(Value::as_array).is_some_and(|e| {
                                        e.contains(&Value::String(variant.tag.into()))
                                    })
                            })
                    })
                })
                .and_then(|v| v.get("x-symgen-reply"))
                .unwrap_or_else(|| panic!("{id} {schema}: no x-symgen-reply"));
            let strategy = (
                generator.value(reply_schema, 0),
                mutation(),
                any::<usize>(),
                any::<bool>(),
            );
            let mut runner = TestRunner::new(Config {
                cases: 200,
                failure_persistence: None,
                ..Config::default()
            });
            let seen = Seen::default();
            let result = runner.run(&strategy, |(data, kind, at, mutated)| {
                let data = if mutated {
                    mutate(data, kind, at)
                } else {
                    data
                };
                let mut message = carrier.clone();
                *message
                    .pointer_mut(pointer)
                    .unwrap_or_else(|| panic!("{pointer}")) = data.clone();
                let text = serde_json::to_string(&message).unwrap();
                // `null` data is absent data (R3); otherwise serde must have a typed
                // verdict: a request the validator checks replies for has a reply type.
                let serde = match protocol.reply_roundtrip(variant.tag, &data) {
                    _ if data.is_null() => Outcome::Valid,
                    Some(Ok(_)) => Outcome::Valid,
                    Some(Err(_)) => Outcome::Invalid,
                    None => {
                        return Err(TestCaseError::fail(format!(
                            "{id} {}: the validator checks its replies but serde has no reply type",
                            variant.tag
                        )));
                    }
                };
                seen.add(serde);
                all.add(serde);
                let report = reply.validate_str(&text);
                prop_assert_eq!(
                    report.outcome,
                    serde,
                    "{} reply to {}: schema says {:?}, serde says {:?} ({:?})\n{}\n{:#?}",
                    id,
                    variant.tag,
                    report.outcome,
                    serde,
                    protocol.reply_roundtrip(variant.tag, &data),
                    text,
                    report.violations
                );
                Ok(())
            });
            if let Err(err) = result {
                panic!("{err}");
            }
            // Every case was compared, and the generator produced valid reply data.
            let valid = seen.valid.load(Ordering::Relaxed);
            let compared = valid + seen.invalid.load(Ordering::Relaxed);
            assert!(
                compared >= 200 && valid > 0,
                "{id} {}: {compared} cases compared, {valid} valid",
                variant.tag
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "{id}: only {checked} reply types checked");
    // And the mutations broke some reply data of the protocol.
    assert!(
        all.invalid.load(Ordering::Relaxed) > 0,
        "{id}: no mutated reply data was invalid"
    );
}

fn tag_key(id: &str) -> &'static str {
    if id == "ck3lens" { "method" } else { "type" }
}

#[test]
fn symposium_generated() {
    run_protocol("symposium", false);
}
#[test]
fn symposium_mutated() {
    run_protocol("symposium", true);
}
#[test]
fn symposium_replies() {
    run_replies("symposium");
}
#[test]
fn taskspace_state_generated() {
    run_protocol("taskspace-state", false);
}
#[test]
fn taskspace_state_mutated() {
    run_protocol("taskspace-state", true);
}
#[test]
fn dialectic_generated() {
    run_protocol("dialectic", false);
}
#[test]
fn dialectic_mutated() {
    run_protocol("dialectic", true);
}
#[test]
fn worker_sideband_generated() {
    run_protocol("worker-sideband", false);
}
#[test]
fn worker_sideband_mutated() {
    run_protocol("worker-sideband", true);
}
#[test]
fn ck3lens_generated() {
    run_protocol("ck3lens", false);
}
#[test]
fn ck3lens_mutated() {
    run_protocol("ck3lens", true);
}
#[test]
fn ck3lens_replies() {
    run_replies("ck3lens");
}
