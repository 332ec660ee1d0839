//! The runtime validator: checks messages on the wire against the committed contract.
//!
//! * [`Validator`]: one per protocol ([`Validator::for_protocol`], from the schema its
//!   Rust types emit) or per user schema ([`Validator::from_schema_file`]);
//!   validates one message (bytes, text or `serde_json::Value`) and returns a [`Report`]
//!   with every [`Violation`] located by JSON Pointer and, for text, line and column.
//! * [`Validator::decode`]: the typed Rust message, or the same report.
//! * [`Validator::reply_to`]: reply data checked against the request's reply type.
//! * [`stream`]: JSON lines with bounded memory, line numbers and a [`Summary`].
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//! use symgen::Protocol;
//! use symgen::validate::{Outcome, Validator};
//!
//! symgen::string_enum! {
//!     /// How loud a log line is.
//!     pub enum Level {
//!         Debug = "debug",
//!         Info = "info",
//!     }
//! }
//!
//! /// A log line.
//! #[derive(Serialize, Deserialize, JsonSchema)]
//! pub struct Log {
//!     /// Its level.
//!     pub level: Level,
//!     /// The text.
//!     pub message: String,
//! }
//!
//! let logs = Validator::for_protocol(&Protocol::new("logs").root::<Log>()).unwrap();
//! let report = logs.validate_str(r#"{"level":"loud","message":"hi"}"#);
//! assert_eq!(report.outcome, Outcome::Invalid);
//! let v = &report.violations[0];
//! assert_eq!(v.pointer, "/level");
//! assert_eq!(v.message, r#"must be "debug" or "info"; found "loud""#);
//! assert_eq!((v.position.unwrap().line, v.position.unwrap().column), (1, 10));
//! ```

mod checks;
pub mod command;
mod compiled;
mod const_unions;
mod discriminator;
mod explain;
mod faults;
mod few;
mod keywords;
pub(crate) mod locate;
mod message;
mod narrow;
mod output;
mod patterns;
mod ref_chains;
mod report;
mod retrieve;
mod router;
pub mod stream;
mod tape;
mod text;
mod validator;
mod widths;

pub use compiled::{DEFAULT_MAX_ERRORS, SchemaOptions};
pub use keywords::{Asks, Failure, only as only_failing};
pub use locate::locate;
pub use report::{Name, Outcome, Position, Report, Violation, ViolationKind};
pub use retrieve::LocalRetriever;
pub use stream::{StreamOptions, Summary};
pub use text::MAX_DEPTH;
pub use validator::{ReplyValidator, Validator};
