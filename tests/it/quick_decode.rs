//! The quick decode (`symgen_wire::quick`, the validator's typed fast path) against
//! serde_json's own decode behind `Strict`, the reference: on every type of the zoo
//! (tests/it/support/zoo.rs), for texts at JSON's edges, the benchmark corpora, their
//! faulty versions and tens of thousands of mutations, the quick decode must never
//! accept what serde_json refuses, decode a value serde_json decodes differently, or be
//! sure of a refusal serde_json does not make. And it must answer by itself nearly
//! always (a decode that always asked serde_json would agree too, and be slower).

use std::collections::HashMap;

use symgen::validate::Validator;

use crate::support::bench::{corpus, faults};
use crate::support::zoo::{self, Agreement, EDGES, Kind};

/// Every corpus message of every protocol, `count` of each.
fn corpus_texts(count: usize) -> Vec<String> {
    corpus::all(count)
        .into_iter()
        .flat_map(|c| c.messages.into_iter().map(|m| m.text))
        .collect()
}

/// How often each kind of agreement happened.
type Counts = HashMap<Agreement, usize>;

fn count(counts: &Counts, agreement: Agreement) -> usize {
    counts.get(&agreement).copied().unwrap_or(0)
}

/// Compares every kind on every text; returns the tally (in all and per kind) and the
/// disagreements.
fn tally(kinds: &[Kind], texts: &[String]) -> (Counts, HashMap<&'static str, Counts>, Vec<String>) {
    let mut counts = Counts::new();
    let mut per_kind: HashMap<&'static str, Counts> = HashMap::new();
    let mut failures = Vec::new();
    for kind in kinds {
        for text in texts {
            match (kind.compare)(text) {
                Ok(agreement) => {
                    *counts.entry(agreement).or_insert(0) += 1;
                    *per_kind
                        .entry(kind.name)
                        .or_default()
                        .entry(agreement)
                        .or_insert(0) += 1;
                }
                Err(why) => failures.push(format!("{} on {text:?}: {why}", kind.name)),
            }
        }
    }
    (counts, per_kind, failures)
}

fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} disagreements, the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(12)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_type_decodes_every_text_as_serde_json_does() {
    let kinds = zoo::kinds();
    let mut texts: Vec<String> = kinds
        .iter()
        .flat_map(|k| k.texts.iter().map(|t| (*t).to_owned()))
        .chain(EDGES.iter().map(|t| (*t).to_owned()))
        .chain(corpus_texts(60))
        .collect();
    // serde_json's nesting limit, for values decoded and for values skipped.
    for depth in [126, 127, 128, 129, 200] {
        texts.push(zoo::nested(depth, false));
        texts.push(zoo::nested(depth, true));
        texts.push(format!(r#"{{"value": {}}}"#, zoo::nested(depth, false)));
        texts.push(format!(
            r#"{{"a": 1, "ignored": {}}}"#,
            zoo::nested(depth, false)
        ));
    }
    let (counts, per_kind, failures) = tally(&kinds, &texts);
    println!("{} texts: {counts:?}", texts.len());
    assert_no_failures(&failures);
    // Every kind's valid texts, the corpora for the protocols' types.
    assert!(count(&counts, Agreement::Accepted) >= 400, "{counts:?}");
    assert!(count(&counts, Agreement::Refused) >= 5000, "{counts:?}");
    // The protocols' types (no 128-bit integers, byte strings or swallowed errors) are
    // decided without serde_json, but for the 20 texts nested past its limit, skipped
    // as unknown members.
    for (name, counts) in &per_kind {
        if name.starts_with("symgen_protocols") {
            assert!(
                count(counts, Agreement::Deferred) <= 20,
                "{name}: the quick decode asked serde_json too often: {counts:?}"
            );
        }
    }
}

#[test]
fn mutated_texts_decode_as_serde_json_does() {
    let kinds = zoo::kinds();
    let mut rng = fastrand::Rng::with_seed(0x0051_C0DE);
    let seeds: Vec<String> = kinds
        .iter()
        .flat_map(|k| k.texts.iter().map(|t| (*t).to_owned()))
        .chain(corpus_texts(12))
        .collect();
    let mut texts = Vec::new();
    for seed in &seeds {
        for _ in 0..40 {
            let mut text = mutate(seed, &mut rng);
            if rng.bool() {
                text = mutate(&text, &mut rng);
            }
            texts.push(text);
        }
    }
    let (counts, _, failures) = tally(&kinds, &texts);
    println!("{} mutated texts: {counts:?}", texts.len());
    assert_no_failures(&failures);
    // Mutations keep some texts valid (for some kind) and break most.
    assert!(count(&counts, Agreement::Accepted) >= 200, "{counts:?}");
    assert!(count(&counts, Agreement::Refused) >= 100_000, "{counts:?}");
}

/// The rejected benchmark corpora (one fault per message) are refused with certainty,
/// without serde_json: that is what makes a rejection cheap.
#[test]
fn faulty_protocol_messages_are_refused_without_serde_json() {
    for corpus in corpus::all(40) {
        let protocol = symgen_protocols::find(corpus.protocol).expect("a built-in protocol");
        let validator = Validator::for_protocol(&protocol).expect("a valid protocol");
        for kind in [
            faults::Kind::Type,
            faults::Kind::Missing,
            faults::Kind::Value,
            faults::Kind::Syntax,
        ] {
            let Ok(faulty) = faults::corpus(&corpus, &validator, kind) else {
                continue;
            };
            for text in &faulty {
                for root in protocol.roots() {
                    let reference = root.check(text);
                    let quick = root.verdict(text);
                    match (&reference, &quick) {
                        (Ok(a), Ok(b)) => assert_eq!(a, b, "{} {kind:?}: {text}", root.name()),
                        (Err(_), Err(None)) => {}
                        (Err(_), Err(Some(_))) => {
                            panic!("{} {kind:?}: serde_json was asked for {text}", root.name())
                        }
                        _ => panic!(
                            "{} {kind:?}: verdicts differ on {text}: {reference:?} / {quick:?}",
                            root.name()
                        ),
                    }
                }
            }
        }
    }
}

/// Bytes a mutation inserts: JSON's own punctuation and the letters of its words, digits,
/// escapes, white space and a few others.
const INSERTS: &[&str] = &[
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "0", "1", "9", "-", "+", ".", "e",
    "E", "t", "f", "n", "u", "l", " ", "\t", "\n", "\u{1}", "é", "null", "true", "1e400", "\"x\"",
    "{}", "[]",
];

/// `text` changed at a place drawn from `rng`: a byte range deleted, a fragment inserted
/// or put in place of a range, a range repeated, or the text cut short.
pub fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    let at = bounds[rng.usize(..bounds.len())];
    let to = bounds[rng.usize(..bounds.len())].max(at);
    let to = to.min(at + 4).min(text.len());
    let to = (to..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    let insert = INSERTS[rng.usize(..INSERTS.len())];
    match rng.u8(..5) {
        0 => format!("{}{}", &text[..at], &text[to..]),
        1 => format!("{}{insert}{}", &text[..at], &text[at..]),
        2 => format!("{}{insert}{}", &text[..at], &text[to..]),
        3 => format!("{}{}{}", &text[..to], &text[at..to], &text[to..]),
        _ => text[..at].to_owned(),
    }
}

/// A tagged union's decode from a tight tag on (`Tagged::quick_tag_first`) against
/// serde_json's decode of the whole union, on the corpora and mutations of them.
fn tag_first_agrees<T>(texts: &[String]) -> (usize, Vec<String>)
where
    T: symgen::wire::__private::Tagged + serde::de::DeserializeOwned + std::fmt::Debug,
{
    use symgen::wire::quick::Quick;
    let mut taken = 0;
    let mut failures = Vec::new();
    for text in texts {
        let Some(quick) = T::quick_tag_first(text) else {
            continue;
        };
        let serde = symgen::wire::from_str::<T>(text);
        let agree = match (&quick, &serde) {
            (Quick::Decoded(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
            (Quick::Decoded(_), Err(_)) | (Quick::Refused, Ok(_)) => false,
            (Quick::Refused, Err(_)) | (Quick::Unsure, _) => true,
        };
        taken += usize::from(matches!(quick, Quick::Decoded(_)));
        if !agree {
            failures.push(format!("{text:?}: {quick:?} / {serde:?}"));
        }
    }
    (taken, failures)
}

#[test]
fn a_tight_tag_decodes_the_rest_as_the_union_does() {
    use symgen_protocols::worker_sideband::{ServerToWorker, WorkerToServer};
    let mut rng = fastrand::Rng::with_seed(0x7A6_F125);
    let corpus: Vec<String> = corpus::generate("worker-sideband", 400)
        .expect("P4")
        .messages
        .into_iter()
        .map(|m| m.text)
        .collect();
    let mut texts = corpus.clone();
    for text in &corpus {
        for _ in 0..30 {
            texts.push(mutate(text, &mut rng));
        }
    }
    // The tag key given twice, a tag not first, white space, escapes in the tag.
    texts.extend(
        [
            r#"{"type":"readline_start","type":"readline_start","prompt":""}"#,
            r#"{"type":"readline_start","prompt":"","type":"x"}"#,
            r#"{"type":"readline_start" ,"prompt" : "a"}"#,
            r#"{"type":"readline_start","prompt":"a"} "#,
            r#"{"type":"readline_start","prompt":"a"}}"#,
            r#"{"type":"readline\u005fstart","prompt":"a"}"#,
            r#"{"type":"request_end"}"#,
            r#"{"type":"request_end","extra":[1,{"a":null}]}"#,
            r#"{"type":"plot_image","id":"p","mime_type":"image/png","data":"","is_new":true}"#,
        ]
        .map(str::to_owned),
    );
    let (taken_w, mut failures) = tag_first_agrees::<WorkerToServer>(&texts);
    let (taken_s, more) = tag_first_agrees::<ServerToWorker>(&texts);
    failures.extend(more);
    assert_no_failures(&failures);
    // Most corpus messages (all tight, most tags known to one of the two) are decoded
    // from their tag on.
    assert!(taken_w + taken_s >= 380, "taken {taken_w} + {taken_s}");

    // And the validator's typed verdict is serde_json's for every root of every
    // protocol, tight tags or not.
    for id in corpus::PROTOCOLS {
        let protocol = symgen_protocols::find(id).expect("a built-in protocol");
        let mut texts: Vec<String> = corpus::generate(id, 60)
            .expect("a corpus")
            .messages
            .into_iter()
            .map(|m| m.text)
            .collect();
        for i in 0..texts.len() {
            for _ in 0..20 {
                let text = mutate(&texts[i], &mut rng);
                texts.push(text);
            }
        }
        for root in protocol.roots() {
            for text in &texts {
                match (root.verdict(text), root.check(text)) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{id} {}: {text}", root.name()),
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!("{id} {}: {text}: {a:?} / {b:?}", root.name()),
                }
            }
        }
    }
}
