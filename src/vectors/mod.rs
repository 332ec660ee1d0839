//! Conformance vectors generated from a schema (`symgen vectors`): a cross-language
//! test suite for any protocol, with the runtime validator as its oracle.
//!
//! For each root type of each schema, [`build`] makes candidate messages from the
//! model: valid ones that cover every type, variant, tag spelling, optional field
//! (absent, present, `null`), enum value, range boundary, empty and non-empty container,
//! unknown key and unknown tag, and invalid ones with exactly one fault each. The
//! [`oracle`] judges every candidate (the schema's verdict; for a protocol whose Rust
//! types are registered, serde's too, and the two must agree), and the candidate is
//! filed by that verdict, never by what it was meant to be: `valid.json`,
//! `invalid.json` (with the first violation's rule and pointer) or `unknown.json`.
//!
//! The files go to `<vectors dir>/<schema stem>/generated/`, beside the hand-written
//! vectors, in the same format (see docs/vectors.md); every generated package's test
//! reads both. Generation is deterministic: the same schema gives the same bytes, so
//! `symgen check` holds the committed files to the schema.

mod build;
mod mend;
mod oracle;
mod text;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::emit::{Module, OutputFile};
use crate::model::{Model, NamedType, Reply, TypeKind};
use crate::validate::{Outcome, ViolationKind};
use crate::{Error, Protocol, Result};

use build::{Builder, Candidate, Intent, Refusal};
use oracle::Oracle;

/// The directory, inside a schema's vector directory, of its generated vectors.
pub const GENERATED_DIR: &str = "generated";

/// How vectors are generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// The most candidates one entry point (or one request's reply data) contributes;
    /// past it, an even selection is kept, so a huge schema stays quick to generate and
    /// to test (`[vectors] max-per-root`).
    pub max_per_root: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Self { max_per_root: 600 }
    }
}

/// One conformance vector (the format of `tests/vectors/README.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vector {
    /// Unique within its schema: the root, where the change is, and what it is.
    pub name: String,
    /// The root type the message is an instance of.
    pub root: String,
    /// The message. When `text` is given, only the nearest JSON value of it.
    pub message: Value,
    /// The exact wire text, when `message` cannot carry it to every reader: a duplicate
    /// key, `1.0` for an integer, `1e400`, a lone surrogate, an integer past ±2^53.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// What a conforming encoder gives back, when it differs from `message` beyond
    /// `null`-valued keys left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<Value>,
    /// On a reply, the tag of the request it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// Invalid: the rule the first violation breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Invalid: JSON Pointer of the first violation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Invalid: the validator's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Invalid only by a keyword the generated types do not enforce (warned when they
    /// are generated): every language accepts it, and says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unenforced: bool,
}

/// The generated vectors of one schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generated {
    /// The schema's module stem (its vector directory).
    pub stem: String,
    /// Accepted as a known message.
    pub valid: Vec<Vector>,
    /// Rejected.
    pub invalid: Vec<Vector>,
    /// Accepted as an unknown message (R4).
    pub unknown: Vec<Vector>,
    /// Roots no vector could be built for, and why.
    pub skipped: Vec<(String, String)>,
}

impl Generated {
    /// The files of these vectors, relative to the vector directory.
    pub fn files(&self) -> Vec<OutputFile> {
        [
            ("valid", &self.valid),
            ("invalid", &self.invalid),
            ("unknown", &self.unknown),
        ]
        .into_iter()
        .filter(|(_, vectors)| !vectors.is_empty())
        .map(|(kind, vectors)| OutputFile {
            path: format!("{}/{GENERATED_DIR}/{kind}.json", self.stem),
            contents: render(vectors),
        })
        .collect()
    }
}

/// A vector file: a JSON array, one vector per line, keys in a fixed order.
fn render(vectors: &[Vector]) -> String {
    let mut out = String::from("[\n");
    for (i, vector) in vectors.iter().enumerate() {
        let line = serde_json::to_string(vector).unwrap_or_default();
        out.push_str(&line);
        out.push_str(if i + 1 < vectors.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    out
}

/// The generated vectors of every module; `documents` are the modules' schema
/// documents (same order) with their paths, `protocols` the registered protocols whose
/// Rust types give serde's verdict and re-encoding.
pub fn generate(
    modules: &[Module],
    documents: &[(String, Value)],
    protocols: &[Protocol],
    settings: Settings,
) -> Result<Vec<Generated>> {
    let mut all = Vec::with_capacity(modules.len());
    for (module, (path, document)) in modules.iter().zip(documents) {
        let protocol = protocols
            .iter()
            .find(|p| p.file_name() == module.file_name || p.id() == module.stem);
        all.push(one(module, path, document.clone(), protocol, settings)?);
    }
    Ok(all)
}

/// The roots one schema's vectors are built for: its entry points (the message types,
/// else every definition; see [`Model::entry_points`]).
fn roots(model: &Model) -> Vec<&NamedType> {
    model
        .entry_points()
        .into_iter()
        .filter_map(|name| model.get(name))
        .collect()
}

fn one(
    module: &Module,
    path: &str,
    document: Value,
    protocol: Option<&Protocol>,
    settings: Settings,
) -> Result<Generated> {
    let model = &module.model;
    // By their pointer in whichever document they are in (a type read from another
    // document is warned about as `<path>#<pointer>`); keyword locations are read so too.
    // Each other document once, not once per type read from it.
    let others: Vec<&str> = model
        .types
        .iter()
        .filter_map(|t| match &t.origin {
            crate::model::Origin::Document { file, .. } => Some(file.as_str()),
            _ => None,
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let warned = model
        .warnings
        .iter()
        .map(|w| (warned_pointer(&w.pointer, &others).to_owned(), w.reach))
        .collect();
    let mut out = Generated {
        stem: module.stem.clone(),
        ..Generated::default()
    };
    // A schema the validator cannot compile has no oracle: no vector, and a warning.
    let oracle = match Oracle::new(document, Some(path), protocol, warned) {
        Ok(oracle) => oracle,
        Err(err @ Error::UnusableSchema { .. }) => {
            out.skipped
                .push(("*".into(), format!("the validator cannot read it: {err}")));
            return Ok(out);
        }
        Err(err) => return Err(err),
    };
    let located = |err: Error| match err {
        Error::Vectors {
            vector, message, ..
        } => Error::Vectors {
            file: path.to_owned(),
            vector,
            message,
        },
        other => other,
    };
    let mut filer = Filer {
        oracle,
        out,
        seen: HashSet::new(),
        names: HashSet::new(),
        own: model.protocol.is_some(),
    };
    let mut builder = Builder::new(model);
    for root in roots(model) {
        match builder.root(&root.name) {
            Ok(candidates) => {
                for candidate in thin(candidates, settings.max_per_root) {
                    filer.file(root, candidate, None).map_err(located)?;
                }
            }
            Err(refusal) => filer
                .out
                .skipped
                .push((root.name.clone(), refusal_text(&refusal))),
        }
        replies(model, &mut builder, &mut filer, root, settings).map_err(located)?;
    }
    Ok(filer.out)
}

/// The reply vectors of the requests of `root` (a union whose variants name their
/// reply data type): each reply data candidate, in a reply message of the protocol.
fn replies<'m>(
    model: &'m Model,
    builder: &mut Builder<'m>,
    filer: &mut Filer<'_>,
    root: &NamedType,
    settings: Settings,
) -> Result<()> {
    let (Some(pointer), TypeKind::Union(union)) = (
        model
            .protocol
            .as_ref()
            .and_then(|p| p.reply_data.as_deref()),
        &root.kind,
    ) else {
        return Ok(());
    };
    let Some((host_root, host)) = reply_host(model, builder, pointer)? else {
        return Ok(());
    };
    for variant in &union.variants {
        let (Reply::Data(ty), Some(tag)) = (
            &variant.reply,
            variant.tag.as_ref().and_then(|t| t.as_str()),
        ) else {
            continue;
        };
        let Ok((minimal, candidates)) = builder.data(ty) else {
            continue;
        };
        let mut all = vec![Candidate {
            path: String::new(),
            what: "minimal".into(),
            wire: minimal.wire,
            canonical: minimal.canonical,
            edit: None,
            intent: Intent::Valid,
            alternative: false,
        }];
        all.extend(candidates);
        for mut candidate in thin(all, settings.max_per_root) {
            candidate.path = format!(" reply to {tag}{pointer}{}", candidate.path);
            let mut wire = host.wire.clone();
            if let Some(slot) = wire.pointer_mut(pointer) {
                *slot = candidate.wire;
            } else {
                break;
            }
            candidate.wire = wire;
            candidate.edit = candidate.edit.map(|(p, e)| (format!("{pointer}{p}"), e));
            let mut whole = host.canonical.clone();
            if let Some(slot) = whole.pointer_mut(pointer) {
                *slot = candidate.canonical;
            }
            candidate.canonical = whole;
            if let Intent::Fault(rule, at) = candidate.intent {
                candidate.intent = Intent::Fault(rule, format!("{pointer}{at}"));
            }
            filer.file(host_root, candidate, Some(tag))?;
        }
    }
    Ok(())
}

/// A message that carries reply data at `pointer`: a root's reply variant (P1
/// `response`), else the first root whose minimal instance has the pointer (P5's
/// JSON-RPC response). Its data is set to `null` there, to be replaced.
fn reply_host<'m>(
    model: &'m Model,
    builder: &mut Builder<'m>,
    pointer: &str,
) -> Result<Option<(&'m NamedType, build::Sample)>> {
    let parent = pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    let key = pointer.rsplit('/').next().unwrap_or_default();
    let mut fallback = None;
    for root in roots(model) {
        let sample = match &root.kind {
            TypeKind::Union(union) => {
                let reply = union
                    .variants
                    .iter()
                    .find(|v| matches!(v.reply, Reply::IsReply));
                match reply {
                    Some(variant) => builder.minimal_variant(union, variant),
                    None if fallback.is_none() => builder.minimal_named(&root.name),
                    None => continue,
                }
            }
            _ if fallback.is_none() => builder.minimal_named(&root.name),
            _ => continue,
        };
        let Some(mut sample) = sample.map_err(|r| skipped_error(model, root, &r))? else {
            continue;
        };
        // A reply variant may leave its data out (it is set here); any other root is a
        // host only when its minimal instance has the data already.
        let is_reply = matches!(&root.kind, TypeKind::Union(u) if u.variants.iter().any(|v| matches!(v.reply, Reply::IsReply)));
        let fits = |v: &mut Value| match v.pointer_mut(parent) {
            Some(Value::Object(map)) => {
                let key = crate::json_pointer::unescape(key).into_owned();
                let present = map.contains_key(&key);
                map.insert(key, Value::Null);
                is_reply || present
            }
            _ => false,
        };
        if !(fits(&mut sample.wire) && fits(&mut sample.canonical)) {
            continue;
        }
        if is_reply {
            return Ok(Some((root, sample)));
        }
        fallback.get_or_insert((root, sample));
    }
    Ok(fallback)
}

fn skipped_error(model: &Model, root: &NamedType, refusal: &Refusal) -> Error {
    Error::Vectors {
        file: model.file.clone(),
        vector: root.name.clone(),
        message: refusal_text(refusal),
    }
}

fn refusal_text(refusal: &Refusal) -> String {
    match refusal {
        Refusal::TooLarge => "the schema is too large to spread into vectors".into(),
        Refusal::NoInstance => "no finite instance: a required field contains its own type".into(),
    }
}

/// At most `max` candidates, spread evenly over the list (the first kept).
fn thin(candidates: Vec<Candidate>, max: usize) -> Vec<Candidate> {
    if candidates.len() <= max {
        return candidates;
    }
    let total = candidates.len();
    candidates
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i * max / total != (i + 1) * max / total || *i == 0)
        .map(|(_, c)| c)
        .collect()
}

/// How many times a candidate is mended at most (each round mends every failure found).
const MENDING_ROUNDS: usize = 4;

/// The vectors of one schema being filed: its oracle, what is filed so far, the
/// messages and names already used.
struct Filer<'p> {
    oracle: Oracle<'p>,
    out: Generated,
    /// `(root, text, reply_to)` of every candidate filed.
    seen: HashSet<(String, String, Option<String>)>,
    names: HashSet<String>,
    /// symgen's own schema: serde's rules, nothing to mend.
    own: bool,
}

impl Filer<'_> {
    /// Judges one candidate and files it under its verdict (once per distinct message).
    /// A candidate of a schema symgen did not write that the schema rejects only by
    /// keywords the model does not enforce (away from its fault) is mended first.
    fn file(
        &mut self,
        root: &NamedType,
        mut candidate: Candidate,
        reply_to: Option<&str>,
    ) -> Result<()> {
        let (oracle, out, own) = (&mut self.oracle, &mut self.out, self.own);
        let mut text = text::write(&candidate.wire, candidate.edit.as_ref());
        let edited = candidate.edit.is_some();
        // A value written otherwise (`1.0`, `-0`), not a key twice: a value that a
        // reader of the text may hold as its value.
        let respelled = matches!(candidate.edit, Some((_, build::Edit::Raw(_))));
        let label = format!("{}{}: {}", root.name, candidate.path, candidate.what);
        let named = |err: Error| match err {
            Error::Vectors { message, .. } => Error::Vectors {
                file: String::new(),
                vector: label.clone(),
                message,
            },
            other => other,
        };
        let mut verdict = oracle.judge(root, &text, reply_to).map_err(named)?;
        let mut keep = match &candidate.intent {
            Intent::Fault(_, pointer) => Some(pointer.clone()),
            Intent::Valid => None,
        };
        // A fault in a value (not a key twice, unknown or forbidden: those are
        // `Constraint`s): a key the schema refuses at the fault's own pointer is a map
        // key the builder chose, not the fault, and is mended like any unenforced rule.
        let value_fault = matches!(
            &candidate.intent,
            Intent::Fault(kind, _) if *kind != ViolationKind::Constraint
        );
        let at = |keep: Option<&str>, v: &crate::validate::Violation| {
            let refused_key = value_fault
                && v.expected.as_deref() == Some("absent")
                && v.found.as_deref() == Some("present");
            keep.is_some_and(|keep| {
                (v.pointer == keep && !refused_key)
                    || v.pointer
                        .strip_prefix(keep)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
        };
        if !own && reply_to.is_none() {
            for _ in 0..MENDING_ROUNDS {
                let at_fault = verdict.violations.iter().any(|v| at(keep.as_deref(), v));
                if verdict.outcome != Outcome::Invalid || at_fault {
                    break;
                }
                let failures = oracle.failures(root, &candidate.wire)?;
                let rules = mend::Rules {
                    covered: &|location: &str, via: &str| oracle.covered_via(location, via),
                    warned: &|location: &str| oracle.warned_at(location),
                    patterns_beside: &|location: &str| oracle.patterns_beside(location),
                    value_fault,
                };
                let mut renamed = Vec::new();
                if !mend::mend(
                    &mut candidate.wire,
                    &failures,
                    &rules,
                    keep.as_deref(),
                    &mut renamed,
                ) {
                    break;
                }
                // A renamed key moves the fault below it, and the vector's path.
                for change in &renamed {
                    keep = keep.map(|k| change.pointer(&k));
                    candidate.path = change.pointer(&candidate.path);
                    if let Some((pointer, _)) = &mut candidate.edit {
                        *pointer = change.pointer(pointer);
                    }
                }
                candidate.canonical = candidate.wire.clone();
                text = text::write(&candidate.wire, candidate.edit.as_ref());
                verdict = oracle.judge(root, &text, reply_to).map_err(named)?;
            }
        }
        // Its path as mended.
        let label = format!("{}{}: {}", root.name, candidate.path, candidate.what);
        let at = |v: &crate::validate::Violation| at(keep.as_deref(), v);
        let key = (root.name.clone(), text.clone(), reply_to.map(str::to_owned));
        if !self.seen.insert(key) {
            return Ok(());
        }
        let mut name = label.clone();
        if !self.names.insert(name.clone()) {
            let mut n = 2;
            while !self.names.insert(format!("{name} #{n}")) {
                n += 1;
            }
            name = format!("{name} #{n}");
        }
        let exact = candidate.edit.is_none() && text::exact_everywhere(&candidate.wire);
        let mut vector = Vector {
            name,
            root: root.name.clone(),
            message: candidate.wire,
            text: (!exact).then_some(text),
            canonical: None,
            reply_to: reply_to.map(str::to_owned),
            fault: None,
            pointer: None,
            why: None,
            unenforced: false,
        };
        match verdict.outcome {
            Outcome::Valid => {
                if own && let Some(serde) = &verdict.canonical {
                    let pointer = distinct_null(
                        oracle,
                        root,
                        &vector.message,
                        serde,
                        &candidate.canonical,
                        reply_to,
                    )?;
                    if let Some(pointer) = pointer {
                        return Err(Error::Vectors {
                            file: root.name.clone(),
                            vector: vector.name.clone(),
                            message: format!(
                                "serde tells `null` from absent at {pointer}: it writes back the \
                                 `null` it reads and leaves the key out when it is absent (serde's \
                                 double-option pattern), which the schema cannot say and every \
                                 generated language reads as no value (R3); see `symgen schema`'s \
                                 refusal of such a field"
                            ),
                        });
                    }
                }
                // On a schema symgen did not write, `null` and absent are told apart only
                // where the schema keeps other keys: the canonical form counts without them.
                let canonical = verdict.canonical.unwrap_or(candidate.canonical);
                vector.canonical = Some(canonical).filter(|c| {
                    if own {
                        *c != without_nulls(&vector.message)
                    } else {
                        without_nulls(c) != without_nulls(&vector.message)
                    }
                });
                out.valid.push(vector);
            }
            Outcome::Unknown => out.unknown.push(vector),
            Outcome::Invalid => {
                // The violation at the candidate's fault, where the schema sees it there
                // (its base may break a keyword the model does not enforce, first).
                let first = verdict.violations.iter().position(at).unwrap_or(0);
                // A text edit's value, where the validator judges it as it judges the
                // text (a whole number written as a float, `-0`).
                let alike = match respelled {
                    true => {
                        let text = vector.text.as_deref().unwrap_or_default();
                        oracle.value_judged_alike(root, text, reply_to, &verdict.violations)?
                    }
                    false => None,
                };
                let violation = verdict.violations.into_iter().nth(first);
                vector.fault = Some(
                    violation
                        .as_ref()
                        .map_or(ViolationKind::Constraint, |v| v.kind)
                        .as_str()
                        .to_owned(),
                );
                vector.pointer = Some(
                    violation
                        .as_ref()
                        .map_or(String::new(), |v| v.pointer.clone()),
                );
                vector.why = violation.map(|v| v.message);
                // Refused only by keywords the model warned it does not enforce, every
                // language takes it: built valid (a union counts where one alternative
                // takes the value but for such keywords), or built with a respelled
                // number the value keeps (`1.0` for an integer that takes it, beside
                // dependabot's `schedule`, required by an unenforced `if`/`then`). Built
                // with a fault of its own: where the fault is a value of an untagged
                // union that one alternative takes but for such keywords (a string given
                // to the number alternative, which the string alternative takes but for
                // its unenforced `pattern`), and the rest of the message breaks only such
                // keywords (github-workflow's `jobs: {}` under `minProperties: 1`). Any
                // other text edit is the text's own fault: a key given twice, which the
                // validator of a foreign schema reads as its last value, is refused by
                // the generated decoders, as serde refuses it. Refused by serde for its
                // depth alone (a value it buffers): a limit no schema states and no
                // generated type enforces.
                vector.unenforced = match (&alike, keep.as_deref()) {
                    _ if verdict.past_serde_depth => true,
                    (Some(value), _) => oracle.only_unenforced(root, value)?,
                    (None, _) if edited => false,
                    (None, None) => oracle.only_unenforced(root, &vector.message)?,
                    (None, Some(at)) => oracle.only_unenforced_at(
                        root,
                        &vector.message,
                        at,
                        candidate.alternative,
                    )?,
                };
                out.invalid.push(vector);
            }
        }
        Ok(())
    }
}

/// The JSON Pointer of a warning's place: what follows `<file>#` where the place is in
/// another document (`others`: the files the model's types were read from, as messages
/// name them, an absolute path among them), or what follows a leading `#` (a draft's
/// meta-schema, `#meta-schema`, as failure locations name it), else the place itself.
/// A pointer may hold `#` in a key (azure-iot-edge's `patternProperties` key
/// `^[^\.\$# ]+$`), so the place is never cut at a `#` of its own.
fn warned_pointer<'p>(place: &'p str, others: &[&str]) -> &'p str {
    others
        .iter()
        .find_map(|file| {
            place
                .strip_prefix(file)
                .and_then(|rest| rest.strip_prefix('#'))
        })
        .or_else(|| place.strip_prefix('#'))
        .unwrap_or(place)
}

/// The first pointer where serde keeps a `null` the message holds that the model's
/// re-encoding leaves out (R3: `null` in an optional field means absent), and leaves
/// the key out when it is absent: a field that tells `null` from absent, which the
/// schema cannot say. (An `Option<T>` that writes `null` for an absent key too is R3's
/// reading, not this.)
fn distinct_null(
    oracle: &mut oracle::Oracle,
    root: &NamedType,
    message: &Value,
    serde: &Value,
    model: &Value,
    reply_to: Option<&str>,
) -> Result<Option<String>> {
    let mut nulls = Vec::new();
    null_members(message, String::new(), &mut nulls);
    for pointer in nulls {
        let kept = crate::wire::json_pointer::get(serde, &pointer) == Some(&Value::Null);
        if !kept || crate::wire::json_pointer::get(model, &pointer).is_some() {
            continue;
        }
        let mut without = message.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap_or_default();
        let key = crate::wire::json_pointer::unescape(key);
        if let Some(Value::Object(object)) = without.pointer_mut(parent) {
            object.remove(key.as_ref());
        }
        let absent = oracle.serde_encoding(root, &without, reply_to)?;
        if absent.is_some_and(|a| crate::wire::json_pointer::get(&a, &pointer).is_none()) {
            return Ok(Some(pointer));
        }
    }
    Ok(None)
}

/// The pointers of the object members of `value` that are `null`.
fn null_members(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let pointer = crate::wire::json_pointer::child(&at, key);
                if item.is_null() {
                    out.push(pointer);
                } else {
                    null_members(item, pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                null_members(item, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// `value` with every `null`-valued key left out, recursively.
pub fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}
