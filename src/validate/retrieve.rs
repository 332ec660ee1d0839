//! Resolving `$ref`s to other schema documents: from local files inside the directories
//! the user named, and from directories that stand in for URL prefixes, never over the
//! network.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use jsonschema::{Retrieve, Uri};
use serde_json::Value;

/// Serves referenced schema documents from the local file system.
///
/// * A URI starting with a mapped prefix (e.g. `http://localhost:1234/`) is read from the
///   mapped directory (e.g. the JSON Schema Test Suite's `remotes/`).
/// * `file://` URIs are read from disk when the file is inside an allowed directory
///   (the schema's own, see [`LocalRetriever::allow`]).
/// * Any other URI is looked up among the `$id`s of the schema files in the allowed
///   directories (a catalog's `https://…/other.json`, shipped beside the schema).
/// * Anything else is refused: symgen never fetches a schema over the network, and
///   never reads devices, FIFOs, files over [`crate::files::MAX_FILE`] or files outside
///   the allowed directories.
#[derive(Debug, Clone, Default)]
pub struct LocalRetriever {
    mappings: Vec<(String, PathBuf)>,
    roots: Vec<PathBuf>,
    ids: Arc<OnceLock<HashMap<String, PathBuf>>>,
}

impl LocalRetriever {
    /// A retriever that reads nothing until directories are allowed or mapped.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves URIs starting with `prefix` from files under `dir`.
    pub fn map(mut self, prefix: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        if let Ok(canonical) = dir.canonicalize() {
            self.roots.push(canonical);
        }
        self.mappings.push((prefix.into(), dir));
        self
    }

    /// Allows reading schema files below `dir` (ignored when it does not exist).
    pub fn allow(mut self, dir: &std::path::Path) -> Self {
        if let Ok(dir) = dir.canonicalize()
            && !self.roots.contains(&dir)
        {
            self.roots.push(dir);
        }
        self
    }

    fn path_for(&self, uri: &str) -> Option<PathBuf> {
        let uri = uri.split('#').next().unwrap_or(uri);
        for (prefix, dir) in &self.mappings {
            if let Some(rest) = uri.strip_prefix(prefix.as_str()) {
                return Some(dir.join(rest));
            }
        }
        if let Some(path) = uri.strip_prefix("file://") {
            return Some(PathBuf::from(path));
        }
        let ids = self.ids.get_or_init(|| crate::files::ids_in(&self.roots));
        ids.get(uri).cloned()
    }
}

impl Retrieve for LocalRetriever {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let refused = || {
            format!(
                "cannot resolve {}: symgen reads referenced schemas from files beside the schema only, never over the network",
                uri.as_str()
            )
        };
        let path = self.path_for(uri.as_str()).ok_or_else(refused)?;
        let path = crate::files::inside(&path, &self.roots).ok_or_else(|| {
            format!(
                "{}: not a schema file inside the schema's directory",
                crate::files::shown(&path)
            )
        })?;
        let text = crate::files::read_capped(&path)
            .map_err(|err| format!("{}: {err}", crate::files::shown(&path)))?;
        let mut document = crate::schema_file::parse(&path.to_string_lossy(), &text)
            .map_err(|err| format!("{}: {err}", crate::files::shown(&path)))?;
        super::patterns::check(&document).map_err(|refused| {
            format!(
                "{}#{}: {}",
                crate::files::shown(&path),
                refused.pointer,
                refused.message
            )
        })?;
        crate::uri::iris_as_uris(&mut document);
        super::widths::integer_formats_as_bounds(&mut document);
        Ok(document)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_prefixes_and_files_and_refuses_the_network() {
        let retriever = LocalRetriever::new().map("http://localhost:1234/", "/srv/remotes");
        assert_eq!(
            retriever.path_for("http://localhost:1234/tree.json#/x"),
            Some(PathBuf::from("/srv/remotes/tree.json"))
        );
        assert_eq!(
            retriever.path_for("file:///tmp/a.json"),
            Some(PathBuf::from("/tmp/a.json"))
        );
        assert_eq!(retriever.path_for("https://example.com/s.json"), None);
    }

    #[test]
    fn reads_only_inside_allowed_directories() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("schemas");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(
            inner.join("a.json"),
            r#"{"$id": "https://example.com/a.json"}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("outside.json"), "{}").unwrap();
        let retriever = LocalRetriever::new().allow(&inner);
        let uri = |s: &str| Uri::parse(s.to_owned()).unwrap();
        // By `$id`, from a file in the directory.
        assert!(
            retriever
                .retrieve(&uri("https://example.com/a.json"))
                .is_ok()
        );
        // A file outside it, a device, the network: refused.
        let outside = format!("file://{}", dir.path().join("outside.json").display());
        assert!(retriever.retrieve(&uri(&outside)).is_err());
        assert!(retriever.retrieve(&uri("file:///dev/zero")).is_err());
        assert!(
            retriever
                .retrieve(&uri("https://example.com/b.json"))
                .is_err()
        );
    }

    #[test]
    fn a_referenced_file_with_a_pattern_outside_ecma_262_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("b.json"),
            r#"{"$defs": {"x": {"pattern": "(a)\\1\\g<1>"}}}"#,
        )
        .unwrap();
        let retriever = LocalRetriever::new().allow(dir.path());
        let uri = format!("file://{}", dir.path().join("b.json").display());
        let err = retriever
            .retrieve(&Uri::parse(uri).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("b.json#/$defs/x/pattern: ") && err.contains("ECMA-262"),
            "{err}"
        );
    }
}
