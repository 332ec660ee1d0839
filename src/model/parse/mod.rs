//! JSON Schema → [`Model`]: the parser's state, `$ref` resolution, def ordering and
//! hoisting, and the dispatch on a schema's shape. The shapes themselves live in
//! [`scalars`] (integers, arrays, enums), [`objects`] (records, maps, `allOf`) and
//! [`unions`]; [`keywords`] has the keyword tables and small helpers, [`cycles`] the
//! check for types that are only aliases of themselves.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    Additional, Constraint, Docs, Enum, EnumValue, Error, Field, IntType, IntWidth, Literal, Model,
    NamedType, NumberType, Origin, Payload, ProtocolInfo, Record, Reply, StringType, Tagging,
    TypeExpr, TypeKind, Union, UnknownVariant, Variant,
};

type Result<T> = std::result::Result<T, Error>;

mod constraints;
mod cycles;
mod keywords;
mod objects;
mod scalars;
mod unions;

use constraints::constraints_of;
pub use keywords::pascal_case;
use keywords::*;
use unions::type_name;

/// How deep schemas may nest (objects inside arrays inside properties ...).
const MAX_DEPTH: usize = 128;

const SUPPORTED_DRAFTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
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
        match text("id") {
            Some(id) => Ok(Some(ProtocolInfo {
                id,
                code: text("code"),
                reply_data: text("replyData"),
            })),
            None => Err(self.err(
                "/x-symgen-protocol",
                "`x-symgen-protocol` needs a string `id`",
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
                let name = crate::json_pointer::unescape(token).into_owned();
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
        if has_choice
            && ty == Some("string")
            && let Some(shape) = self.maybe_open_enum(object, pointer)?
        {
            return Ok(shape);
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
}
