//! What the TypeScript templates render: one view per kind of declaration, holding
//! names, doc lines and types (decided in `module.rs`), and the filters that lay them
//! out the way prettier prints them (`layout.rs`). The templates in
//! `templates/typescript/` own the shape of every file: which declarations follow which,
//! the keywords, braces and blank lines.
//!
//! Escaping: names are identifiers (`names.rs`), which the `Code` escaper passes; doc
//! lines go through [`filters::jsdoc`], which splits every line terminator and escapes
//! `*/`; property keys are identifiers or JSON string literals; type expressions are
//! built from those and from literals as JSON.

use super::layout::{self, Ts};
use crate::model::json_string;

/// Doc comment lines of a declaration (already split; see [`crate::emit::doc`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc(pub Vec<String>);

/// A [`Doc`] however the template holds it (by value, or behind references).
pub trait AsDoc {
    /// The lines.
    fn lines(&self) -> &[String];
}

impl AsDoc for Doc {
    fn lines(&self) -> &[String] {
        &self.0
    }
}

impl<T: AsDoc + ?Sized> AsDoc for &T {
    fn lines(&self) -> &[String] {
        (**self).lines()
    }
}

/// A property of an interface: `key?: T;` with its doc comment.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its doc comment.
    pub doc: Doc,
    /// The key as written: an identifier or a JSON string, `?` when optional, or an
    /// index signature `[key: string]`.
    pub key: String,
    /// Its type.
    pub ty: Ts,
}

impl Member {
    /// A member without docs.
    pub fn new(key: impl Into<String>, ty: Ts) -> Self {
        Self {
            doc: Doc::default(),
            key: key.into(),
            ty,
        }
    }
}

/// One `import type` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// `(name exported there, name used here)`.
    pub names: Vec<(String, String)>,
    /// The other module's file stem.
    pub file: String,
}

/// One declaration of a module, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Decl {
    /// The module's own doc comment (`@module`).
    ModuleDoc(Doc),
    /// `import type { Home as Local } from "./file.js";` per module: types other
    /// modules of the package render.
    Imports(Vec<Import>),
    /// `export interface Name extends A, B { members }`.
    Interface {
        /// Its doc comment.
        doc: Doc,
        /// Its name.
        name: String,
        /// The interfaces it extends.
        extends: Vec<String>,
        /// Its properties.
        members: Vec<Member>,
    },
    /// `export type Head = T;` (the head may carry type parameters).
    Alias {
        /// Its doc comment.
        doc: Doc,
        /// `Name` or `Name<T extends keyof Map>`.
        head: String,
        /// The aliased type.
        ty: Ts,
    },
    /// `export type Name = First & (A | B) & ...;`: a record with required aliased fields.
    Intersection {
        /// Its doc comment.
        doc: Doc,
        /// Its name.
        name: String,
        /// The interface of the other fields.
        first: String,
        /// Per aliased field, its spellings as object type literals.
        groups: Vec<Vec<String>>,
    },
    /// `export declare const name: readonly [...];`: a run-time tag list.
    Tags {
        /// Its doc comment.
        doc: Doc,
        /// The constant's name.
        name: String,
        /// The tags, as literals.
        elements: Vec<String>,
    },
    /// `export declare function name(message: Param): message is Known;`: a guard.
    Guard {
        /// Its doc comment.
        doc: Doc,
        /// The function's name.
        name: String,
        /// The parameter's type name.
        param: String,
        /// The narrowed type name.
        known: String,
        /// The tag list it reads.
        tags: String,
        /// The tag key it reads from a message.
        tag: String,
    },
}

impl Decl {
    /// Its name when it exists at run time (and the JavaScript exports it too).
    pub fn runtime_name(&self) -> Option<&str> {
        match self {
            Decl::Tags { name, .. } | Decl::Guard { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The doc comment of its JavaScript: its own, plus the JSDoc types `tsc --checkJs`
    /// checks the implementation with, naming the module's declarations as
    /// `import(declarations)`.
    pub fn js_doc(&self, declarations: &str) -> Doc {
        let module = format!("import({})", json_string(declarations));
        match self {
            Decl::Tags { doc, elements, .. } => {
                let mut lines = doc.0.clone();
                lines.push(String::new());
                lines.push(format!("@type {{readonly [{}]}}", elements.join(", ")));
                Doc(lines)
            }
            Decl::Guard {
                doc, param, known, ..
            } => {
                let mut lines = doc.0.clone();
                lines.push(String::new());
                lines.push(format!("@param {{{module}.{param}}} message"));
                lines.push(format!("@returns {{message is {module}.{known}}}"));
                Doc(lines)
            }
            _ => Doc::default(),
        }
    }
}

/// The template filters: layout (prettier's) and escaping for each position.
pub mod filters {
    use askama::filters::Safe;

    use super::{AsDoc, Doc, Member, layout};
    use crate::emit::typescript::layout::Ts;
    use crate::model::json_string;

    /// A doc comment at `indent` (ending in a newline), or nothing.
    #[askama::filter_fn]
    pub fn jsdoc<D: AsDoc>(
        doc: D,
        _: &dyn askama::Values,
        indent: usize,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::jsdoc(indent, doc.lines())))
    }

    /// A doc comment at column 0 without its final newline.
    #[askama::filter_fn]
    pub fn jsdoc_block(doc: &Doc, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::jsdoc(0, &doc.0).trim_end().to_owned()))
    }

    /// A property line at `indent`, broken like prettier when long.
    #[askama::filter_fn]
    pub fn property(
        member: &Member,
        _: &dyn askama::Values,
        indent: usize,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::property(indent, &member.key, &member.ty)))
    }

    /// `export interface Name extends A, B {`, broken like prettier when long.
    #[askama::filter_fn]
    pub fn interface_head(
        name: &str,
        _: &dyn askama::Values,
        extends: &[String],
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::interface_head(name, extends)))
    }

    /// `export type head = T;`, broken like prettier when long.
    #[askama::filter_fn]
    pub fn type_alias(head: &str, _: &dyn askama::Values, ty: &Ts) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::type_alias(head, ty)))
    }

    /// `export type name = first & (A | B) ...;`.
    #[askama::filter_fn]
    pub fn intersection(
        name: &str,
        _: &dyn askama::Values,
        first: &str,
        groups: &[Vec<String>],
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::intersection_alias(name, first, groups)))
    }

    /// `export declare const name: readonly [...];`.
    #[askama::filter_fn]
    pub fn declare_tuple(
        name: &str,
        _: &dyn askama::Values,
        elements: &[String],
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::declare_tuple(name, elements)))
    }

    /// `export declare function name(message: param): message is known;`.
    #[askama::filter_fn]
    pub fn declare_guard(
        name: &str,
        _: &dyn askama::Values,
        param: &str,
        known: &str,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::declare_function(
            name,
            &format!("message: {param}"),
            &format!("message is {known}"),
        )))
    }

    /// `const name = [...];` (JavaScript).
    #[askama::filter_fn]
    pub fn const_array(
        name: &str,
        _: &dyn askama::Values,
        elements: &[String],
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::const_array(name, elements)))
    }

    /// A guard's JavaScript head, `function name(message) {`, broken when long.
    #[askama::filter_fn]
    pub fn function_head(name: &str, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        let head = format!("function {name}(message) {{");
        Ok(Safe(if head.chars().count() <= layout::WIDTH {
            head
        } else {
            format!("function {name}(\n  message,\n) {{")
        }))
    }

    /// `  const tags = name;` inside a guard, broken when long.
    #[askama::filter_fn]
    pub fn tags_assignment(name: &str, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        let line = format!("  const tags = {name};");
        Ok(Safe(if line.chars().count() <= layout::WIDTH {
            line
        } else {
            format!("  const tags =\n    {name};")
        }))
    }

    /// The `import type { a, b as c } from "./file.ext";` statements, one after the
    /// other; a statement of several names is broken one name per line when long (as
    /// prettier does; one name never is).
    #[askama::filter_fn]
    pub fn import_lines(
        imports: &[super::Import],
        _: &dyn askama::Values,
        ext: &str,
    ) -> askama::Result<Safe<String>> {
        let lines: Vec<String> = imports
            .iter()
            .map(|import| {
                let names: Vec<String> = import
                    .names
                    .iter()
                    .map(|(exported, local)| {
                        if exported == local {
                            local.clone()
                        } else {
                            format!("{exported} as {local}")
                        }
                    })
                    .collect();
                let specifier = crate::emit::typescript::specifier(&import.file, ext);
                let from = format!(" from {};", json_string(&specifier));
                match names.as_slice() {
                    [one] => format!("import type {{ {one} }}{from}"),
                    _ => layout::name_list("import type ", &names, &from),
                }
            })
            .collect();
        Ok(Safe(lines.join("\n")))
    }

    /// A list of names exported (`export { a, b };` or `module.exports = { a, b };`),
    /// broken one per line when long.
    #[askama::filter_fn]
    pub fn name_list(
        names: &[String],
        _: &dyn askama::Values,
        head: &str,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(layout::name_list(head, names, ";")))
    }

    /// How a guard reads the tag `key` of `message`: `message.key`, or `message["a-b"]`
    /// when the key is not an identifier.
    #[askama::filter_fn]
    pub fn tag_access(key: &str, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        Ok(Safe(
            if crate::emit::typescript::names::is_identifier(key) {
                format!("message.{key}")
            } else {
                format!("message[{}]", json_string(key))
            },
        ))
    }

    /// A JSON (and JavaScript) string literal.
    #[askama::filter_fn]
    pub fn js_string<S: AsRef<str>>(
        text: S,
        _: &dyn askama::Values,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(json_string(text.as_ref())))
    }

    /// Lines of generated JavaScript (a reader's or writer's body, built by `codec.rs`
    /// and `module.rs`): schema text in them is only ever a JSON string literal, the
    /// rest is generated identifiers, numbers and fixed code.
    #[askama::filter_fn]
    pub fn js_lines(lines: &[String], _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        Ok(Safe(lines.join("\n")))
    }

    /// `const kN = "…";`, broken after `=` as prettier does when long (the literal is
    /// a JSON string literal in ASCII, built by `codec.rs`).
    #[askama::filter_fn]
    pub fn string_constant(
        index: &usize,
        _: &dyn askama::Values,
        literal: &str,
    ) -> askama::Result<Safe<String>> {
        let line = format!("const k{index} = {literal};");
        Ok(Safe(if layout::fits(&line) {
            line
        } else {
            format!("const k{index} =\n  {literal};")
        }))
    }

    /// A JavaScript expression built by `codec.rs` (see [`js_lines`]).
    #[askama::filter_fn]
    pub fn js_expression(text: &str, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        Ok(Safe(text.to_owned()))
    }

    /// `function name(a, b) {` of an exported function, broken when long.
    #[askama::filter_fn]
    pub fn api_head(
        function: &super::ApiFunction,
        _: &dyn askama::Values,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(function.head()))
    }

    /// `export declare function …;` of an exported function, broken when long.
    #[askama::filter_fn]
    pub fn api_declaration(
        function: &super::ApiFunction,
        _: &dyn askama::Values,
    ) -> askama::Result<Safe<String>> {
        Ok(Safe(function.declaration()))
    }

    /// Text for a `//` comment: one line, every line terminator escaped.
    #[askama::filter_fn]
    pub fn comment<S: AsRef<str>>(text: S, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
        Ok(Safe(crate::emit::text::one_line(text.as_ref())))
    }
}

/// A parameter of an exported function: its name and type.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The parameter's name.
    pub name: String,
    /// Its type (the JavaScript's JSDoc names the same types through typedefs).
    pub ty: String,
}

/// An exported function of a module's run-time API (`decodeX`, `parseX`, `encodeX`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiFunction {
    /// Its doc comment.
    pub doc: Doc,
    /// Its name.
    pub name: String,
    /// `(name, constraint)` of its type parameter, when it is generic.
    pub generic: Option<(String, String)>,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its result type.
    pub returns: String,
    /// The body's lines (indented two spaces).
    pub body: Vec<String>,
}

impl ApiFunction {
    /// `export declare function name<T extends C>(a: A, b: B): R;`, broken one
    /// parameter per line when long.
    pub fn declaration(&self) -> String {
        let generic = self
            .generic
            .as_ref()
            .map(|(name, bound)| format!("<{name} extends {bound}>"))
            .unwrap_or_default();
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.ty))
            .collect();
        let head = format!("export declare function {}{generic}(", self.name);
        let line = format!("{head}{}): {};", params.join(", "), self.returns);
        if layout::fits(&line) {
            return line;
        }
        let broken: Vec<String> = params.iter().map(|p| format!("  {p},")).collect();
        let broken = broken.join("\n");
        if let Some((name, bound)) = self.generic.as_ref().filter(|_| !layout::fits(&head)) {
            // The head alone is too long: prettier breaks the type parameters, then the
            // parameters too when the rest still does not fit.
            let head = format!(
                "export declare function {}<\n  {name} extends {bound},\n>(",
                self.name
            );
            let last = format!(">({}): {};", params.join(", "), self.returns);
            if layout::fits(&last) {
                return format!("{head}{}): {};", params.join(", "), self.returns);
            }
            return format!("{head}\n{broken}\n): {};", self.returns);
        }
        format!("{head}\n{broken}\n): {};", self.returns)
    }

    /// The JSDoc of the JavaScript: the doc, then the types.
    pub fn js_doc(&self) -> Doc {
        let mut lines = self.doc.0.clone();
        lines.push(String::new());
        if let Some((name, bound)) = &self.generic {
            lines.push(format!("@template {{{bound}}} {name}"));
        }
        for param in &self.params {
            lines.push(format!("@param {{{}}} {}", param.ty, param.name));
        }
        lines.push(format!("@returns {{{}}}", self.returns));
        Doc(lines)
    }

    /// `function name(a, b) {`, broken one parameter per line when long.
    pub fn head(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        let line = format!("function {}({}) {{", self.name, names.join(", "));
        if layout::fits(&line) {
            return line;
        }
        let params: Vec<String> = names.iter().map(|p| format!("  {p},")).collect();
        format!("function {}(\n{}\n) {{", self.name, params.join("\n"))
    }
}
