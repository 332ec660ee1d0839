//! The Rust generator (`symgen rust`): renders schema models into a Cargo crate with
//! one module per schema, its types written by the `typify` crate: structs and enums
//! with serde derives. The model is handed to typify as a schema in the dialect typify
//! represents faithfully (`dialect.rs`), so every draft, `$ref` and `allOf` symgen reads
//! works here too, and unknown keys of open objects are kept (a flattened `extra` map).
//! With conformance vectors it also writes an integration test that decodes every
//! valid vector and re-encodes it to equal JSON.
//!
//! For a program that consumes a schema it does not own; a protocol declared in Rust
//! (the seed protocols) has its own types already.

mod bounds;
mod dialect;
mod objects;
mod types;
mod values;

use std::collections::{BTreeSet, HashMap};

use askama::Template;
use serde::Deserialize;

use self::dialect::Dialect;
use self::types::{Readings, Replacement, WholeReads};
use super::names::UniqueNames;
use super::{Backend, EmitError, Input, Module, OutputFile};

/// The Rust backend (`symgen rust`).
#[derive(Debug)]
pub struct Rust;

/// The `[rust]` options of `symgen.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The crate name, as `Cargo.toml` spells it (default `protocols`).
    pub package: Option<String>,
    /// The crate version (default `0.0.0`).
    pub version: Option<String>,
}

impl Options {
    fn package(&self) -> &str {
        self.package.as_deref().unwrap_or("protocols")
    }

    fn check(&self) -> Result<(), String> {
        let name = self.package();
        let mut chars = name.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && name.len() <= 64;
        if !ok {
            return Err(format!(
                "package: `{}` is not a crate name (ASCII letters, digits, `-` and `_`, starting with a letter)",
                name.escape_default()
            ));
        }
        if let Some(version) = &self.version {
            let ok = !version.is_empty()
                && version
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".+-".contains(&b));
            if !ok {
                return Err(format!(
                    "version: `{}` is not a crate version",
                    version.escape_default()
                ));
            }
        }
        Ok(())
    }
}

impl Backend for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn command(&self) -> &'static str {
        "rust"
    }

    fn about(&self) -> &'static str {
        "Render the JSON Schemas into a Rust crate: one module per schema of serde types written by typify, unknown keys kept, and, with conformance vectors, a test that round-trips them"
    }

    fn default_dir(&self) -> &'static str {
        "generated/rust"
    }

    fn build_paths(&self) -> &'static [&'static str] {
        &["target", "Cargo.lock"]
    }

    fn check_options(&self, options: &toml::Table) -> Result<(), String> {
        super::parse_options::<Options>(options)?.check()
    }

    fn by_default(&self) -> bool {
        // A protocol declared in Rust has its types; this crate is for foreign schemas.
        false
    }

    fn render(&self, input: &Input<'_>) -> Result<Vec<OutputFile>, EmitError> {
        let options: Options = super::parse_options(input.options)
            .and_then(|o: Options| o.check().map(|()| o))
            .map_err(|message| EmitError::new("rust", "symgen.toml", "rust", message))?;
        render_crate(input, &options)
    }
}

/// `Cargo.toml` (the template is not called so: cargo leaves a directory holding a
/// `Cargo.toml` out of symgen's own package).
#[derive(Template)]
#[template(path = "rust/manifest.toml")]
struct ManifestTemplate<'a> {
    /// A TOML string: the crate name.
    name: &'a str,
    /// A TOML string: the version.
    version: &'a str,
    /// A TOML string: the description.
    description: &'a str,
}

/// `src/lib.rs`.
#[derive(Template)]
#[template(path = "rust/lib.rs")]
struct LibTemplate<'a> {
    /// Module identifiers.
    modules: &'a [String],
    /// The identifiers of the crate's support modules written (whole floats, bounds).
    supports: &'a [&'a str],
}

/// The crate's whole-float module: the readings the modules name.
#[derive(Template)]
#[template(path = "rust/whole.rs")]
struct WholeTemplate {
    read: bool,
    read_present: bool,
}

/// The crate's bounds module: the check of integers out of their bounds.
#[derive(Template)]
#[template(path = "rust/bounds.rs")]
struct BoundsTemplate;

/// `src/<module>.rs`.
#[derive(Template)]
#[template(path = "rust/module.rs")]
struct ModuleTemplate<'a> {
    /// The schema file, as text safe in a `//!` line.
    source: &'a str,
    /// typify's output, laid out by prettyplease.
    body: &'a str,
}

/// One root type a vector may name.
struct RootCase {
    /// A Rust string literal: the vector directory of the module.
    dir: String,
    /// A Rust string literal: the root's model name.
    root: String,
    /// The Rust path of its type.
    path: String,
}

/// `tests/vectors.rs`.
#[derive(Template)]
#[template(path = "rust/vectors.rs")]
struct VectorsTemplate<'a> {
    /// A Rust string literal: the vector directory relative to the crate root.
    vectors: &'a str,
    /// A Rust string literal: every module's vector directory.
    dirs: &'a [String],
    cases: &'a [RootCase],
}

/// Rust's strict and reserved keywords (and `self`-like path roots), which module names
/// must avoid.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "typeof", "unsized", "virtual", "yield", "try", "union",
];

/// A snake_case module name for a schema stem (`taskspace-state` → `taskspace_state`).
fn module_name(stem: &str) -> String {
    let words: Vec<String> = super::case::ascii_words(stem)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let mut name = words.join("_");
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'm');
    }
    if KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// A definition key typify keeps as the type's name: ASCII PascalCase words
/// (`IPCResponse` → `IpcResponse`), never starting with a digit. One pass can leave a
/// name typify splits differently (`aB` → `AB`, which typify reads as one word, `Ab`),
/// so passes repeat until the name is its own key: then two keys that differ are two
/// type names.
fn type_key(name: &str) -> String {
    let pass = |name: &str| {
        let mut key: String = super::case::ascii_words(name)
            .iter()
            .map(|w| super::case::capitalized(&w.to_ascii_lowercase()))
            .collect();
        if key.is_empty() || key.starts_with(|c: char| c.is_ascii_digit()) {
            key.insert(0, 'T');
        }
        key
    };
    let mut key = pass(name);
    // Two passes reach the fixpoint for every name seen; the bound keeps it certain.
    for _ in 0..8 {
        let next = pass(&key);
        if next == key {
            break;
        }
        key = next;
    }
    key
}

/// The name typify gives a field (or lets collide): snake_case ASCII words.
fn field_key(name: &str) -> String {
    super::case::ascii_words(name)
        .iter()
        .map(|w| w.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// The modules in an order where every module comes after those it imports from.
fn in_import_order(modules: &[Module]) -> Vec<&Module> {
    let mut sorted: Vec<&Module> = modules.iter().collect();
    sorted.sort_by(|a, b| a.stem.cmp(&b.stem));
    let mut done: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::with_capacity(sorted.len());
    while out.len() < sorted.len() {
        let before = out.len();
        for module in &sorted {
            if done.contains(module.stem.as_str()) {
                continue;
            }
            if module
                .imports()
                .iter()
                .all(|i| done.contains(i.module.as_str()))
            {
                done.insert(&module.stem);
                out.push(*module);
            }
        }
        if out.len() == before {
            // Imports are acyclic (link.rs); keep the rest in name order regardless.
            out.extend(sorted.iter().filter(|m| !done.contains(m.stem.as_str())));
            break;
        }
    }
    out
}

/// Renders the whole crate.
fn render_crate(input: &Input<'_>, options: &Options) -> Result<Vec<OutputFile>, EmitError> {
    let mut scope = UniqueNames::with_reserved(&["lib", "main", "error"]);
    let mut sorted: Vec<&Module> = input.modules.iter().collect();
    sorted.sort_by(|a, b| a.stem.cmp(&b.stem));
    let idents: HashMap<&str, String> = sorted
        .iter()
        .map(|m| (m.stem.as_str(), scope.claim(module_name(&m.stem))))
        .collect();
    // The module of the whole-float reading, named after every schema's module so
    // that no schema's name changes for it; written when some module reads through it.
    let whole_module = scope.claim("symgen_whole".to_owned());
    let whole_path = format!("super::{whole_module}");
    let mut whole_reads = WholeReads::default();
    // The module of the bounds checks, named and written alike.
    let bounds_module = scope.claim("symgen_bounds".to_owned());
    let bounds_path = format!("super::{bounds_module}");
    let mut bounded = false;
    // Rust type of each model type, by module stem then model name.
    let mut rust_types: HashMap<&str, HashMap<String, String>> = HashMap::new();
    let mut files = Vec::new();
    let mut cases = Vec::new();
    for module in in_import_order(input.modules) {
        let ident = &idents[module.stem.as_str()];
        let model = &module.model;
        let mut keys: HashMap<String, String> = HashMap::new();
        let mut taken = UniqueNames::default();
        let mut definitions = Vec::new();
        let mut wanted = Vec::new();
        for named in &model.types {
            if module.renders(&named.name) {
                let key = taken.claim(type_key(&named.name));
                keys.insert(named.name.clone(), key.clone());
                wanted.push((named.name.clone(), key));
            }
        }
        let mut replacements = Vec::new();
        for (n, import) in module.imports().iter().enumerate() {
            let key = format!("SymgenImport{n}");
            let home = rust_types
                .get(import.module.as_str())
                .and_then(|types| types.get(&import.home_name))
                .ok_or_else(|| {
                    EmitError::new(
                        "rust",
                        &model.file,
                        "",
                        format!(
                            "`{}` is imported from `{}`, which was not rendered first",
                            import.name, import.module
                        ),
                    )
                })?;
            let path = match home.strip_prefix("super::") {
                Some(_) => home.clone(),
                None => format!("super::{}::{home}", idents[import.module.as_str()]),
            };
            keys.insert(import.name.clone(), key.clone());
            definitions.push((key.clone(), serde_json::json!({})));
            replacements.push(Replacement { key, path });
        }
        let dialect = Dialect::new(model, &keys);
        let mut present_only = HashMap::new();
        let mut whole = HashMap::new();
        let mut bounds_of = HashMap::new();
        let mut checked = HashMap::new();
        for named in &model.types {
            if module.renders(&named.name) {
                let key = keys[&named.name].clone();
                if let Some(values) = values::checked(named) {
                    checked.insert(key.clone(), values);
                }
                let definition = dialect.definition(named);
                definitions.push((key.clone(), definition.schema));
                present_only.insert(key.clone(), definition.present_only);
                bounds_of.insert(key.clone(), definition.bounds);
                whole.insert(key, definition.whole);
            }
        }
        let readings = Readings {
            present_only: &present_only,
            whole: &whole,
            whole_module: &whole_path,
            values: &checked,
            bounds: &bounds_of,
            bounds_module: &bounds_path,
        };
        let rendered =
            types::render(definitions, &replacements, &wanted, &readings).map_err(|why| {
                EmitError::new(
                    "rust",
                    &model.file,
                    "",
                    format!("typify cannot render this schema: {why}"),
                )
            })?;
        whole_reads.add(rendered.whole);
        bounded |= rendered.bounded;
        for root in model.entry_points() {
            let path = match rendered.types.get(root) {
                Some(name) if !name.starts_with("super::") => format!("{ident}::{name}"),
                Some(name) => name.trim_start_matches("super::").to_owned(),
                None => {
                    let Some(import) = module.imports().iter().find(|i| i.name == root) else {
                        continue;
                    };
                    let Some(home) = rust_types
                        .get(import.module.as_str())
                        .and_then(|t| t.get(&import.home_name))
                    else {
                        continue;
                    };
                    format!("{}::{home}", idents[import.module.as_str()])
                }
            };
            cases.push(RootCase {
                dir: rust_string(&module.stem),
                root: rust_string(root),
                path,
            });
        }
        rust_types.insert(module.stem.as_str(), rendered.types);
        let source = super::text::one_line(&module.file_name);
        files.push(OutputFile {
            path: format!("src/{ident}.rs"),
            contents: super::render_template(
                "rust",
                &ModuleTemplate {
                    source: &rust_string(&source),
                    body: rendered.source.trim_end(),
                },
                &module.file_name,
            )?,
        });
    }
    let modules: Vec<String> = sorted
        .iter()
        .map(|m| idents[m.stem.as_str()].clone())
        .collect();
    let support = (whole_reads.read || whole_reads.read_present).then(|| {
        let path = format!("src/{whole_module}.rs");
        let template = WholeTemplate {
            read: whole_reads.read,
            read_present: whole_reads.read_present,
        };
        (whole_module.as_str(), path, template)
    });
    let mut supports: Vec<&str> = Vec::new();
    if let Some((name, path, template)) = &support {
        files.push(OutputFile {
            path: path.clone(),
            contents: super::render_template("rust", template, path)?,
        });
        supports.push(name);
    }
    if bounded {
        let path = format!("src/{bounds_module}.rs");
        files.push(OutputFile {
            contents: super::render_template("rust", &BoundsTemplate, &path)?,
            path,
        });
        supports.push(&bounds_module);
    }
    files.push(OutputFile {
        path: "src/lib.rs".to_owned(),
        contents: super::render_template(
            "rust",
            &LibTemplate {
                modules: &modules,
                supports: &supports,
            },
            "src/lib.rs",
        )?,
    });
    let description = format!(
        "Types of {} generated by symgen",
        sorted
            .iter()
            .map(|m| m.file_name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    files.push(OutputFile {
        path: "Cargo.toml".to_owned(),
        contents: super::render_template(
            "rust",
            &ManifestTemplate {
                name: &super::text::toml_string(options.package()),
                version: &super::text::toml_string(options.version.as_deref().unwrap_or("0.0.0")),
                description: &super::text::toml_string(&super::text::one_line(&description)),
            },
            "Cargo.toml",
        )?,
    });
    if let Some(vectors) = input.vectors.filter(|_| !sorted.is_empty()) {
        let dirs: Vec<String> = sorted.iter().map(|m| rust_string(&m.stem)).collect();
        let crate_ident = options.package().replace('-', "_");
        for case in &mut cases {
            case.path = format!("{crate_ident}::{}", case.path);
        }
        files.push(OutputFile {
            path: "tests/vectors.rs".to_owned(),
            contents: super::render_template(
                "rust",
                &VectorsTemplate {
                    vectors: &rust_string(vectors),
                    dirs: &dirs,
                    cases: &cases,
                },
                "tests/vectors.rs",
            )?,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// A Rust string literal: quotes, backslashes, control characters and anything not
/// plainly printable as its `\u{…}` escape.
fn rust_string(text: &str) -> String {
    let mut out = String::from('"');
    for c in text.chars() {
        let plain =
            (c.is_ascii_graphic() && c != '"' && c != '\\') || c == ' ' || c.is_alphanumeric();
        if plain {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    out.push('"');
    out
}
