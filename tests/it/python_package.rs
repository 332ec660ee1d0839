//! The Python package (its snapshots are in `emit_snapshots.rs`; ruff, mypy, pip and the
//! vector suite run in `scripts/test-python.sh`): byte-identical output when generating
//! twice in any input order, the package's files, names from the options, and options
//! that are not valid Python names refused naming the key.

use std::path::{Path, PathBuf};

use crate::support::render_files;
use symgen::emit::{self, python};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn render(paths: &[PathBuf], options: &toml::Table) -> Result<Vec<(String, String)>, String> {
    render_files(&python::Python, paths, options, Some("../../tests/vectors"))
}

fn all_schemas() -> Vec<PathBuf> {
    emit::schema_files(&[
        root().join("schema"),
        root().join("tests/fixtures/schemas"),
        root().join("tests/fixtures/python"),
    ])
    .unwrap()
}

#[test]
fn generating_twice_gives_identical_bytes() {
    let options = toml::toml! { package = "symgen-protocols" };
    let mut paths = all_schemas();
    let first = render(&paths, &options).unwrap();
    assert_eq!(first, render(&paths, &options).unwrap());
    paths.reverse();
    assert_eq!(first, render(&paths, &options).unwrap());
}

#[test]
fn package_files_follow_the_options() {
    let options = toml::toml! {
        package = "Chat.Protocol-x"
        version = "1.2.0"
    };
    let paths = emit::schema_files(&[root().join("schema")]).unwrap();
    let files = render(&paths, &options).unwrap();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "pyproject.toml",
            "src/chat_protocol_x/__init__.py",
            "src/chat_protocol_x/_runtime.py",
            "src/chat_protocol_x/ck3lens.py",
            "src/chat_protocol_x/dialectic.py",
            "src/chat_protocol_x/py.typed",
            "src/chat_protocol_x/symposium.py",
            "src/chat_protocol_x/taskspace_state.py",
            "src/chat_protocol_x/worker_sideband.py",
            "tests/test_vectors.py",
        ]
    );
    let text = |name: &str| &files.iter().find(|(n, _)| n == name).unwrap().1;
    let project = text("pyproject.toml");
    assert!(project.contains("name = \"Chat.Protocol-x\"\nversion = \"1.2.0\"\n"));
    assert!(project.contains("packages = [\"src/chat_protocol_x\"]"));
    assert!(text("tests/test_vectors.py").contains("/ \"../../tests/vectors\""));
    assert!(text("src/chat_protocol_x/__init__.py").contains(
        "from . import ck3lens, dialectic, symposium, taskspace_state, worker_sideband\n"
    ));
    // The module name option overrides the derived one.
    let options = toml::toml! {
        package = "chat"
        module = "wire"
    };
    let files = render(&paths, &options).unwrap();
    assert!(files.iter().any(|(n, _)| n == "src/wire/symposium.py"));
}

#[test]
fn invalid_names_are_refused_naming_the_key() {
    let paths = emit::schema_files(&[root().join("schema")]).unwrap();
    for (options, expected) in [
        (toml::toml! { package = "-chat" }, "package: `-chat` is not"),
        (toml::toml! { module = "class" }, "module: `class` is not"),
        (toml::toml! { module = "a-b" }, "module: `a-b` is not"),
        (toml::toml! { version = "1 0" }, "version: `1 0` is not"),
        (toml::toml! { packge = "x" }, "unknown field `packge`"),
    ] {
        let err = render(&paths, &options).unwrap_err();
        assert!(err.contains(expected), "{options:?}: {err}");
        assert!(err.starts_with("symgen.toml:python:"), "{err}");
    }
}
