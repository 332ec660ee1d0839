//! The quick decode: serde's typed decode of a JSON text with [`crate::Strict`]
//! semantics, in one pass over the text, with serde_json as the judge wherever it cannot
//! be sure.
//!
//! serde_json's decode is the reference: what it accepts is what the protocol's Rust
//! types accept. It starts each text with an empty buffer for escaped strings, calls out
//! of line to scan each string, and builds a full error (a message, a position) for
//! every refusal, even when the caller only wants the verdict. This decode reads the
//! same grammar and hands the derived visitors exactly what serde_json hands them: the
//! same visit method with the same argument for every value, borrowed where serde_json
//! lends, and a refusal where serde_json refuses. Its refusals carry nothing.
//!
//! So for a text it reads to the end without refusing, serde_json would have made the
//! same calls and accepted it. A refusal is certain when it is the only one and serde_json
//! refuses at the same step, or when the visitor itself refused (it saw what serde_json
//! would have shown it). Anything else (what this decode leaves to serde_json: 128-bit
//! integers, byte strings, keys read as numbers, nesting past serde_json's limit; or a
//! visitor that swallowed a refusal and read on) is unsure, and the caller asks
//! serde_json.

mod de;
mod read;

use std::fmt;

use serde::de::DeserializeOwned;

use read::Reader;
/// Scanning helpers shared with symgen's own JSON reader (its validator's token tape).
#[doc(hidden)]
pub use read::{NumberExtent, ShortInteger, number_extent, special, unescape};

/// The error of the quick decode: it carries nothing (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal;

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("refused by the quick decode")
    }
}

impl std::error::Error for Refusal {}

impl serde::de::Error for Refusal {
    #[inline]
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Refusal
    }
}

/// What the quick decode makes of a text.
#[derive(Debug)]
pub enum Quick<T> {
    /// serde_json accepts the text, as this value.
    Decoded(T),
    /// serde_json refuses the text.
    Refused,
    /// Ask serde_json.
    Unsure,
}

impl<T> Quick<T> {
    /// The decoded value mapped by `f`.
    #[inline]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Quick<U> {
        match self {
            Quick::Decoded(value) => Quick::Decoded(f(value)),
            Quick::Refused => Quick::Refused,
            Quick::Unsure => Quick::Unsure,
        }
    }
}

/// Decodes `text` as `T` (see the module docs); [`from_str`] asks serde_json where this
/// is unsure.
#[inline]
pub fn decode<T: DeserializeOwned>(text: &str) -> Quick<T> {
    let mut reader = Reader::new(text);
    let result = T::deserialize(&mut reader);
    judged(reader, result)
}

/// What a decode that gave `result` and left `reader` where it stopped makes of the text.
#[inline(always)]
fn judged<T>(mut reader: Reader<'_>, result: Result<T, Refusal>) -> Quick<T> {
    let certain = reader.raised == 0 || (reader.raised == 1 && !reader.unsure);
    match result {
        Ok(value) if reader.raised == 0 => match reader.end() {
            Ok(()) => Quick::Decoded(value),
            Err(_) => Quick::Refused,
        },
        Err(_) if certain => Quick::Refused,
        _ => Quick::Unsure,
    }
}

/// For a text that starts `{"key":"tag"` (an internally tagged object as serde writes it:
/// tag first, no white space) with a tag written plainly (no escape): the tag, and where
/// the text goes on after its closing quote. `None` for any other text.
#[inline]
pub fn tag_first<'t>(text: &'t str, key: &str) -> Option<(&'t str, usize)> {
    let bytes = text.as_bytes();
    let key = key.as_bytes();
    let start = key.len() + 5;
    if bytes.get(..2)? != b"{\""
        || bytes.get(2..start - 3)? != key
        || bytes.get(start - 3..start)? != b"\":\""
    {
        return None;
    }
    let end = special(bytes, start);
    if bytes.get(end) != Some(&b'"') {
        return None;
    }
    Some((text.get(start..end)?, end + 1))
}

/// The members of an object after its tag member (a [`tag_first`] text, from `after`
/// on), decoded as `P`: what an internally tagged union's decode does once it has read
/// the tag, handing `P` the remaining members and refusing the tag key among them
/// (`key`, [`crate::__private::WithoutKey`]); then the object's end and the text's.
pub fn decode_rest<P: DeserializeOwned>(text: &str, after: usize, key: &'static str) -> Quick<P> {
    let mut reader = Reader::new(text);
    let result = reader.rest_of_object(after, key);
    judged(reader, result)
}

/// Decodes `text` as `T` with [`crate::Strict`] semantics, as [`crate::from_str`] does,
/// with the same verdict; a refusal is `Err(None)` when the quick decode is sure of it
/// (serde_json's error is not built), else serde_json's error.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Option<serde_json::Error>> {
    match decode::<T>(text) {
        Quick::Decoded(value) => Ok(value),
        Quick::Refused => Err(None),
        Quick::Unsure => crate::strict::from_str(text).map_err(Some),
    }
}
