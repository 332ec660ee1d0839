//! From Rust types to JSON Schema (draft 2020-12): one deterministic document per
//! [`Protocol`], made to accept exactly what serde accepts.
//!
//! * [`document`] builds the document: every root's schema from schemars (and the
//!   macros' fragments in `parts`), the `x-symgen-protocol` header, then the transforms
//!   that close the gaps between schemars and serde (integer bounds, refusals of what no
//!   target language represents exactly, a field whose `null` serde tells from absent).
//! * [`render`] writes it as text, byte for byte deterministic; [`render_all`] writes
//!   the files of several protocols, where a later protocol `$ref`s the definitions it
//!   shares with an earlier one instead of copying them (`shared`).
//! * [`add_constraint`] and [`at_least_one_of`] let a type add a rule it checks in code
//!   (`#[schemars(transform = ...)]`).

mod direction;
mod distinct_null;
mod enum_aliases;
pub(crate) mod parts;
mod serde_gaps;
mod shared;
mod transforms;

use std::fmt;

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::Protocol;

pub use direction::check_directions;
pub use parts::{add_constraint, at_least_one_of, clean_doc};

/// A protocol whose types cannot be represented exactly; names the schema location.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Error {
    /// The schema file, e.g. `chat.schema.json`.
    pub file: String,
    /// JSON Pointer of the offending schema in that document.
    pub pointer: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.pointer, self.message)
    }
}

impl std::error::Error for Error {}

/// A rendered schema file: its name inside the schema directory and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaFile {
    /// File name, e.g. `chat.schema.json`.
    pub name: String,
    /// Exact file contents (pretty JSON, trailing newline).
    pub contents: String,
}

/// Builds the schema document of one protocol.
pub fn document(protocol: &Protocol) -> Result<Value, Error> {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let (roots, unions) = crate::probe::collecting(|| {
        protocol
            .roots()
            .iter()
            .map(|root| (root.schema)(&mut generator).to_value())
            .collect::<Vec<Value>>()
    });
    let mut defs: Map<String, Value> = generator.take_definitions(true);
    let mut tracer = crate::trace::Tracer::new();
    tracer.struct_keys(&defs);
    for root in protocol.roots() {
        (root.trace)(&mut tracer);
    }
    for union in &unions {
        (union.trace)(&mut tracer);
    }
    serde_gaps::apply(&mut tracer, &mut defs).map_err(|(pointer, message)| Error {
        file: protocol.file_name(),
        pointer,
        message,
    })?;
    direction::annotate_roots(protocol, &mut defs);
    let mut defs: Vec<(String, Value)> = defs.into_iter().collect();
    defs.sort_by(|a, b| a.0.cmp(&b.0));

    let mut document = Map::new();
    document.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    document.insert(
        "$id".into(),
        format!("urn:symgen:schema:{}", protocol.id()).into(),
    );
    if let Some(title) = protocol.title() {
        document.insert("title".into(), title.into());
    }
    if let Some(description) = protocol.description() {
        document.insert("description".into(), description.into());
    }
    document.insert("anyOf".into(), Value::Array(roots));
    document.insert("$defs".into(), Value::Object(Map::from_iter(defs)));
    let mut header = Map::new();
    header.insert("id".into(), protocol.id().into());
    if let Some(code) = protocol.code() {
        header.insert("code".into(), code.into());
    }
    header.insert(
        "roots".into(),
        json!(
            protocol
                .roots()
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
        ),
    );
    if let Some(pointer) = protocol.reply_data() {
        header.insert("replyData".into(), pointer.into());
    }
    if !protocol.parties().is_empty() {
        let parties = protocol
            .parties()
            .iter()
            .map(|p| (p.name.clone(), Value::from(p.description.as_str())));
        header.insert("parties".into(), Value::Object(Map::from_iter(parties)));
    }
    document.insert("x-symgen-protocol".into(), Value::Object(header));
    let mut document = Value::Object(document);
    direction::check(protocol, &document).map_err(|(pointer, message)| Error {
        file: protocol.file_name(),
        pointer,
        message,
    })?;
    transforms::tighten(&mut document);
    transforms::refuse_inexact(&document).map_err(|(pointer, message)| Error {
        file: protocol.file_name(),
        pointer,
        message,
    })?;
    distinct_null::refuse(&document, protocol.roots()).map_err(|(pointer, message)| Error {
        file: protocol.file_name(),
        pointer,
        message,
    })?;
    Ok(document)
}

/// Renders one protocol's schema file, byte for byte deterministic. The document
/// stands alone: every type it uses is defined in it.
pub fn render(protocol: &Protocol) -> Result<SchemaFile, Error> {
    Ok(to_file(protocol, &document(protocol)?))
}

/// Renders the schema files of `protocols`, in their order. A definition that an
/// earlier protocol's document has too, identically (with everything it refers to), is
/// written once: the later document `$ref`s it by the earlier one's `$id`
/// (`urn:symgen:schema:<id>#/$defs/<Name>`), so a type two protocols use is one type in
/// every generated language. Read the files together (a directory, or all of them as
/// inputs) for the references to resolve.
pub fn render_all(protocols: &[Protocol]) -> Result<Vec<SchemaFile>, Error> {
    let mut documents = protocols
        .iter()
        .map(document)
        .collect::<Result<Vec<Value>, Error>>()?;
    shared::link(&mut documents);
    Ok(protocols
        .iter()
        .zip(&documents)
        .map(|(protocol, document)| to_file(protocol, document))
        .collect())
}

fn to_file(protocol: &Protocol, document: &Value) -> SchemaFile {
    let mut contents =
        serde_json::to_string_pretty(document).expect("a JSON value always serializes");
    contents.push('\n');
    SchemaFile {
        name: protocol.file_name(),
        contents,
    }
}
