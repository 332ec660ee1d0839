//! The `symgen breaking` subcommand: its options, where the two sides come from, and
//! the exit code (1 when any change is at or above `--fail-on`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::report::{self, Format};
use super::{Against, Class, SchemaText};
use crate::project::Project;
use crate::{Error, Result};

/// Options of `symgen breaking`.
#[derive(Debug, clap::Args)]
pub struct BreakingArgs {
    /// The old side: a git revision of the project's repository (`origin/main`,
    /// `HEAD~1`, a tag), read with git without a checkout, or a directory of schema
    /// files.
    #[arg(long, value_name = "GIT-REF|DIR")]
    pub against: String,
    /// The new side: schema files or directories (repeatable). Default: the registered
    /// protocols' schemas, else the project's schema directory.
    #[arg(long = "schema", value_name = "FILE|DIR")]
    pub schemas: Vec<PathBuf>,
    /// How to print the changes.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Exit 1 when a change is at least this bad.
    #[arg(long, value_enum, default_value = "wire")]
    pub fail_on: FailOn,
}

/// The least bad class that fails the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Wire-breaking changes only.
    Wire,
    /// Source-breaking and wire-breaking changes.
    Source,
}

/// Runs the comparison. `current` is the new side when no `--schema` is given (the
/// project's schemas, labelled by their path in the project); `project` says where the
/// schemas live in the repository.
pub fn run(
    args: BreakingArgs,
    project: Option<&Project>,
    current: impl FnOnce(&Project) -> Result<Vec<SchemaText>>,
) -> Result<ExitCode> {
    let (new, old, label) = if args.schemas.is_empty() {
        let project = project.ok_or_else(|| {
            Error::Usage(
                "`breaking` needs a project (symgen.toml) or --schema FILE|DIR for the new side"
                    .into(),
            )
        })?;
        let side = Against::parse(&args.against, &project.root);
        let old = super::against(&side, &project.schema_dir)?;
        (current(project)?, old, side.label())
    } else {
        let mut new = Vec::new();
        for file in crate::emit::schema_files(&args.schemas)? {
            new.push((file.display().to_string(), crate::check::read_text(&file)?));
        }
        let side = Against::parse(&args.against, Path::new("."));
        let old = match &side {
            Against::Dir(_) => super::against(&side, Path::new(""))?,
            Against::Git { .. } => {
                let mut old = Vec::new();
                for input in &args.schemas {
                    old.extend(super::against(&side, input)?);
                }
                old
            }
        };
        (new, old, side.label())
    };
    let changes = super::compare(&old, &new)?;
    // Each file's text by label (the new side's first), found once per change.
    let mut texts: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for (label, text) in new.iter().chain(&old) {
        texts.entry(label.as_str()).or_insert(text.as_str());
    }
    // A pointer's line is found in JSON text; a YAML file's annotation names the file only.
    let line_of = |file: &str, pointer: &str| {
        let text = texts
            .get(file)
            .filter(|_| !crate::schema_file::is_yaml(file))?;
        let line = crate::validate::locate::locate(text, pointer).line;
        usize::try_from(line).ok()
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    report::write(&mut out, args.format, &label, &changes, &line_of)
        .and_then(|()| out.flush())
        .or_else(|err| match err.kind() {
            std::io::ErrorKind::BrokenPipe => Ok(()),
            _ => Err(err),
        })
        .map_err(|err| Error::io("<stdout>", err))?;
    let counts = report::counts(&changes);
    let summary: Vec<String> = counts
        .iter()
        .map(|(class, n)| format!("{n} {}", class_words(*class)))
        .collect();
    eprintln!("symgen breaking: against {label}: {}", summary.join(", "));
    let threshold = match args.fail_on {
        FailOn::Wire => Class::Wire,
        FailOn::Source => Class::Source,
    };
    Ok(if changes.iter().any(|c| c.class >= threshold) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn class_words(class: Class) -> &'static str {
    match class {
        Class::Wire => "wire-breaking",
        Class::Source => "source-breaking",
        Class::Compatible => "compatible",
    }
}
