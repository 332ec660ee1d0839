//! [`Few`]: a map from the few strings a union knows (its tags) that finds a key by
//! comparing lengths, then bytes, entry after entry; hashed only past [`LISTED`] keys.
//! For a handful of short tags this is several times cheaper than hashing the key.

use std::borrow::Borrow;
use std::hash::Hash;

/// The most keys kept in a list.
const LISTED: usize = 16;

/// See the module documentation.
#[derive(Clone)]
pub enum Few<K, V> {
    Listed {
        /// The entries, ordered by key length, then key: a lookup starts at the first
        /// key of its length, and the order (so the cost) is the same in every run.
        entries: Vec<(K, V)>,
        /// Which key lengths the entries have (bit `min(length, 63)`): a key of a length
        /// no entry has is refused at once.
        lengths: u64,
        /// Per length `n` (up to 63, which stands for 63 and more), the index of the
        /// first entry whose key is `n` long or longer.
        starts: [u8; 64],
    },
    Hashed(ahash::HashMap<K, V>),
}

impl<K, V> Default for Few<K, V> {
    fn default() -> Self {
        Few::Listed {
            entries: Vec::new(),
            lengths: 0,
            starts: [0; 64],
        }
    }
}

impl<K: Borrow<str> + Hash + Eq, V> Few<K, V> {
    /// The entry of `key`.
    #[inline(always)]
    pub fn entry(&self, key: &str) -> Option<(&K, &V)> {
        match self {
            Few::Listed {
                entries,
                lengths,
                starts,
            } => {
                if lengths & length_bit(key) == 0 {
                    return None;
                }
                let class = key.len().min(63);
                let mut at = usize::from(starts[class]);
                while let Some((k, v)) = entries.get(at) {
                    let k_str: &str = k.borrow();
                    if k_str.len().min(63) != class {
                        return None;
                    }
                    if same(k_str, key) {
                        return Some((k, v));
                    }
                    at += 1;
                }
                None
            }
            Few::Hashed(map) => map.get_key_value(key),
        }
    }

    /// Calls `f` on each entry, its value mutable.
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&K, &mut V)) {
        match self {
            Few::Listed { entries, .. } => entries.iter_mut().for_each(|(k, v)| f(k, v)),
            Few::Hashed(map) => map.iter_mut().for_each(|(k, v)| f(k, v)),
        }
    }

    /// The keys, in no particular order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let (listed, hashed) = match self {
            Few::Listed { entries, .. } => (Some(entries.iter().map(|(k, _)| k.borrow())), None),
            Few::Hashed(map) => (None, Some(map.keys().map(|k| k.borrow()))),
        };
        listed
            .into_iter()
            .flatten()
            .chain(hashed.into_iter().flatten())
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&V> {
        self.entry(key).map(|(_, v)| v)
    }
}

/// `a == b`, for the short strings keys and tags usually are: up to 16 bytes compared
/// as two overlapping words (equal lengths and equal words at both ends cover every
/// byte), without a call to `memcmp`.
#[inline(always)]
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word4 = |bytes: &[u8], at: usize| {
        u32::from_ne_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]))
    };
    let word8 = |bytes: &[u8], at: usize| {
        u64::from_ne_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]))
    };
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The bit of `key`'s length in [`Few::Listed`]'s `lengths`.
#[inline(always)]
fn length_bit(key: &str) -> u64 {
    1 << key.len().min(63)
}

impl<K: Borrow<str> + Hash + Eq, V> FromIterator<(K, V)> for Few<K, V> {
    /// As a `HashMap` collects: of two equal keys, the last value stays.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        ahash::HashMap::from_iter(entries).into()
    }
}

impl<K: Borrow<str> + Hash + Eq, V> From<ahash::HashMap<K, V>> for Few<K, V> {
    fn from(map: ahash::HashMap<K, V>) -> Self {
        if map.len() <= LISTED {
            let mut entries: Vec<(K, V)> = map.into_iter().collect();
            entries.sort_unstable_by(|(a, _), (b, _)| {
                let (a, b): (&str, &str) = (a.borrow(), b.borrow());
                (a.len(), a).cmp(&(b.len(), b))
            });
            let lengths = entries
                .iter()
                .fold(0, |all, (k, _)| all | length_bit(k.borrow()));
            let mut starts = [0u8; 64];
            for (class, start) in starts.iter_mut().enumerate() {
                let first = entries
                    .iter()
                    .position(|(k, _)| Borrow::<str>::borrow(k).len().min(63) >= class);
                // At most LISTED entries, so the index fits.
                *start = first.unwrap_or(entries.len()) as u8;
            }
            Few::Listed {
                entries,
                lengths,
                starts,
            }
        } else {
            Few::Hashed(map)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_is_string_equality() {
        let words = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "aa",
            "abc",
            "abd",
            "xbc",
            "axc",
            "type",
            "typf",
            "id",
            "method",
            "methoe",
            "nethod",
            "session_end",
            "request_end",
            "readline_start",
            "readline_resulu",
            "readline_result",
            "0123456789abcdef",
            "0123456789abcdeg",
            "1123456789abcdef",
            "0123456789abcdef0",
            "0123456789abcdef1",
        ];
        for a in words {
            for b in words {
                assert_eq!(same(a, b), a == b, "{a:?} {b:?}");
            }
        }
        // Every length to 20, differing at each position in turn.
        for n in 0..=20 {
            let a = "k".repeat(n);
            for at in 0..n {
                let mut b = a.clone().into_bytes();
                b[at] = b'x';
                let b = String::from_utf8(b).unwrap();
                assert!(same(&a, &a) && !same(&a, &b), "{n} {at}");
            }
        }
    }

    #[test]
    fn finds_what_a_hash_map_finds() {
        for count in [0, 1, 5, LISTED, LISTED + 1, 40] {
            // Lengths of 1 to 8, and past 63 (which share one bit of the lengths).
            let keys: Vec<String> = (0..count)
                .map(|i| "k".repeat(if i % 5 == 4 { 60 + i } else { i % 7 }) + &i.to_string())
                .collect();
            let few: Few<Box<str>, usize> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.as_str().into(), i))
                .collect();
            assert_eq!(matches!(few, Few::Listed { .. }), count <= LISTED);
            for (i, key) in keys.iter().enumerate() {
                assert_eq!(few.get(key), Some(&i), "{key}");
                assert_eq!(few.entry(key).map(|(k, _)| &**k), Some(key.as_str()));
                // A key of the same length that differs in its first byte.
                let other = format!("z{}", &key[1..]);
                assert_eq!(few.get(&other), None, "{other}");
            }
            let long = "k".repeat(90);
            for absent in ["", "k", "kk10x", "zz", &long] {
                assert_eq!(few.get(absent), None, "{absent}");
            }
        }
        let last: Few<Box<str>, u8> = [("a".into(), 1), ("a".into(), 2)].into_iter().collect();
        assert_eq!(last.get("a"), Some(&2));
    }
}
