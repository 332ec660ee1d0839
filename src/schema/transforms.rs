//! Transforms that make the generated schema accept exactly what serde accepts.

use serde_json::{Map, Value};

/// Walks a whole schema document and fixes what schemars leaves looser than serde:
///
/// * `uint32`/`uint64`/`uint` integers get the `maximum` serde enforces (schemars emits
///   only `minimum`), so 4294967296 is rejected for a `u32` exactly as serde rejects it.
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
    let maximum: u64 = match object.get("format").and_then(Value::as_str) {
        Some("uint8") => u8::MAX.into(),
        Some("uint16") => u16::MAX.into(),
        Some("uint32") => u32::MAX.into(),
        Some("uint64") | Some("uint") => u64::MAX,
        _ => return,
    };
    object.entry("maximum").or_insert(Value::from(maximum));
}
