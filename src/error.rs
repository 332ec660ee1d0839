//! The library's error type.

use std::path::PathBuf;

/// Everything that can go wrong in symgen's library calls.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A command-line argument or configuration is unusable.
    #[error("{0}")]
    Usage(String),
    /// A schema cannot be read, modelled or rendered.
    #[error("{0}")]
    Schema(#[from] crate::model::Error),
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
