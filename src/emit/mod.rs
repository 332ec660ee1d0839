//! Code generators that render the schema model ([`crate::model`]) into a target
//! language, plus the language-neutral helpers they share: finding the schema files,
//! loading their models, and naming a module after its schema file.

pub mod names;
pub mod swift;
pub mod typescript;

use std::path::{Path, PathBuf};

use crate::model::{self, Model};
use crate::{Error, Result};

/// One schema file's model, with the module stem it is emitted under.
pub struct Module {
    /// The schema file name without `.schema.json`/`.json`, e.g. `symposium`.
    pub stem: String,
    /// The file name as written in generated headers, e.g. `symposium.schema.json`.
    pub file_name: String,
    /// The parsed model.
    pub model: Model,
}

/// The stem a schema file is emitted under: `a/b/symposium.schema.json` → `symposium`.
pub fn module_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".json")
        .unwrap_or(&name)
        .trim_end_matches(".schema");
    stem.to_owned()
}

/// Expands `--schema` arguments: a file is taken as is, a directory contributes its
/// `*.json` files (not recursive). Sorted by path, duplicates removed.
pub fn schema_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input).map_err(|err| Error::io(input, err))?;
        if meta.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|err| Error::io(input, err))?;
            for entry in entries {
                let path = entry.map_err(|err| Error::io(input, err))?.path();
                if path.extension().is_some_and(|e| e == "json") && path.is_file() {
                    files.push(path);
                }
            }
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err(Error::Usage("no schema files found".into()));
    }
    Ok(files)
}

/// Reads and parses every schema file into a [`Module`]; errors name the file as given.
pub fn load_modules(files: &[PathBuf]) -> Result<Vec<Module>> {
    let mut texts = Vec::with_capacity(files.len());
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|err| Error::io(path, err))?;
        texts.push((path.display().to_string(), text));
    }
    modules_from_texts(&texts)
}

/// Parses schemas given as `(path or file name, text)` into [`Module`]s. Two schemas
/// with the same stem are an error (they would be emitted to the same module).
pub fn modules_from_texts(texts: &[(String, String)]) -> Result<Vec<Module>> {
    let mut modules: Vec<Module> = Vec::with_capacity(texts.len());
    for (path, text) in texts {
        let path_ref = Path::new(path);
        let stem = module_stem(path_ref);
        if let Some(other) = modules.iter().find(|m| m.stem == stem) {
            return Err(Error::Usage(format!(
                "{} and {path} would both generate module `{stem}`",
                other.model.file
            )));
        }
        let model = model::parse_str(path, text)?;
        let file_name = path_ref
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        modules.push(Module {
            stem,
            file_name,
            model,
        });
    }
    Ok(modules)
}
