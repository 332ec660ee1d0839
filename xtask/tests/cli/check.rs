//! The drift check of this repository and of a scratch project, and one-line errors
//! with a non-zero exit on bad input (never a panic).

use std::path::Path;

use crate::support as cli;

#[test]
fn committed_outputs_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = cli::run(&root, &["check"]);
    assert!(
        out.status.success(),
        "generated files are stale; run `cargo xtask generate`:\n{}{}",
        cli::stdout(&out),
        cli::stderr(&out)
    );
}

#[test]
fn check_names_a_stale_schema_file_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    let out = cli::run(dir.path(), &["schema"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let path = dir.path().join("schema/symposium.schema.json");
    let original = std::fs::read_to_string(&path).unwrap();
    // Simulates editing one doc comment in protocols/src/ without regenerating.
    let edited = original.replacen("Who sent a message.", "Who sent this message.", 1);
    assert_ne!(original, edited, "the doc text to edit was not found");
    std::fs::write(&path, edited).unwrap();

    let out = cli::run(dir.path(), &["check"]);
    let stdout = cli::stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("stale: schema/symposium.schema.json"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with('-') && l.contains("Who sent this message.")),
        "{stdout}"
    );
    assert!(!stdout.contains("stale: schema/ck3lens"), "{stdout}");
    let stderr = cli::stderr(&out);
    assert!(stderr.contains("run `cargo xtask generate`"), "{stderr}");
}

#[test]
fn check_reports_missing_orphaned_and_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    std::fs::remove_file(dir.path().join("schema/dialectic.schema.json")).unwrap();
    // A schema symgen wrote (its manifest lists it) for a protocol that no longer
    // exists, and a file of the user's own in symgen's directory.
    let old = "{\"x-symgen-protocol\": {\"id\": \"old\"}}\n";
    std::fs::write(dir.path().join("schema/old.schema.json"), old).unwrap();
    list_in_manifest(&dir.path().join("schema"), "old.schema.json", old);
    std::fs::write(dir.path().join("schema/NOTES.md"), "# our notes\n").unwrap();
    let out = cli::run(dir.path(), &["check"]);
    let stdout = cli::stdout(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("missing: schema/dialectic.schema.json"),
        "{stdout}"
    );
    assert!(
        stdout.contains("orphaned: schema/old.schema.json"),
        "{stdout}"
    );
    assert!(stdout.contains("foreign: schema/NOTES.md"), "{stdout}");
}

/// Adds `name` with the hash of `contents` to the manifest of `dir`, as if symgen had
/// written it.
fn list_in_manifest(dir: &std::path::Path, name: &str, contents: &str) {
    use sha2::{Digest, Sha256};
    let hex: String = Sha256::digest(contents.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = dir.join(".symgen-manifest");
    let mut manifest = std::fs::read_to_string(&path).unwrap();
    manifest.push_str(&format!("{hex}  {name}\n"));
    std::fs::write(path, manifest).unwrap();
}

#[test]
fn schema_deletes_only_the_files_symgen_wrote() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    let schema = dir.path().join("schema");
    let old = schema.join("old.schema.json");
    let changed = schema.join("changed.schema.json");
    let notes = schema.join("NOTES.md");
    let text = "{\"x-symgen-protocol\": {\"id\": \"old\"}}\n";
    std::fs::write(&old, text).unwrap();
    list_in_manifest(&schema, "old.schema.json", text);
    // Listed, but changed since symgen wrote it: someone's now.
    std::fs::write(&changed, "{\"mine\": true}\n").unwrap();
    list_in_manifest(&schema, "changed.schema.json", text);
    // A file of the user's own: `schema` refuses the directory and touches nothing.
    std::fs::write(&notes, "# our notes\n").unwrap();
    let out = cli::run(dir.path(), &["schema"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("NOTES.md"),
        "{}",
        cli::stderr(&out)
    );
    assert!(old.exists() && notes.exists());
    // Allowed to keep files of its own, the directory is written; the orphan goes, the
    // changed one and the user's stay.
    std::fs::write(
        dir.path().join("symgen.toml"),
        "languages = []\n[schema]\nallow-other-files = true\n",
    )
    .unwrap();
    let out = cli::run(dir.path(), &["schema"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    assert!(!old.exists(), "a schema symgen wrote is pruned");
    assert!(
        changed.exists(),
        "a file changed since symgen wrote it stays"
    );
    assert!(
        cli::stderr(&out).contains("changed since"),
        "{}",
        cli::stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "# our notes\n");
    // No temporary file is left behind by the atomic writes.
    let names: Vec<String> = std::fs::read_dir(&schema)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
    std::fs::remove_file(&changed).unwrap();
    assert!(cli::run(dir.path(), &["check"]).status.success());
}

#[cfg(unix)]
#[test]
fn schema_does_not_write_through_a_symlinked_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    let victim = elsewhere.path().join("old.schema.json");
    std::fs::write(&victim, "{\"x-symgen-protocol\": {\"id\": \"old\"}}\n").unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join("schema")).unwrap();
    let out = cli::run(dir.path(), &["schema"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("symbolic link"),
        "{}",
        cli::stderr(&out)
    );
    assert!(victim.exists(), "a file behind the link was deleted");
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 1);
}

#[test]
fn schema_is_byte_for_byte_deterministic() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    cli::schema_only_project(a.path());
    cli::schema_only_project(b.path());
    assert!(cli::run(a.path(), &["schema"]).status.success());
    assert!(cli::run(b.path(), &["schema"]).status.success());
    for protocol in symgen_protocols::all() {
        let name = protocol.file_name();
        let x = std::fs::read(a.path().join("schema").join(&name)).unwrap();
        let y = std::fs::read(b.path().join("schema").join(&name)).unwrap();
        assert_eq!(x, y, "{name} differs between runs");
        assert!(x.ends_with(b"}\n"), "{name} lacks a trailing newline");
    }
}

#[test]
fn missing_output_directory_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli::run(dir.path(), &["schema", "--out", "does/not/exist"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = cli::stderr(&out);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("does/not/exist"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn output_path_that_is_a_file_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let out = cli::run(dir.path(), &["schema", "--out", "file"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = cli::stderr(&out);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[cfg(unix)]
#[test]
fn unwritable_output_directory_is_a_one_line_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("ro");
    std::fs::create_dir(&out_dir).unwrap();
    // A file where a schema file should go makes the write fail even as root.
    std::fs::create_dir(out_dir.join("symposium.schema.json")).unwrap();
    std::fs::set_permissions(&out_dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = cli::run(dir.path(), &["schema", "--out", "ro"]);
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    let stderr = cli::stderr(&out);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("symposium.schema.json"), "{stderr}");
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli::run(dir.path(), &["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn check_does_not_hang_on_a_fifo_in_an_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    let fifo = dir.path().join("schema/symposium.schema.json");
    std::fs::remove_file(&fifo).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    // Where a generated file should be, and where none should: both are reported,
    // neither is opened for reading (which would block until a writer came).
    std::process::Command::new("mkfifo")
        .arg(dir.path().join("schema/extra.json"))
        .status()
        .expect("mkfifo");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("check")
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run xtask");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            panic!("`check` hangs on a FIFO");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    assert_eq!(out.status.code(), Some(2), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("not a regular file"),
        "{}",
        cli::stderr(&out)
    );
}

#[test]
fn check_fails_when_the_message_reference_is_stale() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("symgen.toml"),
        "languages = []\n[docs]\ndir = \"reference\"\n",
    )
    .unwrap();
    let out = cli::run(dir.path(), &["generate"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let page = dir.path().join("reference/symposium.md");
    let original = std::fs::read_to_string(&page).unwrap();
    assert!(original.contains("### `marco`"), "{original}");
    let out = cli::run(dir.path(), &["check"]);
    assert!(out.status.success(), "{}", cli::stdout(&out));

    // The page as it was before a doc comment changed in protocols/src/.
    let edited = original.replacen("Who sent the message.", "Who sent this message.", 1);
    assert_ne!(original, edited, "the doc text to edit was not found");
    std::fs::write(&page, edited).unwrap();
    let out = cli::run(dir.path(), &["check"]);
    let stdout = cli::stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("stale: reference/symposium.md"), "{stdout}");

    // `docs` alone refreshes it.
    let out = cli::run(dir.path(), &["docs"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), original);
}
