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
