//! `symgen validate` end to end: output lines, summary, exit codes, formats, replies,
//! user schemas.

use crate::support as cli;

use std::path::Path;
use std::process::Output;

use cli::{stderr, stdout};
use serde_json::Value;

/// `symgen ARGS` run in `dir`.
fn symgen(args: &[&str], dir: &Path) -> Output {
    cli::run(dir, args)
}

const SENDER: &str = r#""sender":{"workingDirectory":"/tmp"}"#;

fn log(id: u32, level: &str) -> String {
    format!(
        r#"{{"type":"log","id":"{id}",{SENDER},"payload":{{"level":"{level}","message":"hi"}}}}"#
    )
}

#[test]
fn a_mixed_stream_gets_one_line_per_problem_a_summary_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        log(1, "info"),
        log(2, "loud"),
        format!(r#"{{"type":"frobnicate","id":"3",{SENDER},"payload":{{}}}}"#),
        "this is not json".to_owned(),
        String::new(),
        format!(
            r#"{{"type":"spawn_taskspace","id":"5",{SENDER},"payload":{{"project_path":"/p","taskspace_uuid":"u","name":7,"task_description":"d","initial_prompt":"go"}}}}"#
        ),
        log(6, "warn"),
    ];
    std::fs::write(dir.path().join("bus.jsonl"), lines.join("\n") + "\n").unwrap();
    let out = symgen(
        &["validate", "--protocol", "symposium", "bus.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // Columns are where the offending value starts.
    let loud = lines[1].find("\"loud\"").unwrap() + 1;
    let seven = lines[5].find(":7,").unwrap() + 2;
    assert_eq!(
        stdout(&out),
        format!(
            "bus.jsonl:2:{loud}: log /payload/level: must be one of \"debug\", \"info\", \"warn\", \"error\"; found \"loud\"\n\
             bus.jsonl:3:1: frobnicate: note: unknown type, not a tag of IpcMessage (rule R4: not an error)\n\
             bus.jsonl:4:1: not JSON: expected a JSON value, found `this`\n\
             bus.jsonl:6:{seven}: spawn_taskspace /payload/name: must be a string; found number 7\n\
             summary: 6 message(s): 2 valid, 3 invalid, 1 unknown\n  \
         (untyped): 1 invalid\n  \
         frobnicate: 1 unknown\n  \
         log: 2 valid, 1 invalid\n  \
         spawn_taskspace: 1 invalid\n"
        )
    );
}

#[test]
fn all_valid_exits_0_and_unknown_types_are_not_failures() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = format!(r#"{{"type":"future_thing","id":"9",{SENDER},"payload":{{"x":1}}}}"#);
    std::fs::write(
        dir.path().join("ok.jsonl"),
        format!("{}\n{unknown}\n", log(1, "debug")),
    )
    .unwrap();
    let out = symgen(&["validate", "-p", "P1", "ok.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("2 message(s): 1 valid, 0 invalid, 1 unknown"));
}

#[test]
fn usage_and_io_errors_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.jsonl"), log(1, "info") + "\n").unwrap();
    std::fs::write(dir.path().join("bad-schema.json"), "{ not json").unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["validate", "--protocol", "P9", "a.jsonl"],
            "unknown protocol `P9`",
        ),
        (
            &["validate", "--protocol", "P1", "missing.jsonl"],
            "missing.jsonl",
        ),
        (
            &[
                "validate",
                "--protocol",
                "P1",
                "--reply-to",
                "nope",
                "a.jsonl",
            ],
            "replies to `nope`: no request has this tag",
        ),
        (
            &[
                "validate",
                "--protocol",
                "P1",
                "--reply-to",
                "log",
                "a.jsonl",
            ],
            "replies to `log`: it expects no reply",
        ),
        (
            &["validate", "--schema", "bad-schema.json", "a.jsonl"],
            "bad-schema.json: unusable schema: invalid JSON",
        ),
        (
            &["validate", "--protocol", "P5", "--root", "Nope", "a.jsonl"],
            "no root or definition `Nope`; the roots are JsonRpcRequest, JsonRpcResponse, PortFile",
        ),
    ];
    for (args, expected) in cases {
        let out = symgen(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("symgen: error: ") && err.contains(expected),
            "{args:?}: {err}"
        );
    }
    let out = symgen(&["validate", "a.jsonl"], dir.path());
    assert_eq!(
        out.status.code(),
        Some(2),
        "no --protocol or --schema is a usage error"
    );
    // Reporting no violation would pass a message it judged invalid: refused.
    let out = symgen(
        &["validate", "-p", "P1", "--max-errors", "0", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "--max-errors 0: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--max-errors"), "{}", stderr(&out));
}

#[test]
fn json_output_has_one_record_per_problem_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.jsonl"),
        format!("{}\n{}\n", log(1, "info"), log(2, "loud")),
    )
    .unwrap();
    let out = symgen(
        &["validate", "-p", "symposium", "--format", "json", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["line"], 2);
    assert_eq!(records[0]["type"], "log");
    assert_eq!(records[0]["violations"][0]["pointer"], "/payload/level");
    assert_eq!(records[0]["violations"][0]["kind"], "unknown_enum_value");
    let loud = log(2, "loud").find("\"loud\"").unwrap() + 1;
    assert_eq!(records[0]["violations"][0]["column"], loud);
    assert_eq!(records[1]["summary"]["invalid"], 1);
    assert_eq!(records[1]["summary"]["types"]["log"]["valid"], 1);
}

#[test]
fn a_pretty_printed_document_is_one_message_located_by_its_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let doc = "{\n  \"port\": 70000,\n  \"pid\": 1,\n  \"timestamp\": 1\n}\n";
    std::fs::write(dir.path().join("port.json"), doc).unwrap();
    let out = symgen(&["validate", "-p", "ck3lens", "port.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("port.json:2:11: /port: must be <= 65535; found 70000\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn replies_are_checked_against_the_request_type() {
    let dir = tempfile::tempdir().unwrap();
    let ok = format!(
        r#"{{"type":"response","id":"1",{SENDER},"payload":{{"success":true,"data":{{"newTaskspaceUuid":"u"}}}}}}"#
    );
    let bad = format!(
        r#"{{"type":"response","id":"2",{SENDER},"payload":{{"success":true,"data":{{"newTaskspaceUuid":5}}}}}}"#
    );
    let failed = format!(
        r#"{{"type":"response","id":"3",{SENDER},"payload":{{"success":false,"error":"Project not found"}}}}"#
    );
    std::fs::write(
        dir.path().join("r.jsonl"),
        format!("{ok}\n{bad}\n{failed}\n"),
    )
    .unwrap();
    let out = symgen(
        &[
            "validate",
            "-p",
            "P1",
            "--reply-to",
            "spawn_taskspace",
            "r.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let five = bad.find(":5}").unwrap() + 2;
    assert!(
        stdout(&out).starts_with(&format!(
            "r.jsonl:2:{five}: response /payload/data/newTaskspaceUuid: must be a string; found number 5 (reply to `spawn_taskspace`)\n"
        )),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("2 valid, 1 invalid"));

    let result = r#"{"jsonrpc":"2.0","id":1,"result":{"status":"ok","timestamp":-5}}"#;
    std::fs::write(dir.path().join("p5.jsonl"), format!("{result}\n")).unwrap();
    let out = symgen(
        &["validate", "-p", "P5", "--reply-to", "ping", "p5.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("/result/timestamp: must be >= 0; found -5"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_user_schema_with_a_relative_ref_validates_with_tagged_union_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("shapes.json"),
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema",
            "oneOf": [
              {"properties": {"kind": {"const": "circle"}, "r": {"$ref": "defs.json#/$defs/length"}}, "required": ["kind", "r"]},
              {"properties": {"kind": {"const": "square"}, "side": {"$ref": "defs.json#/$defs/length"}}, "required": ["kind", "side"]}
            ]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("defs.json"),
        r#"{"$defs": {"length": {"type": "number", "exclusiveMinimum": 0}}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("in.jsonl"),
        "{\"kind\":\"circle\",\"r\":2}\n{\"kind\":\"square\",\"side\":-1}\n{\"kind\":\"blob\"}\n",
    )
    .unwrap();
    let out = symgen(
        &["validate", "--schema", "shapes.json", "in.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).lines().take(2).collect::<Vec<_>>(),
        [
            "in.jsonl:2:25: square /side: must be > 0; found -1",
            "in.jsonl:3:9: blob /kind: unknown `kind` \"blob\": must be \"circle\" or \"square\"",
        ]
    );
}

#[test]
fn root_restricts_the_judgement_to_one_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.jsonl"),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
    )
    .unwrap();
    let any = symgen(&["validate", "-p", "P5", "p.jsonl"], dir.path());
    assert_eq!(any.status.code(), Some(0));
    let port = symgen(
        &["validate", "-p", "P5", "--root", "PortFile", "p.jsonl"],
        dir.path(),
    );
    assert_eq!(port.status.code(), Some(1));
    assert!(
        stdout(&port).contains("/port: required key `port` is missing"),
        "{}",
        stdout(&port)
    );
}

#[test]
fn an_unknown_tag_is_named_as_not_a_tag_of_any_root_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.jsonl"), "{\"type\":\"nope\"}\n").unwrap();
    let note = |args: &[&str]| {
        let out = symgen(args, dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).lines().next().unwrap_or_default().to_owned()
    };
    // P4 has two roots, both tagged on `type`; neither knows `nope`.
    assert_eq!(
        note(&["validate", "-p", "P4", "s.jsonl"]),
        "s.jsonl:1:1: nope: note: unknown type, not a tag of ServerToWorker or WorkerToServer \
         (rule R4: not an error)"
    );
    assert_eq!(
        note(&[
            "validate",
            "-p",
            "P4",
            "--root",
            "WorkerToServer",
            "s.jsonl"
        ]),
        "s.jsonl:1:1: nope: note: unknown type, not a tag of WorkerToServer (rule R4: not an error)"
    );
}

/// A schema that is a bag of definitions (its root asserts nothing), one of them a
/// union of requests tagged on `method`: real schemas often look like this.
const BAG: &str = r##"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "Ping": {"type": "object", "properties": {"method": {"const": "ping"}}, "required": ["method"]},
    "Call": {"type": "object", "properties": {"method": {"const": "call"}, "name": {"type": "string"}}, "required": ["method", "name"]},
    "Request": {"oneOf": [{"$ref": "#/$defs/Ping"}, {"$ref": "#/$defs/Call"}]}
  }
}"##;

#[test]
fn a_bag_of_definitions_warns_and_any_definition_can_be_the_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bag.json"), BAG).unwrap();
    let lines = [
        r#"{"method":"ping"}"#,
        r#"{"method":"call","name":7}"#,
        r#"{"method":"frob"}"#,
        r#"[1]"#,
    ];
    std::fs::write(dir.path().join("in.jsonl"), lines.join("\n") + "\n").unwrap();

    // The root accepts everything: every line is valid, and the CLI says why.
    let out = symgen(
        &["validate", "--schema", "bag.json", "in.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "warning: the root `schema` accepts a value of every JSON type, so every message will be valid; choose one with --root: Ping, Call, Request"
        ),
        "{}",
        stderr(&out)
    );

    // A definition by name: the union dispatches on its tag.
    for root in ["Request", "#/$defs/Request"] {
        let out = symgen(
            &[
                "validate", "--schema", "bag.json", "--root", root, "in.jsonl",
            ],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stderr(&out), "", "{root}");
        let text = stdout(&out);
        assert!(
            text.contains("in.jsonl:2:25: call /name: must be a string; found number 7"),
            "{text}"
        );
        assert!(text.contains("in.jsonl:3:"), "{text}");
        assert!(text.contains("in.jsonl:4:"), "{text}");
        assert!(
            text.contains("summary: 4 message(s): 1 valid, 3 invalid, 0 unknown"),
            "{text}"
        );
    }

    // A name that is neither a root nor a definition: a usage error naming both.
    let out = symgen(
        &[
            "validate", "--schema", "bag.json", "--root", "Pong", "in.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "no root or definition `Pong`; the roots are schema; the definitions are Ping, Call, Request"
        ),
        "{}",
        stderr(&out)
    );
    let out = symgen(
        &[
            "validate",
            "--schema",
            "bag.json",
            "--root",
            "#/$defs/Nope",
            "in.jsonl",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nothing at /$defs/Nope"),
        "{}",
        stderr(&out)
    );
}

/// Definition names are JSON keys, not URI text: a space, a `%` or a non-ASCII letter
/// in a name still selects that definition (its pointer is percent-encoded in the
/// reference the engine follows).
#[test]
fn a_definition_named_with_characters_a_uri_escapes_can_be_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let schema = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"A%B": {"type": "integer"}, "C D": {"type": "string"}, "ü": {"type": "boolean"}}}"#;
    std::fs::write(dir.path().join("s.json"), schema).unwrap();
    std::fs::write(dir.path().join("in.jsonl"), "1\n\"x\"\ntrue\n").unwrap();
    for (root, valid_line) in [("A%B", 1), ("C D", 2), ("ü", 3)] {
        let out = symgen(
            &["validate", "--schema", "s.json", "--root", root, "in.jsonl"],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(1), "{root}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("summary: 3 message(s): 1 valid, 2 invalid, 0 unknown"),
            "{root}: {text}"
        );
        assert!(
            !text.contains(&format!("in.jsonl:{valid_line}:")),
            "{root}: {text}"
        );
    }
}

#[test]
fn a_pointer_outside_the_definitions_can_be_the_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("int.json"), r#"{"type": "integer"}"#).unwrap();
    let inner = r##"{"type": "object", "required": ["a"],
        "properties": {"a": {"$ref": "REF"}, "self": {"$ref": "#/properties/inner"}}}"##;
    let schemas = [
        // 2020-12, a reference to a sibling file (resolved next to the schema).
        (
            "rel.json",
            format!(
                r#"{{"properties": {{"inner": {}}}}}"#,
                inner.replace("REF", "int.json")
            ),
        ),
        // Draft 7 with its own `$id` and `definitions`.
        (
            "d7.json",
            format!(
                r##"{{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://example.com/d7.json",
                    "properties": {{"inner": {}}}, "definitions": {{"A": {{"type": "integer"}}}}}}"##,
                inner.replace("REF", "#/definitions/A")
            ),
        ),
    ];
    std::fs::write(
        dir.path().join("in.jsonl"),
        "{\"a\": 1, \"self\": {\"a\": 2}}\n{\"a\": \"x\"}\n{\"self\": {}}\n",
    )
    .unwrap();
    for (file, schema) in schemas {
        std::fs::write(dir.path().join(file), schema).unwrap();
        let out = symgen(
            &[
                "validate",
                "--schema",
                file,
                "--root",
                "#/properties/inner",
                "in.jsonl",
            ],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(1), "{file}: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            "in.jsonl:2:7: /a: must be an integer; found \"x\"\n\
             in.jsonl:3:1: /a: required key `a` is missing\n\
             in.jsonl:3:10: /self/a: required key `a` is missing\n\
             summary: 3 message(s): 1 valid, 2 invalid, 0 unknown\n  \
             #/properties/inner: 1 valid, 2 invalid\n",
            "{file}"
        );
    }
}
