//! Building blocks for wire types: the generic pieces that protocol modules use to
//! declare tagged unions, envelopes and string enums exactly as the wire carries them.
//!
//! Nothing in here names a concrete protocol type. The macros (`envelope!`,
//! `internally_tagged_union!`, `string_enum!`, `const_str!`) generate the serde and
//! schemars implementations together, so the JSON Schema is derived from the very same
//! declaration that decides what serde accepts.

mod envelope;
mod internal;
mod meta;
mod raw;
mod strict;
mod string_enum;
mod support;
mod union;

pub use meta::{ReplyKind, ReplySpec, Request, UnionInfo, VariantInfo};
#[doc(hidden)]
pub use meta::{accepts_empty, reply_of, reply_roundtrip_of, schema_of};
pub use raw::RawJson;
pub use strict::{Strict, from_str};
pub use support::{
    Classify, Empty, IsReply, NoReply, Reply, UnknownPayload, content_or_empty, decode_buffered,
    null_as_default, wrap_path_error,
};

#[doc(hidden)]
pub use envelope::ContentSeed as __ContentSeed;

/// A short name of a JSON value's type, for error messages.
pub fn describe_json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

#[doc(hidden)]
pub fn __bad_tag<E: serde::de::Error>(tag_key: &str, found: &serde_json::Value) -> E {
    E::custom(format_args!(
        "{tag_key}: invalid type: {}, expected a string tag",
        describe_json_type(found)
    ))
}

#[doc(hidden)]
pub mod __private {
    pub use schemars;
    pub use serde;
    pub use serde_json;
}
