//! `symgen breaking`: what a schema change does to programs that are already deployed.
//!
//! [`compare`] takes the old and the new schema files of a project (by file name) and
//! reports every [`Change`] with a rule id ([`rules::RULES`]) and a [`Class`]:
//! wire-breaking (an old peer and a new peer can no longer talk), source-breaking (code
//! written against the old generated package no longer compiles) or compatible. The
//! class depends on which way each value travels ([`flow`]): adding a required field
//! breaks only messages an old peer sends; adding an enum value breaks only messages an
//! old peer decodes as a closed set.
//!
//! [`against`] reads the old side from a directory or from a git revision (with `git
//! show`, no checkout); [`report`] prints changes as text, JSON or GitHub annotations.

pub mod command;
mod diff;
pub mod flow;
pub mod report;
pub mod rules;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::emit::{self, module_stem};
use crate::model::Origin;
use crate::{Error, Result};
use flow::Flow;

pub use rules::{Class, RULES, Rule};

/// One difference between the old and the new schemas.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The schema file, as the report names it (the new file; the old one when removed).
    pub file: String,
    /// JSON Pointer, in that file, of the schema that changed (or of its parent, for
    /// something removed).
    pub pointer: String,
    /// The rule id, e.g. `required-field-added`.
    pub rule: &'static str,
    /// How bad it is.
    pub class: Class,
    /// What changed and who it affects.
    pub message: String,
}

impl Serialize for Class {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A schema file: the name the report gives it and its text.
pub type SchemaText = (String, String);

/// Compares two sets of schema files, paired by file name. Both sets must parse (an
/// error names the file as labelled).
pub fn compare(old: &[SchemaText], new: &[SchemaText]) -> Result<Vec<Change>> {
    let old_modules = if old.is_empty() {
        Vec::new()
    } else {
        emit::modules_from_texts(old)?
    };
    let new_modules = if new.is_empty() {
        Vec::new()
    } else {
        emit::modules_from_texts(new)?
    };
    let old_flows = flows(&old_modules);
    let mut new_flows = flows(&new_modules);
    let stem = |label: &str| module_stem(Path::new(label));
    let mut changes = Vec::new();
    for (label, _) in new {
        let Some(at) = new_modules.iter().position(|m| m.stem == stem(label)) else {
            continue;
        };
        let now = &new_modules[at];
        match old_modules.iter().position(|m| m.stem == stem(label)) {
            Some(was) => changes.extend(diff::compare(
                label,
                (&old_modules[was].model, old_flows[was].clone()),
                (&now.model, std::mem::take(&mut new_flows[at])),
            )),
            None => changes.push(Change {
                file: label.clone(),
                pointer: String::new(),
                rule: rules::SCHEMA_ADDED.id,
                class: Class::Compatible,
                message: "new schema file".into(),
            }),
        }
    }
    for (label, _) in old {
        if new.iter().any(|(l, _)| stem(l) == stem(label)) {
            continue;
        }
        let Some(before) = old_modules.iter().find(|m| m.stem == stem(label)) else {
            continue;
        };
        let flows = flow::flows(&before.model);
        let used = flows.values().any(|f| f.is_sent() || f.is_received());
        changes.push(Change {
            file: label.clone(),
            pointer: String::new(),
            rule: rules::SCHEMA_REMOVED.id,
            class: Class::wire_if(used, Class::Source),
            message: format!(
                "the schema file is gone with its {} message type(s)",
                before.model.roots.len()
            ),
        });
    }
    Ok(changes)
}

/// The flow of every named type of each module. A type that one schema file uses from
/// another travels the ways both use it, so what the using file knows is added to the
/// home file's flows (the home file compares the type).
fn flows(modules: &[emit::Module]) -> Vec<HashMap<String, Flow>> {
    let mut all: Vec<HashMap<String, Flow>> =
        modules.iter().map(|m| flow::flows(&m.model)).collect();
    // Where each type lives: (its file, its pointer) → (module, name); the first type
    // at a pointer, as the schema's own `$defs` entry comes before types hoisted there.
    let mut homes: HashMap<(&str, &str), (usize, &str)> = HashMap::new();
    for (home, m) in modules.iter().enumerate() {
        for t in &m.model.types {
            homes
                .entry((m.model.file.as_str(), t.pointer.as_str()))
                .or_insert((home, t.name.as_str()));
        }
    }
    for (i, module) in modules.iter().enumerate() {
        for named in &module.model.types {
            let Origin::Document { file, pointer } = &named.origin else {
                continue;
            };
            let (Some(used), Some(&(home, name))) = (
                all[i].get(&named.name).cloned(),
                homes.get(&(file.as_str(), pointer.as_str())),
            ) else {
                continue;
            };
            all[home].entry(name.to_owned()).or_default().merge(&used);
        }
    }
    all
}

/// The old side of a comparison.
#[derive(Debug, Clone)]
pub enum Against {
    /// Schema files in a directory.
    Dir(PathBuf),
    /// A git revision (`origin/main`, `HEAD~1`, a tag), read in `repo`.
    Git {
        /// The revision.
        rev: String,
        /// A directory inside the work tree; paths are relative to it.
        repo: PathBuf,
    },
}

impl Against {
    /// `text` as a directory when one exists there, else as a git revision of the
    /// repository at `repo`.
    pub fn parse(text: &str, repo: &Path) -> Self {
        let dir = Path::new(text);
        if dir.is_dir() {
            Against::Dir(dir.to_path_buf())
        } else {
            Against::Git {
                rev: text.to_owned(),
                repo: repo.to_path_buf(),
            }
        }
    }

    /// How reports name it.
    pub fn label(&self) -> String {
        match self {
            Against::Dir(dir) => crate::files::shown(dir),
            Against::Git { rev, .. } => crate::emit::text::one_line(rev),
        }
    }
}

/// Reads the old side's schema files: the `*.json` files of the directory given, or of
/// `dir` (relative to the repository directory, e.g. `schema`) at the revision, labelled
/// `<rev>:<dir>/<file>`. They pair with the new side by file name.
pub fn against(side: &Against, dir: &Path) -> Result<Vec<SchemaText>> {
    match side {
        Against::Dir(path) => {
            let mut texts = Vec::new();
            for file in emit::schema_files(std::slice::from_ref(path))? {
                texts.push((file.display().to_string(), crate::check::read_text(&file)?));
            }
            Ok(texts)
        }
        Against::Git { rev, repo } => git_files(rev, repo, dir),
    }
}

fn git(repo: &Path, args: &[&str]) -> Result<std::process::Output> {
    Command::new("git")
        .args(args)
        .current_dir(repo)
        .output()
        .map_err(|err| Error::io("git", err))
}

fn git_files(rev: &str, repo: &Path, dir: &Path) -> Result<Vec<SchemaText>> {
    if rev.starts_with('-') {
        return Err(Error::Usage(format!("--against {rev:?}: not a revision")));
    }
    let commit = format!("{rev}^{{commit}}");
    let verify = git(repo, &["rev-parse", "--verify", "--quiet", &commit])?;
    if !verify.status.success() {
        return Err(Error::Usage(format!(
            "--against {}: neither a directory nor a git revision of {}",
            crate::emit::text::one_line(rev),
            crate::files::shown(repo)
        )));
    }
    let dir_text = dir.display().to_string();
    let listing = git(
        repo,
        &["ls-tree", "--name-only", rev, "--", &format!("{dir_text}/")],
    )?;
    if !listing.status.success() {
        return Err(Error::Usage(format!(
            "git ls-tree {rev} -- {dir_text}: {}",
            String::from_utf8_lossy(&listing.stderr).trim()
        )));
    }
    let mut texts = Vec::new();
    for path in String::from_utf8_lossy(&listing.stdout).lines() {
        if !path.ends_with(".json") {
            continue;
        }
        let shown = git(repo, &["show", &format!("{rev}:./{path}")])?;
        if !shown.status.success() {
            continue; // a directory or submodule named *.json
        }
        let text = String::from_utf8(shown.stdout)
            .map_err(|_| Error::Usage(format!("{rev}:{path}: the file is not UTF-8")))?;
        texts.push((format!("{rev}:{path}"), text));
    }
    Ok(texts)
}
