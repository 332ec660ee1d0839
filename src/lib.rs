//! symgen: Rust types as the single source of truth for IPC protocols.
//!
//! * [`wire`]: the generic building blocks (envelopes, open unions, string enums) that
//!   generate serde and schemars implementations from one declaration.
//! * [`protocols`]: the protocols symgen ships, one module each, and their registry.
//! * [`schema`]: JSON Schema (draft 2020-12) generation, one document per protocol.
//! * [`model`]: the language-neutral schema model every code generator renders.
//! * [`emit`]: the code generators (TypeScript) that render the model.
//! * [`check`]: the drift check that regenerates everything in memory and compares.
//! * [`validate`]: the runtime validator and `symgen validate`.

pub mod check;
pub mod cli;
pub mod emit;
pub mod error;
pub mod model;
pub mod protocols;
pub mod schema;
pub mod validate;
pub mod wire;

pub use error::{Error, Result};
