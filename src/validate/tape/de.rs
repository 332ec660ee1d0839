//! A serde `Deserializer` over a [`Tape`]: a typed decode that reads the tokens the
//! tape's own reader made instead of the text, as `symgen_wire::from_str` (serde_json
//! behind [`symgen_wire::Strict`]) would read the text.
//!
//! Each value is handed to the visitor through the same method, with the same argument,
//! as serde_json hands it: an unsigned integer through `visit_u64`, a negative one
//! through `visit_i64`, any other number through `visit_f64`, a string without escapes
//! through `visit_borrowed_str` and one with escapes through `visit_str`; a struct only
//! from an object (the [`symgen_wire::Strict`] rule); an externally tagged enum from a
//! string or from an object of one member. What this reader does not mirror exactly it
//! refuses (128-bit integers, bytes, serde_json's raw values, a map key read as
//! anything but a string): a caller that takes an error here for "serde may still
//! accept it" and asks serde_json loses nothing. A tape exists only for a text
//! serde_json reads (see [`super::read`]).

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_json::Error;

use super::{Tape, Text, Token};

/// The name serde_json gives a raw value's newtype (its `raw_value` feature).
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// The value starting at token `at`.
#[derive(Clone, Copy)]
pub struct At<'a, 't> {
    pub tape: &'a Tape<'t>,
    pub at: usize,
}

/// Why this reader leaves a value to serde_json.
fn unsupported(what: &str) -> Error {
    de::Error::custom(format_args!("{what} is left to serde_json"))
}

impl<'a, 't> At<'a, 't> {
    #[inline]
    fn token(&self) -> Token<'t> {
        *self.tape.token(self.at)
    }

    /// serde_json's error for a value of the wrong kind.
    #[cold]
    fn invalid<V: Visitor<'t>>(&self, visitor: &V) -> Error {
        let unexpected = match self.token() {
            Token::Null => de::Unexpected::Unit,
            Token::Bool(b) => de::Unexpected::Bool(b),
            Token::UInt(n) => de::Unexpected::Unsigned(n),
            Token::Int(n) => de::Unexpected::Signed(n),
            Token::Float(f) => de::Unexpected::Float(f),
            Token::Str(text) | Token::Key(text) => de::Unexpected::Str(self.tape.text(text)),
            Token::Array { .. } => de::Unexpected::Seq,
            Token::Object { .. } => de::Unexpected::Map,
        };
        de::Error::invalid_type(unexpected, visitor)
    }

    #[inline]
    fn string<V: Visitor<'t>>(self, text: Text<'t>, visitor: V) -> Result<V::Value, Error> {
        match text {
            Text::Source(text) => visitor.visit_borrowed_str(text),
            Text::Unescaped { .. } => visitor.visit_str(self.tape.text(text)),
        }
    }

    fn seq<V: Visitor<'t>>(self, end: u32, visitor: V) -> Result<V::Value, Error> {
        let mut items = Items {
            tape: self.tape,
            next: self.at + 1,
            end: end as usize,
        };
        let value = visitor.visit_seq(&mut items)?;
        if items.next < items.end {
            return Err(de::Error::invalid_length(0, &"fewer elements in array"));
        }
        Ok(value)
    }

    fn map<V: Visitor<'t>>(self, end: u32, visitor: V) -> Result<V::Value, Error> {
        let mut members = Members {
            tape: self.tape,
            next: self.at + 1,
            end: end as usize,
            value: 0,
        };
        let value = visitor.visit_map(&mut members)?;
        if members.next < members.end {
            return Err(de::Error::invalid_length(0, &"fewer elements in map"));
        }
        Ok(value)
    }

    #[inline]
    fn number<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::UInt(n) => visitor.visit_u64(n),
            Token::Int(n) => visitor.visit_i64(n),
            Token::Float(f) => visitor.visit_f64(f),
            _ => Err(self.invalid(&visitor)),
        }
    }
}

macro_rules! numbers {
    ($($method:ident),* $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
                self.number(visitor)
            }
        )*
    };
}

macro_rules! left_to_serde_json {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'t>>(self, _visitor: V) -> Result<V::Value, Error> {
                Err(unsupported(stringify!($method)))
            }
        )*
    };
}

impl<'t> Deserializer<'t> for At<'_, 't> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Null => visitor.visit_unit(),
            Token::Bool(b) => visitor.visit_bool(b),
            Token::UInt(n) => visitor.visit_u64(n),
            Token::Int(n) => visitor.visit_i64(n),
            Token::Float(f) => visitor.visit_f64(f),
            Token::Str(text) | Token::Key(text) => self.string(text, visitor),
            Token::Array { end, .. } => self.seq(end, visitor),
            Token::Object { end, .. } => self.map(end, visitor),
        }
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Bool(b) => visitor.visit_bool(b),
            _ => Err(self.invalid(&visitor)),
        }
    }

    numbers!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64,
    );

    left_to_serde_json!(
        deserialize_i128,
        deserialize_u128,
        deserialize_bytes,
        deserialize_byte_buf
    );

    #[inline]
    fn deserialize_char<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Str(text) | Token::Key(text) => self.string(text, visitor),
            _ => Err(self.invalid(&visitor)),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Null => visitor.visit_unit(),
            _ => Err(self.invalid(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'t>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE {
            let raw = self
                .tape
                .raw(self.at)
                .ok_or_else(|| unsupported("this raw value"))?;
            return visitor.visit_map(RawValue(Some(raw)));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Array { end, .. } => self.seq(end, visitor),
            _ => Err(self.invalid(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'t>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.token() {
            Token::Object { end, .. } => self.map(end, visitor),
            _ => Err(self.invalid(&visitor)),
        }
    }

    /// A struct only from an object, as [`symgen_wire::Strict`] has it.
    #[inline]
    fn deserialize_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.token() {
            Token::Str(_) => visitor.visit_enum(UnitVariant(self)),
            // One member: a key, and its value ending where the object does.
            Token::Object { end, .. }
                if end as usize > self.at + 1 && self.tape.end(self.at + 2) == end as usize =>
            {
                visitor.visit_enum(Variant {
                    tape: self.tape,
                    key: self.at + 1,
                })
            }
            _ => Err(unsupported("this enum")),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

/// A raw value as serde_json hands one to `RawValue`'s visitor: a map of one member,
/// the key [`RAW_VALUE`] and the value the exact text.
struct RawValue<'t>(Option<&'t str>);

impl<'t> MapAccess<'t> for RawValue<'t> {
    type Error = Error;

    fn next_key_seed<S: DeserializeSeed<'t>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(RAW_VALUE))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'t>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let raw = self
            .0
            .take()
            .ok_or_else(|| unsupported("a raw value read twice"))?;
        seed.deserialize(BorrowedStrDeserializer::new(raw))
    }
}

/// An array's items.
struct Items<'a, 't> {
    tape: &'a Tape<'t>,
    next: usize,
    end: usize,
}

impl<'t> SeqAccess<'t> for Items<'_, 't> {
    type Error = Error;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'t>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if self.next >= self.end {
            return Ok(None);
        }
        let at = self.next;
        self.next = self.tape.end(at);
        seed.deserialize(At {
            tape: self.tape,
            at,
        })
        .map(Some)
    }
}

/// An object's members.
struct Members<'a, 't> {
    tape: &'a Tape<'t>,
    next: usize,
    end: usize,
    /// The value of the key read last.
    value: usize,
}

impl<'t> MapAccess<'t> for Members<'_, 't> {
    type Error = Error;

    #[inline]
    fn next_key_seed<S: DeserializeSeed<'t>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        if self.next >= self.end {
            return Ok(None);
        }
        let Token::Key(text) = *self.tape.token(self.next) else {
            return Err(unsupported("a malformed tape"));
        };
        self.value = self.next + 1;
        self.next = self.tape.end(self.value);
        seed.deserialize(Key {
            tape: self.tape,
            text,
        })
        .map(Some)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'t>>(&mut self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(At {
            tape: self.tape,
            at: self.value,
        })
    }
}

/// A map key, read as serde_json reads one: a string, whatever type is asked for. Where
/// serde_json would read it as something else (a number, a bool, bytes, an enum, a raw
/// value) this reader refuses.
struct Key<'a, 't> {
    tape: &'a Tape<'t>,
    text: Text<'t>,
}

macro_rules! key_as_string {
    ($($method:ident),* $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
                self.deserialize_any(visitor)
            }
        )*
    };
}

macro_rules! key_left_to_serde_json {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'t>>(self, _visitor: V) -> Result<V::Value, Error> {
                Err(unsupported("a map key of this type"))
            }
        )*
    };
}

impl<'t> Deserializer<'t> for Key<'_, 't> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.text {
            Text::Source(text) => visitor.visit_borrowed_str(text),
            Text::Unescaped { .. } => visitor.visit_str(self.tape.text(self.text)),
        }
    }

    key_as_string!(
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    key_left_to_serde_json!(
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
        deserialize_bytes,
        deserialize_byte_buf,
    );

    fn deserialize_option<V: Visitor<'t>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'t>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE {
            return Err(unsupported("a raw value"));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'t>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'t>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(unsupported("a map key of this type"))
    }
}

/// An enum given as a string: a unit variant.
struct UnitVariant<'a, 't>(At<'a, 't>);

impl<'a, 't> EnumAccess<'t> for UnitVariant<'a, 't> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'t>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        Ok((seed.deserialize(self.0)?, self))
    }
}

impl<'t> VariantAccess<'t> for UnitVariant<'_, 't> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'t>>(self, _seed: S) -> Result<S::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: Visitor<'t>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'t>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// An enum given as an object of one member: the key (read as a map key) names the
/// variant, the value holds it.
struct Variant<'a, 't> {
    tape: &'a Tape<'t>,
    /// The index of the key's token.
    key: usize,
}

impl<'a, 't> Variant<'a, 't> {
    fn value(&self) -> At<'a, 't> {
        At {
            tape: self.tape,
            at: self.key + 1,
        }
    }
}

impl<'a, 't> EnumAccess<'t> for Variant<'a, 't> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'t>>(self, seed: S) -> Result<(S::Value, Self), Error> {
        let Token::Key(text) = *self.tape.token(self.key) else {
            return Err(unsupported("a malformed tape"));
        };
        let key = Key {
            tape: self.tape,
            text,
        };
        Ok((seed.deserialize(key)?, self))
    }
}

impl<'t> VariantAccess<'t> for Variant<'_, 't> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(self.value())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'t>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self.value())
    }

    fn tuple_variant<V: Visitor<'t>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.value().deserialize_seq(visitor)
    }

    /// serde_json reads a struct variant's value as a struct on its own deserializer,
    /// which [`symgen_wire::Strict`] does not reach: an array of the fields is taken too.
    fn struct_variant<V: Visitor<'t>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let value = self.value();
        match value.token() {
            Token::Array { end, .. } => value.seq(end, visitor),
            Token::Object { end, .. } => value.map(end, visitor),
            _ => Err(value.invalid(&visitor)),
        }
    }
}
