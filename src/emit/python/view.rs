//! What the Python templates render: one view per kind of declaration, holding names,
//! docstrings and the lines whose layout `layout.rs` decided (decided in `module.rs`).
//! The templates in `templates/python/` own the shape of every file: imports, class
//! statements, methods, blank lines.
//!
//! Escaping: names are ASCII identifiers (`names.rs`), which the `Code` escaper passes;
//! every other piece of text (annotations, defaults, docstrings) was built by
//! `layout.rs`, whose string literals and docstrings escape schema text, and is inserted
//! with `|safe`.

/// A module-level declaration.
#[derive(Debug, Clone)]
pub enum Decl {
    /// `class Name(bases):` with its body.
    Class(Box<Class>),
    /// `Name: TypeAlias = ...` and its docstring.
    Alias(Alias),
    /// An alias that names itself (or one declared after it): `TypeAliasType` at run
    /// time, a plain alias for type checkers.
    RecursiveAlias(RecursiveAlias),
}

/// A generated class.
#[derive(Debug, Clone, Default)]
pub struct Class {
    /// The class name.
    pub name: String,
    /// Its base classes, in order.
    pub bases: Vec<String>,
    /// `class Name(bases):`, laid out (set by [`Class::finish`]).
    pub head_line: String,
    /// Its docstring, indented.
    pub doc: Option<String>,
    /// Class-level lines before the fields (`model_config = ...`, the extra keys' type,
    /// the variant's `symgen_tag`), each laid out.
    pub head: Vec<String>,
    /// The fields.
    pub fields: Vec<Attr>,
    /// The before-validator checking that no field is spelled twice: method name and
    /// the laid-out call.
    pub names_check: Option<Check>,
    /// The after-validator checking cross-field rules: method name and laid-out calls.
    pub rules_check: Option<Check>,
    /// `decode_reply` for a request with typed reply data.
    pub reply: Option<ReplyMethod>,
}

impl Class {
    /// Lays out the `class` line from the name and bases.
    pub fn finish(mut self) -> Self {
        self.head_line = super::layout::class_head(&self.name, &self.bases);
        self
    }

    /// Whether the body has nothing but (maybe) a docstring.
    pub fn is_empty(&self) -> bool {
        self.head.is_empty()
            && self.fields.is_empty()
            && self.names_check.is_none()
            && self.rules_check.is_none()
            && self.reply.is_none()
    }
}

/// One field: its laid-out statement and docstring.
#[derive(Debug, Clone)]
pub struct Attr {
    /// `name: T = Field(...)`, indented.
    pub line: String,
    /// Its attribute docstring, indented.
    pub doc: Option<String>,
}

/// A validator method.
#[derive(Debug, Clone)]
pub struct Check {
    /// The `def` line, laid out.
    pub head: String,
    /// The statements of its body, indented by 8.
    pub calls: Vec<String>,
}

/// `decode_reply`: decodes the reply data a request's reply carries.
#[derive(Debug, Clone)]
pub struct ReplyMethod {
    /// The `def` line, laid out.
    pub head: String,
    /// The `return` statement, laid out.
    pub body: String,
}

/// A type alias.
#[derive(Debug, Clone)]
pub struct Alias {
    /// The alias name.
    pub name: String,
    /// `Name: TypeAlias = ...`, laid out.
    pub line: String,
    /// Its docstring (at module level).
    pub doc: Option<String>,
}

/// A recursive type alias.
#[derive(Debug, Clone)]
pub struct RecursiveAlias {
    /// The alias name.
    pub name: String,
    /// `Name: TypeAlias = ...` for type checkers, indented by 4.
    pub checking: String,
    /// `Name = TypeAliasType("Name", ...)` at run time, indented by 4.
    pub runtime: String,
    /// Its docstring, indented by 4.
    pub doc: Option<String>,
}

impl Decl {
    /// Whether it is a class (which wants two blank lines after the imports).
    pub fn is_class(&self) -> bool {
        matches!(self, Decl::Class(_))
    }

    /// The module-level name it declares.
    pub fn name(&self) -> &str {
        match self {
            Decl::Class(class) => &class.name,
            Decl::Alias(alias) => &alias.name,
            Decl::RecursiveAlias(alias) => &alias.name,
        }
    }
}

/// A root type's codec and its `decode_…`/`encode_…` functions.
#[derive(Debug, Clone)]
pub struct RootCodec {
    /// The root's name in the schema (the key of `ROOTS`), as a string literal.
    pub key: String,
    /// The type, flat.
    pub ty: String,
    /// The codec constant.
    pub constant: String,
    /// The laid-out codec assignment.
    pub line: String,
    /// The `def decode_<name>(…)` line, laid out.
    pub decode: String,
    /// The `def encode_<name>(…)` line, laid out.
    pub encode: String,
    /// `return <codec>.decode(data)`, laid out.
    pub decode_body: String,
    /// `return <codec>.encode(value)`, laid out.
    pub encode_body: String,
}

/// A reply data codec.
#[derive(Debug, Clone)]
pub struct ReplyCodec {
    /// The laid-out assignment.
    pub line: String,
}

/// The template filters: layout (ruff's) for the few lines templates assemble.
pub mod filters {
    use askama::filters::Safe;

    use super::super::layout;

    /// The module docstring: its doc lines, then the line naming the schema and the
    /// command that regenerates the module.
    #[askama::filter_fn]
    pub fn module_doc(
        doc: &[String],
        _: &dyn askama::Values,
        source: &str,
    ) -> askama::Result<Safe<String>> {
        let mut lines = doc.to_vec();
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(format!(
            "Generated by `symgen py` from {source}. Do not edit; regenerate with `symgen py`."
        ));
        Ok(Safe(layout::docstring(0, &lines).unwrap_or_default()))
    }
}
