//! Runs the `xtask` binary (the symgen command line with the seed protocols).

use std::path::Path;
use std::process::{Command, Output};

/// Runs `xtask ARGS` in `dir`, without colour, and returns what it did.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("SYMGEN_DELEGATED")
        .output()
        .expect("run xtask")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A project in `dir` that emits the schemas only.
pub fn schema_only_project(dir: &Path) {
    std::fs::write(dir.join("symgen.toml"), "languages = []\n").expect("write symgen.toml");
}
