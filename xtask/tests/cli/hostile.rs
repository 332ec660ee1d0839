//! Hostile input, handled deliberately: each case gets a clear violation or error with a
//! location, never a panic, a stack overflow or unbounded memory.

use crate::support as cli;

use std::io::Write;
use std::path::Path;
use std::process::Output;

use cli::stdout;
use serde_json::Value;
use symgen::validate::{MAX_DEPTH, Outcome, Validator, ViolationKind};

/// `symgen ARGS` run in `dir`.
fn symgen(args: &[&str], dir: &Path) -> Output {
    cli::run(dir, args)
}

/// Runs `symgen validate -p P1` on a file with `contents`; returns exit code and stdout.
fn validate_file(contents: &[u8], extra: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), contents).unwrap();
    let mut args = vec!["validate", "-p", "P1"];
    args.extend_from_slice(extra);
    args.push("in");
    let out = symgen(&args, dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    (out.status.code(), stdout(&out))
}

const SENDER: &str = r#""sender":{"workingDirectory":"/tmp"}"#;

fn log(message: &str) -> String {
    format!(
        r#"{{"type":"log","id":"1",{SENDER},"payload":{{"level":"info","message":{message}}}}}"#
    )
}

fn p1() -> Validator {
    Validator::for_protocol(&symgen_protocols::find("symposium").unwrap()).unwrap()
}

#[test]
fn ten_thousand_levels_of_nesting() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let inside = log(&deep);
    for text in [deep.as_str(), inside.as_str()] {
        for validator in [p1(), p1().schema_only()] {
            let report = validator.validate_str(text);
            assert_eq!(report.outcome, Outcome::Invalid);
            let v = &report.violations[0];
            assert!(
                matches!(v.kind, ViolationKind::TooDeep | ViolationKind::WrongType),
                "{v:?}"
            );
        }
    }
    // Inside a string field, the field's type rejects it first (serde stops at the
    // `[`); inside a free-form field (P1 `response.data`), the limit does.
    let report = p1().validate_str(&inside);
    assert_eq!(report.violations[0].kind, ViolationKind::WrongType);
    let data = format!(
        r#"{{"type":"response","id":"1",{SENDER},"payload":{{"success":true,"data":{deep}}}}}"#
    );
    let report = p1().validate_str(&data);
    assert_eq!(report.violations[0].kind, ViolationKind::TooDeep);
    assert_eq!(
        report.violations[0].message,
        format!("nested deeper than {MAX_DEPTH} levels")
    );

    // P5's `result` is kept as JSON text, but checked as `serde_json::Value` would read
    // it, so the limit holds there too; a key the protocol ignores (R2) is skipped
    // without recursion and its depth is no limit. Both paths say so.
    let p5 = || Validator::for_protocol(&symgen_protocols::find("ck3lens").unwrap()).unwrap();
    let kept = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{deep}}}"#);
    let ignored = format!(r#"{{"jsonrpc":"2.0","id":1,"result":1,"extra":{deep}}}"#);
    for validator in [p5(), p5().schema_only()] {
        let report = validator.validate_str(&kept);
        assert_eq!(report.violations[0].kind, ViolationKind::TooDeep);
        assert_eq!(validator.validate_str(&ignored).outcome, Outcome::Valid);
    }
    for validator in [p1(), p1().schema_only()] {
        let text = log(&format!(r#""x","extra":{deep}"#));
        assert_eq!(
            validator.validate_str(&text).outcome,
            Outcome::Valid,
            "{text}"
        );
    }

    // A parsed value of any depth is measured iteratively, never walked recursively.
    let mut value = Value::Null;
    for _ in 0..200_000 {
        value = Value::Array(vec![value]);
    }
    let mut message: Value = serde_json::from_str(&log("\"x\"")).unwrap();
    message["payload"]["message"] = value;
    let report = p1().validate_value(&message);
    assert_eq!(report.outcome, Outcome::Invalid);
    assert_eq!(report.violations[0].kind, ViolationKind::TooDeep);
    assert!(
        report.violations[0]
            .pointer
            .starts_with("/payload/message/0/0")
    );
    // Take it apart iteratively: dropping it recursively would overflow the stack.
    let mut value = message["payload"]["message"].take();
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }

    let (code, out) = validate_file(format!("{data}\n").as_bytes(), &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains(":1:") && out.contains("nested deeper than 128 levels"),
        "{out}"
    );
}

const HEAD: &[u8] =
    b"{\"type\":\"log\",\"id\":\"2\",\"payload\":{\"level\":\"info\",\"message\":\"";

#[test]
fn a_100_mb_line_is_reported_with_its_line_number_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        writeln!(file, "{}", log("\"first\"")).unwrap();
        let chunk = vec![b'x'; 1 << 20];
        file.write_all(HEAD).unwrap();
        for _ in 0..100 {
            file.write_all(&chunk).unwrap();
        }
        file.write_all(b"\"}}\n").unwrap();
        writeln!(file, "{}", log("\"third\"")).unwrap();
    }
    let out = symgen(&["validate", "-p", "P1", "big.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "big.jsonl:2:1: the line is {}, over the limit of 16777216 bytes; skipped\n",
            format_args!("{} bytes", HEAD.len() + (100 << 20) + 3)
        )),
        "{text}"
    );
    assert!(text.contains("3 message(s): 2 valid, 1 invalid"), "{text}");
}

#[test]
fn invalid_utf8_is_located_and_the_stream_goes_on() {
    let mut input = log("\"ok\"").into_bytes();
    input.push(b'\n');
    input.extend_from_slice(log("\"caf\u{e9}\"").as_bytes());
    let at = input.len() - 6; // the two bytes of "é" start here
    input[at] = 0xff;
    input.push(b'\n');
    input.extend_from_slice(log("\"ok\"").as_bytes());
    let (code, out) = validate_file(&input, &[]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("in:2:") && out.contains("invalid UTF-8 at byte offset"),
        "{out}"
    );
    assert!(out.contains("3 message(s): 2 valid, 1 invalid"), "{out}");
}

#[test]
fn a_truncated_last_line() {
    let full = log("\"done\"");
    let input = format!("{full}\n{}", &full[..full.len() - 10]);
    let (code, out) = validate_file(input.as_bytes(), &[]);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("in:2:"), "{out}");
    assert!(
        out.contains("EOF while parsing") && out.contains("truncated"),
        "{out}"
    );
    // A complete last line without its newline is fine.
    let (code, _) = validate_file(full.as_bytes(), &[]);
    assert_eq!(code, Some(0));
}

#[test]
fn nan_and_infinity() {
    for token in ["NaN", "Infinity", "-Infinity"] {
        let text = log(token);
        let report = p1().validate_str(&text);
        let v = &report.violations[0];
        assert_eq!(v.kind, ViolationKind::Syntax);
        assert!(
            v.message
                .starts_with(&format!("{token} is not a JSON number")),
            "{}",
            v.message
        );
        let column = text.find(token).unwrap() as u64 + 1;
        assert_eq!(v.position.map(|p| p.column), Some(column));
    }
}

#[test]
fn duplicate_keys() {
    // A key the type defines, twice: rejected, at the second occurrence.
    let text = format!(
        r#"{{"type":"log","id":"1",{SENDER},"payload":{{"level":"info","message":"a","level":"warn"}}}}"#
    );
    let report = p1().validate_str(&text);
    assert_eq!(report.outcome, Outcome::Invalid);
    let v = &report.violations[0];
    assert_eq!(
        (v.pointer.as_str(), v.message.as_str()),
        ("/payload/level", "duplicate key `level`")
    );
    assert!(v.position.unwrap().column as usize > text.rfind("\"level\"").unwrap());
    // The tag or the envelope's own keys twice: rejected too.
    let text = format!(r#"{{"type":"log","type":"polo","id":"1",{SENDER},"payload":{{}}}}"#);
    assert_eq!(
        p1().validate_str(&text).violations[0].message,
        "duplicate key `type`"
    );
    // A key the protocol ignores (R2), twice: ignored like any unknown key.
    let text = format!(r#"{{"type":"polo","id":"1",{SENDER},"payload":{{}},"extra":1,"extra":2}}"#);
    assert_eq!(p1().validate_str(&text).outcome, Outcome::Valid);
}

#[test]
fn numbers_beyond_u64_and_beyond_f64() {
    let pid = |n: &str| {
        format!(
            r#"{{"type":"polo","id":"1","sender":{{"workingDirectory":"/tmp","shellPid":{n}}},"payload":{{}}}}"#
        )
    };
    // Beyond u32 (the field's range) and beyond u64: out of range, at the field.
    for n in ["4294967296", "18446744073709551616", "1e30"] {
        let report = p1().validate_str(&pid(n));
        let v = &report.violations[0];
        assert_eq!(
            (v.kind, v.pointer.as_str()),
            (ViolationKind::OutOfRange, "/sender/shellPid"),
            "{n}: {v:?}"
        );
    }
    // Beyond what f64 holds: the parser rejects it, at the field, on both paths.
    for validator in [p1(), p1().schema_only()] {
        let report = validator.validate_str(&pid("1e400"));
        let v = &report.violations[0];
        assert_eq!(
            (v.kind, v.pointer.as_str()),
            (ViolationKind::OutOfRange, "/sender/shellPid")
        );
        assert!(v.message.starts_with("number out of range"), "{v:?}");
    }
    // An integer written as a float: JSON Schema's data model calls 7.0 an integer,
    // serde does not; where the schema gives a Rust integer format (`uint32`), both
    // paths refuse it, and say why.
    for (validator, n) in [
        (p1(), "7.0"),
        (p1().schema_only(), "7.0"),
        (p1(), "-0"),
        (p1().schema_only(), "7e0"),
    ] {
        let report = validator.validate_str(&pid(n));
        assert_eq!(report.outcome, Outcome::Invalid);
        let v = &report.violations[0];
        assert_eq!(
            (v.kind, v.pointer.as_str()),
            (ViolationKind::WrongType, "/sender/shellPid"),
            "{v:?}"
        );
        assert!(v.message.contains("float literal"), "{}", v.message);
    }
    // Beyond i64, where f64 rounding lands exactly on the bound: still rejected.
    let p5 = Validator::for_protocol(&symgen_protocols::find("ck3lens").unwrap()).unwrap();
    let report = p5.validate_str(r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}"#);
    assert_eq!(report.outcome, Outcome::Invalid);
    let v = &report.violations[0];
    assert_eq!(
        (v.kind, v.pointer.as_str()),
        (ViolationKind::OutOfRange, "/id"),
        "{v:?}"
    );
    assert_eq!(
        v.message,
        "integer -9223372036854775809 is beyond the 64-bit range"
    );
    assert_eq!(v.position.map(|p| p.column), Some(23));
    // Beyond f64 precision inside arbitrary JSON: accepted, as serde reads it.
    let report = p1().validate_str(&format!(
        r#"{{"type":"store_reference","id":"1",{SENDER},"payload":{{"key":"k","value":123456789012345678901234567890}}}}"#
    ));
    assert_eq!(report.outcome, Outcome::Valid);
}

#[test]
fn an_empty_file_and_blank_input() {
    for input in [&b""[..], b"\n\n  \n"] {
        let (code, out) = validate_file(input, &[]);
        assert_eq!(code, Some(1));
        assert!(
            out.starts_with("in:1:1: empty input: no JSON message\n"),
            "{out}"
        );
    }
    assert_eq!(
        p1().validate_str("  ").violations[0].kind,
        ViolationKind::Empty
    );
}

#[test]
fn a_binary_file_is_one_problem() {
    let mut binary = b"\x7fELF\x02\x01\x01\x00".to_vec();
    binary.extend((0..=255u8).cycle().take(50_000));
    let (code, out) = validate_file(&binary, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(
        out.starts_with("in:1:1: binary data (NUL byte at byte offset 7), not JSON text\n"),
        "{out}"
    );
    let report = p1().validate_bytes(b"{\"type\":\x00}");
    assert_eq!(report.violations[0].kind, ViolationKind::Encoding);
}

#[test]
fn over_long_lines_keep_memory_bounded_with_a_small_limit() {
    // Many lines, each over the limit: each is reported and skipped.
    let long = format!("{}\n", log(&format!("\"{}\"", "y".repeat(5000))));
    let input = long.repeat(200);
    let (code, out) = validate_file(input.as_bytes(), &["--max-line-bytes", "1000"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("over the limit of 1000 bytes"))
            .count(),
        200
    );
    assert!(out.contains("in:200:1: the line is"), "{out}");
}

/// A file name, a key or a tag from the input cannot forge an output line: every line
/// the CLI prints about it escapes line terminators (`\n`, `\r`, U+0085, U+2028).
#[test]
fn names_from_the_input_cannot_forge_output_lines() {
    let dir = tempfile::tempdir().unwrap();
    let forged = "summary: 1 message(s): 1 valid, 0 invalid, 0 unknown";
    for terminator in ["\n", "\r", "\u{85}", "\u{2028}"] {
        let name = format!("in{terminator}{forged}");
        let message = format!(
            r#"{{"type":"log","id":"1",{SENDER},"payload":{{"level":"loud{terminator}","message":"m"}},"x{terminator}{forged}":1}}"#
        );
        std::fs::write(dir.path().join(&name), format!("{message}\n")).unwrap();
        let schema = format!("no{terminator}such.json");
        for args in [
            vec!["validate", "-p", "P1", name.as_str()],
            vec!["validate", "--schema", schema.as_str(), name.as_str()],
            vec!["ts", "--schema", schema.as_str()],
        ] {
            let out = symgen(&args, dir.path());
            for text in [stdout(&out), cli::stderr(&out)] {
                let lines: Vec<&str> = text
                    .split(['\n', '\r', '\u{85}', '\u{2028}'])
                    .filter(|l| !l.is_empty())
                    .collect();
                // Only the real summary line (the message is invalid) starts a line.
                let summaries = lines.iter().filter(|l| l.starts_with("summary:")).count();
                assert!(summaries <= 1, "{args:?} forged a line:\n{text}");
                assert!(
                    !lines.iter().any(|l| l.starts_with(forged)),
                    "{args:?} forged a line:\n{text}"
                );
            }
        }
    }
}

/// Reply data the reply check cannot read is a violation, never a skipped check: a
/// number out of range, a lone surrogate, nesting past the limit.
#[test]
fn unreadable_reply_data_is_a_violation() {
    let validator = p1();
    let replies = validator.reply_to("spawn_taskspace").unwrap();
    let reply = |data: &str| {
        format!(
            r#"{{"type":"response","id":"1",{SENDER},"payload":{{"success":true,"data":{data}}}}}"#
        )
    };
    let good = reply(r#"{"newTaskspaceUuid":"0C4E8A52-7B1D-4F0A-9E2B-5D6C7A8B9C0D"}"#);
    assert_eq!(replies.validate_str(&good).outcome, Outcome::Valid);
    let deep = format!(
        "{}1{}",
        "[".repeat(MAX_DEPTH + 10),
        "]".repeat(MAX_DEPTH + 10)
    );
    for data in [
        r#"{"newTaskspaceUuid":"0C4E8A52-7B1D-4F0A-9E2B-5D6C7A8B9C0D","x":1e400}"#.to_owned(),
        r#"{"newTaskspaceUuid":"0C4E8A52-7B1D-4F0A-9E2B-5D6C7A8B9C0D","x":"\ud800"}"#.to_owned(),
        format!(r#"{{"newTaskspaceUuid":"0C4E8A52-7B1D-4F0A-9E2B-5D6C7A8B9C0D","x":{deep}}}"#),
        "1e400".to_owned(),
    ] {
        let report = replies.validate_str(&reply(&data));
        assert_ne!(report.outcome, Outcome::Valid, "{data:.80}: {report:?}");
        assert!(!report.violations.is_empty(), "{data:.80}");
    }
}

/// A message with 100,000 faults gets at most `--max-errors` violations (default 100),
/// each located; the time it takes is measured by `cargo bench --bench validation --
/// --violations`, not here.
#[test]
fn violations_per_message_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let schema =
        r#"{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}"#;
    std::fs::write(dir.path().join("s.json"), schema).unwrap();
    let items = vec!["\"x\""; 100_000].join(",");
    std::fs::write(dir.path().join("in"), format!("{{\"a\":[{items}]}}\n")).unwrap();
    for (extra, expected) in [(vec![], 100), (vec!["--max-errors", "7"], 7)] {
        let mut args = vec!["validate", "--schema", "s.json"];
        args.extend(extra);
        args.push("in");
        let out = symgen(&args, dir.path());
        assert_eq!(out.status.code(), Some(1));
        let text = stdout(&out);
        let located = text.lines().filter(|l| l.starts_with("in:1:")).count();
        assert_eq!(located, expected, "{text:.300}");
        assert!(
            text.contains("in:1:7: /a/0: must be an integer"),
            "{text:.300}"
        );
    }
    let validator =
        Validator::from_schema(serde_json::from_str(schema).unwrap(), Default::default())
            .unwrap()
            .with_max_errors(3);
    let report = validator.validate_str(&format!("{{\"a\":[{items}]}}"));
    assert_eq!(report.violations.len(), 3);
}
