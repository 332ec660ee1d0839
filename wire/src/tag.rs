//! Reading a union's tag (and the key it sits under) without allocating: the tag is
//! matched against the variants' tags and dropped, so decoding a message into an owned
//! `String` first only costs an allocation and a free per message. Each seed decodes
//! exactly what the owned type it stands for decodes, with the same errors.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{
    DeserializeSeed, Deserializer, Error, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

/// The first key of an internally tagged object: the tag key, or another one (kept,
/// as the object is then buffered).
#[derive(Debug, PartialEq, Eq)]
pub enum FirstKey {
    /// The tag key.
    Tag,
    /// Any other key.
    Other(String),
}

/// Reads an object key as a `String` would (through [`TagTextSeed`]), telling the tag
/// key apart.
pub struct FirstKeySeed(pub &'static str);

impl<'de> DeserializeSeed<'de> for FirstKeySeed {
    type Value = FirstKey;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FirstKey, D::Error> {
        let key = TagTextSeed.deserialize(deserializer)?;
        Ok(if key == self.0 {
            FirstKey::Tag
        } else {
            FirstKey::Other(key.into_owned())
        })
    }
}

/// Reads a tag as a `String` would (same errors), borrowed from the input where the
/// deserializer lends it.
pub struct TagTextSeed;

impl<'de> DeserializeSeed<'de> for TagTextSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_string(self)
    }
}

impl<'de> Visitor<'de> for TagTextSeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: Error>(self, tag: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(tag))
    }

    fn visit_str<E: Error>(self, tag: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(tag.to_owned()))
    }

    fn visit_string<E: Error>(self, tag: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(tag))
    }

    fn visit_bytes<E: Error>(self, tag: &[u8]) -> Result<Self::Value, E> {
        match std::str::from_utf8(tag) {
            Ok(tag) => self.visit_str(tag),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(tag), &self)),
        }
    }

    fn visit_byte_buf<E: Error>(self, tag: Vec<u8>) -> Result<Self::Value, E> {
        match String::from_utf8(tag) {
            Ok(tag) => Ok(Cow::Owned(tag)),
            Err(e) => Err(E::invalid_value(
                serde::de::Unexpected::Bytes(&e.into_bytes()),
                &self,
            )),
        }
    }
}

/// A tag value read as a [`Value`] would be: a string (borrowed where the deserializer
/// lends it), or any other value, decoded in full, for the error that names its type.
#[derive(Debug, PartialEq)]
pub enum TagValue<'de> {
    /// A string tag.
    Str(Cow<'de, str>),
    /// Anything else (boxed: a `Value` is large, and the tag is a string but in a
    /// refused message).
    Other(Box<Value>),
}

/// Reads a tag value as a [`Value`] would (see [`TagValue`]).
pub struct TagValueSeed;

impl<'de> DeserializeSeed<'de> for TagValueSeed {
    type Value = TagValue<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The value a `Value` decodes from `deserializer`, as [`TagValue::Other`].
fn other<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TagValue<'de>, D::Error> {
    Value::deserialize(deserializer).map(|value| TagValue::Other(Box::new(value)))
}

/// `TagValueSeed`'s visit methods for scalars of the given types: each gives
/// [`TagValue::Other`] with the value a `Value` decodes from the scalar.
macro_rules! scalar_tags {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<E: Error>(self, v: $ty) -> Result<Self::Value, E> {
                other(v.into_deserializer())
            }
        )*
    };
}

impl<'de> Visitor<'de> for TagValueSeed {
    type Value = TagValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_borrowed_str<E: Error>(self, tag: &'de str) -> Result<Self::Value, E> {
        Ok(TagValue::Str(Cow::Borrowed(tag)))
    }

    fn visit_str<E: Error>(self, tag: &str) -> Result<Self::Value, E> {
        Ok(TagValue::Str(Cow::Owned(tag.to_owned())))
    }

    fn visit_string<E: Error>(self, tag: String) -> Result<Self::Value, E> {
        Ok(TagValue::Str(Cow::Owned(tag)))
    }

    // A scalar other than a string: the value a `Value` decodes from it.
    scalar_tags!(
        visit_bool(bool),
        visit_i64(i64),
        visit_i128(i128),
        visit_u64(u64),
        visit_u128(u128),
        visit_f64(f64),
    );

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(TagValue::Other(Box::new(Value::Null)))
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(TagValue::Other(Box::new(Value::Null)))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        other(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        other(SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        other(MapAccessDeserializer::new(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `seed` and `T` make of `text`: both results, errors as their messages.
    fn both<'de, S, T>(seed: S, text: &'de str) -> (Result<S::Value, String>, Result<T, String>)
    where
        S: DeserializeSeed<'de>,
        T: Deserialize<'de>,
    {
        let mut de = serde_json::Deserializer::from_str(text);
        let seeded = seed
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v))
            .map_err(|e| e.to_string());
        let owned = serde_json::from_str::<T>(text).map_err(|e| e.to_string());
        (seeded, owned)
    }

    const TEXTS: &[&str] = &[
        r#""a""#,
        r#""type""#,
        r#""ty\u0070e""#,
        r#""a\nb""#,
        r#""""#,
        "5",
        "-5",
        "1.5",
        "1e400",
        "true",
        "null",
        "[1, 2]",
        "[1e400]",
        r#"{"a": 1}"#,
        r#"{"a": 1, "a": 2}"#,
        "[1, 2",
        r#""open"#,
        "",
        "nul",
        r#""\ud800""#,
    ];

    #[test]
    fn tag_text_reads_as_a_string_does() {
        for text in TEXTS {
            let (seeded, owned) = both::<_, String>(TagTextSeed, text);
            assert_eq!(seeded.map(Cow::into_owned), owned, "{text}");
        }
        // A plain string is borrowed, an escaped one is not.
        let mut de = serde_json::Deserializer::from_str(r#""abc""#);
        assert!(matches!(
            TagTextSeed.deserialize(&mut de),
            Ok(Cow::Borrowed("abc"))
        ));
        let mut de = serde_json::Deserializer::from_str(r#""a\nc""#);
        assert!(matches!(
            TagTextSeed.deserialize(&mut de),
            Ok(Cow::Owned(_))
        ));
    }

    #[test]
    fn tag_value_reads_as_a_value_does() {
        for text in TEXTS {
            let (seeded, owned) = both::<_, Value>(TagValueSeed, text);
            let seeded = seeded.map(|tag| match tag {
                TagValue::Str(tag) => Value::String(tag.into_owned()),
                TagValue::Other(value) => {
                    assert!(!value.is_string(), "{text}");
                    *value
                }
            });
            assert_eq!(seeded, owned, "{text}");
        }
        // From a `Value` too, the other deserializer the unions meet.
        for value in [
            Value::from("a"),
            Value::from(5),
            Value::Null,
            serde_json::json!([1]),
        ] {
            let seeded = match TagValueSeed.deserialize(value.clone()).unwrap() {
                TagValue::Str(tag) => Value::String(tag.into_owned()),
                TagValue::Other(value) => *value,
            };
            assert_eq!(seeded, value);
        }
    }

    #[test]
    fn first_key_tells_the_tag_key_as_a_string_key_would() {
        for (text, expected) in [
            (r#"{"type": 1}"#, Some(FirstKey::Tag)),
            (r#"{"ty\u0070e": 1}"#, Some(FirstKey::Tag)),
            (r#"{"types": 1}"#, Some(FirstKey::Other("types".into()))),
            (r#"{"": 1}"#, Some(FirstKey::Other(String::new()))),
            ("{}", None),
        ] {
            struct First;
            impl<'de> Visitor<'de> for First {
                type Value = Option<FirstKey>;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                    let first = map.next_key_seed(FirstKeySeed("type"))?;
                    if first.is_some() {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                    while map
                        .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                        .is_some()
                    {}
                    Ok(first)
                }
            }
            let mut de = serde_json::Deserializer::from_str(text);
            assert_eq!(de.deserialize_map(First).unwrap(), expected, "{text}");
        }
    }
}
