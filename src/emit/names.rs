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
