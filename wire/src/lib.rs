//! symgen-wire: declare IPC message types once, in Rust, with `serde` and `schemars`.
//!
//! A protocol crate depends on this crate only (plus serde, serde_json and schemars); the
//! `symgen` toolkit turns what it declares into JSON Schema, TypeScript, Swift and a
//! runtime validator.
//!
//! * [`Protocol`]: a protocol's identity and its root message types. Any type that
//!   derives `Serialize`, `Deserialize` and `JsonSchema` can be a root
//!   (`Protocol::new("chat").root::<ChatMessage>()`); no extra trait is needed.
//! * The optional, richer path: macros that declare shapes serde's derives cannot say
//!   exactly, deriving serde and schemars from one declaration:
//!   [`envelope!`] (shared fields plus an adjacently tagged body, e.g.
//!   `{type, id, payload}`), [`internally_tagged_union!`] (`{"type": "a", ...fields}`),
//!   both open to unknown tags (rule R4) and pairing every request with its reply type
//!   (rule R8); [`string_enum!`] (closed string enums with input aliases) and
//!   [`const_str!`] (a fixed string such as `"2.0"`).
//! * [`Strict`]: decoding that is exactly as strict as the schema (structs only from
//!   objects); [`RawJson`]: arbitrary JSON kept as text.
//! * [`schema`]: one deterministic JSON Schema (draft 2020-12) document per protocol.
//!
//! Nothing in this crate names a concrete protocol.

#![warn(missing_docs)]

mod envelope;
mod internal;
pub mod json_pointer;
mod meta;
mod probe;
mod protocol;
pub mod quick;
mod raw;
pub mod schema;
mod strict;
mod string_enum;
mod support;
mod tag;
mod trace;
mod union;

pub use meta::{ReplyKind, ReplySpec, Request, UnionInfo, VariantInfo};
pub use protocol::{Accepted, DecodeError, Party, Protocol, Root, RoundTrip, decode_error};
pub use raw::RawJson;
pub use strict::{Strict, from_str};
pub use support::{
    Empty, IsReply, NoReply, Reply, UnknownPayload, decode_buffered, describe_json_type,
    null_as_default, object_text,
};

/// Support for the macros' expansions. Not public API: nothing here is covered by
/// semantic versioning.
#[doc(hidden)]
pub mod __private {
    pub use schemars;
    pub use serde;
    pub use serde_json;

    pub use crate::envelope::{ContentSeed, TaggedBody};
    pub use crate::meta::{accepts_empty, reply_of, reply_roundtrip_of, schema_of, trace_of};
    pub use crate::probe::note_union;
    pub use crate::schema::parts::{
        EnumValueSpec, EnvelopeSpec, FieldSpec, const_schema, envelope_schema,
        internal_union_schema, string_enum_schema,
    };
    pub use crate::support::{Tagged, WithoutKey, bad_tag, content_or_empty};
    pub use crate::tag::{FirstKey, FirstKeySeed, TagTextSeed, TagValue, TagValueSeed};
    pub use crate::trace::Tracer;
}
