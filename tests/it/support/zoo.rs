//! Rust types that between them use what serde's derives and serde_json offer a decoder
//! (every container and enum representation, `flatten`, defaults, renames, numbers of
//! every width, keys read as numbers, raw values, a field that swallows its decode
//! errors, recursion), with texts of each, for holding the quick decode
//! (`symgen_wire::quick`) to serde_json's by [`compare`]. Shared by
//! tests/it/quick_decode.rs and the `quick` fuzz target (fuzz/fuzz_targets/quick.rs).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

#[derive(Debug, PartialEq, Deserialize)]
pub struct Plain {
    a: u8,
    b: Option<String>,
    #[serde(default)]
    c: Vec<i32>,
    d: f64,
    e: bool,
    f: char,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Closed {
    first_name: String,
    #[serde(alias = "years")]
    age: Option<u32>,
    #[serde(skip)]
    skipped: u8,
}

#[derive(Debug, PartialEq, Deserialize)]
pub enum External {
    Unit,
    Newtype(u32),
    Tuple(i8, String),
    Struct { x: i64, y: Option<bool> },
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Internal {
    Point { x: u16, y: u16 },
    Named(Closed),
    Nothing,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Number(f32),
    Words(Vec<String>),
    Empty,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Untagged {
    Count(u64),
    Negative(i64),
    Text(String),
    Pair(u8, u8),
    Object { y: bool },
    List(Vec<Value>),
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Flattened {
    id: u32,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Inner {
    name: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Numbers {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u16,
    f: u32,
    g: u64,
    h: f32,
    #[serde(default)]
    i: Option<i128>,
    #[serde(default)]
    j: Option<u128>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Maps {
    by_name: BTreeMap<String, u8>,
    #[serde(default)]
    by_number: BTreeMap<u32, bool>,
    #[serde(default)]
    by_flag: BTreeMap<bool, i8>,
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Meters(f64);

#[derive(Debug, PartialEq, Deserialize)]
pub struct Marker;

#[derive(Debug, PartialEq, Deserialize)]
pub struct Shapes {
    pair: (u8, String),
    unit: (),
    meters: Meters,
    marker: Marker,
    nested: Option<Option<u8>>,
    array: [i16; 3],
}

/// A raw value, compared by its text.
#[derive(Debug, Deserialize)]
pub struct Raw {
    raw: Box<RawValue>,
    #[serde(default)]
    more: Vec<Box<RawValue>>,
}

impl PartialEq for Raw {
    fn eq(&self, other: &Self) -> bool {
        self.raw.get() == other.raw.get()
            && self
                .more
                .iter()
                .map(|r| r.get())
                .eq(other.more.iter().map(|r| r.get()))
    }
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Anything {
    value: Value,
    #[serde(default)]
    list: Vec<Value>,
}

/// Bytes read through `deserialize_byte_buf` (a string or an array of numbers).
#[derive(Debug, PartialEq)]
pub struct Bytes(Vec<u8>);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Bytes, E> {
                Ok(Bytes(v.as_bytes().to_vec()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        deserializer.deserialize_byte_buf(Visit)
    }
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct WithBytes {
    data: Bytes,
}

/// A field whose decode errors are swallowed (read as `None`), which leaves serde_json
/// reading on from wherever the error left it.
#[derive(Debug, PartialEq, Deserialize)]
pub struct Swallowing {
    #[serde(default, deserialize_with = "lenient")]
    x: Option<u8>,
    y: Option<u8>,
}

/// A whole message read as [`lenient`] does: serde_json then checks the end of the text
/// from wherever the swallowed error left it.
#[derive(Debug, PartialEq, Deserialize)]
pub struct Lenient(#[serde(deserialize_with = "lenient")] Option<u8>);

fn lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u8>, D::Error> {
    Ok(Option::<u8>::deserialize(deserializer).ok().flatten())
}

#[derive(Debug, PartialEq, Deserialize)]
pub struct Tree {
    name: String,
    #[serde(default)]
    children: Vec<Tree>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(default)]
pub struct Defaults {
    on: bool,
    count: u8,
    label: String,
}

impl Default for Defaults {
    fn default() -> Self {
        Self {
            on: true,
            count: 3,
            label: "x".into(),
        }
    }
}

/// The verdict of one decode, and what differs between the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agreement {
    /// Both accept, with equal values; the quick decode answered itself.
    Accepted,
    /// Both refuse; the quick decode was sure of it.
    Refused,
    /// The quick decode asked serde_json.
    Deferred,
}

/// Decodes `text` as `T` both ways: an error names the disagreement. Values are compared
/// by their `Debug` form (exact for floats; a raw value shows its text).
pub fn compare<T: DeserializeOwned + Debug>(text: &str) -> Result<Agreement, String> {
    use symgen::wire::quick::{Quick, decode};
    let serde = symgen::wire::from_str::<T>(text);
    match (decode::<T>(text), serde) {
        (Quick::Decoded(quick), Ok(serde)) if format!("{quick:?}") == format!("{serde:?}") => {
            Ok(Agreement::Accepted)
        }
        (Quick::Decoded(quick), Ok(serde)) => Err(format!(
            "decoded differently: quick {quick:?}, serde_json {serde:?}"
        )),
        (Quick::Decoded(quick), Err(err)) => Err(format!(
            "the quick decode accepts ({quick:?}) what serde_json refuses: {err}"
        )),
        (Quick::Refused, Err(_)) => Ok(Agreement::Refused),
        (Quick::Refused, Ok(serde)) => Err(format!(
            "the quick decode is sure of a refusal, serde_json accepts: {serde:?}"
        )),
        (Quick::Unsure, _) => Ok(Agreement::Deferred),
    }
}

/// One type of the zoo: its name, [`compare`] for it, and texts of it (valid ones and
/// near misses).
pub struct Kind {
    pub name: &'static str,
    pub compare: fn(&str) -> Result<Agreement, String>,
    pub texts: &'static [&'static str],
}

macro_rules! kinds {
    ($($ty:ty => [$($text:expr),* $(,)?]),* $(,)?) => {
        vec![$(Kind {
            name: stringify!($ty),
            compare: compare::<$ty>,
            texts: &[$($text),*],
        }),*]
    };
}

/// Every type of the zoo.
pub fn kinds() -> Vec<Kind> {
    kinds![
        Plain => [
            r#"{"a": 1, "b": "two", "c": [3, -4], "d": 5.5, "e": true, "f": "x"}"#,
            r#"{"a":255,"b":null,"d":-0,"e":false,"f":"\u00e9"}"#,
            r#" { "f" : "\n" , "e" : false , "d" : 1e3 , "a" : 0 , "b" : "a\"b\\c\/d\b\f\n\r\t" } "#,
            r#"{"a": 256, "b": "x", "d": 1, "e": true, "f": "x"}"#,
            r#"{"a": 1, "b": "x", "d": 1.5e-310, "e": true, "f": "xy"}"#,
            r#"{"a": 1, "a": 2, "b": "x", "d": 1, "e": true, "f": "x"}"#,
            r#"{"a": 1, "d": 1E+2, "e": true, "f": "\ud83d\ude00", "extra": [1, {"z": null}]}"#,
        ],
        Closed => [
            r#"{"firstName": "Ada", "age": 36}"#,
            r#"{"firstName": "Ada", "years": null}"#,
            r#"{"firstName": "Ada", "age": 36, "skipped": 1}"#,
            r#"{"first_name": "Ada"}"#,
        ],
        External => [
            r#""Unit""#,
            r#"{"Newtype": 7}"#,
            r#"{"Tuple": [-1, "x"]}"#,
            r#"{"Struct": {"x": -9, "y": true}}"#,
            r#"{"Struct": [5, null]}"#,
            r#"{"Unit": null}"#,
            r#"{"Newtype": 7, "Unit": null}"#,
            r#""Newtype""#,
            r#"{"Nope": 1}"#,
        ],
        Internal => [
            r#"{"kind": "point", "x": 1, "y": 2}"#,
            r#"{"x": 1, "kind": "point", "y": 2}"#,
            r#"{"kind": "named", "firstName": "Bo"}"#,
            r#"{"kind": "nothing"}"#,
            r#"{"kind": "nothing", "extra": {"deep": [1, 2.5, "s"]}}"#,
            r#"{"kind": "point", "x": 1}"#,
        ],
        Adjacent => [
            r#"{"t": "Number", "c": 1.25}"#,
            r#"{"c": ["a", "b"], "t": "Words"}"#,
            r#"{"t": "Empty"}"#,
            r#"{"t": "Number", "c": "one"}"#,
        ],
        Untagged => [
            r#"42"#,
            r#"-42"#,
            r#""text""#,
            r#"[1, 2]"#,
            r#"[1, 2, 3]"#,
            r#"{"y": false}"#,
            r#"1.5"#,
            r#"18446744073709551616"#,
            r#"null"#,
        ],
        Flattened => [
            r#"{"id": 1, "name": "n", "other": [true]}"#,
            r#"{"other": 1.5, "id": 2}"#,
            r#"{"id": "1"}"#,
        ],
        Numbers => [
            r#"{"a": -128, "b": -32768, "c": 2147483647, "d": -9223372036854775808, "e": 65535, "f": 4294967295, "g": 18446744073709551615, "h": 3.4e38}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "i": -170141183460469231731687303715884105728, "j": 340282366920938463463374607431768211455}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 1e39}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 18446744073709551616, "h": 0}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "i": 1.5}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "j": -1}"#,
            r#"{"a": 0.0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0}"#,
            r#"{"a": 0, "b": 0, "c": 0, "d": 1e400, "e": 0, "f": 0, "g": 0, "h": 0}"#,
        ],
        Maps => [
            r#"{"by_name": {"a": 1, "b": 2}, "by_number": {"1": true, "20": false}}"#,
            r#"{"by_name": {}, "by_flag": {"true": -1}}"#,
            r#"{"by_name": {"a": 1}, "by_number": {"x": true}}"#,
            r#"{"by_name": {"a": 1, "a": 2}}"#,
        ],
        Shapes => [
            r#"{"pair": [1, "x"], "unit": null, "meters": 2.5, "marker": null, "nested": 3, "array": [1, 2, 3]}"#,
            r#"{"pair": [1, "x"], "unit": null, "meters": 2, "marker": null, "nested": null, "array": [1, 2, 3]}"#,
            r#"{"pair": [1, "x", 2], "unit": null, "meters": 2, "marker": null, "nested": null, "array": [1, 2, 3]}"#,
            r#"{"pair": [1], "unit": null, "meters": 2, "marker": null, "nested": null, "array": [1, 2]}"#,
        ],
        Raw => [
            r#"{"raw": {"a": [1, 2, {"b": null}]}, "more": [1, "s", true]}"#,
            r#"{"raw": "\ud800"}"#,
            r#"{"raw": 1e999}"#,
            r#"{"raw": [1, 2,]}"#,
        ],
        Anything => [
            r#"{"value": {"a": [1, -2, 3.5, "x", null, true]}, "list": [{}, []]}"#,
            r#"{"value": "\ud800"}"#,
            r#"{"value": 1e999}"#,
            r#"{"value": {"a": 1, "a": 2}}"#,
            r#"{"value": -0}"#,
        ],
        WithBytes => [r#"{"data": "abc"}"#, r#"{"data": [1, 2, 255]}"#, r#"{"data": [256]}"#],
        Swallowing => [
            r#"{"x": 1, "y": 2}"#,
            r#"{"x": "no", "y": 2}"#,
            r#"{"x": [1, 2], "y": 2}"#,
            r#"{"x": 300, "y": 2}"#,
            r#"{"x": tru, "y": 2}"#,
            r#"{"x": tru }"#,
            r#"{"x": tru}"#,
            r#"{"x": "\x" }"#,
            r#"{"x": 1. }"#,
        ],
        // serde_json stops past the byte that broke `true` (so accepts `tru `), this
        // decode before it.
        Lenient => ["tru ", "tru e", "tru", "nul ", "12", "\"no\"", "1e ", "[1] "],
        Tree => [
            r#"{"name": "root", "children": [{"name": "a"}, {"name": "b", "children": []}]}"#,
        ],
        Defaults => [r#"{}"#, r#"{"count": 9}"#, r#"{"label": 1}"#],
        symgen_protocols::symposium::IpcMessage => [],
        symgen_protocols::taskspace_state::TaskspaceStateMessage => [],
        symgen_protocols::dialectic::DialecticRequest => [],
        symgen_protocols::dialectic::IpcResponse => [],
        symgen_protocols::worker_sideband::ServerToWorker => [],
        symgen_protocols::worker_sideband::WorkerToServer => [],
        symgen_protocols::ck3lens::JsonRpcRequest => [],
        symgen_protocols::ck3lens::JsonRpcResponse => [],
        symgen_protocols::ck3lens::PortFile => [],
    ]
}

/// Texts every type is tried on: JSON at its edges.
pub const EDGES: &[&str] = &[
    "",
    " ",
    "null",
    "true",
    "false",
    "0",
    "-0",
    "-",
    "01",
    "1.",
    "1.e5",
    "1e",
    "1e+",
    ".5",
    "1.5",
    "-1.5e-7",
    "1e400",
    "-1e400",
    "123456789012345678",
    "1234567890123456789",
    "-9223372036854775809",
    "18446744073709551616",
    "\"\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"\\udc00\"",
    "\"\\ud800\\u0041\"",
    "\"\\ud800\\udc00\"",
    "\"\\x\"",
    "\"\\u12\"",
    "\"\t\"",
    "\"a",
    "[]",
    "[1,]",
    "[,1]",
    "[1 2]",
    "{}",
    "{,}",
    "{\"a\"}",
    "{\"a\":}",
    "{\"a\":1,}",
    "{\"a\" 1}",
    "{1:2}",
    "{\"a\":1}}",
    "[1]]",
    "nul",
    "tru",
    "fals",
    "nulll",
    "{} x",
    "{}\n",
    "\u{feff}{}",
    "[\"\u{1}\"]",
];

/// `depth` nested arrays (or objects under key `children`).
pub fn nested(depth: usize, objects: bool) -> String {
    if objects {
        let mut text = String::new();
        for _ in 0..depth {
            text.push_str(r#"{"name": "n", "children": ["#);
        }
        for _ in 0..depth {
            text.push_str("]}");
        }
        text
    } else {
        format!("{}{}", "[".repeat(depth), "]".repeat(depth))
    }
}
