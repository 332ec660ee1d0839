//! Deterministic unique names, shared by every emitter: the first claimant of a name
//! gets it, later ones get `2`, `3`, ... appended.

use std::collections::HashSet;

/// The names taken in one scope (a module's types, a struct's members, ...).
#[derive(Debug, Default, Clone)]
pub struct UniqueNames {
    taken: HashSet<String>,
}

impl UniqueNames {
    /// A scope in which `reserved` names are already taken.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        Self {
            taken: reserved.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    /// Claims `name` only if it is free.
    pub fn try_claim(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_owned())
    }

    /// Claims `name` as a file name on a file system that may ignore case: no other
    /// claim of this kind differs from it only by case (`Chat`, `chat` → `chat2`).
    pub fn claim_ignoring_case(&mut self, name: String) -> String {
        let mut n = 1u64;
        let mut candidate = name.clone();
        while !self.taken.insert(candidate.to_lowercase()) {
            n += 1;
            candidate = format!("{name}{n}");
        }
        candidate
    }

    /// Claims `name`, or the first free `name2`, `name3`, ...
    pub fn claim(&mut self, name: String) -> String {
        if self.taken.insert(name.clone()) {
            return name;
        }
        let mut n = 2u64;
        loop {
            let candidate = format!("{name}{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

/// A module's file stem from its schema's: ASCII letters, digits, `-`, `_` and `.` kept,
/// anything else (path separators, quotes, spaces, line breaks) replaced by `-`, so a
/// file name can neither leave the package nor break out of a string literal.
pub fn file_stem(stem: &str) -> String {
    let mut out: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    while out.starts_with('.') {
        out.replace_range(..1, "-");
    }
    if out.is_empty() {
        out.push_str("module");
    }
    out
}

/// Checks a module name given in `symgen.toml`: ASCII letters, digits and `_`, not
/// starting with a digit, and not a keyword of `language` (named in the message).
pub fn check_module_name(
    name: &str,
    language: &str,
    is_keyword: impl Fn(&str) -> bool,
) -> Result<(), String> {
    let mut bytes = name.bytes();
    let ok = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !is_keyword(name);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not a {language} module name (ASCII letters, digits and `_`, not starting with a digit, not a keyword)",
            name.escape_default()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::UniqueNames;

    #[test]
    fn later_claimants_get_numbered_suffixes() {
        let mut names = UniqueNames::with_reserved(&["Type"]);
        assert_eq!(names.claim("Type".into()), "Type2");
        assert_eq!(names.claim("Other".into()), "Other");
        assert_eq!(names.claim("Other".into()), "Other2");
        assert!(!names.try_claim("Other2"));
        assert!(names.try_claim("Fresh"));
    }
}
