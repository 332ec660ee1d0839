//! The validator: one per protocol (or user schema), built once, then used for any
//! number of messages.
//!
//! Built-in protocols decide validity with serde's typed decode, straight from the
//! text and without building a `serde_json::Value` (the fast path): the committed schema
//! accepts exactly what serde accepts (`symgen check` keeps `schema/` equal to what the
//! Rust types emit, and the property tests hold the two verdicts equal). Only a message
//! serde rejects, or an unknown tag serde cannot place, is parsed into a `Value` and
//! walked with the `jsonschema` crate to report every violation. User schemas always take
//! the schema walk.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::compiled::{CompiledReply, CompiledSchema, SchemaOptions};
use super::explain::child;
use super::faults::{self, Fault};
use super::keywords::Failure;
use super::locate::{locate, locate_on_tape, locate_unique};
use super::message::{Member, Message};
use super::report::{Name, Outcome, Report, Violation, ViolationKind, copied, interned};
use super::router::{Router, has};
use super::text::{
    as_text, depth_violation, emptiness, number_at, serde_position, syntax_violation,
};
use crate::wire::{Accepted, DecodeError, Root, decode_error};
use crate::{Error, Protocol, Result};

/// Validates messages of one protocol, or against one user schema.
pub struct Validator {
    schema: CompiledSchema,
    /// Per compiled root, its name (`'static` for built-in roots).
    names: Vec<Name>,
    protocol: Option<Protocol>,
    /// Per compiled root, the index of its Rust type in `protocol.roots`; empty when
    /// validity is decided by the schema alone.
    typed: Vec<Option<usize>>,
    /// Which roots cannot take a text as known, told cheaply (see [`Self::fast`]).
    router: Router,
    /// Explain every root's rejection before picking one, even a root that cannot be
    /// the one picked (for the tests that hold the pick the same).
    every_root: bool,
}

/// How one root judged a message. A rejection is explained only when the report needs
/// it (see [`Validator::combine`]).
enum RootVerdict {
    Accepted {
        outcome: Outcome,
        tag: Option<Name>,
    },
    Rejected {
        knows_tag: bool,
        tag: Option<Name>,
        /// serde's refusal, when serde rejected the message.
        serde: Option<Refusal>,
        /// The faults of the text the root keeps (see [`faults`]), when they are what
        /// rejects it: the schema accepts the stand-ins.
        kept: Vec<Violation>,
    },
}

/// serde's refusal of a message: its error, when the decode built it (see
/// [`Root::verdict`]). It is put into words only when no schema violation explains it.
type Refusal = Option<serde_json::Error>;

/// serde's verdict on one root, from the fast path (`None` where it was not asked).
type SerdeVerdicts = Vec<Option<Result<Accepted, Refusal>>>;

fn names(
    schema: &CompiledSchema,
    protocol: Option<&Protocol>,
    typed: &[Option<usize>],
) -> Vec<Name> {
    schema
        .roots
        .iter()
        .enumerate()
        .map(
            |(index, root)| match (protocol, typed.get(index).copied().flatten()) {
                (Some(protocol), Some(typed)) => protocol.roots()[typed].shared_name(),
                _ => interned(&root.name),
            },
        )
        .collect()
}

impl Validator {
    /// The validator of a protocol, from the schema its Rust types emit, with serde's
    /// typed decode as the fast path.
    pub fn for_protocol(protocol: &Protocol) -> Result<Self> {
        let document = crate::schema::document(protocol)?;
        let schema = CompiledSchema::compile(document, SchemaOptions::default())?;
        let typed: Vec<Option<usize>> = schema
            .roots
            .iter()
            .map(|root| protocol.roots().iter().position(|t| t.name() == root.name))
            .collect();
        Ok(Self {
            names: names(&schema, Some(protocol), &typed),
            router: Router::new(&schema),
            every_root: false,
            schema,
            protocol: Some(protocol.clone()),
            typed,
        })
    }

    /// A validator for any JSON Schema document (draft 2020-12 unless its `$schema` says
    /// otherwise). Validity is the `jsonschema` crate's verdict. A symgen document (with
    /// `x-symgen-protocol`) is judged root by root, with unknown tags per R4; its
    /// `replyData` tells reply checking where reply data sits.
    pub fn from_schema(document: Value, options: SchemaOptions) -> Result<Self> {
        // Read as the generators read it (a draft assumed, a `$ref` fragment without
        // its `/`), not otherwise.
        let document = crate::model::explicit_reading(&document).unwrap_or(document);
        let schema = CompiledSchema::compile(document, options)?;
        Ok(Self {
            names: names(&schema, None, &[]),
            router: Router::new(&schema),
            every_root: false,
            schema,
            protocol: None,
            typed: Vec::new(),
        })
    }

    /// [`Self::from_schema`] for a schema file; relative `$ref`s resolve next to it.
    pub fn from_schema_file(path: &std::path::Path) -> Result<Self> {
        let text = crate::check::read_text(path)?;
        let file = Some(path.display().to_string());
        let document =
            crate::schema_file::parse(&path.to_string_lossy(), &text).map_err(|err| {
                Error::UnusableSchema {
                    file: file.clone(),
                    pointer: String::new(),
                    message: err,
                }
            })?;
        Self::from_schema(document, SchemaOptions::for_file(path)).map_err(|err| match err {
            Error::UnusableSchema {
                file: None,
                pointer,
                message,
            } => Error::UnusableSchema {
                file,
                pointer,
                message,
            },
            other => other,
        })
    }

    /// Uses `protocol` for reply checking (where reply data sits in a message).
    pub fn with_protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = Some(protocol);
        self
    }

    /// Reports at most `max` violations per message (at least one; default
    /// [`super::compiled::DEFAULT_MAX_ERRORS`]); finding them stops there, so a message
    /// with a million faults costs what the first `max` do.
    pub fn with_max_errors(mut self, max: usize) -> Self {
        self.schema.max_errors = max.max(1);
        self
    }

    /// Explains the rejection of every root asked before picking the one reported,
    /// where the validator leaves out the roots that cannot be it: the same reports,
    /// for the tests that hold them the same.
    #[doc(hidden)]
    pub fn explaining_every_root(mut self) -> Self {
        self.every_root = true;
        self
    }

    /// Decides validity with the schema walk alone, even for a built-in protocol (used by
    /// the tests that hold the schema's verdict equal to serde's).
    pub fn schema_only(mut self) -> Self {
        self.typed.clear();
        self
    }

    /// Whether validity is decided by serde's typed decode (built-in protocols).
    pub fn is_typed(&self) -> bool {
        !self.typed.is_empty()
    }

    /// The protocol this validator is linked to, if any.
    pub fn protocol(&self) -> Option<&Protocol> {
        self.protocol.as_ref()
    }

    /// The schema document.
    pub fn document(&self) -> &Value {
        &self.schema.document
    }

    /// The validator with `selector` as one more root, unless a root has that name: a
    /// definition's name (under `$defs` or `definitions`) or a JSON Pointer fragment
    /// (`#/$defs/X`); a tagged union of definitions is dispatched on its tag like a
    /// built-in root. Judge messages against it with [`Self::validate_root_str`].
    pub fn with_root(mut self, selector: &str) -> Result<Self> {
        if self.root_names().any(|name| name == selector) {
            return Ok(self);
        }
        self.schema.add_root(selector)?;
        if !self.typed.is_empty() {
            self.typed.push(None);
        }
        self.names = names(&self.schema, self.protocol.as_ref(), &self.typed);
        self.router = Router::new(&self.schema);
        Ok(self)
    }

    /// The names of the document's definitions (`$defs`, `definitions`), which
    /// [`Self::with_root`] takes.
    pub fn definitions(&self) -> Vec<String> {
        self.schema.definitions()
    }

    /// When every root (or the root called `only`) takes a value of every JSON type, a
    /// warning that says so and names the definitions to choose from with `--root`.
    pub fn accepts_anything_warning(&self, only: Option<&str>) -> Option<String> {
        let indices: Vec<usize> = match only {
            Some(name) => vec![self.schema.root_index(name)?],
            None => (0..self.schema.roots.len()).collect(),
        };
        if indices.is_empty() || !indices.iter().all(|&i| self.schema.accepts_anything(i)) {
            return None;
        }
        let names: Vec<&str> = indices
            .iter()
            .map(|&i| self.schema.roots[i].name.as_str())
            .collect();
        let definitions = self.schema.definitions();
        let choose = if definitions.is_empty() {
            "select a subschema with --root '#/json/pointer'".to_owned()
        } else {
            format!(
                "choose one with --root: {}",
                super::compiled::list(&definitions, 12)
            )
        };
        Some(format!(
            "the root {} accepts a value of every JSON type, so every message will be valid; {choose}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The names of the roots a message is judged against, in order.
    pub fn root_names(&self) -> impl Iterator<Item = &str> {
        self.schema.roots.iter().map(|r| r.name.as_str())
    }

    /// Validates one message given as bytes (must be UTF-8 JSON text).
    pub fn validate_bytes(&self, bytes: &[u8]) -> Report {
        match as_text(bytes) {
            Ok(text) => self.validate_str(text),
            Err(violation) => Report::invalid(None, None, vec![*violation]),
        }
    }

    /// Validates one message given as JSON text; violations carry line and column.
    pub fn validate_str(&self, text: &str) -> Report {
        self.text(text, None)
    }

    /// Validates one already parsed message.
    pub fn validate_value(&self, value: &Value) -> Report {
        self.value(value, None)
    }

    /// Validates `text` as an instance of the root called `root` only (e.g. `IpcMessage`).
    /// `None` when there is no such root.
    pub fn validate_root_str(&self, root: &str, text: &str) -> Option<Report> {
        let index = self.schema.root_index(root)?;
        Some(self.text(text, Some(index)))
    }

    /// Validates `value` as an instance of the root called `root` only.
    pub fn validate_root_value(&self, root: &str, value: &Value) -> Option<Report> {
        let index = self.schema.root_index(root)?;
        Some(self.value(value, Some(index)))
    }

    /// Whether the checks compiled from the schema (the fast path of a user schema)
    /// accept `text` as an instance of the root called `root`, on their own: `None`
    /// when they cannot tell and the general engine decides. For the tests that hold
    /// their verdict equal to the engine's and to serde's.
    #[doc(hidden)]
    pub fn checks_verdict(&self, root: &str, text: &str) -> Option<bool> {
        self.schema
            .checks_verdict(self.schema.root_index(root)?, text)
    }

    /// The violations of message `text` against the root called `root` as a rejected
    /// message is explained (a tagged union by what its tag decides, on the text's tape
    /// where it has one), and as the whole root's errors give them: for the tests that
    /// hold the two equal. `None` for an unknown root or a text that is not JSON.
    #[doc(hidden)]
    pub fn explanations(&self, root: &str, text: &str) -> Option<(Vec<Violation>, Vec<Violation>)> {
        self.schema
            .explanations(self.schema.root_index(root)?, text)
    }

    /// Which schema keywords `value` breaks as an instance of the root called `root`,
    /// by their location in the schema document: what tells a rule the generated types
    /// enforce from one they are documented not to. `None` for an unknown root.
    #[doc(hidden)]
    pub fn keyword_failures(&self, root: &str, value: &Value) -> Option<Vec<Failure>> {
        let index = self.schema.root_index(root)?;
        Some(self.schema.keyword_failures(index, value))
    }

    /// Decodes `text` as the Rust message type `T` (e.g. `IpcMessage`), or returns the
    /// report with every violation. An unknown tag decodes to `T`'s unknown case.
    pub fn decode<T>(&self, text: &str) -> std::result::Result<T, Report>
    where
        T: DeserializeOwned + schemars::JsonSchema,
    {
        if let Ok(value) = crate::wire::from_str::<T>(text) {
            return Ok(value);
        }
        let only = self.schema.root_index(&T::schema_name());
        let mut report = self.text(text, only);
        if report.is_accepted() {
            // serde rejects what the schema accepts here (a user schema, or another root).
            let violation = match decode_error::<T>(text) {
                Some(err) => serde_violation(text, &err),
                None => Violation::new(ViolationKind::Constraint, "", "rejected by the decoder"),
            };
            report = Report::invalid(report.root, report.message_type, vec![violation]);
        }
        Err(report)
    }

    /// A checker for replies to requests tagged `request_tag` (P1 `type` or P5
    /// `method`): the reply data (e.g. `/payload/data`, `/result`) must be that request's
    /// reply type.
    pub fn reply_to(&self, request_tag: &str) -> Result<ReplyValidator<'_>> {
        let pointer = match &self.protocol {
            Some(protocol) => protocol.reply_data().map(str::to_owned),
            None => self
                .schema
                .document
                .pointer("/x-symgen-protocol/replyData")
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
        let pointer = pointer.ok_or_else(|| Error::Reply {
            request: request_tag.to_owned(),
            message: "replies of this protocol are whole messages (it declares no reply data \
                      pointer): validate them as such, without --reply-to"
                .into(),
        })?;
        Ok(ReplyValidator {
            reply: self.schema.reply(request_tag)?,
            validator: self,
            pointer,
            reply_tags: reply_tags(&self.schema.document),
        })
    }

    fn roots(&self, only: Option<usize>) -> std::ops::Range<usize> {
        match only {
            Some(index) => index..index + 1,
            None => 0..self.schema.roots.len(),
        }
    }

    fn root_name(&self, index: usize) -> Option<Name> {
        Some(copied(&self.names[index]))
    }

    /// serde's verdict root by root, stopping at the first root that accepts the message
    /// as known (`Ok`, allocating nothing); else every verdict, for the slow path.
    ///
    /// With the text at hand, a root union that cannot take the message as known (its
    /// tag is absent, or one it does not know) is tried after the others. Only such roots
    /// move, so the first root that accepts is the same as in declaration order.
    fn fast(
        &self,
        only: Option<usize>,
        text: Option<&str>,
        check: impl Fn(&Root) -> Result<Accepted, Refusal>,
    ) -> Result<Report, SerdeVerdicts> {
        // Made on the first refusal: a valid message drops no vector.
        let mut serde: Option<SerdeVerdicts> = None;
        let Some(protocol) = self.protocol.as_ref().filter(|_| self.is_typed()) else {
            return Err(Vec::new());
        };
        let range = self.roots(only);
        let hopeless = match text {
            Some(text) if range.len() > 1 => self.router.hopeless(text),
            _ => 0,
        };
        for deferred in [false, true] {
            for index in range.clone() {
                if has(hopeless, index) != deferred {
                    continue;
                }
                let Some(typed) = self.typed[index] else {
                    continue;
                };
                match check(&protocol.roots()[typed]) {
                    Ok(accepted) if !accepted.unknown => {
                        return Ok(Report::accepted(
                            Outcome::Valid,
                            self.root_name(index),
                            accepted.tag,
                        ));
                    }
                    verdict => {
                        let roots = self.schema.roots.len();
                        serde.get_or_insert_with(|| (0..roots).map(|_| None).collect())[index] =
                            Some(verdict);
                    }
                }
            }
            if hopeless == 0 {
                break;
            }
        }
        let serde = serde.unwrap_or_default();
        match self.all_unknown(&serde, only) {
            Some(report) => Ok(report),
            None => Err(serde),
        }
    }

    fn text(&self, text: &str, only: Option<usize>) -> Report {
        let serde = match self.fast(only, Some(text), |root| root.verdict(text)) {
            Ok(report) => return report,
            Err(serde) => serde,
        };
        // The schema path's own fast path: the checks compiled from the schema.
        if serde.is_empty()
            && let Some((index, tag)) = self.schema.quick_accepts(text, self.roots(only))
        {
            return Report::accepted(Outcome::Valid, self.root_name(index), tag);
        }
        self.text_judged(text, only, serde)
    }

    /// [`Self::text`] past the fast paths: the verdict of a rejected (or unsure)
    /// message and its violations. Out of line, so that the fast paths of a valid
    /// message keep a small frame.
    #[inline(never)]
    fn text_judged(&self, text: &str, only: Option<usize>, serde: SerdeVerdicts) -> Report {
        if let Some(violation) = emptiness(text) {
            return Report::invalid(None, None, vec![violation]);
        }
        let read = match faults::read(text, self.schema.rust_integers) {
            Ok(read) => read,
            Err(err) => return Report::invalid(None, None, vec![syntax_violation(text, &err)]),
        };
        let (message, found) = (read.message(), read.faults());
        let mut report = self.judge(&message, only, serde, Some(text), found);
        if !found.is_empty() {
            report = self.judge_faults(report, text, message.value(), found);
        }
        // The read reports a key given twice as a fault; without one, the locator may
        // stop at the first member with the key it looks for.
        let unique = !found.iter().any(|f| f.what == faults::FaultKind::Duplicate);
        for violation in &mut report.violations {
            if violation.position.is_none() {
                violation.position = Some(match message.tape() {
                    Some(tape) => locate_on_tape(text, tape, &violation.pointer),
                    None if unique => locate_unique(text, &violation.pointer),
                    None => locate(text, &violation.pointer),
                });
            }
        }
        report.violations.sort_by_key(|v| v.position);
        report
    }

    /// The report on a message some of whose values are faults (see [`faults`]), judged
    /// with stand-ins. Where the schema accepts the stand-ins, the faults the root decodes
    /// are the violations, as serde would find them (none: the report stands). Otherwise
    /// the schema's violations stand, each one at a faulty value replaced by what is
    /// wrong with the value itself.
    fn judge_faults(&self, report: Report, text: &str, value: &Value, found: &[Fault]) -> Report {
        let index = report
            .root
            .as_deref()
            .and_then(|name| self.schema.root_index(name));
        let Some(index) =
            index.filter(|&index| report.is_accepted() || self.schema.accepts(index, value))
        else {
            let mut report = report;
            faults::substitute(text, &mut report.violations, found);
            return report;
        };
        let unknown = report.outcome == Outcome::Unknown;
        let violations = self.schema.kept_faults(index, text, value, found, unknown);
        if violations.is_empty() {
            report
        } else {
            Report::invalid(report.root, report.message_type, violations)
        }
    }

    fn value(&self, value: &Value, only: Option<usize>) -> Report {
        if let Some(violation) = depth_violation(value) {
            return Report::invalid(None, None, vec![violation]);
        }
        let serde = match self.fast(only, None, |root| root.check_value(value).map_err(Some)) {
            Ok(report) => return report,
            Err(serde) => serde,
        };
        self.judge(&Message::Value(value), only, serde, None, &[])
    }

    /// When serde decoded the message as an unknown tag for every root asked, the
    /// unknown report. `serde` is empty when no root asked has Rust types (a `--root`
    /// naming a definition).
    fn all_unknown(&self, serde: &SerdeVerdicts, only: Option<usize>) -> Option<Report> {
        let mut first = None;
        for index in self.roots(only) {
            match serde.get(index) {
                Some(Some(Ok(accepted))) if accepted.unknown => {
                    first.get_or_insert((index, accepted.tag.clone()));
                }
                _ => return None,
            }
        }
        let (index, tag) = first?;
        Some(Report::accepted(
            Outcome::Unknown,
            self.root_name(index),
            tag,
        ))
    }

    /// Judges a parsed message root by root (serde's verdict where known, the schema's
    /// otherwise; violations always from the schema walk) and combines the verdicts.
    /// `found` are the faults of the text (none for a `Value`): where the schema decides,
    /// a root that accepts their stand-ins but keeps one of them rejects the message, as
    /// serde rejects it (a key given twice in a struct), and the other roots are asked.
    fn judge(
        &self,
        message: &Message<'_>,
        only: Option<usize>,
        serde: SerdeVerdicts,
        text: Option<&str>,
        found: &[Fault],
    ) -> Report {
        let kept = |index: usize| match text {
            Some(text) if !found.is_empty() => {
                let unknown = self.schema.roots[index].takes_as_unknown(message.value());
                self.schema
                    .kept_faults(index, text, message.value(), found, unknown)
            }
            _ => Vec::new(),
        };
        // `serde` is empty (schema only) or has one entry per root.
        if serde.is_empty()
            && let Some(report) = self.schema_accepts(message.value(), only, &kept)
        {
            return report;
        }
        let mut verdicts = Vec::with_capacity(self.roots(only).len());
        let mut serde = serde;
        for index in self.roots(only) {
            let serde = serde.get_mut(index).and_then(Option::take);
            let root = &self.schema.roots[index];
            let member = root.tag_in(message);
            let tag = member
                .as_ref()
                .and_then(Member::as_str)
                .map(|t| root.tag_name(t));
            let verdict = match serde {
                Some(Ok(accepted)) => RootVerdict::Accepted {
                    outcome: if accepted.unknown {
                        Outcome::Unknown
                    } else {
                        Outcome::Valid
                    },
                    tag: accepted.tag,
                },
                Some(Err(error)) => RootVerdict::Rejected {
                    knows_tag: root.knows_tag(member.as_ref()),
                    tag,
                    serde: Some(error),
                    kept: Vec::new(),
                },
                None if self.schema.accepts(index, message.value()) => match kept(index) {
                    kept if kept.is_empty() => RootVerdict::Accepted {
                        outcome: if root.takes_as_unknown(message.value()) {
                            Outcome::Unknown
                        } else {
                            Outcome::Valid
                        },
                        tag,
                    },
                    kept => RootVerdict::Rejected {
                        knows_tag: root.knows_tag(member.as_ref()),
                        tag,
                        serde: None,
                        kept,
                    },
                },
                None => RootVerdict::Rejected {
                    knows_tag: root.knows_tag(member.as_ref()),
                    tag,
                    serde: None,
                    kept: Vec::new(),
                },
            };
            verdicts.push((index, verdict));
        }
        self.combine(verdicts, message, text)
    }

    /// Why root `index` rejects `message`: the schema's violations, or serde's own error
    /// when the schema finds nothing wrong.
    fn explain(
        &self,
        index: usize,
        message: &Message<'_>,
        serde: Option<&Refusal>,
        text: Option<&str>,
        kept: &[Violation],
    ) -> Vec<Violation> {
        if !kept.is_empty() {
            return kept.to_vec();
        }
        let mut violations = self.schema.violations(index, message);
        if violations.is_empty() {
            violations.push(match serde {
                Some(error) => self.serde_fallback(index, text, error.as_ref()),
                None => Violation::new(ViolationKind::Constraint, "", "rejected by the schema"),
            });
        }
        violations
    }

    /// The schema-only valid path: the first root whose schema accepts `value` as a
    /// known message, without explaining why the other roots reject it (what
    /// [`Self::combine`] would pick from the full verdicts, at the cost of a yes/no check
    /// per root).
    fn schema_accepts(
        &self,
        value: &Value,
        only: Option<usize>,
        kept: &dyn Fn(usize) -> Vec<Violation>,
    ) -> Option<Report> {
        self.roots(only).find_map(|index| {
            let root = &self.schema.roots[index];
            let known = self.schema.accepts(index, value)
                && !root.takes_as_unknown(value)
                && kept(index).is_empty();
            known.then(|| {
                let tag = root.tag_of(value).map(|t| root.tag_name(t));
                Report::accepted(Outcome::Valid, self.root_name(index), tag)
            })
        })
    }

    /// One verdict from every root's: valid if any root accepts the message as known;
    /// else invalid if a root that knows its tag rejects it; else unknown if a root
    /// takes it as an unknown tag; else invalid as judged by the root it fits best
    /// (see [`fit`]). Only the rejections that can be reported are explained.
    fn combine(
        &self,
        verdicts: Vec<(usize, RootVerdict)>,
        message: &Message<'_>,
        text: Option<&str>,
    ) -> Report {
        let accepted = |verdicts: &[(usize, RootVerdict)], wanted: Outcome| {
            verdicts.iter().find_map(|(index, v)| match v {
                RootVerdict::Accepted { outcome, tag } if *outcome == wanted => Some(
                    Report::accepted(wanted, self.root_name(*index), tag.clone()),
                ),
                _ => None,
            })
        };
        if let Some(report) = accepted(&verdicts, Outcome::Valid) {
            return report;
        }
        // The rejections that count (those of roots that know the tag, or all), and the
        // one that rejects the message best by [`fit`], the first on a tie. A root that
        // lacks its tag misses the message at the top level, or by a full list of
        // violations: it is explained after the others, and only when it could still
        // be the best.
        let rejected = |need_tag: bool| {
            let counted = verdicts
                .iter()
                .filter_map(|(index, verdict)| match verdict {
                    RootVerdict::Rejected {
                        knows_tag,
                        tag,
                        serde,
                        kept,
                    } if *knows_tag || !need_tag => Some((*index, tag, serde, kept)),
                    _ => None,
                });
            // Only among several roots can one be left out.
            let defer = !self.every_root && counted.clone().nth(1).is_some();
            let least_lacking = (0, self.schema.max_errors);
            type Best = Option<((usize, usize), usize, Report)>;
            let mut best: Best = None;
            let consider =
                |best: &mut Best,
                 (index, tag, serde, kept): (usize, &Option<_>, &Option<_>, &Vec<_>)| {
                    let violations = self.explain(index, message, serde.as_ref(), text, kept);
                    let fit = fit(&violations);
                    if best
                        .as_ref()
                        .is_none_or(|(least, first, _)| (fit, index) < (*least, *first))
                    {
                        let tag = tag.as_ref().map(copied);
                        *best = Some((
                            fit,
                            index,
                            Report::invalid(self.root_name(index), tag, violations),
                        ));
                    }
                };
            let mut lacking = Vec::new();
            for root in counted {
                if defer && self.schema.lacks_tag(root.0, message) {
                    lacking.push(root);
                } else {
                    consider(&mut best, root);
                }
            }
            for root in lacking {
                let hopeless = best
                    .as_ref()
                    .is_some_and(|(least, first, _)| (least_lacking, root.0) > (*least, *first));
                if !hopeless {
                    consider(&mut best, root);
                }
            }
            best.map(|(.., report)| report)
        };
        if let Some(report) = rejected(true) {
            return report;
        }
        if let Some(report) = accepted(&verdicts, Outcome::Unknown) {
            return report;
        }
        rejected(false).unwrap_or_else(|| {
            Report::invalid(
                None,
                None,
                vec![Violation::new(
                    ViolationKind::Constraint,
                    "",
                    "the schema has no root to validate against",
                )],
            )
        })
    }

    /// The violation for a message serde rejects while the schema walk finds nothing
    /// wrong (duplicate keys, integers written as `1.0`): serde's own message and path.
    fn serde_fallback(
        &self,
        index: usize,
        text: Option<&str>,
        error: Option<&serde_json::Error>,
    ) -> Violation {
        let protocol = self.protocol.as_ref();
        let typed = self.typed.get(index).copied().flatten();
        if let (Some(text), Some(protocol), Some(typed)) = (text, protocol, typed)
            && let Some(err) = protocol.roots()[typed].decode_error(text)
        {
            return serde_violation(text, &err);
        }
        Violation::new(
            ViolationKind::Constraint,
            "",
            match error {
                Some(error) => format!("rejected by the decoder: {error}"),
                None => "rejected by the decoder".to_owned(),
            },
        )
    }
}

/// How badly a message misses a root, for picking the root it was meant as: top-level
/// keys it lacks (or a message of the wrong type altogether) count first, then the
/// number of violations.
fn fit(violations: &[Violation]) -> (usize, usize) {
    let shallow = violations
        .iter()
        .filter(|v| {
            v.pointer.is_empty()
                || (v.kind == ViolationKind::MissingRequired && v.pointer.matches('/').count() == 1)
        })
        .count();
    (shallow, violations.len())
}

/// A violation from serde's own error (path and position).
fn serde_violation(text: &str, err: &DecodeError) -> Violation {
    let mut pointer = err.pointer.clone();
    let duplicate = err
        .message
        .strip_prefix("duplicate field `")
        .and_then(|rest| rest.split('`').next());
    let (kind, message) = match duplicate {
        Some(key) => {
            if !pointer.ends_with(&child("", key)) {
                pointer = child(&pointer, key);
            }
            (ViolationKind::Constraint, format!("duplicate key `{key}`"))
        }
        None if err.message.starts_with("invalid type") => {
            (ViolationKind::WrongType, err.message.clone())
        }
        // serde_json's limit on what it reads, into a buffer too (a value it would skip
        // in a plain struct, read first by an internally tagged or untagged enum).
        None if super::text::is_recursion_limit(&err.message) => {
            (ViolationKind::TooDeep, super::text::too_deep_message())
        }
        None => (ViolationKind::Constraint, err.message.clone()),
    };
    let mut position = serde_position(text, err.line, err.column);
    let mut violation = Violation::new(kind, pointer, message);
    if duplicate.is_none()
        && let Some((start, number)) = number_at(text, err.line, err.column)
    {
        // serde stops at the end of a number it cannot take; point at its start, and
        // say plainly when it is an integer no 64-bit type holds (it was read as a
        // float, rounded).
        position = start;
        let integer = !number.contains(['.', 'e', 'E']);
        if integer && number.parse::<i64>().is_err() && number.parse::<u64>().is_err() {
            violation.kind = ViolationKind::OutOfRange;
            violation.message = super::text::beyond_64_bits(number);
            violation.expected = Some("an integer within i64 or u64".into());
            violation.found = Some(number.to_owned());
        }
    }
    violation.at(position)
}

/// The tags of union variants marked `x-symgen-is-reply` (P1 `response`).
fn reply_tags(document: &Value) -> Vec<String> {
    let mut tags = Vec::new();
    if let Some(defs) = document.get("$defs").and_then(Value::as_object) {
        for def in defs.values() {
            for variant in def
                .get("oneOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if variant.get("x-symgen-is-reply").and_then(Value::as_bool) != Some(true) {
                    continue;
                }
                if let Some(properties) = variant.get("properties").and_then(Value::as_object) {
                    for property in properties.values() {
                        if let Some(tag) = property.get("const").and_then(Value::as_str) {
                            tags.push(tag.to_owned());
                        }
                    }
                }
            }
        }
    }
    tags
}

/// Checks replies to one request type: the message itself, then its reply data against
/// the request's reply type.
pub struct ReplyValidator<'v> {
    validator: &'v Validator,
    reply: CompiledReply,
    pointer: String,
    reply_tags: Vec<String>,
}

impl ReplyValidator<'_> {
    /// The request tag whose replies this checks.
    pub fn request_tag(&self) -> &str {
        &self.reply.request_tag
    }

    /// Validates a reply message given as bytes.
    pub fn validate_bytes(&self, bytes: &[u8]) -> Report {
        match as_text(bytes) {
            Ok(text) => self.validate_str(text),
            Err(violation) => Report::invalid(None, None, vec![*violation]),
        }
    }

    /// Validates a reply message given as text.
    pub fn validate_str(&self, text: &str) -> Report {
        let report = self.validator.validate_str(text);
        if report.outcome != Outcome::Valid {
            return report;
        }
        // A reply the reply check cannot read (a number out of range, a lone surrogate,
        // nesting past the limit) is a violation, never a skipped check.
        let read = match faults::read(text, self.validator.schema.rust_integers) {
            Ok(read)
                if !read.faults().iter().any(|f| {
                    f.what != faults::FaultKind::FloatInteger
                        && f.what != faults::FaultKind::Duplicate
                }) =>
            {
                read
            }
            _ => {
                let err = serde_json::from_str::<Value>(text).err();
                let mut violation = match err {
                    Some(err) => syntax_violation(text, &err),
                    None => Violation::new(ViolationKind::Syntax, "", "the text cannot be read"),
                };
                violation.message = format!("reply data cannot be checked: {}", violation.message);
                return Report::invalid(report.root, report.message_type, vec![violation]);
            }
        };
        let message = read.message();
        let mut report = self.check_data(report, message.value());
        if report.outcome == Outcome::Valid {
            report = self.check_faults(report, text, message.value(), read.faults());
        }
        for violation in &mut report.violations {
            violation.position = Some(locate(text, &violation.pointer));
        }
        report
    }

    /// Validates a reply message given as a parsed value.
    pub fn validate_value(&self, value: &Value) -> Report {
        let report = self.validator.validate_value(value);
        if report.outcome != Outcome::Valid {
            return report;
        }
        self.check_data(report, value)
    }

    fn applies_to(&self, report: &Report) -> bool {
        if self.reply_tags.is_empty() {
            // No reply variant (P5): replies are the messages of an untagged root.
            let root = report.root.as_deref();
            !self
                .validator
                .schema
                .roots
                .iter()
                .any(|r| Some(r.name.as_str()) == root && r.union.is_some())
        } else {
            report
                .message_type
                .as_ref()
                .is_some_and(|t| self.reply_tags.iter().any(|r| r == t))
        }
    }

    /// The reply data's integral floats its reply type decodes as Rust integers (see
    /// [`CompiledSchema::reply_faults`]), as violations of a reply checked valid.
    fn check_faults(&self, report: Report, text: &str, message: &Value, found: &[Fault]) -> Report {
        if found.is_empty() || !self.applies_to(&report) {
            return report;
        }
        let Some(data) = message.pointer(&self.pointer).filter(|d| !d.is_null()) else {
            return report;
        };
        let inside: Vec<Fault> = found
            .iter()
            .filter_map(|fault| {
                let rest = fault.pointer.strip_prefix(&self.pointer)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| Fault {
                    pointer: rest.to_owned(),
                    ..fault.clone()
                })
            })
            .collect();
        let mut violations = self
            .validator
            .schema
            .reply_faults(&self.reply, text, data, &inside);
        if violations.is_empty() {
            return report;
        }
        for violation in &mut violations {
            violation.pointer = format!("{}{}", self.pointer, violation.pointer);
            violation.message = format!(
                "{} (reply to `{}`)",
                violation.message, self.reply.request_tag
            );
        }
        Report::invalid(report.root, report.message_type, violations)
    }

    fn check_data(&self, report: Report, message: &Value) -> Report {
        if !self.applies_to(&report) {
            return report;
        }
        let data = match message.pointer(&self.pointer) {
            None | Some(Value::Null) => return report,
            Some(data) => data,
        };
        let serde = match (self.validator.is_typed(), &self.validator.protocol) {
            (true, Some(protocol)) => protocol.reply_roundtrip(&self.reply.request_tag, data),
            _ => None,
        };
        let mut violations = match &serde {
            Some(Ok(_)) => return report,
            _ => self.reply.violations(data),
        };
        if violations.is_empty() {
            match serde {
                Some(Err(message)) => violations.push(Violation::new(
                    ViolationKind::Constraint,
                    "",
                    format!("rejected by the decoder: {message}"),
                )),
                _ => return report,
            }
        }
        for violation in &mut violations {
            violation.pointer = format!("{}{}", self.pointer, violation.pointer);
            violation.related = violation
                .related
                .iter()
                .map(|r| format!("{}{r}", self.pointer))
                .collect();
            violation.message = format!(
                "{} (reply to `{}`)",
                violation.message, self.reply.request_tag
            );
        }
        Report::invalid(report.root, report.message_type, violations)
    }
}
