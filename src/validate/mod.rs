//! The runtime validator: checks messages on the wire against the committed contract.
//!
//! * [`Validator`]: one per protocol ([`Validator::for_protocol`], from the schema
//!   embedded in the binary) or per user schema ([`Validator::from_schema_file`]);
//!   validates one message (bytes, text or `serde_json::Value`) and returns a [`Report`]
//!   with every [`Violation`] located by JSON Pointer and, for text, line and column.
//! * [`Validator::decode`]: the typed Rust message, or the same report.
//! * [`Validator::reply_to`]: reply data checked against the request's reply type.
//! * [`stream`]: JSON lines with bounded memory, line numbers and a [`Summary`].
//!
//! ```
//! use symgen::validate::{Outcome, Validator};
//!
//! let p1 = Validator::for_protocol("symposium").unwrap();
//! let report = p1.validate_str(
//!     r#"{"type":"log","id":"1","sender":{"workingDirectory":"/"},"payload":{"level":"loud","message":"hi"}}"#,
//! );
//! assert_eq!(report.outcome, Outcome::Invalid);
//! let v = &report.violations[0];
//! assert_eq!(v.pointer, "/payload/level");
//! assert_eq!(v.message, r#"must be one of "debug", "info", "warn", "error"; found "loud""#);
//! assert_eq!((v.position.unwrap().line, v.position.unwrap().column), (1, 77));
//! ```

pub mod command;
mod compiled;
mod discriminator;
mod embedded;
mod explain;
mod locate;
mod output;
mod report;
mod retrieve;
pub mod stream;
mod text;
mod validator;

pub use compiled::SchemaOptions;
pub use embedded::schema_text;
pub use locate::locate;
pub use report::{Outcome, Position, Report, Violation, ViolationKind};
pub use retrieve::LocalRetriever;
pub use stream::{StreamOptions, Summary};
pub use text::MAX_DEPTH;
pub use validator::{ReplyValidator, Validator};
