//! Runs the `symgen` binary built for the tests.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `symgen ARGS` in `dir`, without colour, and returns what it did.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_symgen"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run symgen")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `symgen ARGS` in `dir`; returns the exit code (-1 when killed) and stderr.
pub fn code_and_stderr(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = run(dir, args);
    (out.status.code().unwrap_or(-1), stderr(&out))
}
