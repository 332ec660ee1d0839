//! The model's error: a location in a schema document and what is wrong there.

use std::fmt;

/// A schema the model cannot represent, or cannot read. Displayed as
/// `file:json-pointer: message` (the pointer is empty for the document itself).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Error {
    /// The schema file, as the caller named it.
    pub file: String,
    /// JSON Pointer (RFC 6901) of the offending schema in the document.
    pub pointer: String,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl Error {
    /// An error at `pointer` in `file`.
    pub fn new(file: &str, pointer: &str, message: impl Into<String>) -> Self {
        Error {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}:{}: {}", self.file, self.pointer, self.message);
        f.write_str(&crate::files::escape_controls(&text))
    }
}

impl std::error::Error for Error {}

/// Something a schema says that the generated types do not enforce or represent
/// exactly (a `pattern`, a `not`, a `$ref` to a meta-schema). Displayed as
/// `file:json-pointer: warning: message`; generation goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// The schema file, as the caller named it.
    pub file: String,
    /// JSON Pointer of the schema the warning is about.
    pub pointer: String,
    /// What is not enforced, in one sentence.
    pub message: String,
    /// What it is about: the schema at `pointer` and all below it, the keyword at
    /// `pointer` alone, or no rule the generated types let through.
    pub reach: Reach,
}

/// What a [`Warning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The schema at the pointer and every schema below it.
    Below,
    /// The keyword at the pointer on its own: a `oneOf`'s "exactly one", not what its
    /// alternatives ask.
    Keyword,
    /// Nothing the schema refuses: the generated types take less than the schema here
    /// (a non-object where a schema without `type` describes an object) or leave out
    /// what only documents (a `default` of another type), so no fault is excused by it.
    Nothing,
}

impl Warning {
    /// A warning at `pointer` in `file`, about the schema there and all below it.
    pub fn new(file: &str, pointer: &str, message: impl Into<String>) -> Self {
        Warning {
            file: file.to_owned(),
            pointer: pointer.to_owned(),
            message: message.into(),
            reach: Reach::Below,
        }
    }

    /// This warning, about what `reach` says.
    pub fn reaching(mut self, reach: Reach) -> Self {
        self.reach = reach;
        self
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}:{}: warning: {}", self.file, self.pointer, self.message);
        f.write_str(&crate::files::escape_controls(&text))
    }
}
