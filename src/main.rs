//! The `symgen` command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    symgen::cli::main()
}
