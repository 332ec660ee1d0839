//! URI references as JSON Schema's `$ref` and `$id` use them, for the model and the
//! validator alike.

use fluent_uri::{Iri, IriRef};

/// `reference` resolved against `base`, without its fragment.
pub(crate) fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = Iri::parse(base).ok()?;
    let reference = IriRef::parse(reference).ok()?;
    let resolved = reference.resolve_against(&base).ok()?;
    let text = resolved.as_str();
    Some(text.split('#').next().unwrap_or(text).to_owned())
}

/// `text` with every byte outside ASCII letters, digits and `keep` written as `%XX`: a
/// file path in a `file:` URI, a JSON Pointer in a fragment.
pub(crate) fn percent_encode(text: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || keep.contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A JSON Pointer written as a URI fragment (without the `#`).
pub(crate) fn fragment(pointer: &str) -> String {
    percent_encode(pointer, b"/-._~$!&'()*+,;=:@")
}

/// Writes every `$ref` and `$id` in `document` that is an IRI (a reference with
/// characters outside ASCII, `#/$defs/Ωx`) as the URI it stands for (`%CE%A9x`), which is
/// what a URI parser reads: the same reference, found again by decoding the fragment.
/// Whether anything changed.
pub(crate) fn iris_as_uris(document: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    let mut changed = false;
    let mut stack = vec![document];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match (key.as_str(), &*value) {
                        ("$ref" | "$id" | "$schema", Value::String(text)) if !text.is_ascii() => {
                            *value = Value::String(percent_encode_non_ascii(text));
                            changed = true;
                        }
                        // Instances, not schemas.
                        (key, _) if crate::model::INSTANCE_VALUED.contains(&key) => {}
                        _ => stack.push(value),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    changed
}

/// `text` with every non-ASCII byte written as `%XX`.
fn percent_encode_non_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

/// Whether `uri` starts with a scheme (`file:`, `https:`, `urn:`): an absolute URI.
pub(crate) fn has_scheme(uri: &str) -> bool {
    uri.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_references_and_knows_absolute_ones() {
        assert_eq!(
            resolve("file:///a/b/main.json", "support/x.json#/$defs/A").as_deref(),
            Some("file:///a/b/support/x.json")
        );
        assert!(has_scheme("urn:symgen:schema:p") && has_scheme("https://e.example/s"));
        assert_eq!(fragment("/$defs/A B%"), "/$defs/A%20B%25");
        assert!(!has_scheme("support/x.json") && !has_scheme("#/$defs/A") && !has_scheme(":x"));
    }

    #[test]
    fn iris_are_written_as_the_uris_they_stand_for() {
        let mut document = serde_json::json!({
            "properties": {"a": {"$ref": "#/$defs/Ωx"}},
            "const": {"$ref": "Ω"},
            "$defs": {"Ωx": {"type": "string"}}
        });
        assert!(iris_as_uris(&mut document));
        assert_eq!(document["properties"]["a"]["$ref"], "#/$defs/%CE%A9x");
        assert_eq!(document["const"]["$ref"], "Ω", "instances are left alone");
        assert!(!iris_as_uris(&mut document));
    }
}
