//! `tests/fixtures/schemas/schemars-shapes.schema.json` is real schemars 1.x output for
//! the Rust types below, which use every shape schemars emits for serde types: the
//! tagging styles (the internally tagged newtype variant puts a `$ref` beside
//! `properties`), flattened structs and enums, documented unit enums, options, maps,
//! tuples, `Value`, recursion and `deny_unknown_fields`. This test regenerates it and
//! fails when the committed file differs (`SYMGEN_UPDATE_FIXTURES=1` rewrites it).

#![allow(dead_code)]

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every shape, reachable from one root.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Shapes {
    /// An optional small integer.
    small: Option<u8>,
    signed: i16,
    big: u64,
    ratio: f32,
    /// Arbitrary JSON.
    anything: Value,
    pair: (i32, String),
    counts: BTreeMap<String, u32>,
    list: Vec<Option<String>>,
    external: External,
    internal: Internal,
    adjacent: Adjacent,
    untagged: Untagged,
    documented: Documented,
    flattened: WithFlatten,
    tree: Tree,
    closed: Closed,
    id: Id,
    #[deprecated]
    old: Option<bool>,
    #[serde(rename = "kebab-name")]
    renamed: String,
    tally: Option<Tally>,
}

/// Externally tagged (serde's default).
#[derive(Serialize, Deserialize, JsonSchema)]
enum External {
    Unit,
    Other,
    Newtype(String),
    Tuple(u8, bool),
    Struct { x: f64, y: f64 },
}

/// Internally tagged, with a newtype variant around a struct.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Internal {
    Start(Start),
    Stop { code: i32 },
    Pause,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Start {
    at: String,
}

/// Adjacently tagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Text(String),
    Point { x: i64, y: i64 },
    Nothing,
}

/// Untagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    Number(f64),
    Word(String),
    Record(Start),
}

/// Unit variants with docs.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
enum Documented {
    /// The first.
    FirstOne,
    /// The second.
    SecondOne,
}

/// A struct with a flattened struct and a flattened internally tagged enum.
#[derive(Serialize, Deserialize, JsonSchema)]
struct WithFlatten {
    name: String,
    #[serde(flatten)]
    extra: Extra,
    #[serde(flatten)]
    kind: Kind,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Extra {
    note: Option<String>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Kind {
    Plain,
    Fancy { level: u8 },
}

/// A recursive type.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Tree {
    label: String,
    children: Vec<Tree>,
    parent: Option<Box<Tree>>,
}

/// Unknown keys are rejected.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Closed {
    only: bool,
}

/// A newtype struct.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Id(String);

/// Named fields beside integer values under any other key (`#[serde(flatten)] rest: BTreeMap<String, u32>`).
#[derive(Serialize, Deserialize, JsonSchema)]
struct Tally {
    name: String,
    #[serde(flatten)]
    rest: BTreeMap<String, u32>,
}

const PATH: &str = "tests/fixtures/schemas/schemars-shapes.schema.json";

#[test]
fn schemars_fixture_is_current() {
    let schema = schemars::schema_for!(Shapes);
    let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
    if std::env::var_os("SYMGEN_UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{PATH} is not what schemars generates; rerun with SYMGEN_UPDATE_FIXTURES=1"
    );
}
