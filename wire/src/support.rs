//! Small shared wire types and helpers used by the generated code.

use std::fmt;

use schemars::{JsonSchema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::meta::{ReplyKind, ReplySpec};

/// An object payload with no defined keys: `{}` on emit; any object is accepted and its
/// keys are ignored (R2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Empty {}

/// Marks a request that expects no reply (R8).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoReply;

/// Marks a variant that is itself a reply (it answers other requests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IsReply;

impl ReplySpec for IsReply {
    type Data = ();
    fn reply_kind(_: &mut SchemaGenerator) -> ReplyKind {
        ReplyKind::IsReply
    }
    fn reply_roundtrip(_: &Value) -> Option<Result<Value, String>> {
        None
    }
}

/// Marks a request answered by a reply whose data is `T` (R8).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reply<T>(std::marker::PhantomData<T>);

impl ReplySpec for NoReply {
    type Data = ();
    fn reply_kind(_: &mut SchemaGenerator) -> ReplyKind {
        ReplyKind::None
    }
    fn reply_roundtrip(_: &Value) -> Option<Result<Value, String>> {
        None
    }
}

impl<T: JsonSchema + Serialize + serde::de::DeserializeOwned> ReplySpec for Reply<T> {
    type Data = T;
    fn reply_kind(generator: &mut SchemaGenerator) -> ReplyKind {
        ReplyKind::Data(generator.subschema_for::<T>())
    }
    fn reply_roundtrip(data: &Value) -> Option<Result<Value, String>> {
        let decoded =
            serde_path_to_error::deserialize::<_, T>(crate::Strict(data)).map_err(|err| {
                let path = err.path().to_string();
                format!("{path}: {}", err.inner())
            });
        Some(decoded.and_then(|value| serde_json::to_value(value).map_err(|e| e.to_string())))
    }
    fn trace(tracer: &mut crate::trace::Tracer) {
        tracer.entry::<T>();
    }
}

/// The raw content of a message whose tag the protocol does not know (R4): kept so a
/// relay can forward it unchanged. `None` when the message had no content key at all.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownPayload {
    /// The tag as received.
    pub tag: String,
    /// The content as received (`Some(Value::Null)` when it was an explicit `null`).
    pub content: Option<Value>,
}

/// Deserializes `T` from a content value, treating `null` as absent and absent as `{}`.
pub fn content_or_empty<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Deserialize<'de>,
    D: Deserializer<'de>,
{
    struct OptionVisitor<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for OptionVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object or null")
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<T, E> {
            T::deserialize(serde::de::value::MapDeserializer::<
                std::iter::Empty<(&str, &str)>,
                E,
            >::new(std::iter::empty()))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<T, E> {
            self.visit_none()
        }
        fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<T, D2::Error> {
            T::deserialize(d)
        }
    }
    deserializer.deserialize_option(OptionVisitor(std::marker::PhantomData))
}

/// Deserializes `T` from buffered JSON text (a message part read ahead as
/// [`RawValue`](serde_json::value::RawValue) because its type was not known yet), the
/// way it would have been decoded in place: what `T` does not declare is skipped, so
/// buffering never makes a decode stricter. Decodes directly, and only on failure again
/// with path tracking, so that the error names the offending field (joined to
/// `prefix`).
pub fn decode_buffered<T, E>(prefix: &str, text: &str) -> Result<T, E>
where
    T: serde::de::DeserializeOwned,
    E: serde::de::Error,
{
    if let Ok(decoded) = crate::from_str(text) {
        return Ok(decoded);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let err = match serde_path_to_error::deserialize::<_, T>(crate::Strict(&mut de)) {
        Ok(_) => match de.end() {
            Ok(()) => return Err(E::custom("undecodable buffered value")),
            Err(err) => return Err(E::custom(err)),
        },
        Err(err) => err,
    };
    let path = err.path().to_string();
    Err(match (prefix.is_empty(), path == ".") {
        (true, true) => E::custom(err.inner()),
        (true, false) => E::custom(format_args!("{path}: {}", err.inner())),
        (false, true) => E::custom(format_args!("{prefix}: {}", err.inner())),
        (false, false) => E::custom(format_args!("{prefix}.{path}: {}", err.inner())),
    })
}

/// The JSON text of an object buffered as its entries, in order.
pub fn object_text(entries: &[(String, Box<serde_json::value::RawValue>)]) -> String {
    let mut text = String::from("{");
    for (index, (key, value)) in entries.iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        text.push_str(&serde_json::to_string(key).unwrap_or_default());
        text.push(':');
        text.push_str(value.get());
    }
    text.push('}');
    text
}

/// Implemented by the open unions the macros generate (an envelope struct, an internally
/// tagged union): whether a decoded value is the "unknown tag" case (R4), its tag, and
/// the union's variants. Plain types need nothing of the kind.
pub trait Tagged {
    /// True when the value carries a tag the protocol does not know.
    fn is_unknown(&self) -> bool;
    /// The tag of the message as it was received (canonical for a known variant, raw for
    /// an unknown one).
    fn wire_tag(&self) -> &str;
    /// The canonical tag of a known variant; `None` for an unknown tag.
    fn known_tag(&self) -> Option<&'static str>;
    /// The known variants, in declaration order.
    fn union_variants() -> &'static [crate::VariantInfo]
    where
        Self: Sized;
    /// The quick decode of a text whose tag member comes first, written tight
    /// ([`crate::quick::tag_first`]), from the members after it; `None` where the
    /// union's own decode must read the text (another start, a tag it does not know).
    /// What the union's `Deserialize` makes of the same text, one reading of the tag
    /// fewer.
    #[doc(hidden)]
    fn quick_tag_first(_text: &str) -> Option<crate::quick::Quick<Self>>
    where
        Self: Sized,
    {
        None
    }
    /// Traces every type the union decodes: the variants' payloads and replies, and an
    /// envelope's shared fields.
    fn trace(tracer: &mut crate::trace::Tracer)
    where
        Self: Sized,
    {
        for variant in Self::union_variants() {
            (variant.trace)(tracer);
        }
    }
}

/// A short name of a JSON value's type, for error messages.
pub fn describe_json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The error for a tag that is not a string.
pub fn bad_tag<E: serde::de::Error>(tag_key: &str, found: &Value) -> E {
    E::custom(format_args!(
        "{tag_key}: invalid type: {}, expected a string tag",
        describe_json_type(found)
    ))
}

/// `deserialize_with` helper: a `null` value decodes as the type's default (R3), so a
/// field with a default accepts absent, `null` and a real value alike.
pub fn null_as_default<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: Deserialize<'de> + Default,
    D: Deserializer<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The rest of an object whose tag key has been read: a map access that refuses the tag
/// key a second time (serde's internally tagged unions do the same: `duplicate field`).
/// Without it the payload type would skip the second tag as an undeclared key, and a
/// peer whose JSON reader keeps the last value would read another message type.
pub struct WithoutKey<A> {
    map: A,
    key: &'static str,
}

impl<A> WithoutKey<A> {
    /// `map` from its next entry on, refusing `key`.
    pub fn new(map: A, key: &'static str) -> Self {
        Self { map, key }
    }
}

impl<'de, A: serde::de::MapAccess<'de>> serde::de::MapAccess<'de> for WithoutKey<A> {
    type Error = A::Error;

    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.map.next_key_seed(RefusingKey {
            seed,
            refused: self.key,
        })
    }

    fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A key seed that reads the key as a string, refuses one key, and hands the others on.
struct RefusingKey<K> {
    seed: K,
    refused: &'static str,
}

impl<'de, K: serde::de::DeserializeSeed<'de>> serde::de::DeserializeSeed<'de> for RefusingKey<K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, K: serde::de::DeserializeSeed<'de>> serde::de::Visitor<'de> for RefusingKey<K> {
    type Value = K::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, key: &'de str) -> Result<K::Value, E> {
        if key == self.refused {
            return Err(E::duplicate_field(self.refused));
        }
        self.seed
            .deserialize(serde::de::value::BorrowedStrDeserializer::new(key))
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<K::Value, E> {
        if key == self.refused {
            return Err(E::duplicate_field(self.refused));
        }
        self.seed
            .deserialize(serde::de::value::StrDeserializer::new(key))
    }

    fn visit_string<E: serde::de::Error>(self, key: String) -> Result<K::Value, E> {
        self.visit_str(&key)
    }
}
