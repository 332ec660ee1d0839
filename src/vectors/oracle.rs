//! The verdict on a candidate: the runtime validator's, on the schema; for a protocol
//! whose Rust types are registered, serde's too (the two must agree) and serde's
//! re-encoding as the canonical form. One difference is serde's alone, not the schema's:
//! a value nested past serde_json's depth limit where serde buffers it (see
//! [`Verdict::past_serde_depth`]).

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::json_pointer;
use crate::model::{NamedType, Origin, Reach, SCHEMA_MAPS};
use crate::validate::{
    Failure, Outcome, Report, SchemaOptions, Validator, Violation, ViolationKind, only_failing,
};
use crate::{Error, Protocol, Result};

/// What the oracle says of one candidate.
#[derive(Debug, Clone)]
pub(super) struct Verdict {
    /// Valid, unknown (R4) or invalid.
    pub outcome: Outcome,
    /// The violations, for an invalid candidate (first the first found).
    pub violations: Vec<Violation>,
    /// serde's re-encoding, when the Rust types are registered and the candidate is
    /// accepted.
    pub canonical: Option<Value>,
    /// Refused by serde for its nesting alone where the schema takes it: a value past
    /// serde_json's depth limit that serde buffers before it reads it (an internally
    /// tagged or untagged enum, a flattened field), under a key it would otherwise
    /// skip. No schema states a depth, and the generated types do not enforce one.
    pub past_serde_depth: bool,
}

/// Judges the candidates of one schema document.
pub(super) struct Oracle<'p> {
    document: Value,
    /// Where the document is on disk, for the files its `$ref`s name.
    path: Option<String>,
    /// The schema's verdict.
    schema: Validator,
    /// The registered protocol: serde's verdict and re-encoding.
    protocol: Option<(&'p Protocol, Validator)>,
    /// Validators of roots the document does not list (a definition, a type of
    /// another document), by root name.
    extra: HashMap<String, Validator>,
    /// Pointers of what the model warns it does not enforce, and what each warning
    /// reaches.
    warned: Vec<(String, Reach)>,
}

impl<'p> Oracle<'p> {
    /// The oracle of `document` (read from `path`, when on disk), whose model warned
    /// about `warned`; `protocol` when its Rust types are registered.
    pub fn new(
        document: Value,
        path: Option<&str>,
        protocol: Option<&'p Protocol>,
        warned: Vec<(String, Reach)>,
    ) -> Result<Self> {
        let (schema, protocol) = match protocol {
            Some(protocol) => {
                let typed = Validator::for_protocol(protocol)?;
                (
                    Validator::for_protocol(protocol)?.schema_only(),
                    Some((protocol, typed)),
                )
            }
            None => (
                Validator::from_schema(document.clone(), options(path))?,
                None,
            ),
        };
        Ok(Self {
            document,
            path: path.map(str::to_owned),
            schema,
            protocol,
            extra: HashMap::new(),
            warned,
        })
    }

    /// The name `root` is judged under, building its validator when the document does
    /// not list it.
    fn root_name(&mut self, root: &NamedType) -> Result<String> {
        if self.schema.root_names().any(|n| n == root.name) {
            return Ok(root.name.clone());
        }
        if matches!(root.origin, Origin::Root)
            && let Some(first) = self.schema.root_names().next()
        {
            return Ok(first.to_owned());
        }
        if !self.extra.contains_key(&root.name) {
            let selector = selector_of(root);
            let validator = match &root.origin {
                Origin::Document { file, .. } => {
                    Validator::from_schema_file(Path::new(file))?.with_root(&selector)?
                }
                _ => Validator::from_schema(self.document.clone(), options(self.path.as_deref()))?
                    .with_root(&selector)?,
            };
            self.extra.insert(root.name.clone(), validator);
        }
        Ok(selector_of(root))
    }

    fn validator(&self, root: &NamedType) -> &Validator {
        self.extra.get(&root.name).unwrap_or(&self.schema)
    }

    /// The verdict on `text` as an instance of `root` (a reply to the request tagged
    /// `reply_to`, when given).
    pub fn judge(
        &mut self,
        root: &NamedType,
        text: &str,
        reply_to: Option<&str>,
    ) -> Result<Verdict> {
        let name = self.root_name(root)?;
        let report = judged(self.validator(root), &name, text, reply_to)?;
        let mut verdict = Verdict {
            outcome: report.outcome,
            violations: report.violations,
            canonical: None,
            past_serde_depth: false,
        };
        if let Some((protocol, typed)) = &self.protocol {
            let serde = judged(typed, &name, text, reply_to)?;
            if serde.outcome != verdict.outcome {
                let too_deep = serde.outcome == Outcome::Invalid
                    && !serde.violations.is_empty()
                    && serde
                        .violations
                        .iter()
                        .all(|v| v.kind == ViolationKind::TooDeep);
                if too_deep {
                    return Ok(Verdict {
                        outcome: Outcome::Invalid,
                        violations: serde.violations,
                        canonical: None,
                        past_serde_depth: true,
                    });
                }
                return Err(Error::Vectors {
                    file: root.name.clone(),
                    vector: text.to_owned(),
                    message: format!(
                        "serde says {}, the schema says {}: the schema must accept exactly what serde accepts",
                        outcome_name(serde.outcome),
                        outcome_name(verdict.outcome)
                    ),
                });
            }
            if verdict.outcome != Outcome::Invalid {
                verdict.canonical = reencoded(protocol, &name, text, reply_to);
            }
        }
        Ok(verdict)
    }

    /// serde's re-encoding of `message` as an instance of `root`, when the Rust types are
    /// registered and serde takes it.
    pub fn serde_encoding(
        &mut self,
        root: &NamedType,
        message: &Value,
        reply_to: Option<&str>,
    ) -> Result<Option<Value>> {
        let name = self.root_name(root)?;
        let text = message.to_string();
        Ok(self
            .protocol
            .as_ref()
            .and_then(|(protocol, _)| reencoded(protocol, &name, &text, reply_to)))
    }

    /// Which keywords `value` breaks as an instance of `root` (none when it cannot tell),
    /// each failure's way written from the document's root.
    pub fn failures(&mut self, root: &NamedType, value: &Value) -> Result<Vec<Failure>> {
        let name = self.root_name(root)?;
        let mut failures = self
            .validator(root)
            .keyword_failures(&name, value)
            .unwrap_or_default();
        if !root.pointer.is_empty() && !matches!(root.origin, Origin::Document { .. }) {
            for failure in &mut failures {
                from_the_document(failure, &root.pointer);
            }
        }
        Ok(failures)
    }

    /// Whether the keyword at `location` (a pointer in its schema document) is one the
    /// model warned it does not enforce: at a warned pointer or below it (an unenforced
    /// `if` leaves its `then` and `else` unenforced too).
    pub fn covered(&self, location: &str) -> bool {
        let under = |base: &str| super::mend::within(location, base);
        self.warned.iter().any(|(w, reach)| {
            *reach == Reach::Below
                && (under(w)
                    || w.strip_suffix("/if").is_some_and(|parent| {
                        under(&format!("{parent}/then")) || under(&format!("{parent}/else"))
                    }))
        })
    }

    /// [`Self::covered`] for a keyword the engine reached by `via` (a failure's
    /// evaluation path): at its location, or at a schema the way passed through (an
    /// unenforced `else` whose `$ref` leads to a definition the types enforce elsewhere).
    pub fn covered_via(&self, location: &str, via: &str) -> bool {
        self.covered(location)
            || self
                .way_through(location, via)
                .is_some_and(|way| way.iter().any(|place| self.covered(place)))
    }

    /// Whether the way to the keyword at `location` passed through a schema a warning
    /// reaches before it came to the keyword's own (a `$ref` followed from an
    /// unenforced `then` or `else`).
    fn reached_unenforced(&self, location: &str, via: &str) -> bool {
        self.way_through(location, via).is_some_and(|way| {
            way.iter()
                .any(|place| !super::mend::within(location, place) && self.covered(place))
        })
    }

    /// The schemas a failure's way (`via`, from the document's root) passed through,
    /// as pointers into the document, each `$ref` followed to the fragment it names.
    /// None where the way cannot be placed in the document: a `$ref` to another
    /// document or an anchor, a root compiled inside a wrapper (`{"$ref": root}`, whose
    /// first step is not the document's), or a way that does not end at `location`.
    fn way_through(&self, location: &str, via: &str) -> Option<Vec<String>> {
        let mut at = String::new();
        let mut way = Vec::new();
        let mut name_next = false;
        for token in json_pointer::tokens(via) {
            let node = self.document.pointer(&at)?;
            let reference = node.get("$ref").and_then(Value::as_str);
            match reference {
                Some(reference) if token == "$ref" && !name_next => {
                    let fragment = reference.strip_prefix('#')?;
                    let pointer = crate::model::percent_decode(fragment)?;
                    if !pointer.is_empty() && !pointer.starts_with('/') {
                        return None;
                    }
                    way.push(json_pointer::child(&at, "$ref"));
                    way.push(std::mem::replace(&mut at, pointer));
                    name_next = false;
                }
                _ => {
                    way.push(at.clone());
                    name_next = !name_next && SCHEMA_MAPS.contains(&token.as_ref());
                    at = json_pointer::child(&at, &token);
                }
            }
        }
        (at == location).then_some(way)
    }

    /// Whether the model warns about the keyword at `location` itself, whatever its
    /// warning reaches below it (or [`Self::covered`]).
    pub fn warned_at(&self, location: &str) -> bool {
        self.covered(location)
            || self
                .warned
                .iter()
                .any(|(w, reach)| *reach != Reach::Nothing && w == location)
    }

    /// The `patternProperties` patterns of the schema that holds the keyword at
    /// `location` (none when the document has no such schema there).
    pub fn patterns_beside(&self, location: &str) -> Vec<String> {
        let parent = location.rsplit_once('/').map_or("", |(parent, _)| parent);
        self.document
            .pointer(parent)
            .and_then(|schema| schema.get("patternProperties"))
            .and_then(Value::as_object)
            .map(|patterns| patterns.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Whether `failure` is one the model warned about: its keyword [`Self::covered`],
    /// or, failing on its own (not a union no alternative takes), the keyword a
    /// [`Reach::Keyword`] warning names (a `oneOf` two alternatives take).
    pub fn covers(&self, failure: &Failure) -> bool {
        match failure {
            Failure::Keyword { location, via, .. } => {
                self.covered_via(location, via)
                    || self
                        .warned
                        .iter()
                        .any(|(w, reach)| *reach == Reach::Keyword && w == location)
            }
            Failure::Alternatives { location, via, .. } => self.covered_via(location, via),
        }
    }

    /// The value `text` reads as, where the validator judges that value as it judged
    /// the text (`violations`: the same kinds at the same places): a whole number
    /// written as a float, or `-0`, is a float of the value too. None where the text
    /// says what no value holds (a key given twice, a lone surrogate, `1e400`, nesting
    /// past serde_json's limit), which the validator reads from the text alone.
    pub fn value_judged_alike(
        &mut self,
        root: &NamedType,
        text: &str,
        reply_to: Option<&str>,
        violations: &[Violation],
    ) -> Result<Option<Value>> {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Ok(None);
        };
        let again = self.judge(root, &value.to_string(), reply_to)?;
        let alike = again.violations.len() == violations.len()
            && again
                .violations
                .iter()
                .zip(violations)
                .all(|(a, b)| a.pointer == b.pointer && a.kind == b.kind);
        Ok(alike.then_some(value))
    }

    /// Whether a value the schema rejects breaks only keywords the model warned it does
    /// not enforce.
    pub fn only_unenforced(&mut self, root: &NamedType, value: &Value) -> Result<bool> {
        if self.warned.is_empty() {
            return Ok(false);
        }
        let failures = self.failures(root, value)?;
        Ok(only_failing(&failures, &|failure| self.covers(failure)))
    }

    /// Whether a value built with a fault at `at` is refused there only as a value of a
    /// union that one alternative takes but for keywords the model warned it does not
    /// enforce (a string given to the number alternative, which the string alternative
    /// takes but for its unenforced `pattern`), and elsewhere only by such keywords (its
    /// base may break an unenforced `minProperties` beside the fault; the fault may sit
    /// in an alternative of an outer union). Where the validator finds the fault through
    /// a single keyword, warned about or not, the generated types, which built it as a
    /// fault from the model, may see it; so too where it finds nothing at the fault,
    /// unless the fault is the whole value of one alternative of an untagged union
    /// (`alternative`: a string for `fail-fast[Boolean]`, another constant for
    /// `shell[Literal3]`), which another alternative takes, in the types as in the schema.
    pub fn only_unenforced_at(
        &mut self,
        root: &NamedType,
        value: &Value,
        at: &str,
        alternative: bool,
    ) -> Result<bool> {
        if self.warned.is_empty() {
            return Ok(false);
        }
        let failures = self.failures(root, value)?;
        Ok(match self.passes_all(&failures, at) {
            Some(at_the_fault) => at_the_fault || alternative,
            None => false,
        })
    }

    /// Whether every failure of `failures` passes as [`Self::only_unenforced_at`] says:
    /// None when one does not, else whether the union at `at` was among them.
    fn passes_all(&self, failures: &[Failure], at: &str) -> Option<bool> {
        if failures.is_empty() {
            return None;
        }
        let mut seen = false;
        for failure in failures {
            seen |= self.passes(failure, at)?;
        }
        Some(seen)
    }

    fn passes(&self, failure: &Failure, at: &str) -> Option<bool> {
        let (Failure::Keyword { instance, .. } | Failure::Alternatives { instance, .. }) = failure;
        match failure {
            // The fault's own union: one alternative takes the value but for warned
            // keywords.
            Failure::Alternatives { alternatives, .. } if instance == at => alternatives
                .iter()
                .any(|errors| only_failing(errors, &|f| self.covers(f)))
                .then_some(true),
            // A keyword reached by way of a schema a warning reaches (a `$ref` followed
            // from an unenforced `else`): the types never ask it, wherever it finds the
            // fault.
            Failure::Keyword { location, via, .. } if self.reached_unenforced(location, via) => {
                Some(super::mend::within(instance, at))
            }
            // The fault found by a keyword, warned about or not (its warning may reach
            // a schema the types read more narrowly: netlify's typeless `collectionItems`,
            // whose unenforced `oneOf` is all that refuses an array), or inside a union:
            // the generated types, which built it as a fault from the model, may see it.
            _ if super::mend::within(instance, at) => None,
            _ if self.covers(failure) => Some(false),
            Failure::Keyword { .. } => None,
            Failure::Alternatives { alternatives, .. } => alternatives
                .iter()
                .filter_map(|errors| self.passes_all(errors, at))
                .reduce(|a, b| a || b),
        }
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Valid => "valid",
        Outcome::Unknown => "unknown",
        Outcome::Invalid => "invalid",
    }
}

fn options(path: Option<&str>) -> SchemaOptions {
    match path.map(Path::new).filter(|p| p.is_file()) {
        Some(path) => SchemaOptions::for_file(path),
        None => SchemaOptions::default(),
    }
}

/// The `--root` selector of a named type: its pointer in the document it is in.
/// `failure`'s way (and its alternatives'), which starts at the root's schema at `root`,
/// written from the document's root: a root compiled inside a wrapper (`{"$ref": root}`,
/// `{"allOf": [{"$ref": root}]}` before 2019-09) starts with the wrapper's steps.
fn from_the_document(failure: &mut Failure, root: &str) {
    let (Failure::Keyword { via, .. } | Failure::Alternatives { via, .. }) = failure;
    let rest = ["/$ref", "/allOf/0/$ref"]
        .iter()
        .find_map(|wrapper| {
            via.strip_prefix(wrapper)
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .unwrap_or(via);
    *via = format!("{root}{rest}");
    if let Failure::Alternatives { alternatives, .. } = failure {
        for failure in alternatives.iter_mut().flatten() {
            from_the_document(failure, root);
        }
    }
}

fn selector_of(root: &NamedType) -> String {
    let pointer = match &root.origin {
        Origin::Document { pointer, .. } => pointer,
        _ => &root.pointer,
    };
    format!("#{}", crate::uri::fragment(pointer))
}

/// One validator's report on `text` as `root` (as a reply to `reply_to`).
fn judged(validator: &Validator, root: &str, text: &str, reply_to: Option<&str>) -> Result<Report> {
    match reply_to {
        Some(tag) => Ok(validator.reply_to(tag)?.validate_str(text)),
        None => validator
            .validate_root_str(root, text)
            .ok_or_else(|| Error::Usage(format!("no root `{root}` to judge vectors against"))),
    }
}

/// serde's re-encoding of an accepted message (its reply data through the request's
/// reply type).
fn reencoded(protocol: &Protocol, root: &str, text: &str, reply_to: Option<&str>) -> Option<Value> {
    let mut encoded = protocol.root_named(root)?.roundtrip(text).ok()?.encoded;
    if let (Some(tag), Some(pointer)) = (reply_to, protocol.reply_data()) {
        let data = encoded.pointer(pointer).filter(|d| !d.is_null()).cloned();
        if let Some(data) = data {
            let again = protocol.reply_roundtrip(tag, &data)?.ok()?;
            if let Some(slot) = encoded.pointer_mut(pointer) {
                *slot = again;
            }
        }
    }
    Some(encoded)
}
