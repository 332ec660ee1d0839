//! How [`crate::Protocol::root`] tells an open union the macros declared from a plain
//! type without asking the user for an extra trait impl.
//!
//! The macros' `JsonSchema` impls call [`note_union`], which records the union's typed
//! checks while a probe is running on this thread and does nothing otherwise. A probe
//! asks `T` for its schema once and keeps what `T` itself noted. The schema generator
//! is the probe's own, so nothing else observes it.

use std::any::TypeId;
use std::cell::RefCell;

use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::VariantInfo;
use crate::protocol::{
    Accepted, DecodeError, RoundTrip, check_text, check_value, roundtrip, tagged, verdict_union,
};
use crate::support::Tagged;

/// The typed checks of one open union, monomorphised where its type is known.
pub(crate) struct UnionTable {
    pub schema: fn(&mut SchemaGenerator) -> schemars::Schema,
    pub roundtrip: fn(&str) -> Result<RoundTrip, String>,
    pub check: fn(&str) -> Result<Accepted, serde_json::Error>,
    pub verdict: fn(&str) -> Result<Accepted, Option<serde_json::Error>>,
    pub check_value: fn(&Value) -> Result<Accepted, serde_json::Error>,
    pub decode_error: fn(&str) -> Option<crate::DecodeError>,
    pub variants: fn() -> &'static [VariantInfo],
    pub trace: fn(&mut crate::trace::Tracer),
}

thread_local! {
    static NOTES: RefCell<Option<Vec<(TypeId, UnionTable)>>> = const { RefCell::new(None) };
}

/// Called by the macros' `JsonSchema` impls: records `T`'s typed checks for a running
/// probe.
pub fn note_union<T>()
where
    T: Tagged + JsonSchema + Serialize + DeserializeOwned + 'static,
{
    NOTES.with(|notes| {
        if let Some(notes) = notes.borrow_mut().as_mut() {
            notes.push((
                TypeId::of::<T>(),
                UnionTable {
                    schema: |generator| generator.subschema_for::<T>(),
                    roundtrip: |text| roundtrip::<T>(text, tagged::<T>),
                    check: |text| check_text::<T>(text, tagged::<T>),
                    verdict: verdict_union::<T>,
                    check_value: |value| check_value::<T>(value, tagged::<T>),
                    decode_error: crate::decode_error::<T> as fn(&str) -> Option<DecodeError>,
                    variants: T::union_variants,
                    trace: T::trace,
                },
            ));
        }
    });
}

/// Runs `f` and returns, with its result, every open union whose schema it generated.
pub(crate) fn collecting<R>(f: impl FnOnce() -> R) -> (R, Vec<UnionTable>) {
    let outer = NOTES.with(|notes| notes.replace(Some(Vec::new())));
    let result = f();
    let notes = NOTES.with(|notes| notes.replace(outer)).unwrap_or_default();
    (result, notes.into_iter().map(|(_, table)| table).collect())
}

/// `T`'s typed checks when `T` is an open union the macros declared.
pub(crate) fn union_table<T: JsonSchema + 'static>() -> Option<UnionTable> {
    let outer = NOTES.with(|notes| notes.replace(Some(Vec::new())));
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let _ = T::json_schema(&mut generator);
    let notes = NOTES.with(|notes| notes.replace(outer)).unwrap_or_default();
    notes
        .into_iter()
        .find(|(id, _)| *id == TypeId::of::<T>())
        .map(|(_, table)| table)
}
