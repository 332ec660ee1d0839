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
                $(@$flag:ident $(( $($party:ident),* $(,)? ))?)*
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
                            retired: $crate::__variant_flags!(retired; $(@$flag $(($($party),*))?)*),
                            sent_by: $crate::__variant_flags!(sent_by; $(@$flag $(($($party),*))?)*),
                            received_by: $crate::__variant_flags!(received_by; $(@$flag $(($($party),*))?)*),
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

/// The flags before a variant: `@retired`, `@sent_by(party, ...)` and
/// `@received_by(party, ...)`, in any order; `__variant_flags!(retired; flags)` is
/// whether `@retired` is there, `__variant_flags!(sent_by; flags)` the parties as
/// `Some(&["party", ...])` (`None` when not declared). Any other flag is a usage error.
#[doc(hidden)]
#[macro_export]
macro_rules! __variant_flags {
    (retired;) => {
        false
    };
    (retired; @retired $($rest:tt)*) => {
        true
    };
    ($query:ident;) => {
        ::core::option::Option::None
    };
    (sent_by; @sent_by ($($party:ident),*) $($rest:tt)*) => {
        ::core::option::Option::Some(&[$(stringify!($party)),*])
    };
    (received_by; @received_by ($($party:ident),*) $($rest:tt)*) => {
        ::core::option::Option::Some(&[$(stringify!($party)),*])
    };
    ($query:ident; @retired $($rest:tt)*) => {
        $crate::__variant_flags!($query; $($rest)*)
    };
    ($query:ident; @sent_by ($($party:ident),*) $($rest:tt)*) => {
        $crate::__variant_flags!($query; $($rest)*)
    };
    ($query:ident; @received_by ($($party:ident),*) $($rest:tt)*) => {
        $crate::__variant_flags!($query; $($rest)*)
    };
    ($query:ident; @$other:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "unknown variant flag `@",
            ::core::stringify!($other),
            "`: expected `@retired`, `@sent_by(party, ...)` or `@received_by(party, ...)`"
        ))
    };
}
