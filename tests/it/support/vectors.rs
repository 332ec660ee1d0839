//! The conformance vectors (`tests/vectors/<protocol>/<kind>.json`, format in
//! `tests/vectors/README.md`), loaded for the Rust-side tests.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

/// One vector, as in `tests/vectors/README.md`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    pub name: String,
    pub root: String,
    pub message: Value,
    #[serde(default)]
    pub canonical: Option<Value>,
    #[serde(default)]
    pub reply_to: Option<String>,
    #[serde(default)]
    pub fault: Option<String>,
    #[serde(default)]
    pub pointer: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    /// The exact wire text, when `message` cannot say it (a key given twice).
    #[serde(default)]
    pub text: Option<String>,
}

impl Vector {
    /// What a reader is handed: `text` when given, else `message` as compact JSON.
    pub fn wire(&self) -> String {
        self.text
            .clone()
            .unwrap_or_else(|| serde_json::to_string(&self.message).expect("JSON"))
    }
}

/// The vectors of one kind (`valid`, `invalid`, `unknown`) of the protocol with this id.
pub fn load(protocol: &str, kind: &str) -> Vec<Vector> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(protocol)
        .join(format!("{kind}.json"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}
