//! The model written back as a JSON Schema in the dialect typify turns into faithful
//! serde types: draft-07 `definitions`, one per named type, every object with an
//! explicit `additionalProperties` (`{}` keeps unknown keys in a flattened map, so a
//! decode → encode round trip loses nothing), unions as `oneOf` only (typify reads
//! `anyOf` as a struct of optional parts), tags as one-value `enum`s, and no `format`
//! or `pattern` (which would pull `chrono`, `uuid` or `regress` into the crate; the
//! values stay strings).
//!
//! Everything the model resolved (drafts, `$ref`s across files, `allOf` merges) is
//! already gone: typify only ever sees references to `#/definitions/<key>`.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::bounds::{self, Bounds, Check};
use crate::emit::doc::DocBlock;
use crate::model::{
    Additional, Docs, Enum, Field, IntWidth, Literal, Model, NamedType, Payload, Record, Tagging,
    TypeExpr, TypeKind, Union,
};

/// Writes a module's types as schemas; `keys` maps each model type name to its
/// definition key.
pub(super) struct Dialect<'a> {
    model: &'a Model,
    keys: &'a HashMap<String, String>,
    /// The optional properties of the objects written since the last
    /// [`Dialect::definition`], each with whether its schema admits `null`.
    optional: RefCell<Vec<(String, bool)>>,
    /// The properties of the objects written since the last [`Dialect::definition`]
    /// whose schema holds integers, each with what kind.
    integers: RefCell<Vec<(String, Integers)>>,
    /// The integers of the untagged and externally tagged variants' values written
    /// since the last [`Dialect::definition`].
    variant_integers: RefCell<Integers>,
    /// Every property of the objects written since the last [`Dialect::definition`],
    /// with the bounds of its integers that the Rust type does not hold.
    bounded: RefCell<Vec<(String, Vec<Check>)>>,
}

/// What integers a schema holds, directly or through options, arrays, tuples, maps and
/// aliases (not inside the records and unions it names, whose own fields say).
#[derive(Clone, Copy, Default)]
struct Integers {
    /// JSON Schema's `integer`, which a whole float literal (`1.0`, `-0`) also is.
    plain: bool,
    /// One read from an integer literal only, as serde reads it (a Rust `format`, a
    /// draft-04 `integer`): a float literal is refused.
    rust: bool,
}

impl Integers {
    fn add(&mut self, other: Integers) {
        self.plain |= other.plain;
        self.rust |= other.rust;
    }

    /// Read through the crate's whole-float reading: plain integers only.
    fn whole(self) -> bool {
        self.plain && !self.rust
    }
}

/// A definition in typify's dialect, and the optional properties whose schema does not
/// admit `null` in every object it writes. typify types such a property
/// `Option<T>`, which serde reads from `null` too; the crate reads it only from a
/// present value (`types.rs`), as the schema says.
pub(super) struct Definition {
    pub schema: Value,
    pub present_only: BTreeSet<String>,
    /// How its integers without a Rust `format` are read: JSON Schema counts a whole
    /// float literal (`1.0`, `-0`) as an integer, serde does not, so the crate reads
    /// them through a reading that does (`types.rs`).
    pub whole: Whole,
    /// The bounds of its integers the crate checks (`bounds.rs`).
    pub bounds: Bounds,
}

/// Where a definition holds integers without a Rust `format` (and none with one, so
/// reading them as JSON Schema does refuses nothing serde must refuse).
#[derive(Default)]
pub(super) struct Whole {
    /// The property keys of its objects (a key of two objects, when neither holds an
    /// integer with a Rust `format`).
    pub keys: BTreeSet<String>,
    /// Whether its untagged or externally tagged variants' values do.
    pub variants: bool,
    /// Whether it is an alias whose value does (typify's newtype struct).
    pub alias: bool,
}

impl<'a> Dialect<'a> {
    pub fn new(model: &'a Model, keys: &'a HashMap<String, String>) -> Self {
        Dialect {
            model,
            keys,
            optional: RefCell::default(),
            integers: RefCell::default(),
            variant_integers: RefCell::default(),
            bounded: RefCell::default(),
        }
    }

    /// The definition of a named type.
    pub fn definition(&self, named: &NamedType) -> Definition {
        self.optional.borrow_mut().clear();
        self.integers.borrow_mut().clear();
        self.variant_integers.take();
        self.bounded.borrow_mut().clear();
        let schema = self.schema(named);
        let optional = self.optional.take();
        let mut by_key: HashMap<String, Integers> = HashMap::new();
        for (key, integers) in self.integers.take() {
            by_key.entry(key).or_default().add(integers);
        }
        let whole = Whole {
            keys: by_key
                .into_iter()
                .filter(|(_, integers)| integers.whole())
                .map(|(key, _)| key)
                .collect(),
            variants: self.variant_integers.take().whole(),
            alias: match &named.kind {
                TypeKind::Alias(expr) => self.integers_of(expr, 0).whole(),
                _ => false,
            },
        };
        let nullable: HashSet<&str> = optional
            .iter()
            .filter(|(_, null)| *null)
            .map(|(name, _)| name.as_str())
            .collect();
        // A name optional in two objects of one definition (two variants) is read from a
        // present value only when neither admits `null`: the crate cannot tell them apart.
        let present_only = optional
            .iter()
            .filter(|(name, _)| !nullable.contains(name.as_str()))
            .map(|(name, _)| name.clone())
            .collect();
        let mut each: HashMap<String, Vec<Vec<Check>>> = HashMap::new();
        for (key, checks) in self.bounded.take() {
            each.entry(key).or_default().push(checks);
        }
        let bounds = Bounds {
            fields: each
                .into_iter()
                .filter_map(|(key, each)| Some((key, bounds::agreed(&each)?)))
                .collect(),
            alias: match &named.kind {
                TypeKind::Alias(expr) => bounds::checks_of(expr),
                _ => Vec::new(),
            },
        };
        Definition {
            schema,
            present_only,
            whole,
            bounds,
        }
    }

    fn schema(&self, named: &NamedType) -> Value {
        let mut schema = match &named.kind {
            TypeKind::Record(record) => self.record(record, &[]),
            TypeKind::Enum(values) => enumeration(values),
            TypeKind::Union(union) => self.union(union),
            TypeKind::Alias(expr) => self.expr(expr),
        };
        describe(&mut schema, &named.docs);
        schema
    }

    /// A reference to the definition of `name`.
    fn reference(&self, name: &str) -> Value {
        let key = self.keys.get(name).map_or(name, String::as_str);
        json!({ "$ref": format!("#/definitions/{}", key.replace('~', "~0").replace('/', "~1")) })
    }

    fn expr(&self, expr: &TypeExpr) -> Value {
        match expr {
            TypeExpr::Any => json!({}),
            TypeExpr::Null => json!({ "type": "null" }),
            TypeExpr::Bool => json!({ "type": "boolean" }),
            TypeExpr::Integer(int) => json!({ "type": "integer", "format": int_format(int.width) }),
            TypeExpr::Number(_) => json!({ "type": "number", "format": "double" }),
            TypeExpr::String(_) => json!({ "type": "string" }),
            TypeExpr::Literal(literal) => literal_schema(literal),
            TypeExpr::Array(item) => json!({ "type": "array", "items": self.expr(item) }),
            TypeExpr::Tuple(items) => json!({
                "type": "array",
                "items": items.iter().map(|item| self.expr(item)).collect::<Vec<_>>(),
                "minItems": items.len(),
                "maxItems": items.len(),
            }),
            TypeExpr::Map(value) => {
                json!({ "type": "object", "additionalProperties": self.expr(value) })
            }
            TypeExpr::Ref(name) => self.reference(name),
            TypeExpr::Nullable(inner) => match inner.as_ref() {
                // `null` is already a JSON value.
                TypeExpr::Any => json!({}),
                inner => json!({ "oneOf": [self.expr(inner), { "type": "null" }] }),
            },
        }
    }

    /// An object with `fields` after the `leading` properties (a tag).
    fn object(
        &self,
        leading: &[(String, Value)],
        fields: &[&Field],
        additional: &Additional,
    ) -> Value {
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        // typify names a field after its key and does not resolve two keys that make
        // the same name (`build-dependencies`, `build_dependencies`): the later one is
        // left to the map of other keys, which keeps its value whole.
        let mut field_names: HashSet<String> = HashSet::new();
        let mut untyped = false;
        for (key, schema) in leading {
            properties.insert(key.clone(), schema.clone());
            required.push(Value::String(key.clone()));
            field_names.insert(super::field_key(key));
        }
        for field in fields {
            if properties.contains_key(&field.name) {
                continue;
            }
            if !field_names.insert(super::field_key(&field.name)) {
                untyped = true;
                continue;
            }
            let mut schema = self.expr(&field.ty);
            self.bounded
                .borrow_mut()
                .push((field.name.clone(), bounds::checks_of(&field.ty)));
            let integers = self.integers_of(&field.ty, 0);
            if integers.plain || integers.rust {
                self.integers
                    .borrow_mut()
                    .push((field.name.clone(), integers));
            }
            if !field.required {
                self.optional
                    .borrow_mut()
                    .push((field.name.clone(), self.admits_null(&field.ty, 0)));
            }
            if !field.required && self.is_collection(&field.ty) {
                // typify gives an optional array or map field a default and leaves it
                // out when empty, so `"x": []` would not come back; as an `Option` it
                // does.
                schema = json!({ "oneOf": [schema, { "type": "null" }] });
            }
            describe(&mut schema, &field.docs);
            properties.insert(field.name.clone(), schema);
            if field.required {
                required.push(Value::String(field.name.clone()));
            }
        }
        let additional = match additional {
            Additional::Allowed => json!({}),
            _ if untyped => json!({}),
            Additional::Forbidden => json!(false),
            Additional::Typed(value) => self.expr(value),
        };
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": additional,
        })
    }

    fn record(&self, record: &Record, leading: &[(String, Value)]) -> Value {
        let fields: Vec<&Field> = record.fields.iter().collect();
        self.object(leading, &fields, &record.additional)
    }

    /// Whether `null` is a value of `expr` (directly or through the named types it
    /// refers to; `depth` bounds the walk through aliases, past which it says yes, which
    /// leaves serde's reading as it is).
    fn admits_null(&self, expr: &TypeExpr, depth: usize) -> bool {
        if depth > 32 {
            return true;
        }
        match expr {
            TypeExpr::Any | TypeExpr::Null | TypeExpr::Nullable(_) => true,
            TypeExpr::Literal(literal) => matches!(literal, Literal::Null),
            TypeExpr::Ref(name) => match self.model.resolve(name).map(|t| &t.kind) {
                Some(TypeKind::Alias(inner)) => self.admits_null(inner, depth + 1),
                Some(TypeKind::Enum(values)) => values
                    .values
                    .iter()
                    .any(|v| matches!(v.value, Literal::Null)),
                Some(TypeKind::Record(_)) => false,
                Some(TypeKind::Union(union)) => match union.tagging {
                    Tagging::Internal { .. } | Tagging::Adjacent { .. } => false,
                    Tagging::External | Tagging::Untagged if union.unknown.is_some() => true,
                    Tagging::External => false,
                    Tagging::Untagged => union.variants.iter().any(|v| match &v.payload {
                        Payload::Unit => true,
                        Payload::Fields(_) => false,
                        Payload::Type(inner) => self.admits_null(inner, depth + 1),
                        Payload::Content(field) => self.admits_null(&field.ty, depth + 1),
                    }),
                },
                // A type of another module (or none known): leave serde's reading.
                None => true,
            },
            TypeExpr::Bool
            | TypeExpr::Integer(_)
            | TypeExpr::Number(_)
            | TypeExpr::String(_)
            | TypeExpr::Array(_)
            | TypeExpr::Tuple(_)
            | TypeExpr::Map(_) => false,
        }
    }

    /// Whether `expr` is an array or a map (directly or through aliases), or an object
    /// type typify represents as a map.
    fn is_collection(&self, expr: &TypeExpr) -> bool {
        match expr {
            TypeExpr::Array(_) | TypeExpr::Tuple(_) | TypeExpr::Map(_) => true,
            TypeExpr::Ref(name) => match self.model.resolve(name).map(|t| &t.kind) {
                Some(TypeKind::Alias(inner)) => self.is_collection(inner),
                Some(TypeKind::Record(record)) => record.fields.is_empty(),
                _ => false,
            },
            _ => false,
        }
    }

    /// The fields and openness of what a variant's payload type holds, when it is a
    /// record (directly or through aliases).
    fn record_of(&self, expr: &TypeExpr) -> Option<&Record> {
        let TypeExpr::Ref(name) = expr else {
            return None;
        };
        match &self.model.resolve(name)?.kind {
            TypeKind::Record(record) => Some(record),
            _ => None,
        }
    }

    fn union(&self, union: &Union) -> Value {
        let mut alternatives = Vec::new();
        let shared: Vec<&Field> = union.fields.iter().collect();
        for variant in &union.variants {
            let tag = variant.tag.as_ref().map(literal_schema);
            let mut schema = match (&union.tagging, &variant.payload, tag) {
                (Tagging::Internal { tag: key }, payload, Some(tag)) => {
                    let leading = [(key.clone(), tag)];
                    match payload {
                        Payload::Unit => self.object(&leading, &shared, &Additional::Allowed),
                        Payload::Fields(fields) => {
                            let all: Vec<&Field> = shared.iter().copied().chain(fields).collect();
                            self.object(&leading, &all, &Additional::Allowed)
                        }
                        Payload::Type(expr) => match self.record_of(expr) {
                            Some(record) => {
                                let all: Vec<&Field> =
                                    shared.iter().copied().chain(&record.fields).collect();
                                self.object(&leading, &all, &record.additional)
                            }
                            None => self.object(&leading, &shared, &Additional::Allowed),
                        },
                        Payload::Content(field) => {
                            let all: Vec<&Field> =
                                shared.iter().copied().chain([field.as_ref()]).collect();
                            self.object(&leading, &all, &Additional::Allowed)
                        }
                    }
                }
                (Tagging::Adjacent { tag: key, content }, payload, Some(tag)) => {
                    let leading = [(key.clone(), tag)];
                    let mut fields = shared.clone();
                    let content_field;
                    match payload {
                        Payload::Unit => {}
                        Payload::Content(field) => fields.push(field.as_ref()),
                        Payload::Type(expr) => {
                            content_field = content_of(content, expr.clone());
                            fields.push(&content_field);
                        }
                        Payload::Fields(inline) => {
                            let record = Record {
                                fields: inline.clone(),
                                additional: Additional::Allowed,
                                constraints: Vec::new(),
                            };
                            let mut properties = Map::new();
                            properties.insert(key.clone(), leading[0].1.clone());
                            properties.insert(content.clone(), self.record(&record, &[]));
                            alternatives.push(json!({
                                "type": "object",
                                "properties": properties,
                                "required": [key, content],
                                "additionalProperties": {},
                            }));
                            continue;
                        }
                    }
                    self.object(&leading, &fields, &Additional::Allowed)
                }
                (Tagging::External, Payload::Unit, _) => {
                    let name = variant.tag.as_ref().and_then(Literal::as_str);
                    json!({ "type": "string", "enum": [name.unwrap_or(&variant.name)] })
                }
                (Tagging::External, payload, _) => {
                    let name = variant
                        .tag
                        .as_ref()
                        .and_then(Literal::as_str)
                        .unwrap_or(&variant.name)
                        .to_owned();
                    let inner = self.payload(payload);
                    json!({
                        "type": "object",
                        "properties": { name.clone(): inner },
                        "required": [name],
                        "additionalProperties": false,
                    })
                }
                (_, payload, _) => self.payload(payload),
            };
            describe(&mut schema, &variant.docs);
            alternatives.push(schema);
        }
        if union.unknown.is_some() {
            // An open union keeps what it does not know: any other value, whole.
            alternatives.push(match union.tagging {
                Tagging::External | Tagging::Untagged => json!({}),
                _ => json!({ "type": "object", "additionalProperties": {} }),
            });
        }
        json!({ "oneOf": alternatives })
    }

    /// The schema of an untagged or externally tagged variant's value.
    fn payload(&self, payload: &Payload) -> Value {
        match payload {
            Payload::Unit => json!({ "type": "null" }),
            Payload::Fields(fields) => {
                let fields: Vec<&Field> = fields.iter().collect();
                self.object(&[], &fields, &Additional::Allowed)
            }
            Payload::Type(expr) => {
                self.variant_integers
                    .borrow_mut()
                    .add(self.integers_of(expr, 0));
                self.expr(expr)
            }
            Payload::Content(field) => {
                self.variant_integers
                    .borrow_mut()
                    .add(self.integers_of(&field.ty, 0));
                self.expr(&field.ty)
            }
        }
    }

    /// The integers `expr` holds, through options, arrays, tuples, maps and aliases
    /// (`depth` bounds the walk through aliases, past which it says it holds one with a
    /// Rust `format`, which leaves serde's reading as it is).
    fn integers_of(&self, expr: &TypeExpr, depth: usize) -> Integers {
        if depth > 32 {
            return Integers {
                plain: false,
                rust: true,
            };
        }
        match expr {
            TypeExpr::Integer(int) => Integers {
                plain: !int.literal_only,
                rust: int.literal_only,
            },
            TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
                self.integers_of(inner, depth + 1)
            }
            TypeExpr::Tuple(items) => {
                let mut all = Integers::default();
                for item in items {
                    all.add(self.integers_of(item, depth + 1));
                }
                all
            }
            TypeExpr::Ref(name) => match self.model.resolve(name).map(|t| &t.kind) {
                Some(TypeKind::Alias(inner)) => self.integers_of(inner, depth + 1),
                _ => Integers::default(),
            },
            // A constant integer: typify's `i64`, and `1.0` is the constant `1`.
            TypeExpr::Literal(Literal::Number(number)) if !number.is_f64() => Integers {
                plain: true,
                rust: false,
            },
            TypeExpr::Any
            | TypeExpr::Null
            | TypeExpr::Bool
            | TypeExpr::Number(_)
            | TypeExpr::String(_)
            | TypeExpr::Literal(_) => Integers::default(),
        }
    }
}

/// A required field called `content` of type `ty`.
fn content_of(content: &str, ty: TypeExpr) -> Field {
    Field {
        name: content.to_owned(),
        ty,
        required: true,
        docs: Docs::default(),
        default: None,
        aliases: Vec::new(),
        pointer: String::new(),
    }
}

/// typify's integer `format` for a width.
fn int_format(width: IntWidth) -> &'static str {
    match width {
        IntWidth::I8 => "int8",
        IntWidth::I16 => "int16",
        IntWidth::I32 => "int32",
        IntWidth::I64 => "int64",
        IntWidth::U8 => "uint8",
        IntWidth::U16 => "uint16",
        IntWidth::U32 => "uint32",
        IntWidth::U64 => "uint64",
    }
}

/// One literal value: a string becomes a one-value string enum (typify's tag shape);
/// other literals keep their JSON type (typify has no one-value enum of them), so the
/// value itself is not enforced.
fn literal_schema(literal: &Literal) -> Value {
    match literal {
        Literal::String(text) => json!({ "type": "string", "enum": [text] }),
        Literal::Number(number) if number.is_f64() => json!({ "type": "number" }),
        Literal::Number(_) => json!({ "type": "integer", "format": "int64" }),
        Literal::Bool(_) => json!({ "type": "boolean" }),
        Literal::Null => json!({ "type": "null" }),
    }
}

/// A set of literals: a string enum (with any other string beside it when open);
/// other literal sets are typed by their JSON type, which typify can represent (the
/// crate checks the values, `values.rs`).
fn enumeration(values: &Enum) -> Value {
    if !values.is_string() {
        let mut types: Vec<Value> = values
            .values
            .iter()
            .map(|v| literal_schema(&v.value))
            .collect();
        types.dedup();
        return match types.len() {
            1 => types.remove(0),
            _ => json!({}),
        };
    }
    let strings: Vec<&str> = values
        .values
        .iter()
        .filter_map(|v| v.value.as_str())
        .collect();
    // typify names a variant after its value and gives up when two values make the
    // same name (`GMT+0`, `GMT-0`): then the values are typed as strings, and the crate
    // checks them (`values.rs`).
    if !super::values::typed_as_enum(values) {
        return json!({ "type": "string" });
    }
    let closed = json!({ "type": "string", "enum": strings });
    if values.open {
        json!({ "oneOf": [closed, { "type": "string" }] })
    } else {
        closed
    }
}

/// Adds the docs as the schema's `description`, one line per line of text.
fn describe(schema: &mut Value, docs: &Docs) {
    let Some(text) = DocBlock::new(docs).joined() else {
        return;
    };
    if let Value::Object(object) = schema {
        object.insert("description".into(), Value::String(doc_text(&text)));
    }
}

/// Doc text that never opens a Markdown code block (rustdoc would compile and run it
/// as a doctest): runs of spaces and tabs become one space (no indented block) and
/// fence characters are escaped (no fenced block anywhere, not even in a list or a
/// quote). Characters rustc refuses in comments are escaped later, in the whole
/// source (`types.rs`).
fn doc_text(text: &str) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            line.split([' ', '\t'])
                .filter(|word| !word.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
                .replace('`', "\\`")
                .replace('~', "\\~")
        })
        .collect();
    lines.join("\n")
}
