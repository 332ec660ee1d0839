//! Case conversion shared by the model and every backend: one word splitter.

/// Splits a schema name or wire name into words: at any character that is not a letter
/// or digit, at lower-to-upper case changes (`workingDirectory`), and before the last
/// capital of an acronym followed by lowercase (`IPCResponse` → `IPC`, `Response`).
pub fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if let Some(&prev) = current.chars().last().as_ref() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = (c.is_uppercase() && (prev.is_lowercase() || prev.is_ascii_digit()))
                || (c.is_uppercase() && prev.is_uppercase() && next_lower);
            if boundary {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `word` with its first letter in uppercase, the rest as it is.
pub fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `Parent` + `top_error-files` → `ParentTopErrorFiles`: every word capitalized and
/// joined, the rest of each word as it is (`IPCResponse` stays `IPCResponse`).
pub fn pascal_case(text: &str) -> String {
    words(text).iter().map(|w| capitalized(w)).collect()
}

/// [`words`] with every non-ASCII character spelled as its own word `U` + its code
/// point in hex (`Ωx` → `U2126`, `x`): for languages whose identifiers are ASCII by
/// convention or rule (`swift-format lint`, Python's NFKC-folded names). Deterministic,
/// and different names stay different; wire names themselves stay exact in the output.
pub fn ascii_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in words(name) {
        if word.is_ascii() {
            out.push(word);
            continue;
        }
        let mut run = String::new();
        for c in word.chars() {
            if c.is_ascii() {
                run.push(c);
            } else {
                if !run.is_empty() {
                    out.push(std::mem::take(&mut run));
                }
                out.push(format!("U{:X}", u32::from(c)));
            }
        }
        if !run.is_empty() {
            out.push(run);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{pascal_case, words};

    #[test]
    fn words_split_at_separators_case_changes_and_acronyms() {
        assert_eq!(words("workingDirectory"), ["working", "Directory"]);
        assert_eq!(words("IPCResponse"), ["IPC", "Response"]);
        assert_eq!(words("top_error-files"), ["top", "error", "files"]);
        assert_eq!(
            words("ck3lens.validateFile"),
            ["ck3lens", "validate", "File"]
        );
        assert_eq!(words("a1B"), ["a1", "B"]);
    }

    #[test]
    fn pascal_case_keeps_acronyms_and_drops_separators() {
        assert_eq!(pascal_case("top_error-files"), "TopErrorFiles");
        assert_eq!(pascal_case("IPCResponse"), "IPCResponse");
        assert_eq!(pascal_case("v2.0"), "V20");
        assert_eq!(pascal_case("fooBAR"), "FooBAR");
    }
}
