//! Swift identifiers: case conversion, reserved words, deterministic collision handling.

use crate::emit::case::{ascii_words, capitalized};

/// Words Swift reserves in declarations and expressions; an identifier spelled like one
/// is written in backticks.
const KEYWORDS: &[&str] = &[
    "Any",
    "Protocol",
    "Self",
    "Type",
    "as",
    "associatedtype",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "continue",
    "default",
    "defer",
    "deinit",
    "do",
    "else",
    "enum",
    "extension",
    "fallthrough",
    "false",
    "fileprivate",
    "for",
    "func",
    "guard",
    "if",
    "import",
    "in",
    "init",
    "inout",
    "internal",
    "is",
    "let",
    "nil",
    "open",
    "operator",
    "precedencegroup",
    "private",
    "protocol",
    "public",
    "repeat",
    "rethrows",
    "return",
    "self",
    "static",
    "struct",
    "subscript",
    "super",
    "switch",
    "throw",
    "throws",
    "true",
    "try",
    "typealias",
    "var",
    "where",
    "while",
];

/// Type names that would shadow the Swift standard library or Foundation types the
/// generated code uses; a schema type with such a name gets a `Value` suffix.
const SHADOWING_TYPES: &[&str] = &[
    "Array",
    "Bool",
    "Codable",
    "CodingKey",
    "CodingKeys",
    "Data",
    "Decodable",
    "Decoder",
    "DecodingError",
    "Dictionary",
    "Double",
    "Encodable",
    "Encoder",
    "Error",
    "Hashable",
    "Int",
    "Int16",
    "Int32",
    "Int64",
    "Int8",
    "Optional",
    "Result",
    "Sendable",
    "String",
    "UInt",
    "UInt16",
    "UInt32",
    "UInt64",
    "UInt8",
    "Void",
];

/// Whether `name` must be written in backticks.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// `name` as written in Swift source: in backticks when it is a reserved word.
pub fn escaped(name: &str) -> String {
    if is_keyword(name) {
        format!("`{name}`")
    } else {
        name.to_owned()
    }
}

/// Makes sure an identifier does not start with a digit (and is not empty).
fn guard_start(name: String, prefix: &str) -> String {
    match name.chars().next() {
        None => prefix.to_owned(),
        Some(c) if c.is_ascii_digit() => format!("{prefix}{name}"),
        Some(_) => name,
    }
}

/// Joins words, putting `Dot` between two words that are both numbers (`2.0` →
/// `2Dot0`; an underscore would break lowerCamelCase).
fn join(words: &[String], first: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        let numeric = word.chars().all(|c| c.is_ascii_digit());
        if i > 0 && numeric && out.ends_with(|c: char| c.is_ascii_digit()) {
            out.push_str("Dot");
        }
        if i == 0 {
            out.push_str(&first(word));
        } else {
            out.push_str(&capitalized(word));
        }
    }
    out
}

/// `UpperCamelCase` for type names. A name that already is a valid identifier starting
/// with an uppercase letter is kept as it is (`IPCResponse`, `IpcMessage`).
pub fn type_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let base = if plain {
        name.to_owned()
    } else {
        guard_start(join(&ascii_words(name), capitalized), "T")
    };
    if SHADOWING_TYPES.contains(&base.as_str()) || is_keyword(&base) {
        format!("{base}Value")
    } else {
        base
    }
}

/// Member names that even backticks do not make usable (a parameter `self` shadows
/// the instance, `.init` is the initializer); they get a `Value` suffix.
const UNUSABLE_MEMBERS: &[&str] = &["self", "super", "init", "deinit", "subscript"];

/// `lowerCamelCase` for properties, enum cases and coding keys: the first word in
/// lowercase (an acronym too: `IPCResponse` → `ipcResponse`), the others capitalized
/// (`project_path` → `projectPath`, `update-section` → `updateSection`).
pub fn member_name(name: &str) -> String {
    let words = ascii_words(name);
    let name = guard_start(join(&words, |w| w.to_lowercase()), "n");
    if UNUSABLE_MEMBERS.contains(&name.as_str()) {
        format!("{name}Value")
    } else {
        name
    }
}

/// Hands out unique names within one scope (see [`crate::emit::names::UniqueNames`]).
pub type Scope = crate::emit::names::UniqueNames;

/// Checks a name given for a package, module or target: an ASCII Swift identifier that
/// is not a keyword (SwiftPM names become module names, which `import` spells bare).
pub fn check_module_name(name: &str) -> Result<(), String> {
    crate::emit::names::check_module_name(name, "Swift", |n| KEYWORDS.contains(&n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::case::words;

    #[test]
    fn splits_words() {
        assert_eq!(words("workingDirectory"), ["working", "Directory"]);
        assert_eq!(words("IPCResponse"), ["IPC", "Response"]);
        assert_eq!(words("project_path"), ["project", "path"]);
        assert_eq!(
            words("ck3lens.validateFile"),
            ["ck3lens", "validate", "File"]
        );
        assert_eq!(words("update-section"), ["update", "section"]);
        assert_eq!(words("2.0"), ["2", "0"]);
    }

    #[test]
    fn member_names_are_lower_camel_case() {
        assert_eq!(member_name("supports_images"), "supportsImages");
        assert_eq!(member_name("shellPid"), "shellPid");
        assert_eq!(member_name("IPCResponse"), "ipcResponse");
        assert_eq!(member_name("StdinWrite"), "stdinWrite");
        assert_eq!(
            member_name("workbench.action.problems.focus"),
            "workbenchActionProblemsFocus"
        );
        assert_eq!(member_name("2.0"), "n2Dot0");
        assert_eq!(member_name("return"), "return");
        assert_eq!(member_name("self"), "selfValue");
        assert_eq!(member_name("init"), "initValue");
        assert_eq!(escaped(&member_name("return")), "`return`");
        assert_eq!(member_name(""), "n");
    }

    #[test]
    fn type_names_are_upper_camel_case_and_do_not_shadow() {
        assert_eq!(type_name("IPCResponse"), "IPCResponse");
        assert_eq!(type_name("complete_review"), "CompleteReview");
        assert_eq!(type_name("false"), "False");
        assert_eq!(type_name("String"), "StringValue");
        assert_eq!(type_name("Type"), "TypeValue");
        assert_eq!(type_name("3d"), "T3d");
    }

    #[test]
    fn scope_suffixes_collisions_in_claim_order() {
        let mut scope = Scope::with_reserved(&["tag"]);
        assert_eq!(scope.claim("tag".into()), "tag2");
        assert_eq!(scope.claim("baseUri".into()), "baseUri");
        assert_eq!(scope.claim("baseUri".into()), "baseUri2");
        assert_eq!(scope.claim("baseUri".into()), "baseUri3");
    }
}
