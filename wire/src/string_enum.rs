//! `string_enum!`: a closed enum of string values with optional input aliases, and
//! `const_str!`: a single fixed string such as JSON-RPC's `"2.0"`.

/// Declares a closed string enum. Each value may list input aliases that decode to it
/// (e.g. a legacy PascalCase spelling); output always uses the canonical value. An
/// unknown value is a decode error naming the expected values (R4).
///
/// ```ignore
/// string_enum! {
///     /// Docs.
///     pub enum Mode {
///         /// Docs.
///         Replace = "replace" | "Replace",
///         Append = "append",
///     }
/// }
/// ```
#[macro_export]
macro_rules! string_enum {
    (
        $(#[doc = $doc:expr])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $vdoc:expr])*
                $variant:ident = $value:literal $(| $alias:literal)*,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $(
                $(#[doc = $vdoc])*
                $variant,
            )*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The canonical wire string.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $value, )*
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                use $crate::__private::serde::de;
                struct __Visitor;
                impl<'de> de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                        f.write_str(concat!("one of the ", stringify!($name), " values"))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> ::core::result::Result<$name, E> {
                        match v {
                            $( $value $(| $alias)* => Ok($name::$variant), )*
                            _ => Err(E::unknown_variant(v, &[$($value),*])),
                        }
                    }
                }
                deserializer.deserialize_str(__Visitor)
            }
        }

        impl $crate::__private::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::string_enum_schema(
                    concat!($($doc, "\n",)*),
                    &[
                        $(
                            $crate::__private::EnumValueSpec {
                                value: $value,
                                doc: concat!($($vdoc, "\n",)*),
                                aliases: &[$($alias),*],
                            },
                        )*
                    ],
                )
            }
        }
    };
}

/// Declares a unit type that is exactly one string on the wire, e.g. `"2.0"`.
#[macro_export]
macro_rules! const_str {
    (
        $(#[doc = $doc:expr])*
        $vis:vis struct $name:ident = $value:literal;
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        $vis struct $name;

        impl $name {
            /// The only accepted value.
            pub const VALUE: &'static str = $value;
        }

        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::__private::serde::Serializer,
            {
                serializer.serialize_str($value)
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                use $crate::__private::serde::de;
                struct __Visitor;
                impl<'de> de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                        f.write_str(concat!("the string \"", $value, "\""))
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> ::core::result::Result<$name, E> {
                        if v == $value {
                            Ok($name)
                        } else {
                            Err(E::invalid_value(de::Unexpected::Str(v), &self))
                        }
                    }
                }
                deserializer.deserialize_str(__Visitor)
            }
        }

        impl $crate::__private::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::const_schema(concat!($($doc, "\n",)*), $value)
            }
        }
    };
}
