//! The drift check: regenerate outputs in memory and compare them with the committed
//! files, without writing anything.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// One expected output file, relative to the directory it belongs to.
pub struct ExpectedFile {
    /// Path relative to the output directory (always `/`-separated).
    pub relative: String,
    /// Exact expected contents.
    pub contents: String,
}

/// A set of generated files that must match one directory on disk.
pub struct OutputSet {
    /// A short label for reports (e.g. `schema`).
    pub label: String,
    /// The directory on disk.
    pub dir: PathBuf,
    /// Every file the generator produces there.
    pub files: Vec<ExpectedFile>,
    /// Relative paths (prefixes) on disk that the check ignores, e.g. build output.
    pub ignore: Vec<String>,
}

/// How one file differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    /// On disk, but its contents differ; carries a short unified diff.
    Stale {
        /// The file.
        path: PathBuf,
        /// A unified diff, on-disk → expected.
        diff: String,
    },
    /// Expected, but not on disk.
    Missing {
        /// The file.
        path: PathBuf,
    },
    /// On disk, but the generator no longer produces it.
    Orphaned {
        /// The file.
        path: PathBuf,
    },
}

impl Drift {
    /// A one-line summary followed by the diff, if any.
    pub fn report(&self) -> String {
        match self {
            Drift::Stale { path, diff } => format!("stale: {}\n{diff}", path.display()),
            Drift::Missing { path } => format!("missing: {}", path.display()),
            Drift::Orphaned { path } => format!("orphaned: {}", path.display()),
        }
    }
}

const DIFF_LINES: usize = 40;

fn short_diff(path: &Path, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{} (on disk)", path.display()),
            &format!("{} (expected)", path.display()),
        )
        .to_string();
    let mut out = String::new();
    for (index, line) in text.lines().enumerate() {
        if index == DIFF_LINES {
            let _ = writeln!(out, "... (diff cut after {DIFF_LINES} lines)");
            break;
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

fn walk(dir: &Path, base: &Path, ignore: &[String], out: &mut BTreeSet<String>) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(Error::io(dir, err)),
    };
    for entry in entries {
        let entry = entry.map_err(|err| Error::io(dir, err))?;
        let path = entry.path();
        let relative = path
            .strip_prefix(base)
            .unwrap_or(&path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if ignore
            .iter()
            .any(|prefix| relative == *prefix || relative.starts_with(&format!("{prefix}/")))
        {
            continue;
        }
        let file_type = entry.file_type().map_err(|err| Error::io(&path, err))?;
        if file_type.is_dir() {
            walk(&path, base, ignore, out)?;
        } else {
            out.insert(relative);
        }
    }
    Ok(())
}

/// Compares one output set with the disk. Returns every drift, in path order.
pub fn compare(set: &OutputSet) -> Result<Vec<Drift>> {
    let mut on_disk = BTreeSet::new();
    walk(&set.dir, &set.dir, &set.ignore, &mut on_disk)?;
    let mut drifts = Vec::new();
    let mut expected_names = BTreeSet::new();
    let mut files: Vec<&ExpectedFile> = set.files.iter().collect();
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    for file in files {
        expected_names.insert(file.relative.clone());
        let path = set.dir.join(&file.relative);
        match std::fs::read(&path) {
            Ok(bytes) => {
                if bytes != file.contents.as_bytes() {
                    let old = String::from_utf8_lossy(&bytes);
                    drifts.push(Drift::Stale {
                        diff: short_diff(&path, &old, &file.contents),
                        path,
                    });
                }
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                drifts.push(Drift::Missing { path });
            }
            Err(err) => return Err(Error::io(&path, err)),
        }
    }
    for name in on_disk.difference(&expected_names) {
        drifts.push(Drift::Orphaned {
            path: set.dir.join(name),
        });
    }
    Ok(drifts)
}

/// Writes an output set to disk: writes every file whose bytes differ and, when `prune`
/// is set (symgen owns the directory), removes orphaned files. Returns the paths it
/// changed.
pub fn write(set: &OutputSet, prune: bool) -> Result<Vec<PathBuf>> {
    let mut changed = Vec::new();
    for drift in compare(set)? {
        match drift {
            Drift::Orphaned { path } => {
                if prune {
                    std::fs::remove_file(&path).map_err(|err| Error::io(&path, err))?;
                    changed.push(path);
                }
            }
            Drift::Stale { path, .. } | Drift::Missing { path } => changed.push(path),
        }
    }
    for file in &set.files {
        let path = set.dir.join(&file.relative);
        if !changed.contains(&path) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Error::io(parent, err))?;
        }
        std::fs::write(&path, &file.contents).map_err(|err| Error::io(&path, err))?;
    }
    Ok(changed)
}
