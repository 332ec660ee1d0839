//! `__union_metadata!`: what every tagged union macro declares besides its serde code:
//! one marker type per variant implementing [`Request`](crate::Request) (R8), and
//! the [`UnionInfo`](crate::UnionInfo) the schema builder reads.

/// Shared by `envelope!` and `internally_tagged_union!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __union_metadata {
    (
        $uvis:vis $name:ident (requests = $markers:ident) {
            $(
                $(#[doc = $vdoc:expr])*
                $(@$flag:ident)?
                $variant:ident ( $payload:ty ) = $vtag:literal $(| $valias:literal)* => $reply:ty,
            )*
        }
    ) => {
        /// One marker type per message of this union, each implementing
        /// [`Request`](crate::Request) with its payload and reply types (R8).
        $uvis mod $markers {
            $(
                $(#[doc = $vdoc])*
                #[derive(Debug, Clone, Copy, PartialEq, Eq)]
                pub struct $variant;
            )*
        }

        $(
            impl $crate::Request for $markers::$variant {
                const TAG: &'static str = $vtag;
                type Payload = $payload;
                type Reply = $reply;
            }
        )*

        impl $crate::UnionInfo for $name {
            fn variants() -> &'static [$crate::VariantInfo] {
                &[
                    $(
                        $crate::VariantInfo {
                            name: stringify!($variant),
                            tag: $vtag,
                            aliases: &[$($valias),*],
                            doc: concat!($($vdoc, "\n",)*),
                            retired: $crate::__is_retired!($($flag)?),
                            payload: Some($crate::__private::schema_of::<$payload>),
                            payload_accepts_empty: $crate::__private::accepts_empty::<$payload>,
                            reply: $crate::__private::reply_of::<$reply>,
                            reply_roundtrip: $crate::__private::reply_roundtrip_of::<$reply>,
                            trace: $crate::__private::trace_of::<$payload, $reply>,
                        },
                    )*
                ]
            }
        }
    };
}

/// `@retired` marks a retired message; anything else is a macro usage error.
#[doc(hidden)]
#[macro_export]
macro_rules! __is_retired {
    () => {
        false
    };
    (retired) => {
        true
    };
}
