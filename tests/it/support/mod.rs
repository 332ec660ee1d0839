//! Helpers shared by the test modules.
// Not every module uses every helper.
#![allow(dead_code)]

pub mod cli;
pub mod code_tokens;
pub mod schema_gen;
pub mod vectors;
pub mod verdict;
pub mod zoo;

#[path = "../../../benches/support/mod.rs"]
pub mod bench;

use std::path::PathBuf;

use symgen::emit::{self, Backend, Input};

/// The files `backend` renders for the schema files `paths` with `options` (and the
/// vector directory `vectors`), as `(path, contents)`; errors as text.
pub fn render_files(
    backend: &dyn Backend,
    paths: &[PathBuf],
    options: &toml::Table,
    vectors: Option<&str>,
) -> Result<Vec<(String, String)>, String> {
    let modules = emit::load_modules(paths).map_err(|err| err.to_string())?;
    let input = Input {
        modules: &modules,
        options,
        vectors,
    };
    backend
        .render(&input)
        .map(|files| files.into_iter().map(|f| (f.path, f.contents)).collect())
        .map_err(|err| err.to_string())
}
