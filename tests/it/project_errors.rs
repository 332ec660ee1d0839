//! A broken `symgen.toml` is a located error, never silence (the plain `symgen` binary):
//! an unknown key names the closest known one, and a directory the project reads from
//! that does not exist is named with its key.

use crate::support::cli;

fn project(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("symgen.toml"), text).unwrap();
    dir
}

#[test]
fn an_unknown_key_names_the_closest_known_one() {
    for (text, key, closest) in [
        ("langauges = []\n", "langauges", "languages"),
        (
            "languages = []\n[vector]\ndir = \"v\"\n",
            "vector",
            "vectors",
        ),
        (
            "languages = []\n[typscript]\ndir = \"t\"\n",
            "typscript",
            "typescript",
        ),
    ] {
        let dir = project(text);
        let (code, stderr) = cli::code_and_stderr(dir.path(), &["check"]);
        assert_eq!(code, 2, "{text}: {stderr}");
        assert!(
            stderr.contains(&format!("{key}: unknown key; did you mean `{closest}`?")),
            "{text}: {stderr}"
        );
    }
    // Nothing close: no guess, the list of keys.
    let dir = project("frobnicate = 1\n");
    let (_, stderr) = cli::code_and_stderr(dir.path(), &["check"]);
    assert!(!stderr.contains("did you mean"), "{stderr}");
    assert!(
        stderr.contains("the keys are command, languages"),
        "{stderr}"
    );
}

#[test]
fn a_missing_vector_or_schema_directory_is_a_located_error() {
    let dir = project("languages = [\"python\"]\n[vectors]\ndir = \"v\"\ngenerate = false\n");
    std::fs::create_dir(dir.path().join("schema")).unwrap();
    std::fs::write(
        dir.path().join("schema/a.json"),
        r#"{"title": "A", "type": "object"}"#,
    )
    .unwrap();
    for command in ["check", "generate"] {
        let (code, stderr) = cli::code_and_stderr(dir.path(), &[command]);
        assert_eq!(code, 2, "{command}: {stderr}");
        assert!(
            stderr.contains("vectors.dir: the directory `v` does not exist"),
            "{command}: {stderr}"
        );
    }
    assert!(
        !dir.path().join("generated").exists(),
        "generate wrote before refusing"
    );
    let dir = project("languages = [\"python\"]\n");
    let (code, stderr) = cli::code_and_stderr(dir.path(), &["generate"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("schema.dir: the schema directory `schema` does not exist"),
        "{stderr}"
    );
}

/// Runs `generate` in a project of `toml` with one schema, `schema/<stem>.json`, and
/// asserts it refuses with `expected` in its message, before writing anything.
fn generate_refuses(toml: &str, stem: &str, expected: &str) {
    let dir = project(toml);
    std::fs::create_dir(dir.path().join("schema")).unwrap();
    std::fs::write(
        dir.path().join(format!("schema/{stem}.json")),
        r#"{"title": "A", "type": "object"}"#,
    )
    .unwrap();
    let (code, stderr) = cli::code_and_stderr(dir.path(), &["generate"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains(expected), "{stderr}");
    assert!(
        !dir.path().join("generated").exists(),
        "generate wrote before refusing"
    );
}

#[test]
fn swift_modules_must_name_a_schema_of_the_project() {
    generate_refuses(
        "languages = [\"swift\"]\n[swift]\npackage = \"P\"\n[swift.modules]\nsymposum = \"Chat\"\n",
        "symposium",
        "`symposum` names no schema of this project; the schemas are symposium",
    );
}

#[test]
fn a_typescript_version_npm_cannot_read_is_refused() {
    generate_refuses(
        "languages = [\"typescript\"]\n[typescript]\nversion = \"1.2\"\n",
        "a",
        "version: `1.2` is not a version npm reads",
    );
}
