//! [`RawJson`]: arbitrary JSON kept as its exact text.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Arbitrary JSON (schema `true`), kept as the exact text it arrived as: decoding checks
/// its syntax and that every value in it is representable, without building a tree, so
/// a message is not slowed down by a field it does not interpret (P1 `response.data`,
/// `store_reference.value`). Parse it when needed with [`RawJson::parse`]. Two values
/// are equal when their texts are.
///
/// "Representable" is what `serde_json::Value` asks: numbers within a 64-bit float's
/// range (`1e400` is refused) and strings and keys without lone surrogate escapes. So a
/// `RawJson` field and a `serde_json::Value` field take the same messages, and the
/// schema's `true` means one thing to the validator.
#[derive(Debug, Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Decodes the text as `T`.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.0.get())
    }

    /// Encodes `value` as JSON text.
    pub fn from_value<T: Serialize>(value: &T) -> serde_json::Result<Self> {
        serde_json::value::to_raw_value(value).map(Self)
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Eq for RawJson {}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        serde_json::from_str::<Representable>(raw.get()).map_err(serde::de::Error::custom)?;
        Ok(Self(raw))
    }
}

/// Any JSON value, read the way `serde_json::Value` reads it (so with its refusals) but
/// kept nowhere.
struct Representable;

impl<'de> Deserialize<'de> for Representable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Representable)
    }
}

impl<'de> Visitor<'de> for Representable {
    type Value = Representable;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<Representable>()?.is_some() {}
        Ok(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<Representable, Representable>()?.is_some() {}
        Ok(self)
    }
}

impl JsonSchema for RawJson {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "AnyValue".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_what_serde_json_value_takes() {
        let texts = [
            r#"{"a": [1, -2.5e3, 1e-400, "x\u00e9\ud83d\ude00", true, null, {}]}"#,
            "[1e400]",
            "-1e400",
            r#"{"a": {"b": "\ud800"}}"#,
            r#"{"\udc00": 1}"#,
            r#""\ud83d\ude00""#,
        ];
        for text in texts {
            let raw = serde_json::from_str::<RawJson>(text);
            let value = serde_json::from_str::<serde_json::Value>(text);
            assert_eq!(raw.is_ok(), value.is_ok(), "{text}");
            if let Ok(raw) = raw {
                assert_eq!(raw.get(), text);
            }
        }
    }
}
