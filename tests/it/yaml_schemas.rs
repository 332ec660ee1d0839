//! A schema written in YAML (`.yaml`, `.yml`) is read as the JSON document it stands
//! for, by every command: the packages, vectors and verdicts of a YAML project are the
//! JSON project's, but for the file name in the generated headers.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::cli;

/// The issue's nested tagged union, with an anchor reused by both alternatives.
const SHAPE_YAML: &str = "\
$schema: http://json-schema.org/draft-07/schema#
title: Msg
type: object
properties:
  params:
    oneOf:
      - $ref: '#/definitions/Shape'
      - type: array
        items: {$ref: '#/definitions/Shape'}
  note: {type: [string, 'null']}
required: [params]
definitions:
  Size: &size {type: number, minimum: 0}
  Shape:
    oneOf:
      - type: object
        properties:
          kind: {const: circle}
          r: *size
        required: [kind, r]
      - type: object
        properties:
          kind: {const: square}
          side: *size
        required: [kind, side]
";

const PROJECT: &str = "\
languages = [\"typescript\", \"python\", \"swift\"]
[vectors]
dir = \"vectors\"
[typescript]
package = \"shapes\"
[swift]
package = \"Shapes\"
[python]
package = \"shapes\"
";

/// A project holding `schema/NAME` with `text`.
fn project(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("symgen.toml"), PROJECT).unwrap();
    std::fs::create_dir_all(dir.path().join("schema")).unwrap();
    std::fs::create_dir_all(dir.path().join("vectors")).unwrap();
    std::fs::write(dir.path().join("schema").join(name), text).unwrap();
    dir
}

/// Every file under `dir` but the schema directory, by relative path.
fn outputs(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if relative == "schema" || relative == "symgen.toml" {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(relative, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn a_yaml_project_generates_what_its_json_project_generates() {
    let document: serde_json::Value = yaml_serde::from_str(SHAPE_YAML).unwrap();
    let json = serde_json::to_string_pretty(&document).unwrap();
    let from_yaml = project("shape.schema.yaml", SHAPE_YAML);
    let from_json = project("shape.schema.json", &json);
    for dir in [&from_yaml, &from_json] {
        let out = cli::run(dir.path(), &["generate"]);
        assert!(out.status.success(), "{}", cli::stderr(&out));
        let out = cli::run(dir.path(), &["check"]);
        assert!(out.status.success(), "{}", cli::stderr(&out));
    }
    let yaml_files = outputs(from_yaml.path());
    let json_files = outputs(from_json.path());
    assert_eq!(
        yaml_files.keys().collect::<Vec<_>>(),
        json_files.keys().collect::<Vec<_>>()
    );
    assert!(
        yaml_files.keys().any(|k| k.starts_with("vectors/shape/")),
        "no vectors: {:?}",
        yaml_files.keys()
    );
    for (path, text) in &yaml_files {
        if path.ends_with(".symgen-manifest") {
            continue; // the hashes of the files compared here
        }
        let expected = json_files[path].replace("shape.schema.json", "shape.schema.yaml");
        assert_eq!(text, &expected, "{path}");
    }
}

#[test]
fn validate_reads_a_yaml_schema_by_file_and_by_project_id() {
    let dir = project("shape.yml", SHAPE_YAML);
    let schema = dir.path().join("schema/shape.yml");
    let schema = schema.to_str().unwrap();
    let good = r#"{"params": [{"kind": "circle", "r": 1}], "note": null}"#;
    let bad = r#"{"params": {"kind": "square", "r": 1}}"#;
    for args in [
        ["validate", "--schema", schema],
        ["validate", "-p", "shape"],
    ] {
        for (message, code) in [(good, 0), (bad, 1)] {
            let path = dir.path().join("message.json");
            std::fs::write(&path, message).unwrap();
            let mut all = args.to_vec();
            all.push(path.to_str().unwrap());
            let out = cli::run(dir.path(), &all);
            assert_eq!(
                out.status.code(),
                Some(code),
                "{all:?} {message}: {}{}",
                cli::stdout(&out),
                cli::stderr(&out)
            );
        }
    }
}

#[test]
fn a_yaml_schema_json_cannot_hold_is_a_located_error_in_every_command() {
    let text = "title: Msg\ntype: object\nproperties:\n  a: {type: number, maximum: .inf}\n";
    let dir = project("shape.yaml", text);
    let schema = dir.path().join("schema/shape.yaml");
    let schema = schema.to_str().unwrap();
    let message = dir.path().join("m.json");
    std::fs::write(&message, "{}").unwrap();
    let message = message.to_str().unwrap();
    // A schema symgen cannot read is exit 1 to a generator, an unusable schema exit 2 to
    // `validate`, as for a JSON file.
    for (args, expected) in [
        (vec!["generate"], 1),
        (vec!["check"], 1),
        (vec!["ts", "--schema", schema, "--out", "out"], 1),
        (vec!["validate", "--schema", schema, message], 2),
        (vec!["vectors", "--schema", schema, "--out", "vectors"], 1),
    ] {
        let (code, stderr) = cli::code_and_stderr(dir.path(), &args);
        assert_eq!(code, expected, "{args:?}: {stderr}");
        assert!(
            stderr.contains("shape.yaml")
                && stderr.contains(
                    "invalid YAML: properties.a.maximum: .inf is not a JSON number at line 4"
                ),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_json_schema_refers_into_a_yaml_file_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("common.yml"),
        "definitions:\n  Id: {type: string, format: uuid}\n",
    )
    .unwrap();
    let main = dir.path().join("main.json");
    std::fs::write(
        &main,
        r#"{"title": "Msg", "type": "object", "properties": {"id": {"$ref": "common.yml#/definitions/Id"}}, "required": ["id"]}"#,
    )
    .unwrap();
    let model = symgen::model::parse_file(&main).unwrap();
    let msg = model.types.iter().find(|t| t.name == "Msg").unwrap();
    let symgen::model::TypeKind::Record(object) = &msg.kind else {
        panic!("{msg:?}")
    };
    assert_eq!(format!("{:?}", object.fields[0].ty), "Ref(\"Id\")");
    let id = model.types.iter().find(|t| t.name == "Id").unwrap();
    assert!(format!("{:?}", id.kind).contains("uuid"), "{id:?}");
}
