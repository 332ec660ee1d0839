//! `symgen docs`: the generated message reference covers every message type with who
//! sends it, its payload, its reply and an example, and text from a schema cannot
//! escape its place in the Markdown.

use std::path::Path;

use symgen::emit;

fn pages(dir: &str, vectors: Option<&str>) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = emit::schema_files(&[root.join(dir)]).unwrap();
    let modules = emit::load_modules(&files).unwrap();
    let vectors = vectors.map(|v| root.join(v));
    symgen::docs::render(&modules, vectors.as_deref())
        .unwrap()
        .into_iter()
        .map(|f| (f.path, f.contents))
        .collect()
}

/// The sections of a page, one per message type: `(heading, body)`.
fn messages(page: &str) -> Vec<(String, String)> {
    page.split("\n<a id=\"message-")
        .skip(1)
        .map(|section| {
            let body = section.split("\n<a id=").next().unwrap();
            let heading = body
                .lines()
                .find(|l| l.starts_with("### ") || l.starts_with("## "))
                .unwrap()
                .to_owned();
            (heading, body.to_owned())
        })
        .collect()
}

#[test]
fn the_p1_reference_covers_all_24_message_types() {
    let pages = pages("schema", Some("tests/vectors"));
    let (_, page) = pages
        .iter()
        .find(|(path, _)| path == "symposium.md")
        .unwrap();
    let messages = messages(page);
    assert_eq!(messages.len(), 24);
    for (heading, body) in &messages {
        for needed in [
            "- **Sent by:** ",
            "- **Received by:** ",
            "- **Payload:** ",
            "- **Reply:** ",
            "```json\n{",
        ] {
            assert!(body.contains(needed), "{heading} lacks {needed:?}:\n{body}");
        }
    }
    let log = &messages.iter().find(|(h, _)| h == "### `log`").unwrap().1;
    assert!(
        log.contains("- **Sent by:** `mcp_server`, `extension`, `app`"),
        "{log}"
    );
    assert!(log.contains("| `level` | [`LogLevel`](#type-loglevel) | yes | `\"debug\"`, `\"info\"`, `\"warn\"`, `\"error\"` | How severe the message is. |"), "{log}");
    let retired = &messages
        .iter()
        .find(|(h, _)| h == "### `create_synthetic_pr`")
        .unwrap()
        .1;
    assert!(retired.contains("**Status:** retired"), "{retired}");
    let summary = &pages.iter().find(|(p, _)| p == "SUMMARY.md").unwrap().1;
    assert!(
        summary.contains("- [Symposium IPC bus (P1)](symposium.md)"),
        "{summary}"
    );
}

#[test]
fn the_dialectic_reference_is_reviewed() {
    let pages = pages("schema", Some("tests/vectors"));
    let page = &pages.iter().find(|(p, _)| p == "dialectic.md").unwrap().1;
    insta::assert_snapshot!("docs_dialectic", page);
}

#[test]
fn schema_text_stays_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Evil | <b>title</b>",
        "description": "<script>alert(1)</script> {{#include /etc/passwd}}\n# Not a heading? `unclosed",
        "$defs": {
            "Msg": {
                "type": "object",
                "description": "`` ` `` </a><img src=x> ```\nfenced <not html>",
                "properties": {
                    "a|b": { "type": "string", "description": "cell | break\nnext line <i>" },
                    "c": {
                        "type": "string",
                        "description": "[run](javascript:alert(1)) ![pixel](https://e.example/p.png)\n\n[Msg]: data:text/html,x\n\nnul\u{0} rlo\u{202e}"
                    }
                },
                "required": ["a|b"]
            }
        },
        "anyOf": [{ "$ref": "#/$defs/Msg" }]
    });
    std::fs::write(dir.path().join("evil.schema.json"), schema.to_string()).unwrap();
    let modules = emit::load_modules(&[dir.path().join("evil.schema.json")]).unwrap();
    let files = symgen::docs::render(&modules, None).unwrap();
    let page = &files.iter().find(|f| f.path == "evil.md").unwrap().contents;
    for raw in [
        "<script",
        "<b>",
        "<img",
        "<i>",
        "</a><",
        "\n{{#include",
        " {{#include",
        "](javascript:",
        "\n[Msg]:",
        " ![pixel]",
        "\u{0}",
        "\u{202e}",
    ] {
        assert!(!page.contains(raw), "{raw:?} reached the page:\n{page}");
    }
    assert!(
        page.contains("| `a\u{2502}b` | string | yes |  | cell \\| break next line &lt;i&gt; |"),
        "{page}"
    );
    assert!(
        page.contains("[run]\\(javascript:alert(1)) \\![pixel](https://e.example/p.png)"),
        "{page}"
    );
    assert!(page.contains("\\[Msg]: data:text/html,x"), "{page}");
    assert!(page.contains("nul\\u{0000} rlo\\u{202E}"), "{page}");
    assert!(
        page.contains("# Evil \\| &lt;b&gt;title&lt;/b&gt;"),
        "{page}"
    );
}

#[test]
fn a_hostile_file_name_stays_in_the_header_comment_and_the_title_in_its_link() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x--><script>alert(1)<!--.schema.json";
    let schema = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "T](javascript:alert(1)) [x",
        "type": "object",
        "properties": { "a": { "type": "string" } }
    });
    std::fs::write(dir.path().join(name), schema.to_string()).unwrap();
    let modules = emit::load_modules(&[dir.path().join(name)]).unwrap();
    let files = symgen::docs::render(&modules, None).unwrap();
    let page = &files
        .iter()
        .find(|f| f.path.ends_with(".md") && f.path != "SUMMARY.md")
        .unwrap()
        .contents;
    let header = page.lines().next().unwrap();
    assert!(
        header.starts_with("<!-- ") && header.ends_with(" -->"),
        "{header}"
    );
    assert_eq!(header.matches("-->").count(), 1, "{header}");
    let (_, body) = page.split_once('\n').unwrap();
    // Below the header the name appears only inside a code span, where it is text.
    assert_eq!(body.matches("<script").count(), 1, "{page}");
    assert!(body.contains(&format!("Schema: `{name}`.")), "{page}");
    let summary = &files
        .iter()
        .find(|f| f.path == "SUMMARY.md")
        .unwrap()
        .contents;
    assert!(
        summary.contains("- [T\\]\\(javascript:alert(1)) \\[x]("),
        "{summary}"
    );
}

/// A schema named `SUMMARY`, one with a space, and two that differ only in case each
/// get a page of their own that the table of contents links to as it is.
#[test]
fn page_names_never_overwrite_the_contents_or_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let schema =
        serde_json::json!({ "type": "object", "properties": { "a": { "type": "string" } } });
    let names = ["SUMMARY.json", "my protocol.json", "chat.json", "Chat.json"];
    let mut paths = Vec::new();
    for name in names {
        std::fs::write(dir.path().join(name), schema.to_string()).unwrap();
        paths.push(dir.path().join(name));
    }
    let modules = emit::load_modules(&paths).unwrap();
    let files = symgen::docs::render(&modules, None).unwrap();
    let mut lower: Vec<String> = files.iter().map(|f| f.path.to_lowercase()).collect();
    lower.sort();
    lower.dedup();
    assert_eq!(lower.len(), names.len() + 1, "{lower:?}");
    let summary = &files
        .iter()
        .find(|f| f.path == "SUMMARY.md")
        .unwrap()
        .contents;
    assert!(summary.starts_with("<!-- Generated by symgen"), "{summary}");
    for file in files.iter().filter(|f| f.path != "SUMMARY.md") {
        assert!(!file.path.contains(' '), "{}", file.path);
        assert!(summary.contains(&format!("]({})", file.path)), "{summary}");
    }
}
