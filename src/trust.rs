//! Whose project file symgen may act on. A `symgen.toml` can name a `command` that the
//! plain `symgen` binary runs, and output directories it writes and deletes in: like
//! git's `safe.directory`, symgen refuses a project file another user owns or anyone
//! may write, and never looks for one across a filesystem or an ownership boundary,
//! unless the directory is listed in `SYMGEN_SAFE_DIRECTORIES` (paths separated by
//! `:`, or `*` for any).

use std::path::Path;

/// The environment variable that lists the directories whose project files are
/// trusted whoever owns them.
pub const SAFE_DIRECTORIES: &str = "SYMGEN_SAFE_DIRECTORIES";

/// Whether `dir` is listed in [`SAFE_DIRECTORIES`].
pub fn listed(dir: &Path) -> bool {
    let Some(list) = std::env::var_os(SAFE_DIRECTORIES) else {
        return false;
    };
    let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    std::env::split_paths(&list).any(|entry| {
        entry.as_os_str() == "*"
            || std::fs::canonicalize(&entry).is_ok_and(|entry| entry == canonical)
    })
}

/// Why the project file at `file` may not be acted on, if it may not: owned by another
/// user, or writable by anyone.
pub fn refusal(file: &Path) -> Option<String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    if listed(dir) {
        return None;
    }
    let owner = owner_of(file)?;
    let why = if owner.uid != current_user()? {
        format!("it is owned by another user (uid {})", owner.uid)
    } else if owner.world_writable {
        "any user may write it".to_owned()
    } else {
        return None;
    };
    Some(format!(
        "{why}; symgen acts only on project files of the user it runs as (it may run their \
         `command` and writes where they say). If you trust it, add its directory to {SAFE_DIRECTORIES}"
    ))
}

/// Who owns a file, and whether anyone may write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    /// The owner's user id.
    pub uid: u32,
    /// The device (filesystem) the file is on.
    pub device: u64,
    /// Whether others may write it.
    pub world_writable: bool,
}

/// Who owns `path` (`None` where the platform does not say).
#[cfg(unix)]
pub fn owner_of(path: &Path) -> Option<Owner> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(path).ok()?;
    Some(Owner {
        uid: meta.uid(),
        device: meta.dev(),
        world_writable: meta.mode() & 0o002 != 0,
    })
}

/// Who owns `path` (`None` where the platform does not say).
#[cfg(not(unix))]
pub fn owner_of(_: &Path) -> Option<Owner> {
    None
}

/// The user id the process acts as.
#[cfg(unix)]
pub fn current_user() -> Option<u32> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    Some(unsafe { libc::geteuid() })
}

/// The user id the process acts as (`None` where the platform has none).
#[cfg(not(unix))]
pub fn current_user() -> Option<u32> {
    None
}

/// The directories a project file is looked for in, from `start` up: each ancestor,
/// until one is on another filesystem than `start` or owned by another user than `user`
/// (unless listed as safe). `owner` says who owns a directory.
pub fn search_path(
    start: &Path,
    user: Option<u32>,
    owner: impl Fn(&Path) -> Option<Owner>,
) -> Vec<&Path> {
    let first = owner(start);
    let mut dirs = Vec::new();
    for dir in start.ancestors() {
        let here = owner(dir);
        if let (Some(first), Some(here)) = (first, here) {
            let crossed = here.device != first.device
                || user.is_some_and(|user| here.uid != user && here.uid != first.uid);
            if crossed && !listed(dir) {
                break;
            }
        }
        dirs.push(dir);
    }
    dirs
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn the_search_stops_at_another_filesystem_or_owner() {
        let start = PathBuf::from("/home/ann/work/project");
        let owner = |devices: &'static [(&'static str, u64, u32)]| {
            move |path: &Path| {
                devices
                    .iter()
                    .find(|(p, _, _)| Path::new(p) == path)
                    .map(|&(_, device, uid)| Owner {
                        uid,
                        device,
                        world_writable: false,
                    })
            }
        };
        let same: &[(&str, u64, u32)] = &[
            ("/home/ann/work/project", 1, 1000),
            ("/home/ann/work", 1, 1000),
            ("/home/ann", 1, 1000),
            ("/home", 1, 0),
            ("/", 1, 0),
        ];
        // /home is root's: the search stops below it.
        assert_eq!(
            search_path(&start, Some(1000), owner(same)),
            [
                Path::new("/home/ann/work/project"),
                Path::new("/home/ann/work"),
                Path::new("/home/ann")
            ]
        );
        // A filesystem mounted at /home/ann/work: the search stops at its top.
        let mounted: &[(&str, u64, u32)] = &[
            ("/home/ann/work/project", 2, 1000),
            ("/home/ann/work", 2, 1000),
            ("/home/ann", 1, 1000),
            ("/home", 1, 1000),
            ("/", 1, 1000),
        ];
        assert_eq!(
            search_path(&start, Some(1000), owner(mounted)),
            [
                Path::new("/home/ann/work/project"),
                Path::new("/home/ann/work")
            ]
        );
    }
}
