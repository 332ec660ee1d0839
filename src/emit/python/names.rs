//! Python identifiers: snake_case attributes and module names, PascalCase classes, all
//! ASCII (Python folds identifiers with NFKC, so two distinct non-ASCII wire names could
//! become one attribute; non-ASCII characters are spelled `u` + hex instead), never a
//! keyword and never a name the generated code itself needs in that scope.

use crate::emit::case::{ascii_words, capitalized};

/// Python's keywords (hard ones: these cannot name anything).
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Names an attribute of a generated class must not take: what `BaseModel` defines,
/// what the class body itself evaluates (builtins in annotations, runtime helpers in
/// defaults) and symgen's own members.
const RESERVED_ATTRIBUTES: &[&str] = &[
    // BaseModel (and its deprecated v1 methods, which still exist).
    "construct",
    "copy",
    "dict",
    "from_orm",
    "json",
    "parse_file",
    "parse_obj",
    "parse_raw",
    "schema",
    "schema_json",
    "update_forward_refs",
    "validate",
    "model_computed_fields",
    "model_config",
    "model_construct",
    "model_copy",
    "model_dump",
    "model_dump_json",
    "model_extra",
    "model_fields",
    "model_fields_set",
    "model_json_schema",
    "model_parametrized_name",
    "model_post_init",
    "model_rebuild",
    "model_validate",
    "model_validate_json",
    "model_validate_strings",
    // What pydantic's metaclass (an `ABCMeta`, a `type`) gives every class.
    "mro",
    "register",
    // Evaluated in class bodies.
    "bool",
    "dict",
    "float",
    "int",
    "list",
    "lambda",
    "str",
    "tuple",
    "aliases",
    "default_if_null",
    "empty_if_null",
    "is_none",
    "model_validator",
    "not_null",
    "staticmethod",
    "classmethod",
    // symgen's members.
    "decode_reply",
    "symgen_tag",
];

/// Module-level names of every generated module: its imports and registries. A schema
/// type with one of these names gets a trailing `_`.
pub const RESERVED_TYPES: &[&str] = &[
    "Annotated",
    "Any",
    "AliasChoices",
    "BeforeValidator",
    "ClassVar",
    "Codec",
    "DecodeError",
    "Field",
    "FiniteFloat",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "JsonValue",
    "Literal",
    "PROTOCOL",
    "REPLIES",
    "REPLY_DATA",
    "ROOTS",
    "Self",
    "Tag",
    "TypeAlias",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "UNKNOWN",
    "UnknownVariant",
    "WHOLE",
    "WireModel",
];

/// Whether `name` is a keyword.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

fn lower_words(name: &str) -> Vec<String> {
    ascii_words(name)
        .into_iter()
        .map(|w| {
            // `U2126` spellings of non-ASCII characters become `u2126`.
            w.to_lowercase()
        })
        .collect()
}

fn guard_start(name: String, prefix: &str) -> String {
    match name.chars().next() {
        None => prefix.to_owned(),
        Some(c) if c.is_ascii_digit() => format!("{prefix}{name}"),
        Some(_) => name,
    }
}

/// A snake_case attribute name for a wire name (`workingDirectory` →
/// `working_directory`); keywords and reserved attributes get a trailing `_`.
pub fn attribute(name: &str) -> String {
    let base = guard_start(lower_words(name).join("_"), "n");
    if is_keyword(&base) || RESERVED_ATTRIBUTES.contains(&base.as_str()) {
        format!("{base}_")
    } else {
        base
    }
}

/// A snake_case function or module name (`taskspace-state` → `taskspace_state`).
pub fn snake(name: &str, prefix: &str) -> String {
    let base = guard_start(lower_words(name).join("_"), prefix);
    if is_keyword(&base) {
        format!("{base}_")
    } else {
        base
    }
}

/// `SCREAMING_SNAKE_CASE` for module constants.
pub fn constant(name: &str) -> String {
    snake(name, "c").to_uppercase()
}

/// A PascalCase class name. A name that already is an ASCII identifier starting with
/// an uppercase letter is kept as it is (`IPCResponse`, `IpcMessage`); reserved
/// module-level names get a trailing `_`.
pub fn class(name: &str) -> String {
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let base = if plain {
        name.to_owned()
    } else {
        let words = ascii_words(name);
        let mut out = String::new();
        for word in &words {
            // Two numbers in a row keep a separator (`2.0` → `2_0`).
            if out.ends_with(|c: char| c.is_ascii_digit())
                && word.starts_with(|c: char| c.is_ascii_digit())
            {
                out.push('_');
            }
            out.push_str(&capitalized(word));
        }
        guard_start(out, "T")
    };
    if RESERVED_TYPES.contains(&base.as_str()) || is_keyword(&base) {
        format!("{base}_")
    } else {
        base
    }
}

/// Hands out unique names within one scope.
pub type Scope = crate::emit::names::UniqueNames;

/// Checks `[python] module`: an ASCII identifier that is not a keyword.
pub fn check_module(name: &str) -> Result<(), String> {
    crate::emit::names::check_module_name(name, "Python", is_keyword)
}

/// Checks `[python] package`: a distribution name as the Python packaging
/// specifications define it (letters, digits, `.`, `_`, `-`, starting and ending with a
/// letter or digit).
pub fn check_distribution(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
        && name
            .bytes()
            .last()
            .is_some_and(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not a Python distribution name (ASCII letters, digits, `.`, `_`, `-`, starting and ending with a letter or digit)",
            name.escape_default()
        ))
    }
}

/// The import name of a distribution: lowercase, `-` and `.` as `_`
/// (`symgen-protocols` → `symgen_protocols`).
pub fn module_of_distribution(name: &str) -> String {
    let out: String = name
        .chars()
        .map(|c| match c {
            '-' | '.' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    guard_start(out, "p")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_snake_case_and_never_reserved() {
        assert_eq!(attribute("workingDirectory"), "working_directory");
        assert_eq!(attribute("IPCResponse"), "ipc_response");
        assert_eq!(attribute("from"), "from_");
        assert_eq!(attribute("json"), "json_");
        assert_eq!(attribute("2fa"), "n2fa");
        assert_eq!(attribute("Ωx"), "u3a9_x");
        assert_eq!(attribute(""), "n");
        assert_eq!(attribute("model_config"), "model_config_");
    }

    #[test]
    fn classes_are_pascal_case() {
        assert_eq!(class("IpcMessage"), "IpcMessage");
        assert_eq!(class("ipc_message"), "IpcMessage");
        assert_eq!(class("v2.0"), "V2_0");
        assert_eq!(class("Field"), "Field_");
        assert_eq!(class("None"), "None_");
        assert_eq!(class("3d"), "T3d");
    }

    #[test]
    fn package_names_are_checked() {
        assert!(check_distribution("symgen-protocols").is_ok());
        assert!(check_distribution("-x").is_err());
        assert!(check_distribution("a b").is_err());
        assert!(check_module("symgen_protocols").is_ok());
        assert!(check_module("class").is_err());
        assert!(check_module("a-b").is_err());
        assert_eq!(
            module_of_distribution("Symgen.Protocols-x"),
            "symgen_protocols_x"
        );
    }
}
