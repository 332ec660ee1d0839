//! JSON Schema → [`Model`]: shape recognition, hoisting of inline types, `$ref`
//! resolution and the checks that turn unsupported input into errors.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    Additional, Docs, Enum, EnumValue, Error, Field, IntType, IntWidth, Literal, Model, NamedType,
    NumberType, Origin, Payload, ProtocolInfo, Record, Reply, StringType, Tagging, TypeExpr,
    TypeKind, Union, UnknownVariant, Variant,
};

type Result<T> = std::result::Result<T, Error>;

/// How deep schemas may nest (objects inside arrays inside properties ...).
const MAX_DEPTH: usize = 128;

const SUPPORTED_DRAFTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
];

/// Keywords that only annotate; they never change the shape of a type.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "deprecated",
    "default",
    "examples",
    "$comment",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
];

/// Keywords that only validate; the model ignores them (see `is_constraint`).
const VALIDATION: &[&str] = &[
    "required",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "format",
];

pub(super) fn build(file: &str, document: &Value) -> Result<Model> {
    let Some(root) = document.as_object() else {
        return Err(Error::new(
            file,
            "",
            "the document is not a JSON Schema object",
        ));
    };
    if let Some(draft) = root.get("$schema") {
        let draft = draft.as_str().unwrap_or_default();
        if !SUPPORTED_DRAFTS.contains(&draft.trim_end_matches('#')) {
            return Err(Error::new(
                file,
                "/$schema",
                format!(
                    "unsupported `$schema` {draft:?}: expected draft 2020-12 (2019-09, 07 and 06 are read the same way)"
                ),
            ));
        }
    }
    let mut parser = Parser::new(file, root)?;
    parser.run()
}

/// A schema's result before naming: an anonymous expression, or a composite kind that
/// becomes a named type (a def, or a hoisted inline type).
enum Shape {
    Expr(TypeExpr),
    Kind { kind: TypeKind, nullable: bool },
}

/// Where a schema is being read: the name a composite result gets, and whether it is a
/// def (named as is) or inline (hoisted under a composed name).
#[derive(Clone, Copy)]
struct Ctx<'n> {
    name: &'n str,
    is_def: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SlotState {
    Pending,
    InProgress,
    Done,
}

struct Def<'a> {
    name: String,
    pointer: String,
    schema: &'a Value,
    origin: Origin,
}

struct Parser<'a> {
    file: &'a str,
    root: &'a Map<String, Value>,
    id: Option<&'a str>,
    defs: Vec<Def<'a>>,
    by_name: HashMap<String, usize>,
    /// Named types by slot; defs first (same index as `defs`), hoisted ones appended.
    slots: Vec<Option<NamedType>>,
    state: Vec<SlotState>,
    taken: HashSet<String>,
    root_type: Option<usize>,
    depth: usize,
}

fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn join(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_token(token))
}

/// `Parent` + `top_error-files` → `ParentTopErrorFiles`: the neutral composition used for
/// hoisted names. Splits on non-alphanumerics and lower→upper case changes.
pub fn pascal_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut start = true;
    let mut prev_lower = false;
    for ch in text.chars() {
        if !ch.is_alphanumeric() {
            start = true;
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower {
            start = true;
        }
        if start {
            out.extend(ch.to_uppercase());
            start = false;
        } else {
            out.push(ch);
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
    }
    out
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

fn docs_of(schema: &Map<String, Value>, keep_title: bool) -> Docs {
    let text = |key: &str| {
        schema
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    Docs {
        title: if keep_title { text("title") } else { None },
        description: text("description"),
        deprecated: schema.get("deprecated") == Some(&Value::Bool(true)),
    }
}

fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

fn literal_of(value: &Value) -> Option<Literal> {
    Some(match value {
        Value::String(s) => Literal::String(s.clone()),
        Value::Number(n) => Literal::Number(n.clone()),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Null => Literal::Null,
        Value::Array(_) | Value::Object(_) => return None,
    })
}

fn string_list(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// An integer bound; fractional bounds round towards the allowed range (`up` for lower
/// bounds).
fn to_i128(value: &Value, up: bool) -> Option<i128> {
    if let Some(i) = value.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = value.as_u64() {
        return Some(i128::from(u));
    }
    let f = value.as_f64()?;
    if !f.is_finite() || f.abs() > 1e38 {
        return None;
    }
    let rounded = if up { f.ceil() } else { f.floor() };
    // In range (checked above) and integral, so the conversion is exact.
    #[allow(clippy::cast_possible_truncation)]
    Some(rounded as i128)
}

fn width_for(min: i128, max: i128) -> IntWidth {
    const UNSIGNED: [(IntWidth, i128); 4] = [
        (IntWidth::U8, u8::MAX as i128),
        (IntWidth::U16, u16::MAX as i128),
        (IntWidth::U32, u32::MAX as i128),
        (IntWidth::U64, u64::MAX as i128),
    ];
    const SIGNED: [(IntWidth, i128, i128); 4] = [
        (IntWidth::I8, i8::MIN as i128, i8::MAX as i128),
        (IntWidth::I16, i16::MIN as i128, i16::MAX as i128),
        (IntWidth::I32, i32::MIN as i128, i32::MAX as i128),
        (IntWidth::I64, i64::MIN as i128, i64::MAX as i128),
    ];
    if min >= 0 {
        for (width, top) in UNSIGNED {
            if max <= top {
                return width;
            }
        }
    } else {
        for (width, low, top) in SIGNED {
            if min >= low && max <= top {
                return width;
            }
        }
    }
    IntWidth::I64
}

/// The `(properties, required)` of an object schema, if it has properties.
fn props_of(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

/// Whether the keyword is one that changes what a `$ref` beside it means.
fn is_structural(key: &str) -> bool {
    matches!(
        key,
        "properties"
            | "additionalProperties"
            | "unevaluatedProperties"
            | "patternProperties"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "items"
            | "prefixItems"
            | "enum"
            | "const"
    )
}

/// The tag values a property schema fixes: `const`, or `enum` (first value canonical,
/// the rest input aliases). `None` when the property is not a constant.
fn tag_values(schema: &Value) -> Option<(Literal, Vec<Literal>)> {
    let schema = schema.as_object()?;
    if let Some(value) = schema.get("const") {
        return Some((literal_of(value)?, Vec::new()));
    }
    let values = schema.get("enum")?.as_array()?;
    let mut literals = values.iter().map(literal_of);
    let first = literals.next()??;
    let rest: Option<Vec<Literal>> = literals.collect();
    Some((first, rest?))
}

/// Whether a schema only adds validation on top of `known` properties: `required` sets,
/// `not`, `if`/`then`/`else`, count limits, and combinations of those. Such `allOf`,
/// `oneOf` or `anyOf` members do not change the type and are ignored.
fn is_constraint(schema: &Value, known: &dyn Fn(&str) -> bool) -> bool {
    let Some(object) = schema.as_object() else {
        return schema == &Value::Bool(true);
    };
    object.iter().all(|(key, value)| match key.as_str() {
        "allOf" | "anyOf" | "oneOf" => value
            .as_array()
            .is_some_and(|members| members.iter().all(|m| is_constraint(m, known))),
        "properties" => value
            .as_object()
            .is_some_and(|props| props.keys().all(|k| known(k))),
        "type" => value == "object",
        key => {
            is_extension(key)
                || ANNOTATIONS.contains(&key)
                || (VALIDATION.contains(&key) && key != "format")
        }
    })
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, root: &'a Map<String, Value>) -> Result<Self> {
        let mut parser = Parser {
            file,
            root,
            id: root.get("$id").and_then(Value::as_str),
            defs: Vec::new(),
            by_name: HashMap::new(),
            slots: Vec::new(),
            state: Vec::new(),
            taken: HashSet::new(),
            root_type: None,
            depth: 0,
        };
        for section in ["$defs", "definitions"] {
            let Some(defs) = root.get(section) else {
                continue;
            };
            let pointer = join("", section);
            let Some(defs) = defs.as_object() else {
                return Err(parser.err(&pointer, format!("`{section}` must be an object")));
            };
            for (name, schema) in defs {
                let def_pointer = join(&pointer, name);
                if parser.by_name.contains_key(name) {
                    return Err(parser.err(
                        &def_pointer,
                        format!("`{name}` is defined in both `$defs` and `definitions`"),
                    ));
                }
                parser.add_def(name.clone(), def_pointer, schema, Origin::Defs);
            }
        }
        Ok(parser)
    }

    fn add_def(&mut self, name: String, pointer: String, schema: &'a Value, origin: Origin) {
        let index = self.defs.len();
        self.by_name.insert(name.clone(), index);
        self.taken.insert(name.clone());
        self.defs.push(Def {
            name,
            pointer,
            schema,
            origin,
        });
        self.slots.push(None);
        self.state.push(SlotState::Pending);
    }

    fn err(&self, pointer: &str, message: impl Into<String>) -> Error {
        Error::new(self.file, pointer, message)
    }

    fn unique(&mut self, hint: &str) -> String {
        let base = if hint.is_empty() { "Type" } else { hint };
        let mut name = base.to_owned();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    fn run(&mut self) -> Result<Model> {
        let (roots, root_is_type) = self.find_roots()?;
        if root_is_type {
            let title = self.root.get("title").and_then(Value::as_str);
            let stem = self
                .file
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or_default()
                .trim_end_matches(".json")
                .trim_end_matches(".schema");
            let hint = [title.map(pascal_case), Some(pascal_case(stem))]
                .into_iter()
                .flatten()
                .find(|s| !s.is_empty())
                .unwrap_or_else(|| "Root".to_owned());
            let name = if self.by_name.contains_key(&hint) {
                // A def already has this name; the root type gets a fresh one.
                let fresh = self.unique(&hint);
                self.taken.remove(&fresh);
                fresh
            } else {
                hint
            };
            self.root_type = Some(self.defs.len());
            self.add_def(name, String::new(), &Value::Null, Origin::Root);
        }
        for index in 0..self.defs.len() {
            self.ensure(index)?;
        }
        let roots = if root_is_type {
            vec![self.defs[self.root_type.unwrap_or_default()].name.clone()]
        } else {
            roots
        };
        let types: Vec<NamedType> = self.slots.drain(..).flatten().collect();
        let index = types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        let protocol = self.protocol()?;
        let model = Model {
            file: self.file.to_owned(),
            id: self.id.map(str::to_owned),
            docs: docs_of(self.root, true),
            protocol,
            roots,
            types,
            index,
        };
        self.check_cycles(&model)?;
        Ok(model)
    }

    fn protocol(&self) -> Result<Option<ProtocolInfo>> {
        let Some(info) = self.root.get("x-symgen-protocol") else {
            return Ok(None);
        };
        let text = |key: &str| info.get(key).and_then(Value::as_str).map(str::to_owned);
        match (text("id"), text("code")) {
            (Some(id), Some(code)) => Ok(Some(ProtocolInfo { id, code })),
            _ => Err(self.err(
                "/x-symgen-protocol",
                "`x-symgen-protocol` needs string `id` and `code`",
            )),
        }
    }

    /// The root names, and whether the root schema is a type of its own.
    fn find_roots(&self) -> Result<(Vec<String>, bool)> {
        if let Some(info) = self.root.get("x-symgen-protocol") {
            let mut names = Vec::new();
            let list = info.get("roots").and_then(Value::as_array);
            for (i, name) in list.into_iter().flatten().enumerate() {
                let pointer = format!("/x-symgen-protocol/roots/{i}");
                let Some(name) = name.as_str() else {
                    return Err(self.err(&pointer, "a root must be a `$defs` name"));
                };
                if !self.by_name.contains_key(name) {
                    return Err(self.err(&pointer, format!("root `{name}` is not in `$defs`")));
                }
                names.push(name.to_owned());
            }
            return Ok((names, false));
        }
        for key in ["anyOf", "oneOf"] {
            let Some(members) = self.root.get(key).and_then(Value::as_array) else {
                continue;
            };
            let refs: Vec<&str> = members
                .iter()
                .filter_map(|m| {
                    let m = m.as_object()?;
                    let only_ref = m
                        .keys()
                        .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
                    only_ref.then(|| m.get("$ref")?.as_str()).flatten()
                })
                .collect();
            let has_structure = self.root.keys().any(|k| {
                k != key && (is_structural(k) || k == "type" || k == "$ref" || k == "required")
            });
            if refs.len() == members.len() && !has_structure {
                let mut names = Vec::new();
                for (i, reference) in refs.iter().enumerate() {
                    let pointer = format!("/{key}/{i}/$ref");
                    names.push(self.ref_target(reference, &pointer)?);
                }
                return Ok((names, false));
            }
        }
        let is_type = self
            .root
            .keys()
            .any(|k| is_structural(k) || k == "type" || k == "$ref");
        Ok((Vec::new(), is_type))
    }

    /// The def name a `$ref` points at.
    fn ref_target(&self, reference: &str, pointer: &str) -> Result<String> {
        let local = match (reference.split_once('#'), self.id) {
            (Some(("", fragment)), _) => Some(fragment),
            (Some((base, fragment)), Some(id)) if base == id => Some(fragment),
            _ => None,
        };
        let Some(fragment) = local else {
            return Err(self.err(
                pointer,
                format!(
                    "remote `$ref` {reference:?} is not supported: symgen reads one self-contained document and never fetches schemas"
                ),
            ));
        };
        let Some(fragment) = percent_decode(fragment) else {
            return Err(self.err(pointer, format!("malformed `$ref` {reference:?}")));
        };
        if fragment.is_empty() {
            return match self.root_type {
                Some(index) => Ok(self.defs[index].name.clone()),
                None => Err(self.err(
                    pointer,
                    "`$ref: \"#\"` points at the document root, which is not a type here",
                )),
            };
        }
        for prefix in ["/$defs/", "/definitions/"] {
            if let Some(token) = fragment.strip_prefix(prefix) {
                if token.contains('/') {
                    break;
                }
                let name = unescape_token(token);
                if self.by_name.contains_key(&name) {
                    return Ok(name);
                }
                return Err(self.err(
                    pointer,
                    format!("`$ref` {reference:?} points at a definition that does not exist"),
                ));
            }
        }
        Err(self.err(
            pointer,
            format!(
                "unsupported `$ref` {reference:?}: only `#/$defs/<name>`, `#/definitions/<name>` and `#` are supported"
            ),
        ))
    }

    /// The schema of def `name`, following plain `$ref` aliases (for peeking at shapes).
    fn def_object(&self, name: &str) -> Option<&'a Map<String, Value>> {
        let mut current = self.by_name.get(name).copied()?;
        for _ in 0..=self.defs.len() {
            let schema = self.def_schema(current)?;
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) if !schema.keys().any(|k| is_structural(k)) => {
                    let next = self.ref_target(reference, "").ok()?;
                    current = *self.by_name.get(&next)?;
                }
                _ => return Some(schema),
            }
        }
        None
    }

    fn def_schema(&self, index: usize) -> Option<&'a Map<String, Value>> {
        if Some(index) == self.root_type {
            Some(self.root)
        } else {
            self.defs[index].schema.as_object()
        }
    }

    /// Parses def `index` if it was not parsed yet.
    fn ensure(&mut self, index: usize) -> Result<()> {
        match self.state[index] {
            SlotState::Done => return Ok(()),
            SlotState::InProgress => {
                return Err(self.err(
                    &self.defs[index].pointer,
                    format!(
                        "`{}` includes itself through `$ref`/`allOf`; an object cannot extend itself",
                        self.defs[index].name
                    ),
                ));
            }
            SlotState::Pending => {}
        }
        self.state[index] = SlotState::InProgress;
        let name = self.defs[index].name.clone();
        let pointer = self.defs[index].pointer.clone();
        let origin = self.defs[index].origin.clone();
        let root_value;
        let schema: &Value = if Some(index) == self.root_type {
            root_value = Value::Object(self.root.clone());
            &root_value
        } else {
            self.defs[index].schema
        };
        let keep_title = !matches!(origin, Origin::Root);
        let docs = schema
            .as_object()
            .map(|o| docs_of(o, keep_title))
            .unwrap_or_default();
        let ctx = Ctx {
            name: &name,
            is_def: true,
        };
        let kind = match self.shape(schema, &pointer, ctx)? {
            Shape::Expr(expr) => TypeKind::Alias(expr),
            Shape::Kind {
                kind,
                nullable: false,
            } => kind,
            Shape::Kind {
                kind,
                nullable: true,
            } => {
                let inner =
                    self.hoist(kind, docs.clone(), &pointer, &format!("{name}Value"), &name);
                TypeKind::Alias(TypeExpr::Ref(inner).nullable())
            }
        };
        self.slots[index] = Some(NamedType {
            name,
            pointer,
            docs,
            kind,
            origin,
        });
        self.state[index] = SlotState::Done;
        Ok(())
    }

    fn hoist(
        &mut self,
        kind: TypeKind,
        docs: Docs,
        pointer: &str,
        name: &str,
        parent: &str,
    ) -> String {
        self.slots.push(Some(NamedType {
            name: name.to_owned(),
            pointer: pointer.to_owned(),
            docs,
            kind,
            origin: Origin::Inline {
                parent: parent.to_owned(),
            },
        }));
        name.to_owned()
    }

    /// An inline schema as a type expression; composite shapes are hoisted under a name
    /// made unique from `hint`.
    fn expr(
        &mut self,
        schema: &Value,
        pointer: &str,
        hint: &str,
        parent: &str,
    ) -> Result<TypeExpr> {
        let name = self.unique(hint);
        let ctx = Ctx {
            name: &name,
            is_def: false,
        };
        match self.shape(schema, pointer, ctx)? {
            Shape::Expr(expr) => {
                self.taken.remove(&name);
                Ok(expr)
            }
            Shape::Kind { kind, nullable } => {
                let docs = schema
                    .as_object()
                    .map(|o| docs_of(o, true))
                    .unwrap_or_default();
                let name = self.hoist(kind, docs, pointer, &name, parent);
                let expr = TypeExpr::Ref(name);
                Ok(if nullable { expr.nullable() } else { expr })
            }
        }
    }

    fn shape(&mut self, schema: &Value, pointer: &str, ctx: Ctx<'_>) -> Result<Shape> {
        self.depth += 1;
        let result = if self.depth > MAX_DEPTH {
            Err(self.err(
                pointer,
                format!("schema nested deeper than {MAX_DEPTH} levels"),
            ))
        } else {
            self.shape_inner(schema, pointer, ctx)
        };
        self.depth -= 1;
        result
    }

    fn shape_inner(&mut self, schema: &Value, pointer: &str, ctx: Ctx<'_>) -> Result<Shape> {
        let object = match schema {
            Value::Bool(true) => return Ok(Shape::Expr(TypeExpr::Any)),
            Value::Bool(false) => {
                return Err(self.err(
                    pointer,
                    "the schema `false` matches nothing and cannot be a type",
                ));
            }
            Value::Object(object) => object,
            _ => {
                return Err(self.err(pointer, "a schema must be an object or a boolean"));
            }
        };
        self.check_keywords(object, pointer)?;

        if let Some(reference) = object.get("$ref") {
            let ref_pointer = join(pointer, "$ref");
            let Some(reference) = reference.as_str() else {
                return Err(self.err(&ref_pointer, "`$ref` must be a string"));
            };
            let target = self.ref_target(reference, &ref_pointer)?;
            if !object.keys().any(|k| is_structural(k)) {
                return Ok(Shape::Expr(TypeExpr::Ref(target)));
            }
            // `$ref` beside other keywords is a conjunction (draft 2020-12): merge.
            return self.object(object, pointer, ctx, Some(target));
        }
        if let Some(value) = object.get("const") {
            let Some(literal) = literal_of(value) else {
                return Err(self.err(
                    &join(pointer, "const"),
                    "a `const` array or object is not supported; use a scalar",
                ));
            };
            return Ok(Shape::Expr(TypeExpr::Literal(literal)));
        }
        if let Some(values) = object.get("enum") {
            return self.enumeration(object, values, pointer);
        }
        if let Some(shape) = self.documented_enum(object, pointer)? {
            return Ok(shape);
        }
        if let Some(Value::Array(types)) = object.get("type") {
            return self.type_list(object, types, pointer, ctx);
        }
        let ty = match object.get("type") {
            None => None,
            Some(Value::String(ty)) => Some(ty.as_str()),
            Some(_) => {
                return Err(self.err(
                    &join(pointer, "type"),
                    "`type` must be a string or an array of strings",
                ));
            }
        };
        self.typed(object, ty, pointer, ctx)
    }

    /// Rejects keywords the model cannot honour.
    fn check_keywords(&self, object: &Map<String, Value>, pointer: &str) -> Result<()> {
        for key in [
            "$dynamicRef",
            "$recursiveRef",
            "$dynamicAnchor",
            "$recursiveAnchor",
        ] {
            if object.contains_key(key) {
                return Err(self.err(&join(pointer, key), format!("`{key}` is not supported")));
            }
        }
        if !pointer.is_empty() && object.contains_key("$id") {
            return Err(self.err(
                &join(pointer, "$id"),
                "an embedded `$id` (a nested schema resource) is not supported",
            ));
        }
        Ok(())
    }

    fn type_list(
        &mut self,
        object: &Map<String, Value>,
        types: &[Value],
        pointer: &str,
        ctx: Ctx<'_>,
    ) -> Result<Shape> {
        let mut names = Vec::new();
        for (i, ty) in types.iter().enumerate() {
            match ty.as_str() {
                Some(name) if !names.contains(&name) => names.push(name),
                Some(_) => {}
                None => {
                    return Err(self.err(
                        &format!("{pointer}/type/{i}"),
                        "`type` entries must be strings",
                    ));
                }
            }
        }
        let nullable = names.contains(&"null");
        names.retain(|n| *n != "null");
        let shape = match names.as_slice() {
            [] => Shape::Expr(TypeExpr::Null),
            [single] => self.typed(object, Some(single), pointer, ctx)?,
            several => {
                let mut variants = Vec::new();
                for ty in several {
                    let hint = format!("{}{}", ctx.name, pascal_case(ty));
                    let expr = match self.typed(
                        object,
                        Some(ty),
                        pointer,
                        Ctx {
                            name: &hint,
                            is_def: false,
                        },
                    )? {
                        Shape::Expr(expr) => expr,
                        Shape::Kind { kind, nullable } => {
                            let name = self.unique(&hint);
                            let expr = TypeExpr::Ref(self.hoist(
                                kind,
                                Docs::default(),
                                pointer,
                                &name,
                                ctx.name,
                            ));
                            if nullable { expr.nullable() } else { expr }
                        }
                    };
                    variants.push(Variant {
                        name: type_name(ty).to_owned(),
                        tag: None,
                        tag_aliases: Vec::new(),
                        docs: Docs::default(),
                        payload: Payload::Type(expr),
                        reply: Reply::Unspecified,
                        pointer: join(pointer, "type"),
                    });
                }
                Shape::Kind {
                    kind: TypeKind::Union(Union {
                        tagging: Tagging::Untagged,
                        fields: Vec::new(),
                        variants,
                        unknown: None,
                    }),
                    nullable: false,
                }
            }
        };
        Ok(if nullable {
            make_nullable(shape)
        } else {
            shape
        })
    }

    /// A schema with at most one `type`.
    fn typed(
        &mut self,
        object: &Map<String, Value>,
        ty: Option<&str>,
        pointer: &str,
        ctx: Ctx<'_>,
    ) -> Result<Shape> {
        let has_choice = object.contains_key("oneOf") || object.contains_key("anyOf");
        let is_object = ty == Some("object")
            || (ty.is_none()
                && [
                    "properties",
                    "additionalProperties",
                    "patternProperties",
                    "allOf",
                ]
                .iter()
                .any(|k| object.contains_key(*k)));
        if has_choice && (ty.is_none() || ty == Some("object")) {
            return self.object(object, pointer, ctx, None);
        }
        if is_object {
            return self.object(object, pointer, ctx, None);
        }
        let expr = match ty {
            None => {
                if object.contains_key("items") || object.contains_key("prefixItems") {
                    return self.array(object, pointer, ctx);
                }
                TypeExpr::Any
            }
            Some("array") => return self.array(object, pointer, ctx),
            Some("string") => TypeExpr::String(StringType {
                format: object
                    .get("format")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            Some("integer") => TypeExpr::Integer(self.integer(object, pointer)?),
            Some("number") => TypeExpr::Number(NumberType {
                format: object
                    .get("format")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }),
            Some("boolean") => TypeExpr::Bool,
            Some("null") => TypeExpr::Null,
            Some(other) => {
                return Err(self.err(&join(pointer, "type"), format!("unknown type {other:?}")));
            }
        };
        if has_choice {
            // e.g. `{type: string, anyOf: [...]}`: only constraints are supported here.
            self.ignore_constraint_choices(object, pointer, &|_| false)?;
        }
        Ok(Shape::Expr(expr))
    }

    fn ignore_constraint_choices(
        &self,
        object: &Map<String, Value>,
        pointer: &str,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<()> {
        for key in ["oneOf", "anyOf"] {
            if let Some(members) = object.get(key)
                && !is_constraint(&serde_json::json!({ key: members }), known)
            {
                return Err(self.err(
                    &join(pointer, key),
                    format!("`{key}` beside a non-object `type` is not supported"),
                ));
            }
        }
        Ok(())
    }

    fn integer(&self, object: &Map<String, Value>, pointer: &str) -> Result<IntType> {
        let bound = |key: &str, up: bool| -> Result<Option<i128>> {
            match object.get(key) {
                None => Ok(None),
                Some(value) => to_i128(value, up).map(Some).ok_or_else(|| {
                    self.err(&join(pointer, key), format!("`{key}` must be a number"))
                }),
            }
        };
        let mut minimum = bound("minimum", true)?;
        let mut maximum = bound("maximum", false)?;
        if let Some(v) = bound("exclusiveMinimum", false)? {
            minimum = Some(minimum.map_or(v + 1, |m| m.max(v + 1)));
        }
        if let Some(v) = bound("exclusiveMaximum", true)? {
            maximum = Some(maximum.map_or(v - 1, |m| m.min(v - 1)));
        }
        let format = object
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let from_format = match format.as_deref() {
            Some("int8") => Some(IntWidth::I8),
            Some("int16") => Some(IntWidth::I16),
            Some("int32") => Some(IntWidth::I32),
            Some("int64" | "int") => Some(IntWidth::I64),
            Some("uint8") => Some(IntWidth::U8),
            Some("uint16") => Some(IntWidth::U16),
            Some("uint32") => Some(IntWidth::U32),
            Some("uint64" | "uint") => Some(IntWidth::U64),
            _ => None,
        };
        let width = from_format.unwrap_or_else(|| match (minimum, maximum) {
            (Some(min), Some(max)) => width_for(min, max),
            _ => IntWidth::I64,
        });
        Ok(IntType {
            width,
            format,
            minimum,
            maximum,
        })
    }

    fn array(&mut self, object: &Map<String, Value>, pointer: &str, ctx: Ctx<'_>) -> Result<Shape> {
        let tuple = match (object.get("prefixItems"), object.get("items")) {
            (Some(Value::Array(prefix)), None | Some(Value::Bool(false))) => {
                Some(("prefixItems", prefix))
            }
            (Some(_), Some(_)) => {
                return Err(self.err(
                    &join(pointer, "items"),
                    "a tuple (`prefixItems`) with further `items` is not supported",
                ));
            }
            (None, Some(Value::Array(items))) => Some(("items", items)),
            (Some(_), None) => {
                return Err(self.err(
                    &join(pointer, "prefixItems"),
                    "`prefixItems` must be an array",
                ));
            }
            (None, _) => None,
        };
        if let Some((key, members)) = tuple {
            let mut items = Vec::new();
            for (i, member) in members.iter().enumerate() {
                let hint = format!("{}Item{}", ctx.name, i);
                items.push(self.expr(member, &format!("{pointer}/{key}/{i}"), &hint, ctx.name)?);
            }
            return Ok(Shape::Expr(TypeExpr::Tuple(items)));
        }
        let item = match object.get("items") {
            None => TypeExpr::Any,
            Some(items) => self.expr(
                items,
                &join(pointer, "items"),
                &format!("{}Item", ctx.name),
                ctx.name,
            )?,
        };
        Ok(Shape::Expr(TypeExpr::Array(Box::new(item))))
    }

    fn enumeration(
        &mut self,
        object: &Map<String, Value>,
        values: &Value,
        pointer: &str,
    ) -> Result<Shape> {
        let enum_pointer = join(pointer, "enum");
        let Some(values) = values.as_array() else {
            return Err(self.err(&enum_pointer, "`enum` must be an array"));
        };
        let mut literals = Vec::new();
        for (i, value) in values.iter().enumerate() {
            let Some(literal) = literal_of(value) else {
                return Err(self.err(
                    &format!("{enum_pointer}/{i}"),
                    "array or object `enum` values are not supported",
                ));
            };
            if !literals.contains(&literal) {
                literals.push(literal);
            }
        }
        let entries = literals
            .into_iter()
            .map(|value| (value, Docs::default()))
            .collect();
        self.enum_shape(object, entries, pointer)
    }

    /// `oneOf: [{const, description}, ...]`: a string enum with a doc per value.
    fn documented_enum(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Shape>> {
        let Some(members) = object.get("oneOf").or_else(|| object.get("anyOf")) else {
            return Ok(None);
        };
        let Some(members) = members.as_array() else {
            return Ok(None);
        };
        let mut entries = Vec::new();
        for member in members {
            let Some(member) = member.as_object() else {
                return Ok(None);
            };
            let only_const = member.keys().all(|k| {
                k == "const" || k == "type" || ANNOTATIONS.contains(&k.as_str()) || is_extension(k)
            });
            let Some(literal) = member.get("const").and_then(literal_of) else {
                return Ok(None);
            };
            if !only_const {
                return Ok(None);
            }
            entries.push((literal, docs_of(member, true)));
        }
        if entries.is_empty() {
            return Ok(None);
        }
        self.enum_shape(object, entries, pointer).map(Some)
    }

    fn enum_shape(
        &mut self,
        object: &Map<String, Value>,
        entries: Vec<(Literal, Docs)>,
        pointer: &str,
    ) -> Result<Shape> {
        let mut aliases: HashMap<Literal, Literal> = HashMap::new();
        if let Some(map) = object.get("x-symgen-aliases") {
            let Some(map) = map.as_object() else {
                return Err(self.err(
                    &join(pointer, "x-symgen-aliases"),
                    "`x-symgen-aliases` of an enum must map each alias to its canonical value",
                ));
            };
            for (alias, canonical) in map {
                let Some(canonical) = literal_of(canonical) else {
                    return Err(self.err(
                        &join(&join(pointer, "x-symgen-aliases"), alias),
                        "an enum alias must map to a scalar",
                    ));
                };
                aliases.insert(Literal::String(alias.clone()), canonical);
            }
        }
        let nullable = entries.iter().any(|(v, _)| *v == Literal::Null);
        let mut values: Vec<EnumValue> = Vec::new();
        for (value, docs) in entries.iter().filter(|(v, _)| *v != Literal::Null) {
            if aliases.contains_key(value) {
                continue;
            }
            values.push(EnumValue {
                value: value.clone(),
                docs: docs.clone(),
                aliases: Vec::new(),
            });
        }
        for (value, _) in &entries {
            if let Some(canonical) = aliases.get(value) {
                let Some(target) = values.iter_mut().find(|v| v.value == *canonical) else {
                    return Err(self.err(
                        &join(pointer, "x-symgen-aliases"),
                        format!(
                            "alias {} maps to {}, which is not a value of this enum",
                            value.to_json(),
                            canonical.to_json()
                        ),
                    ));
                };
                target.aliases.push(value.clone());
            }
        }
        let shape = match values.as_slice() {
            [] => Shape::Expr(TypeExpr::Null),
            [single] if single.aliases.is_empty() => {
                Shape::Expr(TypeExpr::Literal(single.value.clone()))
            }
            _ => Shape::Kind {
                kind: TypeKind::Enum(Enum { values }),
                nullable: false,
            },
        };
        Ok(
            if nullable && !matches!(shape, Shape::Expr(TypeExpr::Null)) {
                make_nullable(shape)
            } else {
                shape
            },
        )
    }

    /// Objects: records, maps, and unions (with or without shared fields). `base` is a
    /// `$ref` found beside the object's own keywords.
    fn object(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        base: Option<String>,
    ) -> Result<Shape> {
        let own_props = props_of(object);
        // Collect composition parts: a `$ref` beside, and non-constraint `allOf` members.
        let mut parts: Vec<Part> = Vec::new();
        if let Some(target) = base {
            parts.push(Part::Ref(target, join(pointer, "$ref")));
        }
        let known_props = self.known_props(object);
        let known = |key: &str| known_props.contains(key);
        if let Some(all) = object.get("allOf") {
            let Some(all) = all.as_array() else {
                return Err(self.err(&join(pointer, "allOf"), "`allOf` must be an array"));
            };
            for (i, member) in all.iter().enumerate() {
                if !is_constraint(member, &known) {
                    parts.push(Part::Schema(member.clone(), format!("{pointer}/allOf/{i}")));
                }
            }
        }
        // The choice (oneOf/anyOf) that is not a mere constraint, if any.
        let mut choice: Option<(&'static str, &Vec<Value>)> = None;
        for key in ["oneOf", "anyOf"] {
            let Some(members) = object.get(key) else {
                continue;
            };
            let Some(members) = members.as_array() else {
                return Err(self.err(&join(pointer, key), format!("`{key}` must be an array")));
            };
            if members.iter().all(|m| is_constraint(m, &known)) {
                continue;
            }
            if choice.is_some() {
                return Err(self.err(
                    &join(pointer, key),
                    "both `oneOf` and `anyOf` describe alternatives here; only one is supported",
                ));
            }
            choice = Some((key, members));
        }

        let has_own_structure = own_props.is_some_and(|p| !p.is_empty())
            || object.contains_key("additionalProperties")
            || object.contains_key("patternProperties");

        // A single non-object part and nothing else: the part itself (`allOf: [{$ref}]`).
        if choice.is_none() && !has_own_structure && parts.len() == 1 {
            let (part_schema, part_pointer) = match &parts[0] {
                Part::Ref(target, _) => {
                    return Ok(Shape::Expr(TypeExpr::Ref(target.clone())));
                }
                Part::Schema(schema, part_pointer) => (schema.clone(), part_pointer.clone()),
            };
            return self.shape(&part_schema, &part_pointer, ctx);
        }

        if let Some((key, members)) = choice {
            let nullable = members.iter().any(is_null_schema);
            let rest: Vec<(usize, &Value)> = members
                .iter()
                .enumerate()
                .filter(|(_, m)| !is_null_schema(m))
                .collect();
            if rest.len() == 1 && !has_own_structure && parts.is_empty() {
                let (i, member) = rest[0];
                let shape = self.shape(member, &format!("{pointer}/{key}/{i}"), ctx)?;
                return Ok(if nullable {
                    make_nullable(shape)
                } else {
                    shape
                });
            }
            if rest.is_empty() {
                return Ok(Shape::Expr(TypeExpr::Null));
            }
            let (fields, _, required) = self.merged_fields(object, pointer, ctx, &parts)?;
            let union = self.union(object, pointer, ctx, key, &rest, fields, &required)?;
            let shape = Shape::Kind {
                kind: TypeKind::Union(union),
                nullable: false,
            };
            return Ok(if nullable {
                make_nullable(shape)
            } else {
                shape
            });
        }

        // A union flattened through `allOf` (one member with its own alternatives).
        if let Some(union) = self.flattened_union(&parts, pointer)? {
            let (schema, part_pointer) = union;
            let mut merged = schema.as_object().cloned().unwrap_or_default();
            let mut props = own_props.cloned().unwrap_or_default();
            if let Some(extra) = props_of(&merged) {
                for (k, v) in extra {
                    props.insert(k.clone(), v.clone());
                }
            }
            let mut required: Vec<Value> = object
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            required.extend(
                merged
                    .get("required")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
            );
            merged.insert("properties".into(), Value::Object(props));
            merged.insert("required".into(), Value::Array(required));
            let _ = part_pointer;
            return self.object(&merged, pointer, ctx, None);
        }
        let (fields, additional, _) = self.merged_fields(object, pointer, ctx, &parts)?;

        if fields.is_empty() && parts.is_empty() {
            if let Additional::Typed(value) = additional {
                return Ok(Shape::Expr(TypeExpr::Map(Box::new(value))));
            }
            if !ctx.is_def && additional == Additional::Allowed {
                return Ok(Shape::Expr(TypeExpr::Map(Box::new(TypeExpr::Any))));
            }
        }
        Ok(Shape::Kind {
            kind: TypeKind::Record(Record { fields, additional }),
            nullable: false,
        })
    }

    fn known_props(&self, object: &Map<String, Value>) -> HashSet<String> {
        let mut known: HashSet<String> = props_of(object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        if let Some(target) = object.get("$ref").and_then(Value::as_str)
            && let Some(def) = self
                .ref_target(target, "")
                .ok()
                .and_then(|name| self.def_object(&name))
        {
            known.extend(props_of(def).into_iter().flat_map(|p| p.keys().cloned()));
        }
        known
    }

    /// Among the `allOf` parts, the one that is itself a union (a flattened enum).
    fn flattened_union(&self, parts: &[Part], pointer: &str) -> Result<Option<(Value, String)>> {
        let mut found = None;
        for part in parts {
            if let Part::Schema(schema, part_pointer) = part {
                let is_union = schema
                    .as_object()
                    .is_some_and(|o| o.contains_key("oneOf") || o.contains_key("anyOf"));
                if is_union {
                    if found.is_some() {
                        return Err(self.err(
                            pointer,
                            "more than one flattened union in one object is not supported",
                        ));
                    }
                    found = Some((schema.clone(), part_pointer.clone()));
                }
            }
        }
        Ok(found)
    }

    /// The fields of an object: those of its composition parts (in order), then its own.
    /// Returns the fields, what else is allowed, and the required keys.
    fn merged_fields(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        parts: &[Part],
    ) -> Result<(Vec<Field>, Additional, Vec<String>)> {
        let mut fields: Vec<Field> = Vec::new();
        let mut additional = Additional::Allowed;
        let required: Vec<String> = string_list(object.get("required"))
            .into_iter()
            .map(str::to_owned)
            .collect();
        for part in parts {
            let (part_fields, part_additional) = match part {
                Part::Ref(target, ref_pointer) => self.record_of(target, ref_pointer)?,
                Part::Schema(schema, part_pointer) => {
                    let is_union = schema
                        .as_object()
                        .is_some_and(|o| o.contains_key("oneOf") || o.contains_key("anyOf"));
                    if is_union {
                        continue;
                    }
                    match self.shape(schema, part_pointer, ctx)? {
                        Shape::Kind {
                            kind: TypeKind::Record(record),
                            nullable: false,
                        } => (record.fields, record.additional),
                        Shape::Expr(TypeExpr::Ref(target)) => {
                            self.record_of(&target, part_pointer)?
                        }
                        Shape::Expr(TypeExpr::Map(value)) if *value == TypeExpr::Any => {
                            (Vec::new(), Additional::Allowed)
                        }
                        _ => {
                            return Err(
                                self.err(part_pointer, "`allOf` can only combine object schemas")
                            );
                        }
                    }
                }
            };
            if part_additional == Additional::Forbidden {
                additional = Additional::Forbidden;
            }
            merge_fields(&mut fields, part_fields);
        }
        let own = match props_of(object) {
            Some(props) => self.fields(
                props,
                &required,
                &join(pointer, "properties"),
                ctx.name,
                &[],
            )?,
            None => Vec::new(),
        };
        merge_fields(&mut fields, own);
        for field in &mut fields {
            if required.contains(&field.name) {
                field.required = true;
            }
        }
        match object
            .get("additionalProperties")
            .or_else(|| object.get("unevaluatedProperties"))
        {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => additional = Additional::Forbidden,
            Some(schema) => {
                let key = if object.contains_key("additionalProperties") {
                    "additionalProperties"
                } else {
                    "unevaluatedProperties"
                };
                let value = self.expr(
                    schema,
                    &join(pointer, key),
                    &format!("{}Value", ctx.name),
                    ctx.name,
                )?;
                additional = Additional::Typed(value);
            }
        }
        if let Some(patterns) = object.get("patternProperties") {
            let patterns_pointer = join(pointer, "patternProperties");
            let Some(patterns) = patterns.as_object() else {
                return Err(self.err(&patterns_pointer, "`patternProperties` must be an object"));
            };
            match patterns.iter().collect::<Vec<_>>().as_slice() {
                [] => {}
                [(pattern, schema)] if additional != Additional::Allowed || fields.is_empty() => {
                    let value = self.expr(
                        schema,
                        &join(&patterns_pointer, pattern),
                        &format!("{}Value", ctx.name),
                        ctx.name,
                    )?;
                    additional = Additional::Typed(value);
                }
                _ => {
                    return Err(self.err(
                        &patterns_pointer,
                        "`patternProperties` are supported only as the single value type of a map",
                    ));
                }
            }
        }
        Ok((fields, additional, required))
    }

    /// The fields of def `name` when it is a record (for `$ref`/`allOf` merging).
    fn record_of(&mut self, name: &str, pointer: &str) -> Result<(Vec<Field>, Additional)> {
        let Some(&index) = self.by_name.get(name) else {
            return Err(self.err(pointer, format!("unknown type `{name}`")));
        };
        self.ensure(index)?;
        let named = self.slots[index].as_ref().map(|t| t.kind.clone());
        match named {
            Some(TypeKind::Record(record)) => Ok((record.fields, record.additional)),
            Some(TypeKind::Alias(TypeExpr::Ref(next))) => self.record_of(&next, pointer),
            Some(TypeKind::Alias(TypeExpr::Map(value))) if *value == TypeExpr::Any => {
                Ok((Vec::new(), Additional::Allowed))
            }
            _ => Err(self.err(
                pointer,
                format!(
                    "`{name}` is not an object with properties, so its fields cannot be merged here"
                ),
            )),
        }
    }

    /// The fields of a `properties` map. `skip` lists keys handled elsewhere (tags).
    fn fields(
        &mut self,
        props: &Map<String, Value>,
        required: &[String],
        pointer: &str,
        owner: &str,
        skip: &[&str],
    ) -> Result<Vec<Field>> {
        let mut fields: Vec<Field> = Vec::new();
        let mut alias_of: Vec<(String, String, String)> = Vec::new();
        for (key, schema) in props {
            if skip.contains(&key.as_str()) {
                continue;
            }
            let field_pointer = join(pointer, key);
            if let Some(canonical) = schema.get("x-symgen-alias-of") {
                let Some(canonical) = canonical.as_str() else {
                    return Err(self.err(
                        &join(&field_pointer, "x-symgen-alias-of"),
                        "`x-symgen-alias-of` must name a property",
                    ));
                };
                alias_of.push((key.clone(), canonical.to_owned(), field_pointer));
                continue;
            }
            let hint = format!("{owner}{}", pascal_case(key));
            let ty = self.expr(schema, &field_pointer, &hint, owner)?;
            let object = schema.as_object();
            let aliases = string_list(object.and_then(|o| o.get("x-symgen-aliases")))
                .into_iter()
                .map(str::to_owned)
                .collect();
            let hinted_required = object
                .and_then(|o| o.get("x-symgen-required"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            fields.push(Field {
                name: key.clone(),
                ty,
                required: hinted_required || required.iter().any(|r| r == key),
                docs: object.map(|o| docs_of(o, true)).unwrap_or_default(),
                default: object.and_then(|o| o.get("default")).cloned(),
                aliases,
                pointer: field_pointer,
            });
        }
        for (alias, canonical, alias_pointer) in alias_of {
            let Some(field) = fields.iter_mut().find(|f| f.name == canonical) else {
                return Err(self.err(
                    &alias_pointer,
                    format!("`{alias}` is an alias of `{canonical}`, which is not a property here"),
                ));
            };
            if !field.aliases.contains(&alias) {
                field.aliases.push(alias);
            }
        }
        Ok(fields)
    }

    /// A union of `members` (null members already removed), with shared `fields`.
    #[allow(clippy::too_many_arguments)]
    fn union(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        ctx: Ctx<'_>,
        key: &str,
        members: &[(usize, &Value)],
        mut fields: Vec<Field>,
        parent_required: &[String],
    ) -> Result<Union> {
        let mut views = Vec::new();
        for &(i, member) in members {
            let member_pointer = format!("{pointer}/{key}/{i}");
            // `{enum: [a, b]}` among objects: one unit variant per value.
            if let Some(values) = multi_value_enum(member) {
                for value in values {
                    let mut object = Map::new();
                    object.insert("const".into(), value.clone());
                    views.push(View {
                        object,
                        target: None,
                        target_object: None,
                        pointer: member_pointer.clone(),
                    });
                }
                continue;
            }
            views.push(self.view(member, member_pointer)?);
        }
        let unknown_hint = |v: &View| v.object.get("x-symgen-unknown") == Some(&Value::Bool(true));
        let hint = object
            .get("x-symgen-envelope")
            .or_else(|| object.get("x-symgen-union"));
        let hinted_tag = hint.and_then(|h| h.get("tag")).and_then(Value::as_str);
        let hinted_content = object
            .get("x-symgen-envelope")
            .and_then(|h| h.get("content"))
            .and_then(Value::as_str);

        let tag = match hinted_tag {
            Some(tag) => Some(tag.to_owned()),
            None => find_tag(&views, parent_required, &unknown_hint),
        };
        let mut unknown = None;
        let mut variants = Vec::new();
        let tagging = match &tag {
            Some(tag) => {
                let known: Vec<&View> = views
                    .iter()
                    .filter(|v| {
                        !unknown_hint(v) && v.tag_schema(tag).and_then(tag_values).is_some()
                    })
                    .collect();
                let content = match hinted_content {
                    Some(content) => Some(content.to_owned()),
                    None => adjacent_content(&known, tag),
                };
                match content {
                    Some(content) => Tagging::Adjacent {
                        tag: tag.clone(),
                        content,
                    },
                    None => Tagging::Internal { tag: tag.clone() },
                }
            }
            None if is_external(&views) => Tagging::External,
            None => Tagging::Untagged,
        };
        for view in &views {
            let is_unknown = unknown_hint(view)
                || tag
                    .as_deref()
                    .is_some_and(|t| view.tag_schema(t).and_then(tag_values).is_none());
            if is_unknown {
                if unknown.is_some() || tag.is_none() {
                    return Err(self.err(
                        &view.pointer,
                        "a union may have only one open (unknown-tag) variant, and only when it is tagged",
                    ));
                }
                unknown = Some(UnknownVariant {
                    name: view
                        .object
                        .get("title")
                        .and_then(Value::as_str)
                        .unwrap_or("Unknown")
                        .to_owned(),
                    docs: docs_of(&view.object, false),
                    pointer: view.pointer.clone(),
                });
                continue;
            }
            variants.push(self.variant(view, &tagging, ctx)?);
        }
        dedupe_names(&mut variants);
        if let Some(tag) = tag.as_deref() {
            fields.retain(|f| f.name != tag);
            if let Tagging::Adjacent { content, .. } = &tagging {
                fields.retain(|f| f.name != *content);
            }
            let mut seen: HashSet<&Literal> = HashSet::new();
            for variant in &variants {
                for value in variant.tag.iter().chain(&variant.tag_aliases) {
                    if !seen.insert(value) {
                        return Err(self.err(
                            &variant.pointer,
                            format!(
                                "tag value {} of `{tag}` is used by more than one variant",
                                value.to_json()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(Union {
            tagging,
            fields,
            variants,
            unknown,
        })
    }

    /// A union member, with its `$ref` target's properties visible for tag detection.
    fn view(&self, member: &Value, pointer: String) -> Result<View> {
        let Some(object) = member.as_object() else {
            return match member {
                Value::Bool(true) => Ok(View {
                    object: Map::new(),
                    target: None,
                    target_object: None,
                    pointer,
                }),
                _ => Err(self.err(&pointer, "a union member must be a schema object")),
            };
        };
        let mut target = None;
        let mut target_object = None;
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = self.ref_target(reference, &join(&pointer, "$ref"))?;
            target_object = self.def_object(&name).cloned();
            target = Some(name);
        }
        Ok(View {
            object: object.clone(),
            target,
            target_object,
            pointer,
        })
    }

    fn variant(&mut self, view: &View, tagging: &Tagging, ctx: Ctx<'_>) -> Result<Variant> {
        let object = &view.object;
        let (tag, tag_aliases) = match tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                let (first, rest) = view.tag_schema(tag).and_then(tag_values).ok_or_else(|| {
                    self.err(
                        &view.pointer,
                        format!("this variant has no constant `{tag}`"),
                    )
                })?;
                (Some(first), rest)
            }
            Tagging::External => (
                external_key(object).map(|k| Literal::String(k.0)),
                Vec::new(),
            ),
            Tagging::Untagged => (None, Vec::new()),
        };
        let name = object
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| match &tag {
                Some(Literal::String(s)) => Some(s.clone()),
                Some(other) => Some(other.to_json()),
                None => None,
            })
            .or_else(|| view.target.clone())
            .unwrap_or_else(|| kind_name(object).to_owned());
        let variant_hint = format!("{}{}", ctx.name, pascal_case(&name));
        let payload = match tagging {
            Tagging::Internal { tag } => self.internal_payload(view, tag, &variant_hint, ctx)?,
            Tagging::Adjacent { tag, content } => {
                let props = props_of(object);
                match props.and_then(|p| p.get(content)) {
                    None => Payload::Unit,
                    Some(schema) => {
                        let required =
                            string_list(object.get("required")).contains(&content.as_str());
                        let content_pointer = join(&join(&view.pointer, "properties"), content);
                        let ty = self.expr(schema, &content_pointer, &variant_hint, ctx.name)?;
                        let _ = tag;
                        Payload::Content(Box::new(Field {
                            name: content.clone(),
                            ty,
                            required,
                            docs: schema
                                .as_object()
                                .map(|o| docs_of(o, true))
                                .unwrap_or_default(),
                            default: schema.get("default").cloned(),
                            aliases: Vec::new(),
                            pointer: content_pointer,
                        }))
                    }
                }
            }
            Tagging::External => match external_key(object) {
                Some((key, Some(schema))) => {
                    let content_pointer = join(&join(&view.pointer, "properties"), &key);
                    self.value_payload(&schema, &content_pointer, &variant_hint, ctx)?
                }
                _ => Payload::Unit,
            },
            Tagging::Untagged => {
                let member = Value::Object(object.clone());
                self.value_payload(&member, &view.pointer, &variant_hint, ctx)?
            }
        };
        let reply = match (
            object.get("x-symgen-reply"),
            object.get("x-symgen-is-reply"),
        ) {
            (_, Some(Value::Bool(true))) => Reply::IsReply,
            (Some(Value::Null), _) => Reply::None,
            (Some(schema), _) => {
                let reply_pointer = join(&view.pointer, "x-symgen-reply");
                Reply::Data(self.expr(
                    schema,
                    &reply_pointer,
                    &format!("{variant_hint}Reply"),
                    ctx.name,
                )?)
            }
            (None, _) => Reply::Unspecified,
        };
        Ok(Variant {
            name,
            tag,
            tag_aliases,
            docs: docs_of(object, false),
            payload,
            reply,
            pointer: view.pointer.clone(),
        })
    }

    /// The payload of an internally tagged variant: the member without its tag.
    fn internal_payload(
        &mut self,
        view: &View,
        tag: &str,
        hint: &str,
        ctx: Ctx<'_>,
    ) -> Result<Payload> {
        let mut rest = view.object.clone();
        for key in [
            "title",
            "description",
            "deprecated",
            "x-symgen-reply",
            "x-symgen-is-reply",
        ] {
            rest.shift_remove(key);
        }
        if let Some(Value::Object(props)) = rest.get_mut("properties") {
            props.shift_remove(tag);
            if props.is_empty() {
                rest.shift_remove("properties");
            }
        }
        if let Some(Value::Array(required)) = rest.get_mut("required") {
            required.retain(|r| r != tag);
        }
        let has_fields = rest.contains_key("properties")
            || rest.contains_key("allOf")
            || rest.contains_key("oneOf")
            || rest.contains_key("anyOf");
        if let Some(target) = &view.target {
            if !has_fields {
                return Ok(Payload::Type(TypeExpr::Ref(target.clone())));
            }
        } else if !has_fields {
            return Ok(Payload::Unit);
        }
        let parent = ctx.name;
        let ctx = Ctx {
            name: hint,
            is_def: true,
        };
        match self.shape(&Value::Object(rest), &view.pointer, ctx)? {
            Shape::Kind {
                kind: TypeKind::Record(record),
                nullable: false,
            } if record.fields.is_empty() => Ok(Payload::Unit),
            Shape::Kind {
                kind: TypeKind::Record(record),
                nullable: false,
            } => Ok(Payload::Fields(record.fields)),
            Shape::Expr(expr) => Ok(Payload::Type(expr)),
            Shape::Kind { kind, nullable } => {
                let name = self.unique(hint);
                let expr =
                    TypeExpr::Ref(self.hoist(kind, Docs::default(), &view.pointer, &name, parent));
                Ok(Payload::Type(if nullable { expr.nullable() } else { expr }))
            }
        }
    }

    /// The payload of an untagged or externally tagged variant: a whole value.
    fn value_payload(
        &mut self,
        schema: &Value,
        pointer: &str,
        hint: &str,
        ctx: Ctx<'_>,
    ) -> Result<Payload> {
        let mut cleaned = schema.clone();
        if let Value::Object(o) = &mut cleaned {
            for key in [
                "title",
                "description",
                "deprecated",
                "x-symgen-reply",
                "x-symgen-is-reply",
            ] {
                o.shift_remove(key);
            }
        }
        let name = self.unique(hint);
        let inner = Ctx {
            name: &name,
            is_def: true,
        };
        match self.shape(&cleaned, pointer, inner)? {
            Shape::Kind {
                kind: TypeKind::Record(record),
                nullable: false,
            } => {
                self.taken.remove(&name);
                Ok(Payload::Fields(record.fields))
            }
            Shape::Expr(expr) => {
                self.taken.remove(&name);
                Ok(Payload::Type(expr))
            }
            Shape::Kind { kind, nullable } => {
                let expr =
                    TypeExpr::Ref(self.hoist(kind, Docs::default(), pointer, &name, ctx.name));
                Ok(Payload::Type(if nullable { expr.nullable() } else { expr }))
            }
        }
    }

    /// Rejects types that are only aliases of themselves (`A = B`, `B = A | null`), which
    /// no language can represent.
    fn check_cycles(&self, model: &Model) -> Result<()> {
        let direct = |t: &NamedType| -> Vec<String> {
            let mut out = Vec::new();
            let push = |expr: &TypeExpr, out: &mut Vec<String>| {
                if let TypeExpr::Ref(name) = expr.non_null() {
                    out.push(name.clone());
                }
            };
            match &t.kind {
                TypeKind::Alias(expr) => push(expr, &mut out),
                TypeKind::Union(union) if union.tagging == Tagging::Untagged => {
                    for variant in &union.variants {
                        if let Payload::Type(expr) = &variant.payload {
                            push(expr, &mut out);
                        }
                    }
                }
                _ => {}
            }
            out
        };
        // Iterative depth-first search with colours: 0 new, 1 on stack, 2 done.
        let mut colour = vec![0u8; model.types.len()];
        for start in 0..model.types.len() {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, Vec<String>, usize)> =
                vec![(start, direct(&model.types[start]), 0)];
            colour[start] = 1;
            while let Some(top) = stack.last_mut() {
                if top.2 == top.1.len() {
                    colour[top.0] = 2;
                    stack.pop();
                    continue;
                }
                let target = top.1[top.2].clone();
                top.2 += 1;
                let Some(&t) = model.index.get(&target) else {
                    continue;
                };
                match colour[t] {
                    0 => {
                        colour[t] = 1;
                        stack.push((t, direct(&model.types[t]), 0));
                    }
                    1 => {
                        let cycle: Vec<&str> = stack
                            .iter()
                            .map(|(n, _, _)| model.types[*n].name.as_str())
                            .skip_while(|n| *n != target.as_str())
                            .chain([target.as_str()])
                            .collect();
                        let ty = &model.types[t];
                        return Err(self.err(
                            &ty.pointer,
                            format!(
                                "circular type alias {}: a type cannot be only another name (or a union) of itself",
                                cycle.join(" → ")
                            ),
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

enum Part {
    Ref(String, String),
    Schema(Value, String),
}

struct View {
    object: Map<String, Value>,
    target: Option<String>,
    target_object: Option<Map<String, Value>>,
    pointer: String,
}

impl View {
    fn props(&self) -> impl Iterator<Item = (&String, &Value)> {
        props_of(&self.object)
            .into_iter()
            .flatten()
            .chain(self.target_object.iter().filter_map(props_of).flatten())
    }

    fn tag_schema(&self, tag: &str) -> Option<&Value> {
        props_of(&self.object).and_then(|p| p.get(tag)).or_else(|| {
            self.target_object
                .as_ref()
                .and_then(props_of)
                .and_then(|p| p.get(tag))
        })
    }

    fn requires(&self, key: &str) -> bool {
        string_list(self.object.get("required")).contains(&key)
            || self
                .target_object
                .as_ref()
                .is_some_and(|t| string_list(t.get("required")).contains(&key))
    }
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::String("null".into()))
        || schema.get("const") == Some(&Value::Null)
}

fn make_nullable(shape: Shape) -> Shape {
    match shape {
        Shape::Expr(expr) => Shape::Expr(expr.nullable()),
        Shape::Kind { kind, .. } => Shape::Kind {
            kind,
            nullable: true,
        },
    }
}

fn merge_fields(fields: &mut Vec<Field>, more: Vec<Field>) {
    for field in more {
        match fields.iter_mut().find(|f| f.name == field.name) {
            Some(existing) => {
                existing.required |= field.required;
                if existing.docs.description.is_none() {
                    existing.docs = field.docs;
                }
            }
            None => fields.push(field),
        }
    }
}

fn type_name(ty: &str) -> &'static str {
    match ty {
        "string" => "String",
        "integer" => "Integer",
        "number" => "Number",
        "boolean" => "Boolean",
        "array" => "Array",
        "object" => "Object",
        _ => "Value",
    }
}

fn kind_name(object: &Map<String, Value>) -> &'static str {
    match object.get("type").and_then(Value::as_str) {
        Some(ty) => type_name(ty),
        None if object.contains_key("properties") => "Object",
        None if object.contains_key("const") || object.contains_key("enum") => "Literal",
        None => "Value",
    }
}

fn dedupe_names(variants: &mut [Variant]) {
    let mut seen: HashSet<String> = HashSet::new();
    for variant in variants.iter_mut() {
        let base = variant.name.clone();
        let mut n = 2;
        while !seen.insert(variant.name.clone()) {
            variant.name = format!("{base}{n}");
            n += 1;
        }
    }
}

/// The key that tags every (known) member: a property that each member requires with a
/// constant value, distinct across members.
fn find_tag(
    views: &[View],
    parent_required: &[String],
    unknown: &dyn Fn(&View) -> bool,
) -> Option<String> {
    let known: Vec<&View> = views.iter().filter(|v| !unknown(v)).collect();
    let first = known.first()?;
    let candidates: Vec<String> = first
        .props()
        .filter(|(_, schema)| tag_values(schema).is_some())
        .map(|(key, _)| key.clone())
        .collect();
    'candidates: for key in candidates {
        let mut seen: HashSet<Literal> = HashSet::new();
        for view in &known {
            let required = view.requires(&key) || parent_required.contains(&key);
            let Some((value, aliases)) = view.tag_schema(&key).and_then(tag_values) else {
                continue 'candidates;
            };
            if !required {
                continue 'candidates;
            }
            for v in std::iter::once(value).chain(aliases) {
                if !seen.insert(v) {
                    continue 'candidates;
                }
            }
        }
        return Some(key);
    }
    None
}

/// Adjacent tagging: every known member has, besides the tag, at most one property,
/// always the same one, no `$ref`, and at least one member has it.
fn adjacent_content(known: &[&View], tag: &str) -> Option<String> {
    let mut content: Option<String> = None;
    for view in known {
        if view.target.is_some() || view.object.contains_key("allOf") {
            return None;
        }
        let others: Vec<&String> = props_of(&view.object)
            .into_iter()
            .flat_map(|p| p.keys())
            .filter(|k| *k != tag)
            .collect();
        match others.as_slice() {
            [] => {}
            [key] => match &content {
                Some(c) if c != *key => return None,
                _ => content = Some((*key).clone()),
            },
            _ => return None,
        }
    }
    content
}

/// External tagging: members are string constants or objects with exactly one
/// (required) property, with distinct keys.
fn is_external(views: &[View]) -> bool {
    let mut keys = HashSet::new();
    let mut objects = 0;
    for view in views {
        if view.target.is_some() {
            return false;
        }
        let key = match external_key(&view.object) {
            Some((key, Some(_))) => {
                objects += 1;
                key
            }
            Some((key, None)) => key,
            None => return false,
        };
        if !keys.insert(key) {
            return false;
        }
    }
    objects > 0
}

/// For an externally tagged member: its key and (for objects) its content schema.
fn external_key(object: &Map<String, Value>) -> Option<(String, Option<Value>)> {
    if let Some(Value::String(value)) = object.get("const") {
        return Some((value.clone(), None));
    }
    if let Some(Value::Array(values)) = object.get("enum")
        && let [Value::String(value)] = values.as_slice()
    {
        return Some((value.clone(), None));
    }
    let props = props_of(object)?;
    if props.len() != 1 {
        return None;
    }
    let (key, schema) = props.iter().next()?;
    if !string_list(object.get("required")).contains(&key.as_str()) {
        return None;
    }
    if object.contains_key("oneOf") || object.contains_key("anyOf") || object.contains_key("allOf")
    {
        return None;
    }
    Some((key.clone(), Some(schema.clone())))
}

/// The values of a member that is only an `enum` of two or more scalars.
fn multi_value_enum(member: &Value) -> Option<&Vec<Value>> {
    let object = member.as_object()?;
    let values = object.get("enum")?.as_array()?;
    let plain = object
        .keys()
        .all(|k| k == "enum" || k == "type" || ANNOTATIONS.contains(&k.as_str()));
    (plain && values.len() > 1 && values.iter().all(|v| literal_of(v).is_some())).then_some(values)
}
