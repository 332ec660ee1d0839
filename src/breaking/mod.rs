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
    // Each side's modules by stem (unique: `modules_from_texts` refuses two files of one
    // stem), so pairing files is linear in their number.
    let index = |modules: &[emit::Module]| -> HashMap<String, usize> {
        modules
            .iter()
            .enumerate()
            .map(|(i, m)| (m.stem.clone(), i))
            .collect()
    };
    let (old_at, new_at) = (index(&old_modules), index(&new_modules));
    let mut changes = Vec::new();
    for (label, _) in new {
        let Some(&at) = new_at.get(&stem(label)) else {
            continue;
        };
        let now = &new_modules[at];
        match old_at.get(&stem(label)).copied() {
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
    let new_stems: std::collections::HashSet<String> = new.iter().map(|(l, _)| stem(l)).collect();
    for (label, _) in old {
        if new_stems.contains(&stem(label)) {
            continue;
        }
        let Some(before) = old_at.get(&stem(label)).map(|&i| &old_modules[i]) else {
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
    // `<mode> <type> <object>\t<path>` per entry: the blobs are then read by object
    // name (a `rev:path` name makes git read the directory's tree again for each file).
    // `-z`: paths as they are, not quoted (a non-ASCII name would be).
    let listing = git(repo, &["ls-tree", "-z", rev, "--", &format!("{dir_text}/")])?;
    if !listing.status.success() {
        return Err(Error::Usage(format!(
            "git ls-tree {rev} -- {dir_text}: {}",
            String::from_utf8_lossy(&listing.stderr).trim()
        )));
    }
    let listed = String::from_utf8_lossy(&listing.stdout);
    // A directory or submodule named *.json is no file: not a blob.
    let files: Vec<(&str, &str)> = listed
        .split('\0')
        .filter_map(|line| {
            let (head, path) = line.split_once('\t')?;
            let mut fields = head.split(' ');
            let (_, kind, object) = (fields.next()?, fields.next()?, fields.next()?);
            (kind == "blob" && crate::schema_file::is_schema_name(path)).then_some((object, path))
        })
        .collect();
    let objects: Vec<&str> = files.iter().map(|(object, _)| *object).collect();
    let blobs = git_blobs(repo, &objects)?;
    let mut texts = Vec::new();
    for ((_, path), blob) in files.into_iter().zip(blobs) {
        let Some(bytes) = blob else { continue };
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::Usage(format!("{rev}:{path}: the file is not UTF-8")))?;
        texts.push((format!("{rev}:{path}"), text));
    }
    Ok(texts)
}

/// The contents of the blobs `objects` (object names), read by one `git cat-file
/// --batch` (one process, not one per file); `None` for one that is no blob. A blob past
/// [`crate::check::MAX_FILE_BYTES`] is an error, as a file on disk.
fn git_blobs(repo: &Path, objects: &[&str]) -> Result<Vec<Option<Vec<u8>>>> {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::Stdio;

    let failed = |err| Error::io("git cat-file", err);
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .current_dir(repo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(failed)?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(failed(std::io::Error::other("no pipe to git")));
    };
    let requests: String = objects.iter().map(|o| format!("{o}\n")).collect();
    // Written beside the reading, so neither side waits on a full pipe.
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let mut out = BufReader::new(stdout);
    let mut blobs = Vec::with_capacity(objects.len());
    let mut result = Ok(());
    for object in objects {
        let mut header = String::new();
        if let Err(err) = out.read_line(&mut header) {
            result = Err(failed(err));
            break;
        }
        // `<oid> <type> <size>` for an object, `<name> missing` (or `ambiguous`) else.
        let fields: Vec<&str> = header.split_whitespace().collect();
        let size = match fields.as_slice() {
            [_, kind, size] if ["blob", "tree", "commit", "tag"].contains(kind) => {
                size.parse::<u64>().ok().map(|size| (*kind == "blob", size))
            }
            _ => None,
        };
        let Some((is_blob, size)) = size else {
            blobs.push(None);
            continue;
        };
        if size > crate::check::MAX_FILE_BYTES {
            result = Err(Error::Usage(format!(
                "git object {object}: {size} bytes, more than the {} a schema file may have",
                crate::check::MAX_FILE_BYTES
            )));
            break;
        }
        // The contents and a newline.
        let mut bytes = Vec::new();
        match (&mut out).take(size + 1).read_to_end(&mut bytes) {
            Ok(read) if read as u64 == size + 1 => {}
            Ok(_) => {
                result = Err(failed(std::io::ErrorKind::UnexpectedEof.into()));
                break;
            }
            Err(err) => {
                result = Err(failed(err));
                break;
            }
        }
        bytes.pop();
        blobs.push(is_blob.then_some(bytes));
    }
    drop(out);
    let _ = child.kill();
    let _ = child.wait();
    let _ = writer.join();
    result.map(|()| blobs)
}
