//! From Rust types to JSON Schema: the schema pieces the wire macros emit, the
//! transforms that make schemars' output accept exactly what serde accepts, and the
//! assembly of one deterministic schema document per protocol.

pub mod build;
mod document;
mod transforms;

pub use document::{
    Accepted, DecodeError, ProtocolDef, RootType, RoundTrip, SchemaFile, build_protocol,
    decode_error, render_all, render_protocol,
};
pub use transforms::tighten;
