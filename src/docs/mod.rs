//! `symgen docs`: a Markdown message reference per protocol, generated from the schema
//! model and the conformance vectors, in the shape of a hand-written IPC reference: per
//! message type its purpose (the doc comment), who sends and who receives it, a payload
//! table, the expected reply, its status and examples taken from the valid vectors.
//!
//! The output is an mdBook source (`SUMMARY.md` plus one page per schema), byte for byte
//! deterministic, and one of the project's outputs: `symgen generate` writes it and
//! `symgen check` fails when a doc comment changed and the pages were not regenerated.

mod markdown;
mod page;

use std::path::Path;

use askama::Template;
use serde_json::Value;

use crate::emit::{Module, OutputFile};
use crate::{Error, Result};

/// The default output directory, relative to the project root.
pub const DEFAULT_DIR: &str = "generated/docs";

/// Renders the reference of `modules`. `vectors` is the conformance vector directory
/// (`<dir>/<schema stem>/valid.json`), when the project has one; examples come from it.
pub fn render(modules: &[Module], vectors: Option<&Path>) -> Result<Vec<OutputFile>> {
    let mut files = Vec::new();
    let mut chapters = Vec::new();
    for (module, file) in modules.iter().zip(page_files(modules)) {
        let examples = match vectors {
            Some(dir) => valid_vectors(&dir.join(&module.stem).join("valid.json"))?,
            None => Vec::new(),
        };
        let page = page::Page::new(module, &examples);
        chapters.push(Chapter {
            title: markdown::link_text(&page.title),
            file: file.clone(),
        });
        files.push(OutputFile {
            path: file,
            contents: render_template(&page)?,
        });
    }
    files.push(OutputFile {
        path: "SUMMARY.md".into(),
        contents: render_template(&Summary { chapters })?,
    });
    Ok(files)
}

/// The page file of each module: its stem as a file name every emitter may write
/// ([`crate::emit::names::file_stem`]: no character a link breaks on), never
/// `SUMMARY.md` (the table of contents itself) and never a name another page has in
/// another case (a case-insensitive file system would keep one).
fn page_files(modules: &[Module]) -> Vec<String> {
    let mut taken = crate::emit::names::UniqueNames::with_reserved(&["summary"]);
    modules
        .iter()
        .map(|module| {
            let stem = crate::emit::names::file_stem(&module.stem);
            format!("{}.md", taken.claim_ignoring_case(stem))
        })
        .collect()
}

fn render_template(template: &impl Template) -> Result<String> {
    let mut text = template
        .render()
        .map_err(|err| Error::Usage(format!("docs template: {err}")))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// The valid vectors of one schema (`[{name, root, message, ...}]`); none when the file
/// does not exist.
fn valid_vectors(path: &Path) -> Result<Vec<Value>> {
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let text = crate::check::read_text(path)?;
    let value: Value = serde_json::from_str(&text).map_err(|err| {
        Error::Usage(format!(
            "{}: invalid JSON: {err}",
            crate::files::shown(path)
        ))
    })?;
    match value {
        Value::Array(items) => Ok(items),
        _ => Err(Error::Usage(format!(
            "{}: a vector file is an array of vectors",
            crate::files::shown(path)
        ))),
    }
}

/// `SUMMARY.md`: the mdBook table of contents.
#[derive(Template)]
#[template(path = "docs/SUMMARY.md")]
struct Summary {
    chapters: Vec<Chapter>,
}

struct Chapter {
    /// Markdown link text, one line.
    title: String,
    /// The page file name (a schema stem plus `.md`).
    file: String,
}
