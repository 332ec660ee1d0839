//! What symgen owns and what it runs (issue: hostile input, round three): it writes and
//! deletes only the files its manifest lists, refuses an output directory that is the
//! project root, overlaps another, holds a project, or is reached through a link, and
//! acts only on a project file of the user it runs as.

use std::path::Path;

use crate::support as cli;

fn toml(dir: &Path, text: &str) {
    std::fs::write(dir.join("symgen.toml"), text).unwrap();
}

#[test]
fn an_output_directory_that_is_the_project_root_or_overlaps_another_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (text, key) in [
        (
            "languages = [\"typescript\"]\n[typescript]\ndir = \".\"\n",
            "typescript.dir",
        ),
        (
            "languages = [\"typescript\", \"python\"]\n[typescript]\ndir = \"gen\"\n[python]\ndir = \"gen/py\"\n",
            "overlap",
        ),
        ("languages = []\n[docs]\ndir = \"schema/docs\"\n", "overlap"),
    ] {
        toml(dir.path(), text);
        let out = cli::run(dir.path(), &["generate"]);
        assert_eq!(out.status.code(), Some(2), "{text}: {}", cli::stderr(&out));
        assert!(
            cli::stderr(&out).contains(key),
            "{text}: {}",
            cli::stderr(&out)
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "{text}: wrote something"
        );
    }
}

#[test]
fn a_hand_written_file_in_an_output_directory_survives_generate() {
    let dir = tempfile::tempdir().unwrap();
    toml(
        dir.path(),
        "languages = [\"typescript\"]\n[typescript]\ndir = \"gen\"\n",
    );
    // The user's own package.json where symgen would write one, and a note.
    let out_dir = dir.path().join("gen");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("package.json"), "{\"name\": \"mine\"}\n").unwrap();
    std::fs::write(out_dir.join("NOTES.md"), "mine\n").unwrap();
    let out = cli::run(dir.path(), &["generate"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    let stderr = cli::stderr(&out);
    assert!(stderr.contains("occupied: gen/package.json"), "{stderr}");
    assert!(stderr.contains("foreign: gen/NOTES.md"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(out_dir.join("package.json")).unwrap(),
        "{\"name\": \"mine\"}\n"
    );
    assert_eq!(
        std::fs::read_dir(&out_dir).unwrap().count(),
        2,
        "nothing written beside them"
    );
    // Allowed files of its own, the directory takes the package beside the note, but a
    // path symgen generates stays refused while the user's file is there.
    toml(
        dir.path(),
        "languages = [\"typescript\"]\n[typescript]\ndir = \"gen\"\nallow-other-files = true\n",
    );
    let out = cli::run(dir.path(), &["generate"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    std::fs::remove_file(out_dir.join("package.json")).unwrap();
    let out = cli::run(dir.path(), &["generate"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    assert_eq!(
        std::fs::read_to_string(out_dir.join("NOTES.md")).unwrap(),
        "mine\n"
    );
    assert!(out_dir.join(".symgen-manifest").is_file());
    assert!(cli::run(dir.path(), &["check"]).status.success());
}

#[test]
fn a_leftover_temporary_file_is_reported_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    let leftover = dir
        .path()
        .join("schema/.symposium.schema.json.symgen-4242.tmp");
    std::fs::write(&leftover, "{").unwrap();
    let out = cli::run(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        cli::stdout(&out).contains("orphaned: schema/.symposium.schema.json.symgen-4242.tmp"),
        "{}",
        cli::stdout(&out)
    );
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    assert!(!leftover.exists());
}

#[cfg(unix)]
#[test]
fn an_output_path_through_a_symbolic_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("gen")).unwrap();
    toml(
        dir.path(),
        "languages = [\"typescript\"]\n[typescript]\ndir = \"gen/ts\"\n",
    );
    let out = cli::run(dir.path(), &["generate"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("symbolic link"),
        "{}",
        cli::stderr(&out)
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_project_file_anyone_may_write_is_refused_unless_listed_as_safe() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    let file = dir.path().join("symgen.toml");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = cli::run(dir.path(), &["schema"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    let stderr = cli::stderr(&out);
    assert!(
        stderr.contains("symgen.toml") && stderr.contains("any user may write it"),
        "{stderr}"
    );
    assert!(stderr.contains("SYMGEN_SAFE_DIRECTORIES"), "{stderr}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("schema")
        .current_dir(dir.path())
        .env("SYMGEN_SAFE_DIRECTORIES", dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", cli::stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_project_file_another_user_owns_is_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc_geteuid() } != 0 {
        // Only root can give a file away; the world-writable case above runs for anyone.
        eprintln!("not root: the ownership case is covered by trust::tests and the adoption test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    let status = std::process::Command::new("chown")
        .args(["65534", "symgen.toml"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let out = cli::run(dir.path(), &["schema"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("owned by another user"),
        "{}",
        cli::stderr(&out)
    );
    assert!(!dir.path().join("schema").exists());
}

#[cfg(unix)]
unsafe extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}
