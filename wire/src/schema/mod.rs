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
///
/// The document's key order is part of what it says (the order of each object's
/// `properties` is the order of every generated language's fields), so it is built only
/// where serde_json's maps keep insertion order: its `preserve_order` feature, which
/// the symgen crate (the command line that writes schemas) turns on. symgen-wire does
/// not, so that a program depending on a protocol crate keeps serde_json's default
/// maps; a build without the feature gets an error saying so, never a schema whose
/// fields are silently sorted.
pub fn document(protocol: &Protocol) -> Result<Value, Error> {
    if !maps_keep_order() {
        return Err(Error {
            file: protocol.file_name(),
            pointer: String::new(),
            message: "serde_json's maps do not keep insertion order in this build, so the \
                      schema's properties would be written sorted: write schemas with the \
                      symgen command line (it turns on serde_json's `preserve_order`), or \
                      turn that feature on in the program that calls symgen_wire::schema"
                .into(),
        });
    }
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

/// Whether serde_json's `Map` keeps insertion order (its `preserve_order` feature is on
/// in this build).
fn maps_keep_order() -> bool {
    let mut map = Map::new();
    map.insert("b".into(), Value::Null);
    map.insert("a".into(), Value::Null);
    map.keys().next().is_some_and(|first| first == "b")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
    struct Point {
        y: i32,
        x: i32,
    }

    /// Built alone (`cargo test -p symgen-wire`), serde_json's maps are sorted: the
    /// document is refused with its reason, never written with `x` before `y`. Built
    /// beside the symgen crate, they keep order and the fields stay as declared.
    #[test]
    fn a_document_is_built_only_where_maps_keep_their_order() {
        let protocol = Protocol::new("points").root::<Point>();
        match document(&protocol) {
            Ok(document) => {
                assert!(maps_keep_order());
                let point = &document["$defs"]["Point"]["properties"];
                let keys: Vec<&String> = point.as_object().unwrap().keys().collect();
                assert_eq!(keys, ["y", "x"]);
            }
            Err(err) => {
                assert!(!maps_keep_order());
                assert!(err.message.contains("preserve_order"), "{}", err.message);
            }
        }
    }
}
