//! One deterministic JSON Schema (draft 2020-12) document per protocol.

use std::borrow::Cow;

use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value, json};

use crate::wire::{Classify, VariantInfo};

/// The outcome of decoding a message into its Rust type and encoding it again.
pub struct RoundTrip {
    /// The re-encoded message.
    pub encoded: Value,
    /// Whether it decoded to the "unknown tag" case (R4).
    pub unknown: bool,
}

/// What serde's typed decode says about an accepted message (see [`RootType::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The message's tag: canonical for a known variant, as received for an unknown one;
    /// `None` for plain structs.
    pub tag: Option<Cow<'static, str>>,
    /// Whether it decoded to the "unknown tag" case (R4).
    pub unknown: bool,
}

/// Where and why serde rejected a message (see [`RootType::decode_error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// JSON Pointer of the value serde was decoding when it failed (`""` = the message).
    pub pointer: String,
    /// serde's message, without its position.
    pub message: String,
    /// 1-based line of the failure in the text (0 when unknown).
    pub line: usize,
    /// 1-based byte column of the failure in its line (0 when unknown).
    pub column: usize,
}

/// A top-level wire message type of a protocol (a schema root).
pub struct RootType {
    /// The type name, also its `$defs` key.
    pub name: &'static str,
    schema: fn(&mut SchemaGenerator) -> schemars::Schema,
    roundtrip: fn(&str) -> Result<RoundTrip, String>,
    check: fn(&str) -> Result<Accepted, serde_json::Error>,
    check_value: fn(&Value) -> Result<Accepted, serde_json::Error>,
    decode_error: fn(&str) -> Option<DecodeError>,
    variants: fn() -> &'static [VariantInfo],
}

fn accepted<T: Classify>(value: &T) -> Accepted {
    let unknown = value.is_unknown();
    let tag = if unknown {
        value.wire_tag().map(|tag| Cow::Owned(tag.to_owned()))
    } else {
        value.known_tag().map(Cow::Borrowed)
    };
    Accepted { tag, unknown }
}

fn check_text<T: DeserializeOwned + Classify>(text: &str) -> Result<Accepted, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(crate::wire::Strict(&mut de))?;
    de.end()?;
    Ok(accepted(&value))
}

fn check_value<T: DeserializeOwned + Classify>(
    value: &Value,
) -> Result<Accepted, serde_json::Error> {
    T::deserialize(crate::wire::Strict(value)).map(|decoded| accepted(&decoded))
}

/// Where serde rejects `text` as `T`, or `None` when it accepts it.
pub fn decode_error<T: DeserializeOwned>(text: &str) -> Option<DecodeError> {
    use serde_path_to_error::Segment;
    let mut de = serde_json::Deserializer::from_str(text);
    let err = match serde_path_to_error::deserialize::<_, T>(crate::wire::Strict(&mut de)) {
        Ok(_) => match de.end() {
            Ok(()) => return None,
            Err(inner) => {
                return Some(DecodeError {
                    pointer: String::new(),
                    message: strip_position(&inner),
                    line: inner.line(),
                    column: inner.column(),
                });
            }
        },
        Err(err) => err,
    };
    let mut pointer = String::new();
    for segment in err.path().iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    let inner = err.inner();
    Some(DecodeError {
        pointer,
        message: strip_position(inner),
        line: inner.line(),
        column: inner.column(),
    })
}

/// serde_json's message without the trailing " at line L column C".
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&suffix) {
        Some(stripped) => stripped.to_owned(),
        None => text,
    }
}

impl RootType {
    /// Describes the root type `T`.
    pub fn of<T>(name: &'static str) -> Self
    where
        T: JsonSchema + Serialize + DeserializeOwned + Classify,
    {
        Self {
            name,
            schema: |generator| generator.subschema_for::<T>(),
            roundtrip: |text| {
                let mut de = serde_json::Deserializer::from_str(text);
                let value: T = serde_path_to_error::deserialize(crate::wire::Strict(&mut de))
                    .map_err(|err| {
                        let path = err.path().to_string();
                        format!("{path}: {}", err.inner())
                    })?;
                de.end().map_err(|err| err.to_string())?;
                let encoded = serde_json::to_value(&value).map_err(|err| err.to_string())?;
                Ok(RoundTrip {
                    encoded,
                    unknown: value.is_unknown(),
                })
            },
            check: check_text::<T>,
            check_value: check_value::<T>,
            decode_error: decode_error::<T>,
            variants: T::union_variants,
        }
    }

    /// The known variants when this root is a tagged union (empty otherwise).
    pub fn variants(&self) -> &'static [VariantInfo] {
        (self.variants)()
    }

    /// The variant whose canonical tag or alias is `tag`.
    pub fn variant(&self, tag: &str) -> Option<&'static VariantInfo> {
        self.variants()
            .iter()
            .find(|v| v.tag == tag || v.aliases.contains(&tag))
    }

    /// Decodes `text` as this type (serde's verdict) and re-encodes it. The error names
    /// the path of the offending field.
    pub fn roundtrip(&self, text: &str) -> Result<RoundTrip, String> {
        (self.roundtrip)(text)
    }

    /// serde's verdict on `text` as this type, without re-encoding: the fast path of the
    /// runtime validator. The decoded value is dropped.
    pub fn check(&self, text: &str) -> Result<Accepted, serde_json::Error> {
        (self.check)(text)
    }

    /// serde's verdict on an already parsed value as this type.
    pub fn check_value(&self, value: &Value) -> Result<Accepted, serde_json::Error> {
        (self.check_value)(value)
    }

    /// Where serde rejects `text` as this type (`None` when it accepts it): the JSON
    /// Pointer of the value being decoded, the message and the position.
    pub fn decode_error(&self, text: &str) -> Option<DecodeError> {
        (self.decode_error)(text)
    }
}

/// A protocol: its identity and its top-level message types.
pub struct ProtocolDef {
    /// Short id used for file names and `--protocol` (e.g. `symposium`).
    pub id: &'static str,
    /// Catalog code (`P1` .. `P5`).
    pub code: &'static str,
    /// Human title.
    pub title: &'static str,
    /// What the protocol is, in a paragraph.
    pub description: &'static str,
    /// Its top-level wire message types.
    pub roots: Vec<RootType>,
    /// Where a reply's typed data sits inside a reply message (a JSON pointer), e.g.
    /// `/payload/data` on the P1 bus or `/result` in JSON-RPC; `None` when replies are
    /// whole messages.
    pub reply_data_pointer: Option<&'static str>,
}

impl ProtocolDef {
    /// The root type with this name.
    pub fn root(&self, name: &str) -> Option<&RootType> {
        self.roots.iter().find(|root| root.name == name)
    }

    /// Decodes reply data for a request with tag `request_tag` (searched in every root's
    /// union) with serde and re-encodes it. `None` when no root knows the tag or the
    /// request expects no typed reply.
    pub fn reply_roundtrip(
        &self,
        request_tag: &str,
        data: &Value,
    ) -> Option<Result<Value, String>> {
        self.roots
            .iter()
            .find_map(|root| root.variant(request_tag))
            .and_then(|variant| (variant.reply_roundtrip)(data))
    }

    /// The schema file name, e.g. `symposium.schema.json`.
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.id)
    }
}

/// A rendered schema file: its name inside the schema directory and its bytes.
pub struct SchemaFile {
    /// File name.
    pub name: String,
    /// Exact file contents (pretty JSON, trailing newline).
    pub contents: String,
}

/// Builds the schema document of one protocol.
pub fn build_protocol(protocol: &ProtocolDef) -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let roots: Vec<Value> = protocol
        .roots
        .iter()
        .map(|root| (root.schema)(&mut generator).to_value())
        .collect();
    let defs: Map<String, Value> = generator.take_definitions(true);
    let mut defs: Vec<(String, Value)> = defs.into_iter().collect();
    defs.sort_by(|a, b| a.0.cmp(&b.0));

    let mut document = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("urn:symgen:schema:{}", protocol.id),
        "title": protocol.title,
        "description": protocol.description,
        "anyOf": roots,
        "$defs": Map::from_iter(defs),
        "x-symgen-protocol": {
            "id": protocol.id,
            "code": protocol.code,
            "roots": protocol.roots.iter().map(|r| r.name).collect::<Vec<_>>(),
        },
    });
    if let Some(pointer) = protocol.reply_data_pointer {
        document["x-symgen-protocol"]["replyData"] = Value::from(pointer);
    }
    super::tighten(&mut document);
    document
}

/// Renders one protocol's schema file, byte for byte deterministic.
pub fn render_protocol(protocol: &ProtocolDef) -> SchemaFile {
    let document = build_protocol(protocol);
    let mut contents =
        serde_json::to_string_pretty(&document).expect("a JSON value always serializes");
    contents.push('\n');
    SchemaFile {
        name: protocol.file_name(),
        contents,
    }
}

/// Renders every protocol's schema file.
pub fn render_all(protocols: &[ProtocolDef]) -> Vec<SchemaFile> {
    protocols.iter().map(render_protocol).collect()
}
