//! `envelope!`: an object with shared fields plus an adjacently tagged body, e.g. the P1
//! bus envelope `{type, id, sender, payload}` or a JSON-RPC request
//! `{jsonrpc, id, method, params}`.
//!
//! Decoding streams the content straight into the payload type when the tag comes
//! first (the common case) and buffers it otherwise. The content may be absent or `null`
//! and then decodes as `{}` (R3). An unknown tag decodes to the `Unknown` variant, which
//! keeps the raw tag and content so the message can be forwarded unchanged (R4).

/// Declares an envelope struct and its body enum. See the module docs.
///
/// The generated types derive `Debug`, `Clone` and `PartialEq`, so every payload (and
/// shared field) type must implement them too. The per-variant marker types are public
/// (they implement [`Request`](crate::Request) naming the payload and reply types), so
/// payload and reply types must be declared `pub`; a private module keeps them private.
///
/// ```ignore
/// envelope! {
///     /// Envelope docs.
///     pub struct Message {
///         tag = "type";
///         content = "payload";
///         body = body: Body;
///         /// Field docs.
///         pub id: String = "id",
///     }
///     /// Body docs.
///     pub enum Body (requests = requests) {
///         /// Variant docs.
///         Ping(Empty) = "ping" | "PING" => Reply<Pong>,
///         /// A retired variant (marked deprecated in the schema).
///         @retired Old(Empty) = "old" => NoReply,
///         /// Who sends and who receives it: parties declared with
///         /// `Protocol::with_party` (`@sent_by()` says no live program sends it).
///         @sent_by(client) @received_by(server)
///         Post(PostPayload) = "post" => NoReply,
///     }
/// }
/// ```
#[macro_export]
macro_rules! envelope {
    (
        $(#[doc = $doc:expr])*
        $vis:vis struct $name:ident {
            tag = $tag_key:literal;
            content = $content_key:literal;
            body = $bfield:ident : $body:ident;
            $(
                $(#[doc = $fdoc:expr])*
                $fvis:vis $field:ident : $fty:ty = $fwire:literal,
            )*
        }
        $(#[doc = $udoc:expr])*
        $uvis:vis enum $body_decl:ident (requests = $markers:ident) {
            $(
                $(#[doc = $vdoc:expr])*
                $(@$flag:ident $(( $($party:ident),* $(,)? ))?)*
                $variant:ident ( $payload:ty ) = $vtag:literal $(| $valias:literal)* => $reply:ty,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        $vis struct $name {
            $(
                $(#[doc = $fdoc])*
                $fvis $field: $fty,
            )*
            /// The tag and its content.
            pub $bfield: $body,
        }

        $crate::__tagged_body! {
            $(#[doc = $udoc])*
            $uvis enum $body_decl (requests = $markers, content = $content_key) {
                $(
                    $(#[doc = $vdoc])*
                    $(@$flag $(( $($party),* ))?)*
                    $variant ( $payload ) = $vtag $(| $valias)* => $reply,
                )*
            }
        }

        impl $crate::__private::Tagged for $name {
            fn is_unknown(&self) -> bool {
                matches!(self.$bfield, $body::Unknown(_))
            }
            fn wire_tag(&self) -> &str {
                self.$bfield.tag()
            }
            fn known_tag(&self) -> Option<&'static str> {
                self.$bfield.known_tag()
            }
            fn union_variants() -> &'static [$crate::VariantInfo] {
                <$body as $crate::UnionInfo>::variants()
            }
            fn trace(tracer: &mut $crate::__private::Tracer) {
                $( tracer.entry::<$fty>(); )*
                for variant in <$body as $crate::UnionInfo>::variants() {
                    (variant.trace)(tracer);
                }
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                use $crate::__private::serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry($tag_key, self.$bfield.tag())?;
                $( map.serialize_entry($fwire, &self.$field)?; )*
                $crate::__private::TaggedBody::serialize_content(&self.$bfield, &mut map)?;
                map.end()
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                use $crate::__private::serde::de::{self, Error as _};
                #[allow(non_camel_case_types)]
                enum __Field {
                    __Tag,
                    __Content,
                    $( $field, )*
                    __Other,
                }
                impl<'de> de::Deserialize<'de> for __Field {
                    fn deserialize<D2>(d: D2) -> ::core::result::Result<Self, D2::Error>
                    where
                        D2: de::Deserializer<'de>,
                    {
                        struct __FieldVisitor;
                        impl<'de> de::Visitor<'de> for __FieldVisitor {
                            type Value = __Field;
                            fn expecting(
                                &self,
                                f: &mut ::core::fmt::Formatter,
                            ) -> ::core::fmt::Result {
                                f.write_str("a field name")
                            }
                            fn visit_str<E: de::Error>(
                                self,
                                v: &str,
                            ) -> ::core::result::Result<__Field, E> {
                                Ok(match v {
                                    $tag_key => __Field::__Tag,
                                    $content_key => __Field::__Content,
                                    $( $fwire => __Field::$field, )*
                                    _ => __Field::__Other,
                                })
                            }
                        }
                        d.deserialize_identifier(__FieldVisitor)
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
                        // Borrowed where it can be: it is only matched, unless the
                        // content came first or the tag is unknown.
                        let mut tag: Option<::std::borrow::Cow<'de, str>> = None;
                        let mut body: Option<$body> = None;
                        let mut buffered: Option<
                            Box<$crate::__private::serde_json::value::RawValue>,
                        > = None;
                        let mut content_seen = false;
                        $( let mut $field: Option<$fty> = None; )*
                        while let Some(key) = map.next_key::<__Field>()? {
                            match key {
                                __Field::__Tag => {
                                    if tag.is_some() {
                                        return Err(A::Error::duplicate_field($tag_key));
                                    }
                                    tag = Some(map.next_value_seed($crate::__private::TagTextSeed)?);
                                }
                                __Field::__Content => {
                                    if content_seen {
                                        return Err(A::Error::duplicate_field($content_key));
                                    }
                                    content_seen = true;
                                    match &tag {
                                        Some(t) => {
                                            body = Some(map.next_value_seed(
                                                $crate::__private::ContentSeed::<$body>::new(t),
                                            )?);
                                        }
                                        None => buffered = Some(map.next_value()?),
                                    }
                                }
                                $(
                                    __Field::$field => {
                                        if $field.is_some() {
                                            return Err(A::Error::duplicate_field($fwire));
                                        }
                                        $field = Some(map.next_value()?);
                                    }
                                )*
                                __Field::__Other => {
                                    map.next_value::<de::IgnoredAny>()?;
                                }
                            }
                        }
                        let tag = tag.ok_or_else(|| A::Error::missing_field($tag_key))?;
                        $( let $field = $field.ok_or_else(|| A::Error::missing_field($fwire))?; )*
                        let body = match body {
                            Some(body) => body,
                            None => <$body as $crate::__private::TaggedBody>::from_buffered(
                                tag.into_owned(),
                                content_seen,
                                buffered,
                            )?,
                        };
                        Ok($name { $( $field, )* $bfield: body })
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
                let fields: Vec<$crate::__private::FieldSpec> = vec![
                    $(
                        $crate::__private::FieldSpec {
                            wire: $fwire,
                            doc: concat!($($fdoc, "\n",)*),
                            schema: $crate::__private::schema_of::<$fty>,
                        },
                    )*
                ];
                $crate::__private::envelope_schema(
                    generator,
                    &$crate::__private::EnvelopeSpec {
                        doc: concat!($($doc, "\n",)*),
                        tag: $tag_key,
                        content: $content_key,
                        fields,
                        variants: <$body as $crate::UnionInfo>::variants(),
                    },
                )
            }
        }
    };
}

/// Shared by `envelope!`: the body enum of an adjacently tagged envelope.
#[doc(hidden)]
#[macro_export]
macro_rules! __tagged_body {
    (
        $(#[doc = $udoc:expr])*
        $uvis:vis enum $body:ident (requests = $markers:ident, content = $content_key:literal) {
            $(
                $(#[doc = $vdoc:expr])*
                $(@$flag:ident $(( $($party:ident),* $(,)? ))?)*
                $variant:ident ( $payload:ty ) = $vtag:literal $(| $valias:literal)* => $reply:ty,
            )*
        }
    ) => {
        $(#[doc = $udoc])*
        #[derive(Debug, Clone, PartialEq)]
        $uvis enum $body {
            $(
                $(#[doc = $vdoc])*
                $variant($payload),
            )*
            /// A message whose tag this protocol does not know (R4). The raw tag and
            /// content are kept so a relay can forward the message unchanged.
            Unknown($crate::UnknownPayload),
        }

        $crate::__union_metadata! {
            $uvis $body (requests = $markers) {
                $(
                    $(#[doc = $vdoc])*
                    $(@$flag $(( $($party),* ))?)*
                    $variant ( $payload ) = $vtag $(| $valias)* => $reply,
                )*
            }
        }

        impl $body {
            /// The tag this message carries on the wire.
            pub fn tag(&self) -> &str {
                match self {
                    $( Self::$variant(_) => $vtag, )*
                    Self::Unknown(raw) => &raw.tag,
                }
            }

            /// The canonical tag of a known variant; `None` for [`Self::Unknown`].
            pub fn known_tag(&self) -> Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($vtag), )*
                    Self::Unknown(_) => None,
                }
            }
        }

        impl $crate::__private::TaggedBody for $body {
            fn serialize_content<M>(&self, map: &mut M) -> ::core::result::Result<(), M::Error>
            where
                M: $crate::__private::serde::ser::SerializeMap,
            {
                match self {
                    $( Self::$variant(payload) => map.serialize_entry($content_key, payload), )*
                    Self::Unknown(raw) => match &raw.content {
                        Some(content) => map.serialize_entry($content_key, content),
                        None => Ok(()),
                    },
                }
            }

            fn deserialize_content<'de, D>(
                tag: &str,
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                match tag {
                    $(
                        $vtag $(| $valias)* => {
                            $crate::__private::content_or_empty(deserializer).map(Self::$variant)
                        }
                    )*
                    _ => {
                        let content = <$crate::__private::serde_json::Value as
                            $crate::__private::serde::Deserialize>::deserialize(deserializer)?;
                        Ok(Self::Unknown($crate::UnknownPayload {
                            tag: tag.to_owned(),
                            content: Some(content),
                        }))
                    }
                }
            }

            fn from_buffered<E>(
                tag: String,
                content_seen: bool,
                content: Option<Box<$crate::__private::serde_json::value::RawValue>>,
            ) -> ::core::result::Result<Self, E>
            where
                E: $crate::__private::serde::de::Error,
            {
                match tag.as_str() {
                    $(
                        $vtag $(| $valias)* => {
                            let text = match &content {
                                Some(content) if content.get() != "null" => content.get(),
                                _ => "{}",
                            };
                            $crate::decode_buffered($content_key, text).map(Self::$variant)
                        }
                    )*
                    _ => Ok(Self::Unknown($crate::UnknownPayload {
                        tag,
                        content: match content.filter(|_| content_seen) {
                            Some(content) => Some(
                                $crate::__private::serde_json::from_str(content.get())
                                    .map_err(E::custom)?,
                            ),
                            None => None,
                        },
                    })),
                }
            }
        }
    };
}

/// What `envelope!` generates for its body enum, so that the envelope's serde code can
/// reach it through a trait (and [`ContentSeed`] can be one generic type) instead of
/// helper methods on the user's own type.
pub trait TaggedBody: Sized {
    /// Writes the content entry (`"payload": ...`) of this body, if it has one.
    fn serialize_content<M>(&self, map: &mut M) -> Result<(), M::Error>
    where
        M: serde::ser::SerializeMap;
    /// Decodes the content of a message tagged `tag`, streamed.
    fn deserialize_content<'de, D>(tag: &str, deserializer: D) -> Result<Self, D::Error>
    where
        D: serde::Deserializer<'de>;
    /// Decodes a body whose content was buffered (as text) because the tag came after it.
    fn from_buffered<E>(
        tag: String,
        content_seen: bool,
        content: Option<Box<serde_json::value::RawValue>>,
    ) -> Result<Self, E>
    where
        E: serde::de::Error;
}

/// Seed that decodes the content of an envelope once its tag is known.
pub struct ContentSeed<'a, B> {
    /// The tag read before the content.
    pub tag: &'a str,
    _body: std::marker::PhantomData<B>,
}

impl<'a, B> ContentSeed<'a, B> {
    /// A seed for the given tag.
    pub fn new(tag: &'a str) -> Self {
        Self {
            tag,
            _body: std::marker::PhantomData,
        }
    }
}

impl<'de, B: TaggedBody> serde::de::DeserializeSeed<'de> for ContentSeed<'_, B> {
    type Value = B;

    fn deserialize<D>(self, deserializer: D) -> Result<B, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        B::deserialize_content(self.tag, deserializer)
    }
}
