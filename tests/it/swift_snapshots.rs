//! The Swift generator on the fixture schemas: insta snapshots of each module,
//! byte-identical output when generating twice (in any input order), the package
//! layout, `symgen swift --schema/--out` on a user schema, and one-line
//! `file:pointer: message` errors with exit code 1 for what Swift cannot express.

use crate::support::cli;

use std::path::{Path, PathBuf};

use symgen::emit::{self, Backend, Input, swift};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture schemas shared with the TypeScript generator, plus the Swift-specific
/// naming fixture.
fn fixtures() -> Vec<PathBuf> {
    emit::schema_files(&[
        root().join("tests/fixtures/schemas"),
        root().join("tests/fixtures/swift"),
    ])
    .expect("fixture schemas")
}

/// The options this repository's `symgen.toml` gives the Swift package.
fn options() -> toml::Table {
    toml::toml! {
        package = "SymgenProtocols"
        module-prefix = "Symgen"
    }
}

fn render(paths: &[PathBuf]) -> Vec<(String, String)> {
    let modules = emit::load_modules(paths).unwrap_or_else(|err| panic!("{err}"));
    let input = Input {
        modules: &modules,
        options: &options(),
        vectors: Some("../../tests/vectors"),
    };
    swift::Swift
        .render(&input)
        .unwrap_or_else(|err| panic!("{err}"))
        .into_iter()
        .map(|file| (file.path, file.contents))
        .collect()
}

#[test]
fn fixture_modules_snapshot() {
    let files = fixtures();
    assert!(files.len() >= 5, "fixtures: {files:?}");
    for path in files {
        let stem = emit::module_stem(&path);
        let rendered = render(std::slice::from_ref(&path));
        // Every file of the schema's module, in path order, under a path header.
        let module: Vec<String> = rendered
            .iter()
            .filter(|(name, _)| !name.starts_with("Sources/SymgenRuntime/"))
            .filter(|(name, _)| name.starts_with("Sources/"))
            .map(|(name, text)| format!("// ---- {name}\n{text}"))
            .collect();
        assert!(!module.is_empty(), "{stem}: no module files");
        insta::assert_snapshot!(stem.clone(), module.join("\n"));
    }
}

#[test]
fn generating_twice_gives_identical_bytes() {
    let mut paths = fixtures();
    paths.extend(emit::schema_files(&[root().join("schema")]).unwrap());
    let first = render(&paths);
    assert_eq!(first, render(&paths));
    paths.reverse();
    assert_eq!(first, render(&paths), "input order changed the output");
}

#[test]
fn package_layout_for_the_protocols() {
    let files = render(&emit::schema_files(&[root().join("schema")]).unwrap());
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for module in [
        "SymgenCk3lens",
        "SymgenDialectic",
        "SymgenSymposium",
        "SymgenTaskspaceState",
        "SymgenWorkerSideband",
    ] {
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&format!("Sources/{module}/"))),
            "no module {module}"
        );
    }
    for name in [
        "Package.swift",
        "Sources/SymgenRuntime/JSONValue.swift",
        "Sources/SymgenSymposium/IpcMessage.swift",
        "Tests/SymgenTests/ConformanceVectors.swift",
        "Tests/SymgenTests/RuntimeTests.swift",
        "Tests/SymgenTests/VectorTests.swift",
        "Tests/SymgenTests/SymposiumCodecs.swift",
    ] {
        assert!(names.contains(&name), "missing {name}");
    }
    let package = &files.iter().find(|(n, _)| n == "Package.swift").unwrap().1;
    assert!(package.starts_with("// swift-tools-version: 6.0\n"));
    assert!(package.contains("swiftLanguageModes: [.v6]"));
    for (name, text) in &files {
        assert!(!text.contains("0.1.0"), "{name} carries a version");
        assert!(
            text.ends_with('\n') && !text.ends_with("\n\n"),
            "{name}: final newline"
        );
        assert!(
            !text.contains("swift-format-ignore"),
            "{name}: a layout exemption in the protocols' package"
        );
        assert!(
            text.lines()
                .all(|l| l.chars().count() <= 100 && l.trim_end() == l),
            "{name}: a line over 100 columns or with trailing spaces"
        );
    }
    // The typed reply pairing of P1 and P5 (rule R8).
    let ipc = &files
        .iter()
        .find(|(n, _)| n == "Sources/SymgenSymposium/IpcMessage.swift")
        .unwrap()
        .1;
    assert!(ipc.contains(
        "    public enum SpawnTaskspace: WireRequest {\n      public typealias Payload = SymgenSymposium.SpawnTaskspacePayload\n      public typealias Reply = SymgenSymposium.SpawnTaskspaceReply\n"
    ));
    assert!(ipc.contains("case unknown(tag: String, payload: JSONValue?)"));
}

fn symgen(args: &[&str]) -> (i32, String) {
    cli::code_and_stderr(root(), args)
}

#[test]
fn user_schema_generates_into_out_dir() {
    let out = tempfile::tempdir().unwrap();
    let out_arg = out.path().to_str().unwrap();
    let (code, stderr) = symgen(&[
        "swift",
        "--schema",
        "tests/fixtures/schemas/handwritten.schema.json",
        "--out",
        out_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let person =
        std::fs::read_to_string(out.path().join("Sources/SymgenHandwritten/Person.swift")).unwrap();
    assert!(
        person.starts_with("// Generated by symgen from handwritten.schema.json. Do not edit.")
    );
    assert!(person.contains("public struct Person: Codable, Hashable, Sendable {"));
    assert!(out.path().join("Package.swift").is_file());
    // No protocol schema, so no vector test target.
    assert!(!out.path().join("Tests").exists());
}

#[test]
fn what_swift_cannot_express_fails_with_file_pointer_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "tuple",
            r#"{"$defs": {"T": {"type": "array", "prefixItems": [{"type": "string"},
               {"type": "string"}, {"type": "string"}, {"type": "string"}, {"type": "string"}],
               "items": false}}}"#,
            "/$defs/T",
            "the Swift generator supports tuples (`prefixItems`) of 1 to 4 items, not 5",
        ),
        (
            "mixed-tags",
            r#"{"$defs": {"U": {"oneOf": [
               {"type": "object", "required": ["t"], "properties": {"t": {"const": "a"}}},
               {"type": "object", "required": ["t"], "properties": {"t": {"const": 1}}}]}}}"#,
            "/$defs/U",
            "the Swift generator needs tags of one JSON type",
        ),
    ];
    let out = tempfile::tempdir().unwrap();
    for (name, schema, pointer, message) in cases {
        let file = dir.path().join(format!("{name}.schema.json"));
        std::fs::write(&file, schema).unwrap();
        let file = file.to_str().unwrap();
        let (code, stderr) = symgen(&[
            "swift",
            "--schema",
            file,
            "--out",
            out.path().to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{name}: {stderr}");
        let expected = format!("symgen: error: {file}:{pointer}: {message}");
        assert!(
            stderr.starts_with(&expected),
            "{name}:\n{stderr}\nexpected: {expected}"
        );
        assert_eq!(stderr.lines().count(), 1, "{name}: one line: {stderr}");
    }
    assert_eq!(
        std::fs::read_dir(out.path()).unwrap().count(),
        0,
        "nothing written on error"
    );
}

#[test]
fn names_whose_case_mapping_changes_length_name_their_files() {
    // `\u{2126}` (OHM SIGN) lowercases to a shorter `ω`, `İ` to a longer `i̇`. Before,
    // the file name of such a type was cut by the length of its lowercase form (a panic,
    // or a wrong name); now identifiers are ASCII (swift-format requires it) with each
    // other character spelled as its code point, and file names follow them.
    let files = render(&[root().join("tests/fixtures/schemas/unicode-names.schema.json")]);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for file in ["U2126X.swift", "U3C9X.swift", "U130Tem.swift"] {
        let path = format!("Sources/SymgenUnicodeNames/{file}");
        assert!(names.contains(&path.as_str()), "no {path} in {names:?}");
    }
    let record = &files
        .iter()
        .find(|(n, _)| n.ends_with("/U2126X.swift"))
        .unwrap()
        .1;
    // The wire names stay exact.
    assert!(
        record.contains("case u1e9eTraUDFE = \"ẞtraße\""),
        "{record}"
    );
}
