//! `symgen validate`: validates files (or stdin) of messages and reports every problem.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::output::{self, Format};
use super::stream::{
    self, Check, DEFAULT_MAX_LINE_BYTES, Framing, Message, StreamOptions, Summary,
};
use super::validator::Validator;
use crate::project::Project;
use crate::{Error, Protocol, Result};

/// Arguments of `symgen validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The protocol: the id or code of a registered protocol (typed validation), or the
    /// id of a schema file in the project's schema directory (`<id>.schema.json`,
    /// `<id>.json`, `<id>.yaml`, ...).
    #[arg(
        long,
        short = 'p',
        value_name = "NAME",
        required_unless_present = "schema"
    )]
    pub protocol: Option<String>,
    /// Validate against this JSON Schema file (any schema, JSON or YAML by its name; with
    /// --protocol, the protocol still says where reply data sits).
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// Also check each reply's data (where the protocol's reply data pointer says, e.g.
    /// `/payload/data` or `/result`) against the reply type of the request with this tag
    /// (e.g. a `type` or a JSON-RPC `method`).
    #[arg(long, value_name = "TYPE")]
    pub reply_to: Option<String>,
    /// Judge messages as this root only (e.g. `PortFile`), as a definition of the schema
    /// (e.g. `CallToolRequest`, from `$defs` or `definitions`), or as any subschema
    /// (`#/$defs/Request`); default: any root.
    #[arg(long, value_name = "ROOT")]
    pub root: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// How the input is framed: `auto` reads JSON lines unless the first line is an
    /// incomplete JSON value (a pretty-printed document).
    #[arg(long, value_enum, default_value_t = FramingArg::Auto)]
    pub framing: FramingArg,
    /// Longest accepted line (or document), in bytes; longer ones are reported and skipped.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: usize,
    /// Report at most this many violations per message (finding more stops there; at
    /// least 1).
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::validate::DEFAULT_MAX_ERRORS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub max_errors: usize,
    /// Input files; `-` or none reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// `--framing` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FramingArg {
    /// Detect from the first non-blank line.
    Auto,
    /// One message per line.
    Lines,
    /// The whole input is one message.
    Document,
}

/// The protocol called `name` (id or code) among the registered ones.
fn registered<'p>(protocols: &'p [Protocol], name: &str) -> Option<&'p Protocol> {
    protocols.iter().find(|p| p.is_named(name))
}

fn unknown_protocol(name: &str, protocols: &[Protocol], project: Option<&Project>) -> Error {
    let mut known: Vec<String> = protocols
        .iter()
        .map(|p| match p.code() {
            Some(code) => format!("{} ({code})", p.id()),
            None => p.id().to_owned(),
        })
        .collect();
    if let Some(project) = project {
        known.extend(project_schemas(project).into_iter().map(|(id, _)| id));
    }
    known.sort();
    known.dedup();
    Error::Usage(if known.is_empty() {
        format!(
            "unknown protocol `{name}`: no protocol is registered and no project schema has that id"
        )
    } else {
        format!("unknown protocol `{name}`; known: {}", known.join(", "))
    })
}

/// The schema files of the project's schema directory (JSON or YAML), each with the id
/// `--protocol` names it by (its module stem: `chat` for `chat.schema.json` or
/// `chat.yaml`), sorted by path.
fn project_schemas(project: &Project) -> Vec<(String, std::path::PathBuf)> {
    let dir = project.path(&project.schema_dir);
    let files = crate::emit::schema_files(std::slice::from_ref(&dir)).unwrap_or_default();
    files
        .into_iter()
        .map(|file| (crate::emit::module_stem(&file), file))
        .collect()
}

fn validator(
    args: &ValidateArgs,
    protocols: &[Protocol],
    project: Option<&Project>,
) -> Result<Validator> {
    let validator = match (&args.schema, &args.protocol) {
        (Some(path), protocol) => {
            let mut validator = Validator::from_schema_file(path)?;
            if let Some(name) = protocol {
                let protocol = registered(protocols, name)
                    .ok_or_else(|| unknown_protocol(name, protocols, project))?;
                validator = validator.with_protocol(protocol.clone());
            }
            validator
        }
        (None, Some(name)) => match registered(protocols, name) {
            Some(protocol) => Validator::for_protocol(protocol)?,
            None => {
                let file = project.and_then(|p| {
                    let mut files = project_schemas(p).into_iter();
                    files.find(|(id, _)| id == name).map(|(_, file)| file)
                });
                match file {
                    Some(file) => Validator::from_schema_file(&file)?,
                    None => return Err(unknown_protocol(name, protocols, project)),
                }
            }
        },
        (None, None) => return Err(Error::Usage("give --protocol or --schema".into())),
    };
    let validator = match &args.root {
        Some(root) => {
            let mut known = format!(
                "the roots are {}",
                validator.root_names().collect::<Vec<_>>().join(", ")
            );
            let definitions = validator.definitions();
            if !definitions.is_empty() {
                known.push_str(&format!(
                    "; the definitions are {}",
                    super::compiled::list(&definitions, 20)
                ));
            }
            validator.with_root(root).map_err(|err| match err {
                Error::Usage(message) => Error::Usage(format!("{message}; {known}")),
                other => other,
            })?
        }
        None => validator,
    };
    if let Some(warning) = validator.accepts_anything_warning(args.root.as_deref()) {
        eprintln!(
            "symgen validate: warning: {}",
            crate::files::escape_controls(&warning)
        );
    }
    Ok(validator.with_max_errors(args.max_errors))
}

/// Validates one message against `--root` when given.
struct RootCheck<'v> {
    validator: &'v Validator,
    root: &'v str,
}

impl Check for RootCheck<'_> {
    fn check(&self, bytes: &[u8]) -> super::report::Report {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.check_str(text),
            Err(_) => self.validator.validate_bytes(bytes),
        }
    }

    fn check_str(&self, text: &str) -> super::report::Report {
        self.validator
            .validate_root_str(self.root, text)
            .expect("the root was checked when the command started")
    }
}

/// Shows progress on stderr (only when it is a terminal, only after half a second).
struct Progress {
    enabled: bool,
    started: Instant,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    fn new() -> Self {
        Self {
            enabled: io::stderr().is_terminal(),
            started: Instant::now(),
            last: None,
            shown: false,
        }
    }

    fn update(&mut self, file: &str, size: Option<u64>, message: &Message, count: u64) {
        if !self.enabled || !count.is_multiple_of(256) {
            return;
        }
        let now = Instant::now();
        if now - self.started < Duration::from_millis(500)
            || self
                .last
                .is_some_and(|last| now - last < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(now);
        let done = match size {
            Some(size) if size > 0 => {
                format!("{:.0}%", message.bytes_read as f64 * 100.0 / size as f64)
            }
            _ => format!("{} MiB", message.bytes_read >> 20),
        };
        eprint!("\r\x1b[Ksymgen validate: {file}: {done}, {count} messages");
        self.shown = true;
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}

/// Runs `symgen validate`: exit 0 when every message is valid (or of an unknown type),
/// 1 when any is invalid, 2 on usage or I/O errors.
pub fn run(
    args: ValidateArgs,
    protocols: &[Protocol],
    project: Option<&Project>,
) -> Result<ExitCode> {
    let validator = validator(&args, protocols, project)?;
    let reply = match &args.reply_to {
        Some(tag) => Some(validator.reply_to(tag)?),
        None => None,
    };
    let root_check = args.root.as_deref().map(|root| RootCheck {
        validator: &validator,
        root,
    });
    // The roots a message is judged against, for the note on an unknown tag (a reply is
    // judged against its request's reply type, which the report names).
    let roots: Vec<&str> = match (&reply, &args.root) {
        (Some(_), _) => Vec::new(),
        (None, Some(root)) => vec![root.as_str()],
        (None, None) => validator.root_names().collect(),
    };
    let check: &dyn Check = match (&reply, &root_check) {
        (Some(reply), _) => reply,
        (None, Some(root)) => root,
        (None, None) => &validator,
    };
    let options = StreamOptions {
        max_line_bytes: args.max_line_bytes.max(1),
        framing: match args.framing {
            FramingArg::Auto => Framing::Auto,
            FramingArg::Lines => Framing::Lines,
            FramingArg::Document => Framing::Document,
        },
    };
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };

    let stdout = io::stdout();
    let mut out = anstream::AutoStream::auto(stdout.lock());
    let mut total = Summary::default();
    let mut io_failed = false;
    let mut progress = Progress::new();
    for path in &files {
        let (name, size, reader): (String, Option<u64>, Box<dyn BufRead>) =
            if path.as_os_str() == "-" {
                (
                    "<stdin>".into(),
                    None,
                    Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
                )
            } else {
                match File::open(path) {
                    Ok(file) => {
                        let size = file.metadata().ok().map(|m| m.len());
                        let reader = BufReader::with_capacity(1 << 16, file);
                        (crate::files::shown(path), size, Box::new(reader))
                    }
                    Err(err) => {
                        eprintln!("symgen: error: {}", Error::io(path, err));
                        io_failed = true;
                        continue;
                    }
                }
            };
        let mut count = 0u64;
        let mut write_failed: Option<io::Error> = None;
        let result = stream::validate_reader(check, reader, &options, |message| {
            count += 1;
            progress.update(&name, size, message, count);
            if message.report.outcome != super::report::Outcome::Valid && write_failed.is_none() {
                progress.clear();
                if let Err(err) = output::message(&mut out, args.format, &name, &roots, message) {
                    write_failed = Some(err);
                }
            }
        });
        progress.clear();
        if let Some(err) = write_failed {
            return Err(Error::io("<stdout>", err));
        }
        match result {
            Ok(summary) => total.merge(&summary),
            Err(err) => {
                eprintln!("symgen: error: {}", Error::io(&name, err));
                io_failed = true;
            }
        }
    }
    output::summary(&mut out, args.format, &total).map_err(|err| Error::io("<stdout>", err))?;
    out.flush().map_err(|err| Error::io("<stdout>", err))?;
    Ok(if io_failed {
        ExitCode::from(2)
    } else if total.totals.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
