//! The run-time half of a TypeScript module: one decoder (a *reader*) and one encoder
//! (a *writer*) per named type of the model, written out as plain JavaScript functions
//! that check exactly what the model says (no schema is interpreted at run time).
//!
//! A reader has the shape `(v, e, s) => value`: it reads the parsed JSON value `v`,
//! pushes a violation onto `e` for everything wrong (located relative to `v`), and on
//! failure locates its violations under `s`, its key or index in the parent (`null`
//! at the root). A value is valid when `e` did not grow. Readers build a fresh value:
//! input aliases become canonical spellings, `null` that stands for absence (R3) is
//! dropped, defaults are filled in (symgen's own schemas, where serde fills them), and
//! unknown keys are dropped where serde ignores them (R2) or kept where the schema
//! keeps them (a schema symgen did not write). A writer turns a typed value back into
//! wire JSON: canonical tag and enum spellings, no `undefined` members.
//!
//! The text is laid out so prettier leaves it unchanged: short statements, with every
//! string from the schema that could make a line long (or whose width prettier would
//! measure differently) moved into a module-level constant `kN` of its own, written in
//! ASCII with `\u` escapes.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::Value;

use super::layout;
use crate::model::{
    Additional, Constraint, Field, Literal, Model, Payload, Presence, Record, Reply, Tagging,
    TypeExpr, TypeKind, Union, Variant, json_string,
};

/// The most fields one function reads or writes.
const CHUNK: usize = 48;

/// The widest string literal or property name written inline.
const INLINE: usize = 24;

/// Keys `Object.prototype` provides: read and written as own properties only.
const PROTOTYPE_KEYS: &[&str] = &[
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// What a function of the codec is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A reader `(v, e, s)`.
    Reader,
    /// A writer `(v)`.
    Writer,
    /// Part of a large record's reader: reads some fields `(v, e, o)` into `o`.
    Fill,
    /// Part of a large record's writer: writes some fields `(v, o)` into `o`.
    WriteFill,
}

/// One function of the module's JavaScript.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name (`r12`, `w3`, `f4`).
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// The body's lines, indented from column 0 of the file. Every piece of schema
    /// text in them is a JSON string literal ([`json_string`]) or an index into `K`;
    /// everything else is generated identifiers, numbers and fixed code.
    pub body: Vec<String>,
}

/// A module-level constant array.
#[derive(Debug, Clone, PartialEq)]
pub struct Const {
    /// Its name.
    pub name: String,
    /// The elements, as JavaScript expressions.
    pub elements: Vec<String>,
    /// The variants of an untagged union (`[reader, keys]` pairs): typed `$Choice[]`;
    /// prettier breaks such a list one element per line when it has more than one.
    pub choices: bool,
}

/// The decoders and encoders of one module.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Codec {
    /// The string constants `k0`, `k1`, …: JavaScript string literals in ASCII.
    pub strings: Vec<String>,
    /// Module-level constant arrays, in dependency order.
    pub consts: Vec<Const>,
    /// The readers and writers.
    pub functions: Vec<Function>,
}

/// The reader and writer of each named type: function names (a writer may be `None`:
/// values of the type are written as they are).
#[derive(Debug, Clone, Default)]
pub struct Names {
    readers: HashMap<String, String>,
    writers: HashMap<String, Option<String>>,
    /// Reply data type (debug text) → its reader and writer.
    replies: HashMap<String, (String, Option<String>)>,
}

impl Names {
    /// The reader of the named type `name`.
    pub fn reader(&self, name: &str) -> Option<&str> {
        self.readers.get(name).map(String::as_str)
    }

    /// The writer of the named type `name`; `None` when values are written unchanged.
    pub fn writer(&self, name: &str) -> Option<&str> {
        self.writers.get(name).and_then(|w| w.as_deref())
    }

    /// The reader and writer of a reply data type.
    pub fn reply(&self, expr: &TypeExpr) -> Option<(&str, Option<&str>)> {
        self.replies
            .get(&format!("{expr:?}"))
            .map(|(r, w)| (r.as_str(), w.as_deref()))
    }
}

/// What happens to the keys of an object that no field declares.
#[derive(Debug, Clone, PartialEq)]
enum Others {
    /// Ignored and dropped (R2, symgen's own schemas: serde ignores them).
    Drop,
    /// Kept as they are (a schema symgen did not write: the object is open).
    Keep,
    /// A violation each (`additionalProperties: false`).
    Forbid,
    /// Kept, each read as this type.
    Typed(TypeExpr),
}

/// Builds the codec of `model`.
pub fn build(model: &Model) -> (Codec, Names) {
    let mut builder = Builder::new(model);
    builder.plan();
    for ty in &model.types {
        builder.named_reader(&ty.name);
    }
    for ty in &model.types {
        builder.named_writer(&ty.name);
    }
    // Reply data types (R8): `decode…Reply` reads them.
    let mut replies = HashMap::new();
    for ty in &model.types {
        if let TypeKind::Union(union) = &ty.kind {
            for variant in &union.variants {
                if let Reply::Data(expr) = &variant.reply {
                    let reader = builder.reader(expr);
                    let writer = builder.writer(expr);
                    replies.insert(format!("{expr:?}"), (reader, writer));
                }
            }
        }
    }
    let names = Names {
        readers: builder.readers,
        writers: builder.writers,
        replies,
    };
    (builder.codec, names)
}

struct Builder<'m> {
    model: &'m Model,
    /// A schema symgen wrote (serde's rules: defaults filled in, unknown keys dropped).
    own_schema: bool,
    codec: Codec,
    strings: HashMap<String, usize>,
    consts: HashMap<Vec<String>, String>,
    readers: HashMap<String, String>,
    writers: HashMap<String, Option<String>>,
    expr_readers: HashMap<String, String>,
    expr_writers: HashMap<String, Option<String>>,
    functions: usize,
}

/// `if (a) x;` / `else if (b) y;` / `else z;` on one line each when they fit at
/// `indent`, else as blocks (`if (a) {` …).
fn chain(indent: usize, branches: &[(&str, &str)], otherwise: Option<&str>) -> Vec<String> {
    let pad = " ".repeat(indent);
    let mut flat = Vec::new();
    for (i, (cond, then)) in branches.iter().enumerate() {
        let keyword = if i == 0 { "if" } else { "else if" };
        flat.push(format!("{pad}{keyword} ({cond}) {then}"));
    }
    if let Some(o) = otherwise {
        flat.push(format!("{pad}else {o}"));
    }
    if flat.iter().all(|l| layout::fits(l)) {
        return flat;
    }
    let mut lines = Vec::new();
    for (i, (cond, then)) in branches.iter().enumerate() {
        lines.push(if i == 0 {
            format!("{pad}if ({cond}) {{")
        } else {
            format!("{pad}}} else if ({cond}) {{")
        });
        lines.push(format!("{pad}  {then}"));
    }
    if let Some(o) = otherwise {
        lines.push(format!("{pad}}} else {{"));
        lines.push(format!("{pad}  {o}"));
    }
    lines.push(format!("{pad}}}"));
    lines
}

/// `if (cond) then;` with an optional `else`, see [`chain`].
fn if_else(indent: usize, cond: &str, then: &str, otherwise: Option<&str>) -> Vec<String> {
    chain(indent, &[(cond, then)], otherwise)
}

/// `callee(args);` at `indent`, one argument per line when it does not fit.
fn call(indent: usize, head: &str, callee: &str, args: &[String], tail: &str) -> Vec<String> {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{head}{callee}({}){tail}", args.join(", "));
    if layout::fits(&line) {
        return vec![line];
    }
    let mut lines = vec![format!("{pad}{head}{callee}(")];
    lines.extend(args.iter().map(|a| format!("{pad}  {a},")));
    lines.push(format!("{pad}){tail}"));
    lines
}

impl<'m> Builder<'m> {
    fn new(model: &'m Model) -> Self {
        Builder {
            model,
            own_schema: model.protocol.is_some(),
            codec: Codec::default(),
            strings: HashMap::new(),
            consts: HashMap::new(),
            readers: HashMap::new(),
            writers: HashMap::new(),
            expr_readers: HashMap::new(),
            expr_writers: HashMap::new(),
            functions: 0,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.functions += 1;
        format!("{prefix}{}", self.functions)
    }

    /// Names every named type's reader and writer before any body refers to them.
    fn plan(&mut self) {
        for ty in &self.model.types {
            let reader = self.fresh("r");
            self.readers.insert(ty.name.clone(), reader);
        }
        let mut known: HashMap<&str, bool> = HashMap::new();
        for ty in &self.model.types {
            if needs_writer(self.model, &ty.name, &mut known) {
                let writer = self.fresh("w");
                self.writers.insert(ty.name.clone(), Some(writer));
            } else {
                self.writers.insert(ty.name.clone(), None);
            }
        }
    }

    // ----- text -----------------------------------------------------------------

    /// A string literal: inline when short and plain, else a string constant.
    fn lit(&mut self, text: &str) -> String {
        let literal = json_string(text);
        if literal.len() <= INLINE && literal.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return literal;
        }
        let next = self.strings.len();
        let index = *self.strings.entry(literal.clone()).or_insert(next);
        if index == next {
            self.codec.strings.push(ascii(&literal));
        }
        format!("k{index}")
    }

    /// A JSON literal as a JavaScript expression.
    fn literal(&mut self, value: &Literal) -> String {
        match value {
            Literal::String(s) => self.lit(s),
            other => other.to_json(),
        }
    }

    /// A module-level constant array of these elements (shared when equal).
    fn constant(&mut self, elements: Vec<String>) -> String {
        if let Some(name) = self.consts.get(&elements) {
            return name.clone();
        }
        let name = self.fresh("c");
        self.consts.insert(elements.clone(), name.clone());
        let choices = !elements.is_empty() && elements.iter().all(|e| e.starts_with('['));
        self.codec.consts.push(Const {
            name: name.clone(),
            elements,
            choices,
        });
        name
    }

    fn strings_constant(&mut self, texts: &[&str]) -> String {
        let elements = texts.iter().map(|t| self.lit(t)).collect();
        self.constant(elements)
    }

    fn literals_constant(&mut self, values: &[&Literal]) -> String {
        let elements = values.iter().map(|v| self.literal(v)).collect();
        self.constant(elements)
    }

    /// `object.key` (or `object[…]`, or an own-property read for prototype names).
    fn get(&mut self, object: &str, key: &str) -> String {
        if PROTOTYPE_KEYS.contains(&key) {
            return format!("$.own({object}, {})", self.lit(key));
        }
        if super::names::is_identifier(key) && key.is_ascii() && key.len() <= INLINE - 2 {
            return format!("{object}.{key}");
        }
        format!("{object}[{}]", self.lit(key))
    }

    /// `object.key = value;` (or through `$.put` for `__proto__`).
    fn set(&mut self, object: &str, key: &str, value: &str) -> String {
        if key == "__proto__" {
            return format!("$.put({object}, {}, {value});", self.lit(key));
        }
        if !PROTOTYPE_KEYS.contains(&key)
            && super::names::is_identifier(key)
            && key.is_ascii()
            && key.len() <= INLINE - 2
        {
            return format!("{object}.{key} = {value};");
        }
        format!("{object}[{}] = {value};", self.lit(key))
    }

    fn push_function(&mut self, name: &str, kind: Kind, body: Vec<String>) {
        self.codec.functions.push(Function {
            name: name.to_owned(),
            kind,
            body,
        });
    }

    fn reader_function(&mut self, name: &str, body: Vec<String>) {
        self.push_function(name, Kind::Reader, body);
    }

    fn writer_function(&mut self, name: &str, body: Vec<String>) {
        self.push_function(name, Kind::Writer, body);
    }

    // ----- readers ----------------------------------------------------------------

    /// The reader of an expression: a function `(v, e, s)`.
    fn reader(&mut self, expr: &TypeExpr) -> String {
        match expr {
            TypeExpr::Any => return "$.any".into(),
            TypeExpr::Null => return "$.nul".into(),
            TypeExpr::Bool => return "$.bool".into(),
            TypeExpr::Number(_) => return "$.num".into(),
            TypeExpr::String(_) => return "$.str".into(),
            TypeExpr::Ref(name) => {
                if let Some(reader) = self.readers.get(name) {
                    return reader.clone();
                }
                return "$.any".into();
            }
            _ => {}
        }
        let key = format!("{expr:?}");
        if let Some(name) = self.expr_readers.get(&key) {
            return name.clone();
        }
        let name = self.fresh("r");
        self.expr_readers.insert(key, name.clone());
        let line = match expr {
            TypeExpr::Integer(int) => {
                let (lowest, highest) = int.width.range();
                let min = double_at_least(int.minimum.unwrap_or(lowest).max(lowest));
                let max = double_at_most(int.maximum.unwrap_or(highest).min(highest));
                // serde reads `-0` as a float where the schema says a Rust integer,
                // and draft-04 counts no float literal as an integer; JSON Schema's
                // later `integer` takes it.
                let reader = if int.literal_only { "strictInt" } else { "int" };
                format!("return $.{reader}(v, e, s, {min}, {max});")
            }
            TypeExpr::Literal(value) => {
                let value = self.literal(value);
                format!("return $.konst(v, e, s, {value});")
            }
            TypeExpr::Array(item) => {
                let integers = if self.literal_integer(item) {
                    ", true"
                } else {
                    ""
                };
                let item = self.reader(item);
                format!("return $.array(v, e, s, {item}{integers});")
            }
            TypeExpr::Map(value) => {
                let integers = if self.literal_integer(value) {
                    ", true"
                } else {
                    ""
                };
                let value = self.reader(value);
                format!("return $.map(v, e, s, {value}{integers});")
            }
            TypeExpr::Tuple(items) => {
                let integers: Vec<String> = (0..items.len())
                    .filter(|&i| self.literal_integer(&items[i]))
                    .map(|i| i.to_string())
                    .collect();
                let items: Vec<String> = items.iter().map(|i| self.reader(i)).collect();
                let items = self.constant(items);
                if integers.is_empty() {
                    format!("return $.tuple(v, e, s, {items});")
                } else {
                    let integers = self.constant(integers);
                    format!("return $.tuple(v, e, s, {items}, {integers});")
                }
            }
            TypeExpr::Nullable(inner) => {
                let inner = self.reader(inner);
                format!("return v === null ? null : {inner}(v, e, s);")
            }
            _ => unreachable!("handled above"),
        };
        self.reader_function(&name, vec![format!("  {line}")]);
        name
    }

    fn named_reader(&mut self, name: &str) {
        let Some(ty) = self.model.get(name) else {
            return;
        };
        let reader = self.readers[name].clone();
        let body = match &ty.kind {
            TypeKind::Record(record) => self.record_body(record),
            TypeKind::Enum(e) => {
                let mut body = vec!["  switch (v) {".to_owned()];
                let mut seen = BTreeSet::new();
                for value in &e.values {
                    let canonical = self.literal(&value.value);
                    let spellings = std::iter::once(&value.value).chain(&value.aliases);
                    let then = format!("return {canonical};");
                    self.cases(spellings, &mut seen, &then, &mut body);
                }
                body.push("  }".to_owned());
                if e.open {
                    body.push("  if (typeof v === \"string\") return v;".to_owned());
                }
                let values: Vec<&Literal> = e.values.iter().map(|v| &v.value).collect();
                let values = self.literals_constant(&values);
                let rule = if e.is_string() {
                    "unknown_enum_value"
                } else {
                    "wrong_const"
                };
                body.extend(call(
                    2,
                    "return ",
                    "$.oneOf",
                    &[
                        "e".into(),
                        "v".into(),
                        "s".into(),
                        json_string(rule),
                        values,
                    ],
                    ";",
                ));
                body
            }
            TypeKind::Alias(expr) => {
                let inner = self.reader(expr);
                vec![format!("  return {inner}(v, e, s);")]
            }
            TypeKind::Union(union) => self.union_body(name, union),
        };
        self.reader_function(&reader, body);
    }

    /// A reader body that checks for an object, reports the text's faults in the keys
    /// it keeps (`faults`, see `text_faults`), fills `o` by `fill` and returns it.
    fn object_body(&mut self, faults: String, fill: Vec<String>) -> Vec<String> {
        let mut body = vec![
            "  if (!$.isObject(v)) return $.wrongType(e, v, s, \"an object\");".to_owned(),
            "  const n = e.length;".to_owned(),
            faults,
            "  /** @type {any} */".to_owned(),
            "  const o = {};".to_owned(),
        ];
        body.extend(fill);
        body.push("  if (e.length !== n) $.at(e, n, s);".to_owned());
        body.push("  return o;".to_owned());
        body
    }

    fn others(&self, additional: &Additional) -> Others {
        match additional {
            Additional::Allowed if self.own_schema => Others::Drop,
            Additional::Allowed => Others::Keep,
            Additional::Forbidden => Others::Forbid,
            Additional::Typed(ty) => Others::Typed(ty.clone()),
        }
    }

    fn record_body(&mut self, record: &Record) -> Vec<String> {
        let mut fill = Vec::new();
        self.fill_fields(&record.fields, None, &mut fill);
        self.constraints(&record.constraints, &mut fill);
        let others = self.others(&record.additional);
        let known = known_keys(&record.fields);
        self.other_keys(&others, &known, &mut fill);
        let integers = self.integer_keys(&record.fields);
        let faults = self.text_faults(&known, &others, &integers);
        self.object_body(faults, fill)
    }

    /// Whether a value of `expr` is read from an integer literal only, so that a whole
    /// number written as a float (`1.0`) is refused: an integer of a Rust width or of a
    /// draft-04 document, possibly nullable or named through aliases, or an untagged
    /// union whose only alternatives that take a number are such integers.
    fn literal_integer(&self, expr: &TypeExpr) -> bool {
        self.number_reading(expr, 0) == NumberReading::LiteralInteger
    }

    /// How a value of `expr` reads a number (`depth`: how many names were followed; a
    /// model's aliases end, the bound only keeps a cycle harmless).
    fn number_reading(&self, expr: &TypeExpr, depth: usize) -> NumberReading {
        if depth > 64 {
            return NumberReading::Any;
        }
        match expr {
            TypeExpr::Integer(int) if int.literal_only => NumberReading::LiteralInteger,
            TypeExpr::Integer(_) | TypeExpr::Number(_) | TypeExpr::Any => NumberReading::Any,
            TypeExpr::Literal(Literal::Number(_)) => NumberReading::Any,
            TypeExpr::Nullable(inner) => self.number_reading(inner, depth),
            TypeExpr::Ref(name) => match self.model.get(name).map(|t| &t.kind) {
                Some(TypeKind::Alias(inner)) => self.number_reading(inner, depth + 1),
                Some(TypeKind::Enum(e)) if !e.is_string() => NumberReading::Any,
                Some(TypeKind::Union(u)) if matches!(u.tagging, Tagging::Untagged) => {
                    self.alternatives_reading(u, depth + 1)
                }
                Some(_) => NumberReading::None,
                None => NumberReading::Any,
            },
            _ => NumberReading::None,
        }
    }

    /// How an untagged union reads a number: as a Rust integer when one alternative
    /// does and no other takes a number at all.
    fn alternatives_reading(&self, union: &Union, depth: usize) -> NumberReading {
        if union.unknown.is_some() {
            return NumberReading::Any;
        }
        let mut reading = NumberReading::None;
        for variant in &union.variants {
            let each = match &variant.payload {
                Payload::Type(expr) => self.number_reading(expr, depth),
                Payload::Unit | Payload::Fields(_) => NumberReading::None,
                Payload::Content(_) => NumberReading::Any,
            };
            match each {
                NumberReading::Any => return NumberReading::Any,
                NumberReading::LiteralInteger => reading = NumberReading::LiteralInteger,
                NumberReading::None => {}
            }
        }
        reading
    }

    /// The keys (wire names and aliases) of the `fields` serde reads as Rust integers.
    fn integer_keys<'f>(&self, fields: &'f [Field]) -> Vec<&'f str> {
        let integers = fields.iter().filter(|f| self.literal_integer(&f.ty));
        known_keys(integers)
    }

    /// The line that reports the wire text's faults (a key given twice, a lone
    /// surrogate, `1e400`) in the keys an object's reader keeps: its `known` keys, and
    /// every other key when `others` are read as typed values, as serde keeps them; and
    /// a whole number written as a float (`1.0`) in the keys of Rust `integers` (and in
    /// every other key when `others` are Rust integers).
    fn text_faults(&mut self, known: &[&str], others: &Others, integers: &[&str]) -> String {
        let declared = self.strings_constant(&distinct(known));
        // Other keys read as Rust integers (`#[serde(flatten)]` of a map of them).
        let other_integers = matches!(others, Others::Typed(ty) if self.literal_integer(ty));
        let others = matches!(others, Others::Typed(_));
        if integers.is_empty() && !other_integers {
            return format!("  $.faults(v, e, {declared}, {others});");
        }
        let integers = if integers.is_empty() {
            "[]".to_owned()
        } else {
            self.strings_constant(&distinct(integers))
        };
        if other_integers {
            return format!("  $.faults(v, e, {declared}, {others}, {integers}, true);");
        }
        format!("  $.faults(v, e, {declared}, {others}, {integers});")
    }

    /// Reads `fields` of `v` into `o` (`skip`: a key already set, the tag).
    fn fill_fields(&mut self, fields: &[Field], skip: Option<&str>, out: &mut Vec<String>) {
        let fields: Vec<&Field> = fields
            .iter()
            .filter(|f| Some(f.name.as_str()) != skip)
            .collect();
        if fields.len() <= CHUNK {
            for field in fields {
                self.fill_field(field, out);
            }
            return;
        }
        // A long function is more than tsc's control flow analysis takes: the fields
        // are read by functions of at most `CHUNK` fields each.
        for chunk in fields.chunks(CHUNK) {
            let mut lines = Vec::new();
            for field in chunk {
                self.fill_field(field, &mut lines);
            }
            let name = self.fresh("f");
            self.push_function(&name, Kind::Fill, lines);
            out.push(format!("  {name}(v, e, o);"));
        }
    }

    fn fill_field(&mut self, field: &Field, out: &mut Vec<String>) {
        if !out.iter().any(|l| l == "  let x;") {
            out.push("  let x;".to_owned());
        }
        let segment = if field.aliases.is_empty() {
            out.push(format!("  x = {};", self.get("v", &field.name)));
            self.lit(&field.name)
        } else {
            if !out.iter().any(|l| l == "  let k;") {
                out.insert(0, "  let k;".to_owned());
            }
            let names: Vec<&str> = std::iter::once(field.name.as_str())
                .chain(field.aliases.iter().map(String::as_str))
                .collect();
            let names = self.strings_constant(&names);
            out.push(format!("  k = $.which(v, e, {names});"));
            out.push("  x = $.own(v, k);".to_owned());
            "k".to_owned()
        };
        let read = |this: &mut Self, ty: &TypeExpr| -> String {
            let reader = this.reader(ty);
            this.set("o", &field.name, &format!("{reader}(x, e, {segment})"))
        };
        let default = self.default_of(field);
        match field.presence() {
            Presence::Required => {
                let then = format!("$.missing(e, x, {segment});");
                let otherwise = read(self, &field.ty);
                out.extend(if_else(2, "x == null", &then, Some(&otherwise)));
            }
            Presence::RequiredNullable => {
                let then = format!("$.missing(e, x, {segment});");
                let otherwise = read(self, &field.ty);
                out.extend(if_else(2, "x === undefined", &then, Some(&otherwise)));
            }
            Presence::Optional => {
                let null = format!("$.isNull(e, {segment});");
                let then = read(self, &field.ty);
                let otherwise = default.map(|d| self.set("o", &field.name, &d));
                out.extend(chain(
                    2,
                    &[("x === null", &null), ("x !== undefined", &then)],
                    otherwise.as_deref(),
                ));
            }
            Presence::OptionalNullable => {
                let then = read(self, field.ty.non_null());
                let otherwise = default.map(|d| self.set("o", &field.name, &d));
                out.extend(if_else(2, "x != null", &then, otherwise.as_deref()));
            }
        }
    }

    /// The value an absent optional field takes, as an expression (symgen's own
    /// schemas only: serde fills it in; a constant is its own default).
    fn default_of(&mut self, field: &Field) -> Option<String> {
        if !self.own_schema {
            return None;
        }
        let value = match (&field.default, &field.ty) {
            (Some(value), _) if !value.is_null() => value.clone(),
            (_, TypeExpr::Literal(literal)) => serde_json::from_str(&literal.to_json()).ok()?,
            _ => return None,
        };
        Some(match &value {
            Value::String(s) => self.lit(s),
            Value::Array(items) if items.is_empty() => "[]".to_owned(),
            Value::Object(map) if map.is_empty() => "{}".to_owned(),
            Value::Number(_) | Value::Bool(_) if value.to_string().len() <= INLINE => {
                value.to_string()
            }
            _ => {
                let text = self.lit(&value.to_string());
                format!("$.json({text})")
            }
        })
    }

    fn constraints(&mut self, constraints: &[Constraint], out: &mut Vec<String>) {
        for constraint in constraints {
            match constraint {
                Constraint::AtLeastOneOf(fields) => {
                    let names: Vec<&str> = fields.iter().map(String::as_str).collect();
                    let names = self.strings_constant(&names);
                    out.push(format!("  $.atLeastOne(o, e, {names});"));
                }
                Constraint::RequiredWhen {
                    field,
                    when,
                    values,
                } => {
                    let values: Vec<&Literal> = values.iter().collect();
                    let values = self.literals_constant(&values);
                    let args = vec![
                        "o".to_owned(),
                        "e".to_owned(),
                        self.lit(field),
                        self.lit(when),
                        values,
                    ];
                    out.extend(call(2, "", "$.requiredWhen", &args, ";"));
                }
            }
        }
    }

    /// What becomes of keys not in `known`.
    fn other_keys(&mut self, others: &Others, known: &[&str], out: &mut Vec<String>) {
        let action = match others {
            Others::Drop => return,
            Others::Keep => "$.put(o, k, v[k]);".to_owned(),
            Others::Forbid => "$.unexpected(e, k);".to_owned(),
            Others::Typed(TypeExpr::Any) => "$.put(o, k, $.any(v[k], e, k));".to_owned(),
            Others::Typed(ty) => {
                let reader = self.reader(ty);
                format!("$.put(o, k, {reader}(v[k], e, k));")
            }
        };
        self.other_keys_loop(known, &action, out);
    }

    /// `for (const k of Object.keys(v))`: `action` for every key not in `known`.
    fn other_keys_loop(&mut self, known: &[&str], action: &str, out: &mut Vec<String>) {
        out.push("  for (const k of Object.keys(v)) {".to_owned());
        if !known.is_empty() {
            out.push("    switch (k) {".to_owned());
            let mut seen = BTreeSet::new();
            for key in known {
                if seen.insert(*key) {
                    let key = self.lit(key);
                    out.push(format!("      case {key}:"));
                }
            }
            out.push("        continue;".to_owned());
            out.push("    }".to_owned());
        }
        out.push(format!("    {action}"));
        out.push("  }".to_owned());
    }

    /// `case …:` for each spelling not `seen` before, then `then` when there was one.
    fn cases<'l>(
        &mut self,
        spellings: impl Iterator<Item = &'l Literal>,
        seen: &mut BTreeSet<String>,
        then: &str,
        out: &mut Vec<String>,
    ) {
        let mut any = false;
        for spelling in spellings {
            if seen.insert(spelling.to_json()) {
                let spelling = self.literal(spelling);
                out.push(format!("    case {spelling}:"));
                any = true;
            }
        }
        if any {
            out.push(format!("      {then}"));
        }
    }

    fn union_body(&mut self, name: &str, union: &Union) -> Vec<String> {
        match &union.tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                self.tagged_body(union, tag)
            }
            Tagging::External => self.external_body(union),
            Tagging::Untagged => self.untagged_body(name, union),
        }
    }

    fn tagged_body(&mut self, union: &Union, tag: &str) -> Vec<String> {
        let access = self.get("v", tag);
        let mut body = vec![
            "  if (!$.isObject(v)) return $.wrongType(e, v, s, \"an object\");".to_owned(),
            format!("  switch ({access}) {{"),
        ];
        let mut seen = BTreeSet::new();
        for variant in &union.variants {
            let reader = self.variant_reader(union, variant, tag);
            let spellings = variant.tag.iter().chain(&variant.tag_aliases);
            let then = format!("return {reader}(v, e, s);");
            self.cases(spellings, &mut seen, &then, &mut body);
        }
        body.push("  }".to_owned());
        if union.unknown.is_some() {
            let reader = self.unknown_reader(union);
            body.extend(if_else(
                2,
                &format!("typeof {access} === \"string\""),
                &format!("return {reader}(v, e, s);"),
                None,
            ));
        }
        let tags: Vec<&Literal> = union
            .variants
            .iter()
            .filter_map(|v| v.tag.as_ref())
            .collect();
        let tags = self.literals_constant(&tags);
        let key = self.lit(tag);
        body.extend(call(
            2,
            "return ",
            "$.tag",
            &["e".into(), "v".into(), "s".into(), key, tags],
            ";",
        ));
        body
    }

    /// The reader of one variant of an internally or adjacently tagged union: the tag
    /// (canonical), the shared fields, then the payload.
    fn variant_reader(&mut self, union: &Union, variant: &Variant, tag: &str) -> String {
        let name = self.fresh("r");
        let mut fill = Vec::new();
        if let Some(value) = &variant.tag {
            let value = self.literal(value);
            fill.push(format!("  {}", self.set("o", tag, &value)));
        }
        self.fill_fields(&union.fields, Some(tag), &mut fill);
        let mut known: Vec<&str> = vec![tag];
        known.extend(known_keys(&union.fields));
        let mut integers = self.integer_keys(&union.fields);
        let mut others = self.others(&Additional::Allowed);
        match (&variant.payload, &union.tagging) {
            (Payload::Unit, Tagging::Adjacent { content, .. }) => known.push(content),
            (Payload::Unit, _) => {}
            (Payload::Fields(fields), _) => {
                self.fill_fields(fields, Some(tag), &mut fill);
                known.extend(known_keys(fields));
                integers.extend(self.integer_keys(fields));
            }
            (Payload::Content(field), _) => {
                self.content_field(field, !union.fields.is_empty(), &mut fill);
                known.push(&field.name);
                integers.extend(self.integer_keys(std::slice::from_ref(field)));
            }
            (Payload::Type(expr), _) => match self.record_of(expr) {
                Some(record) => {
                    self.fill_fields(&record.fields, Some(tag), &mut fill);
                    self.constraints(&record.constraints, &mut fill);
                    known.extend(known_keys(&record.fields));
                    integers.extend(self.integer_keys(&record.fields));
                    others = self.others(&record.additional);
                }
                None => {
                    others = match expr.non_null() {
                        TypeExpr::Map(value) => Others::Typed((**value).clone()),
                        _ => Others::Keep,
                    };
                }
            },
        }
        self.other_keys(&others, &known, &mut fill);
        let faults = self.text_faults(&known, &others, &integers);
        let mut body = vec![
            "  const n = e.length;".to_owned(),
            faults,
            "  /** @type {any} */".to_owned(),
            "  const o = {};".to_owned(),
        ];
        if fill.first().is_some_and(|l| l == "  let k;") {
            body.insert(0, fill.remove(0));
        }
        body.extend(fill);
        body.push("  if (e.length !== n) $.at(e, n, s);".to_owned());
        body.push("  return o;".to_owned());
        self.reader_function(&name, body);
        name
    }

    /// The record a payload type names, when it is one.
    fn record_of(&self, expr: &TypeExpr) -> Option<&'m Record> {
        match expr {
            TypeExpr::Ref(name) => match &self.model.resolve(name)?.kind {
                TypeKind::Record(record) => Some(record),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether values of `expr` are objects (absent content of such a type stands for
    /// `{}`, R3).
    fn is_object(&self, expr: &TypeExpr) -> bool {
        match expr.non_null() {
            TypeExpr::Map(_) => true,
            other => self.record_of(other).is_some(),
        }
    }

    /// The content of an adjacently tagged variant. Absent or `null` content of an
    /// object type is `{}` when the content is optional or nullable; an envelope's
    /// required content reports what `{}` would lack.
    fn content_field(&mut self, field: &Field, envelope: bool, out: &mut Vec<String>) {
        let required = field.required && !field.ty.is_nullable();
        if !self.is_object(&field.ty) || (required && !envelope) {
            self.fill_field(field, out);
            return;
        }
        if !out.iter().any(|l| l == "  let x;") {
            out.push("  let x;".to_owned());
        }
        out.push(format!("  x = {};", self.get("v", &field.name)));
        let segment = self.lit(&field.name);
        let reader = self.reader(field.ty.non_null());
        if required {
            let then = format!("$.content(e, x, {segment}, {reader});");
            let otherwise = self.set("o", &field.name, &format!("{reader}(x, e, {segment})"));
            out.extend(if_else(2, "x == null", &then, Some(&otherwise)));
        } else {
            out.push("  if (x == null) x = {};".to_owned());
            let line = self.set("o", &field.name, &format!("{reader}(x, e, {segment})"));
            out.push(format!("  {line}"));
        }
    }

    /// The open case: every key kept as it is, the shared fields read.
    fn unknown_reader(&mut self, union: &Union) -> String {
        let name = self.fresh("r");
        let mut body = vec![
            "  const n = e.length;".to_owned(),
            "  /** @type {any} */".to_owned(),
            "  const o = {};".to_owned(),
            "  for (const k of Object.keys(v)) $.put(o, k, v[k]);".to_owned(),
        ];
        let mut fill = Vec::new();
        self.fill_fields(&union.fields, None, &mut fill);
        if fill.first().is_some_and(|l| l == "  let k;") {
            body.insert(0, fill.remove(0));
        }
        body.extend(fill);
        body.push("  if (e.length !== n) $.at(e, n, s);".to_owned());
        body.push("  return o;".to_owned());
        self.reader_function(&name, body);
        name
    }

    fn external_body(&mut self, union: &Union) -> Vec<String> {
        let mut units = Vec::new();
        let mut objects = Vec::new();
        for variant in &union.variants {
            let Some(tag) = variant.tag.as_ref().and_then(Literal::as_str) else {
                continue;
            };
            match &variant.payload {
                Payload::Unit => units.push(self.lit(tag)),
                Payload::Fields(fields) => {
                    let record = Record {
                        fields: fields.clone(),
                        additional: Additional::Allowed,
                        constraints: Vec::new(),
                    };
                    let reader = self.fresh("r");
                    let body = self.record_body(&record);
                    self.reader_function(&reader, body);
                    objects.push((tag, reader, false));
                }
                Payload::Type(expr) => {
                    let integer = self.literal_integer(expr);
                    let reader = self.reader(expr);
                    objects.push((tag, reader, integer));
                }
                Payload::Content(field) => {
                    let integer = self.literal_integer(&field.ty);
                    let reader = self.reader(&field.ty);
                    objects.push((tag, reader, integer));
                }
            }
        }
        let mut body = Vec::new();
        if !units.is_empty() {
            body.push("  switch (v) {".to_owned());
            for unit in &units {
                body.push(format!("    case {unit}:"));
            }
            body.push("      return v;".to_owned());
            body.push("  }".to_owned());
        }
        if !objects.is_empty() {
            body.push("  const n = e.length;".to_owned());
            body.push("  /** @type {any} */".to_owned());
            body.push("  const o = {};".to_owned());
            body.push("  switch ($.single(v)) {".to_owned());
            for (tag, reader, integer) in &objects {
                let key = self.lit(tag);
                let value = format!("{reader}({}, e, {key})", self.get("v", tag));
                body.push(format!("    case {key}:"));
                // The variant's value is kept: a fault of the text in it is one.
                let integers = if *integer { ", true" } else { "" };
                body.push(format!("      $.faults(v, e, null, true{integers});"));
                body.push(format!("      {}", self.set("o", tag, &value)));
                body.push("      if (e.length !== n) $.at(e, n, s);".to_owned());
                body.push("      return o;".to_owned());
            }
            body.push("  }".to_owned());
        }
        let tags: Vec<&Literal> = union
            .variants
            .iter()
            .filter_map(|v| v.tag.as_ref())
            .collect();
        let tags = self.literals_constant(&tags);
        body.extend(call(
            2,
            "return ",
            "$.oneOf",
            &[
                "e".into(),
                "v".into(),
                "s".into(),
                "\"wrong_const\"".into(),
                tags,
            ],
            ";",
        ));
        body
    }

    fn untagged_body(&mut self, name: &str, union: &Union) -> Vec<String> {
        let mut choices = Vec::new();
        for variant in &union.variants {
            let (reader, known) = match &variant.payload {
                Payload::Unit => ("$.nul".to_owned(), None),
                Payload::Type(expr) => {
                    let known = self
                        .record_of(expr.non_null())
                        .map(|r| known_keys(&r.fields));
                    (self.reader(expr), known)
                }
                Payload::Fields(fields) => {
                    let record = Record {
                        fields: fields.clone(),
                        additional: Additional::Allowed,
                        constraints: Vec::new(),
                    };
                    let reader = self.fresh("r");
                    let body = self.record_body(&record);
                    self.reader_function(&reader, body);
                    (reader, Some(known_keys(fields)))
                }
                Payload::Content(field) => (self.reader(&field.ty), None),
            };
            let known = match known {
                Some(keys) => self.strings_constant(&keys),
                None => "null".to_owned(),
            };
            choices.push(format!("[{reader}, {known}]"));
        }
        let choices = self.constant(choices);
        let label = self.lit(name);
        let first = if union.first_match { "true" } else { "false" };
        call(
            2,
            "return ",
            "$.untagged",
            &[
                "v".into(),
                "e".into(),
                "s".into(),
                choices,
                first.into(),
                label,
            ],
            ";",
        )
    }

    // ----- writers ----------------------------------------------------------------

    /// The writer of an expression, or `None` when its values are written unchanged.
    fn writer(&mut self, expr: &TypeExpr) -> Option<String> {
        match expr {
            TypeExpr::Any | TypeExpr::Tuple(_) => return Some("$.copy".into()),
            TypeExpr::Ref(name) => return self.writers.get(name).cloned().flatten(),
            TypeExpr::Array(_) | TypeExpr::Map(_) | TypeExpr::Nullable(_) => {}
            _ => return None,
        }
        let key = format!("{expr:?}");
        if let Some(name) = self.expr_writers.get(&key) {
            return name.clone();
        }
        let line = match expr {
            TypeExpr::Array(item) => {
                let item = self.writer(item)?;
                format!("return $.writeArray(v, {item});")
            }
            TypeExpr::Map(value) => {
                let value = self.writer(value).unwrap_or_else(|| "$.any".into());
                format!("return $.writeMap(v, {value});")
            }
            TypeExpr::Nullable(inner) => {
                let inner = self.writer(inner)?;
                format!("return v === null ? null : {inner}(v);")
            }
            _ => unreachable!("handled above"),
        };
        let name = self.fresh("w");
        self.expr_writers.insert(key, Some(name.clone()));
        self.writer_function(&name, vec![format!("  {line}")]);
        Some(name)
    }

    fn named_writer(&mut self, name: &str) {
        let Some(writer) = self.writers.get(name).cloned().flatten() else {
            return;
        };
        let Some(ty) = self.model.get(name) else {
            return;
        };
        let body = match &ty.kind {
            TypeKind::Record(record) => {
                let mut body = vec![
                    "  /** @type {any} */".to_owned(),
                    "  const o = {};".to_owned(),
                ];
                self.write_fields(&record.fields, None, &mut body);
                let others = self.others(&record.additional);
                self.write_others(&others, &known_keys(&record.fields), &mut body);
                body.push("  return o;".to_owned());
                body
            }
            TypeKind::Enum(e) => {
                let mut body = vec!["  switch (v) {".to_owned()];
                for value in &e.values {
                    if value.aliases.is_empty() {
                        continue;
                    }
                    for alias in &value.aliases {
                        let alias = self.literal(alias);
                        body.push(format!("    case {alias}:"));
                    }
                    let canonical = self.literal(&value.value);
                    body.push(format!("      return {canonical};"));
                }
                body.push("  }".to_owned());
                body.push("  return v;".to_owned());
                body
            }
            TypeKind::Alias(expr) => {
                let inner = self.writer(expr).unwrap_or_else(|| "$.copy".into());
                vec![format!("  return {inner}(v);")]
            }
            TypeKind::Union(union) => self.union_writer_body(union),
        };
        self.writer_function(&writer, body);
    }

    /// Writes `fields` of `v` into `o`, canonical names, no `undefined`.
    fn write_fields(&mut self, fields: &[Field], skip: Option<&str>, out: &mut Vec<String>) {
        let fields: Vec<&Field> = fields
            .iter()
            .filter(|f| Some(f.name.as_str()) != skip)
            .collect();
        if fields.len() <= CHUNK {
            self.write_chunk(&fields, out);
            return;
        }
        for chunk in fields.chunks(CHUNK) {
            let mut lines = Vec::new();
            self.write_chunk(chunk, &mut lines);
            let name = self.fresh("g");
            self.push_function(&name, Kind::WriteFill, lines);
            out.push(format!("  {name}(v, o);"));
        }
    }

    fn write_chunk(&mut self, fields: &[&Field], out: &mut Vec<String>) {
        if !fields.is_empty() && !out.iter().any(|l| l == "  let x;") {
            out.push("  let x;".to_owned());
        }
        for field in fields {
            if field.aliases.is_empty() {
                out.push(format!("  x = {};", self.get("v", &field.name)));
            } else {
                let names: Vec<&str> = std::iter::once(field.name.as_str())
                    .chain(field.aliases.iter().map(String::as_str))
                    .collect();
                let names = self.strings_constant(&names);
                out.push(format!("  x = $.own(v, $.which(v, [], {names}));"));
            }
            let value = match self.writer(&field.ty) {
                Some(writer) => format!("{writer}(x)"),
                None => "x".to_owned(),
            };
            let then = self.set("o", &field.name, &value);
            out.extend(if_else(2, "x !== undefined", &then, None));
        }
    }

    fn write_others(&mut self, others: &Others, known: &[&str], out: &mut Vec<String>) {
        let value = match others {
            Others::Drop | Others::Forbid => return,
            Others::Keep => "$.copy".to_owned(),
            Others::Typed(ty) => self.writer(ty).unwrap_or_else(|| "$.any".into()),
        };
        let action = format!("if (v[k] !== undefined) $.put(o, k, {value}(v[k]));");
        self.other_keys_loop(known, &action, out);
    }

    fn union_writer_body(&mut self, union: &Union) -> Vec<String> {
        let tag = match &union.tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => tag.clone(),
            Tagging::External | Tagging::Untagged => return vec!["  return $.copy(v);".into()],
        };
        let access = self.get("v", &tag);
        let mut body = vec![format!("  switch ({access}) {{")];
        let mut seen = BTreeSet::new();
        for variant in &union.variants {
            let writer = self.variant_writer(union, variant, &tag);
            let spellings = variant.tag.iter().chain(&variant.tag_aliases);
            let then = format!("return {writer}(v);");
            self.cases(spellings, &mut seen, &then, &mut body);
        }
        body.push("  }".to_owned());
        body.push("  return $.copy(v);".to_owned());
        body
    }

    fn variant_writer(&mut self, union: &Union, variant: &Variant, tag: &str) -> String {
        let name = self.fresh("w");
        let mut body = vec![
            "  /** @type {any} */".to_owned(),
            "  const o = {};".to_owned(),
        ];
        if let Some(value) = &variant.tag {
            let value = self.literal(value);
            body.push(format!("  {}", self.set("o", tag, &value)));
        }
        self.write_fields(&union.fields, Some(tag), &mut body);
        let mut known: Vec<&str> = vec![tag];
        known.extend(known_keys(&union.fields));
        let mut others = self.others(&Additional::Allowed);
        match &variant.payload {
            Payload::Unit => {}
            Payload::Fields(fields) => {
                self.write_fields(fields, Some(tag), &mut body);
                known.extend(known_keys(fields));
            }
            Payload::Content(field) => {
                self.write_fields(std::slice::from_ref(field), None, &mut body);
                known.push(&field.name);
            }
            Payload::Type(expr) => match self.record_of(expr) {
                Some(record) => {
                    self.write_fields(&record.fields, Some(tag), &mut body);
                    known.extend(known_keys(&record.fields));
                    others = self.others(&record.additional);
                }
                None => {
                    others = match expr.non_null() {
                        TypeExpr::Map(value) => Others::Typed((**value).clone()),
                        _ => Others::Keep,
                    };
                }
            },
        }
        self.write_others(&others, &known, &mut body);
        body.push("  return o;".to_owned());
        self.writer_function(&name, body);
        name
    }
}

/// A JSON string literal with every non-ASCII character written as `\uXXXX` (UTF-16),
/// which JavaScript reads as the same string and prettier measures as written.
fn ascii(literal: &str) -> String {
    let mut out = String::with_capacity(literal.len());
    for c in literal.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// The largest double that is at most `bound`, as an integer literal: JavaScript
/// compares numbers as doubles, and `2^64 − 1` rounds up to `2^64`, which would let
/// `2^64` pass.
fn double_at_most(bound: i128) -> i128 {
    let mut x = bound as f64;
    while (x as i128) > bound {
        x = step(x, false);
    }
    x as i128
}

/// The smallest double that is at least `bound`, as an integer literal.
fn double_at_least(bound: i128) -> i128 {
    let mut x = bound as f64;
    while (x as i128) < bound {
        x = step(x, true);
    }
    x as i128
}

/// The next double up or down from `x` (finite, not zero).
fn step(x: f64, up: bool) -> f64 {
    let bits = x.to_bits();
    // A positive double grows with its bits; a negative one shrinks.
    if (x > 0.0) == up {
        f64::from_bits(bits + 1)
    } else {
        f64::from_bits(bits - 1)
    }
}

/// Every wire name of `fields`, input aliases included.
/// Whether values of the named type need a writer (anything but plain JSON with no
/// alias spellings to rewrite). An alias chain is followed once, without recursion, and
/// every name on it remembered in `known`, so a chain of n aliases costs O(n) for all of
/// them together; a chain that comes back to itself needs one.
fn needs_writer<'m>(model: &'m Model, name: &'m str, known: &mut HashMap<&'m str, bool>) -> bool {
    let mut path: Vec<&'m str> = Vec::new();
    let mut on_path: HashSet<&'m str> = HashSet::new();
    let mut current = name;
    let needed = loop {
        if let Some(&needed) = known.get(current) {
            break needed;
        }
        if !on_path.insert(current) {
            break true;
        }
        path.push(current);
        let mut expr = match model.get(current).map(|t| &t.kind) {
            Some(TypeKind::Enum(e)) => break e.values.iter().any(|v| !v.aliases.is_empty()),
            Some(TypeKind::Alias(expr)) => expr,
            Some(_) => break true,
            None => break false,
        };
        while let TypeExpr::Array(item) | TypeExpr::Nullable(item) = expr {
            expr = item;
        }
        match expr {
            TypeExpr::Ref(next) => current = next,
            TypeExpr::Map(_) | TypeExpr::Any | TypeExpr::Tuple(_) => break true,
            _ => break false,
        }
    };
    for step in path {
        known.insert(step, needed);
    }
    needed
}

/// How a type reads a JSON number.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NumberReading {
    /// It takes no number.
    None,
    /// As an integer written as an integer literal (a Rust integer, a draft-04
    /// `integer`): a whole number written as a float (`1.0`, `-0`) is refused.
    LiteralInteger,
    /// As a number of any spelling.
    Any,
}

/// The wire names and aliases of `fields`.
fn known_keys<'f>(fields: impl IntoIterator<Item = &'f Field>) -> Vec<&'f str> {
    fields
        .into_iter()
        .flat_map(|f| std::iter::once(f.name.as_str()).chain(f.aliases.iter().map(String::as_str)))
        .collect()
}

/// `keys` without repeats, in their first order.
fn distinct<'k>(keys: &[&'k str]) -> Vec<&'k str> {
    let mut out: Vec<&str> = Vec::new();
    for key in keys {
        if !out.contains(key) {
            out.push(key);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{double_at_least, double_at_most};

    #[test]
    fn integer_bounds_are_exact_doubles_inside_the_range() {
        // 2^64 − 1 and 2^63 − 1 are not doubles: the bound is the largest double below.
        assert_eq!(double_at_most(u64::MAX as i128), (1i128 << 64) - 2048);
        assert_eq!(double_at_most(i64::MAX as i128), (1i128 << 63) - 1024);
        assert_eq!(double_at_least(i64::MIN as i128), i64::MIN as i128);
        assert_eq!(double_at_least(-(1i128 << 63) + 1), -(1i128 << 63) + 1024);
        assert_eq!(double_at_most(4_294_967_295), 4_294_967_295);
        assert_eq!(double_at_least(0), 0);
        assert_eq!(double_at_most(0), 0);
    }
}
