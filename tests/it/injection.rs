//! No text from a schema becomes code (issue 11, class 1): random schemas whose every
//! piece of text (file name, `$defs` and property names, titles, descriptions, enum and
//! `const` values, tags, defaults, examples, formats) is made of what ends comments and
//! strings in some language (every Unicode line terminator, `*/`, quotes, backslashes,
//! `${`, `\(`, `#`, triple quotes, Markdown code fences and indents, which rustdoc would
//! run) around a marker no template writes. Every file every generator renders is read
//! as its language reads it (`support::code_tokens`): the marker must never be code,
//! and every string and comment must end.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value, json};
use symgen::emit;

use crate::support::code_tokens::{Lang, MARKER, injected, render_and_check};

/// What ends a comment, a string or an identifier somewhere.
const PIECES: &[&str] = &[
    "*/",
    "/*",
    "//",
    "/**",
    "\n",
    "\r",
    "\r\n",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{b}",
    "\u{c}",
    "\"",
    "'",
    "`",
    "```",
    "~~~",
    "    ",
    "\\",
    "${",
    "\\(",
    "\\#(",
    "#",
    "\"\"\"",
    "'''",
    "\"#",
    "#\"",
    "{",
    "}",
    "{{",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "<",
    ">",
    "-->",
    "$",
    "%",
    "\u{0}",
    "\u{1b}",
    "\u{feff}",
    "\u{202e}",
    "a",
    "Z",
    "0",
    " ",
    "\t",
    "é",
    "_",
    "-",
    ".",
    ":",
    "=",
    "x()",
    "import os",
    "\\u2028",
    "\\u{41}",
    "\\n",
];

/// A hostile text: pieces around the marker.
fn text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(PIECES), 0..6),
        prop::collection::vec(prop::sample::select(PIECES), 0..6),
    )
        .prop_map(|(before, after)| format!("{}{MARKER}x{}", before.concat(), after.concat()))
}

/// Distinct hostile names (object keys must differ to survive).
fn names(count: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(text(), count).prop_map(|names| {
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| format!("{name}{i}"))
            .collect()
    })
}

/// One schema document with hostile text everywhere a generator takes text from.
fn schema() -> impl Strategy<Value = (String, Value)> {
    (
        text(),
        names(4),
        names(5),
        prop::collection::vec(text(), 12),
    )
        .prop_map(|(stem, defs, props, t)| {
            let struct_schema = json!({
                "type": "object",
                "title": t[0],
                "description": t[1],
                "properties": {
                    &props[0]: {"type": "string", "description": t[2], "default": t[3],
                                "examples": [t[4]], "format": t[5]},
                    &props[1]: {"enum": [t[6], t[7]], "description": t[8]},
                    &props[2]: {"type": "integer", "minimum": 0, "deprecated": true},
                    &props[3]: {"$ref": format!("#/$defs/{}", pointer_token(&defs[1]))},
                },
                // `props[4]` is declared by no property: a required field all the same.
                "required": [props[0], props[3], props[4]],
            });
            let variant = |tag: &str, field: &str, doc: &str| {
                json!({
                    "type": "object",
                    "description": doc,
                    "properties": {"kind": {"const": tag}, field: {"type": "boolean"}},
                    "required": ["kind"],
                })
            };
            let mut defs_map = Map::new();
            defs_map.insert(defs[0].clone(), struct_schema);
            defs_map.insert(
                defs[1].clone(),
                json!({"type": "string", "enum": [t[9], t[10]], "description": t[11]}),
            );
            defs_map.insert(
                defs[2].clone(),
                json!({"oneOf": [variant(&t[6], &props[1], &t[0]), variant(&t[7], &props[2], &t[1])]}),
            );
            defs_map.insert(
                defs[3].clone(),
                json!({"type": "object", "additionalProperties": {"type": "string"}, "description": t[2]}),
            );
            let document = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": t[3],
                "description": t[4],
                "$defs": defs_map,
            });
            (format!("{stem}.schema.json"), document)
        })
}

fn pointer_token(name: &str) -> String {
    symgen::json_pointer::child("", name)[1..].to_owned()
}

#[test]
fn schema_text_never_becomes_generated_code() {
    let rendered: Vec<AtomicUsize> = emit::backends().iter().map(|_| 0.into()).collect();
    let mut runner = TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&schema(), |(file, document)| {
        let texts = [(file.clone(), document.to_string())];
        let modules = match emit::modules_from_texts(&texts) {
            Ok(modules) => modules,
            // A file name or schema refused whole is not code.
            Err(_) => return Ok(()),
        };
        let names = render_and_check(&modules)
            .map_err(|why| TestCaseError::fail(format!("{why}\nfrom {file:?}: {document}")))?;
        for (backend, count) in emit::backends().iter().zip(&rendered) {
            if names.contains(&backend.name()) {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    if let Err(err) = result {
        panic!("{err}");
    }
    // The check has teeth only if the generators render these schemas.
    for (backend, count) in emit::backends().iter().zip(&rendered) {
        let count = count.load(Ordering::Relaxed);
        assert!(count >= 128, "{} rendered {count} of 256", backend.name());
    }
}

/// Every file symgen wrote into `generated/` (each output directory's manifest lists
/// them; caches beside them are not symgen's) is read as its language, and no kind of
/// file goes unread.
#[test]
fn every_committed_generated_file_reads_as_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let mut read = 0;
    let mut manifests = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(manifest) = std::fs::read_to_string(dir.join(".symgen-manifest")) else {
            continue;
        };
        manifests += 1;
        for line in manifest.lines().filter(|line| !line.starts_with('#')) {
            let (_, path) = line
                .split_once("  ")
                .expect("a manifest line: hash, two spaces, path");
            let name = dir.join(path).to_string_lossy().into_owned();
            let Some(lang) = Lang::of(&name).unwrap_or_else(|why| panic!("{why}")) else {
                continue;
            };
            let text = std::fs::read_to_string(&name).unwrap();
            crate::support::code_tokens::code(lang, &text)
                .unwrap_or_else(|why| panic!("{name}: {why}"));
            assert!(injected(lang, &text).is_ok(), "{name}");
            read += 1;
        }
    }
    assert!(manifests >= 3, "{manifests} output directories");
    assert!(read > 20, "{read} files");
}
