//! Patterns refused before the engine compiles them: every `pattern` and
//! `patternProperties` name must be an ECMA-262 regular expression, the dialect JSON
//! Schema names.
//!
//! The `jsonschema` crate translates a pattern into the `regex` crate's syntax, and hands
//! one it cannot translate (a backreference, a lookaround) to `fancy-regex` as written.
//! That engine reads more than ECMA-262: `\g4` is an Oniguruma subroutine call, which it
//! inlines while compiling, so a 531-byte pattern calling a group from inside itself grew
//! past 15 GB before it finished. ECMA-262 has no `\g` (nor `(?R)`, `(?1)`, possessive
//! quantifiers): such a pattern is no JSON Schema pattern, and ajv refuses it as well.
//! The check is the crate's own grammar (`jsonschema_regex::is_valid_ecma_regex`, the
//! `u`-flag grammar plus the identity escapes patterns without `u` allow); it is linear
//! in the pattern's length and never recursive.

use std::collections::HashSet;

use serde_json::Value;

use crate::json_pointer;

use crate::model::{INSTANCE_VALUED as DATA, SCHEMA_MAPS};

/// Whether the value of `key` maps names to subschemas, so its keys are names, not
/// keywords: the model's maps, and draft-07's `dependencies` (whose array values are
/// names, read as data either way).
fn names_subschemas(key: &str) -> bool {
    SCHEMA_MAPS.contains(&key) || key == "dependencies"
}

/// A pattern that is not ECMA-262: its JSON Pointer in the document and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Refused {
    pub pointer: String,
    pub message: String,
}

/// The first pattern in `document` that is not an ECMA-262 regular expression.
///
/// Every part of the document is read as a schema except the values of `enum`,
/// `const`, `default` and `examples`; a local `$ref` into one of those values makes its
/// target a schema, and it is read as one too.
pub(super) fn check(document: &Value) -> Result<(), Refused> {
    walk(document, &mut 0)
}

/// [`check`], counting the nodes it reads in `read`.
fn walk(document: &Value, read: &mut usize) -> Result<(), Refused> {
    let mut stack: Vec<(&Value, String, bool)> = vec![(document, String::new(), false)];
    // Every node is read once, however many references lead into it (or into a value
    // inside it): the walk is linear in the document.
    let mut seen: HashSet<*const Value> = HashSet::new();
    while let Some((node, pointer, names)) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        *read += 1;
        match node {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((item, json_pointer::child(&pointer, &i.to_string()), false));
                }
            }
            Value::Object(map) if names => {
                for (name, sub) in map.iter().rev() {
                    stack.push((sub, json_pointer::child(&pointer, name), false));
                }
            }
            Value::Object(map) => {
                for (key, value) in map.iter().rev() {
                    let at = json_pointer::child(&pointer, key);
                    match (key.as_str(), value) {
                        ("pattern", Value::String(pattern)) => ecma(pattern, &at)?,
                        ("patternProperties", Value::Object(entries)) => {
                            for name in entries.keys() {
                                ecma(name, &json_pointer::child(&at, name))?;
                            }
                        }
                        ("$ref", Value::String(reference)) => {
                            if let Some(target) = into_data(reference)
                                && let Some(sub) = json_pointer::get(document, &target)
                            {
                                stack.push((sub, target, false));
                            }
                            continue;
                        }
                        (key, _) if DATA.contains(&key) => continue,
                        _ => {}
                    }
                    stack.push((value, at, names_subschemas(key)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn ecma(pattern: &str, pointer: &str) -> Result<(), Refused> {
    if jsonschema_regex::is_valid_ecma_regex(pattern) {
        return Ok(());
    }
    Err(Refused {
        pointer: pointer.to_owned(),
        message: format!(
            "{} is not an ECMA-262 regular expression, the dialect JSON Schema patterns are written in; \
             symgen refuses it rather than let the regex engine read it in a dialect of its own",
            shown(pattern)
        ),
    })
}

/// A pattern as an error quotes it: JSON-escaped, at most 80 characters.
fn shown(pattern: &str) -> String {
    const SHOWN: usize = 80;
    let quoted = Value::String(pattern.chars().take(SHOWN).collect()).to_string();
    if pattern.chars().nth(SHOWN).is_some() {
        format!("{quoted}…")
    } else {
        quoted
    }
}

/// The JSON Pointer a local `$ref` (`#/…`) names, when one of its tokens is a data
/// keyword (the only targets the walk would not reach as schemas).
fn into_data(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = crate::model::percent_decode(fragment)?;
    let into = json_pointer::tokens(&pointer).any(|token| DATA.contains(&token.as_ref()));
    into.then_some(pointer)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refused(document: Value) -> Option<String> {
        check(&document).err().map(|refused| refused.pointer)
    }

    #[test]
    fn patterns_outside_ecma_262_are_refused_where_they_are() {
        // `\g1` is a subroutine call to fancy-regex and no escape at all in ECMA-262.
        let bad = r"(a\g1)?(b)\2";
        assert_eq!(
            refused(json!({"pattern": bad})).as_deref(),
            Some("/pattern")
        );
        assert_eq!(
            refused(json!({"properties": {"a/b": {"items": [{"pattern": bad}]}}})).as_deref(),
            Some("/properties/a~1b/items/0/pattern")
        );
        assert_eq!(
            refused(json!({"patternProperties": {bad: {}}})).as_deref(),
            Some(r"/patternProperties/(a\g1)?(b)\2")
        );
        assert_eq!(
            refused(json!({"$defs": {"x": {"propertyNames": {"pattern": "(?R)"}}}})).as_deref(),
            Some("/$defs/x/propertyNames/pattern")
        );
    }

    #[test]
    fn ecma_262_patterns_pass_backreferences_and_lookarounds_included() {
        for pattern in [
            r"^(a+)\1$",
            r"^(?!x)\w+(?<=y)$",
            r"^(?<n>a)\k<n>$",
            r"\p{L}+",
            "",
        ] {
            assert_eq!(refused(json!({"pattern": pattern})), None, "{pattern}");
        }
    }

    #[test]
    fn references_into_data_read_each_value_once() {
        // 5,000 references to the 500 levels of one nested `default`: each level is read
        // once, not once per reference into it or into a value inside it.
        let mut nested = json!({"pattern": "^a$"});
        for _ in 0..500 {
            nested = json!({"a": nested});
        }
        let refs: Vec<Value> = (0..5_000)
            .map(|i| json!({"$ref": format!("#/default{}", "/a".repeat(i % 500))}))
            .collect();
        let document = json!({"default": nested, "allOf": refs});
        let mut read = 0;
        assert_eq!(walk(&document, &mut read), Ok(()));
        // The document has 1 + 1 + 5,000 × 2 + 501 + 1 nodes (root, the list, each
        // reference and its string, the levels, the pattern).
        assert!(read <= 10_504, "{read} nodes read");
    }

    #[test]
    fn data_is_text_unless_a_reference_makes_it_a_schema() {
        let bad = json!({"pattern": r"\g1"});
        // A property may be named like a keyword: its value is still a schema.
        assert_eq!(
            refused(json!({"properties": {"pattern": {"type": "string"}}})),
            None
        );
        assert_eq!(
            refused(json!({"properties": {"default": bad}})).as_deref(),
            Some("/properties/default/pattern")
        );
        for data in ["enum", "const", "default", "examples"] {
            assert_eq!(refused(json!({data: [bad]})), None, "{data}");
            assert_eq!(
                refused(json!({data: [bad], "$ref": format!("#/{data}/0")})),
                Some(format!("/{data}/0/pattern")),
                "{data}"
            );
        }
        assert_eq!(
            refused(json!({"default": {"a b": bad}, "$ref": "#/default/a%20b"})).as_deref(),
            Some("/default/a b/pattern")
        );
    }
}
