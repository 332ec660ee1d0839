//! Transforms that make the generated schema accept exactly what serde accepts.

use serde_json::{Map, Value};

/// Walks a whole schema document and fixes what schemars leaves looser than serde:
///
/// * `uint32`/`uint64` integers get the `maximum` serde enforces (schemars emits only
///   `minimum`), so 4294967296 is rejected for a `u32` exactly as serde rejects it;
///   `int64`/`int32` get both bounds.
pub fn tighten(value: &mut Value) {
    match value {
        Value::Object(object) => {
            add_integer_maximum(object);
            for child in object.values_mut() {
                tighten(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tighten),
        _ => {}
    }
}

fn add_integer_maximum(object: &mut Map<String, Value>) {
    let (minimum, maximum): (Option<i64>, Value) =
        match object.get("format").and_then(Value::as_str) {
            Some("uint8") => (None, u8::MAX.into()),
            Some("uint16") => (None, u16::MAX.into()),
            Some("uint32") => (None, u32::MAX.into()),
            Some("uint64") | Some("uint") => (None, u64::MAX.into()),
            Some("int8") => (Some(i8::MIN.into()), i8::MAX.into()),
            Some("int16") => (Some(i16::MIN.into()), i16::MAX.into()),
            Some("int32") => (Some(i32::MIN.into()), i32::MAX.into()),
            Some("int64") | Some("int") => (Some(i64::MIN), i64::MAX.into()),
            _ => return,
        };
    if let Some(minimum) = minimum {
        object.entry("minimum").or_insert(Value::from(minimum));
    }
    object.entry("maximum").or_insert(maximum);
}

/// Finds what no target language can represent exactly and says so: 128-bit integers
/// (`u128`, `i128`) exceed JavaScript's and Swift's `Codable` number range, so a value
/// would be rounded or rejected by a peer that Rust accepts; a 32-bit float (`f32`) is
/// rounded by serde where every peer keeps the 64-bit number. The error carries the
/// JSON Pointer of the first offending schema.
pub fn refuse_inexact(value: &Value) -> Result<(), (String, String)> {
    find_inexact(value, &mut String::new())
}

fn find_inexact(value: &Value, pointer: &mut String) -> Result<(), (String, String)> {
    match value {
        Value::Object(object) => {
            if let Some(format @ ("uint128" | "int128")) =
                object.get("format").and_then(Value::as_str)
            {
                let rust = if format == "uint128" { "u128" } else { "i128" };
                return Err((
                    pointer.clone(),
                    format!(
                        "a 128-bit integer ({rust}) has no exact type in TypeScript or Swift, \
                         whose peers would round or reject values Rust accepts; use u64/i64, \
                         or carry it as a string (e.g. `#[serde(with = ...)]` with \
                         `#[schemars(with = \"String\")]`)"
                    ),
                ));
            }
            if object.get("format").and_then(Value::as_str) == Some("float") {
                return Err((
                    pointer.clone(),
                    "a 32-bit float (f32) is rounded by serde to the nearest f32 \
                     (`16777217` is written back as `16777216`, `0.30000000000000004` as \
                     `0.3`, a number past f32::MAX as `null`), where TypeScript, Python and \
                     Swift keep the 64-bit number, so peers would read one message \
                     differently; use f64"
                        .to_owned(),
                ));
            }
            for (key, child) in object {
                let len = pointer.len();
                crate::json_pointer::push(pointer, key);
                find_inexact(child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                find_inexact(child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
