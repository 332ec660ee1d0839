//! The project file, `symgen.toml`: where a repository keeps its schemas, generated
//! packages and conformance vectors, which languages it emits and what the packages are
//! called. `symgen generate` and `symgen check` read it, so both work the same in any
//! repository; every path in it is relative to the file's directory (the project root),
//! and every path symgen prints is relative to that root as well.
//!
//! ```toml
//! # Optional: the program that has the Rust protocol types registered (a binary
//! # calling `symgen::Cli`). The plain `symgen` binary runs it for the commands that
//! # need the types: schema, generate, check, validate --protocol.
//! command = ["cargo", "run", "--quiet", "--package", "xtask", "--"]
//!
//! # Which languages `generate` and `check` emit (default: every language symgen has but
//! # `rust`, which is for schemas the project does not own).
//! languages = ["typescript", "swift"]
//!
//! [schema]
//! dir = "schema"                  # the JSON Schema files (default: schema)
//!
//! [vectors]
//! dir = "tests/vectors"           # conformance vectors; without this table no vector
//!                                 # test is emitted
//! generate = true                 # `generate` writes (and `check` compares) the vectors
//!                                 # generated from the schemas, in <dir>/<schema>/generated/
//! max-per-root = 600              # candidates per entry point at most (default 600)
//!
//! [docs]
//! dir = "generated/docs"          # the Markdown message reference (`symgen docs`);
//!                                 # without this table generate/check skip it
//!
//! [typescript]                    # one table per language: `dir` plus its options
//! dir = "generated/typescript"    # (default: generated/<language>)
//! package = "chat-protocol"
//! ```
//!
//! The options of each language are documented in `docs/<language>.md` and checked by
//! its backend: an unknown key is an error, never ignored.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::emit::{self, Backend};
use crate::files::shown;

/// The file name symgen looks for.
pub const FILE_NAME: &str = "symgen.toml";

/// A problem with a project file: the file, where in it, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Error {
    /// The project file as found.
    pub file: PathBuf,
    /// The key (`typescript.package`) or line the problem is at, if known.
    pub location: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(location) => write!(f, "{}: {location}: {}", shown(&self.file), self.message),
            None => write!(f, "{}: {}", shown(&self.file), self.message),
        }
    }
}

impl std::error::Error for Error {}

/// One language a project emits.
#[derive(Debug, Clone)]
pub struct Language {
    /// Its backend.
    pub backend: &'static dyn Backend,
    /// Output directory, relative to the project root.
    pub dir: PathBuf,
    /// Whether the output directory may also hold files of the user's own
    /// (`allow-other-files`); otherwise `generate` refuses a directory with a file
    /// symgen did not write.
    pub allow_other_files: bool,
    /// Its table in the project file without `dir`: the backend's options.
    pub options: toml::Table,
}

/// A parsed `symgen.toml`.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project file.
    pub file: PathBuf,
    /// Its directory: every relative path is relative to it.
    pub root: PathBuf,
    /// The program with the Rust protocol types registered, as arguments.
    pub command: Option<Vec<String>>,
    /// The schema directory, relative to the root.
    pub schema_dir: PathBuf,
    /// Whether files of the user's own may sit beside the schemas symgen writes
    /// (`[schema] allow-other-files`).
    pub schema_shared: bool,
    /// The conformance vector directory, relative to the root, when there is one.
    pub vectors_dir: Option<PathBuf>,
    /// Whether `generate` writes (and `check` compares) the vectors generated from the
    /// schemas (`[vectors] generate`, default true when there is a vector directory).
    pub generate_vectors: bool,
    /// How the vectors are generated (`[vectors] max-per-root`).
    pub vector_settings: crate::vectors::Settings,
    /// The languages to emit, in registry order.
    pub languages: Vec<Language>,
    /// Where the Markdown message reference goes, relative to the root, when the project
    /// has a `[docs]` table (then `generate` writes it and `check` compares it).
    pub docs_dir: Option<PathBuf>,
    /// Whether files of the user's own may sit beside the pages symgen writes (`[docs]
    /// allow-other-files`).
    pub docs_shared: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct DirTable {
    dir: Option<PathBuf>,
    allow_other_files: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct VectorsTable {
    dir: Option<PathBuf>,
    generate: Option<bool>,
    max_per_root: Option<usize>,
}

impl Project {
    /// The project whose `symgen.toml` is in `start` or the nearest directory above it.
    pub fn discover(start: &Path) -> Result<Option<Self>, crate::Error> {
        let start = if start.as_os_str().is_empty() {
            Path::new(".")
        } else {
            start
        };
        let absolute = std::fs::canonicalize(start).map_err(|err| crate::Error::io(start, err))?;
        // Never across a filesystem or an ownership boundary (see `trust`).
        let dirs = crate::trust::search_path(
            &absolute,
            crate::trust::current_user(),
            crate::trust::owner_of,
        );
        for dir in dirs {
            let file = dir.join(FILE_NAME);
            if file.is_file() {
                return Self::load(&file).map(Some);
            }
        }
        Ok(None)
    }

    /// Reads the project file at `file`, refusing one another user owns or anyone may
    /// write (see [`crate::trust`]).
    pub fn load(file: &Path) -> Result<Self, crate::Error> {
        if let Some(why) = crate::trust::refusal(file) {
            return Err(crate::Error::Project(Error {
                file: file.to_path_buf(),
                location: None,
                message: format!("refused: {why}"),
            }));
        }
        let text = crate::check::read_text(file)?;
        let root = file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Self::parse(file, root, &text).map_err(crate::Error::Project)
    }

    /// Parses project file text; `file` and `root` say where it was found.
    pub fn parse(file: &Path, root: PathBuf, text: &str) -> Result<Self, Error> {
        let error = |location: Option<String>, message: String| Error {
            file: file.to_path_buf(),
            location,
            message,
        };
        let mut table: toml::Table = text.parse().map_err(|err: toml::de::Error| {
            let location = err
                .span()
                .map(|span| format!("line {}", 1 + text[..span.start].matches('\n').count()));
            error(location, err.message().to_owned())
        })?;

        let command = match table.remove("command") {
            None => None,
            Some(value) => {
                let argv: Vec<String> = value.try_into().map_err(|_| {
                    error(
                        Some("command".into()),
                        "must be an array of strings (program and arguments)".into(),
                    )
                })?;
                if argv.is_empty() {
                    return Err(error(Some("command".into()), "must name a program".into()));
                }
                Some(argv)
            }
        };
        // A `[schema]` or `[docs]` table: its directory, and whether files of the user's
        // own may sit beside symgen's there.
        let dir_of =
            |table: &mut toml::Table, key: &str, default: Option<&str>| match table.remove(key) {
                None => Ok((default.map(PathBuf::from), false)),
                Some(value) => {
                    let parsed: DirTable = value.try_into().map_err(|err: toml::de::Error| {
                        error(Some(key.into()), err.message().to_owned())
                    })?;
                    Ok((
                        parsed.dir.or_else(|| default.map(PathBuf::from)),
                        parsed.allow_other_files.unwrap_or(false),
                    ))
                }
            };
        let (schema_dir, schema_shared) = dir_of(&mut table, "schema", Some("schema"))?;
        let schema_dir = schema_dir.unwrap_or_else(|| PathBuf::from("schema"));
        let mut vector_settings = crate::vectors::Settings::default();
        let (vectors_dir, generate_vectors) = match table.remove("vectors") {
            None => (None, false),
            Some(value) => {
                let parsed: VectorsTable = value.try_into().map_err(|err: toml::de::Error| {
                    error(Some("vectors".into()), err.message().to_owned())
                })?;
                if let Some(max) = parsed.max_per_root {
                    if max == 0 {
                        return Err(error(
                            Some("vectors.max-per-root".into()),
                            "must be at least 1".into(),
                        ));
                    }
                    vector_settings.max_per_root = max;
                }
                (
                    Some(parsed.dir.unwrap_or_else(|| PathBuf::from("tests/vectors"))),
                    parsed.generate.unwrap_or(true),
                )
            }
        };

        let has_docs = table.contains_key("docs");
        let (docs_dir, docs_shared) = dir_of(&mut table, "docs", Some(crate::docs::DEFAULT_DIR))?;
        let docs_dir = docs_dir.filter(|_| has_docs);

        let names: Vec<String> = match table.remove("languages") {
            None => emit::backends()
                .iter()
                .filter(|b| b.by_default())
                .map(|b| b.name().to_owned())
                .collect(),
            Some(value) => value.try_into().map_err(|_| {
                error(
                    Some("languages".into()),
                    "must be an array of language names".into(),
                )
            })?,
        };
        let known = || {
            emit::backends()
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut languages = Vec::new();
        for backend in emit::backends() {
            let wanted = names.iter().any(|n| n == backend.name());
            let options = match table.remove(backend.name()) {
                None => toml::Table::new(),
                Some(toml::Value::Table(options)) => options,
                Some(_) => {
                    return Err(error(Some(backend.name().into()), "must be a table".into()));
                }
            };
            if !wanted {
                continue;
            }
            let mut options = options;
            let dir = match options.remove("dir") {
                None => PathBuf::from(backend.default_dir()),
                Some(toml::Value::String(dir)) => PathBuf::from(dir),
                Some(_) => {
                    return Err(error(
                        Some(format!("{}.dir", backend.name())),
                        "must be a string".into(),
                    ));
                }
            };
            let allow_other_files = match options.remove("allow-other-files") {
                None => false,
                Some(toml::Value::Boolean(allow)) => allow,
                Some(_) => {
                    return Err(error(
                        Some(format!("{}.allow-other-files", backend.name())),
                        "must be true or false".into(),
                    ));
                }
            };
            backend
                .check_options(&options)
                .map_err(|message| error(Some(backend.name().into()), message))?;
            languages.push(Language {
                backend: *backend,
                dir,
                allow_other_files,
                options,
            });
        }
        if let Some(unknown) = names
            .iter()
            .find(|n| !emit::backends().iter().any(|b| b.name() == n.as_str()))
        {
            let message = emit::left_out_message(unknown)
                .unwrap_or_else(|| format!("unknown language `{unknown}`; symgen has {}", known()));
            return Err(error(Some("languages".into()), message));
        }
        // A left-out language's table is the project's, for a full build: not an error.
        for (name, _) in emit::left_out() {
            table.remove(*name);
        }
        if let Some((key, _)) = table.iter().next() {
            let mut keys = vec!["command", "languages", "schema", "vectors", "docs"];
            keys.extend(emit::backends().iter().map(|b| b.name()));
            let closest = closest(key, &keys)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            return Err(error(
                Some(key.clone()),
                format!(
                    "unknown key; {closest}the keys are command, languages, schema, vectors, docs and one table per language ({})",
                    known()
                ),
            ));
        }
        let outputs: Vec<(String, &PathBuf)> = std::iter::once(("schema".to_owned(), &schema_dir))
            .chain(vectors_dir.iter().map(|d| ("vectors".to_owned(), d)))
            .chain(docs_dir.iter().map(|d| ("docs".to_owned(), d)))
            .chain(
                languages
                    .iter()
                    .map(|l| (l.backend.name().to_owned(), &l.dir)),
            )
            .collect();
        for (key, dir) in &outputs {
            check_relative(dir).map_err(|message| error(Some(format!("{key}.dir")), message))?;
        }
        // Each output owns its directory: none is the project root, and none is inside
        // another (`generate` would take the other's files for orphans).
        for (i, (key, dir)) in outputs.iter().enumerate() {
            if normal(dir).is_empty() {
                return Err(error(
                    Some(format!("{key}.dir")),
                    "is the project root; an output needs a directory of its own (e.g. \"generated/<language>\")".into(),
                ));
            }
            for (other_key, other) in &outputs[i + 1..] {
                let (a, b) = (normal(dir), normal(other));
                if a.starts_with(&b) || b.starts_with(&a) {
                    return Err(error(
                        Some(format!("{key}.dir")),
                        format!(
                            "`{}` and `{other_key}.dir` `{}` overlap; each output needs a directory of its own",
                            shown(dir),
                            shown(other)
                        ),
                    ));
                }
            }
        }
        Ok(Self {
            file: file.to_path_buf(),
            root,
            command,
            schema_dir,
            schema_shared,
            vectors_dir,
            generate_vectors,
            vector_settings,
            languages,
            docs_dir,
            docs_shared,
        })
    }

    /// `relative` joined to the project root.
    pub fn path(&self, relative: &Path) -> PathBuf {
        self.root.join(relative)
    }

    /// The language called `name`, when the project emits it.
    pub fn language(&self, name: &str) -> Option<&Language> {
        self.languages.iter().find(|l| l.backend.name() == name)
    }
}

/// The key of `known` closest to `key` (edit distance at most a third of its length,
/// and 2 at least), for a "did you mean" hint.
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let distance = |a: &str, b: &str| {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut previous = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let current = row[j + 1];
                row[j + 1] = if ca == *cb {
                    previous
                } else {
                    1 + previous.min(row[j]).min(row[j + 1])
                };
                previous = current;
            }
        }
        row[b.len()]
    };
    let limit = (key.chars().count() / 3).max(2);
    known
        .iter()
        .map(|k| (distance(&key.to_lowercase(), k), *k))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, k)| k)
}

/// A project-relative directory's normal components (`./a/./b` → `[a, b]`).
fn normal(dir: &Path) -> Vec<std::ffi::OsString> {
    dir.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(part) => Some(part.to_os_string()),
            _ => None,
        })
        .collect()
}

/// Output and input directories stay inside the project: relative, no `..`.
fn check_relative(dir: &Path) -> Result<(), String> {
    use std::path::Component;
    if dir.as_os_str().is_empty() {
        return Err("is empty; name a directory below the project root".into());
    }
    for component in dir.components() {
        match component {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "`{}` leaves the project; directories are relative to {FILE_NAME} and stay below it",
                    shown(dir)
                ));
            }
        }
    }
    Ok(())
}
