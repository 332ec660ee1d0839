//! The `symgen` command line: argument parsing and the subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::check::{self, Drift, ExpectedFile, OutputSet};
use crate::emit::{self, swift, typescript};
use crate::{Error, Result, protocols, schema};

/// symgen: Rust types as the single source of truth for IPC protocols. Emits JSON
/// Schema, generates TypeScript and Swift from it, validates messages, and checks the
/// committed outputs for drift.
#[derive(Debug, Parser)]
#[command(name = "symgen", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write one JSON Schema (draft 2020-12) file per built-in protocol.
    Schema {
        /// Output directory (must exist). Default: `schema/` (created if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Regenerate every committed output (the main job): `schema/` and everything under
    /// `generated/`, from the built-in protocols.
    Generate,
    /// Render the JSON Schemas into TypeScript: an npm package with one module per schema
    /// and an `index.ts`.
    Ts {
        /// A schema file, or a directory whose `*.json` files are read (repeatable).
        /// Default: `schema/`.
        #[arg(long = "schema", value_name = "FILE|DIR")]
        schemas: Vec<PathBuf>,
        /// Output directory (must exist). Default: `generated/typescript/` (created if
        /// missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Render the JSON Schemas into a Swift package (SwiftPM): one module per schema,
    /// a shared runtime, and an XCTest target that round-trips the conformance vectors.
    Swift {
        /// A schema file, or a directory whose `*.json` files are read (repeatable).
        /// Default: `schema/`.
        #[arg(long = "schema", value_name = "FILE|DIR")]
        schemas: Vec<PathBuf>,
        /// Output directory (must exist). Default: `generated/swift/` (created if missing).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Regenerate every output in memory and fail with a diff when the committed files
    /// are stale, missing or orphaned. Writes nothing.
    Check,
    /// Validate messages (JSON lines or one document) against a protocol's committed
    /// schema or a user schema. Exit 0: all valid; 1: any invalid; 2: usage or I/O error.
    Validate(crate::validate::command::ValidateArgs),
}

/// The default schema directory, relative to the working directory.
pub const SCHEMA_DIR: &str = "schema";

/// The schema output set for the built-in protocols.
pub fn schema_outputs(dir: &Path) -> OutputSet {
    let files = schema::render_all(&protocols::registry())
        .into_iter()
        .map(|file| ExpectedFile {
            relative: file.name,
            contents: file.contents,
        })
        .collect();
    OutputSet {
        label: "schema".into(),
        dir: dir.to_path_buf(),
        files,
        ignore: Vec::new(),
    }
}

/// The default TypeScript output directory, relative to the working directory.
pub const TS_DIR: &str = "generated/typescript";

/// The TypeScript output set (the npm package) for parsed schema modules.
pub fn typescript_outputs(dir: &Path, modules: &[emit::Module]) -> OutputSet {
    OutputSet {
        label: "typescript".into(),
        dir: dir.to_path_buf(),
        files: typescript::render_package(modules),
        ignore: vec!["dist".into(), "node_modules".into()],
    }
}

/// The default Swift output directory, relative to the working directory.
pub const SWIFT_DIR: &str = "generated/swift";

/// The Swift output set (the SwiftPM package) for parsed schema modules.
pub fn swift_outputs(dir: &Path, modules: &[emit::Module]) -> Result<OutputSet> {
    let files = swift::generate(modules)?
        .into_iter()
        .map(|file| ExpectedFile {
            relative: file.path,
            contents: file.contents,
        })
        .collect();
    Ok(OutputSet {
        label: "swift".into(),
        dir: dir.to_path_buf(),
        files,
        ignore: vec![".build".into(), ".swiftpm".into()],
    })
}

/// The built-in protocols' schemas, rendered in memory, as `(file name, text)`.
fn builtin_schemas() -> Vec<(String, String)> {
    schema::render_all(&protocols::registry())
        .into_iter()
        .map(|file| (file.name, file.contents))
        .collect()
}

/// Every output set `symgen check` compares, rooted at `root` (the project directory).
/// Generated code is rendered from the built-in schemas in memory, so it is checked
/// against the current Rust types even when `schema/` is stale.
pub fn all_outputs(root: &Path) -> Result<Vec<OutputSet>> {
    let modules = emit::modules_from_texts(&builtin_schemas())?;
    Ok(vec![
        schema_outputs(&root.join(SCHEMA_DIR)),
        typescript_outputs(&root.join(TS_DIR), &modules),
        swift_outputs(&root.join(SWIFT_DIR), &modules)?,
    ])
}

/// Runs the drift check over every output set; returns all drifts.
pub fn run_check(root: &Path) -> Result<Vec<Drift>> {
    let mut drifts = Vec::new();
    for set in all_outputs(root)? {
        drifts.extend(check::compare(&set)?);
    }
    Ok(drifts)
}

fn resolve_out(out: Option<PathBuf>, default: &str) -> Result<(PathBuf, bool)> {
    match out {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(Error::Usage(format!(
                    "output directory does not exist: {}",
                    dir.display()
                )));
            }
            Ok((dir, false))
        }
        None => {
            let dir = PathBuf::from(default);
            std::fs::create_dir_all(&dir).map_err(|err| Error::io(&dir, err))?;
            Ok((dir, true))
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Schema { out } => {
            let (dir, owned) = resolve_out(out, SCHEMA_DIR)?;
            let changed = check::write(&schema_outputs(&dir), owned)?;
            eprintln!(
                "symgen schema: {} file(s) changed in {}",
                changed.len(),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Generate => {
            let mut changed = 0;
            for set in all_outputs(Path::new(""))? {
                let count = check::write(&set, true)?.len();
                eprintln!(
                    "symgen generate: {} file(s) changed in {}",
                    count,
                    set.dir.display()
                );
                changed += count;
            }
            eprintln!("symgen generate: done ({changed} file(s) changed)");
            Ok(ExitCode::SUCCESS)
        }
        Command::Ts { schemas, out } => {
            let schemas = if schemas.is_empty() {
                vec![PathBuf::from(SCHEMA_DIR)]
            } else {
                schemas
            };
            let modules = emit::load_modules(&emit::schema_files(&schemas)?)?;
            let (dir, owned) = resolve_out(out, TS_DIR)?;
            let changed = check::write(&typescript_outputs(&dir, &modules), owned)?;
            eprintln!(
                "symgen ts: {} file(s) changed in {}",
                changed.len(),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Swift { schemas, out } => {
            let schemas = if schemas.is_empty() {
                vec![PathBuf::from(SCHEMA_DIR)]
            } else {
                schemas
            };
            let modules = emit::load_modules(&emit::schema_files(&schemas)?)?;
            let (dir, owned) = resolve_out(out, SWIFT_DIR)?;
            let changed = check::write(&swift_outputs(&dir, &modules)?, owned)?;
            eprintln!(
                "symgen swift: {} file(s) changed in {}",
                changed.len(),
                dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Check => {
            let drifts = run_check(Path::new(""))?;
            if drifts.is_empty() {
                eprintln!("symgen check: all generated files are up to date");
                return Ok(ExitCode::SUCCESS);
            }
            for drift in &drifts {
                println!("{}", drift.report());
            }
            eprintln!(
                "symgen check: {} file(s) out of date; run `symgen schema` (and the other generators) to refresh",
                drifts.len()
            );
            Ok(ExitCode::from(1))
        }
        Command::Validate(args) => crate::validate::command::run(args),
    }
}

/// Entry point: parses arguments, runs, and maps errors to a one-line message and an
/// exit code: 1 for a schema symgen cannot read or represent (`file:pointer: message`),
/// 2 for everything else.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("symgen: error: {err}");
            match err {
                Error::Schema(_) => ExitCode::from(1),
                _ => ExitCode::from(2),
            }
        }
    }
}
