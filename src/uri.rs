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
        assert!(!has_scheme("support/x.json") && !has_scheme("#/$defs/A") && !has_scheme(":x"));
    }
}
