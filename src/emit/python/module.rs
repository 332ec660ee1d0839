//! One model → the declarations of one Python module: a pydantic class per record and
//! per union variant, a type alias per enum, union and alias, the codecs of the roots
//! and of typed reply data, and the imports all of that uses.
//!
//! Decisions (see `docs/python.md`): wire names are field aliases; presence follows
//! rule R3 (`T | None = None` omitted when `None`, required nullable fields kept as
//! `null`); tagged unions are discriminated unions of one class per variant (shared
//! fields in a `…Base` class, an `…Unknown` class keeping every key for open unions),
//! untagged unions try their variants in order; closed enums are `Literal` types;
//! integers carry their width's range.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use super::layout::{self, Py, assignment, docstring};
use super::names::{self, Scope};
use super::view::{
    Alias, Attr, Check, Class, Decl, RecursiveAlias, ReplyCodec, ReplyMethod, RootCodec,
};
use crate::emit::doc::DocBlock;
use crate::emit::text::indented;
use crate::emit::{EmitError, Module};
use crate::model::{
    Additional, Constraint, Docs, Enum, Field, IntType, IntWidth, Literal, Model, NamedType,
    Payload, Record, Reply, Tagging, TypeExpr, TypeKind, Union, Variant,
};

const LANGUAGE: &str = "python";

/// What one module declares, ready for its template.
#[derive(Debug, Default)]
pub struct ModuleView {
    /// The module docstring's lines (the template adds the "generated" line).
    pub doc: Vec<String>,
    /// The import statements (`from typing import …`, pydantic, the runtime), laid out.
    pub imports: Vec<String>,
    /// The declarations, each after the ones it needs at import time.
    pub decls: Vec<Decl>,
    /// The roots' codecs.
    pub roots: Vec<RootCodec>,
    /// The reply data codecs.
    pub reply_codecs: Vec<ReplyCodec>,
    /// `ROOTS = {...}`, laid out.
    pub roots_line: String,
    /// `REPLIES = {...}`, laid out.
    pub replies_line: String,
    /// `REPLY_DATA = ...`, laid out.
    pub reply_data_line: String,
    /// `PROTOCOL = ...`, laid out.
    pub protocol_line: String,
    /// `VECTORS = ...`, laid out.
    pub vectors_line: String,
}

/// The imports a module uses, by source.
#[derive(Debug, Clone, Default)]
struct Imports {
    typing: BTreeSet<&'static str>,
    extensions: BTreeSet<&'static str>,
    pydantic: BTreeSet<&'static str>,
    runtime: BTreeSet<&'static str>,
}

/// A declaration with the module-level names it needs when the module is imported
/// (base classes, names inside alias values).
struct Planned {
    decl: Decl,
    needs: BTreeSet<String>,
    /// An alias's value, for re-rendering it when it is part of a cycle.
    value: Option<Py>,
}

/// Renders `module` into a module view. `modules` are the package's modules with
/// their Python module names, for the types `module` imports from them.
pub fn render_module(
    module: &Module,
    modules: &[(&Module, String)],
) -> Result<ModuleView, EmitError> {
    let model = &module.model;
    let mut planner = Planner::new(model, &module.file_name);
    planner.stem = module.stem.clone();
    for (stem, group) in module.imports_by_module() {
        let Some((home, python)) = modules.iter().find(|(m, _)| m.stem == stem) else {
            continue;
        };
        let (home_names, _) = class_names(&home.model);
        // isort's layout (ruff's defaults): the plain names in one statement and one
        // statement per renamed import, ordered by the first name each imports.
        let mut plain = Vec::new();
        let mut renamed = Vec::new();
        for import in group {
            let exported = home_names
                .get(import.home_name.as_str())
                .cloned()
                .unwrap_or_else(|| names::class(&import.home_name));
            let local = planner.names[import.name.as_str()].clone();
            if exported == local {
                plain.push(local);
            } else {
                renamed.push((exported, local));
            }
        }
        sort_names(&mut plain);
        let mut statements: Vec<(String, Vec<String>)> = Vec::new();
        if let Some(first) = plain.first() {
            statements.push((first.clone(), plain));
        }
        for (exported, local) in renamed {
            statements.push((exported.clone(), vec![format!("{exported} as {local}")]));
        }
        statements.sort_by_cached_key(|(first, _)| import_key(first));
        for (_, names) in statements {
            planner.siblings.push((format!(".{python}"), names));
        }
    }
    for ty in model.types.iter().filter(|t| module.renders(&t.name)) {
        planner.named(ty)?;
    }
    planner.finish()
}

/// The Python class name of every type of `model`, and the scope that holds them.
fn class_names(model: &Model) -> (HashMap<&str, String>, Scope) {
    let mut scope = Scope::with_reserved(names::RESERVED_TYPES);
    let mut names = HashMap::new();
    // Names usable as they are keep them; converted ones come second, so a converted
    // name never takes a name the schema spelled exactly.
    for ty in &model.types {
        let name = names::class(&ty.name);
        if name == ty.name && scope.try_claim(&name) {
            names.insert(ty.name.as_str(), name);
        }
    }
    for ty in &model.types {
        if !names.contains_key(ty.name.as_str()) {
            let name = scope.claim(names::class(&ty.name));
            names.insert(ty.name.as_str(), name);
        }
    }
    (names, scope)
}

struct Planner<'m> {
    model: &'m Model,
    file: &'m str,
    /// Model type name → Python name.
    names: HashMap<&'m str, String>,
    /// Module-level names taken.
    scope: Scope,
    imports: Imports,
    planned: Vec<Planned>,
    reply_codecs: Vec<ReplyCodec>,
    /// Reply data type (flat) → the constant of its codec.
    reply_types: HashMap<String, String>,
    replies: Vec<(String, String)>,
    /// Model names referenced by the value being built (eager module-level needs).
    refs: BTreeSet<String>,
    /// The schema file's stem (the vector directory of a schema that is no protocol).
    stem: String,
    /// `(".module", names)`: the types other modules of the package declare, imported.
    siblings: Vec<(String, Vec<String>)>,
}

fn doc_lines(docs: &Docs, notes: &[String]) -> Vec<String> {
    let block = notes
        .iter()
        .fold(DocBlock::new(docs), |block, note| block.note(note));
    let mut lines = block.lines();
    if block.is_deprecated() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push("Deprecated.".to_owned());
    }
    lines
}

/// A literal value inside `Literal[...]`.
fn literal_atom(value: &Literal) -> Py {
    match value {
        Literal::String(s) => Py::string(s),
        Literal::Number(n) => Py::atom(n.to_string()),
        Literal::Bool(true) => Py::atom("True"),
        Literal::Bool(false) => Py::atom("False"),
        Literal::Null => Py::atom("None"),
    }
}

/// A literal as a Python value.
fn literal_value(value: &Literal) -> Py {
    match value {
        Literal::Number(n) => Py::atom(layout::number(n)),
        other => literal_atom(other),
    }
}

/// The Python type of a tag's `symgen_tag` class variable.
fn literal_class(value: &Literal) -> &'static str {
    match value {
        Literal::String(_) => "str",
        Literal::Number(n) if n.is_i64() || n.is_u64() => "int",
        Literal::Number(_) => "float",
        Literal::Bool(_) => "bool",
        Literal::Null => "None",
    }
}

fn width_name(width: IntWidth) -> &'static str {
    match width {
        IntWidth::I8 => "Int8",
        IntWidth::I16 => "Int16",
        IntWidth::I32 => "Int32",
        IntWidth::I64 => "Int64",
        IntWidth::U8 => "UInt8",
        IntWidth::U16 => "UInt16",
        IntWidth::U32 => "UInt32",
        IntWidth::U64 => "UInt64",
    }
}

/// Whether a default value can be written as it is (`= 5`) for a field of type `ty`:
/// scalars of scalar types. Anything else is built by a factory and validated.
fn plain_default(value: &Value, ty: &TypeExpr, model: &Model) -> bool {
    let scalar_value = matches!(value, Value::Bool(_) | Value::Number(_) | Value::String(_));
    let scalar_type = match ty.non_null() {
        TypeExpr::Bool | TypeExpr::String(_) | TypeExpr::Literal(_) => true,
        TypeExpr::Integer(_) => value.is_i64() || value.is_u64(),
        TypeExpr::Number(_) => true,
        TypeExpr::Ref(name) => matches!(
            model.resolve(name).map(|t| &t.kind),
            Some(TypeKind::Enum(e)) if e.aliases_are_empty()
        ),
        _ => false,
    };
    scalar_value && scalar_type
}

trait EnumExt {
    fn aliases_are_empty(&self) -> bool;
}

impl EnumExt for Enum {
    fn aliases_are_empty(&self) -> bool {
        self.values.iter().all(|v| v.aliases.is_empty())
    }
}

impl<'m> Planner<'m> {
    fn new(model: &'m Model, file: &'m str) -> Self {
        let (names, scope) = class_names(model);
        Planner {
            model,
            file,
            names,
            scope,
            imports: Imports::default(),
            planned: Vec::new(),
            reply_codecs: Vec::new(),
            reply_types: HashMap::new(),
            replies: Vec::new(),
            refs: BTreeSet::new(),
            stem: String::new(),
            siblings: Vec::new(),
        }
    }

    fn error(&self, pointer: &str, message: impl Into<String>) -> EmitError {
        EmitError::new(LANGUAGE, self.file, pointer, message)
    }

    fn typing(&mut self, name: &'static str) -> Py {
        self.imports.typing.insert(name);
        Py::atom(name)
    }

    fn pydantic(&mut self, name: &'static str) -> &'static str {
        self.imports.pydantic.insert(name);
        name
    }

    fn runtime(&mut self, name: &'static str) -> &'static str {
        self.imports.runtime.insert(name);
        name
    }

    fn name_of(&mut self, model_name: &str) -> String {
        self.refs.insert(model_name.to_owned());
        self.names
            .get(model_name)
            .cloned()
            .unwrap_or_else(|| names::class(model_name))
    }

    // ----- type expressions -------------------------------------------------------

    fn expr(&mut self, expr: &TypeExpr) -> Py {
        match expr {
            TypeExpr::Any => Py::atom(self.pydantic("JsonValue")),
            TypeExpr::Null => Py::atom("None"),
            TypeExpr::Bool => Py::atom("bool"),
            TypeExpr::Integer(int) => self.integer(int),
            // `NaN`, `Infinity` and `1e400` (infinite to jiter) are no number to serde.
            TypeExpr::Number(_) => Py::atom(self.pydantic("FiniteFloat")),
            TypeExpr::String(_) => Py::atom("str"),
            TypeExpr::Literal(value) => self.literal_type(value),
            TypeExpr::Array(item) => Py::sub("list", vec![self.expr(item)]),
            TypeExpr::Tuple(items) => {
                let items: Vec<Py> = items.iter().map(|item| self.expr(item)).collect();
                let tuple = if items.is_empty() {
                    Py::sub("tuple", vec![Py::atom("()")])
                } else {
                    Py::sub("tuple", items)
                };
                let annotated = self.typing("Annotated");
                let as_tuple = self.runtime("AS_TUPLE");
                Py::sub(annotated.flat(), vec![tuple, Py::atom(as_tuple)])
            }
            TypeExpr::Map(value) => Py::sub("dict", vec![Py::atom("str"), self.expr(value)]),
            TypeExpr::Ref(name) => Py::atom(self.name_of(name)),
            TypeExpr::Nullable(inner) => self.expr(inner).or_none(),
        }
    }

    /// An integer of its width and bounds; one that is not [`IntType::literal_only`]
    /// (a Rust `format`, a draft-04 document) also takes a whole float literal (`1.0`,
    /// `-0`), as JSON Schema's `integer` does (`WHOLE`).
    fn integer(&mut self, int: &IntType) -> Py {
        let width = Py::atom(self.runtime_width(int.width));
        let (low, high) = int.width.range();
        let mut bounds = Vec::new();
        if let Some(min) = int.minimum.filter(|&m| m > low) {
            bounds.push(Py::kw("ge", Py::atom(min.to_string())));
        }
        if let Some(max) = int.maximum.filter(|&m| m < high) {
            bounds.push(Py::kw("le", Py::atom(max.to_string())));
        }
        let mut marks = Vec::new();
        if !int.literal_only {
            marks.push(Py::atom(self.runtime("WHOLE")));
        }
        if !bounds.is_empty() {
            marks.push(Py::call(self.pydantic("Field"), bounds));
        }
        if marks.is_empty() {
            return width;
        }
        let annotated = self.typing("Annotated");
        Py::sub(
            annotated.flat(),
            std::iter::once(width).chain(marks).collect(),
        )
    }

    fn runtime_width(&mut self, width: IntWidth) -> &'static str {
        self.runtime(width_name(width))
    }

    fn literal_type(&mut self, value: &Literal) -> Py {
        match value {
            Literal::Null => Py::atom("None"),
            // `Literal[...]` cannot hold floats: an interval of one value instead.
            Literal::Number(n) if !(n.is_i64() || n.is_u64()) => {
                let annotated = self.typing("Annotated");
                let field = self.pydantic("Field");
                let n = Py::atom(layout::number(n));
                Py::sub(
                    annotated.flat(),
                    vec![
                        Py::atom("float"),
                        Py::call(field, vec![Py::kw("ge", n.clone()), Py::kw("le", n)]),
                    ],
                )
            }
            other => {
                let literal = self.typing("Literal");
                Py::sub(literal.flat(), vec![literal_atom(other)])
            }
        }
    }

    // ----- fields ---------------------------------------------------------------

    /// The `Field(...)` call or plain default of a field, from its keyword arguments.
    fn field_value(&mut self, default: Option<Py>, mut keywords: Vec<Py>) -> Option<Py> {
        match (default, keywords.is_empty()) {
            (None, true) => None,
            (Some(value), true) => Some(value),
            (default, false) => {
                if let Some(value) = default {
                    keywords.insert(0, Py::kw("default", value));
                }
                Some(Py::call(self.pydantic("Field"), keywords))
            }
        }
    }

    /// The annotation and value of one field (attribute `attribute`).
    fn field(&mut self, field: &Field, attribute: &str, indent: usize) -> Result<Attr, EmitError> {
        let mut keywords = Vec::new();
        if attribute != field.name || !field.aliases.is_empty() {
            keywords.push(Py::kw("alias", Py::string(&field.name)));
        }
        if !field.aliases.is_empty() {
            let choices = self.pydantic("AliasChoices");
            let names = std::iter::once(&field.name)
                .chain(&field.aliases)
                .map(|n| Py::string(n))
                .collect();
            keywords.push(Py::kw("validation_alias", Py::call(choices, names)));
        }
        let nullable = field.ty.is_nullable();
        let default = field.default.as_ref().filter(|d| !d.is_null());
        let (annotation, value) = match (&field.ty, field.required) {
            // A constant: `Literal["2.0"]`, defaulting to itself when optional (then
            // always sent, as serde and the other languages do).
            (TypeExpr::Literal(value), required) => {
                let ty = self.literal_type(value);
                let default = (!required).then(|| literal_value(value));
                (ty, self.field_value(default, keywords))
            }
            (TypeExpr::Any, true) => (self.expr(&field.ty), self.field_value(None, keywords)),
            (_, false) if default.is_some() => {
                let default = default.expect("checked");
                let mut ty = self.expr(field.ty.non_null());
                if nullable && self.model.protocol.is_none() {
                    // A schema symgen did not write: `null` is a value of its own (the
                    // default is for absence), kept as `None` and left out on encoding.
                    ty = self.expr(&field.ty);
                    let is_none = self.runtime("is_none");
                    keywords.push(Py::kw("exclude_if", Py::atom(is_none)));
                } else if nullable {
                    // `null` stands for absent (R3): the default.
                    let annotated = self.typing("Annotated");
                    let use_default = self.runtime("DEFAULT_IF_NULL");
                    ty = Py::sub(annotated.flat(), vec![ty, Py::atom(use_default)]);
                }
                if plain_default(default, &field.ty, self.model) {
                    (
                        ty,
                        self.field_value(Some(layout::literal(default)), keywords),
                    )
                } else {
                    // An empty container's factory is its type (ruff's PIE807).
                    let factory = match default {
                        serde_json::Value::Array(items) if items.is_empty() => Py::atom("list"),
                        serde_json::Value::Object(map) if map.is_empty() => Py::atom("dict"),
                        _ => Py::Lambda(Box::new(layout::literal(default))),
                    };
                    keywords.insert(0, Py::kw("default_factory", factory));
                    keywords.push(Py::kw("validate_default", Py::atom("True")));
                    (ty, self.field_value(None, keywords))
                }
            }
            (_, true) => (self.expr(&field.ty), self.field_value(None, keywords)),
            (_, false) => {
                let ty = match &field.ty {
                    TypeExpr::Any => self.expr(&field.ty),
                    ty if nullable => self.expr(ty),
                    ty => {
                        // Absent is fine, `null` is not: the type says `None` (absent),
                        // the validator refuses a `null` on the wire.
                        let inner = self.expr(ty).or_none();
                        let annotated = self.typing("Annotated");
                        let not_null = self.runtime("NOT_NULL");
                        Py::sub(annotated.flat(), vec![inner, Py::atom(not_null)])
                    }
                };
                let is_none = self.runtime("is_none");
                keywords.push(Py::kw("exclude_if", Py::atom(is_none)));
                (ty, self.field_value(Some(Py::atom("None")), keywords))
            }
        };
        let line = assignment(indent, attribute, Some(&annotation), value.as_ref());
        let doc = docstring(indent, &doc_lines(&field.docs, &[]));
        Ok(Attr { line, doc })
    }

    /// Plans attribute names for `fields` in `scope`.
    fn attributes(fields: &[Field], scope: &mut Scope) -> Vec<String> {
        fields
            .iter()
            .map(|f| scope.claim(names::attribute(&f.name)))
            .collect()
    }

    /// The before-validator that refuses a field spelled twice, when any field has
    /// input aliases.
    fn names_check(&mut self, class: &str, fields: &[Field]) -> Option<Check> {
        let spellings: Vec<Py> = fields
            .iter()
            .filter(|f| !f.aliases.is_empty())
            .map(|f| {
                Py::Tuple(
                    std::iter::once(&f.name)
                        .chain(&f.aliases)
                        .map(|n| Py::string(n))
                        .collect(),
                )
            })
            .collect();
        if spellings.is_empty() {
            return None;
        }
        self.pydantic("model_validator");
        let check = self.runtime("one_name_each");
        let mut args = vec![Py::atom("data")];
        args.extend(spellings);
        let call = Py::call(check, args);
        let method = format!("_names_{}", names::snake(class, "c"));
        Some(Check {
            head: layout::def_head(4, &method, &["cls", "data: object"], "object"),
            calls: vec![layout::return_statement(8, &call)],
        })
    }

    /// The after-validator of a record's cross-field rules.
    fn rules_check(
        &mut self,
        class: &str,
        record: &Record,
        attributes: &HashMap<&str, &str>,
    ) -> Option<Check> {
        if record.constraints.is_empty() {
            return None;
        }
        let pair = |wire: &str| -> Py {
            let attribute = attributes.get(wire).copied().unwrap_or(wire);
            Py::Tuple(vec![Py::string(attribute), Py::string(wire)])
        };
        let mut calls = Vec::new();
        for constraint in &record.constraints {
            let call = match constraint {
                Constraint::AtLeastOneOf(fields) => {
                    let check = self.runtime("at_least_one_of");
                    let mut args = vec![Py::atom("self")];
                    args.extend(fields.iter().map(|f| pair(f)));
                    Py::call(check, args)
                }
                Constraint::RequiredWhen {
                    field,
                    when,
                    values,
                } => {
                    let check = self.runtime("required_when");
                    let values = Py::Tuple(values.iter().map(literal_value).collect());
                    Py::call(
                        check,
                        vec![Py::atom("self"), pair(field), pair(when), values],
                    )
                }
            };
            calls.push(format!("        {}", call.layout(8, 8, 0)));
        }
        self.pydantic("model_validator");
        self.typing("Self");
        let method = format!("_rules_{}", names::snake(class, "c"));
        Some(Check {
            head: layout::def_head(4, &method, &["self"], "Self"),
            calls,
        })
    }

    /// Class-level lines for what a record allows besides its fields.
    fn additional(&mut self, additional: &Additional) -> Vec<String> {
        match additional {
            Additional::Allowed => Vec::new(),
            Additional::Forbidden => {
                let config = self.pydantic("ConfigDict");
                vec![assignment(
                    4,
                    "model_config",
                    None,
                    Some(&Py::call(
                        config,
                        vec![Py::kw("extra", Py::string("forbid"))],
                    )),
                )]
            }
            Additional::Typed(ty) => {
                let config = self.pydantic("ConfigDict");
                let value = self.expr(ty);
                let field = self.pydantic("Field");
                vec![
                    assignment(
                        4,
                        "model_config",
                        None,
                        Some(&Py::call(
                            config,
                            vec![Py::kw("extra", Py::string("allow"))],
                        )),
                    ),
                    assignment(
                        4,
                        "__pydantic_extra__",
                        Some(&Py::sub("dict", vec![Py::atom("str"), value])),
                        Some(&Py::call(field, vec![Py::kw("init", Py::atom("False"))])),
                    ),
                ]
            }
        }
    }

    /// The type `expr` names once references to aliases are followed.
    fn alias_target<'e>(&'e self, expr: &'e TypeExpr) -> &'e TypeExpr {
        let mut current = expr;
        for _ in 0..=self.model.types.len() {
            match current {
                TypeExpr::Ref(name) => match self.model.get(name).map(|t| &t.kind) {
                    Some(TypeKind::Alias(next)) => current = next,
                    _ => return current,
                },
                _ => return current,
            }
        }
        current
    }

    /// `expr` with every plain alias inside it replaced by what it names: what Python
    /// sees at run time (`list[A]` and `list[B]` are one type when `A` and `B` are
    /// both `str`). `unions` remembers, per untagged union, the one type it is (or its
    /// own name): each is expanded once, and one that contains itself stays a name.
    fn unaliased(
        &self,
        expr: &TypeExpr,
        unions: &mut HashMap<String, TypeExpr>,
        depth: usize,
    ) -> TypeExpr {
        if depth > 64 {
            return expr.clone();
        }
        let mut deeper = |inner: &TypeExpr| Box::new(self.unaliased(inner, unions, depth + 1));
        match self.alias_target(expr) {
            TypeExpr::Array(item) => TypeExpr::Array(deeper(item)),
            TypeExpr::Map(value) => TypeExpr::Map(deeper(value)),
            TypeExpr::Nullable(inner) => TypeExpr::Nullable(deeper(inner)),
            TypeExpr::Tuple(items) => TypeExpr::Tuple(items.iter().map(|i| *deeper(i)).collect()),
            TypeExpr::Ref(name) => {
                if let Some(known) = unions.get(name) {
                    return known.clone();
                }
                let Some(TypeKind::Union(union)) = self.model.get(name).map(|t| &t.kind) else {
                    return TypeExpr::Ref(name.clone());
                };
                // While it is expanded (and when it is not one type) it is its name.
                unions.insert(name.clone(), TypeExpr::Ref(name.clone()));
                if union.tagging != Tagging::Untagged {
                    return TypeExpr::Ref(name.clone());
                }
                // An untagged union of one type under several names is that type.
                let mut one: Option<TypeExpr> = None;
                for variant in &union.variants {
                    let Payload::Type(member) = &variant.payload else {
                        return TypeExpr::Ref(name.clone());
                    };
                    let member = self.unaliased(member, unions, depth + 1);
                    match &one {
                        Some(first) if *first != member => return TypeExpr::Ref(name.clone()),
                        Some(_) => {}
                        None => one = Some(member),
                    }
                }
                let collapsed = one.unwrap_or_else(|| TypeExpr::Ref(name.clone()));
                unions.insert(name.clone(), collapsed.clone());
                collapsed
            }
            other => other.clone(),
        }
    }

    // ----- named types ----------------------------------------------------------

    fn named(&mut self, ty: &'m NamedType) -> Result<(), EmitError> {
        let name = self.names[ty.name.as_str()].clone();
        match &ty.kind {
            TypeKind::Record(record) => {
                let class = self.record_class(&name, &ty.docs, record)?;
                self.push(Decl::Class(Box::new(class)), vec!["WireModel".to_owned()]);
            }
            TypeKind::Enum(e) => self.enumeration(&name, ty, e)?,
            TypeKind::Alias(expr) => {
                self.refs.clear();
                let value = self.expr(expr);
                self.alias(&name, value, doc_lines(&ty.docs, &[]));
            }
            TypeKind::Union(union) => self.union(&name, ty, union)?,
        }
        Ok(())
    }

    fn push(&mut self, decl: Decl, bases: Vec<String>) {
        let decl = match decl {
            Decl::Class(class) => Decl::Class(Box::new(class.finish())),
            other => other,
        };
        let mut needs: BTreeSet<String> = bases.into_iter().collect();
        if let Decl::Alias(_) = decl {
            for model_name in std::mem::take(&mut self.refs) {
                if let Some(name) = self.names.get(model_name.as_str()) {
                    needs.insert(name.clone());
                }
            }
        }
        self.planned.push(Planned {
            decl,
            needs,
            value: None,
        });
    }

    fn alias(&mut self, name: &str, value: Py, doc: Vec<String>) {
        let alias = self.typing("TypeAlias");
        let line = assignment(0, name, Some(&alias), Some(&value));
        let doc = docstring(0, &doc);
        self.push(
            Decl::Alias(Alias {
                name: name.to_owned(),
                line,
                doc,
            }),
            Vec::new(),
        );
        if let Some(planned) = self.planned.last_mut() {
            planned.value = Some(value);
        }
    }

    fn record_class(
        &mut self,
        name: &str,
        docs: &Docs,
        record: &Record,
    ) -> Result<Class, EmitError> {
        self.runtime("WireModel");
        let mut scope = Scope::default();
        let attributes = Self::attributes(&record.fields, &mut scope);
        let mut fields = Vec::new();
        for (field, attribute) in record.fields.iter().zip(&attributes) {
            fields.push(self.field(field, attribute, 4)?);
        }
        let by_wire: HashMap<&str, &str> = record
            .fields
            .iter()
            .zip(&attributes)
            .map(|(f, a)| (f.name.as_str(), a.as_str()))
            .collect();
        let head = self.additional(&record.additional);
        let names_check = self.names_check(name, &record.fields);
        let rules_check = self.rules_check(name, record, &by_wire);
        Ok(Class {
            name: name.to_owned(),
            bases: vec!["WireModel".to_owned()],
            doc: docstring(4, &doc_lines(docs, &[])),
            head,
            fields,
            names_check,
            rules_check,
            ..Class::default()
        })
    }

    fn enumeration(&mut self, name: &str, ty: &NamedType, e: &Enum) -> Result<(), EmitError> {
        let mut notes = Vec::new();
        let documented = e
            .values
            .iter()
            .any(|v| v.docs.description.is_some() || v.docs.title.is_some() || v.docs.deprecated);
        if documented || e.open {
            let mut list = String::from(if e.open {
                "Known values (others are kept as they are):"
            } else {
                "Values:"
            });
            for value in &e.values {
                let text = DocBlock::new(&value.docs).joined().unwrap_or_default();
                let deprecated = if value.docs.deprecated {
                    " (deprecated)"
                } else {
                    ""
                };
                let text = if text.is_empty() {
                    String::new()
                } else {
                    format!(": {}", text.replace('\n', " "))
                };
                list.push_str(&format!(
                    "\n- `{}`{deprecated}{text}",
                    value.value.to_json()
                ));
            }
            notes.push(list);
        }
        let aliases: Vec<Py> = e
            .values
            .iter()
            .flat_map(|v| {
                v.aliases
                    .iter()
                    .map(|a| Py::Tuple(vec![literal_value(a), literal_value(&v.value)]))
            })
            .collect();
        let base = if e.open {
            Py::atom("str")
        } else {
            // `Literal[...]` cannot hold fractional numbers: each is a one-value
            // interval beside it.
            let is_float =
                |v: &Literal| matches!(v, Literal::Number(n) if !(n.is_i64() || n.is_u64()));
            let mut members = Vec::new();
            let plain: Vec<Py> = e
                .values
                .iter()
                .filter(|v| !is_float(&v.value))
                .map(|v| literal_atom(&v.value))
                .collect();
            if !plain.is_empty() {
                let literal = self.typing("Literal");
                members.push(Py::sub(literal.flat(), plain));
            }
            for value in e.values.iter().filter(|v| is_float(&v.value)) {
                members.push(self.literal_type(&value.value));
            }
            if members.len() == 1 {
                members.remove(0)
            } else {
                Py::union(members)
            }
        };
        let value = if aliases.is_empty() {
            base
        } else {
            let annotated = self.typing("Annotated");
            let before = self.pydantic("BeforeValidator");
            let canonical = self.runtime("aliases");
            Py::sub(
                annotated.flat(),
                vec![base, Py::call(before, vec![Py::call(canonical, aliases)])],
            )
        };
        self.refs.clear();
        self.alias(name, value, doc_lines(&ty.docs, &notes));
        Ok(())
    }

    // ----- unions -------------------------------------------------------------------

    fn union(&mut self, name: &str, ty: &NamedType, union: &Union) -> Result<(), EmitError> {
        match &union.tagging {
            Tagging::Untagged => self.untagged(name, ty, union),
            Tagging::External => self.external(name, ty, union),
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                let content = match &union.tagging {
                    Tagging::Adjacent { content, .. } => Some(content.as_str()),
                    _ => None,
                };
                self.tagged(name, ty, union, tag, content)
            }
        }
    }

    fn variant_class_name(&mut self, union: &str, variant: &str) -> String {
        let name = format!("{union}{}", names::class(variant).trim_end_matches('_'));
        self.scope.claim(name)
    }

    fn tag_class_var(&mut self, tag: &Literal) -> String {
        let class_var = self.typing("ClassVar");
        assignment(
            4,
            "symgen_tag",
            Some(&Py::sub(
                class_var.flat(),
                vec![Py::atom(literal_class(tag))],
            )),
            Some(&literal_value(tag)),
        )
    }

    /// A request's `decode_reply` and the codec it uses.
    fn reply_method(
        &mut self,
        class: &str,
        variant: &Variant,
    ) -> Result<Option<ReplyMethod>, EmitError> {
        let Reply::Data(data) = &variant.reply else {
            return Ok(None);
        };
        let ty = self.expr(data);
        self.refs.clear();
        let _ = class;
        let constant = match self.reply_types.get(&ty.flat()) {
            Some(constant) => constant.clone(),
            None => {
                let constant = self
                    .scope
                    .claim(format!("_{}_REPLY", names::constant(&variant.name)));
                let codec = self.runtime("Codec");
                let line = assignment(
                    0,
                    &constant,
                    Some(&Py::sub(codec, vec![ty.clone()])),
                    Some(&Py::call(codec, self.codec_args(ty.clone()))),
                );
                self.reply_codecs.push(ReplyCodec { line });
                self.reply_types.insert(ty.flat(), constant.clone());
                constant
            }
        };
        self.pydantic("JsonValue");
        for tag in variant.tag.iter().chain(&variant.tag_aliases) {
            if let Some(tag) = tag.as_str() {
                self.replies.push((layout::string(tag), constant.clone()));
            }
        }
        let call = Py::call(format!("{constant}.decode_value"), vec![Py::atom("data")]);
        Ok(Some(ReplyMethod {
            head: layout::def_head(4, "decode_reply", &["data: JsonValue"], &ty.flat()),
            body: layout::return_statement(8, &call),
        }))
    }

    fn tagged(
        &mut self,
        name: &str,
        ty: &NamedType,
        union: &Union,
        tag: &str,
        content: Option<&str>,
    ) -> Result<(), EmitError> {
        self.runtime("WireModel");
        // Shared fields live in a base class every variant extends.
        let mut shared_scope = Scope::default();
        let shared_attributes = Self::attributes(&union.fields, &mut shared_scope);
        let base = if union.fields.is_empty() {
            None
        } else {
            let base_name = self.scope.claim(format!("{name}Base"));
            let mut fields = Vec::new();
            for (field, attribute) in union.fields.iter().zip(&shared_attributes) {
                fields.push(self.field(field, attribute, 4)?);
            }
            let names_check = self.names_check(&base_name, &union.fields);
            let class = Class {
                name: base_name.clone(),
                bases: vec!["WireModel".to_owned()],
                doc: docstring(4, &[format!("The fields every `{name}` carries.")]),
                fields,
                names_check,
                ..Class::default()
            };
            self.push(Decl::Class(Box::new(class)), vec!["WireModel".to_owned()]);
            Some(base_name)
        };
        let tag_attribute = shared_scope.claim(names::attribute(tag));
        let mut members = Vec::new();
        let mut tags = Vec::new();
        let mut tag_aliases = Vec::new();
        for variant in &union.variants {
            let Some(tag_value) = &variant.tag else {
                return Err(self.error(&variant.pointer, "a tagged union variant without a tag"));
            };
            let class_name = self.variant_class_name(name, &variant.name);
            let mut scope = shared_scope.clone();
            let mut bases: Vec<String> = base.iter().cloned().collect();
            let mut fields = Vec::new();
            let mut names_check = None;
            // A variant of a schema symgen did not write keeps the keys it does not
            // declare, as its open objects do.
            let mut extra = self
                .model
                .protocol
                .is_none()
                .then_some(Additional::Typed(TypeExpr::Any));
            let mut tag_scope_attribute = tag_attribute.clone();
            match (&variant.payload, content) {
                (Payload::Unit, _) => {}
                (Payload::Fields(own), None) => {
                    let attributes = Self::attributes(own, &mut scope);
                    for (field, attribute) in own.iter().zip(&attributes) {
                        fields.push(self.field(field, attribute, 4)?);
                    }
                    names_check = self.names_check(&class_name, own);
                }
                (Payload::Type(payload), None) => {
                    // The variant is the record plus the tag; a payload that is not a
                    // record keeps every key beside the tag (typed as the map's values
                    // when it is a map).
                    let record = match payload.non_null() {
                        TypeExpr::Ref(target) => self
                            .model
                            .resolve(target)
                            .filter(|t| matches!(t.kind, TypeKind::Record(_))),
                        _ => None,
                    };
                    match record {
                        Some(resolved) => {
                            let TypeKind::Record(record) = &resolved.kind else {
                                unreachable!("filtered to records");
                            };
                            let record_name = self.names[resolved.name.as_str()].clone();
                            let taken = Self::attributes(&record.fields, &mut Scope::default());
                            if let Some(i) = record.fields.iter().position(|f| f.name == tag) {
                                // The record declares the tag itself (OpenAPI style):
                                // the variant narrows that field.
                                tag_scope_attribute = taken[i].clone();
                            } else if taken.contains(&tag_scope_attribute) {
                                tag_scope_attribute = format!("{tag_scope_attribute}_tag");
                            }
                            bases.push(record_name);
                            // A record that forbids or types other keys says so in
                            // its own config, which the variant inherits.
                            if record.additional != Additional::Allowed {
                                extra = None;
                            }
                        }
                        None => {
                            let value = match payload.non_null() {
                                TypeExpr::Map(value) => (**value).clone(),
                                _ => TypeExpr::Any,
                            };
                            extra = Some(Additional::Typed(value));
                        }
                    }
                }
                (Payload::Content(field), Some(_)) => {
                    let attribute = scope.claim(names::attribute(&field.name));
                    let envelope = !union.fields.is_empty();
                    fields.push(self.content_field(field, &attribute, envelope)?);
                }
                _ => {
                    return Err(self.error(
                        &variant.pointer,
                        "a variant shape this tagging does not have",
                    ));
                }
            }
            if bases.is_empty() {
                bases.push("WireModel".to_owned());
            }
            // The tag comes first among the variant's own fields.
            let tag_field = self.tag_field(
                tag,
                &tag_scope_attribute,
                tag_value,
                &variant.tag_aliases,
                union.variants.len() == 1 && union.unknown.is_none(),
            );
            fields.insert(0, tag_field);
            let reply = self.reply_method(&class_name, variant)?;
            let mut head = match &extra {
                Some(additional) => self.additional(additional),
                None => Vec::new(),
            };
            head.push(self.tag_class_var(tag_value));
            let mut notes = Vec::new();
            if let Reply::None = variant.reply {
                notes.push("The receiver sends no reply.".to_owned());
            }
            let class = Class {
                name: class_name.clone(),
                bases: bases.clone(),
                doc: docstring(4, &doc_lines(&variant.docs, &notes)),
                head,
                fields,
                names_check,
                reply,
                ..Class::default()
            };
            self.push(Decl::Class(Box::new(class)), bases);
            // `Annotated[Class, variant(tag)]`: imported below, unless the union is a
            // single class.
            members.push(Py::sub(
                "Annotated",
                vec![
                    Py::atom(&class_name),
                    Py::call("variant", vec![literal_value(tag_value)]),
                ],
            ));
            tags.push(literal_value(tag_value));
            for alias in &variant.tag_aliases {
                tag_aliases.push(Py::Tuple(vec![
                    literal_value(alias),
                    literal_value(tag_value),
                ]));
            }
        }
        if let Some(unknown) = &union.unknown {
            let class_name = self.variant_class_name(name, &unknown.name);
            let mut bases: Vec<String> = base.iter().cloned().collect();
            bases.push(self.runtime("UnknownVariant").to_owned());
            let mut keywords = Vec::new();
            if tag_attribute != tag {
                keywords.push(Py::kw("alias", Py::string(tag)));
            }
            let value = self.field_value(None, keywords);
            let field = Attr {
                line: assignment(4, &tag_attribute, Some(&Py::atom("str")), value.as_ref()),
                doc: docstring(4, &["The tag this version does not know.".to_owned()]),
            };
            let mut lines = doc_lines(&unknown.docs, &[]);
            if lines.is_empty() {
                lines.push(format!("A `{name}` whose `{tag}` this version does not know (rule R4): every key is kept and encoded back unchanged."));
            }
            let class = Class {
                name: class_name.clone(),
                bases: bases.clone(),
                doc: docstring(4, &lines),
                fields: vec![field],
                ..Class::default()
            };
            self.push(Decl::Class(Box::new(class)), bases);
            members.push(Py::sub(
                "Annotated",
                vec![Py::atom(&class_name), Py::atom("UNKNOWN")],
            ));
        }
        if members.len() == 1 {
            // One closed variant: the class itself (its tag is required).
            let Py::Subscript(_, parts) = members.remove(0) else {
                unreachable!("members are subscripts");
            };
            self.refs.clear();
            let value = parts.into_iter().next().expect("class");
            self.alias_with_needs(name, value, doc_lines(&ty.docs, &[]));
            return Ok(());
        }
        if !union.variants.is_empty() {
            self.runtime("variant");
        }
        if union.unknown.is_some() {
            self.runtime("UNKNOWN");
        }
        let tagged = self.runtime("tagged");
        let mut args = vec![Py::string(tag), Py::Tuple(tags)];
        if !tag_aliases.is_empty() {
            args.push(Py::kw("aliases", Py::Tuple(tag_aliases)));
        }
        if union.unknown.is_some() {
            args.push(Py::kw("unknown", Py::atom("True")));
        }
        let annotated = self.typing("Annotated");
        let value = Py::sub(
            annotated.flat(),
            vec![Py::union(members), Py::call(tagged, args)],
        );
        self.alias_with_needs(name, value, doc_lines(&ty.docs, &[]));
        Ok(())
    }

    /// An alias whose value names the classes just declared (they must come first).
    fn alias_with_needs(&mut self, name: &str, value: Py, doc: Vec<String>) {
        let needs = classes_in(&value);
        let alias = self.typing("TypeAlias");
        let line = assignment(0, name, Some(&alias), Some(&value));
        self.refs.clear();
        self.planned.push(Planned {
            decl: Decl::Alias(Alias {
                name: name.to_owned(),
                line,
                doc: docstring(0, &doc),
            }),
            needs,
            value: Some(value),
        });
    }

    fn tag_field(
        &mut self,
        tag: &str,
        attribute: &str,
        value: &Literal,
        aliases: &[Literal],
        required: bool,
    ) -> Attr {
        let mut ty = self.literal_type(value);
        if !aliases.is_empty() {
            let annotated = self.typing("Annotated");
            let before = self.pydantic("BeforeValidator");
            let canonical = self.runtime("aliases");
            let pairs = aliases
                .iter()
                .map(|a| Py::Tuple(vec![literal_value(a), literal_value(value)]))
                .collect();
            ty = Py::sub(
                annotated.flat(),
                vec![ty, Py::call(before, vec![Py::call(canonical, pairs)])],
            );
        }
        let mut keywords = Vec::new();
        if attribute != tag {
            keywords.push(Py::kw("alias", Py::string(tag)));
        }
        let default = (!required).then(|| literal_value(value));
        let field_value = self.field_value(default, keywords);
        Attr {
            line: assignment(4, attribute, Some(&ty), field_value.as_ref()),
            doc: None,
        }
    }

    /// The content field of an adjacently tagged variant: absent or `null` content of
    /// an object type stands for `{}` when the content is optional or nullable (R3).
    fn content_field(
        &mut self,
        field: &Field,
        attribute: &str,
        envelope: bool,
    ) -> Result<Attr, EmitError> {
        let object = match field.ty.non_null() {
            TypeExpr::Ref(name) => matches!(
                self.model.resolve(name).map(|t| &t.kind),
                Some(TypeKind::Record(_))
            ),
            TypeExpr::Map(_) => true,
            _ => false,
        };
        let required = field.required && !field.ty.is_nullable();
        if !object || (required && !envelope) {
            return self.field(field, attribute, 4);
        }
        let inner = self.expr(field.ty.non_null());
        let annotated = self.typing("Annotated");
        let (validator, factory) = if required {
            // An envelope's required content: absent or `null` is an error, located
            // like the validator locates it (at what `{}` would lack).
            let check = self.runtime("REQUIRED_CONTENT");
            (check, self.runtime("absent"))
        } else {
            (self.runtime("EMPTY_IF_NULL"), "dict")
        };
        let ty = Py::sub(annotated.flat(), vec![inner, Py::atom(validator)]);
        let mut keywords = vec![
            Py::kw("default_factory", Py::atom(factory)),
            Py::kw("validate_default", Py::atom("True")),
        ];
        if attribute != field.name {
            keywords.insert(0, Py::kw("alias", Py::string(&field.name)));
        }
        let value = self.field_value(None, keywords);
        Ok(Attr {
            line: assignment(4, attribute, Some(&ty), value.as_ref()),
            doc: docstring(4, &doc_lines(&field.docs, &[])),
        })
    }

    fn external(&mut self, name: &str, ty: &NamedType, union: &Union) -> Result<(), EmitError> {
        let mut members = Vec::new();
        let mut tags = Vec::new();
        let mut units = Vec::new();
        for variant in &union.variants {
            let Some(Literal::String(tag)) = &variant.tag else {
                return Err(self.error(
                    &variant.pointer,
                    "an externally tagged variant without a string tag",
                ));
            };
            let annotated = self.typing("Annotated");
            let variant_tag = self.runtime("variant");
            tags.push(Py::string(tag));
            let label = Py::call(variant_tag, vec![Py::string(tag)]);
            let content = match &variant.payload {
                Payload::Unit => {
                    units.push(Py::string(tag));
                    let literal = self.literal_type(&Literal::String(tag.clone()));
                    members.push(Py::sub(annotated.flat(), vec![literal, label]));
                    continue;
                }
                Payload::Fields(fields) => {
                    let content_name = self.scope.claim(format!(
                        "{name}{}Content",
                        names::class(&variant.name).trim_end_matches('_')
                    ));
                    let record = Record {
                        fields: fields.clone(),
                        additional: Additional::Allowed,
                        constraints: Vec::new(),
                    };
                    let class = self.record_class(&content_name, &variant.docs, &record)?;
                    self.push(Decl::Class(Box::new(class)), vec!["WireModel".to_owned()]);
                    Py::atom(content_name)
                }
                Payload::Type(expr) => self.expr(expr),
                Payload::Content(_) => {
                    return Err(self.error(
                        &variant.pointer,
                        "a variant shape this tagging does not have",
                    ));
                }
            };
            self.refs.clear();
            let class_name = self.variant_class_name(name, &variant.name);
            let attribute = names::attribute(tag);
            let mut keywords = Vec::new();
            if attribute != *tag {
                keywords.push(Py::kw("alias", Py::string(tag)));
            }
            let value = self.field_value(None, keywords);
            let config = self.pydantic("ConfigDict");
            let head = vec![
                assignment(
                    4,
                    "model_config",
                    None,
                    Some(&Py::call(
                        config,
                        vec![Py::kw("extra", Py::string("forbid"))],
                    )),
                ),
                self.tag_class_var(&Literal::String(tag.clone())),
            ];
            let class = Class {
                name: class_name.clone(),
                bases: vec![self.runtime("WireModel").to_owned()],
                doc: docstring(
                    4,
                    &doc_lines(
                        &variant.docs,
                        &[format!(
                            "On the wire: `{{\"{}\": ...}}`.",
                            tag.replace('`', "'")
                        )],
                    ),
                ),
                head,
                fields: vec![Attr {
                    line: assignment(4, &attribute, Some(&content), value.as_ref()),
                    doc: None,
                }],
                reply: self.reply_method(&class_name, variant)?,
                ..Class::default()
            };
            self.push(Decl::Class(Box::new(class)), vec!["WireModel".to_owned()]);
            members.push(Py::sub(
                annotated.flat(),
                vec![Py::atom(&class_name), label],
            ));
        }
        let tagged = self.runtime("tagged");
        let mut args = vec![Py::atom("None"), Py::Tuple(tags)];
        if !units.is_empty() {
            args.push(Py::kw("units", Py::Tuple(units)));
        }
        let annotated = self.typing("Annotated");
        let value = if members.len() == 1 {
            let Py::Subscript(_, parts) = members.remove(0) else {
                unreachable!("members are subscripts");
            };
            parts.into_iter().next().expect("member")
        } else {
            Py::sub(
                annotated.flat(),
                vec![Py::union(members), Py::call(tagged, args)],
            )
        };
        self.alias_with_needs(name, value, doc_lines(&ty.docs, &[]));
        Ok(())
    }

    fn untagged(&mut self, name: &str, ty: &NamedType, union: &Union) -> Result<(), EmitError> {
        let mut members = Vec::new();
        // What each member is once aliases are followed: two aliases of one type
        // (`URL | File`, both `str`) are one member, as Python's `Union` makes them.
        let mut seen = BTreeSet::new();
        // `None` among the members (under any name) makes the union nullable: pydantic
        // reads `X | None` as an optional `X`, to which no union option applies.
        let mut nullable = false;
        let mut unions = HashMap::new();
        for variant in &union.variants {
            let member = match &variant.payload {
                Payload::Unit => {
                    nullable = true;
                    continue;
                }
                Payload::Type(expr) => {
                    let target = self.unaliased(expr, &mut unions, 0);
                    if target == TypeExpr::Null {
                        nullable = true;
                        continue;
                    }
                    // Rendered only to compare: what it would import is not kept.
                    let imports = self.imports.clone();
                    let underlying = self.expr(&target).flat();
                    self.imports = imports;
                    self.refs.clear();
                    if !seen.insert(underlying) {
                        continue;
                    }
                    let member = self.expr(expr);
                    self.refs.clear();
                    member
                }
                Payload::Fields(fields) => {
                    let class_name = self.variant_class_name(name, &variant.name);
                    let record = Record {
                        fields: fields.clone(),
                        additional: Additional::Allowed,
                        constraints: Vec::new(),
                    };
                    let class = self.record_class(&class_name, &variant.docs, &record)?;
                    self.push(Decl::Class(Box::new(class)), vec!["WireModel".to_owned()]);
                    Py::atom(class_name)
                }
                Payload::Content(_) => {
                    return Err(self.error(
                        &variant.pointer,
                        "a variant shape this tagging does not have",
                    ));
                }
            };
            members.push(member);
        }
        serialization_order(&mut members, union.first_match);
        // Members Python reads as the same type (`str | str` from two string variants)
        // collapse into one, as Python's own `Union` does.
        // (`Py::union` also merges the `Literal[...]` members.)
        // Only `null` under one name or another: the alias is `None`.
        let only_null = members.is_empty();
        let members = Py::union(members);
        let value = if only_null {
            Py::atom("None")
        } else if !matches!(members, Py::Union(_)) {
            members
        } else {
            let annotated = self.typing("Annotated");
            let field = self.pydantic("Field");
            let untagged = self.runtime("untagged");
            Py::sub(
                annotated.flat(),
                vec![
                    members,
                    Py::call(
                        field,
                        vec![Py::kw(
                            "union_mode",
                            // serde's `untagged` takes the first variant that accepts;
                            // other schemas the best match (the most fields declared).
                            Py::string(if union.first_match {
                                "left_to_right"
                            } else {
                                "smart"
                            }),
                        )],
                    ),
                    Py::call(untagged, vec![Py::string(name)]),
                ],
            )
        };
        let value = if nullable && !only_null {
            value.or_none()
        } else {
            value
        };

        // Names inside the union are needed when the alias is evaluated.
        let mut needs = classes_in(&value);
        for referenced in self.union_refs(union) {
            needs.insert(referenced);
        }
        let alias = self.typing("TypeAlias");
        let line = assignment(0, name, Some(&alias), Some(&value));
        self.planned.push(Planned {
            decl: Decl::Alias(Alias {
                name: name.to_owned(),
                line,
                doc: docstring(0, &doc_lines(&ty.docs, &[])),
            }),
            needs,
            value: Some(value),
        });
        Ok(())
    }

    /// Python names of the model types an untagged union's variants reference.
    fn union_refs(&self, union: &Union) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for variant in &union.variants {
            if let Payload::Type(expr) = &variant.payload {
                for name in expr.references() {
                    if let Some(python) = self.names.get(name) {
                        out.insert(python.clone());
                    }
                }
            }
        }
        out
    }

    // ----- the module -------------------------------------------------------------

    /// A codec's arguments: for a schema symgen did not write, encoding leaves out what
    /// a message did not have (fields at their default), so values round-trip exactly.
    /// Number literals are read as serde reads them (`-0` is a float) whatever the
    /// schema; an integer without a Rust `format` takes a whole float (`WHOLE`).
    fn codec_args(&self, ty: Py) -> Vec<Py> {
        if self.model.protocol.is_some() {
            vec![ty]
        } else {
            vec![ty, Py::kw("omit_unset", Py::atom("True"))]
        }
    }

    fn roots(&mut self) -> Result<Vec<RootCodec>, EmitError> {
        let mut functions = Scope::default();
        let mut out = Vec::new();
        for root in self.model.entry_points() {
            let ty = self.name_of(root);
            let codec = self.runtime("Codec");
            let snake = names::snake(&ty, "t");
            let constant = self.scope.claim(format!("_{}", snake.to_uppercase()));
            let line = assignment(
                0,
                &constant,
                Some(&Py::sub(codec, vec![Py::atom(&ty)])),
                Some(&Py::call(codec, self.codec_args(Py::atom(&ty)))),
            );
            let decode = functions.claim(format!("decode_{snake}"));
            let encode = functions.claim(format!("encode_{snake}"));
            let value = format!("value: {ty}");
            let decode_body = layout::return_statement(
                4,
                &Py::call(format!("{constant}.decode"), vec![Py::atom("data")]),
            );
            let encode_body = layout::return_statement(
                4,
                &Py::call(format!("{constant}.encode"), vec![Py::atom("value")]),
            );
            out.push(RootCodec {
                decode_body,
                encode_body,
                key: layout::string(root),
                decode: layout::def_head(0, &decode, &["data: str | bytes | bytearray"], &ty),
                encode: layout::def_head(0, &encode, &[&value], "str"),
                ty,
                constant,
                line,
            });
        }
        self.refs.clear();
        Ok(out)
    }

    fn finish(mut self) -> Result<ModuleView, EmitError> {
        let roots = self.roots()?;
        let mut doc = self.model.docs.clone();
        if let (Some(code), Some(title)) = (
            self.model.protocol.as_ref().and_then(|p| p.code.as_ref()),
            &doc.title,
        ) {
            doc.title = Some(format!("{title} ({code})."));
        }
        let doc = doc_lines(&doc, &[]);
        let reply_data = match self
            .model
            .protocol
            .as_ref()
            .and_then(|p| p.reply_data.as_deref())
        {
            Some(pointer) => Py::Tuple(
                pointer
                    .split('/')
                    .skip(1)
                    .map(|s| Py::string(&crate::json_pointer::unescape(s)))
                    .collect(),
            ),
            None => Py::atom("None"),
        };
        let protocol = match &self.model.protocol {
            Some(p) => Py::string(&p.id),
            None => Py::atom("None"),
        };
        let codec = self.runtime("Codec");
        let any = self.typing("Any");
        let registry = Py::sub("dict", vec![Py::atom("str"), Py::sub(codec, vec![any])]);
        let roots_line = assignment(
            0,
            "ROOTS",
            Some(&registry),
            Some(&Py::Dict(
                roots
                    .iter()
                    .map(|r| (Py::atom(&r.key), Py::atom(&r.constant)))
                    .collect(),
            )),
        );
        let replies_line = assignment(
            0,
            "REPLIES",
            Some(&registry),
            Some(&Py::Dict(
                self.replies
                    .iter()
                    .map(|(tag, constant)| (Py::atom(tag), Py::atom(constant)))
                    .collect(),
            )),
        );
        let reply_data_line = assignment(
            0,
            "REPLY_DATA",
            Some(&Py::sub("tuple", vec![Py::atom("str"), Py::atom("...")]).or_none()),
            Some(&reply_data),
        );
        let protocol_line = assignment(
            0,
            "PROTOCOL",
            Some(&Py::atom("str").or_none()),
            Some(&protocol),
        );
        let vectors_id = match &self.model.protocol {
            Some(p) => p.id.clone(),
            None => self.stem.clone(),
        };
        let vectors_line = assignment(
            0,
            "VECTORS",
            Some(&Py::atom("str")),
            Some(&Py::string(&vectors_id)),
        );
        let (decls, recursive, quoted_union) = order(std::mem::take(&mut self.planned));
        if recursive {
            self.typing("TYPE_CHECKING");
            self.imports.extensions.insert("TypeAliasType");
        }
        if quoted_union {
            self.typing("Union");
        }
        // isort's sections: the standard library, third parties, the package itself.
        let mut imports = vec!["from __future__ import annotations".to_owned()];
        let sections = [
            vec![("typing".to_owned(), sorted_imports(&self.imports.typing))],
            vec![
                (
                    "pydantic".to_owned(),
                    sorted_imports(&self.imports.pydantic),
                ),
                (
                    "typing_extensions".to_owned(),
                    sorted_imports(&self.imports.extensions),
                ),
            ],
            std::iter::once((
                "._runtime".to_owned(),
                sorted_imports(&self.imports.runtime),
            ))
            .chain(std::mem::take(&mut self.siblings))
            .collect(),
        ];
        for section in sections {
            let lines: Vec<String> = section
                .into_iter()
                .filter(|(_, names)| !names.is_empty())
                .map(|(module, names)| import_line(&module, &names))
                .collect();
            if !lines.is_empty() {
                imports.push(lines.join("\n"));
            }
        }
        Ok(ModuleView {
            doc,
            imports,
            decls,
            roots,
            reply_codecs: self.reply_codecs,
            roots_line,
            replies_line,
            reply_data_line,
            protocol_line,
            vectors_line,
        })
    }
}

/// `from module import a, b` on one line, or one name per line in parentheses.
pub fn import_line(module: &str, names: &[String]) -> String {
    let line = format!("from {module} import {}", names.join(", "));
    if line.len() <= layout::WIDTH {
        return line;
    }
    let mut out = format!("from {module} import (\n");
    for name in names {
        out.push_str(&format!("    {name},\n"));
    }
    out.push(')');
    out
}

/// Import names sorted the way ruff's isort sorts them (`order-by-type`): constants,
/// then classes, then everything else, each in natural order (`UInt8` before `UInt16`).
fn sorted_imports(names: &BTreeSet<&'static str>) -> Vec<String> {
    let mut names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    sort_names(&mut names);
    names
}

/// Sorts imported names the way ruff's isort does (see [`sorted_imports`]).
pub(crate) fn sort_names(names: &mut [String]) {
    names.sort_by_cached_key(|n| import_key(n));
}

/// The sort key of an imported name: constants, then classes, then everything else,
/// each in natural order.
fn import_key(name: &str) -> (u8, Vec<(String, u64)>) {
    let kind = if name.len() > 1 && name.chars().all(|c| !c.is_ascii_lowercase()) {
        0
    } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        1
    } else {
        2
    };
    (kind, natural_key(name))
}

/// A sort key comparing runs of digits by their value.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                key.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.push(c.to_ascii_lowercase());
        }
    }
    key.push((text, digits.parse().unwrap_or(0)));
    key
}

/// Orders an untagged union's members so pydantic encodes each value as itself.
///
/// Inside another union (an envelope's variants), pydantic's serializer matches a
/// nested union's members by `isinstance`, so `int | bool` writes `False` as `0` and
/// `float | int` writes `1` as `1.0`. `bool` goes first and integers before `float`.
/// Decoding is strict (a JSON `false` is no `int`, `1` is no `bool`), so moving `bool`
/// changes no verdict; integers move before `float` only where the union takes the best
/// match (`smart`), since serde's first match reads `1` as the float when it comes first.
fn serialization_order(members: &mut [Py], first_match: bool) {
    const INTEGERS: [&str; 9] = [
        "int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
    ];
    let rank = |member: &Py| {
        let text = member.flat();
        if text == "bool" {
            0
        } else if !first_match && INTEGERS.contains(&text.as_str()) {
            1
        } else {
            2
        }
    };
    members.sort_by_cached_key(rank);
}

/// Class names an expression mentions (`Annotated[Cls, …]` members, bare atoms).
fn classes_in(value: &Py) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(value: &Py, out: &mut BTreeSet<String>) {
        match value {
            Py::Atom(text) if text.starts_with(|c: char| c.is_ascii_uppercase()) => {
                out.insert(text.clone());
            }
            Py::Atom(_) => {}
            Py::Subscript(_, items) | Py::Call(_, items) | Py::Tuple(items) | Py::List(items) => {
                for item in items {
                    walk(item, out);
                }
            }
            Py::Keyword(_, value) | Py::Lambda(value) => walk(value, out),
            Py::Dict(entries) => {
                for (k, v) in entries {
                    walk(k, out);
                    walk(v, out);
                }
            }
            Py::Union(items) => {
                for item in items {
                    walk(item, out);
                }
            }
        }
    }
    walk(value, &mut out);
    out
}

/// The declarations in their model order, each moved after the declarations it needs
/// at import time (depth first, so the order stays close to the schema's). An alias
/// that needs itself, or one declared after it (a cycle of aliases), names those in
/// quotes and is declared as a `TypeAliasType` (pydantic resolves the quoted names, mypy
/// reads the plain alias); returns whether any is, and whether a `Union[...]` was
/// written.
fn order(planned: Vec<Planned>) -> (Vec<Decl>, bool, bool) {
    let index: HashMap<String, usize> = planned
        .iter()
        .enumerate()
        .map(|(i, p)| (p.decl.name().to_owned(), i))
        .collect();
    let mut state = vec![0u8; planned.len()];
    let mut order = Vec::with_capacity(planned.len());
    let mut quoted: HashMap<usize, BTreeSet<String>> = HashMap::new();
    /// Depth first from `start`, with a stack of its own: a chain of aliases may be
    /// longer than the thread's stack is deep.
    fn visit(
        start: usize,
        planned: &[Planned],
        index: &HashMap<String, usize>,
        state: &mut [u8],
        order: &mut Vec<usize>,
        quoted: &mut HashMap<usize, BTreeSet<String>>,
    ) {
        if state[start] != 0 {
            return;
        }
        state[start] = 1;
        let mut stack = vec![(start, planned[start].needs.iter())];
        while let Some((i, needs)) = stack.last_mut() {
            let i = *i;
            let Some(need) = needs.next() else {
                state[i] = 2;
                order.push(i);
                stack.pop();
                continue;
            };
            let Some(&j) = index.get(need) else {
                continue;
            };
            if state[j] == 1 {
                // Not declared yet when this one is evaluated: quoted.
                quoted.entry(i).or_default().insert(need.clone());
            } else if state[j] == 0 {
                state[j] = 1;
                stack.push((j, planned[j].needs.iter()));
            }
        }
    }
    for i in 0..planned.len() {
        visit(i, &planned, &index, &mut state, &mut order, &mut quoted);
    }
    let recursive = quoted.keys().any(|i| planned[*i].value.is_some());
    let mut slots: Vec<Option<Planned>> = planned.into_iter().map(Some).collect();
    let mut quoted_union = false;
    let decls = order
        .into_iter()
        .filter_map(|i| {
            let planned = slots[i].take()?;
            match (quoted.get(&i), planned.value, planned.decl) {
                (Some(names), Some(value), Decl::Alias(alias)) => {
                    let value = quote(value, names);
                    Some(Decl::RecursiveAlias(RecursiveAlias {
                        checking: assignment(
                            4,
                            &alias.name,
                            Some(&Py::atom("TypeAlias")),
                            Some(&value),
                        ),
                        // At run time `"A" | B` is an error: `Union["A", B]` there.
                        runtime: assignment(
                            4,
                            &alias.name,
                            None,
                            Some(&Py::call(
                                "TypeAliasType",
                                vec![
                                    Py::string(&alias.name),
                                    unionize(value.clone(), &mut quoted_union),
                                ],
                            )),
                        ),
                        doc: alias.doc.map(|d| indented(&d, 4)),
                        name: alias.name,
                    }))
                }
                (_, _, decl) => Some(decl),
            }
        })
        .collect();
    (decls, recursive, quoted_union)
}

/// `value` with every `a | b` that has a quoted name as a member written `Union[a, b]`
/// (`"A" | B` is an error at run time; `list["A"] | B` is not); sets `used` when it
/// writes one.
fn unionize(value: Py, used: &mut bool) -> Py {
    match value {
        Py::Union(items) => {
            let quoted = items
                .iter()
                .any(|item| matches!(item, Py::Atom(text) if text.starts_with('"')));
            let items = items.into_iter().map(|item| unionize(item, used)).collect();
            if quoted {
                *used = true;
                Py::Subscript("Union".to_owned(), items)
            } else {
                Py::Union(items)
            }
        }
        other => other.map_children(|child| unionize(child, used)),
    }
}

/// `value` with the atoms naming `names` written as string forward references.
fn quote(value: Py, names: &BTreeSet<String>) -> Py {
    match value {
        Py::Atom(text) if names.contains(&text) => Py::Atom(layout::string(&text)),
        other => other.map_children(|child| quote(child, names)),
    }
}
