//! The official JSON Schema Test Suite, draft 2020-12, through symgen's own API
//! (`Validator::from_schema`, then `validate_value` and `validate_str` on each case's
//! data): every required test must pass on both paths.
//!
//! The suite is in the repository (`tests/fixtures/json-schema-test-suite/`, MIT, with
//! its licence and the commit it came from in `SOURCE.md`), so this runs with every
//! `cargo test`. `remotes/` is served locally for `http://localhost:1234/`; nothing is
//! fetched over the network. Files under `optional/` are run and reported, not
//! required.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use symgen::validate::{LocalRetriever, Outcome, SchemaOptions, Validator};

#[derive(Deserialize)]
struct Group {
    description: String,
    schema: Value,
    tests: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    description: String,
    data: Value,
    valid: bool,
}

fn suite_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/json-schema-test-suite");
    assert!(
        dir.join("tests/draft2020-12").is_dir() && dir.join("remotes").is_dir(),
        "{} is not the JSON Schema Test Suite (no tests/draft2020-12 or remotes)",
        dir.display()
    );
    dir
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

struct Tally {
    passed: usize,
    /// Cases the compiled checks judged on their own, rightly.
    checked: usize,
    /// Cases they left to the general engine.
    unsure: usize,
    /// Cases where they disagree with the engine: a failure in any file, required or
    /// optional (wherever the checks answer, their verdict must be the engine's).
    wrong_checks: Vec<String>,
    failures: Vec<String>,
}

fn run(files: &[PathBuf], remotes: &Path) -> Tally {
    let mut tally = Tally {
        passed: 0,
        checked: 0,
        unsure: 0,
        wrong_checks: Vec::new(),
        failures: Vec::new(),
    };
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let groups: Vec<Group> =
            serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", file.display()));
        let name = file.file_name().unwrap().to_string_lossy();
        for group in groups {
            let options = SchemaOptions {
                retriever: LocalRetriever::new().map("http://localhost:1234/", remotes),
                base_uri: None,
            };
            let validator = match Validator::from_schema(group.schema, options) {
                Ok(validator) => validator,
                Err(err) => {
                    for case in &group.tests {
                        tally.failures.push(format!(
                            "{name}: {} / {}: schema not compiled: {err}",
                            group.description, case.description
                        ));
                    }
                    continue;
                }
            };
            for case in group.tests {
                // The parsed value takes the general engine; the text takes the checks
                // compiled from the schema first (src/validate/checks/) and the engine
                // where they cannot tell. Both must give the suite's verdict.
                let text = serde_json::to_string(&case.data).unwrap();
                let engine = validator.validate_value(&case.data).outcome != Outcome::Invalid;
                let root = validator.root_names().next().unwrap().to_owned();
                match validator.checks_verdict(&root, &text) {
                    None => tally.unsure += 1,
                    Some(valid) if valid == engine => tally.checked += 1,
                    Some(valid) => tally.wrong_checks.push(format!(
                        "{name}: {} / {}: the compiled checks say {valid}, the engine {engine}",
                        group.description, case.description,
                    )),
                }
                for (path, report) in [
                    ("value", validator.validate_value(&case.data)),
                    ("text", validator.validate_str(&text)),
                ] {
                    let valid = report.outcome != Outcome::Invalid;
                    if valid == case.valid {
                        tally.passed += 1;
                    } else {
                        tally.failures.push(format!(
                            "{name}: {} / {} ({path}): expected {}, got {:?} {:?}",
                            group.description,
                            case.description,
                            if case.valid { "valid" } else { "invalid" },
                            report.outcome,
                            report.violations.first().map(|v| &v.message)
                        ));
                    }
                }
            }
        }
    }
    tally
}

#[test]
fn every_required_draft_2020_12_test_passes() {
    let dir = suite_dir();
    let remotes = dir.join("remotes");
    let tests = dir.join("tests/draft2020-12");

    let required = run(&json_files(&tests), &remotes);
    let optional = run(&json_files(&tests.join("optional")), &remotes);
    let mut format_files = json_files(&tests.join("optional/format"));
    format_files.retain(|f| f.is_file());
    let formats = run(&format_files, &remotes);

    println!(
        "JSON Schema Test Suite draft 2020-12: {} required tests passed, {} failed ({} judged by the compiled checks alone, {} left to the engine); optional: {} passed, {} failed (not required)",
        required.passed,
        required.failures.len(),
        required.checked,
        required.unsure,
        optional.passed + formats.passed,
        optional.failures.len() + formats.failures.len()
    );
    let wrong: Vec<&String> = [&required, &optional, &formats]
        .iter()
        .flat_map(|t| &t.wrong_checks)
        .collect();
    assert!(
        wrong.is_empty(),
        "the compiled checks disagree with the engine: {wrong:#?}"
    );
    assert!(
        required.failures.is_empty(),
        "{} required tests failed:\n{}",
        required.failures.len(),
        required.failures.join("\n")
    );
    assert!(
        required.passed >= 2000,
        "only {} required tests ran",
        required.passed
    );
}
