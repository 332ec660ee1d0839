//! The drift check: regenerate outputs in memory and compare them with the committed
//! files, without writing anything.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::emit::OutputFile;
use crate::files::shown;
use crate::{Error, Result};

/// The largest file symgen reads (a schema, a committed output, a project file).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a regular file of at most [`MAX_FILE_BYTES`] as UTF-8 text. Devices, FIFOs and
/// directories are refused rather than read (a FIFO would block forever).
pub fn read_text(path: &Path) -> Result<String> {
    read_bytes(path).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| {
            Error::io(
                path,
                std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
            )
        })
    })
}

/// Reads a regular file of at most [`MAX_FILE_BYTES`] (see
/// [`crate::files::read_regular`]).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    crate::files::read_regular(path, MAX_FILE_BYTES).map_err(|err| Error::io(path, err))
}

/// A set of generated files that must match one directory on disk.
#[derive(Debug, Clone)]
pub struct OutputSet {
    /// A short label for reports (e.g. `schema`, `typescript`).
    pub label: String,
    /// The directory on disk.
    pub dir: PathBuf,
    /// How reports name the directory (relative to the project root).
    pub display: PathBuf,
    /// Every file the generator produces there.
    pub files: Vec<OutputFile>,
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
            Drift::Stale { path, diff } => format!("stale: {}\n{diff}", shown(path)),
            Drift::Missing { path } => format!("missing: {}", shown(path)),
            Drift::Orphaned { path } => format!("orphaned: {}", shown(path)),
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
            &format!("{} (on disk)", shown(path)),
            &format!("{} (expected)", shown(path)),
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

/// Compares one output set with the disk. Returns every drift, in path order; drift
/// paths are [`OutputSet::display`] joined with the file's path.
pub fn compare(set: &OutputSet) -> Result<Vec<Drift>> {
    let mut on_disk = BTreeSet::new();
    walk(&set.dir, &set.dir, &set.ignore, &mut on_disk)?;
    let mut drifts = Vec::new();
    let mut expected_names = BTreeSet::new();
    let mut files: Vec<&OutputFile> = set.files.iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    for file in files {
        expected_names.insert(file.path.clone());
        let path = set.dir.join(&file.path);
        let shown = set.display.join(&file.path);
        if !path.exists() && std::fs::symlink_metadata(&path).is_err() {
            drifts.push(Drift::Missing { path: shown });
            continue;
        }
        let bytes = read_bytes(&path)?;
        if bytes != file.contents.as_bytes() {
            let old = String::from_utf8_lossy(&bytes);
            drifts.push(Drift::Stale {
                diff: short_diff(&shown, &old, &file.contents),
                path: shown,
            });
        }
    }
    for name in on_disk.difference(&expected_names) {
        if is_generated(&set.dir.join(name)) {
            drifts.push(Drift::Orphaned {
                path: set.display.join(name),
            });
        }
    }
    Ok(drifts)
}

/// Whether the file at `path` is one symgen wrote: it carries a generated-file header
/// (`Generated by symgen`, `` Generated by `symgen ts` `` ...) or is a symgen schema
/// (`x-symgen-protocol`), or it is the empty `py.typed` marker of a Python package; a
/// symbolic link never is. Only such files are orphans: anything else in an output directory is the user's,
/// never reported and never deleted.
pub fn is_generated(path: &Path) -> bool {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    if is_link {
        return false;
    }
    let Ok(bytes) = read_bytes(path) else {
        return false;
    };
    if bytes.is_empty() {
        return path.file_name().is_some_and(|name| name == "py.typed");
    }
    let text = String::from_utf8_lossy(&bytes);
    [
        "Generated by symgen",
        "Generated by `symgen",
        "\"x-symgen-protocol\"",
    ]
    .iter()
    .any(|marker| text.contains(marker))
}

/// Refuses a path that goes through a symbolic link below (or at) `root`: symgen
/// writes and deletes only inside the output directory itself, never where a link
/// points.
fn no_symlink(root: &Path, path: &Path, shown: &Path) -> Result<()> {
    let mut current = root.to_path_buf();
    let check = |at: &Path| -> Result<()> {
        match std::fs::symlink_metadata(at) {
            Ok(meta) if meta.file_type().is_symlink() => Err(Error::io(
                shown,
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{} is a symbolic link; symgen does not write through links",
                        crate::files::shown(at)
                    ),
                ),
            )),
            _ => Ok(()),
        }
    };
    check(&current)?;
    if let Ok(rest) = path.strip_prefix(root) {
        for part in rest.components() {
            current.push(part);
            check(&current)?;
        }
    }
    Ok(())
}

/// Writes `contents` to `path` atomically: into a temporary file beside it, then
/// renamed over it, so an interrupted run leaves the old file or the new one, never a
/// truncated one.
fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temp = dir.join(format!(".{name}.symgen-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Writes an output set to disk: writes every file whose bytes differ (atomically, and
/// never through a symbolic link) and, when `prune` is set (symgen owns the directory),
/// removes orphaned files — only files symgen generated ([`is_generated`]). Returns the
/// paths it changed.
pub fn write(set: &OutputSet, prune: bool) -> Result<Vec<PathBuf>> {
    let mut changed = Vec::new();
    let relative = |shown: &Path| {
        shown
            .strip_prefix(&set.display)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| shown.to_path_buf())
    };
    for drift in compare(set)? {
        match drift {
            Drift::Orphaned { path } => {
                if prune {
                    let real = set.dir.join(relative(&path));
                    no_symlink(&set.dir, &real, &path)?;
                    std::fs::remove_file(&real).map_err(|err| Error::io(&path, err))?;
                    changed.push(path);
                }
            }
            Drift::Stale { path, .. } | Drift::Missing { path } => changed.push(path),
        }
    }
    let to_write: BTreeSet<&PathBuf> = changed.iter().collect();
    for file in &set.files {
        if !to_write.contains(&set.display.join(&file.path)) {
            continue;
        }
        let path = set.dir.join(&file.path);
        let shown = set.display.join(&file.path);
        no_symlink(&set.dir, &path, &shown)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Error::io(parent, err))?;
        }
        no_symlink(&set.dir, &path, &shown)?;
        write_atomic(&path, file.contents.as_bytes()).map_err(|err| Error::io(&path, err))?;
    }
    Ok(changed)
}
