//! Reading schema files the way every part of symgen must: only regular files inside
//! the directories the user named (no devices, FIFOs or paths that escape them), at
//! most [`MAX_FILE`] bytes, never over the network.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// `text` as the CLI prints it on one line: control characters (C0, DEL, C1 such as
/// U+0085) and the Unicode line and paragraph separators escaped (`\n`, `\u{2028}`),
/// so that no file name, key or tag can start a forged output line.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let special = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if !text.contains(special) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if special(c) => out.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A path as the CLI prints it: [`escape_controls`] of its text.
pub fn shown(path: &Path) -> String {
    escape_controls(&path.to_string_lossy()).into_owned()
}

/// The largest schema file symgen reads.
pub const MAX_FILE: u64 = 32 * 1024 * 1024;

/// How many files are opened when looking for a document by its `$id`.
const MAX_SCANNED: usize = 20_000;

/// `path` canonicalized, when it is a regular file inside one of `roots` (canonical).
pub fn inside(path: &Path, roots: &[PathBuf]) -> Option<PathBuf> {
    let canonical = path.canonicalize().ok()?;
    let within = roots.iter().any(|root| canonical.starts_with(root));
    let regular = std::fs::metadata(&canonical).is_ok_and(|m| m.is_file());
    (within && regular).then_some(canonical)
}

/// Reads a regular file of at most `max` bytes. Devices, FIFOs and directories are
/// refused before they are opened (opening a FIFO for reading blocks until a writer
/// comes); a file that grows past `max` while it is read is refused too.
pub fn read_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let refuse = |what: String| Error::new(ErrorKind::InvalidInput, what);
    let too_large = || refuse(format!("larger than {} MiB", max >> 20));
    if !std::fs::metadata(path)?.is_file() {
        return Err(refuse("not a regular file".to_owned()));
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refuse("not a regular file".to_owned()));
    }
    if meta.len() > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Reads a regular UTF-8 file of at most [`MAX_FILE`] bytes (see [`read_regular`]).
pub fn read_capped(path: &Path) -> Result<String, String> {
    let bytes = read_regular(path, MAX_FILE).map_err(|err| format!("cannot read: {err}"))?;
    String::from_utf8(bytes).map_err(|_| "cannot read: not UTF-8 text".to_owned())
}

/// `$id` (as written, without a trailing empty fragment) → path, of every schema file
/// (`*.json`, `*.yaml`, `*.yml`) directly in `roots`.
pub fn ids_in(roots: &[PathBuf]) -> HashMap<String, PathBuf> {
    let mut out = HashMap::new();
    let mut scanned = 0;
    for root in roots {
        let Ok(entries) = std::fs::read_dir(root) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            if scanned >= MAX_SCANNED {
                return out;
            }
            if !crate::schema_file::is_schema_name(&path.to_string_lossy()) {
                continue;
            }
            scanned += 1;
            let Some(path) = inside(&path, roots) else {
                continue;
            };
            let Ok(text) = read_capped(&path) else {
                continue;
            };
            let Ok(value) = crate::schema_file::parse(&path.to_string_lossy(), &text) else {
                continue;
            };
            if let Some(id) = value
                .get("$id")
                .or_else(|| value.get("id"))
                .and_then(Value::as_str)
            {
                out.entry(id.trim_end_matches('#').to_owned())
                    .or_insert(path);
            }
        }
    }
    out
}
