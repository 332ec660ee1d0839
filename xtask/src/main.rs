//! This repository's symgen command line: the toolkit's CLI with the seed protocols
//! registered through the public API, exactly as a team registers its own
//! (`cargo xtask generate`, `cargo xtask check`, ...).

fn main() -> std::process::ExitCode {
    symgen::Cli::new()
        .with_name("cargo xtask")
        .protocols(symgen_protocols::all())
        .run()
}
