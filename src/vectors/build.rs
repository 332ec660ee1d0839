//! Candidate messages from a model, for one root type: every valid shape worth asking
//! about (each type, union variant and tag spelling, optional field absent / present /
//! `null`, enum value, range boundary, empty and non-empty container, unknown key and
//! unknown tag), and one fault at a time (each required key missing, each type wrong,
//! each bound crossed, each enum value misspelled, each constant changed, each
//! cross-field rule broken, a duplicate key, `1.0` and `-0` for an integer, `1e400`,
//! `NaN` and `Infinity` for a number, a lone surrogate, free-form JSON nested past
//! serde's limit), and a value nested past that limit where serde skips it (an unknown
//! key). Nothing is judged here: the oracle gives every candidate its verdict.
//!
//! Each candidate is built from the root's *minimal* instance (required fields only,
//! the first variant, empty containers) with one place changed, so a vector says one
//! thing. A named type is spread out (all its cases and faults) the first time a root
//! reaches it; later uses get its minimal instance only, so the count grows with the
//! schema, not with the number of paths through it.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use crate::model::{
    Additional, Constraint, Enum, Field, IntType, Literal, Model, Payload, Presence, Record,
    StringType, Tagging, TypeExpr, TypeKind, Union, Variant,
};
use crate::validate::ViolationKind;

/// The most model steps one root may take (hostile schemas: a bound, not a hang).
const MAX_STEPS: usize = 200_000;

/// What an object without a record of its own allows besides its fields.
static ALLOWED: Additional = Additional::Allowed;

/// The key an open object receives that no schema names.
pub(super) const UNKNOWN_KEY: &str = "x-unknown-key";

/// How deep the nested values of the depth vectors go: past serde_json's limit (128
/// levels) wherever the value is, and past jiter's (200), short of any stack's.
const DEEP: usize = 240;

/// `DEEP` nested arrays around `1`, as text (a file of vectors holds it as a string, as
/// serde_json cannot read it as a value).
fn deep_text() -> String {
    format!("{}1{}", "[".repeat(DEEP), "]".repeat(DEEP))
}

/// The tag an open union receives that no schema names.
pub(super) const UNKNOWN_TAG: &str = "x-unknown-tag";

/// A value as sent, and what a conforming receiver re-encodes it as: serde's rules on
/// symgen's own schemas (aliases renamed, unknown keys dropped, defaults filled in, a
/// `null` that means absent left out), the value itself on any other schema.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Sample {
    /// On the wire.
    pub wire: Value,
    /// Re-encoded.
    pub canonical: Value,
}

impl Sample {
    fn same(value: Value) -> Self {
        Self {
            canonical: value.clone(),
            wire: value,
        }
    }
}

/// A change to the text of a message that no JSON value can carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Edit {
    /// The value is written as this text (`1.0`, `1e400`, `"\ud800"`).
    Raw(String),
    /// The object's member of this key is written twice.
    DuplicateKey(String),
}

/// What a candidate is meant to be; the oracle has the last word.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Intent {
    /// A valid message.
    Valid,
    /// One fault: the rule it breaks and where (JSON Pointer in the message).
    Fault(ViolationKind, String),
}

/// One candidate, relative to the value it was built for until it reaches the root.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Candidate {
    /// Where the change is (`[log]/payload/level`), with union choices in brackets.
    pub path: String,
    /// What the change is (`"warn"`, `missing`, `null`).
    pub what: String,
    /// The message.
    pub wire: Value,
    /// Its re-encoding as the model's rules give it, should it be accepted (a fault's
    /// value stays as it is).
    pub canonical: Value,
    /// A text change at a pointer of the message, when its text is not the value's.
    pub edit: Option<(String, Edit)>,
    /// What it is meant to be.
    pub intent: Intent,
    /// A fault given as the whole value of one alternative of an untagged union (a
    /// string for `fail-fast[Boolean]`), which another alternative may take.
    pub alternative: bool,
}

/// Everything built for one value: its minimal instance and its candidates.
#[derive(Debug, Clone, Default)]
struct Spread {
    cases: Vec<Candidate>,
}

/// Why no candidate could be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refusal {
    /// The schema took more steps than [`MAX_STEPS`].
    TooLarge,
    /// The root has no finite instance (a required field that contains itself).
    NoInstance,
}

/// Builds the candidates of one model's roots.
pub(super) struct Builder<'m> {
    model: &'m Model,
    /// symgen's own schema: serde's rules apply (see [`Sample`]).
    own: bool,
    /// Named types already spread out for the current root.
    expanded: HashSet<String>,
    /// Minimal instances by type name (`None`: none without recursion).
    minimal: HashMap<String, Option<Sample>>,
    /// Named types whose minimal instance is being built.
    building: Vec<String>,
    steps: usize,
}

impl<'m> Builder<'m> {
    /// A builder for `model`'s types.
    pub fn new(model: &'m Model) -> Self {
        Self {
            model,
            own: model.protocol.is_some(),
            expanded: HashSet::new(),
            minimal: HashMap::new(),
            building: Vec::new(),
            steps: 0,
        }
    }

    /// Every candidate for values of the named type `root`: its minimal instance first.
    pub fn root(&mut self, root: &str) -> Result<Vec<Candidate>, Refusal> {
        self.expanded.clear();
        self.steps = 0;
        let ty = TypeExpr::Ref(root.to_owned());
        let minimal = self.minimal_of(&ty)?.ok_or(Refusal::NoInstance)?;
        let mut out = vec![Candidate {
            path: String::new(),
            what: "minimal".into(),
            wire: minimal.wire,
            canonical: minimal.canonical,
            edit: None,
            intent: Intent::Valid,
            alternative: false,
        }];
        out.extend(self.spread(&ty)?.cases);
        Ok(out)
    }

    /// The candidates for `ty`'s values, as reply data: the same as [`Self::root`] with
    /// the types already spread for other roots spread again.
    pub fn data(&mut self, ty: &TypeExpr) -> Result<(Sample, Vec<Candidate>), Refusal> {
        self.expanded.clear();
        self.steps = 0;
        let minimal = self.minimal_of(ty)?.ok_or(Refusal::NoInstance)?;
        Ok((minimal, self.spread(ty)?.cases))
    }

    /// The minimal instance of the named type `name` (for building a reply host).
    pub fn minimal_named(&mut self, name: &str) -> Result<Option<Sample>, Refusal> {
        self.minimal_of(&TypeExpr::Ref(name.to_owned()))
    }

    /// The minimal instance of one variant of the union `name`.
    pub fn minimal_variant(
        &mut self,
        union: &Union,
        variant: &Variant,
    ) -> Result<Option<Sample>, Refusal> {
        self.variant_minimal(union, variant)
    }

    fn step(&mut self) -> Result<(), Refusal> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            Err(Refusal::TooLarge)
        } else {
            Ok(())
        }
    }

    // ---- minimal instances -------------------------------------------------------

    fn minimal_of(&mut self, ty: &TypeExpr) -> Result<Option<Sample>, Refusal> {
        self.step()?;
        Ok(match ty {
            TypeExpr::Any => Some(Sample::same(Value::Object(Map::new()))),
            TypeExpr::Null => Some(Sample::same(Value::Null)),
            TypeExpr::Bool => Some(Sample::same(Value::Bool(false))),
            TypeExpr::Integer(int) => Some(Sample::same(int_value(typical_int(int)))),
            TypeExpr::Number(_) => Some(Sample::same(float(1.5))),
            TypeExpr::String(string) => Some(Sample::same(Value::String(typical_string(
                string.format.as_deref(),
            )))),
            TypeExpr::Literal(literal) => Some(Sample::same(literal_value(literal))),
            TypeExpr::Array(_) => Some(Sample::same(Value::Array(Vec::new()))),
            TypeExpr::Map(_) => Some(Sample::same(Value::Object(Map::new()))),
            TypeExpr::Tuple(items) => {
                let mut wire = Vec::new();
                let mut canonical = Vec::new();
                for item in items {
                    let Some(sample) = self.minimal_of(item)? else {
                        return Ok(None);
                    };
                    wire.push(sample.wire);
                    canonical.push(sample.canonical);
                }
                Some(Sample {
                    wire: Value::Array(wire),
                    canonical: Value::Array(canonical),
                })
            }
            TypeExpr::Nullable(inner) => match self.minimal_of(inner)? {
                Some(sample) => Some(sample),
                None => Some(Sample::same(Value::Null)),
            },
            TypeExpr::Ref(name) => self.minimal_named_type(name)?,
        })
    }

    fn minimal_named_type(&mut self, name: &str) -> Result<Option<Sample>, Refusal> {
        if let Some(known) = self.minimal.get(name) {
            return Ok(known.clone());
        }
        if self.building.iter().any(|n| n == name) {
            return Ok(None);
        }
        let Some(named) = self.model.get(name) else {
            return Ok(None);
        };
        self.building.push(name.to_owned());
        let built = match &named.kind {
            TypeKind::Record(record) => self.record_minimal(&Shape::record(record)),
            TypeKind::Enum(e) => Ok(e
                .values
                .first()
                .map(|v| Sample::same(literal_value(&v.value)))),
            TypeKind::Union(union) => {
                let mut found = None;
                for variant in &union.variants {
                    if let Some(sample) = self.variant_minimal(union, variant)? {
                        found = Some(sample);
                        break;
                    }
                }
                Ok(found)
            }
            TypeKind::Alias(expr) => {
                let expr = expr.clone();
                self.minimal_of(&expr)
            }
        };
        self.building.pop();
        let built = built?;
        // A miss inside a cycle may be a hit from the outside: remember misses only
        // when nothing else was being built.
        if built.is_some() || self.building.is_empty() {
            self.minimal.insert(name.to_owned(), built.clone());
        }
        Ok(built)
    }

    fn record_minimal(&mut self, shape: &Shape<'_>) -> Result<Option<Sample>, Refusal> {
        let mut wire = Map::new();
        let mut canonical = Map::new();
        for (key, sample) in &shape.fixed {
            wire.insert(key.clone(), sample.wire.clone());
            canonical.insert(key.clone(), sample.canonical.clone());
        }
        for field in &shape.fields {
            if field.required {
                let Some(sample) = self.field_minimal(field)? else {
                    return Ok(None);
                };
                wire.insert(field.name.clone(), sample.wire);
                canonical.insert(field.name.clone(), sample.canonical);
            } else if let Some(default) = self.absent_canonical(field, shape) {
                canonical.insert(field.name.clone(), default);
            }
        }
        let mut sample = Sample {
            wire: Value::Object(wire),
            canonical: Value::Object(canonical),
        };
        // The minimal instance obeys the object's cross-field rules.
        for constraint in shape.constraints {
            match constraint {
                Constraint::AtLeastOneOf(names) => {
                    let present = names.iter().any(|n| present_value(&sample.wire, n));
                    if let (false, Some(field)) = (present, shape.field(names.first())) {
                        match self.field_minimal(field)? {
                            Some(value) => set_field(&mut sample, field, value),
                            None => return Ok(None),
                        }
                    }
                }
                Constraint::RequiredWhen {
                    field,
                    when,
                    values,
                } => {
                    let triggered = sample
                        .wire
                        .get(when)
                        .is_some_and(|v| values.iter().any(|l| literal_value(l) == *v));
                    if triggered
                        && !present_value(&sample.wire, field)
                        && let Some(field) = shape.field(Some(field))
                    {
                        match self.field_minimal(field)? {
                            Some(value) => set_field(&mut sample, field, value),
                            None => return Ok(None),
                        }
                    }
                }
            }
        }
        Ok(Some(sample))
    }

    /// A field's minimal value when present (`null` only where nothing else ends).
    fn field_minimal(&mut self, field: &Field) -> Result<Option<Sample>, Refusal> {
        match self.minimal_of(field.ty.non_null())? {
            Some(sample) => Ok(Some(sample)),
            None if field.ty.is_nullable() => Ok(Some(Sample::same(Value::Null))),
            None => Ok(None),
        }
    }

    /// What an absent optional field re-encodes as: on symgen's own schemas, its
    /// default (a constant is its own default), as serde fills it in.
    fn absent_canonical(&self, field: &Field, shape: &Shape<'_>) -> Option<Value> {
        if !self.own {
            return None;
        }
        if shape.content.as_deref() == Some(field.name.as_str()) {
            return Some(Value::Object(Map::new()));
        }
        match (&field.default, field.ty.non_null()) {
            (Some(value), _) if !value.is_null() => Some(value.clone()),
            (_, TypeExpr::Literal(literal)) => Some(literal_value(literal)),
            _ => None,
        }
    }

    fn variant_minimal(
        &mut self,
        union: &Union,
        variant: &Variant,
    ) -> Result<Option<Sample>, Refusal> {
        match &union.tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                let Some(shape) = self.variant_shape(union, variant, tag)? else {
                    return Ok(None);
                };
                self.record_minimal(&shape)
            }
            Tagging::External => {
                let name = variant.tag.as_ref().and_then(Literal::as_str).unwrap_or("");
                match &variant.payload {
                    Payload::Unit => Ok(Some(Sample::same(Value::String(name.to_owned())))),
                    payload => {
                        let Some(inner) = self.payload_minimal(payload)? else {
                            return Ok(None);
                        };
                        Ok(Some(wrap(name, inner)))
                    }
                }
            }
            Tagging::Untagged => self.payload_minimal(&variant.payload),
        }
    }

    fn payload_minimal(&mut self, payload: &Payload) -> Result<Option<Sample>, Refusal> {
        match payload {
            Payload::Unit => Ok(Some(Sample::same(Value::Null))),
            Payload::Fields(fields) => self.record_minimal(&Shape::fields(fields)),
            Payload::Type(ty) => self.minimal_of(ty),
            Payload::Content(field) => self.field_minimal(field),
        }
    }

    /// The object a variant of an internally or adjacently tagged union is: the tag,
    /// the union's shared fields, and the payload's fields (or its content field).
    fn variant_shape<'a>(
        &mut self,
        union: &'a Union,
        variant: &'a Variant,
        tag: &str,
    ) -> Result<Option<Shape<'a>>, Refusal>
    where
        'm: 'a,
    {
        let tag_value = variant.tag.as_ref().map_or(Value::Null, literal_value);
        let mut shape = Shape {
            fixed: vec![(tag.to_owned(), Sample::same(tag_value))],
            fields: union.fields.iter().collect(),
            additional: &ALLOWED,
            constraints: &[],
            content: None,
        };
        match &variant.payload {
            Payload::Unit => {}
            Payload::Fields(fields) => shape.fields.extend(fields.iter()),
            Payload::Content(field) => {
                shape.content = Some(field.name.clone());
                shape.fields.push(field);
            }
            Payload::Type(TypeExpr::Ref(name)) => match self.record_of(name) {
                Some(record) => {
                    shape.fields.extend(record.fields.iter());
                    shape.additional = &record.additional;
                    shape.constraints = &record.constraints;
                }
                None => return Ok(None),
            },
            Payload::Type(_) => return Ok(None),
        }
        Ok(Some(shape))
    }

    /// The record a name resolves to, through aliases.
    fn record_of(&self, name: &str) -> Option<&'m Record> {
        match &self.model.resolve(name)?.kind {
            TypeKind::Record(record) => Some(record),
            _ => None,
        }
    }

    // ---- spreading ---------------------------------------------------------------

    /// Every candidate for `ty` other than its minimal instance.
    fn spread(&mut self, ty: &TypeExpr) -> Result<Spread, Refusal> {
        self.step()?;
        let mut out = Spread::default();
        match ty {
            TypeExpr::Any => {
                for (what, value) in [
                    ("a number", float(0.5)),
                    ("a string", Value::String("text".into())),
                    ("true", Value::Bool(true)),
                    ("an array", serde_json::json!([1, "two", [3.5]])),
                    (
                        "an object",
                        serde_json::json!({"nested": {"list": [1, "x", false]}}),
                    ),
                ] {
                    out.cases.push(valid(what, Sample::same(value)));
                }
                // Kept, so serde refuses it as a whole: nested past its limit.
                out.cases.push(written(
                    &format!("arrays nested {DEEP} deep"),
                    Value::Array(Vec::new()),
                    deep_text(),
                    ViolationKind::TooDeep,
                ));
            }
            TypeExpr::Null => {
                out.cases
                    .push(fault("a number", Value::from(0), ViolationKind::WrongType))
            }
            TypeExpr::Bool => {
                out.cases
                    .push(valid("true", Sample::same(Value::Bool(true))));
                out.cases.push(fault(
                    "a string",
                    Value::String("true".into()),
                    ViolationKind::WrongType,
                ));
            }
            TypeExpr::Integer(int) => self.integer(int, &mut out),
            TypeExpr::Number(_) => number(&mut out),
            TypeExpr::String(string) => text(string, &mut out),
            TypeExpr::Literal(literal) => {
                out.cases.push(fault(
                    "another constant",
                    other_literal(literal),
                    ViolationKind::WrongConst,
                ));
            }
            TypeExpr::Array(item) => {
                out.cases.push(fault(
                    "an object",
                    Value::Object(Map::new()),
                    ViolationKind::WrongType,
                ));
                if let Some(first) = self.minimal_of(item)? {
                    let one = Sample {
                        wire: Value::Array(vec![first.wire.clone()]),
                        canonical: Value::Array(vec![first.canonical.clone()]),
                    };
                    out.cases.push(valid("one item", one));
                    let inner = self.spread(item)?;
                    nest(&mut out, inner, "/0", |value| Value::Array(vec![value]));
                }
            }
            TypeExpr::Tuple(items) => self.tuple(items, &mut out)?,
            TypeExpr::Map(value_type) => {
                out.cases.push(fault(
                    "an array",
                    Value::Array(Vec::new()),
                    ViolationKind::WrongType,
                ));
                if let Some(first) = self.minimal_of(value_type)? {
                    for key in ["key", "a/b~c ☃"] {
                        let mut wire = Map::new();
                        wire.insert(key.to_owned(), first.wire.clone());
                        let mut canonical = Map::new();
                        canonical.insert(key.to_owned(), first.canonical.clone());
                        out.cases.push(valid(
                            &format!("one entry {}", Value::from(key)),
                            Sample {
                                wire: Value::Object(wire),
                                canonical: Value::Object(canonical),
                            },
                        ));
                    }
                    let inner = self.spread(value_type)?;
                    nest(&mut out, inner, "/key", |value| {
                        let mut map = Map::new();
                        map.insert("key".into(), value);
                        Value::Object(map)
                    });
                }
            }
            TypeExpr::Nullable(inner) => {
                out.cases.push(valid("null", Sample::same(Value::Null)));
                out.cases.extend(self.spread(inner)?.cases);
            }
            TypeExpr::Ref(name) => {
                if self.expanded.insert(name.clone()) {
                    out = self.named(name)?;
                }
            }
        }
        Ok(out)
    }

    fn named(&mut self, name: &str) -> Result<Spread, Refusal> {
        let Some(named) = self.model.get(name) else {
            return Ok(Spread::default());
        };
        match &named.kind {
            TypeKind::Record(record) => self.record(&Shape::record(record), true),
            TypeKind::Enum(e) => Ok(self.enumeration(e)),
            TypeKind::Union(union) => self.union(union),
            TypeKind::Alias(expr) => self.spread(expr),
        }
    }

    fn integer(&mut self, int: &IntType, out: &mut Spread) {
        let (lo, hi) = int_bounds(int);
        let typical = typical_int(int);
        let mut seen = vec![typical];
        let mut edges = vec![(lo, "the minimum"), (hi, "the maximum"), (0, "zero")];
        if int.width.bits() == 64 {
            let safe = 1i128 << 53;
            edges.extend([
                (safe - 1, "2^53 - 1"),
                (safe, "2^53"),
                (safe + 1, "2^53 + 1"),
                (-safe - 1, "-2^53 - 1"),
            ]);
        }
        for (value, what) in edges {
            if value < lo || value > hi || seen.contains(&value) {
                continue;
            }
            seen.push(value);
            out.cases.push(valid(
                &format!("{value} ({what})"),
                Sample::same(int_value(value)),
            ));
        }
        // Past a bound the schema states (a `minimum`, a `maximum` or a sized format):
        // an unbounded integer's 64-bit storage is the model's choice, not a rule.
        let stated = int.format.is_some() || self.own;
        if stated || int.minimum.is_some() {
            out.cases.push(fault(
                &format!("{} (below the minimum)", lo - 1),
                int_value(lo - 1),
                ViolationKind::OutOfRange,
            ));
        }
        if stated || int.maximum.is_some() {
            out.cases.push(fault(
                &format!("{} (above the maximum)", hi + 1),
                int_value(hi + 1),
                ViolationKind::OutOfRange,
            ));
        }
        out.cases
            .push(fault("a fraction", float(0.5), ViolationKind::WrongType));
        out.cases.push(fault(
            "a string",
            Value::String(typical.to_string()),
            ViolationKind::WrongType,
        ));
        out.cases.push(written(
            &format!("{typical}.0"),
            int_value(typical),
            format!("{typical}.0"),
            ViolationKind::WrongType,
        ));
        // serde_json reads `-0` as the float -0.0, which no integer type takes.
        out.cases.push(written(
            "-0",
            Value::from(0),
            "-0".into(),
            ViolationKind::WrongType,
        ));
    }

    fn tuple(&mut self, items: &[TypeExpr], out: &mut Spread) -> Result<(), Refusal> {
        let mut minimal = Vec::new();
        for item in items {
            match self.minimal_of(item)? {
                Some(sample) => minimal.push(sample),
                None => return Ok(()),
            }
        }
        let wires: Vec<Value> = minimal.iter().map(|s| s.wire.clone()).collect();
        if !wires.is_empty() {
            out.cases.push(fault(
                "one item short",
                Value::Array(wires[..wires.len() - 1].to_vec()),
                ViolationKind::Constraint,
            ));
        }
        out.cases.push(fault(
            "an object",
            Value::Object(Map::new()),
            ViolationKind::WrongType,
        ));
        for (index, item) in items.iter().enumerate() {
            let inner = self.spread(item)?;
            let segment = format!("/{index}");
            let wires = wires.clone();
            let canonicals: Vec<Value> = minimal.iter().map(|s| s.canonical.clone()).collect();
            for mut case in inner.cases {
                case.path = format!("{segment}{}", case.path);
                let mut wire = wires.clone();
                wire[index] = case.wire;
                case.wire = Value::Array(wire);
                case.edit = case.edit.map(|(p, e)| (format!("{segment}{p}"), e));
                let mut all = canonicals.clone();
                all[index] = case.canonical;
                case.canonical = Value::Array(all);
                if let Intent::Fault(rule, pointer) = case.intent {
                    case.intent = Intent::Fault(rule, format!("{segment}{pointer}"));
                }
                out.cases.push(case);
            }
        }
        Ok(())
    }

    fn enumeration(&mut self, e: &Enum) -> Spread {
        let mut out = Spread::default();
        let known: Vec<Value> = e
            .values
            .iter()
            .flat_map(|v| std::iter::once(&v.value).chain(&v.aliases))
            .map(literal_value)
            .collect();
        for value in &e.values {
            let canonical = literal_value(&value.value);
            out.cases.push(valid(
                &format!("value {canonical}"),
                Sample::same(canonical.clone()),
            ));
            for alias in &value.aliases {
                let wire = literal_value(alias);
                out.cases.push(valid(
                    &format!("alias {wire} of {canonical}"),
                    Sample {
                        wire,
                        canonical: canonical.clone(),
                    },
                ));
            }
            if let Literal::String(text) = &value.value {
                let misspelled = misspell(text, &known);
                out.cases.push(fault(
                    &format!("{} misspelled", Value::from(text.as_str())),
                    Value::String(misspelled),
                    ViolationKind::UnknownEnumValue,
                ));
            }
        }
        if e.open {
            out.cases.push(valid(
                "an unknown value",
                Sample::same(Value::String("x-unknown-value".into())),
            ));
        }
        let wrong = if e.is_string() {
            Value::from(0)
        } else {
            Value::Array(Vec::new())
        };
        out.cases
            .push(fault("a wrong type", wrong, ViolationKind::WrongType));
        out
    }

    /// The candidates of an object with `shape`; `whole`: also faults of the object as
    /// a whole (wrong type, duplicate key), which a variant's shape leaves to its union.
    fn record(&mut self, shape: &Shape<'_>, whole: bool) -> Result<Spread, Refusal> {
        let mut out = Spread::default();
        let Some(minimal) = self.record_minimal(shape)? else {
            return Ok(out);
        };
        let base = |out: &mut Spread, case: Candidate| out.cases.push(case);
        if whole {
            base(
                &mut out,
                fault(
                    "an array",
                    Value::Array(Vec::new()),
                    ViolationKind::WrongType,
                ),
            );
            if let Some((key, _)) = minimal.wire.as_object().and_then(|m| m.iter().next()) {
                out.cases.push(Candidate {
                    path: String::new(),
                    what: format!("{} twice", Value::from(key.as_str())),
                    wire: minimal.wire.clone(),
                    canonical: minimal.canonical.clone(),
                    edit: Some((String::new(), Edit::DuplicateKey(key.clone()))),
                    intent: Intent::Fault(
                        ViolationKind::Constraint,
                        crate::json_pointer::child("", key),
                    ),
                    alternative: false,
                });
            }
        }
        for field in &shape.fields {
            self.field(shape, &minimal, field, &mut out)?;
        }
        // Other keys.
        match shape.additional {
            Additional::Allowed => {
                let mut sample = minimal.clone();
                insert(&mut sample.wire, UNKNOWN_KEY, Value::from(1));
                if !self.own {
                    insert(&mut sample.canonical, UNKNOWN_KEY, Value::from(1));
                }
                out.cases
                    .push(valid(&format!("unknown key {UNKNOWN_KEY:?}"), sample));
                // serde skips an unknown key's value whatever its depth; on another
                // schema the value is kept, and its depth is the re-encoding's.
                if self.own {
                    let mut at = minimal.wire.clone();
                    insert(&mut at, UNKNOWN_KEY, Value::from(1));
                    out.cases.push(Candidate {
                        path: String::new(),
                        what: format!("unknown key {UNKNOWN_KEY:?} nested {DEEP} deep"),
                        wire: at,
                        canonical: minimal.canonical.clone(),
                        edit: Some((
                            crate::json_pointer::child("", UNKNOWN_KEY),
                            Edit::Raw(deep_text()),
                        )),
                        intent: Intent::Valid,
                        alternative: false,
                    });
                }
            }
            Additional::Forbidden => {
                let mut wire = minimal.wire.clone();
                insert(&mut wire, UNKNOWN_KEY, Value::from(1));
                // The fault is the key, not the object: a rule the base breaks
                // elsewhere in the object (an unenforced `pattern`) is not it.
                let mut case = fault(
                    &format!("unknown key {UNKNOWN_KEY:?}"),
                    wire,
                    ViolationKind::Constraint,
                );
                case.intent = Intent::Fault(
                    ViolationKind::Constraint,
                    crate::json_pointer::child("", UNKNOWN_KEY),
                );
                out.cases.push(case);
            }
            Additional::Typed(ty) => {
                if let Some(value) = self.minimal_of(ty)? {
                    let mut sample = minimal.clone();
                    insert(&mut sample.wire, UNKNOWN_KEY, value.wire);
                    insert(&mut sample.canonical, UNKNOWN_KEY, value.canonical);
                    out.cases
                        .push(valid(&format!("other key {UNKNOWN_KEY:?}"), sample.clone()));
                    let inner = self.spread(ty)?;
                    let segment = crate::json_pointer::child("", UNKNOWN_KEY);
                    for case in inner.cases {
                        out.cases.push(placed(case, &segment, &sample, UNKNOWN_KEY));
                    }
                }
            }
        }
        // Cross-field rules, broken.
        for constraint in shape.constraints {
            match constraint {
                Constraint::AtLeastOneOf(names) => {
                    let mut wire = minimal.wire.clone();
                    for name in names {
                        remove_field(&mut wire, shape.field(Some(name)), name);
                    }
                    out.cases.push(fault(
                        &format!("none of {}", names.join(", ")),
                        wire,
                        ViolationKind::Constraint,
                    ));
                }
                Constraint::RequiredWhen {
                    field,
                    when,
                    values,
                } => {
                    let Some(value) = values.first() else {
                        continue;
                    };
                    let mut wire = minimal.wire.clone();
                    insert(&mut wire, when, literal_value(value));
                    remove_field(&mut wire, shape.field(Some(field)), field);
                    out.cases.push(fault(
                        &format!("{when} = {} without {field}", value.to_json()),
                        wire,
                        ViolationKind::Constraint,
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The candidates of one field of an object whose minimal instance is `minimal`.
    fn field(
        &mut self,
        shape: &Shape<'_>,
        minimal: &Sample,
        field: &Field,
        out: &mut Spread,
    ) -> Result<(), Refusal> {
        let segment = crate::json_pointer::child("", &field.name);
        let name = &field.name;
        let in_minimal = minimal.wire.get(name).is_some();
        let Some(first) = self.field_minimal(field)? else {
            return Ok(());
        };
        if !in_minimal {
            let mut sample = minimal.clone();
            set_field(&mut sample, field, first.clone());
            out.cases.push(at(&segment, valid("present", sample)));
        }
        match field.presence() {
            Presence::Required => {
                let mut wire = minimal.wire.clone();
                remove_field(&mut wire, Some(field), name);
                out.cases.push(at(
                    &segment,
                    fault("missing", wire, ViolationKind::MissingRequired),
                ));
                let mut wire = minimal.wire.clone();
                insert(&mut wire, name, Value::Null);
                out.cases.push(at(
                    &segment,
                    fault("null", wire, ViolationKind::MissingRequired),
                ));
            }
            Presence::RequiredNullable => {
                let mut wire = minimal.wire.clone();
                remove_field(&mut wire, Some(field), name);
                out.cases.push(at(
                    &segment,
                    fault("missing", wire, ViolationKind::MissingRequired),
                ));
                let mut sample = minimal.clone();
                insert(&mut sample.wire, name, Value::Null);
                insert(&mut sample.canonical, name, Value::Null);
                out.cases.push(at(&segment, valid("null", sample)));
            }
            Presence::Optional => {
                let mut wire = minimal.wire.clone();
                insert(&mut wire, name, Value::Null);
                out.cases
                    .push(at(&segment, fault("null", wire, ViolationKind::WrongType)));
            }
            Presence::OptionalNullable => {
                let mut sample = minimal.clone();
                insert(&mut sample.wire, name, Value::Null);
                if self.own {
                    match self.absent_canonical(field, shape) {
                        Some(default) => insert(&mut sample.canonical, name, default),
                        None => remove(&mut sample.canonical, name),
                    }
                } else {
                    insert(&mut sample.canonical, name, Value::Null);
                }
                out.cases.push(at(&segment, valid("null", sample)));
            }
        }
        // Input aliases: accepted, re-encoded under the field's name; never both.
        for alias in &field.aliases {
            let mut sample = minimal.clone();
            remove(&mut sample.wire, name);
            insert(&mut sample.wire, alias, first.wire.clone());
            insert(&mut sample.canonical, name, first.canonical.clone());
            out.cases.push(at(
                &segment,
                valid(&format!("as alias {}", Value::from(alias.as_str())), sample),
            ));
            let mut wire = minimal.wire.clone();
            insert(&mut wire, name, first.wire.clone());
            insert(&mut wire, alias, first.wire.clone());
            out.cases.push(at(
                &segment,
                fault(
                    &format!("and alias {} both", Value::from(alias.as_str())),
                    wire,
                    ViolationKind::Constraint,
                ),
            ));
        }
        // The value's own cases, in place.
        let mut host = minimal.clone();
        if !in_minimal {
            set_field(&mut host, field, first);
        }
        let inner = self.spread(field.ty.non_null())?;
        for case in inner.cases {
            out.cases.push(placed(case, &segment, &host, name));
        }
        Ok(())
    }

    fn union(&mut self, union: &'m Union) -> Result<Spread, Refusal> {
        let mut out = Spread::default();
        let mut first_object = None;
        for variant in &union.variants {
            let label = variant_label(variant);
            let Some(minimal) = self.variant_minimal(union, variant)? else {
                continue;
            };
            if first_object.is_none() && minimal.wire.is_object() {
                first_object = Some(minimal.clone());
            }
            let mut cases = vec![valid("", minimal.clone())];
            match &union.tagging {
                Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                    for alias in &variant.tag_aliases {
                        let mut sample = minimal.clone();
                        insert(&mut sample.wire, tag, literal_value(alias));
                        cases.push(valid(&format!("tag alias {}", alias.to_json()), sample));
                    }
                    if let Some(shape) = self.variant_shape(union, variant, tag)? {
                        // The payload type, once per root like any named type.
                        let fresh = match &variant.payload {
                            Payload::Type(TypeExpr::Ref(name)) => {
                                self.expanded.insert(name.clone())
                            }
                            _ => true,
                        };
                        if fresh {
                            cases.extend(self.record(&shape, false)?.cases);
                        }
                    }
                }
                Tagging::External => {
                    let name = variant.tag.as_ref().and_then(Literal::as_str).unwrap_or("");
                    if !matches!(variant.payload, Payload::Unit) {
                        let inner = self.payload_spread(&variant.payload)?;
                        let segment = crate::json_pointer::child("", name);
                        for case in inner.cases {
                            cases.push(placed(case, &segment, &minimal, name));
                        }
                    }
                }
                Tagging::Untagged => cases.extend(self.payload_spread(&variant.payload)?.cases),
            }
            for mut case in cases {
                case.alternative |= union.tagging == Tagging::Untagged
                    && case.path.is_empty()
                    && matches!(case.intent, Intent::Fault(..));
                case.path = format!("[{label}]{}", case.path);
                if case.what.is_empty() {
                    case.what = "minimal".into();
                }
                out.cases.push(case);
            }
        }
        // The union as a whole: its tag wrong, missing or unknown.
        if let (Some(tag), Some(minimal)) = (union.tag_key(), &first_object) {
            let segment = crate::json_pointer::child("", tag);
            let mut wire = minimal.wire.clone();
            remove(&mut wire, tag);
            out.cases.push(at(
                &segment,
                fault("tag missing", wire, ViolationKind::MissingRequired),
            ));
            let mut wire = minimal.wire.clone();
            insert(&mut wire, tag, Value::Array(Vec::new()));
            out.cases.push(at(
                &segment,
                fault("tag of a wrong type", wire, ViolationKind::WrongType),
            ));
            let mut wire = minimal.wire.clone();
            insert(&mut wire, tag, Value::String(UNKNOWN_TAG.into()));
            if union.unknown.is_some() {
                // Kept whole (R4): the oracle files it as unknown.
                out.cases
                    .push(at(&segment, valid("unknown tag", Sample::same(wire))));
            } else {
                out.cases.push(at(
                    &segment,
                    fault("unknown tag", wire, ViolationKind::WrongConst),
                ));
            }
        } else if matches!(union.tagging, Tagging::External) && union.unknown.is_some() {
            let mut map = Map::new();
            map.insert(UNKNOWN_TAG.into(), Value::Object(Map::new()));
            out.cases
                .push(valid("unknown tag", Sample::same(Value::Object(map))));
        }
        let wrong = match &first_object {
            Some(_) => Value::Array(Vec::new()),
            None => Value::Object(Map::new()),
        };
        out.cases
            .push(fault("a wrong type", wrong, ViolationKind::WrongType));
        Ok(out)
    }

    fn payload_spread(&mut self, payload: &Payload) -> Result<Spread, Refusal> {
        match payload {
            Payload::Unit => Ok(Spread::default()),
            Payload::Fields(fields) => self.record(&Shape::fields(fields), true),
            Payload::Type(ty) => self.spread(ty),
            Payload::Content(field) => self.spread(field.ty.non_null()),
        }
    }
}

/// An object as candidates see it: keys fixed in advance (a union's tag), its fields,
/// what other keys may be, its cross-field rules.
struct Shape<'a> {
    fixed: Vec<(String, Sample)>,
    fields: Vec<&'a Field>,
    additional: &'a Additional,
    constraints: &'a [Constraint],
    /// The content key of an adjacently tagged variant: absent or `null` content stands
    /// for an empty object on symgen's own schemas.
    content: Option<String>,
}

impl<'a> Shape<'a> {
    fn record(record: &'a Record) -> Self {
        Self {
            fixed: Vec::new(),
            fields: record.fields.iter().collect(),
            additional: &record.additional,
            constraints: &record.constraints,
            content: None,
        }
    }

    fn fields(fields: &'a [Field]) -> Self {
        Self {
            fixed: Vec::new(),
            fields: fields.iter().collect(),
            additional: &ALLOWED,
            constraints: &[],
            content: None,
        }
    }

    fn field(&self, name: Option<&String>) -> Option<&'a Field> {
        let name = name?;
        self.fields.iter().copied().find(|f| &f.name == name)
    }
}

fn variant_label(variant: &Variant) -> String {
    match &variant.tag {
        Some(Literal::String(tag)) => tag.clone(),
        Some(other) => other.to_json(),
        None => variant.name.clone(),
    }
}

fn valid(what: &str, sample: Sample) -> Candidate {
    Candidate {
        path: String::new(),
        what: what.to_owned(),
        wire: sample.wire,
        canonical: sample.canonical,
        edit: None,
        intent: Intent::Valid,
        alternative: false,
    }
}

/// A fault only the text can carry: the value written as `text`, with `stand_in` in the
/// message (what a JSON value can hold there).
fn written(what: &str, stand_in: Value, text: String, rule: ViolationKind) -> Candidate {
    Candidate {
        path: String::new(),
        what: what.to_owned(),
        canonical: stand_in.clone(),
        wire: stand_in,
        edit: Some((String::new(), Edit::Raw(text))),
        intent: Intent::Fault(rule, String::new()),
        alternative: false,
    }
}

fn fault(what: &str, wire: Value, rule: ViolationKind) -> Candidate {
    Candidate {
        path: String::new(),
        what: what.to_owned(),
        canonical: wire.clone(),
        wire,
        edit: None,
        intent: Intent::Fault(rule, String::new()),
        alternative: false,
    }
}

/// `case`, built for an object's own level, said to be about `segment` (a field).
fn at(segment: &str, mut case: Candidate) -> Candidate {
    case.path = format!("{segment}{}", case.path);
    if let Intent::Fault(rule, pointer) = case.intent {
        case.intent = Intent::Fault(rule, format!("{segment}{pointer}"));
    }
    case
}

/// `case`, built for the value of key `key`, placed into `host` (the object it sits
/// in) at `segment`.
fn placed(mut case: Candidate, segment: &str, host: &Sample, key: &str) -> Candidate {
    case.path = format!("{segment}{}", case.path);
    let mut wire = host.wire.clone();
    insert(&mut wire, key, case.wire);
    case.wire = wire;
    case.edit = case.edit.map(|(p, e)| (format!("{segment}{p}"), e));
    let mut whole = host.canonical.clone();
    insert(&mut whole, key, case.canonical);
    case.canonical = whole;
    if let Intent::Fault(rule, pointer) = case.intent {
        case.intent = Intent::Fault(rule, format!("{segment}{pointer}"));
    }
    case
}

/// Moves `inner`'s candidates into `out`, each value wrapped by `wrap` at `segment`.
fn nest(out: &mut Spread, inner: Spread, segment: &str, wrap: impl Fn(Value) -> Value) {
    for mut case in inner.cases {
        case.path = format!("{segment}{}", case.path);
        case.wire = wrap(case.wire);
        case.edit = case.edit.map(|(p, e)| (format!("{segment}{p}"), e));
        case.canonical = wrap(case.canonical);
        if let Intent::Fault(rule, pointer) = case.intent {
            case.intent = Intent::Fault(rule, format!("{segment}{pointer}"));
        }
        out.cases.push(case);
    }
}

fn wrap(name: &str, inner: Sample) -> Sample {
    let mut wire = Map::new();
    wire.insert(name.to_owned(), inner.wire);
    let mut canonical = Map::new();
    canonical.insert(name.to_owned(), inner.canonical);
    Sample {
        wire: Value::Object(wire),
        canonical: Value::Object(canonical),
    }
}

fn insert(object: &mut Value, key: &str, value: Value) {
    if let Value::Object(map) = object {
        map.insert(key.to_owned(), value);
    }
}

fn remove(object: &mut Value, key: &str) {
    if let Value::Object(map) = object {
        map.shift_remove(key);
    }
}

/// Removes a field and every alias it may be sent under.
fn remove_field(object: &mut Value, field: Option<&Field>, name: &str) {
    remove(object, name);
    for alias in field.map(|f| f.aliases.as_slice()).unwrap_or_default() {
        remove(object, alias);
    }
}

fn set_field(sample: &mut Sample, field: &Field, value: Sample) {
    insert(&mut sample.wire, &field.name, value.wire);
    insert(&mut sample.canonical, &field.name, value.canonical);
}

fn present_value(object: &Value, key: &str) -> bool {
    object.get(key).is_some_and(|v| !v.is_null())
}

fn float(value: f64) -> Value {
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

fn int_value(value: i128) -> Value {
    if let Ok(small) = i64::try_from(value) {
        Value::from(small)
    } else if let Ok(large) = u64::try_from(value) {
        Value::from(large)
    } else {
        // Past 64 bits: kept exact as the number's text (arbitrary precision off, so
        // only through the text edit below; as a value it is the nearest double).
        float(value as f64)
    }
}

/// The range of an integer type: its schema bounds within its width.
fn int_bounds(int: &IntType) -> (i128, i128) {
    let (lo, hi) = int.width.range();
    (
        int.minimum.map_or(lo, |m| m.max(lo)),
        int.maximum.map_or(hi, |m| m.min(hi)),
    )
}

/// A typical integer: 1 where the range allows it, else the bound nearest to it.
fn typical_int(int: &IntType) -> i128 {
    let (lo, hi) = int_bounds(int);
    1i128.clamp(lo, hi.max(lo))
}

fn number(out: &mut Spread) {
    for (what, value) in [
        ("zero", Value::from(0)),
        ("negative", float(-2.75)),
        ("17 significant digits", float(0.300_000_000_000_000_04)),
        ("the largest double", float(f64::MAX)),
        ("the smallest double", float(5e-324)),
    ] {
        out.cases.push(valid(what, Sample::same(value)));
    }
    out.cases.push(fault(
        "a string",
        Value::String("1.5".into()),
        ViolationKind::WrongType,
    ));
    out.cases.push(written(
        "1e400",
        float(1.5),
        "1e400".into(),
        ViolationKind::OutOfRange,
    ));
    // Not JSON, though some parsers read them (Python's, unless told not to).
    for word in ["NaN", "Infinity"] {
        out.cases.push(written(
            word,
            float(1.5),
            word.into(),
            ViolationKind::Syntax,
        ));
    }
}

/// A string the format accepts, else plain text.
pub(super) fn typical_string(format: Option<&str>) -> String {
    match format {
        Some("uuid") => "3b0f6c9e-8d1a-4a47-9f55-1c2d3e4f5a6b",
        Some("date-time") => "2024-01-02T03:04:05Z",
        Some("date") => "2024-01-02",
        Some("time") => "03:04:05Z",
        Some("duration") => "P1D",
        Some("email" | "idn-email") => "someone@example.com",
        Some("hostname" | "idn-hostname") => "example.com",
        Some("ipv4") => "192.0.2.1",
        Some("ipv6") => "2001:db8::1",
        Some("uri" | "iri" | "url") => "https://example.com/a",
        Some("uri-reference" | "iri-reference") => "/a/b",
        Some("uri-template") => "https://example.com/{id}",
        Some("json-pointer") => "/a/b",
        Some("relative-json-pointer") => "0/a",
        Some("regex") => "^a+$",
        _ => "text",
    }
    .to_owned()
}

fn text(string: &StringType, out: &mut Spread) {
    if string.format.is_none() {
        for (what, value) in [
            ("empty", ""),
            ("non-ASCII", "ünïcødé ☃ 😀 \u{2028}"),
            (
                "escapes",
                "quote \" backslash \\ slash / newline \n tab \t nul \u{0} del \u{7f}",
            ),
        ] {
            out.cases
                .push(valid(what, Sample::same(Value::String(value.into()))));
        }
    }
    out.cases
        .push(fault("a number", Value::from(0), ViolationKind::WrongType));
    out.cases.push(written(
        "a lone surrogate",
        Value::String(typical_string(string.format.as_deref())),
        "\"\\ud800\"".into(),
        ViolationKind::Syntax,
    ));
}

fn literal_value(literal: &Literal) -> Value {
    match literal {
        Literal::String(s) => Value::String(s.clone()),
        Literal::Number(n) => Value::Number(n.clone()),
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Null => Value::Null,
    }
}

/// A value of the same kind as `literal` that is not it.
fn other_literal(literal: &Literal) -> Value {
    match literal {
        Literal::String(s) => Value::String(format!("{s}-other")),
        Literal::Number(n) => match n.as_i64() {
            Some(i) => Value::from(i.wrapping_add(1)),
            None => float(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        Literal::Bool(b) => Value::Bool(!b),
        Literal::Null => Value::from(0),
    }
}

/// `text` spelled differently, and not as any of `known`.
fn misspell(text: &str, known: &[Value]) -> String {
    let upper = text.to_uppercase();
    let lower = text.to_lowercase();
    for candidate in [upper, lower, format!("{text}_x")] {
        if candidate != text && !known.iter().any(|k| k.as_str() == Some(&candidate)) {
            return candidate;
        }
    }
    format!("{text}-x-{}", known.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(schema: &str) -> Model {
        crate::model::parse_str("test.json", schema).expect("a model")
    }

    #[test]
    fn a_record_spreads_every_field_and_fault() {
        let model = model(
            r#"{"title":"Msg","type":"object","properties":{
                "n":{"type":"integer","minimum":0,"maximum":9},
                "s":{"type":"string"},
                "e":{"enum":["a","b"]}},
              "required":["n"]}"#,
        );
        let cases = Builder::new(&model).root("Msg").expect("candidates");
        let names: Vec<String> = cases
            .iter()
            .map(|c| format!("{}: {}", c.path, c.what))
            .collect();
        assert_eq!(cases[0].wire, serde_json::json!({"n": 1}));
        for expected in [
            "/n: 0 (the minimum)",
            "/n: 9 (the maximum)",
            "/n: -1 (below the minimum)",
            "/n: 10 (above the maximum)",
            "/n: missing",
            "/n: 1.0",
            "/s: present",
            "/s: empty",
            "/s: a lone surrogate",
            "/e: value \"b\"",
            "/e: \"a\" misspelled",
            ": \"n\" twice",
        ] {
            assert!(
                names.iter().any(|n| n == expected),
                "no {expected}: {names:#?}"
            );
        }
        let missing = cases
            .iter()
            .find(|c| c.path == "/n" && c.what == "missing")
            .unwrap();
        assert_eq!(missing.wire, serde_json::json!({}));
        assert_eq!(
            missing.intent,
            Intent::Fault(ViolationKind::MissingRequired, "/n".into())
        );
    }

    #[test]
    fn a_self_containing_required_field_has_no_instance() {
        let model = model(
            r##"{"title":"Loop","type":"object","properties":{"next":{"$ref":"#"}},"required":["next"]}"##,
        );
        assert_eq!(
            Builder::new(&model).root("Loop").unwrap_err(),
            Refusal::NoInstance
        );
    }

    #[test]
    fn recursion_through_optional_fields_ends() {
        let model = model(
            r##"{"title":"Tree","type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}"##,
        );
        let cases = Builder::new(&model).root("Tree").expect("candidates");
        assert!(
            cases
                .iter()
                .any(|c| c.wire == serde_json::json!({"kids": [{}]}))
        );
    }
}
