//! Code generators: one [`Backend`] per target language renders schema models
//! ([`crate::model`]) into a package, through its `templates/<language>/` folder.
//!
//! The registry ([`backends`]) is the only place that lists the languages: the command
//! line (one subcommand each), `symgen.toml`, `generate`, `check` and the snapshot
//! tests all iterate it. A new language is one module here, one template folder and
//! one registry line.
//!
//! Also here: the language-neutral helpers every backend shares: finding schema files,
//! loading their models, naming a module after its schema file ([`Module`]), and unique
//! names ([`names`]).

pub mod case;
pub mod doc;
pub mod escape;
mod link;
pub mod names;
pub mod python;
#[cfg(feature = "rust-backend")]
pub mod rust;
pub mod swift;
pub mod text;
pub mod typescript;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::model::{self, Model};
use crate::{Error, Result};

pub use link::Import;

/// A target language.
pub trait Backend: Sync + fmt::Debug {
    /// The language's name in `symgen.toml` and in messages, e.g. `typescript`.
    fn name(&self) -> &'static str;
    /// Its subcommand, e.g. `ts`.
    fn command(&self) -> &'static str;
    /// One line for `--help`: what the subcommand writes.
    fn about(&self) -> &'static str;
    /// Output directory when `symgen.toml` gives none, relative to the project root.
    fn default_dir(&self) -> &'static str;
    /// Paths inside the output directory that belong to the language's build tools
    /// (`node_modules`, `.build`): never compared, never deleted.
    fn build_paths(&self) -> &'static [&'static str];
    /// Checks the language's options (its `symgen.toml` table without `dir`); the
    /// message names the offending key.
    fn check_options(&self, options: &toml::Table) -> std::result::Result<(), String>;
    /// Whether `generate` and `check` emit it when `symgen.toml` lists no `languages`
    /// (a language for schemas the project does not own is only emitted when asked).
    /// Every backend says: a new one that did would be written into every existing
    /// project without a `languages` key, and fail its `check`.
    fn by_default(&self) -> bool;
    /// Renders the package for `input`.
    fn render(&self, input: &Input<'_>) -> std::result::Result<Vec<OutputFile>, EmitError>;
}

/// Every language symgen emits, in the order `generate` writes them.
pub fn backends() -> &'static [&'static dyn Backend] {
    &[
        &typescript::TypeScript,
        &swift::Swift,
        &python::Python,
        #[cfg(feature = "rust-backend")]
        &rust::Rust,
    ]
}

/// The languages this build of symgen leaves out, each with the Cargo feature that adds
/// it (`cargo install --features rust-backend`): a project that names one gets an
/// error saying so, never a silent skip.
pub fn left_out() -> &'static [(&'static str, &'static str)] {
    &[
        #[cfg(not(feature = "rust-backend"))]
        ("rust", "rust-backend"),
    ]
}

/// Why language `name` is missing from this build, when it is one [`left_out`] names:
/// the sentence the CLI and the project file both say.
pub fn left_out_message(name: &str) -> Option<String> {
    left_out()
        .iter()
        .find(|(left, _)| *left == name)
        .map(|(name, feature)| {
            format!(
                "this symgen was built without the `{name}` language; rebuild it with the \
             `{feature}` feature (`cargo install --features {feature} ...`)"
            )
        })
}

/// The backend called `name` (or whose subcommand is `name`).
pub fn backend(name: &str) -> Option<&'static dyn Backend> {
    backends()
        .iter()
        .copied()
        .find(|b| b.name() == name || b.command() == name)
}

/// What a backend renders from.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The schema modules, in any order.
    pub modules: &'a [Module],
    /// The language's options (its `symgen.toml` table without `dir`).
    pub options: &'a toml::Table,
    /// The conformance vector directory relative to the output directory
    /// (`/`-separated), when the project has vectors: a backend then emits a test that
    /// round-trips them.
    pub vectors: Option<&'a str>,
}

/// One generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Path relative to the output directory, `/`-separated.
    pub path: String,
    /// Exact contents.
    pub contents: String,
}

/// Why a backend could not render: the language, the schema file and the JSON Pointer
/// of what it could not represent (or the option that is wrong), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EmitError {
    /// The backend's name.
    pub language: &'static str,
    /// The schema file (or `symgen.toml` for an option).
    pub file: String,
    /// JSON Pointer in that file (or the option's key).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl EmitError {
    /// An error of `language` at `file`:`pointer`.
    pub fn new(
        language: &'static str,
        file: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            language,
            file: file.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// A model error (a schema the backend cannot represent) as a backend error.
    pub fn from_model(language: &'static str, err: model::Error) -> Self {
        Self::new(language, err.file, err.pointer, err.message)
    }
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {} ({})",
            self.file, self.pointer, self.message, self.language
        )
    }
}

impl std::error::Error for EmitError {}

/// Renders a template of `language`'s backend for `file`; the text ends in exactly one
/// newline.
pub(crate) fn render_template(
    language: &'static str,
    template: &impl askama::Template,
    file: &str,
) -> std::result::Result<String, EmitError> {
    let mut text = template
        .render()
        .map_err(|err| EmitError::new(language, file, "", format!("template error: {err}")))?;
    text.truncate(text.trim_end_matches('\n').len());
    text.push('\n');
    Ok(text)
}

/// Deserializes a backend's options from its table; unknown keys are errors.
pub fn parse_options<T: serde::de::DeserializeOwned>(
    options: &toml::Table,
) -> std::result::Result<T, String> {
    toml::Value::Table(options.clone())
        .try_into()
        .map_err(|err: toml::de::Error| err.message().to_owned())
}

/// One schema file's model, with the module stem it is emitted under.
#[derive(Debug, Clone)]
pub struct Module {
    /// The schema file name without `.schema.json`/`.json`, e.g. `chat`.
    pub stem: String,
    /// The file name as written in generated headers, e.g. `chat.schema.json`.
    pub file_name: String,
    /// The parsed model.
    pub model: Model,
    /// Which of the model's types this module renders and which it imports from the
    /// other modules of the package (see `link.rs`).
    links: link::Links,
}

impl Module {
    /// Whether this module declares the model type `name` (false for a type another
    /// module of the package renders, and for what was hoisted out of one).
    pub fn renders(&self, name: &str) -> bool {
        !self.links.skipped.contains(name)
    }

    /// The types this module uses from other modules of the package, by module then
    /// name: what its generated code imports.
    pub fn imports(&self) -> &[Import] {
        &self.links.imports
    }

    /// [`Self::imports`] grouped by home module (module stem, its imports), sorted.
    pub fn imports_by_module(&self) -> Vec<(&str, Vec<&Import>)> {
        let mut groups: Vec<(&str, Vec<&Import>)> = Vec::new();
        for import in self.imports() {
            match groups.last_mut() {
                Some((stem, group)) if *stem == import.module => group.push(import),
                _ => groups.push((import.module.as_str(), vec![import])),
            }
        }
        groups
    }
}

/// The stem a schema file is emitted under: `a/b/chat.schema.json` and `a/chat.yaml`
/// → `chat`.
pub fn module_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::schema_file::stem(&name).to_owned()
}

/// Expands `--schema` arguments: a file is taken as is, a directory contributes its
/// `*.json`, `*.yaml` and `*.yml` files (not recursive). Sorted by path, duplicates
/// removed.
pub fn schema_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input).map_err(|err| Error::io(input, err))?;
        if meta.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|err| Error::io(input, err))?;
            for entry in entries {
                let path = entry.map_err(|err| Error::io(input, err))?.path();
                if crate::schema_file::is_schema_name(&path.to_string_lossy()) && path.is_file() {
                    files.push(path);
                }
            }
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err(Error::NoSchemaFiles {
            inputs: inputs.to_vec(),
        });
    }
    Ok(files)
}

/// Reads and parses every schema file into a [`Module`]; errors name the file as given.
pub fn load_modules(files: &[PathBuf]) -> Result<Vec<Module>> {
    let mut texts = Vec::with_capacity(files.len());
    for path in files {
        let text = crate::check::read_text(path)?;
        texts.push((path.display().to_string(), text));
    }
    modules_from_texts(&texts)
}

/// Parses schemas given as `(path or file name, text)` into [`Module`]s. Two schemas
/// with the same stem are an error (they would be emitted to the same module).
pub fn modules_from_texts(texts: &[(String, String)]) -> Result<Vec<Module>> {
    // Every input is a document `$ref`s may name (by `$id` or path), and the
    // directories they are in may be read for the files they reference.
    let mut documents = Vec::with_capacity(texts.len());
    let mut sources = model::Sources::none();
    for (path, text) in texts {
        let value = crate::schema_file::parse(path, text)
            .map_err(|err| Error::Schema(model::Error::new(path, "", err)))?;
        let path_ref = Path::new(path);
        let on_disk = path_ref.is_file().then_some(path_ref);
        if let Some(dir) = on_disk.and_then(Path::parent) {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            sources = sources.with_root(dir);
        }
        sources = sources.with_input(path, on_disk, value.clone());
        documents.push((path, on_disk, value));
    }
    let mut modules: Vec<Module> = Vec::with_capacity(texts.len());
    let mut stems: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (path, on_disk, value) in documents {
        let path_ref = Path::new(path);
        let stem = module_stem(path_ref);
        if let Some(other) = stems.get(&stem).map(|&i| &modules[i]) {
            return Err(Error::Schema(model::Error::new(
                path,
                "",
                format!(
                    "{} and {path} would both generate module `{stem}`",
                    other.model.file
                ),
            )));
        }
        let model = model::from_document(path, on_disk, &value, &sources)?;
        let file_name = path_ref
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        stems.insert(stem.clone(), modules.len());
        modules.push(Module {
            stem,
            file_name,
            model,
            links: link::Links::default(),
        });
    }
    let links = link::link(&modules);
    for (module, links) in modules.iter_mut().zip(links) {
        module.links = links;
    }
    Ok(modules)
}
