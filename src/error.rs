//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in symgen's library calls.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", crate::files::shown(path))]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A command-line argument is unusable.
    #[error("{0}")]
    Usage(String),
    /// The project file (`symgen.toml`) is unusable.
    #[error("{0}")]
    Project(#[from] crate::project::Error),
    /// A schema cannot be read or modelled (`file:pointer: message`).
    #[error("{0}")]
    Schema(#[from] crate::model::Error),
    /// Registered Rust types that no schema (or no target language) represents exactly.
    #[error("{0}")]
    Protocol(#[from] crate::schema::Error),
    /// A backend cannot render a schema (`file:pointer: message (language)`).
    #[error("{0}")]
    Emit(#[from] crate::emit::EmitError),
    /// `--deny-warnings` and the schemas say things the generated types do not enforce
    /// (each printed as a warning first).
    #[error("{count} warning(s), denied by --deny-warnings")]
    Warnings {
        /// How many.
        count: usize,
    },
    /// A schema the validator cannot compile: where in it, and why.
    #[error("{}: unusable schema: {message}", location(file.as_deref(), pointer))]
    UnusableSchema {
        /// The schema file, when it came from one.
        file: Option<String>,
        /// JSON Pointer of the offending part (`""` for the document).
        pointer: String,
        /// Why.
        message: String,
    },
    /// Replies to this request cannot be checked.
    #[error("replies to `{request}`: {message}")]
    Reply {
        /// The request's tag.
        request: String,
        /// Why.
        message: String,
    },
    /// A conformance vector cannot be given one verdict: the schema's and serde's
    /// differ, or no instance of a root can be built (`file: vector: message`).
    #[error(
        "{}: vector `{}`: {}",
        crate::files::escape_controls(file),
        crate::files::escape_controls(vector),
        crate::files::escape_controls(message)
    )]
    Vectors {
        /// The schema file.
        file: String,
        /// The vector's name.
        vector: String,
        /// What is wrong.
        message: String,
    },
    /// The `--schema` inputs hold no schema file.
    #[error("no schema files (*.json) in {}", list(inputs))]
    NoSchemaFiles {
        /// The files and directories given.
        inputs: Vec<PathBuf>,
    },
}

/// `file:pointer`, or the part that is known.
fn location(file: Option<&str>, pointer: &str) -> String {
    let file = file.map(crate::files::escape_controls);
    let file = file.as_deref();
    let pointer = &*crate::files::escape_controls(pointer);
    match (file, pointer) {
        (Some(file), "") => file.to_owned(),
        (Some(file), pointer) => format!("{file}:{pointer}"),
        (None, "") => "schema".to_owned(),
        (None, pointer) => format!("schema:{pointer}"),
    }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| crate::files::shown(p))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result with symgen's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
