//! `symgen breaking`: every rule on a pair of schema versions where it breaks and one
//! where direction makes it harmless (tests/breaking/rules.json, written by
//! tests/breaking/make-cases.py), the command against a real git history, and the
//! documentation of every rule.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use symgen::breaking::{self, RULES};

use crate::support::cli;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/breaking/rules.json"),
    )
    .unwrap();
    let document: Value = serde_json::from_str(&text).unwrap();
    document["cases"].as_array().unwrap().clone()
}

/// A protocol schema with the parties `client` and `server`, whose roots are `Msg` and
/// (when defined) `Other`, each declaring `direction`.
fn document(defs: &Value, direction: &Value) -> String {
    let mut defs = defs.as_object().unwrap().clone();
    let mut roots = Vec::new();
    for root in ["Msg", "Other"] {
        if let Some(Value::Object(def)) = defs.get_mut(root) {
            roots.push(root);
            for (key, keyword) in [
                ("sent_by", "x-symgen-sent-by"),
                ("received_by", "x-symgen-received-by"),
            ] {
                if let Some(parties) = direction.get(key) {
                    def.insert(keyword.into(), parties.clone());
                }
            }
        }
    }
    let any_of: Vec<Value> = roots
        .iter()
        .map(|r| json!({ "$ref": format!("#/$defs/{r}") }))
        .collect();
    serde_json::to_string_pretty(&json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:test:t",
        "anyOf": any_of,
        "$defs": defs,
        "x-symgen-protocol": {
            "id": "t",
            "roots": roots,
            "parties": { "client": "the client", "server": "the server" }
        }
    }))
    .unwrap()
}

/// The (rule, class) of every change, sorted.
fn verdicts_of(changes: &[breaking::Change]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = changes
        .iter()
        .map(|c| (c.rule.to_owned(), c.class.name().to_owned()))
        .collect();
    pairs.sort();
    pairs
}

/// An `expect` list of a fixture (`[[rule, class], ...]`), sorted.
fn expected(list: &Value) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn every_rule_classifies_its_fixture_pairs_by_direction() {
    let mut failures = Vec::new();
    for case in cases() {
        let direction = &case["direction"];
        let new_direction = case.get("new_direction").unwrap_or(direction);
        let old = document(&case["old"], direction);
        let new = document(&case["new"], new_direction);
        let changes = breaking::compare(
            &[("old/t.schema.json".into(), old)],
            &[("schema/t.schema.json".into(), new)],
        )
        .unwrap_or_else(|err| panic!("{}: {err}", case["rule"]));
        let (got, want) = (verdicts_of(&changes), expected(&case["expect"]));
        if got != want {
            failures.push(format!(
                "{} ({}): want {want:?}, got {:#?}",
                case["rule"], case["why"], changes
            ));
        }
        for change in &changes {
            assert_eq!(change.file, "schema/t.schema.json");
            assert!(!change.message.is_empty());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_rule_has_fixtures_and_documentation() {
    let cases = cases();
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/breaking.md"))
            .unwrap();
    for rule in RULES {
        let classes: Vec<&str> = cases
            .iter()
            .filter(|c| c["rule"] == rule.id)
            .map(|c| c["class"].as_str().unwrap())
            .collect();
        let file_level = rule.id.starts_with("schema-");
        assert!(
            file_level || !classes.is_empty(),
            "rule {} has no fixture pair in tests/breaking/rules.json",
            rule.id
        );
        if classes.contains(&"wire") {
            assert!(
                classes.iter().any(|c| *c != "wire"),
                "rule {} has no fixture where direction makes it harmless",
                rule.id
            );
        }
        let heading = format!("### `{}`\n", rule.id);
        let section = docs
            .split_once(&heading)
            .map(|(_, rest)| rest.split("\n#").next().unwrap_or(rest))
            .unwrap_or_else(|| panic!("docs/breaking.md does not document rule {}", rule.id));
        assert!(
            section.contains("*Example:*"),
            "docs/breaking.md gives no example for rule {}",
            rule.id
        );
    }
}

#[test]
fn a_removed_schema_file_breaks_the_peers_that_used_it() {
    let old = document(&json!({ "Msg": { "type": "object" } }), &json!({}));
    let changes = breaking::compare(&[("old/t.schema.json".into(), old.clone())], &[]).unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].rule, "schema-removed");
    assert_eq!(changes[0].class, breaking::Class::Wire);
    let changes = breaking::compare(&[], &[("schema/t.schema.json".into(), old)]).unwrap();
    assert_eq!(
        (changes[0].rule, changes[0].class),
        ("schema-added", breaking::Class::Compatible)
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn breaking_against_an_earlier_commit_reads_it_with_git() {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    std::fs::write(
        dir.join("symgen.toml"),
        "languages = []\n[schema]\ndir = \"contracts\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.join("contracts")).unwrap();
    let cs = json!({ "sent_by": ["client"], "received_by": ["server"] });
    let v1 = json!({ "Msg": { "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"] } });
    let v2 = json!({ "Msg": { "type": "object", "properties": { "a": { "type": "string" }, "b": { "type": "string" } }, "required": ["a", "b"] } });
    let schema = dir.join("contracts/t.schema.json");
    std::fs::write(&schema, document(&v1, &cs)).unwrap();
    git(dir, &["init", "--quiet"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "--quiet", "-m", "v1"]);
    std::fs::write(&schema, document(&v2, &cs)).unwrap();
    git(dir, &["commit", "--quiet", "-am", "v2"]);

    // Committed history: HEAD~1 against the work tree.
    let out = cli::run(dir, &["breaking", "--against", "HEAD~1"]);
    let text = cli::stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", cli::stderr(&out));
    assert!(
        text.starts_with(
            "contracts/t.schema.json:/$defs/Msg/properties/b: required-field-added [wire]: "
        ),
        "{text}"
    );
    assert!(
        cli::stderr(&out).contains("1 wire-breaking"),
        "{}",
        cli::stderr(&out)
    );

    // The same commit is no change at all.
    let out = cli::run(dir, &["breaking", "--against", "HEAD"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(cli::stdout(&out), "");

    // JSON for tools, annotations for GitHub (with the line of the new field).
    let out = cli::run(
        dir,
        &["breaking", "--against", "HEAD~1", "--format", "json"],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["counts"]["wire"], 1);
    assert_eq!(report["changes"][0]["rule"], "required-field-added");
    let out = cli::run(
        dir,
        &["breaking", "--against", "HEAD~1", "--format", "github"],
    );
    let text = cli::stdout(&out);
    assert!(
        text.starts_with("::error file=contracts/t.schema.json,line="),
        "{text}"
    );

    // A source-breaking change passes the default gate and fails `--fail-on source`.
    let renamed = json!({ "Msg": { "type": "object", "properties": { "a": { "$ref": "#/$defs/Bar" } }, "required": ["a"] }, "Bar": { "type": "string", "format": "uuid" } });
    let before = json!({ "Msg": { "type": "object", "properties": { "a": { "$ref": "#/$defs/Foo" } }, "required": ["a"] }, "Foo": { "type": "string", "format": "uuid" } });
    std::fs::write(&schema, document(&before, &cs)).unwrap();
    git(dir, &["commit", "--quiet", "-am", "v3"]);
    std::fs::write(&schema, document(&renamed, &cs)).unwrap();
    let out = cli::run(dir, &["breaking", "--against", "HEAD"]);
    assert_eq!(out.status.code(), Some(0), "{}", cli::stdout(&out));
    assert!(cli::stdout(&out).contains("type-renamed [source]"));
    let out = cli::run(
        dir,
        &["breaking", "--against", "HEAD", "--fail-on", "source"],
    );
    assert_eq!(out.status.code(), Some(1));

    // A directory works as the old side too; an unknown revision is a usage error.
    let old_dir = tempfile::tempdir().unwrap();
    std::fs::write(old_dir.path().join("t.schema.json"), document(&v2, &cs)).unwrap();
    let old = old_dir.path().to_str().unwrap();
    let out = cli::run(dir, &["breaking", "--against", old]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        cli::stdout(&out).contains("field-removed [wire]: `Msg.b` (required) is gone"),
        "{}",
        cli::stdout(&out)
    );
    let (code, stderr) = cli::code_and_stderr(dir, &["breaking", "--against", "no-such-ref"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("neither a directory nor a git revision"),
        "{stderr}"
    );
    let (code, _) = cli::code_and_stderr(dir, &["breaking", "--against", "--upload-pack=x"]);
    assert_eq!(code, 2);
    // An old side that cannot be read is an error (2), never a "breaking change" (1).
    let broken = tempfile::tempdir().unwrap();
    std::fs::write(broken.path().join("t.schema.json"), "{ not json").unwrap();
    let (code, stderr) = cli::code_and_stderr(
        dir,
        &["breaking", "--against", broken.path().to_str().unwrap()],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("t.schema.json"), "{stderr}");
}

/// `(file name, text)` of today's schema files.
fn current_schemas() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (
                format!("schema/{name}"),
                std::fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn apply(document: &mut Value, op: &Value) {
    let (kind, pointer) = (op[0].as_str().unwrap(), op[1].as_str().unwrap());
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let target = document
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match (kind, target) {
        ("set", Value::Object(map)) => {
            map.insert(last.to_owned(), op[2].clone());
        }
        ("remove", Value::Object(map)) => {
            assert!(map.shift_remove(last).is_some(), "no {pointer}");
        }
        ("remove", Value::Array(items)) => {
            items.remove(last.parse::<usize>().unwrap());
        }
        _ => panic!("cannot {kind} {pointer}"),
    }
}

fn verdicts(expect: &[(String, String)]) -> String {
    let mut out: Vec<String> = Vec::new();
    for pair in expect {
        let n = expect.iter().filter(|p| *p == pair).count();
        let mut item = format!("`{}` [{}]", pair.0, pair.1);
        if n > 1 {
            item.push_str(&format!(" ×{n}"));
        }
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out.join(", ")
}

#[test]
fn the_catalog_drifts_get_the_verdicts_docs_breaking_lists() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/breaking/drifts.json"),
    )
    .unwrap();
    let drifts: Value = serde_json::from_str(&text).unwrap();
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/breaking.md"))
            .unwrap();
    let new = current_schemas();
    let mut failures = Vec::new();
    for drift in drifts["drifts"].as_array().unwrap() {
        let id = drift["drift"].as_str().unwrap();
        let label = format!("schema/{}.schema.json", drift["file"].as_str().unwrap());
        let old: Vec<(String, String)> = new
            .iter()
            .map(|(name, text)| {
                if *name != label {
                    return (name.clone(), text.clone());
                }
                let mut document: Value = serde_json::from_str(text).unwrap();
                for op in drift["old"].as_array().unwrap() {
                    apply(&mut document, op);
                }
                (name.clone(), document.to_string())
            })
            .collect();
        let changes = breaking::compare(&old, &new).unwrap_or_else(|err| panic!("{id}: {err}"));
        let (got, want) = (verdicts_of(&changes), expected(&drift["expect"]));
        if got != want {
            failures.push(format!("{id}: want {want:?}, got {changes:#?}"));
        }
        assert!(
            changes.iter().all(|c| c.file == label),
            "{id}: {changes:#?}"
        );
        let row = format!("| {id} | ");
        let line = docs.lines().find(|l| l.starts_with(&row));
        assert!(
            line.is_some_and(|l| l.contains(&format!("| {} |", verdicts(&want)))),
            "docs/breaking.md lists no verdict row for {id} matching {}; run tests/breaking/make-drifts.py",
            verdicts(&want)
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every schema this repository has that symgen reads: the protocols, the fixtures and
/// the real-world corpus (schemas symgen did not write).
fn readable_schemas() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "schema",
        "tests/fixtures/schemas",
        "tests/fixtures/real/schemas",
    ] {
        for file in symgen::emit::schema_files(&[root.join(dir)]).unwrap() {
            let label = file.strip_prefix(root).unwrap().display().to_string();
            let text = std::fs::read_to_string(&file).unwrap();
            if symgen::emit::modules_from_texts(&[(label.clone(), text.clone())]).is_ok() {
                out.push((label, text));
            }
        }
    }
    out
}

#[test]
fn a_schema_symgen_did_not_write_compared_with_itself_has_no_change() {
    let schemas = readable_schemas();
    assert!(schemas.len() > 60, "only {} schemas read", schemas.len());
    for schema in &schemas {
        let one = std::slice::from_ref(schema);
        let changes = breaking::compare(one, one).unwrap();
        assert!(changes.is_empty(), "{}: {changes:#?}", schema.0);
        let modules = symgen::emit::modules_from_texts(one).unwrap();
        let pages = symgen::docs::render(&modules, None).unwrap();
        assert_eq!(pages.len(), 2, "{}", schema.0);
    }
}

#[test]
fn a_new_required_property_in_a_schema_without_direction_is_judged_both_ways() {
    // A real-world schema (no roots, no direction): every type may be sent and
    // received, so narrowing and widening both break.
    let (label, text) = readable_schemas()
        .into_iter()
        .find(|(label, _)| label.ends_with("real/schemas/bower.json"))
        .unwrap();
    let mut document: Value = serde_json::from_str(&text).unwrap();
    let required = document["required"].as_array_mut().unwrap();
    required.push(json!("description"));
    let new = document.to_string();
    let changes =
        breaking::compare(&[(label.clone(), text.clone())], &[(label.clone(), new)]).unwrap();
    let found: Vec<(&str, &str)> = changes.iter().map(|c| (c.rule, c.class.name())).collect();
    assert_eq!(found, [("field-now-required", "wire")], "{changes:#?}");
    assert!(changes[0].message.contains("any party"), "{changes:#?}");
}
