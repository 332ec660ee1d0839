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
        if !plainly_representable(raw.get()) {
            serde_json::from_str::<Representable>(raw.get()).map_err(serde::de::Error::custom)?;
        }
        Ok(Self(raw))
    }
}

/// Whether a JSON text (already read as JSON) is representable at a glance, without
/// reading it again as [`Representable`]: no backslash (so no lone surrogate escape), no
/// number with an exponent or with 300 digits or more (so none beyond a 64-bit float's
/// range), and nesting under 64 levels (well inside serde_json's limit). `false` only
/// means "read it again".
fn plainly_representable(text: &str) -> bool {
    let bytes = text.as_bytes();
    if memchr::memchr(b'\\', bytes).is_some() {
        return false;
    }
    let (mut at, mut digits, mut depth) = (0, 0usize, 0usize);
    while let Some(&byte) = bytes.get(at) {
        at += 1;
        match byte {
            // Without backslashes, a string ends at the next quote.
            b'"' => match next_quote(bytes, at) {
                Some(end) => at = end + 1,
                None => return false,
            },
            b'0'..=b'9' => {
                digits += 1;
                if digits >= 300 {
                    return false;
                }
                continue;
            }
            b'e' | b'E' if digits > 0 => return false,
            b'[' | b'{' => {
                depth += 1;
                if depth >= 64 {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        digits = 0;
    }
    true
}

/// Where the next quote is, from `at` on. Eight bytes at a time: the strings of a
/// message are mostly short, and this costs less than a call to `memchr` for them. In
/// each word, a quote byte becomes zero and gets its high bit set in `found`; the lowest
/// one is exact (a borrow only runs on from a zero byte).
#[inline]
fn next_quote(bytes: &[u8], mut at: usize) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ (ONES * 0x22);
        let found = word.wrapping_sub(ONES) & !word & (ONES << 7);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = bytes.get(at..)?;
    rest.iter().position(|&byte| byte == b'"').map(|i| at + i)
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
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let long = format!("1{}", "0".repeat(400));
        let texts = texts.iter().copied().chain([deep.as_str(), long.as_str()]);
        for text in texts {
            let raw = serde_json::from_str::<RawJson>(text);
            let value = serde_json::from_str::<serde_json::Value>(text);
            assert_eq!(raw.is_ok(), value.is_ok(), "{text}");
            if let Ok(raw) = raw {
                assert_eq!(raw.get(), text);
            }
        }
    }

    #[test]
    fn the_glance_passes_only_what_a_second_read_takes() {
        let plain = [
            r#"{"a": [1, -2.5, 0.25, "8d53b2e3-e159", true, null, {}]}"#,
            r#"{"e": "1e400 in a string", "n": 12345678901234567890}"#,
        ];
        for text in plain {
            assert!(plainly_representable(text), "{text}");
            assert!(
                serde_json::from_str::<Representable>(text).is_ok(),
                "{text}"
            );
        }
        let doubtful = [
            "[1e400]",
            "[1E2]",
            "[2.5e-3]",
            r#"["\u00e9"]"#,
            &format!("[{}]", "9".repeat(300)),
            &format!("[0.{}1]", "0".repeat(400)),
            &format!("{}{}", "[".repeat(64), "]".repeat(64)),
        ];
        for text in doubtful {
            assert!(!plainly_representable(text), "{text}");
        }
        // Strings of every length around a word of eight bytes: the number after one is
        // seen, an exponent inside one is not.
        for len in 0..20 {
            let filler = "1e".repeat(len)[..len].to_owned();
            let after = format!(r#"["{filler}", 1e5]"#);
            assert!(!plainly_representable(&after), "{after}");
            let inside = format!(r#"["{filler}", "e9", 7, "{filler}"]"#);
            assert!(plainly_representable(&inside), "{inside}");
        }
        assert!(!plainly_representable(r#"["unterminated"#));
    }
}
