//! The README's CLI reference is the binary's real `--help` output: every block marked
//! `<!-- help: symgen ... -->` must equal what that command prints, and every
//! subcommand must have such a block, so docs and CLI cannot drift.

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// `(args, block text)` for every `<!-- help: symgen ARGS -->` marker followed by a
/// fenced block.
fn help_blocks(readme: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut rest = readme;
    while let Some(start) = rest.find("<!-- help: ") {
        let after = &rest[start + "<!-- help: ".len()..];
        let end = after.find(" -->").expect("unterminated help marker");
        let command = after[..end].trim().to_owned();
        let body = &after[end..];
        let fence = body.find("```").expect("no fenced block after help marker");
        let body = &body[fence..];
        let open_end = body.find('\n').unwrap() + 1;
        let close = body[open_end..].find("\n```").expect("unterminated fence");
        blocks.push((command, body[open_end..open_end + close + 1].to_owned()));
        rest = &body[open_end + close..];
    }
    blocks
}

fn run_help(command: &str) -> String {
    let mut words = command.split_whitespace();
    assert_eq!(
        words.next(),
        Some("symgen"),
        "marker must start with `symgen`: {command}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_symgen"))
        .args(words)
        .arg("--help")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(out.status.success(), "{command} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn readme_help_blocks_match_the_binary() {
    let blocks = help_blocks(&readme());
    assert!(!blocks.is_empty(), "README has no help blocks");
    for (command, documented) in blocks {
        let actual = run_help(&command);
        assert_eq!(
            documented.trim_end(),
            actual.trim_end(),
            "README block for `{command} --help` is stale; replace it with:\n{actual}"
        );
    }
}

#[test]
fn every_subcommand_is_documented() {
    let documented: Vec<String> = help_blocks(&readme()).into_iter().map(|(c, _)| c).collect();
    assert!(
        documented.iter().any(|c| c == "symgen"),
        "no block for `symgen --help`"
    );
    for sub in symgen::cli::Cli::command().get_subcommands() {
        let name = format!("symgen {}", sub.get_name());
        assert!(
            documented.contains(&name),
            "README lacks a help block for `{name}`"
        );
    }
}
