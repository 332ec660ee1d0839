//! TypeScript identifiers: which names are usable as is, how others are converted, and
//! deterministic collision handling (first come, first served; later ones get `2`, `3`…).

use crate::model::pascal_case;

/// Words that cannot name a type or a value (reserved words, strict-mode and contextual
/// keywords, and the predefined type names).
const RESERVED: &[&str] = &[
    "abstract",
    "accessor",
    "any",
    "as",
    "asserts",
    "async",
    "await",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "get",
    "global",
    "if",
    "implements",
    "import",
    "in",
    "infer",
    "instanceof",
    "interface",
    "is",
    "keyof",
    "let",
    "module",
    "namespace",
    "never",
    "new",
    "null",
    "number",
    "object",
    "of",
    "out",
    "override",
    "package",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "return",
    "satisfies",
    "set",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unique",
    "unknown",
    "using",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Whether `text` is an identifier (Unicode XID, plus `$` and `_`), as TypeScript and
/// prettier read one. Property names
/// that are not get quoted.
pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| unicode_ident::is_xid_start(c) || c == '_' || c == '$')
        && chars.all(|c| unicode_ident::is_xid_continue(c) || c == '$')
}

/// Whether `text` can name a type or value as is.
pub fn is_usable(text: &str) -> bool {
    is_identifier(text) && !RESERVED.contains(&text)
}

/// Makes `raw` a usable type name: kept when usable, else PascalCased (non-ASCII and
/// punctuation dropped), prefixed with `_` when it starts with a digit, suffixed with
/// `_` when reserved.
pub fn type_ident(raw: &str) -> String {
    if is_usable(raw) {
        return raw.to_owned();
    }
    let mut name: String = pascal_case(raw)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if name.is_empty() {
        name.push_str("Type");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    if RESERVED.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// `camelCase` for values: the type-style name with its first letter lowered.
pub fn value_ident(raw: &str) -> String {
    let pascal = type_ident(raw);
    let mut chars = pascal.chars();
    let mut name: String = match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    };
    if RESERVED.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// A property key: the wire name itself, quoted as a JSON string when it is not an
/// identifier (reserved words are fine as property names).
pub fn property_key(wire: &str) -> String {
    if is_identifier(wire) {
        wire.to_owned()
    } else {
        crate::model::json_string(wire)
    }
}

/// One namespace (types, or values) of a module.
#[derive(Default)]
pub struct Namespace {
    names: crate::emit::names::UniqueNames,
}

impl Namespace {
    /// Claims `wanted` (made usable first), or the first free `wanted2`, `wanted3`, ….
    pub fn claim(&mut self, wanted: &str) -> String {
        self.names.claim(type_ident(wanted))
    }

    /// Like [`Namespace::claim`] for a value (camelCase) name.
    pub fn claim_value(&mut self, wanted: &str) -> String {
        self.names.claim(value_ident(wanted))
    }

    /// Claims `name` only if it is free.
    pub fn try_claim(&mut self, name: &str) -> bool {
        self.names.try_claim(name)
    }
}

/// Checks an npm package name: at most 214 characters, lowercase, URL-safe, optionally
/// scoped (`@scope/name`), not starting with `.` or `_`.
pub fn check_package_name(name: &str) -> Result<(), String> {
    fn part_ok(part: &str) -> bool {
        !part.is_empty()
            && !part.starts_with(['.', '_'])
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._~".contains(&b))
    }
    let ok = name.len() <= 214
        && match name.strip_prefix('@') {
            Some(scoped) => scoped
                .split_once('/')
                .is_some_and(|(scope, name)| part_ok(scope) && part_ok(name)),
            None => part_ok(name),
        };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not an npm package name (lowercase letters, digits, `-._~`, optionally `@scope/name`, at most 214 characters)",
            name.escape_default()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(type_ident("IPCResponse"), "IPCResponse");
        assert_eq!(type_ident("my-type"), "MyType");
        assert_eq!(type_ident("2fa code"), "_2faCode");
        assert_eq!(type_ident("string"), "String");
        assert_eq!(type_ident("type"), "Type");
        assert_eq!(type_ident("Object"), "Object");
        assert_eq!(value_ident("IpcMessage"), "ipcMessage");
        assert_eq!(value_ident("Default"), "default_");
        assert_eq!(property_key("baseUri"), "baseUri");
        assert_eq!(property_key("default"), "default");
        assert_eq!(property_key("in-reply-to"), "\"in-reply-to\"");
        assert_eq!(property_key("a\"b"), "\"a\\\"b\"");
    }

    #[test]
    fn collisions_are_deterministic() {
        let mut names = Namespace::default();
        assert_eq!(names.claim("MyType"), "MyType");
        assert_eq!(names.claim("my-type"), "MyType2");
        assert_eq!(names.claim("my type"), "MyType3");
        assert_eq!(names.claim("my_type"), "my_type");
    }
}
