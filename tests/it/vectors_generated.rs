//! `symgen vectors`: the generated conformance vectors of the seed protocols, judged
//! with serde (the Rust types registered) and with the schema alone, agree; the
//! model's canonical re-encoding equals serde's; generation is deterministic; every
//! message type gets valid and invalid vectors; every fault class is generated.

use std::collections::BTreeSet;

use serde_json::Value;
use symgen::emit::{self, Module};
use symgen::vectors::{self, Generated, Vector};
use symgen_protocols::all as registry;

/// The seed protocols' schemas, as `(path, text)`: the committed files (held current
/// by `symgen check`), where their `$ref`s to each other resolve.
fn texts() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    symgen::schema::render_all(&registry())
        .expect("the seed protocols render")
        .into_iter()
        .map(|file| (dir.join(&file.name).display().to_string(), file.contents))
        .collect()
}

fn generated(with_types: bool) -> Vec<Generated> {
    let texts = texts();
    let modules: Vec<Module> = emit::modules_from_texts(&texts).expect("models");
    let documents: Vec<(String, Value)> = texts
        .iter()
        .map(|(path, text)| (path.clone(), serde_json::from_str(text).unwrap()))
        .collect();
    let protocols = if with_types { registry() } else { Vec::new() };
    vectors::generate(
        &modules,
        &documents,
        &protocols,
        vectors::Settings::default(),
    )
    .expect("vectors")
}

/// One generation with the Rust types registered, shared by the tests that only read
/// it (generating is most of this file's time; `generation_is_deterministic` still
/// compares it with a fresh one).
fn typed() -> &'static [Generated] {
    static TYPED: std::sync::OnceLock<Vec<Generated>> = std::sync::OnceLock::new();
    TYPED.get_or_init(|| generated(true))
}

#[test]
fn the_schema_alone_gives_serdes_verdicts_and_re_encodings() {
    let typed = typed();
    let schema_only = generated(false);
    for (a, b) in typed.iter().zip(&schema_only) {
        assert_eq!(a.stem, b.stem);
        let names = |v: &[vectors::Vector]| v.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a.valid), names(&b.valid), "{}: valid", a.stem);
        assert_eq!(names(&a.invalid), names(&b.invalid), "{}: invalid", a.stem);
        assert_eq!(names(&a.unknown), names(&b.unknown), "{}: unknown", a.stem);
        // What the model says an encoder gives back is what serde gives back.
        let differ: Vec<String> = a
            .valid
            .iter()
            .zip(&b.valid)
            .filter(|(x, y)| x.canonical != y.canonical)
            .map(|(x, y)| {
                format!(
                    "{}:\n  serde {}\n  model {}",
                    x.name,
                    x.canonical.as_ref().unwrap_or(&x.message),
                    y.canonical.as_ref().unwrap_or(&y.message)
                )
            })
            .collect();
        assert!(differ.is_empty(), "{}: {}", a.stem, differ.join("\n"));
    }
}

#[test]
fn generation_is_deterministic() {
    let files = |all: &[Generated]| {
        all.iter()
            .flat_map(Generated::files)
            .map(|f| (f.path, f.contents))
            .collect::<Vec<_>>()
    };
    assert_eq!(files(typed()), files(&generated(true)));
}

#[test]
fn every_message_type_and_fault_class_is_covered() {
    let all = typed();
    let mut faults = BTreeSet::new();
    for one in all {
        assert!(one.skipped.is_empty(), "{}: {:?}", one.stem, one.skipped);
        assert!(
            !one.valid.is_empty() && !one.invalid.is_empty(),
            "{}",
            one.stem
        );
        for vector in &one.invalid {
            faults.insert(vector.fault.clone().unwrap_or_default());
            assert!(
                vector.pointer.is_some() && vector.why.is_some(),
                "{}",
                vector.name
            );
        }
        for vector in one.valid.iter().chain(&one.invalid).chain(&one.unknown) {
            // A vector's text, when given, reads as its message (up to what a JSON
            // value cannot carry).
            if let (Some(text), false) = (&vector.text, vector.fault.is_some()) {
                match serde_json::from_str::<Value>(text) {
                    Ok(read) => {
                        assert!(same_json(&read, &vector.message), "{}: {read}", vector.name)
                    }
                    // Nested past serde_json's limit under a key serde skips: in the
                    // text only, with a stand-in in the message.
                    Err(err) => assert!(
                        err.to_string().starts_with("recursion limit exceeded")
                            && vector.name.ends_with(" nested 240 deep"),
                        "{}: {err}",
                        vector.name
                    ),
                }
            }
        }
    }
    for fault in [
        "missing_required",
        "wrong_type",
        "out_of_range",
        "unknown_enum_value",
        "wrong_const",
        "constraint",
        "encoding",
        "too_deep",
    ] {
        assert!(
            faults.contains(fault),
            "no generated {fault} vector: {faults:?}"
        );
    }
    // Each tag of P1's envelope has a valid vector, and an unknown one is kept whole.
    let p1 = all.iter().find(|g| g.stem == "symposium").unwrap();
    let tags: BTreeSet<&str> = p1
        .valid
        .iter()
        .filter_map(|v| v.message.get("type").and_then(Value::as_str))
        .collect();
    assert!(tags.len() >= 24, "{tags:?}");
    assert!(!p1.unknown.is_empty());
    assert!(
        p1.valid
            .iter()
            .any(|v| v.reply_to.as_deref() == Some("get_selection"))
    );
}

#[test]
fn the_committed_vectors_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    for file in typed().iter().flat_map(Generated::files) {
        let path = root.join(&file.path);
        let on_disk = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("{}: {err}; run `cargo xtask generate`", path.display()));
        assert!(
            on_disk == file.contents,
            "{} is stale; run `cargo xtask generate`",
            path.display()
        );
    }
}

/// JSON equality, numbers by value (`1` is `1.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i128(), y.as_i128()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The vectors of one schema document, `schema` (named `file`), generated as `symgen
/// vectors` would.
fn generated_from(file: &str, schema: &Value) -> Vec<Generated> {
    let texts = [(file.to_owned(), schema.to_string())];
    let modules = emit::modules_from_texts(&texts).expect("a model");
    let documents = [(file.to_owned(), schema.clone())];
    vectors::generate(&modules, &documents, &[], vectors::Settings::default()).expect("vectors")
}

/// Issue 38, item 9: a value two `oneOf` alternatives take is rejected by the schema
/// and read as the first alternative by every decoder; the model warns at the `oneOf`
/// (its "exactly one" alone), so that vector is marked `unenforced`, and a value no
/// alternative takes is not.
#[test]
fn a_value_two_one_of_alternatives_take_is_marked_unenforced_and_no_other() {
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Msg",
        "type": "object",
        "properties": {
            "size": {"oneOf": [{"type": "integer"}, {"type": "number"}]}
        },
        "required": ["size"]
    });
    let generated = generated_from("one-of.schema.json", &schema);
    let at_size: Vec<(String, bool)> = generated[0]
        .invalid
        .iter()
        .filter(|v| v.pointer.as_deref() == Some("/size"))
        .map(|v| (v.name.clone(), v.unenforced))
        .collect();
    // An integer fits both alternatives; a string fits none.
    assert!(
        at_size.iter().any(|(_, unenforced)| *unenforced),
        "{at_size:?}"
    );
    assert!(
        at_size
            .iter()
            .any(|(name, unenforced)| name.contains("wrong type") && !unenforced),
        "{at_size:?}"
    );
}

/// A map whose keys have a rule the generated types do not enforce (`patternProperties`
/// beside `additionalProperties: false`, `propertyNames`): its vectors use keys the rule
/// takes, so a valid vector is valid and a fault below a key is seen there, not as
/// "unexpected key `key`" at the map.
#[test]
fn vectors_under_a_map_with_a_key_rule_use_keys_the_rule_takes() {
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Msg",
        "type": "object",
        "properties": {
            "byId": {
                "type": "object",
                "patternProperties": {"^[a-z]+_id$": {"type": "integer", "minimum": 0}},
                "additionalProperties": false
            },
            "short": {
                "type": "object",
                "propertyNames": {"maxLength": 2},
                "additionalProperties": {"type": "string"}
            }
        },
        "required": ["byId", "short"]
    });
    let generated = generated_from("keys.schema.json", &schema);
    let keys = |v: &vectors::Vector, map: &str| -> Vec<String> {
        v.message
            .pointer(map)
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let all: Vec<&vectors::Vector> = generated[0]
        .valid
        .iter()
        .chain(&generated[0].invalid)
        .collect();
    let rule_keys = all
        .iter()
        .flat_map(|v| keys(v, "/byId"))
        .collect::<Vec<_>>();
    assert!(rule_keys.contains(&"a_id".to_owned()), "{rule_keys:?}");
    // (An invalid vector whose own fault the schema sees is filed as it is.)
    for v in &generated[0].valid {
        for key in keys(v, "/short") {
            assert!(key.chars().count() <= 2, "{}: key {key:?}", v.name);
        }
    }
    let unexpected: Vec<&str> = generated[0]
        .invalid
        .iter()
        .filter(|v| {
            v.why
                .as_deref()
                .is_some_and(|w| w.contains("unexpected key"))
        })
        .map(|v| v.name.as_str())
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:?}");
    // The wrong type below a key is filed at that key, under its new name.
    assert!(
        generated[0]
            .invalid
            .iter()
            .any(|v| v.pointer.as_deref() == Some("/byId/a_id")
                && v.name.starts_with("Msg/byId/a_id")),
        "{:?}",
        generated[0]
            .invalid
            .iter()
            .map(|v| (&v.name, &v.pointer))
            .collect::<Vec<_>>()
    );
}

/// A keyword an older draft spells otherwise (draft-07's `dependencies`, read as
/// 2020-12's `dependentSchemas`) is warned about where the author wrote it, where the
/// validator reports it too, so the invalid vector that breaks only that keyword is
/// marked `unenforced` (found on nodemon's schema: `pollingInterval` without
/// `legacyWatch` was refused by the validator and taken by every language, with the
/// warning at `/dependentSchemas`, a pointer the document does not have).
#[test]
fn a_rewritten_keyword_excuses_the_faults_only_it_finds() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Config",
        "type": "object",
        "properties": {
            "pollingInterval": {"type": "number"},
            "legacyWatch": {"type": "boolean"}
        },
        "dependencies": {"pollingInterval": {"required": ["legacyWatch"]}}
    });
    let generated = generated_from("config.schema.json", &schema);
    let present: Vec<(String, bool)> = generated[0]
        .invalid
        .iter()
        .filter(|v| v.name.ends_with("pollingInterval: present"))
        .map(|v| (v.name.clone(), v.unenforced))
        .collect();
    assert!(!present.is_empty(), "{:?}", generated[0].invalid);
    assert!(
        present.iter().all(|(_, unenforced)| *unenforced),
        "{present:?}"
    );
    // A fault a generated type does find stays enforced.
    assert!(
        generated[0]
            .invalid
            .iter()
            .any(|v| v.name.contains("pollingInterval: a string") && !v.unenforced),
        "{:?}",
        generated[0].invalid
    );
}

/// A vector built with a fault of its own is held to the same rule as one built valid:
/// where the schema refuses it only by keywords the model warned it does not enforce,
/// it is marked `unenforced` (found on ava's schema: `"timeout": "1.5"`, a string given
/// to the number alternative, is taken by the string alternative of every language but
/// for that alternative's unenforced `pattern`; it was filed as a fault every language
/// missed). A fault no alternative takes however its keywords are read stays enforced.
#[test]
fn a_fault_only_an_unenforced_keyword_finds_is_marked_unenforced() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Config",
        "type": "object",
        "properties": {
            "timeout": {
                "anyOf": [{"type": "number"}, {"type": "string", "pattern": "^(\\d+)(s|m)$"}]
            }
        }
    });
    let generated = generated_from("config.schema.json", &schema);
    let at_timeout = marked(&generated[0], |v| v.pointer.as_deref() == Some("/timeout"));
    assert_marked(&at_timeout, "[Number]: a string", true);
    assert_marked(&at_timeout, ": a wrong type", false);
}

/// The invalid vectors `pick` chooses, by name, with whether each is `unenforced`.
fn marked(generated: &Generated, pick: impl Fn(&Vector) -> bool) -> Vec<(String, bool)> {
    generated
        .invalid
        .iter()
        .filter(|v| pick(v))
        .map(|v| (v.name.clone(), v.unenforced))
        .collect()
}

/// Fails unless a vector of `marked` whose name ends with `ending` is `unenforced` as
/// `expected` says.
fn assert_marked(marked: &[(String, bool)], ending: &str, expected: bool) {
    assert!(
        marked
            .iter()
            .any(|(name, unenforced)| name.ends_with(ending) && *unenforced == expected),
        "no vector `…{ending}` marked {expected}: {marked:?}"
    );
}

/// A vector with a text edit the parsed value keeps (`1.0`, `-0` for an integer that
/// takes a whole float) is marked by what the validator finds in that value: where its
/// base breaks only a rule the model warned about (dependabot's `schedule`, required by
/// an unenforced `if`/`then`), every language takes it, and it says so; where the edit
/// breaks an enforced bound (`-0` below a `minimum` of 1), it does not.
#[test]
fn a_text_edit_refused_only_by_an_unenforced_rule_is_marked_unenforced() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Update",
        "type": "object",
        "properties": {
            "days": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1},
            "group": {"type": "string"},
            "schedule": {"type": "string"}
        },
        "allOf": [{
            "if": {"not": {"required": ["group"]}},
            "then": {"required": ["schedule"]}
        }]
    });
    let generated = generated_from("update.schema.json", &schema);
    let update = marked(&generated[0], |_| true);
    assert_marked(&update, "Update/days: 1.0", true);
    assert_marked(&update, "Update/days: -0", true);
    assert_marked(&update, "Update/limit: -0", false);
}

/// A fault-built vector whose base breaks an unenforced keyword too (github-workflow's
/// `jobs: {}` under `minProperties: 1`) is marked by all it breaks: a string given to
/// the boolean alternative, which the string alternative takes but for its unenforced
/// `pattern`, is unenforced; a value no alternative's types take is not.
#[test]
fn a_fault_beside_an_unenforced_base_is_marked_by_all_it_breaks() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Workflow",
        "type": "object",
        "properties": {
            "jobs": {"type": "object", "minProperties": 1},
            "flag": {"oneOf": [{"type": "boolean"}, {"type": "string", "pattern": "^\\$\\{\\{"}]}
        },
        "required": ["jobs"]
    });
    let generated = generated_from("workflow.schema.json", &schema);
    let at_flag = marked(&generated[0], |v| v.name.contains("/flag"));
    assert_marked(&at_flag, "[Boolean]: a string", true);
    assert_marked(&at_flag, ": a number", false);
}

/// A keyword the validator reaches only by way of a schema the model warned it does not
/// enforce is held to that warning, though the keyword is written elsewhere: a `$ref`
/// from an unenforced `else` to a definition (dependabot's `package-ecosystem-values`,
/// github-action's `outputs`). The failure's location is the definition's; its way
/// from the root passes the `else`. Reached from an enforced place, the same definition
/// stays enforced.
#[test]
fn a_keyword_reached_through_an_unenforced_branch_is_marked_unenforced() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Action",
        "type": "object",
        "properties": {
            "outputs": {},
            "kind": {"$ref": "#/definitions/Kind"}
        },
        "if": {"properties": {"beta": {"const": true}}, "required": ["beta"]},
        "else": {"properties": {"outputs": {"$ref": "#/definitions/Outputs"}}},
        "definitions": {
            "Outputs": {"type": "object"},
            "Kind": {"enum": ["a", "b"]}
        }
    });
    let generated = generated_from("action.schema.json", &schema);
    let all = marked(&generated[0], |_| true);
    assert_marked(&all, "Action/outputs: a number", true);
    assert_marked(&all, "Action/kind: \"a\" misspelled", false);
}

/// The same for a root the validator compiles inside a wrapper (`{"$ref": root}`): a
/// definition the document's root `oneOf` names (pyrseas' `db`). The way the engine
/// reports starts at the wrapper, and is read from the root's own schema.
#[test]
fn a_keyword_reached_through_an_unenforced_branch_of_a_definition_root_is_marked() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "oneOf": [{"$ref": "#/definitions/Action"}, {"$ref": "#/definitions/Note"}],
        "definitions": {
            "Action": {
                "type": "object",
                "properties": {"outputs": {}, "kind": {"$ref": "#/definitions/Kind"}},
                "required": ["kind"],
                "if": {"properties": {"beta": {"const": true}}, "required": ["beta"]},
                "else": {"properties": {"outputs": {"$ref": "#/definitions/Outputs"}}}
            },
            "Note": {"type": "string"},
            "Outputs": {"type": "object"},
            "Kind": {"enum": ["a", "b"]}
        }
    });
    let generated = generated_from("actions.schema.json", &schema);
    let all = marked(&generated[0], |_| true);
    assert_marked(&all, "Action/outputs: a number", true);
    assert_marked(&all, "Action/kind: \"a\" misspelled", false);
}

/// A base value an alternative takes but for an unenforced keyword of its own
/// alternatives (venvplus' `file-path`: a `oneOf` of a `$ref` to `{type: string,
/// anyOf: [{pattern}]}` and an array of it) is mended to one the pattern takes, so the
/// vectors built on it are valid or fail only where their fault is.
#[test]
fn a_value_refused_only_inside_an_alternatives_own_alternatives_is_mended() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "additionalProperties": false,
        "required": ["path"],
        "properties": {
            "path": {"oneOf": [
                {"$ref": "#/definitions/P"},
                {"type": "array", "items": {"$ref": "#/definitions/P"}}
            ]},
            "name": {"type": "string"}
        },
        "definitions": {"P": {"type": "string", "anyOf": [{"pattern": "^.*\\.blf$"}]}}
    });
    let generated = generated_from("paths.schema.json", &schema);
    let valid: Vec<(&str, &Value)> = generated[0]
        .valid
        .iter()
        .map(|v| (v.name.as_str(), &v.message))
        .collect();
    for (name, path) in [
        ("Msg: minimal", serde_json::json!(".blf")),
        ("Msg/path[Array]: one item", serde_json::json!([".blf"])),
        ("Msg/name: present", serde_json::json!(".blf")),
    ] {
        assert!(
            valid.iter().any(|(n, m)| *n == name && m["path"] == path),
            "no valid `{name}` with path {path}: {valid:?}"
        );
    }
    let on_path = marked(&generated[0], |v| v.name.starts_with("Msg/name"));
    assert!(!on_path.is_empty(), "no invalid vector of `name`");
    assert!(
        on_path.iter().all(|(_, unenforced)| !unenforced),
        "{on_path:?}"
    );
}

/// An unknown key in a closed object is the vector's fault, where the validator names
/// it, even when the object's base breaks a rule the model does not enforce first (a
/// field's `pattern`, here one with a lookahead, which the kit cannot mend): every
/// decoder names the key (bmml, prometheus' test files).
#[test]
fn an_unknown_key_is_named_before_an_unenforced_rule_of_its_object() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "additionalProperties": false,
        "required": ["when"],
        "properties": {"when": {"type": "string", "pattern": "^(?=[0-9])[0-9]+d$"}}
    });
    let generated = generated_from("closed.schema.json", &schema);
    let unknown = generated[0]
        .invalid
        .iter()
        .find(|v| v.name == "Msg: unknown key \"x-unknown-key\"")
        .expect("the unknown key's vector");
    assert_eq!(unknown.pointer.as_deref(), Some("/x-unknown-key"));
    assert!(!unknown.unenforced);
}

/// A `pattern` of optional parts beside `minLength: 1` (prometheus' durations) is
/// mended to a text that takes each part once: the empty string, its shortest match,
/// breaks the length, and padding it breaks the pattern.
#[test]
fn a_pattern_of_optional_parts_beside_a_minimum_length_is_mended() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "required": ["every"],
        "properties": {"every": {"type": "string", "minLength": 1, "pattern": "^([0-9]+h)?([0-9]+m)?$"}}
    });
    let generated = generated_from("durations.schema.json", &schema);
    let minimal = generated[0]
        .valid
        .iter()
        .find(|v| v.name == "Msg: minimal")
        .expect("a valid minimal vector");
    assert_eq!(minimal.message, serde_json::json!({"every": "0h0m"}));
}

/// A warning's place is read whole where a key of it holds `#` (azure-iot-edge's
/// `patternProperties` key `^[^\.\$# ]+$`): the unenforced `pattern` below that key is
/// mended like any other, not filed as a rule every language breaks.
#[test]
fn a_warning_below_a_key_with_a_hash_covers_its_keyword() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {"routes": {
            "type": "object",
            "patternProperties": {"^[^.# ]+$": {"type": "string", "pattern": "^.+$"}},
            "additionalProperties": false
        }}
    });
    let generated = generated_from("routes.schema.json", &schema);
    let refused: Vec<&str> = generated[0]
        .invalid
        .iter()
        .filter(|v| {
            v.why
                .as_deref()
                .is_some_and(|why| why.contains("does not match"))
        })
        .map(|v| v.name.as_str())
        .collect();
    assert!(
        refused.is_empty(),
        "refused by the pattern alone: {refused:?}"
    );
    assert!(
        generated[0]
            .valid
            .iter()
            .any(|v| v.message == serde_json::json!({"routes": {"key": "a"}})),
        "no value mended to the pattern"
    );
}

/// A fault given as the whole value of one alternative of an untagged union, which
/// another alternative takes (a string for `if[Boolean]`, github-workflow's `if`), is
/// no fault: where the rest of the message breaks only unenforced rules (`jobs: {}`
/// under `minProperties: 1`), the vector is `unenforced`, so every language is held to
/// accepting it. A value no alternative takes is still a fault.
#[test]
fn a_fault_another_alternative_takes_beside_an_unenforced_base_is_marked_unenforced() {
    let schema = serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "required": ["jobs"],
        "properties": {
            "jobs": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}},
            "if": {"anyOf": [{"type": "boolean"}, {"type": "string"}]}
        }
    });
    let generated = generated_from("workflow.schema.json", &schema);
    let all = marked(&generated[0], |v| v.name.starts_with("Msg/if"));
    assert_marked(&all, "Msg/if[Boolean]: a string", true);
    assert_marked(&all, "Msg/if: a wrong type", false);
}
