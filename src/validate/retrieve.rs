//! Resolving `$ref`s to other schema documents: from local files and from directories
//! that stand in for URL prefixes, never over the network.

use std::path::PathBuf;

use jsonschema::{Retrieve, Uri};
use serde_json::Value;

/// Serves referenced schema documents from the local file system.
///
/// * `file://` URIs are read from disk.
/// * A URI starting with a mapped prefix (e.g. `http://localhost:1234/`) is read from the
///   mapped directory (e.g. the JSON Schema Test Suite's `remotes/`).
/// * Anything else is refused: symgen never fetches a schema over the network.
#[derive(Debug, Clone, Default)]
pub struct LocalRetriever {
    mappings: Vec<(String, PathBuf)>,
}

impl LocalRetriever {
    /// A retriever that only reads `file://` URIs.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves URIs starting with `prefix` from files under `dir`.
    pub fn map(mut self, prefix: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        self.mappings.push((prefix.into(), dir.into()));
        self
    }

    fn path_for(&self, uri: &str) -> Option<PathBuf> {
        let uri = uri.split('#').next().unwrap_or(uri);
        for (prefix, dir) in &self.mappings {
            if let Some(rest) = uri.strip_prefix(prefix.as_str()) {
                return Some(dir.join(rest));
            }
        }
        uri.strip_prefix("file://").map(PathBuf::from)
    }
}

impl Retrieve for LocalRetriever {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let Some(path) = self.path_for(uri.as_str()) else {
            return Err(format!(
                "cannot resolve {}: symgen reads referenced schemas from local files only, never over the network",
                uri.as_str()
            )
            .into());
        };
        let text =
            std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        Ok(serde_json::from_str(&text).map_err(|err| format!("{}: {err}", path.display()))?)
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
}
