//! symgen: Rust types as the single source of truth for IPC protocols.
//!
//! A team declares its protocol types in its own crate with `serde` + `schemars` (and,
//! where it wants open unions, envelopes and request/reply pairing, the macros of
//! [`wire`]), registers them as [`Protocol`]s, and gets the whole pipeline:
//!
//! 1. [`schema`]: Rust types → one JSON Schema (draft 2020-12) document per protocol,
//!    accepting exactly what serde deserializes;
//! 2. [`model`]: any JSON Schema → one language-neutral model;
//! 3. [`emit`]: the model → a package per target language, through one [`emit::Backend`]
//!    per language and its `templates/<language>/`;
//! 4. [`check`]: every output regenerated in memory and compared with the disk (CI's
//!    drift check); [`project`]: the `symgen.toml` that says where outputs go and what
//!    they are called;
//! 5. [`validate`]: a runtime validator for single messages, JSON lines and JSON-RPC;
//! 6. [`breaking`]: what a schema change does to deployed peers, against a git revision.
//!
//! [`Cli`] puts it all behind one command line: a team's own binary is
//!
//! ```no_run
//! # mod chat { #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)] pub struct ChatMessage {} }
//! fn main() -> std::process::ExitCode {
//!     symgen::Cli::new()
//!         .protocol(symgen::Protocol::new("chat").root::<chat::ChatMessage>())
//!         .run()
//! }
//! ```

#![warn(missing_docs)]

pub mod breaking;
pub mod check;
pub mod cli;
pub mod docs;
pub mod emit;
pub mod error;
pub mod files;
pub mod model;
pub mod project;
mod schema_file;
pub mod tags;
pub mod trust;
mod uri;
pub mod validate;
pub mod vectors;

pub use cli::Cli;
pub use error::{Error, Result};
pub use symgen_wire::{
    Protocol, Root, const_str, envelope, internally_tagged_union, json_pointer, schema, string_enum,
};

/// The building blocks of protocol types: the macros, [`wire::Strict`] decoding,
/// [`wire::RawJson`], the request/reply markers. The same items as the `symgen-wire`
/// crate, which a crate that only declares types can depend on alone.
pub use symgen_wire as wire;
