//! The quick decode's serde `Deserializer`: every method hands the visitor what
//! serde_json's `Deserializer` behind [`crate::Strict`] hands it (same visit method, same
//! argument, borrowed where serde_json lends), and refuses where it refuses. Numbers
//! other than short integers are read by serde_json itself, from their own text.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;

use super::Refusal;
use super::read::{Number, Reader, Str};

/// The name serde_json gives a raw value's newtype (its `raw_value` feature).
const RAW_VALUE: &str = "$serde_json::private::RawValue";

impl<'de> Reader<'de> {
    /// The first byte of a value, after white space; refused at the end of the text.
    #[inline(always)]
    fn value_start(&mut self) -> Result<u8, Refusal> {
        self.enter()?;
        match self.skip_space() {
            Some(byte) => Ok(byte),
            None => Err(self.refuse()),
        }
    }

    /// A string whose opening quote is the current byte, to `visitor`.
    #[inline(always)]
    fn visit_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refusal> {
        self.at += 1;
        match self.string()? {
            Str::Borrowed(text) => visitor.visit_borrowed_str(text),
            Str::Copied(text) => visitor.visit_str(text),
        }
    }

    /// A container whose opening bracket is the current byte, read by `visit` within
    /// serde_json's nesting limit, then its closing `close`.
    #[inline(always)]
    fn container<T>(
        &mut self,
        close: u8,
        visit: impl FnOnce(&mut Self) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        self.at += 1;
        self.container_from(close, visit)
    }

    /// [`Self::container`] with the opening bracket already read.
    #[inline(always)]
    fn container_from<T>(
        &mut self,
        close: u8,
        visit: impl FnOnce(&mut Self) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.refuse());
        }
        let value = visit(self);
        self.depth += 1;
        let value = value?;
        self.enter()?;
        if self.skip_space() == Some(close) {
            self.at += 1;
            Ok(value)
        } else {
            Err(self.refuse())
        }
    }

    /// An array whose `[` is the current byte, to `visitor`.
    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refusal> {
        self.container(b']', |reader| {
            visitor.visit_seq(Items {
                reader,
                first: true,
            })
        })
    }

    /// An object whose `{` is the current byte, to `visitor`.
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refusal> {
        self.container(b'}', |reader| {
            visitor.visit_map(Members {
                reader,
                first: true,
            })
        })
    }

    /// `P` from the members of the outermost object after its tag member, which ends at
    /// `after` (see [`super::decode_rest`]): the reader stands where a union's decode
    /// stands once it has read the tag (one object open, its first member read).
    pub(super) fn rest_of_object<P: de::DeserializeOwned>(
        &mut self,
        after: usize,
        key: &'static str,
    ) -> Result<P, Refusal> {
        self.at = after;
        self.container_from(b'}', |reader| {
            let members = crate::support::WithoutKey::new(
                Members {
                    reader,
                    first: false,
                },
                key,
            );
            P::deserialize(de::value::MapAccessDeserializer::new(members))
        })
    }

    /// The literal or number starting with `first` as a visitor of the wrong type sees
    /// it: serde_json reads it (and may refuse it for its own syntax) before it refuses
    /// the type, so this reads it too.
    #[cold]
    fn wrong_type(&mut self, first: u8) -> Refusal {
        let read = match first {
            b'n' | b't' | b'f' => self.literal(match first {
                b'n' => "null",
                b't' => "true",
                _ => "false",
            }),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            b'"' => {
                self.at += 1;
                self.string().map(drop)
            }
            _ => Ok(()),
        };
        match read {
            Ok(()) => self.refuse(),
            Err(refusal) => refusal,
        }
    }

    fn raw_value<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refusal> {
        self.enter()?;
        self.skip_space();
        let start = self.at;
        self.skip(0)?;
        let raw = match self.text.get(start..self.at) {
            Some(raw) => raw,
            None => return Err(self.unsure()),
        };
        visitor.visit_map(Raw { raw: Some(raw) })
    }
}

/// A number's text read by serde_json's own method `$method`, to `$visitor`.
macro_rules! number_text {
    ($reader:ident, $text:ident, $method:ident, $visitor:ident) => {
        match serde_json::Deserializer::from_str($text).$method($visitor) {
            Ok(value) => Ok(value),
            Err(_) => Err($reader.refuse()),
        }
    };
}

/// The number methods: serde_json's `deserialize_number`.
macro_rules! numbers {
    ($($method:ident),* $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
                match self.value_start()? {
                    b'-' | b'0'..=b'9' => match self.number()? {
                        Number::Unsigned(n) => visitor.visit_u64(n),
                        Number::Signed(n) => visitor.visit_i64(n),
                        Number::Text(text) => number_text!(self, text, $method, visitor),
                    },
                    other => Err(self.wrong_type(other)),
                }
            }
        )*
    };
}

/// Methods left to serde_json (the caller asks it): 128-bit integers (serde_json reads
/// them by a grammar of their own) and byte strings.
macro_rules! unsure {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Refusal> {
                Err(self.unsure())
            }
        )*
    };
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Refusal;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'n' => {
                self.literal("null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal("true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal("false")?;
                visitor.visit_bool(false)
            }
            b'-' | b'0'..=b'9' => match self.number()? {
                Number::Unsigned(n) => visitor.visit_u64(n),
                Number::Signed(n) => visitor.visit_i64(n),
                Number::Text(text) => number_text!(self, text, deserialize_any, visitor),
            },
            b'"' => self.visit_string(visitor),
            b'[' => self.visit_array(visitor),
            b'{' => self.visit_object(visitor),
            _ => Err(self.refuse()),
        }
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b't' => {
                self.literal("true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal("false")?;
                visitor.visit_bool(false)
            }
            other => Err(self.wrong_type(other)),
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

    unsure!(
        deserialize_i128,
        deserialize_u128,
        deserialize_bytes,
        deserialize_byte_buf
    );

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'"' => self.visit_string(visitor),
            other => Err(self.wrong_type(other)),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.enter()?;
        match self.skip_space() {
            Some(b'n') => {
                self.literal("null")?;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'n' => {
                self.literal("null")?;
                visitor.visit_unit()
            }
            other => Err(self.wrong_type(other)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        if name == RAW_VALUE {
            return self.raw_value(visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'[' => self.visit_array(visitor),
            other => Err(self.wrong_type(other)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'{' => self.visit_object(visitor),
            other => Err(self.wrong_type(other)),
        }
    }

    /// [`crate::Strict`]: a struct only from an object.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        match self.value_start()? {
            b'{' => self.container(b'}', |reader| visitor.visit_enum(Variant { reader })),
            b'"' => visitor.visit_enum(UnitVariant { reader: self }),
            _ => Err(self.refuse()),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.enter()?;
        self.skip(0)?;
        visitor.visit_unit()
    }
}

/// An array's items (serde_json's `SeqAccess`).
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Refusal;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Refusal> {
        let reader = &mut *self.reader;
        reader.enter()?;
        match reader.skip_space() {
            Some(b']') => return Ok(None),
            Some(_) if self.first => self.first = false,
            Some(b',') => {
                reader.at += 1;
                match reader.skip_space() {
                    Some(b']') | None => return Err(reader.refuse()),
                    Some(_) => {}
                }
            }
            _ => return Err(reader.refuse()),
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// An object's members (serde_json's `MapAccess`).
struct Members<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Members<'_, 'de> {
    type Error = Refusal;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Refusal> {
        let reader = &mut *self.reader;
        reader.enter()?;
        match reader.skip_space() {
            Some(b'}') => return Ok(None),
            Some(b'"') if self.first => self.first = false,
            Some(b',') if !self.first => {
                reader.at += 1;
                if reader.skip_space() != Some(b'"') {
                    return Err(reader.refuse());
                }
            }
            _ => return Err(reader.refuse()),
        }
        seed.deserialize(Key {
            reader: &mut *self.reader,
        })
        .map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refusal> {
        self.reader.enter()?;
        self.reader.colon()?;
        seed.deserialize(&mut *self.reader)
    }
}

/// An object key, its opening quote the current byte (serde_json's `MapKey`): read as a
/// string whatever is asked, except what is left to serde_json (a key read as a number,
/// a boolean, bytes or a raw value).
struct Key<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

macro_rules! key_unsure {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Refusal> {
                Err(self.reader.unsure())
            }
        )*
    };
}

impl<'de> Deserializer<'de> for Key<'_, 'de> {
    type Error = Refusal;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        self.reader.visit_string(visitor)
    }

    key_unsure!(
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
        deserialize_bool,
        deserialize_bytes,
        deserialize_byte_buf,
    );

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        if name == RAW_VALUE {
            return Err(self.reader.unsure());
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        self.reader.deserialize_enum(name, variants, visitor)
    }

    forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// An enum written as an object of one member (serde_json's `VariantAccess`).
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Refusal;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refusal> {
        self.reader.enter()?;
        if self.reader.skip_space() != Some(b'"') {
            return Err(self.reader.refuse());
        }
        let variant = seed.deserialize(Key {
            reader: &mut *self.reader,
        })?;
        self.reader.enter()?;
        self.reader.colon()?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Refusal;

    fn unit_variant(self) -> Result<(), Refusal> {
        <() as de::Deserialize>::deserialize(self.reader)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Refusal> {
        seed.deserialize(self.reader)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Refusal> {
        self.reader.deserialize_seq(visitor)
    }

    /// serde_json's own `deserialize_struct` (not [`crate::Strict`]'s): an array of the
    /// fields is taken here too.
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refusal> {
        match self.reader.value_start()? {
            b'[' => self.reader.visit_array(visitor),
            b'{' => self.reader.visit_object(visitor),
            other => Err(self.reader.wrong_type(other)),
        }
    }
}

/// An enum written as a string (serde_json's `UnitVariantAccess`).
struct UnitVariant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> EnumAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Refusal;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Refusal> {
        let variant = seed.deserialize(&mut *self.reader)?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Refusal;

    fn unit_variant(self) -> Result<(), Refusal> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Refusal> {
        Err(self.reader.refuse())
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Refusal> {
        Err(self.reader.refuse())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Refusal> {
        Err(self.reader.refuse())
    }
}

/// A raw value's text, handed over as serde_json's `BorrowedRawDeserializer` hands it:
/// one entry, its key serde_json's raw-value token.
struct Raw<'de> {
    raw: Option<&'de str>,
}

impl<'de> MapAccess<'de> for Raw<'de> {
    type Error = Refusal;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Refusal> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(RawKey).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refusal> {
        match self.raw.take() {
            Some(raw) => seed.deserialize(BorrowedStrDeserializer::new(raw)),
            // serde_json panics here; no visitor asks twice.
            None => Err(Refusal),
        }
    }
}

/// The raw-value entry's key.
struct RawKey;

impl<'de> Deserializer<'de> for RawKey {
    type Error = Refusal;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refusal> {
        visitor.visit_borrowed_str(RAW_VALUE)
    }

    forward_to_deserialize_any! {
        bool u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 f32 f64 char str string seq
        bytes byte_buf map struct option unit newtype_struct ignored_any
        unit_struct tuple_struct tuple enum identifier
    }
}
