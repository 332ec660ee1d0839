//! JSON Schema → [`Model`]: the parser's state, `$ref` resolution, def ordering and
//! hoisting, and the dispatch on a schema's shape. The shapes themselves live in
//! [`scalars`] (integers, arrays, enums), [`objects`] (records, maps, `allOf`) and
//! [`unions`]; [`keywords`] has the keyword tables and small helpers, [`cycles`] the
//! check for types that are only aliases of themselves.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    Additional, Constraint, Direction, Docs, Enum, EnumValue, Error, Field, IntType, IntWidth,
    Literal, Model, NamedType, NumberType, Origin, Payload, ProtocolInfo, Reach, Record, Reply,
    StringType, Tagging, TypeExpr, TypeKind, Union, UnknownVariant, Variant, Warning,
};

type Result<T> = std::result::Result<T, Error>;

mod constraints;
mod cycles;
mod directions;
mod drafts;
mod exclusive;
mod keywords;
mod objects;
mod post;
mod refine;
mod refs;
mod rewrite;
mod scalars;
mod unenforced;
mod unions;

use constraints::constraints_of;
pub use keywords::pascal_case;
use keywords::*;
pub(crate) use keywords::{INSTANCE_VALUED, SCHEMA_MAPS, percent_decode, subschemas_mut};
use unions::type_name;

pub use drafts::explicit_reading;
pub use refs::Sources;
pub(crate) use refs::{META_SCHEMA_POINTER, is_meta_schema};
use refs::{Resources, Target};

/// How deep schemas may nest (objects inside arrays inside properties ...).
pub(crate) const MAX_DEPTH: usize = 128;

pub(super) fn build(
    file: &str,
    path: Option<&std::path::Path>,
    document: &Value,
    sources: &Sources,
) -> Result<Model> {
    let Some(root) = document.as_object() else {
        return Err(Error::new(
            file,
            "",
            "the document is not a JSON Schema object",
        ));
    };
    let (draft, assumed) = drafts::draft_of(file, root)?;
    drafts::meta_validate(file, document, draft)?;
    directions::check(file, document)?;
    let (normalized, written, ignored) = drafts::normalized(document.clone(), draft);
    let mut resources = Resources::load(file, path, normalized, written, draft, sources)?;
    let assumed_note = assumed.is_some();
    if let Some(note) = assumed {
        let note = Warning::new(file, "/$schema", note).reaching(super::Reach::Keyword);
        resources.notes.insert(0, note);
    }
    let mut parser = Parser::new(file, &resources)?;
    // Every location the parser names is one in the 2020-12 spelling it reads; messages
    // name the keyword as the author wrote it, where the validator reports it too.
    let mut model = parser
        .run()
        .map_err(|err| resources.error_as_written(err))?;
    for warning in &mut model.warnings {
        let written = resources.as_written(&warning.pointer);
        // A message that starts by naming the keyword names it as written too.
        let last = |pointer: &str| pointer.rsplit('/').next().unwrap_or_default().to_owned();
        let (before, after) = (last(&warning.pointer), last(&written));
        if before != after
            && let Some(rest) = warning.message.strip_prefix(&format!("`{before}`"))
        {
            warning.message = format!("`{after}`{rest}");
        }
        warning.pointer = written;
    }
    // What the draft ignores, the validator and the types ignore too: nothing excused.
    // These pointers are into the document as written already.
    let at = usize::from(assumed_note).min(model.warnings.len());
    let ignored = ignored
        .iter()
        .map(|i| Warning::new(file, &i.pointer, i.message(draft)).reaching(super::Reach::Nothing));
    model.warnings.splice(at..at, ignored);
    Ok(model)
}

/// The schema `true`: what a `$ref` to a meta-schema stands for.
static ANY_SCHEMA: Value = Value::Bool(true);

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
    /// Its pointer as messages show it: a JSON Pointer in the document being parsed,
    /// `file#pointer` in another document.
    pointer: String,
    schema: &'a Value,
    origin: Origin,
}

struct Parser<'a> {
    file: &'a str,
    root: &'a Map<String, Value>,
    id: Option<&'a str>,
    resources: &'a Resources,
    defs: Vec<Def<'a>>,
    by_name: HashMap<String, usize>,
    /// Where each `$ref` target's def is: target → def name.
    by_target: HashMap<Target, String>,
    /// What the generated types will not enforce or represent exactly.
    warnings: Vec<Warning>,
    /// Named types by slot; defs first (same index as `defs`), hoisted ones appended.
    slots: Vec<Option<NamedType>>,
    state: Vec<SlotState>,
    taken: HashSet<String>,
    root_type: Option<usize>,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(file: &'a str, resources: &'a Resources) -> Result<Self> {
        let root = resources.docs[0]
            .value
            .as_object()
            .ok_or_else(|| Error::new(file, "", "the document is not a JSON Schema object"))?;
        let mut parser = Parser {
            file,
            root,
            id: root.get("$id").and_then(Value::as_str),
            resources,
            defs: Vec::new(),
            by_name: HashMap::new(),
            by_target: HashMap::new(),
            warnings: resources.notes.clone(),
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
                if !schema.is_object() && !schema.is_boolean() {
                    // Not a schema: an error only when something uses it.
                    parser.warn(&def_pointer, "not a schema; left out");
                    continue;
                }
                if parser.by_name.contains_key(name) {
                    return Err(parser.err(
                        &def_pointer,
                        format!("`{name}` is defined in both `$defs` and `definitions`"),
                    ));
                }
                parser.by_target.insert(
                    Target::Schema {
                        doc: 0,
                        pointer: def_pointer.clone(),
                    },
                    name.clone(),
                );
                parser.add_def(name.clone(), def_pointer, schema, Origin::Defs);
            }
        }
        parser.add_ref_targets();
        Ok(parser)
    }

    /// A def for every `$ref` target that is not a `$defs` entry or the document root:
    /// a schema elsewhere in the document or in another one, or a meta-schema.
    fn add_ref_targets(&mut self) {
        let mut targets: Vec<&Target> = self.resources.targets().collect();
        targets.sort_by_key(|a| target_order(a));
        targets.dedup();
        for target in targets {
            if self.by_target.contains_key(target) {
                continue;
            }
            match target {
                Target::MetaSchema => {
                    let name = self.unique("JsonSchema");
                    self.taken.remove(&name);
                    self.by_target.insert(target.clone(), name.clone());
                    self.add_def(
                        name.clone(),
                        refs::META_SCHEMA_POINTER.to_owned(),
                        &ANY_SCHEMA,
                        Origin::Defs,
                    );
                    // At the meta-schema, not the document's root: a warning at the root
                    // would reach every keyword of the document.
                    self.warn(
                        refs::META_SCHEMA_POINTER,
                        format!("`$ref`s to a JSON Schema meta-schema are typed `{name}`: any JSON value, not checked as a schema"),
                    );
                }
                Target::Schema { doc: 0, pointer } if pointer.is_empty() => {}
                Target::Schema { doc, pointer } => {
                    let Some(schema) = self.resources.docs[*doc].value.pointer(pointer) else {
                        continue;
                    };
                    let candidates = names_from_pointer(pointer, &self.resources.docs[*doc].file);
                    let name = match candidates.iter().find(|c| !self.taken.contains(*c)) {
                        Some(free) => {
                            self.taken.insert(free.clone());
                            free.clone()
                        }
                        None => self.unique(&candidates[0]),
                    };
                    self.taken.remove(&name);
                    let shown = self.display_pointer(*doc, pointer);
                    self.by_target.insert(target.clone(), name.clone());
                    let origin = if *doc == 0 {
                        Origin::Defs
                    } else {
                        Origin::Document {
                            file: self.resources.docs[*doc].file.clone(),
                            pointer: pointer.clone(),
                        }
                    };
                    self.add_def(name, shown, schema, origin);
                }
            }
        }
    }

    /// A location as messages show it.
    fn display_pointer(&self, doc: usize, pointer: &str) -> String {
        if doc == 0 {
            pointer.to_owned()
        } else {
            format!("{}#{pointer}", self.resources.docs[doc].file)
        }
    }

    /// The document and raw pointer of a location as messages show it.
    fn location(&self, shown: &str) -> (usize, String) {
        for (index, doc) in self.resources.docs.iter().enumerate().skip(1) {
            if let Some(rest) = shown.strip_prefix(doc.file.as_str())
                && let Some(pointer) = rest.strip_prefix('#')
            {
                return (index, pointer.to_owned());
            }
        }
        (0, shown.to_owned())
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

    /// Records what the generated types will not enforce at `pointer`.
    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        self.warnings
            .push(Warning::new(self.file, pointer, message));
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
            let stem = crate::schema_file::stem(self.file);
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
            warnings: std::mem::take(&mut self.warnings),
            index,
            resolved: Vec::new(),
        };
        let mut model = model;
        for (pointer, message, reach) in unenforced::unenforced(self.resources, 0, "") {
            model
                .warnings
                .push(Warning::new(self.file, &pointer, message).reaching(reach));
        }
        let mut targets: Vec<&Target> = self.by_target.keys().collect();
        targets.sort_by_key(|t| target_order(t));
        for target in targets {
            if let Target::Schema { doc, pointer } = target
                && *doc != 0
            {
                for (at, message, reach) in unenforced::unenforced(self.resources, *doc, pointer) {
                    let shown = self.display_pointer(*doc, &at);
                    model
                        .warnings
                        .push(Warning::new(self.file, &shown, message).reaching(reach));
                }
            }
        }
        post::finish(&mut model);
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
                parties: directions::parties(info),
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

    /// The def name the `$ref` at `pointer` (the keyword's own pointer) points at.
    fn ref_target(&self, reference: &str, pointer: &str) -> Result<String> {
        let (doc, raw) = self.location(pointer);
        let resolved = match self.resources.target(doc, &raw, reference) {
            Some(resolved) => resolved,
            None => {
                return Err(self.err(pointer, format!("`$ref` {reference:?} was not resolved")));
            }
        };
        match resolved {
            Err(message) => Err(self.err(pointer, message.clone())),
            Ok(Target::Schema {
                doc: 0,
                pointer: target,
            }) if target.is_empty() => match self.root_type {
                Some(index) => Ok(self.defs[index].name.clone()),
                None => Err(self.err(
                    pointer,
                    "`$ref` points at the document root, which is not a type here",
                )),
            },
            Ok(target) => self.by_target.get(target).cloned().ok_or_else(|| {
                self.err(
                    pointer,
                    format!("`$ref` {reference:?} points at a document root that is not a type"),
                )
            }),
        }
    }

    /// The schema of def `name`, following plain `$ref` aliases (for peeking at shapes).
    fn def_object(&self, name: &str) -> Option<&'a Map<String, Value>> {
        let mut current = self.by_name.get(name).copied()?;
        for _ in 0..=self.defs.len() {
            let schema = self.def_schema(current)?;
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) if !schema.keys().any(|k| is_structural(k)) => {
                    let at = join(&self.defs[current].pointer, "$ref");
                    let next = self.ref_target(reference, &at).ok()?;
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

        // `$dynamicRef` is read as a `$ref` to its anchor (its static scope).
        let reference_key = ["$ref", "$dynamicRef"]
            .into_iter()
            .find(|k| object.contains_key(*k));
        if let Some(key) = reference_key {
            let reference = &object[key];
            let ref_pointer = join(pointer, key);
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
                self.warn(
                    &join(pointer, "const"),
                    "a `const` array or object is typed as one of its kind (an array or a map of any JSON); the exact value is not enforced",
                );
                return Ok(Shape::Expr(match value {
                    Value::Array(_) => TypeExpr::Array(Box::new(TypeExpr::Any)),
                    _ => TypeExpr::Map(Box::new(TypeExpr::Any)),
                }));
            };
            return Ok(Shape::Expr(TypeExpr::Literal(literal)));
        }
        if let Some(values) = object.get("enum") {
            return self.enumeration(object, values, pointer);
        }
        if let Some(shape) = self.documented_enum(object, pointer)? {
            return Ok(shape);
        }
        if let Some(distributed) = rewrite::distribute_type(object) {
            return self.shape_inner(&distributed, pointer, ctx);
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
        for key in ["$recursiveRef", "$recursiveAnchor"] {
            if object.contains_key(key) {
                return Err(self.err(
                    &join(pointer, key),
                    format!(
                        "`{key}` belongs to draft 2019-09; this document declares another draft"
                    ),
                ));
            }
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
        // Every kind of JSON value and nothing else said: any JSON.
        let every_kind = ["array", "boolean", "null", "number", "object", "string"]
            .iter()
            .all(|kind| names.contains(kind));
        let only_type = object
            .keys()
            .all(|k| k == "type" || ANNOTATIONS.contains(&k.as_str()) || is_extension(k));
        if every_kind && only_type {
            return Ok(Shape::Expr(TypeExpr::Any));
        }
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
                        first_match: self.root.contains_key("x-symgen-protocol"),
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
            if ty.is_none()
                && ["properties", "additionalProperties", "patternProperties"]
                    .iter()
                    .any(|k| object.contains_key(*k))
            {
                // JSON Schema lets any non-object through such a schema; the generated
                // types take the author's evident intent, an object.
                self.warnings.push(
                    Warning::new(
                        self.file,
                        pointer,
                        "no `type`: this schema describes an object and is typed as one; a value that is not an object, which the schema allows, would be rejected",
                    )
                    .reaching(Reach::Nothing),
                );
            }
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
            // `{type: string, anyOf: [{pattern}, {format}]}`: the alternatives only
            // validate (`rewrite::distribute_type` took the others).
            for key in ["oneOf", "anyOf"] {
                if object.contains_key(key) {
                    self.warn(
                        &join(pointer, key),
                        format!("`{key}` of validation-only alternatives is not enforced by the generated types"),
                    );
                }
            }
        }
        Ok(Shape::Expr(expr))
    }
}

/// Orders `$ref` targets deterministically: by document, then pointer.
fn target_order(target: &Target) -> (usize, String) {
    match target {
        Target::MetaSchema => (usize::MAX, String::new()),
        Target::Schema { doc, pointer } => (*doc, pointer.clone()),
    }
}

/// Def names for the schema at `pointer`, best first: [`name_from_pointer`], then that
/// name after more and more of the names around it (`…/allow/items/properties/name`
/// and `…/ignore/items/properties/name`: `name`, then `IgnoreName`), so that two
/// schemas of one name get names that say where they are rather than a number.
fn names_from_pointer(pointer: &str, file: &str) -> Vec<String> {
    let first = name_from_pointer(pointer, file);
    let segments = pointer_segments(pointer);
    let named: Vec<&str> = segments
        .iter()
        .map(String::as_str)
        .filter(|s| !is_container(s) && !is_pointer_keyword(s))
        .collect();
    let mut names = vec![first.clone()];
    for k in 1..named.len() {
        let prefix = named[named.len() - 1 - k..named.len() - 1].join(" ");
        names.push(pascal_case(&format!("{prefix} {first}")));
    }
    names
}

/// A pointer's segments, unescaped.
fn pointer_segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| crate::json_pointer::unescape(s).into_owned())
        .collect()
}

/// A segment that holds named schemas (`properties`, `$defs`, …).
fn is_container(segment: &str) -> bool {
    matches!(
        segment,
        "properties" | "$defs" | "definitions" | "patternProperties"
    )
}

/// A segment that is no name: an array index or a keyword holding one schema.
fn is_pointer_keyword(segment: &str) -> bool {
    segment.chars().all(|c| c.is_ascii_digit())
        || matches!(
            segment,
            "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "allOf"
                | "anyOf"
                | "oneOf"
                | "prefixItems"
        )
}

/// A def name for the schema at `pointer`: its last name-like segment (array indices
/// and keywords join the segment before them), or the file's stem for a document root.
fn name_from_pointer(pointer: &str, file: &str) -> String {
    let segments = pointer_segments(pointer);
    let mut parts: Vec<&str> = Vec::new();
    for segment in segments.iter().rev() {
        if is_container(segment) {
            if parts.is_empty() {
                continue;
            }
            break;
        }
        parts.push(segment);
        if !is_pointer_keyword(segment) {
            break;
        }
    }
    if parts.is_empty() {
        let stem = crate::schema_file::stem(file);
        return pascal_case(stem);
    }
    parts.reverse();
    if parts.len() == 1 {
        parts[0].to_owned()
    } else {
        pascal_case(&parts.join(" "))
    }
}
