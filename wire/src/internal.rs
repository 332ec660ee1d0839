//! `internally_tagged_union!`: an open union whose tag sits beside the payload's own
//! fields, e.g. P4's `{"type": "readline_start", "prompt": ">>> "}`.
//!
//! A known tag decodes the whole object into the variant's payload struct (the tag key
//! itself is ignored there, like every unknown key, R2). An unknown tag decodes to the
//! `Unknown` variant holding the whole object, re-encoded unchanged (R4).

/// Declares an open, internally tagged union. See the module docs.
///
/// The generated types derive `Debug`, `Clone` and `PartialEq`, so every payload (and
/// shared field) type must implement them too. The per-variant marker types are public
/// (they implement [`Request`](crate::Request) naming the payload and reply types), so
/// payload and reply types must be declared `pub`; a private module keeps them private.
///
/// ```ignore
/// internally_tagged_union! {
///     /// Union docs.
///     pub enum Message (tag = "type", requests = requests) {
///         /// Variant docs. Optional flags: who sends and who receives it (parties
///         /// declared with `Protocol::with_party`), `@retired`.
///         @sent_by(server) @received_by(worker)
///         Start(StartPayload) = "start" => NoReply,
///         Stop(Empty) = "stop" => NoReply,
///     }
/// }
/// ```
#[macro_export]
macro_rules! internally_tagged_union {
    (
        $(#[doc = $udoc:expr])*
        $uvis:vis enum $name:ident (tag = $tag_key:literal, requests = $markers:ident) {
            $(
                $(#[doc = $vdoc:expr])*
                $(@$flag:ident $(( $($party:ident),* $(,)? ))?)*
                $variant:ident ( $payload:ty ) = $vtag:literal $(| $valias:literal)* => $reply:ty,
            )*
        }
    ) => {
        $(#[doc = $udoc])*
        #[derive(Debug, Clone, PartialEq)]
        $uvis enum $name {
            $(
                $(#[doc = $vdoc])*
                $variant($payload),
            )*
            /// A message whose tag this protocol does not know (R4): the whole object as
            /// received, re-encoded unchanged.
            Unknown($crate::__private::serde_json::Map<String, $crate::__private::serde_json::Value>),
        }

        $crate::__union_metadata! {
            $uvis $name (requests = $markers) {
                $(
                    $(#[doc = $vdoc])*
                    $(@$flag $(( $($party),* ))?)*
                    $variant ( $payload ) = $vtag $(| $valias)* => $reply,
                )*
            }
        }

        impl $name {
            /// The tag this message carries on the wire.
            pub fn tag(&self) -> &str {
                match self {
                    $( Self::$variant(_) => $vtag, )*
                    Self::Unknown(raw) => raw.get($tag_key).and_then(|t| t.as_str()).unwrap_or(""),
                }
            }
        }

        impl $crate::__private::Tagged for $name {
            fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown(_))
            }
            fn wire_tag(&self) -> &str {
                self.tag()
            }
            fn known_tag(&self) -> Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($vtag), )*
                    Self::Unknown(_) => None,
                }
            }
            fn union_variants() -> &'static [$crate::VariantInfo] {
                <$name as $crate::UnionInfo>::variants()
            }
            fn quick_tag_first(text: &str) -> Option<$crate::quick::Quick<Self>> {
                let (tag, after) = $crate::quick::tag_first(text, $tag_key)?;
                match tag {
                    $(
                        $vtag $(| $valias)* => Some(
                            $crate::quick::decode_rest::<$payload>(text, after, $tag_key)
                                .map($name::$variant),
                        ),
                    )*
                    _ => None,
                }
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                #[derive($crate::__private::serde::Serialize)]
                #[serde(tag = $tag_key)]
                enum __Ser<'a> {
                    $(
                        #[serde(rename = $vtag)]
                        $variant(&'a $payload),
                    )*
                }
                match self {
                    $( Self::$variant(payload) => __Ser::$variant(payload).serialize(serializer), )*
                    Self::Unknown(raw) => raw.serialize(serializer),
                }
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                use $crate::__private::serde::de::{self, Error as _};
                use $crate::__private::serde_json::{Map, Value};
                /// Decodes a buffered object (its tag was not the first key), given as
                /// its entries.
                fn from_entries<E: de::Error>(
                    entries: Vec<(String, Box<$crate::__private::serde_json::value::RawValue>)>,
                ) -> ::core::result::Result<$name, E> {
                    let mut tags = entries.iter().filter(|(key, _)| key == $tag_key);
                    let first = tags.next();
                    if tags.next().is_some() {
                        return Err(E::duplicate_field($tag_key));
                    }
                    let text = $crate::object_text(&entries);
                    let tag = match first {
                        Some((_, raw)) => match $crate::__private::serde_json::from_str::<Value>(raw.get()) {
                            Ok(Value::String(tag)) => tag,
                            Ok(other) => return Err($crate::__private::bad_tag::<E>($tag_key, &other)),
                            Err(err) => return Err(E::custom(format_args!("{}: {err}", $tag_key))),
                        },
                        None => return Err(E::missing_field($tag_key)),
                    };
                    match tag.as_str() {
                        $(
                            $vtag $(| $valias)* => {
                                $crate::decode_buffered("", &text).map($name::$variant)
                            }
                        )*
                        _ => $crate::__private::serde_json::from_str(&text)
                            .map($name::Unknown)
                            .map_err(E::custom),
                    }
                }
                struct __Visitor;
                impl<'de> de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " object"))
                    }
                    fn visit_map<A>(self, mut map: A) -> ::core::result::Result<$name, A::Error>
                    where
                        A: de::MapAccess<'de>,
                    {
                        use $crate::__private::{FirstKey, TagValue};
                        let first = map.next_key_seed($crate::__private::FirstKeySeed($tag_key))?;
                        let Some(first) = first else {
                            return Err(A::Error::missing_field($tag_key));
                        };
                        if let FirstKey::Other(first) = first {
                            // The tag is not first: buffer the object as text, then
                            // dispatch.
                            use $crate::__private::serde_json::value::RawValue;
                            let mut entries = vec![(first, map.next_value::<Box<RawValue>>()?)];
                            while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                                entries.push(entry);
                            }
                            return from_entries(entries);
                        }
                        // The tag comes first (the common case): stream the rest of the
                        // object straight into the payload type. The tag is borrowed
                        // where it can be: it is only matched.
                        let tag = match map.next_value_seed($crate::__private::TagValueSeed)? {
                            TagValue::Str(tag) => tag,
                            TagValue::Other(other) => {
                                return Err($crate::__private::bad_tag::<A::Error>($tag_key, &other));
                            }
                        };
                        let rest = de::value::MapAccessDeserializer::new(
                            $crate::__private::WithoutKey::new(map, $tag_key),
                        );
                        match &*tag {
                            $(
                                $vtag $(| $valias)* => {
                                    <$payload as de::Deserialize>::deserialize(rest).map($name::$variant)
                                }
                            )*
                            _ => {
                                let mut object = Map::new();
                                object.insert($tag_key.to_owned(), Value::String(tag.into_owned()));
                                object.extend(<Map<String, Value> as de::Deserialize>::deserialize(rest)?);
                                Ok($name::Unknown(object))
                            }
                        }
                    }
                }
                deserializer.deserialize_map(__Visitor)
            }
        }

        impl $crate::__private::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(
                generator: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::note_union::<Self>();
                $crate::__private::internal_union_schema(
                    generator,
                    concat!($($udoc, "\n",)*),
                    $tag_key,
                    <$name as $crate::UnionInfo>::variants(),
                )
            }
        }
    };
}
