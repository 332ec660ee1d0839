//! Integer widths as bounds: a schema whose integer says `format: "int32"` (schemars
//! writes one for every Rust integer, OpenAPI documents use the same names) gets the
//! `minimum` and `maximum` of that width before it is compiled. In JSON Schema a
//! `format` only annotates, but every generated type holds the width it names (an `i32`
//! in Rust, an `Int32` in Swift, a range check in TypeScript and Python): the validator
//! holds a message to the same range, so that it and every language give one verdict.

use serde_json::{Map, Value};

/// The range of each integer `format` the generated types hold (the model reads `int`
/// and `uint` as 64 bits, like schemars).
fn range(format: &str) -> Option<(Value, Value)> {
    let signed = |bits: u32| {
        let max = (1i64 << (bits - 1)).wrapping_sub(1);
        let max = if bits == 64 { i64::MAX } else { max };
        let min = if bits == 64 {
            i64::MIN
        } else {
            -(1i64 << (bits - 1))
        };
        Some((Value::from(min), Value::from(max)))
    };
    let unsigned = |bits: u32| {
        let max = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        Some((Value::from(0u64), Value::from(max)))
    };
    match format {
        "int8" => signed(8),
        "int16" => signed(16),
        "int32" => signed(32),
        "int64" | "int" => signed(64),
        "uint8" => unsigned(8),
        "uint16" => unsigned(16),
        "uint32" => unsigned(32),
        "uint64" | "uint" => unsigned(64),
        _ => None,
    }
}

/// Gives every schema in `document` with an integer `format` the bounds of its width,
/// where it states none as tight.
pub(crate) fn integer_formats_as_bounds(document: &mut Value) {
    // Recursive: serde_json reads no document nested deeper than 128 levels.
    let Value::Object(schema) = document else {
        return;
    };
    if let Some((min, max)) = schema.get("format").and_then(Value::as_str).and_then(range) {
        tighten(schema, "minimum", min, |bound, own| own < bound);
        tighten(schema, "maximum", max, |bound, own| own > bound);
    }
    crate::model::subschemas_mut(schema, integer_formats_as_bounds);
}

/// Sets `key` to `bound` unless the schema's own bound is at least as tight (`looser`
/// says whether the schema's value lets more through than `bound`).
fn tighten(schema: &mut Map<String, Value>, key: &str, bound: Value, looser: fn(f64, f64) -> bool) {
    let keep = match schema.get(key).and_then(Value::as_f64) {
        Some(own) => !looser(bound.as_f64().unwrap_or_default(), own),
        None => false,
    };
    if !keep {
        schema.insert(key.to_owned(), bound);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integer_formats_get_their_width_unless_the_schema_is_tighter() {
        let mut document = json!({
            "$defs": {
                "A": {"type": "integer", "format": "int32"},
                "B": {"type": "integer", "format": "uint8", "maximum": 10},
                "C": {"type": "integer", "format": "uint64", "minimum": -5},
                "D": {"type": "string", "format": "date"},
                "E": {"const": {"format": "int8"}}
            },
            "properties": {"format": {"type": "integer", "format": "int16"}}
        });
        integer_formats_as_bounds(&mut document);
        assert_eq!(
            document["$defs"]["A"],
            json!({"type": "integer", "format": "int32", "minimum": -2147483648i64, "maximum": 2147483647})
        );
        assert_eq!(document["$defs"]["B"]["maximum"], json!(10));
        assert_eq!(document["$defs"]["B"]["minimum"], json!(0));
        assert_eq!(document["$defs"]["C"]["minimum"], json!(0));
        assert_eq!(document["$defs"]["C"]["maximum"], json!(u64::MAX));
        assert_eq!(
            document["$defs"]["D"],
            json!({"type": "string", "format": "date"})
        );
        assert_eq!(document["$defs"]["E"], json!({"const": {"format": "int8"}}));
        assert_eq!(document["properties"]["format"]["maximum"], json!(32767));
    }
}
