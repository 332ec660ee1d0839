//! [`Protocol`]: a protocol's identity and its root message types, and what symgen needs
//! to know about each root ([`Root`]): its schema and serde's verdict on a message.

use std::borrow::Cow;

use schemars::{JsonSchema, SchemaGenerator};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::VariantInfo;
use crate::probe::{UnionTable, union_table};
use crate::support::Tagged;

/// The outcome of decoding a message into its Rust type and encoding it again.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundTrip {
    /// The re-encoded message.
    pub encoded: Value,
    /// Whether it decoded to the "unknown tag" case (R4).
    pub unknown: bool,
}

/// What serde's typed decode says about an accepted message (see [`Root::check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// The message's tag: canonical for a known variant, as received for an unknown one;
    /// `None` for plain types.
    pub tag: Option<Cow<'static, str>>,
    /// Whether it decoded to the "unknown tag" case (R4).
    pub unknown: bool,
}

/// Where and why serde rejected a message (see [`Root::decode_error`]).
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
#[derive(Clone)]
pub struct Root {
    name: Cow<'static, str>,
    pub(crate) schema: fn(&mut SchemaGenerator) -> schemars::Schema,
    roundtrip: fn(&str) -> Result<RoundTrip, String>,
    check: fn(&str) -> Result<Accepted, serde_json::Error>,
    verdict: fn(&str) -> Result<Accepted, Option<serde_json::Error>>,
    check_value: fn(&Value) -> Result<Accepted, serde_json::Error>,
    decode_error: fn(&str) -> Option<DecodeError>,
    variants: fn() -> &'static [VariantInfo],
    pub(crate) trace: fn(&mut crate::trace::Tracer),
    sent_by: Option<Vec<String>>,
    received_by: Option<Vec<String>>,
}

/// How a plain type (no open union) reports an accepted message.
fn plain<T>(_: &T) -> Accepted {
    Accepted {
        tag: None,
        unknown: false,
    }
}

/// How an open union the macros generated reports an accepted message.
pub(crate) fn tagged<T: Tagged>(value: &T) -> Accepted {
    let unknown = value.is_unknown();
    let tag = if unknown {
        Some(Cow::Owned(value.wire_tag().to_owned()))
    } else {
        value.known_tag().map(Cow::Borrowed)
    };
    Accepted { tag, unknown }
}

/// Decodes `text` as `T` with [`crate::Strict`] (serde_json alone: the reference the
/// quick decode is held to) and reports it with `report`.
pub(crate) fn check_text<T: DeserializeOwned>(
    text: &str,
    report: fn(&T) -> Accepted,
) -> Result<Accepted, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(crate::Strict(&mut de))?;
    de.end()?;
    Ok(report(&value))
}

/// [`check_text`]'s verdict, with serde_json's error only where the quick decode asked
/// it (see [`Root::verdict`]).
pub(crate) fn verdict_text<T: DeserializeOwned>(
    text: &str,
    report: fn(&T) -> Accepted,
) -> Result<Accepted, Option<serde_json::Error>> {
    verdict_of(text, crate::quick::decode::<T>(text), report)
}

/// [`verdict_text`] for an open union, reading a tight tag once
/// ([`Tagged::quick_tag_first`]).
pub(crate) fn verdict_union<T: Tagged + DeserializeOwned>(
    text: &str,
) -> Result<Accepted, Option<serde_json::Error>> {
    let quick = match T::quick_tag_first(text) {
        Some(quick) => quick,
        None => crate::quick::decode::<T>(text),
    };
    verdict_of(text, quick, tagged::<T>)
}

/// The verdict of a quick decode of `text`, serde_json's where it is unsure; reported
/// where it was decoded (the value is not moved out first).
#[inline(always)]
fn verdict_of<T: DeserializeOwned>(
    text: &str,
    quick: crate::quick::Quick<T>,
    report: fn(&T) -> Accepted,
) -> Result<Accepted, Option<serde_json::Error>> {
    use crate::quick::Quick;
    match quick {
        Quick::Decoded(value) => Ok(report(&value)),
        Quick::Refused => Err(None),
        Quick::Unsure => check_text(text, report).map_err(Some),
    }
}

/// Decodes an already parsed `value` as `T` and reports it with `report`.
pub(crate) fn check_value<T: DeserializeOwned>(
    value: &Value,
    report: fn(&T) -> Accepted,
) -> Result<Accepted, serde_json::Error> {
    T::deserialize(crate::Strict(value)).map(|decoded| report(&decoded))
}

/// Decodes `text` as `T` and re-encodes it; the error names the offending path.
pub(crate) fn roundtrip<T: DeserializeOwned + Serialize>(
    text: &str,
    report: fn(&T) -> Accepted,
) -> Result<RoundTrip, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(crate::Strict(&mut de)).map_err(|err| {
        let path = err.path().to_string();
        format!("{path}: {}", err.inner())
    })?;
    de.end().map_err(|err| err.to_string())?;
    let encoded = serde_json::to_value(&value).map_err(|err| err.to_string())?;
    Ok(RoundTrip {
        encoded,
        unknown: report(&value).unknown,
    })
}

/// Where serde rejects `text` as `T`, or `None` when it accepts it.
pub fn decode_error<T: DeserializeOwned>(text: &str) -> Option<DecodeError> {
    use serde_path_to_error::Segment;
    let mut de = serde_json::Deserializer::from_str(text);
    let err = match serde_path_to_error::deserialize::<_, T>(crate::Strict(&mut de)) {
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
            Segment::Map { key } => crate::json_pointer::push(&mut pointer, key),
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

fn no_variants() -> &'static [VariantInfo] {
    &[]
}

impl Root {
    /// Describes the root type `T`, named by its schema name (its `$defs` key). An open
    /// union declared with the macros is recognised as such; any other
    /// `Serialize + Deserialize + JsonSchema` type is a plain root.
    pub fn of<T>() -> Self
    where
        T: JsonSchema + Serialize + DeserializeOwned + 'static,
    {
        let name = T::schema_name();
        let trace = |tracer: &mut crate::trace::Tracer| tracer.entry::<T>();
        match union_table::<T>() {
            Some(table) => Self::from_table(name, table, trace),
            None => Self {
                name,
                schema: |generator| generator.subschema_for::<T>(),
                roundtrip: |text| roundtrip::<T>(text, plain),
                check: |text| check_text::<T>(text, plain),
                verdict: |text| verdict_text::<T>(text, plain),
                check_value: |value| check_value::<T>(value, plain),
                decode_error: decode_error::<T>,
                variants: no_variants,
                trace,
                sent_by: None,
                received_by: None,
            },
        }
    }

    fn from_table(
        name: Cow<'static, str>,
        table: UnionTable,
        trace: fn(&mut crate::trace::Tracer),
    ) -> Self {
        Self {
            name,
            schema: table.schema,
            roundtrip: table.roundtrip,
            check: table.check,
            verdict: table.verdict,
            check_value: table.check_value,
            decode_error: table.decode_error,
            variants: table.variants,
            trace,
            sent_by: None,
            received_by: None,
        }
    }

    /// The type's name, also its `$defs` key.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The type's name, without copying it when it is static (every non-generic type).
    pub fn shared_name(&self) -> Cow<'static, str> {
        self.name.clone()
    }

    /// The parties that send messages of this type, when declared
    /// ([`Protocol::sent_by`]). A variant's own `@sent_by(...)` takes precedence.
    pub fn sent_by(&self) -> Option<&[String]> {
        self.sent_by.as_deref()
    }

    /// The parties that receive messages of this type, when declared
    /// ([`Protocol::received_by`]).
    pub fn received_by(&self) -> Option<&[String]> {
        self.received_by.as_deref()
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

    /// serde's verdict on `text` as this type, without re-encoding, from serde_json's own
    /// decode (the reference; the runtime validator asks [`Self::verdict`]). The decoded
    /// value is dropped.
    pub fn check(&self, text: &str) -> Result<Accepted, serde_json::Error> {
        (self.check)(text)
    }

    /// serde's verdict on `text` as this type, as [`Self::check`] gives it, but cheaper
    /// to refuse: the error is `None` where serde's would only be built to be dropped
    /// (the quick decode is sure of the refusal, see [`crate::quick`]); ask
    /// [`Self::check`] or [`Self::decode_error`] for it.
    pub fn verdict(&self, text: &str) -> Result<Accepted, Option<serde_json::Error>> {
        (self.verdict)(text)
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

impl std::fmt::Debug for Root {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Root")
            .field("name", &self.name)
            .field("variants", &self.variants().len())
            .finish()
    }
}

/// A protocol: its identity and its top-level message types.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize, JsonSchema)]
/// struct Ping {
///     seq: u32,
/// }
///
/// let chat = symgen_wire::Protocol::new("chat")
///     .with_title("Chat protocol")
///     .root::<Ping>();
/// assert_eq!(chat.roots()[0].name(), "Ping");
/// ```
#[derive(Debug, Clone)]
pub struct Protocol {
    id: String,
    code: Option<String>,
    title: Option<String>,
    description: Option<String>,
    roots: Vec<Root>,
    reply_data: Option<String>,
    parties: Vec<Party>,
    misuse: Option<String>,
}

/// A program that takes part in a protocol (e.g. `extension`, `app`): the names that
/// `@sent_by(...)` / `@received_by(...)` and [`Protocol::sent_by`] use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// The name: lowercase letters, digits and `_`, e.g. `mcp_server`.
    pub name: String,
    /// What it is, in a phrase (e.g. "the VS Code extension (TypeScript)").
    pub description: String,
}

impl Protocol {
    /// A protocol called `id`: its schema file is `<id>.schema.json` and its generated
    /// modules are named after it. Use lowercase words joined by `-` or `_`.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            code: None,
            title: None,
            description: None,
            roots: Vec::new(),
            reply_data: None,
            parties: Vec::new(),
            misuse: None,
        }
    }

    /// A short code that also selects the protocol on the command line (e.g. `P1`).
    pub fn with_code(mut self, code: impl Into<String>) -> Self {
        self.code = Some(code.into());
        self
    }

    /// The schema's `title`.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The schema's `description`: what the protocol is, in a paragraph.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Where a reply's typed data sits inside a reply message (a JSON Pointer), e.g.
    /// `/payload/data` on a bus whose `response` carries it, or `/result` in JSON-RPC.
    /// Leave it unset when replies are whole messages.
    pub fn with_reply_data(mut self, pointer: impl Into<String>) -> Self {
        self.reply_data = Some(pointer.into());
        self
    }

    /// Declares a party of the protocol: a program that sends or receives its messages.
    /// Declare each party once; message types name them in `@sent_by(...)` /
    /// `@received_by(...)` (union variants) or with [`Protocol::sent_by`] (roots).
    pub fn with_party(mut self, name: impl Into<String>, description: impl Into<String>) -> Self {
        self.parties.push(Party {
            name: name.into(),
            description: description.into(),
        });
        self
    }

    /// Says which parties send the root type added last (every variant of it, unless a
    /// variant declares its own `@sent_by(...)`). An empty list means no live program
    /// sends it.
    pub fn sent_by<I, S>(self, parties: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.direct_last_root("sent_by", parties, |root| &mut root.sent_by)
    }

    /// Says which parties receive the root type added last (see [`Protocol::sent_by`]).
    pub fn received_by<I, S>(self, parties: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.direct_last_root("received_by", parties, |root| &mut root.received_by)
    }

    /// Sets one side of the direction of the root added last (`side` picks it); without
    /// a root, records the misuse of `method` for the schema to report.
    fn direct_last_root<I, S>(
        mut self,
        method: &str,
        parties: I,
        side: fn(&mut Root) -> &mut Option<Vec<String>>,
    ) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        match self.roots.last_mut() {
            Some(root) => *side(root) = Some(parties.into_iter().map(Into::into).collect()),
            None => {
                self.misuse = Some(format!("`{method}` names no root: call it after `root`"));
            }
        }
        self
    }

    /// The declared parties, in declaration order.
    pub fn parties(&self) -> &[Party] {
        &self.parties
    }

    /// A misuse of the builder that the schema reports (e.g. `sent_by` before any root).
    pub(crate) fn misuse(&self) -> Option<&str> {
        self.misuse.as_deref()
    }

    /// Adds a root message type: any `Serialize + Deserialize + JsonSchema` type, or an
    /// open union declared with [`crate::envelope!`] or [`crate::internally_tagged_union!`].
    pub fn root<T>(mut self) -> Self
    where
        T: JsonSchema + Serialize + DeserializeOwned + 'static,
    {
        self.roots.push(Root::of::<T>());
        self
    }

    /// The protocol id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The short code, if any.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The title, if any.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The description, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The root message types, in the order they were added.
    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// The JSON Pointer of reply data inside a reply message, if replies carry it.
    pub fn reply_data(&self) -> Option<&str> {
        self.reply_data.as_deref()
    }

    /// Whether `name` is this protocol's id or (ignoring case) its code.
    pub fn is_named(&self, name: &str) -> bool {
        self.id == name
            || self
                .code
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(name))
    }

    /// The root type with this name.
    pub fn root_named(&self, name: &str) -> Option<&Root> {
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

    /// The schema file name, e.g. `chat.schema.json`.
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.id)
    }
}
