//! Metadata that the generated unions expose so the schema builder can describe them
//! without knowing any concrete type.

use schemars::{JsonSchema, Schema, SchemaGenerator};

/// What a request expects back (catalog rule R8).
pub enum ReplyKind {
    /// The variant is itself a reply (e.g. P1 `response`); it pairs with nothing.
    IsReply,
    /// A request that expects no reply.
    None,
    /// A request answered by a reply whose data has this schema.
    Data(Schema),
}

/// Implemented by [`crate::Reply`] and [`crate::NoReply`]: the reply side of a
/// request declared in Rust.
pub trait ReplySpec {
    /// The reply data type (`()` when there is none).
    type Data;
    /// The schema of the reply data, if any.
    fn reply_kind(generator: &mut SchemaGenerator) -> ReplyKind;
    /// Decodes reply data into [`Self::Data`] and re-encodes it: `None` when the variant
    /// has no typed reply, else serde's verdict (the error names the offending path).
    fn reply_roundtrip(data: &serde_json::Value) -> Option<Result<serde_json::Value, String>>;
    /// Traces the reply data type's `Deserialize` impl (see [`crate::__private::Tracer`]).
    fn trace(_tracer: &mut crate::trace::Tracer) {}
}

/// A request declared on a tagged union: its tag, payload type and reply type (R8).
///
/// The union macros generate one marker type per variant that implements this trait, so
/// `<requests::GetSelection as Request>::Reply` names the reply type in Rust.
pub trait Request {
    /// The canonical wire tag.
    const TAG: &'static str;
    /// The payload (content) type.
    type Payload;
    /// The reply declaration: `Reply<T>` or `NoReply`.
    type Reply: ReplySpec;
}

/// One variant of a tagged union, as the schema builder sees it.
pub struct VariantInfo {
    /// The Rust variant name (also the title of the variant in the schema).
    pub name: &'static str,
    /// The canonical tag emitted on the wire.
    pub tag: &'static str,
    /// Extra tags accepted on input.
    pub aliases: &'static [&'static str],
    /// The doc comment of the variant.
    pub doc: &'static str,
    /// Whether the message is retired (kept for decoding only).
    pub retired: bool,
    /// The parties that send this message (`@sent_by(...)`), when declared. The names
    /// are the protocol's parties ([`crate::Protocol::with_party`]).
    pub sent_by: Option<&'static [&'static str]>,
    /// The parties that receive this message (`@received_by(...)`), when declared.
    pub received_by: Option<&'static [&'static str]>,
    /// `None` for a unit variant (no payload at all).
    pub payload: Option<fn(&mut SchemaGenerator) -> Schema>,
    /// Whether the payload type deserializes from `{}` (then it may be absent or null).
    pub payload_accepts_empty: fn() -> bool,
    /// The reply pairing of this variant.
    pub reply: fn(&mut SchemaGenerator) -> ReplyKind,
    /// Decodes and re-encodes reply data of this variant's reply type (see
    /// [`ReplySpec::reply_roundtrip`]).
    pub reply_roundtrip: fn(&serde_json::Value) -> Option<Result<serde_json::Value, String>>,
    /// Traces the payload's and the reply data's `Deserialize` impls.
    #[doc(hidden)]
    pub trace: fn(&mut crate::trace::Tracer),
}

/// Implemented by every tagged union the macros generate.
pub trait UnionInfo {
    /// The known variants, in declaration order.
    fn variants() -> &'static [VariantInfo];
}

/// The schema of `T`, as a function pointer the macros can store.
pub fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// Whether `T` decodes from `{}` (then an envelope's content may be absent or null).
pub fn accepts_empty<T: serde::de::DeserializeOwned>() -> bool {
    serde_json::from_str::<T>("{}").is_ok()
}

/// [`ReplySpec::reply_roundtrip`] of `R`, as a function pointer.
pub fn reply_roundtrip_of<R: ReplySpec>(
    data: &serde_json::Value,
) -> Option<Result<serde_json::Value, String>> {
    R::reply_roundtrip(data)
}

/// [`ReplySpec::reply_kind`] of `R`, as a function pointer.
pub fn reply_of<R: ReplySpec>(generator: &mut SchemaGenerator) -> ReplyKind {
    R::reply_kind(generator)
}

/// Traces `T` and the reply data of `R` (a variant's payload and reply types).
pub fn trace_of<T: serde::de::DeserializeOwned, R: ReplySpec>(tracer: &mut crate::trace::Tracer) {
    tracer.entry::<T>();
    R::trace(tracer);
}
