//! [`Router`]: which roots of a validator cannot take a text as a known message, told
//! from the text alone (a cheap look at its tag), so the typed path tries the others
//! first and, for a valid message, decodes it once.
//!
//! Only the order of the roots tried changes, never a verdict: a root that cannot know
//! the message is still tried, after the others, when no other root accepts it.

use super::report::Name;
use memchr::memmem::Finder;

use super::compiled::CompiledSchema;
use super::few::Few;
use super::locate::{Peek, peek_with};

/// The most roots a router tells apart (one bit each).
const MOST_ROOTS: usize = 64;

/// The tagged-union roots that share one tag key.
struct KeyRoute {
    /// The tag key, e.g. `type`.
    key: String,
    /// Finds `"key"` in a text (see [`peek_with`]).
    quoted_key: Finder<'static>,
    /// `{"key":"`: how serde starts an internally tagged object, tag first.
    tight: Box<[u8]>,
    /// The lengths of the known tags (bit `n`: length `n`), when every known tag is
    /// shorter than 64 bytes and plain (no quote, backslash or control character, so
    /// it is written as it is); else 0, and [`Self::tight_tag`] reads nothing.
    lengths: u64,
    /// Per known string tag, the roots of this key that know it (bit `i`: root `i`).
    known: Few<Name, u64>,
    /// Every root of this key.
    roots: u64,
}

impl KeyRoute {
    /// Whether the key is written as it is in `{"key":` (no character JSON escapes).
    fn key_is_plain(&self) -> bool {
        !self
            .key
            .bytes()
            .any(|b| b == b'"' || b == b'\\' || b < 0x20)
    }

    /// The roots that know the tag of a text that starts `{"key":"<tag>"` with a known
    /// tag, or `None` (another start, an unknown or escaped tag): only the known tags'
    /// lengths are tried for the closing quote. A plain known tag followed by a quote
    /// is the whole string (the quote cannot be escaped, the tag holds no other).
    #[inline(always)]
    fn tight_tag(&self, text: &str) -> Option<u64> {
        let bytes = text.as_bytes();
        let at = self.tight.len();
        // A first key that is another one mostly differs in its first letter.
        if self.lengths == 0
            || bytes.get(2) != self.tight.get(2)
            || bytes.get(..at)? != &*self.tight
        {
            return None;
        }
        let mut lengths = self.lengths;
        while lengths != 0 {
            let length = lengths.trailing_zeros() as usize;
            lengths &= lengths - 1;
            if bytes.get(at + length) == Some(&b'"')
                && let Some(&roots) = self.known.get(text.get(at..at + length)?)
            {
                return Some(roots);
            }
        }
        None
    }
}

/// See the module documentation.
pub(super) struct Router {
    /// One entry per distinct tag key; empty when there is nothing to route (one root,
    /// no tagged union, or more roots than [`MOST_ROOTS`]).
    keys: Vec<KeyRoute>,
}

impl Router {
    /// The router of `schema`'s roots.
    pub(super) fn new(schema: &CompiledSchema) -> Self {
        if schema.roots.len() < 2 || schema.roots.len() > MOST_ROOTS {
            return Router { keys: Vec::new() };
        }
        let plain =
            |tag: &str| tag.len() < 64 && !tag.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
        let keys = schema
            .tag_keys()
            .keys
            .iter()
            .map(|tag_key| {
                let quoted = format!("\"{}\"", tag_key.key);
                let mut route = KeyRoute {
                    key: tag_key.key.to_string(),
                    quoted_key: Finder::new(quoted.as_bytes()).into_owned(),
                    tight: format!("{{{quoted}:\"").into_bytes().into(),
                    lengths: 0,
                    known: tag_key.known.clone(),
                    roots: tag_key.roots,
                };
                if tag_key.known.keys().all(plain) && route.key_is_plain() {
                    route.lengths = tag_key
                        .known
                        .keys()
                        .fold(0, |all, tag| all | 1 << tag.len());
                }
                route
            })
            .collect();
        Router { keys }
    }

    /// The roots (bit `i`: root `i`) that cannot take `text` as a known message: the
    /// tagged unions whose tag `text` lacks, or holds as a string they do not know.
    #[inline]
    pub(super) fn hopeless(&self, text: &str) -> u64 {
        let mut hopeless = 0;
        for route in &self.keys {
            if let Some(knowing) = route.tight_tag(text) {
                hopeless |= route.roots & !knowing;
                continue;
            }
            match peek_with(text, &route.key, &route.quoted_key) {
                Peek::String(tag) => {
                    hopeless |= route.roots & !route.known.get(tag).copied().unwrap_or(0);
                }
                Peek::Absent => hopeless |= route.roots,
                Peek::Unsure => {}
            }
        }
        hopeless
    }
}

/// Whether root `index` is in `roots`.
#[inline(always)]
pub(super) fn has(roots: u64, index: usize) -> bool {
    index < MOST_ROOTS && roots >> index & 1 == 1
}
