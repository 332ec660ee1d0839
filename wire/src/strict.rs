//! A deserializer adapter that makes serde as strict as the JSON Schema: structs decode
//! only from JSON objects.
//!
//! serde's derived `Deserialize` for a struct also accepts a JSON array of its field
//! values (`["info", "msg"]` for `{level, message}`), which no schema, TypeScript type or
//! Swift `Codable` accepts. [`Strict`] forwards everything to the wrapped deserializer,
//! except that `deserialize_struct` becomes `deserialize_map`, at every depth.

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// Wraps a deserializer so structs only decode from maps (see the module docs).
pub struct Strict<D>(pub D);

/// Decodes `T` from JSON text with [`Strict`] semantics.
pub fn from_str<T: de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strict(&mut de))?;
    de.end()?;
    Ok(value)
}

struct StrictVisitor<V>(V);
struct StrictSeed<S>(S);
struct StrictAccess<A>(A);

macro_rules! forward {
    ($($method:ident),* $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                self.0.$method(StrictVisitor(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, StrictVisitor(visitor))
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_newtype_struct(name, StrictVisitor(visitor))
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, StrictVisitor(visitor))
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, StrictVisitor(visitor))
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // The one change: a struct is a JSON object, never an array of its fields.
        self.0.deserialize_map(StrictVisitor(visitor))
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_enum(name, variants, StrictVisitor(visitor))
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

/// A string's visitor (an enum's variant or a struct's field name, most often) is run
/// with [`Listed`] errors: an unknown name is reported in serde's own words, written
/// without the formatting machinery that serde's default would run for every name the
/// message lists.
macro_rules! forward_visit_str {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method::<Listed>(v).map_err(Listed::into_error)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictVisitor<V> {
    type Value = V::Value;

    #[inline]
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.0.expecting(f)
    }

    forward_visit_str!(
        visit_str(&str),
        visit_borrowed_str(&'de str),
        visit_string(String),
    );

    forward_visit!(
        visit_bool(bool),
        visit_i8(i8),
        visit_i16(i16),
        visit_i32(i32),
        visit_i64(i64),
        visit_i128(i128),
        visit_u8(u8),
        visit_u16(u16),
        visit_u32(u32),
        visit_u64(u64),
        visit_u128(u128),
        visit_f32(f32),
        visit_f64(f64),
        visit_char(char),
        visit_bytes(&[u8]),
        visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    );

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Strict(d))
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Strict(d))
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(StrictAccess(seq))
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(StrictAccess(map))
    }

    #[inline]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(StrictAccess(data))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictAccess<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictAccess<A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StrictSeed(seed))
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for StrictAccess<A> {
    type Error = A::Error;
    type Variant = StrictAccess<A::Variant>;

    #[inline]
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(StrictSeed(seed))
            .map(|(value, variant)| (value, StrictAccess(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for StrictAccess<A> {
    type Error = A::Error;

    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(StrictSeed(seed))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, StrictVisitor(visitor))
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, StrictVisitor(visitor))
    }
}

/// The error of a string visitor run by [`StrictVisitor`]: its message, to be handed to
/// the deserializer's own error type. The messages are serde's, word for word.
#[derive(Debug)]
struct Listed(String);

impl Listed {
    fn into_error<E: de::Error>(self) -> E {
        E::custom(self.0)
    }

    /// `` unknown {what} `name`, expected one of `a`, `b` `` as serde words it.
    fn unknown(what: &str, plural: &str, name: &str, expected: &[&str]) -> Self {
        let listed: usize = expected.iter().map(|e| e.len() + 4).sum();
        // The longest fixed words: "unknown variant `" and "`, expected one of".
        let mut out = String::with_capacity(40 + name.len() + listed);
        out.push_str("unknown ");
        out.push_str(what);
        out.push_str(" `");
        out.push_str(name);
        out.push('`');
        match expected {
            [] => {
                out.push_str(", there are no ");
                out.push_str(plural);
            }
            [one] => push_quoted(&mut out, ", expected ", one),
            [a, b] => {
                push_quoted(&mut out, ", expected ", a);
                push_quoted(&mut out, " or ", b);
            }
            many => {
                out.push_str(", expected one of");
                for (i, name) in many.iter().enumerate() {
                    push_quoted(&mut out, if i == 0 { " " } else { ", " }, name);
                }
            }
        }
        Self(out)
    }
}

fn push_quoted(out: &mut String, before: &str, name: &str) {
    out.push_str(before);
    out.push('`');
    out.push_str(name);
    out.push('`');
}

impl std::fmt::Display for Listed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Listed {}

impl de::Error for Listed {
    #[cold]
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Self::unknown("variant", "variants", variant, expected)
    }

    #[cold]
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Self::unknown("field", "fields", field, expected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::Error as _;

    #[test]
    fn unknown_names_are_worded_as_serde_words_them() {
        let lists: [&'static [&'static str]; 4] = [&[], &["a"], &["a", "b"], &["a", "b", "c"]];
        for expected in lists {
            for name in ["x", "", "\u{1}odd `name`"] {
                assert_eq!(
                    Listed::unknown_variant(name, expected).0,
                    serde_json::Error::unknown_variant(name, expected).to_string()
                );
                assert_eq!(
                    Listed::unknown_field(name, expected).0,
                    serde_json::Error::unknown_field(name, expected).to_string()
                );
            }
        }
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Pair {
        #[allow(dead_code)]
        level: Level,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Level {
        Info,
        Warn,
        Error,
    }

    #[test]
    fn a_decode_reports_unknown_names_with_their_position() {
        let error = from_str::<Pair>(r#"{"level": "loud"}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown variant `loud`, expected one of `info`, `warn`, `error` at line 1 column 16"
        );
        let error = from_str::<Pair>(r#"{"level": "info", "extra": 1}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown field `extra`, expected `level` at line 1 column 25"
        );
        assert!(from_str::<Pair>(r#"{"level": "warn"}"#).is_ok());
    }
}
