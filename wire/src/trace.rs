//! Asking serde what it accepts that schemars does not say: a deserializer that walks a
//! type's `Deserialize` impl instead of data.
//!
//! schemars ignores `#[serde(alias)]` and `#[serde(other)]`, so a schema built from it
//! alone rejects input that serde takes. serde's derived impls do reveal them: a
//! struct's field list (`deserialize_struct(name, FIELDS, ..)`) includes every alias, and
//! an enum with an `other` variant accepts a tag it does not list. The [`Tracer`] drives
//! a type's `Deserialize` impl with a probe deserializer that feeds it no data: at each
//! step it follows one path (one field, the `Some` of an option, one element, one
//! variant) and records the structs and enums it meets, then fails on purpose. Paths are
//! explored breadth first, each struct or enum name once.
//!
//! A recorded struct or enum can be asked a question later by replaying its path:
//! "is `a` an alias of `b`?" (serde reports `duplicate field b` for the keys `b` then `a`
//! when it is), "does an unknown tag decode?" (`other`).
//!
//! A struct with a `#[serde(flatten)]` field decodes as a map and names no fields; the
//! probe feeds it the keys its schema lists ([`Tracer::struct_keys`]), so the types of
//! those fields are reached too. What the probe cannot reach it cannot report: types
//! decoded through `deserialize_any` (untagged and internally tagged enums' payloads,
//! `serde_json::Value`) and the fields of the flattened structs themselves.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde_json::Value;

/// A tag no protocol uses, for asking whether an enum takes unknown tags.
pub(crate) const PROBE_TAG: &str = "\u{0}symgen-probe";

/// The longest path explored (deeper types are not traced).
const MAX_STEPS: usize = 48;

/// One move along a path into a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Into the struct field with this key.
    Field(&'static str),
    /// Into the `Some` of an option.
    Some,
    /// Into the first element of a sequence or tuple.
    Element,
    /// Into a value of a map.
    Value,
    /// Into the enum variant with this name.
    Variant(&'static str),
}

/// A struct, struct variant or enum the probe met.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// What it is.
    pub kind: FoundKind,
    /// serde's name of the container (`Page`, `Enum::Variant` for a struct variant).
    pub name: String,
    /// The Rust type being decoded there, as far as the probe could tell.
    pub rust_type: Option<&'static str>,
    /// How to get there again.
    pub path: Path,
}

/// The kinds of [`Found`] containers.
#[derive(Debug, Clone)]
pub(crate) enum FoundKind {
    /// A struct (or struct variant) and the keys serde accepts for it, aliases included.
    Struct(&'static [&'static str]),
    /// An externally tagged enum and its variant names (aliases included).
    Enum(&'static [&'static str]),
    /// An internally tagged enum (decoded through `deserialize_any`) and its tag key.
    Tagged(String),
}

/// An entry point and a path from it.
#[derive(Debug, Clone)]
pub(crate) struct Path {
    entry: usize,
    steps: Vec<Step>,
}

/// What a replay asks at the end of its path.
#[derive(Debug, Clone)]
pub(crate) enum Question {
    /// Feed the struct the keys `first` (with this value) then `second`: serde says
    /// `duplicate field` when both name the same field.
    Keys {
        first: String,
        value: Value,
        second: String,
    },
    /// Feed the enum an unknown variant name, as a unit variant.
    UnknownVariant,
    /// Feed the internally tagged enum `{tag: <unknown>}`.
    UnknownTag(String),
    /// Feed the internally tagged enum `{tag: variant, field: <unknown string>}`: what
    /// the field's type makes of a string it does not know (an enum of strings reached
    /// only through the union, whose `Deserialize` the probe cannot walk). The answer is
    /// the whole decode's outcome: serde decodes the variant after the map is read, and
    /// an error there passes up unchanged (a container above may add `missing field`
    /// after an `Ok`).
    TaggedField {
        tag: String,
        variant: String,
        field: String,
    },
}

/// Runs `T::deserialize` against the probe; set up by [`Tracer::entry`].
type Entry = fn(&mut Tracer, &[Step]) -> Result<(), String>;

/// The traversal state. See the module docs.
#[derive(Default)]
pub struct Tracer {
    entries: Vec<Entry>,
    found: Vec<Found>,
    expanded: HashSet<String>,
    queue: VecDeque<Path>,
    question: Option<Question>,
    answer: Option<Result<(), String>>,
    /// The keys of each struct its schema describes, by serde's name of it: what a
    /// struct decoded as a map (one with a flattened field) is fed.
    struct_keys: HashMap<String, &'static [&'static str]>,
}

impl fmt::Debug for Tracer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracer")
            .field("entries", &self.entries.len())
            .field("found", &self.found.len())
            .finish()
    }
}

fn run<T: DeserializeOwned>(tracer: &mut Tracer, steps: &[Step]) -> Result<(), String> {
    T::deserialize(Probe {
        tracer,
        steps,
        pos: 0,
        rust_type: Some(std::any::type_name::<T>()),
    })
    .map(drop)
    .map_err(|err| err.0)
}

impl Tracer {
    /// A tracer with no entry points yet.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Explores `T`: records every struct and enum its `Deserialize` impl reaches.
    pub fn entry<T: DeserializeOwned>(&mut self) {
        let entry = self.entries.len();
        self.entries.push(run::<T>);
        self.queue.push_back(Path {
            entry,
            steps: Vec::new(),
        });
        while let Some(path) = self.queue.pop_front() {
            let _ = (self.entries[path.entry])(self, &path.steps);
        }
    }

    /// Learns the keys of each object schema in `defs` (by definition name, which is
    /// serde's name of the type), for the structs that decode as maps. The names are
    /// kept for the tracer's life (a schema's keys, once per `symgen schema`).
    pub(crate) fn struct_keys(&mut self, defs: &serde_json::Map<String, Value>) {
        for (name, def) in defs {
            let Some(properties) = def.get("properties").and_then(Value::as_object) else {
                continue;
            };
            let keys: Vec<&'static str> = properties
                .keys()
                .map(|key| &*Box::leak(key.clone().into_boxed_str()))
                .collect();
            self.struct_keys
                .insert(name.clone(), Box::leak(keys.into_boxed_slice()));
        }
    }

    /// Everything recorded so far.
    pub(crate) fn found(&self) -> &[Found] {
        &self.found
    }

    /// Replays `path` and asks `question` at its end; serde's answer (`Ok` when it
    /// accepted what it was fed, else its error message).
    pub(crate) fn ask(&mut self, path: &Path, question: Question) -> Result<(), String> {
        self.question = Some(question);
        self.answer = None;
        let entry = self.entries[path.entry];
        let outcome = entry(self, &path.steps);
        self.question = None;
        self.answer.take().unwrap_or(outcome)
    }

    /// Keeps what the container at the end of the path answered (what happens after,
    /// on the way out, does not matter).
    fn answered<T>(&mut self, result: Result<T, ProbeError>) -> Result<T, ProbeError> {
        self.answer = Some(match &result {
            Ok(_) => Ok(()),
            Err(err) => Err(err.0.clone()),
        });
        result
    }

    fn record(
        &mut self,
        kind: FoundKind,
        name: String,
        steps: &[Step],
        rust_type: Option<&'static str>,
    ) -> bool {
        let key = match &kind {
            FoundKind::Struct(fields) => format!("struct {name} {fields:?} {rust_type:?}"),
            FoundKind::Enum(variants) => format!("enum {name} {variants:?} {rust_type:?}"),
            FoundKind::Tagged(tag) => format!("tagged {name} {tag} {rust_type:?}"),
        };
        let path = Path {
            entry: self.entries.len().saturating_sub(1),
            steps: steps.to_vec(),
        };
        if !self.expanded.insert(key) {
            return false;
        }
        self.found.push(Found {
            kind,
            name,
            rust_type,
            path,
        });
        true
    }

    fn schedule(&mut self, steps: &[Step], step: Step) {
        if steps.len() >= MAX_STEPS {
            return;
        }
        let mut steps = steps.to_vec();
        steps.push(step);
        self.queue.push_back(Path {
            entry: self.entries.len().saturating_sub(1),
            steps,
        });
    }
}

/// The probe's error: serde's message, or the probe stopping on purpose.
#[derive(Debug)]
struct ProbeError(String);

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProbeError {}

impl de::Error for ProbeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

fn stop() -> ProbeError {
    ProbeError("\u{0}stop".into())
}

/// A visitor's own description (`internally tagged enum Kind`).
struct Expecting<'a, V>(&'a V);

impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
}

/// The probe deserializer at one position of a path.
struct Probe<'t> {
    tracer: &'t mut Tracer,
    steps: &'t [Step],
    pos: usize,
    rust_type: Option<&'static str>,
}

impl<'t> Probe<'t> {
    fn next(self, rust_type: Option<&'static str>) -> Probe<'t> {
        Probe {
            tracer: self.tracer,
            steps: self.steps,
            pos: self.pos + 1,
            rust_type,
        }
    }

    fn at_end(&self) -> bool {
        self.pos == self.steps.len()
    }

    fn step(&self) -> Option<&Step> {
        self.steps.get(self.pos)
    }

    /// The inner type of `Option<T>` / `Box<T>` as the type name says, for a `Some`.
    fn unwrapped(&self) -> Option<&'static str> {
        let name = self.rust_type?;
        for wrapper in ["core::option::Option<", "alloc::boxed::Box<"] {
            if let Some(inner) = name.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')) {
                return Some(inner);
            }
        }
        None
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = ProbeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        if !self.at_end() {
            return Err(stop());
        }
        let description = Expecting(&visitor).to_string();
        let Some(name) = description.strip_prefix("internally tagged enum ") else {
            return Err(stop());
        };
        let name = name.to_owned();
        match self.tracer.question.clone() {
            Some(Question::UnknownTag(tag)) => {
                let result = visitor.visit_map(Entries::new(vec![(tag, Fed::Str(PROBE_TAG))]));
                return self.tracer.answered(result);
            }
            Some(Question::TaggedField {
                tag,
                variant,
                field,
            }) => {
                // serde decodes the variant from the buffered map after this returns:
                // its answer is what comes out of the whole decode (see `Tracer::ask`).
                return visitor.visit_map(Entries::new(vec![
                    (tag, Fed::Json(Value::String(variant))),
                    (field, Fed::Str(PROBE_TAG)),
                ]));
            }
            _ => {}
        }
        // An empty object makes serde name the tag it misses.
        let Err(err) = visitor.visit_map(Entries::new(Vec::new())) else {
            return Err(stop());
        };
        if let Some(tag) = err
            .0
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'))
        {
            self.tracer.record(
                FoundKind::Tagged(tag.to_owned()),
                name,
                self.steps,
                self.rust_type,
            );
        }
        Err(stop())
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.structure(name.to_owned(), fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        if self.at_end() {
            if let Some(Question::UnknownVariant) = self.tracer.question {
                let result = visitor.visit_enum(UnknownUnit);
                return self.tracer.answered(result);
            }
            if self.tracer.record(
                FoundKind::Enum(variants),
                name.to_owned(),
                self.steps,
                self.rust_type,
            ) {
                for variant in variants {
                    self.tracer.schedule(self.steps, Step::Variant(variant));
                }
            }
            return Err(stop());
        }
        match self.step() {
            Some(Step::Variant(variant)) => {
                let variant = *variant;
                visitor.visit_enum(ProbeEnum {
                    variant,
                    probe: self,
                })
            }
            _ => Err(stop()),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        if self.at_end() {
            self.tracer.schedule(self.steps, Step::Some);
            return Err(stop());
        }
        match self.step() {
            Some(Step::Some) => {
                let inner = self.unwrapped();
                visitor.visit_some(self.next(inner))
            }
            _ => Err(stop()),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        if self.at_end() {
            self.tracer.schedule(self.steps, Step::Element);
            return Err(stop());
        }
        match self.step() {
            Some(Step::Element) => visitor.visit_seq(OneElement(Some(self))),
            _ => Err(stop()),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ProbeError> {
        // A struct with a flattened field: fed the keys its schema lists.
        let description = Expecting(&visitor).to_string();
        if let Some(keys) = description
            .strip_prefix("struct ")
            .and_then(|name| self.tracer.struct_keys.get(name).copied())
        {
            let name = description["struct ".len()..].to_owned();
            return self.structure(name, keys, visitor);
        }
        if self.at_end() {
            self.tracer.schedule(self.steps, Step::Value);
            return Err(stop());
        }
        match self.step() {
            Some(Step::Value) => {
                visitor.visit_map(Entries::new(vec![("key".to_owned(), Fed::Probe(self))]))
            }
            _ => Err(stop()),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        // A newtype decodes its inner type at the same position.
        visitor.visit_newtype_struct(Probe {
            rust_type: None,
            ..self
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf unit unit_struct identifier ignored_any
    }
}

impl<'de> Probe<'_> {
    /// A struct or struct variant: at the end of the path, record it (or answer the
    /// question); else follow the field the path names.
    fn structure<V: Visitor<'de>>(
        self,
        name: String,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        if self.at_end() {
            if let Some(Question::Keys {
                first,
                value,
                second,
            }) = self.tracer.question.clone()
            {
                let result = visitor.visit_map(Entries::new(vec![
                    (first, Fed::Json(value)),
                    (second, Fed::Fail),
                ]));
                return self.tracer.answered(result);
            }
            if self
                .tracer
                .record(FoundKind::Struct(fields), name, self.steps, self.rust_type)
            {
                for field in fields {
                    self.tracer.schedule(self.steps, Step::Field(field));
                }
            }
            return Err(stop());
        }
        match self.step() {
            Some(Step::Field(field)) => {
                let key = (*field).to_owned();
                visitor.visit_map(Entries::new(vec![(key, Fed::Probe(self))]))
            }
            _ => Err(stop()),
        }
    }
}

/// What a map entry's value is fed with.
enum Fed<'t> {
    /// The probe, one step further.
    Probe(Probe<'t>),
    /// A real value (a sample that the field's type accepts).
    Json(Value),
    /// A string.
    Str(&'static str),
    /// Nothing: decoding the value fails.
    Fail,
}

/// A map of the given keys, each value fed as said.
struct Entries<'t> {
    entries: VecDeque<(String, Fed<'t>)>,
    value: Option<Fed<'t>>,
}

impl<'t> Entries<'t> {
    fn new(entries: Vec<(String, Fed<'t>)>) -> Self {
        Self {
            entries: entries.into(),
            value: None,
        }
    }
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = ProbeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, ProbeError> {
        let Some((key, fed)) = self.entries.pop_front() else {
            return Ok(None);
        };
        self.value = Some(fed);
        let key: de::value::StringDeserializer<ProbeError> = key.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, ProbeError> {
        match self.value.take() {
            Some(Fed::Probe(probe)) => {
                let rust_type = Some(std::any::type_name::<S::Value>());
                seed.deserialize(probe.next(rust_type))
            }
            Some(Fed::Json(value)) => seed
                .deserialize(value)
                .map_err(|err| ProbeError(err.to_string())),
            Some(Fed::Str(text)) => {
                let text: de::value::StrDeserializer<'_, ProbeError> = text.into_deserializer();
                seed.deserialize(text)
            }
            Some(Fed::Fail) | None => Err(stop()),
        }
    }
}

/// A sequence whose one element is the probe, one step further.
struct OneElement<'t>(Option<Probe<'t>>);

impl<'de> SeqAccess<'de> for OneElement<'_> {
    type Error = ProbeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, ProbeError> {
        match self.0.take() {
            Some(probe) => {
                let rust_type = Some(std::any::type_name::<S::Value>());
                seed.deserialize(probe.next(rust_type)).map(Some)
            }
            None => Err(stop()),
        }
    }
}

/// The variant the path names (or an unknown one, as a question).
struct ProbeEnum<'t> {
    variant: &'static str,
    probe: Probe<'t>,
}

impl<'de, 't> EnumAccess<'de> for ProbeEnum<'t> {
    type Error = ProbeError;
    type Variant = Probe<'t>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Probe<'t>), ProbeError> {
        let name: de::value::StrDeserializer<'_, ProbeError> = self.variant.into_deserializer();
        let value = seed.deserialize(name)?;
        Ok((value, self.probe))
    }
}

impl<'de> VariantAccess<'de> for Probe<'_> {
    type Error = ProbeError;

    fn unit_variant(self) -> Result<(), ProbeError> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, ProbeError> {
        if self.tracer.question.is_some() && self.at_end() {
            return Err(stop());
        }
        let rust_type = Some(std::any::type_name::<S::Value>());
        seed.deserialize(self.next(rust_type))
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        visitor.visit_seq(OneElement(Some(self.next(None))))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ProbeError> {
        let name = match self.steps.get(self.pos) {
            Some(Step::Variant(variant)) => (*variant).to_owned(),
            _ => String::new(),
        };
        self.next(None).structure(name, fields, visitor)
    }
}

/// An unknown unit variant, for asking whether an enum has `#[serde(other)]`.
struct UnknownUnit;

impl<'de> EnumAccess<'de> for UnknownUnit {
    type Error = ProbeError;
    type Variant = UnknownUnit;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, UnknownUnit), ProbeError> {
        let name: de::value::StrDeserializer<'_, ProbeError> = PROBE_TAG.into_deserializer();
        Ok((seed.deserialize(name)?, UnknownUnit))
    }
}

impl<'de> VariantAccess<'de> for UnknownUnit {
    type Error = ProbeError;

    fn unit_variant(self) -> Result<(), ProbeError> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _: S) -> Result<S::Value, ProbeError> {
        Err(stop())
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, ProbeError> {
        Err(stop())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, ProbeError> {
        Err(stop())
    }
}
