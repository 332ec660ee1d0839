//! `internally_tagged_union!`: an open union whose tag sits beside the payload's own
//! fields, e.g. P4's `{"type": "readline_start", "prompt": ">>> "}`.
//!
//! A known tag decodes the whole object into the variant's payload struct (the tag key
//! itself is ignored there, like every unknown key, R2). An unknown tag decodes to the
//! `Unknown` variant holding the whole object, re-encoded unchanged (R4).

/// Declares an open, internally tagged union. See the module docs.
///
/// ```ignore
/// internally_tagged_union! {
///     /// Union docs.
///     pub enum Message (tag = "type", requests = requests) {
///         /// Variant docs.
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
                $(@$flag:ident)?
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
            Unknown($crate::wire::__private::serde_json::Map<String, $crate::wire::__private::serde_json::Value>),
        }

        /// One marker type per message of this union, each implementing
        /// [`Request`](crate::wire::Request) with its payload and reply types (R8).
        $uvis mod $markers {
            $(
                $(#[doc = $vdoc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct $variant;
            )*
        }

        $(
            impl $crate::wire::Request for $markers::$variant {
                const TAG: &'static str = $vtag;
                type Payload = $payload;
                type Reply = $reply;
            }
        )*

        impl $name {
            /// The tag this message carries on the wire.
            pub fn tag(&self) -> &str {
                match self {
                    $( Self::$variant(_) => $vtag, )*
                    Self::Unknown(raw) => raw.get($tag_key).and_then(|t| t.as_str()).unwrap_or(""),
                }
            }
        }

        impl $crate::wire::Classify for $name {
            fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown(_))
            }
            fn wire_tag(&self) -> Option<&str> {
                Some(self.tag())
            }
            fn known_tag(&self) -> Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($vtag), )*
                    Self::Unknown(_) => None,
                }
            }
            fn union_variants() -> &'static [$crate::wire::VariantInfo] {
                <$name as $crate::wire::UnionInfo>::variants()
            }
        }

        impl $crate::wire::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::wire::__private::serde::Serializer,
            {
                #[derive($crate::wire::__private::serde::Serialize)]
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

        impl<'de> $crate::wire::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::wire::__private::serde::Deserializer<'de>,
            {
                use $crate::wire::__private::serde::de::Error as _;
                use $crate::wire::__private::serde_json::{Map, Value};
                let object = <Map<String, Value> as
                    $crate::wire::__private::serde::Deserialize>::deserialize(deserializer)?;
                let tag = match object.get($tag_key) {
                    Some(Value::String(tag)) => tag.as_str(),
                    Some(other) => {
                        return Err(D::Error::custom(format_args!(
                            "{}: invalid type: {}, expected a string tag",
                            $tag_key,
                            $crate::wire::describe_json_type(other)
                        )))
                    }
                    None => return Err(D::Error::missing_field($tag_key)),
                };
                match tag {
                    $(
                        $vtag $(| $valias)* => {
                            $crate::wire::wrap_path_error("", Value::Object(object)).map(Self::$variant)
                        }
                    )*
                    _ => Ok(Self::Unknown(object)),
                }
            }
        }

        impl $crate::wire::UnionInfo for $name {
            fn variants() -> &'static [$crate::wire::VariantInfo] {
                &[
                    $(
                        $crate::wire::VariantInfo {
                            name: stringify!($variant),
                            tag: $vtag,
                            aliases: &[$($valias),*],
                            doc: concat!($($vdoc, "\n",)*),
                            retired: $crate::__is_retired!($($flag)?),
                            payload: Some($crate::wire::schema_of::<$payload>),
                            payload_accepts_empty: $crate::wire::accepts_empty::<$payload>,
                            reply: $crate::wire::reply_of::<$reply>,
                            reply_roundtrip: $crate::wire::reply_roundtrip_of::<$reply>,
                        },
                    )*
                ]
            }
        }

        impl $crate::wire::__private::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(
                generator: &mut $crate::wire::__private::schemars::SchemaGenerator,
            ) -> $crate::wire::__private::schemars::Schema {
                $crate::schema::build::internal_union_schema(
                    generator,
                    concat!($($udoc, "\n",)*),
                    $tag_key,
                    <$name as $crate::wire::UnionInfo>::variants(),
                )
            }
        }
    };
}
