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
fn check_reports_missing_and_orphaned_files() {
    let dir = tempfile::tempdir().unwrap();
    cli::schema_only_project(dir.path());
    cli::schema_only_project(dir.path());
    assert!(cli::run(dir.path(), &["schema"]).status.success());
    std::fs::remove_file(dir.path().join("schema/dialectic.schema.json")).unwrap();
    std::fs::write(dir.path().join("schema/old.schema.json"), "{}\n").unwrap();
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
