//! The `symgen` command line, as a library: [`Cli`] runs every subcommand for the
//! protocols a program registers, in the project its `symgen.toml` describes.
//!
//! * `schema`, `generate`, `check`: the registered protocols' schemas and every
//!   language's package, written or compared (`generate`/`check` need a project file).
//! * one subcommand per language ([`crate::emit::backends`]): any schema in, a package
//!   out.
//! * `validate`: messages against a registered protocol or a schema.
//!
//! The plain `symgen` binary registers no protocols. In a project whose `symgen.toml`
//! names a `command` (the team's own binary that registers its types), the commands that
//! need the Rust types run that command instead; without one, `generate` and `check`
//! treat the schema directory as the source (a schema-first project).

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use clap::{ArgMatches, Args as _, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::check::{self, Drift, OutputSet};
use crate::emit::{self, Backend, Input, Module};
use crate::project::{self, Project};
use crate::{Error, Protocol, Result, schema};

/// The symgen command line for a set of protocols.
#[derive(Debug, Default)]
pub struct Cli {
    protocols: Vec<Protocol>,
    name: Option<String>,
}

/// Global options and the subcommands that do not depend on the language registry.
#[derive(Debug, Parser)]
#[command(name = "symgen", version, about, long_about = None)]
struct Args {
    /// The project file (default: the `symgen.toml` in the current directory or the
    /// nearest one above it).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Fail (exit 1) when a schema says something the generated types do not enforce;
    /// such warnings are printed either way.
    #[arg(long, global = true)]
    deny_warnings: bool,
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Write one JSON Schema (draft 2020-12) file per registered protocol.
    Schema {
        /// Output directory (must exist). Default: the project's schema directory.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Write each schema self-contained: every type it uses defined in it, none
        /// referred to in another file (a type two protocols share is then in both), for
        /// tools that read one file at a time (json-schema-to-typescript, quicktype,
        /// datamodel-code-generator). Needs --out: the project's schema directory keeps
        /// the linked files its packages are generated from.
        #[arg(long, requires = "out")]
        bundle: bool,
    },
    /// Regenerate every output of the project (the main job): the schemas of the
    /// registered protocols and one package per language, as `symgen.toml` says.
    Generate,
    /// Regenerate every output in memory and fail with a diff when the committed files
    /// are stale, missing or orphaned. Writes nothing.
    Check,
    /// Generate conformance vectors from the schemas: valid messages that cover every
    /// type, variant, optional field, enum value and bound, and invalid ones with one
    /// fault each, filed by the validator's verdict (and serde's, for registered Rust
    /// types), into `<out>/<schema>/generated/`
    Vectors {
        /// A schema file (JSON; YAML when named `*.yaml` or `*.yml`), or a directory whose
        /// schema files are read (repeatable).
        /// Default: the registered protocols, else the project's schema directory.
        #[arg(long = "schema", value_name = "FILE|DIR")]
        schemas: Vec<PathBuf>,
        /// Output directory (must exist). Default: the project's vector directory
        /// (`[vectors]` in symgen.toml).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Validate messages (JSON lines or one document) against a protocol or a schema.
    /// Exit 0: all valid; 1: any invalid; 2: usage or I/O error.
    Validate(crate::validate::command::ValidateArgs),
    /// Compare the schemas with an earlier version (a git revision or a directory) and
    /// classify every change: wire-breaking, source-breaking or compatible, by who sends
    /// and who receives each message. Exit 1 on a change at or above --fail-on.
    Breaking(crate::breaking::command::BreakingArgs),
    /// Write the Markdown message reference (an mdBook source: SUMMARY.md and one page
    /// per schema): per message type its purpose, who sends and receives it, a payload
    /// table, the reply and examples from the conformance vectors.
    Docs {
        /// A schema file (JSON; YAML when named `*.yaml` or `*.yml`), or a directory whose
        /// schema files are read (repeatable).
        /// Default: the registered protocols, else the project's schema directory.
        #[arg(long = "schema", value_name = "FILE|DIR")]
        schemas: Vec<PathBuf>,
        /// Output directory (must exist). Default: the project's docs directory
        /// (`[docs]` in symgen.toml, else generated/docs).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// The options every language subcommand takes.
#[derive(Debug, clap::Args)]
struct LanguageArgs {
    /// A schema file (JSON; YAML when named `*.yaml` or `*.yml`), or a directory whose
    /// schema files are read (repeatable).
    /// Default: the registered protocols, else the project's schema directory.
    #[arg(long = "schema", value_name = "FILE|DIR")]
    schemas: Vec<PathBuf>,
    /// Output directory (must exist). Default: the language's directory in the project.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Set in the environment of a delegated command, so it never delegates again.
const DELEGATED: &str = "SYMGEN_DELEGATED";

impl Cli {
    /// A command line with no protocols registered.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a protocol.
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocols.push(protocol);
        self
    }

    /// Registers several protocols.
    pub fn protocols(mut self, protocols: impl IntoIterator<Item = Protocol>) -> Self {
        self.protocols.extend(protocols);
        self
    }

    /// How hints name this program (default `symgen`), e.g. `cargo xtask`.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The registered protocols.
    pub fn registered(&self) -> &[Protocol] {
        &self.protocols
    }

    /// The clap command, with one subcommand per language.
    pub fn command() -> clap::Command {
        let mut command = Args::command();
        for backend in emit::backends() {
            let mut sub = LanguageArgs::augment_args(clap::Command::new(backend.command()))
                .about(backend.about());
            // The language's full name works too (`symgen python`, `symgen typescript`).
            if backend.name() != backend.command() {
                sub = sub.visible_alias(backend.name());
            }
            command = command.subcommand(sub);
        }
        // A language this build leaves out still has its subcommand, which says how to
        // get it, instead of clap's "unrecognized subcommand".
        for (name, feature) in emit::left_out() {
            let sub = LanguageArgs::augment_args(clap::Command::new(*name)).about(format!(
                "Not in this build of symgen: rebuild it with the `{feature}` feature"
            ));
            command = command.subcommand(sub);
        }
        command
    }

    /// Parses the process's arguments and runs. Errors print one line and map to the
    /// exit code: 1 for a schema or type symgen cannot represent
    /// (`file:pointer: message`), 2 for everything else.
    pub fn run(self) -> ExitCode {
        self.run_from(std::env::args_os())
    }

    /// [`Self::run`] with explicit arguments (the first is the program name).
    pub fn run_from<I, T>(self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let matches = match Self::command().try_get_matches_from(&args) {
            Ok(matches) => matches,
            Err(err) => {
                let _ = err.print();
                return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
            }
        };
        match self.dispatch(&matches, &args) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("symgen: error: {err}");
                match err {
                    Error::Schema(_)
                    | Error::Protocol(_)
                    | Error::Emit(_)
                    | Error::Warnings { .. } => ExitCode::from(1),
                    _ => ExitCode::from(2),
                }
            }
        }
    }

    fn program(&self) -> &str {
        self.name.as_deref().unwrap_or("symgen")
    }

    fn dispatch(&self, matches: &ArgMatches, args: &[OsString]) -> Result<ExitCode> {
        let config = matches.get_one::<PathBuf>("config").cloned();
        let project = match &config {
            Some(file) => Some(Project::load(file)?),
            None => Project::discover(Path::new(""))?,
        };
        let (name, sub) = matches
            .subcommand()
            .ok_or_else(|| Error::Usage("no subcommand".into()))?;
        if let Some(message) = emit::left_out_message(name) {
            return Err(Error::Usage(message));
        }
        if let Some(backend) = emit::backend(name).filter(|b| b.command() == name) {
            let args =
                LanguageArgs::from_arg_matches(sub).map_err(|err| Error::Usage(err.to_string()))?;
            let deny = matches.get_flag("deny_warnings");
            return self.language(backend, args, deny, project.as_ref());
        }
        let parsed =
            Args::from_arg_matches(matches).map_err(|err| Error::Usage(err.to_string()))?;
        let needs_types = match &parsed.command {
            Command::Schema { .. } | Command::Generate | Command::Check => true,
            // Never delegated: a verdict is computed here, from the project's schema
            // files (`symgen check` holds them to the types), never taken from the exit
            // code of a command.
            Command::Validate(_) => false,
            Command::Breaking(args) => args.schemas.is_empty(),
            Command::Docs { schemas, .. } | Command::Vectors { schemas, .. } => schemas.is_empty(),
        };
        if needs_types
            && self.protocols.is_empty()
            && let Some(project) = &project
            && let Some(command) = &project.command
        {
            return delegate(project, command, args);
        }
        match parsed.command {
            Command::Schema { out, bundle } => self.schema(out, bundle, project.as_ref()),
            Command::Generate => self.generate(require(project, "generate")?, parsed.deny_warnings),
            Command::Check => self.check(require(project, "check")?),
            Command::Validate(args) => {
                crate::validate::command::run(args, &self.protocols, project.as_ref())
            }
            Command::Breaking(args) => {
                // 1 says "a breaking change": a schema that cannot be read on either
                // side (any error) is 2, so a pipeline never takes one for the other.
                crate::breaking::command::run(args, project.as_ref(), |project| {
                    self.project_schema_texts(project)
                })
                .or_else(|err| {
                    eprintln!("symgen: error: {err}");
                    Ok(ExitCode::from(2))
                })
            }
            Command::Docs { schemas, out } => self.docs(schemas, out, project.as_ref()),
            Command::Vectors { schemas, out } => self.vectors(schemas, out, project.as_ref()),
        }
    }

    /// The registered protocols' schemas, rendered in memory, as `(file name, text)`.
    fn schemas(&self) -> Result<Vec<(String, String)>> {
        Ok(schema::render_all(&self.protocols)
            .map_err(Error::Protocol)?
            .into_iter()
            .map(|file| (file.name, file.contents))
            .collect())
    }

    fn schema(
        &self,
        out: Option<PathBuf>,
        bundle: bool,
        project: Option<&Project>,
    ) -> Result<ExitCode> {
        if self.protocols.is_empty() {
            return Err(Error::Usage(
                "no protocols are registered: `schema` writes the schemas of the Rust types a \
                 program registers with symgen::Cli (see docs/adopting.md)"
                    .into(),
            ));
        }
        let (dir, display, owned) = match (out, project) {
            (Some(dir), _) => {
                existing_dir(&dir)?;
                (dir.clone(), dir, false)
            }
            (None, Some(project)) => (
                project.path(&project.schema_dir),
                project.schema_dir.clone(),
                true,
            ),
            (None, None) => return Err(no_project("schema", "give --out DIR")),
        };
        // An `--out` directory is the user's choice: their files there are left alone.
        let shared = !owned || project.is_some_and(|p| p.schema_shared);
        let mut set = self.schema_set(dir, display, shared)?;
        if bundle {
            set.files = self.bundled_schemas()?;
        }
        let changed = write_set(&set, owned)?;
        eprintln!(
            "symgen schema: {} file(s) changed in {}",
            changed.len(),
            crate::files::shown(&set.display)
        );
        Ok(ExitCode::SUCCESS)
    }

    /// Each registered protocol's schema standing alone (`schema::render`): what
    /// `--bundle` writes.
    fn bundled_schemas(&self) -> Result<Vec<emit::OutputFile>> {
        self.protocols
            .iter()
            .map(|protocol| {
                let file = schema::render(protocol).map_err(Error::Protocol)?;
                Ok(emit::OutputFile {
                    path: file.name,
                    contents: file.contents,
                })
            })
            .collect()
    }

    fn schema_set(&self, dir: PathBuf, display: PathBuf, shared: bool) -> Result<OutputSet> {
        let files = self
            .schemas()?
            .into_iter()
            .map(|(path, contents)| emit::OutputFile { path, contents })
            .collect();
        Ok(OutputSet {
            label: "schema".into(),
            dir,
            display,
            files,
            ignore: Vec::new(),
            shared,
        })
    }

    /// The schema modules a project's packages are generated from: the registered
    /// protocols' schemas in memory (so generated code follows the Rust types even when
    /// the schema files are stale), else the project's schema files.
    fn project_modules(&self, project: &Project) -> Result<Vec<Module>> {
        emit::modules_from_texts(&self.project_schema_texts(project)?)
    }

    /// The project's schemas as `(path in the project, text)`: the registered protocols'
    /// schemas in memory, else the files of the schema directory.
    fn project_schema_texts(&self, project: &Project) -> Result<Vec<(String, String)>> {
        if self.protocols.is_empty() {
            let dir = project.path(&project.schema_dir);
            if !dir.is_dir() {
                return Err(Error::Project(crate::project::Error {
                    file: project.file.clone(),
                    location: Some("schema.dir".into()),
                    message: format!(
                        "the schema directory `{}` does not exist: with no protocol registered, the schemas are read from there (or name the program that registers your types in `command`)",
                        crate::files::shown(&project.schema_dir)
                    ),
                }));
            }
            let mut files = emit::schema_files(std::slice::from_ref(&dir))?;
            files.sort();
            let mut texts = Vec::with_capacity(files.len());
            for file in &files {
                let shown = project
                    .schema_dir
                    .join(file.file_name().unwrap_or_default());
                texts.push((shown.display().to_string(), check::read_text(file)?));
            }
            Ok(texts)
        } else {
            Ok(self
                .schemas()?
                .into_iter()
                .map(|(name, text)| (project.schema_dir.join(name).display().to_string(), text))
                .collect())
        }
    }

    /// Every output set of a project: the schemas (when protocols are registered) and
    /// one package per language.
    pub fn project_outputs(&self, project: &Project) -> Result<Vec<OutputSet>> {
        let texts = self.project_schema_texts(project)?;
        let modules = emit::modules_from_texts(&texts)?;
        self.outputs_from(project, &modules, &texts)
    }

    /// [`Self::project_outputs`] for modules already loaded from `texts`.
    fn outputs_from(
        &self,
        project: &Project,
        modules: &[Module],
        texts: &[(String, String)],
    ) -> Result<Vec<OutputSet>> {
        let mut sets = Vec::new();
        if !self.protocols.is_empty() {
            sets.push(self.schema_set(
                project.path(&project.schema_dir),
                project.schema_dir.clone(),
                project.schema_shared,
            )?);
        }
        // Vectors only read (no generated ones) must be there: each package's vector
        // test reads them.
        if let (Some(dir), false) = (&project.vectors_dir, project.generate_vectors)
            && !project.path(dir).is_dir()
        {
            return Err(Error::Project(crate::project::Error {
                file: project.file.clone(),
                location: Some("vectors.dir".into()),
                message: format!(
                    "the directory `{}` does not exist; create it with your vectors (see docs/vectors.md), or remove the [vectors] table",
                    crate::files::shown(dir)
                ),
            }));
        }
        if let (Some(dir), true) = (&project.vectors_dir, project.generate_vectors) {
            let (set, _) = vectors_set(
                modules,
                texts,
                &self.protocols,
                project.vector_settings,
                project.path(dir),
                dir.clone(),
            )?;
            sets.push(set);
        }
        sets.extend(self.outputs_of(project, modules)?);
        if let Some(dir) = &project.docs_dir {
            sets.push(docs_set(project, modules, project.path(dir), dir.clone())?);
        }
        Ok(sets)
    }

    fn docs(
        &self,
        schemas: Vec<PathBuf>,
        out: Option<PathBuf>,
        project: Option<&Project>,
    ) -> Result<ExitCode> {
        let modules = if !schemas.is_empty() {
            emit::load_modules(&emit::schema_files(&schemas)?)?
        } else if let Some(project) = project {
            self.project_modules(project)?
        } else if !self.protocols.is_empty() {
            emit::modules_from_texts(&self.schemas()?)?
        } else {
            return Err(no_project("docs", "give --schema FILE|DIR"));
        };
        let (dir, display, owned) = match (out, project) {
            (Some(dir), _) => {
                existing_dir(&dir)?;
                (dir.clone(), dir, false)
            }
            (None, Some(project)) => {
                let relative = project
                    .docs_dir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(crate::docs::DEFAULT_DIR));
                (project.path(&relative), relative, true)
            }
            (None, None) => return Err(no_project("docs", "give --out DIR")),
        };
        let mut set = match project {
            Some(project) if schemas.is_empty() => docs_set(project, &modules, dir, display)?,
            _ => OutputSet {
                label: "docs".into(),
                dir,
                display,
                files: crate::docs::render(&modules, None)?,
                ignore: Vec::new(),
                shared: false,
            },
        };
        // An `--out` directory is the user's choice: their files there are left alone.
        set.shared |= !owned;
        let changed = write_set(&set, owned)?;
        eprintln!(
            "symgen docs: {} file(s) changed in {}",
            changed.len(),
            crate::files::shown(&set.display)
        );
        Ok(ExitCode::SUCCESS)
    }

    fn vectors(
        &self,
        schemas: Vec<PathBuf>,
        out: Option<PathBuf>,
        project: Option<&Project>,
    ) -> Result<ExitCode> {
        let (texts, protocols): (Vec<(String, String)>, &[Protocol]) = if !schemas.is_empty() {
            let mut texts = Vec::new();
            for path in emit::schema_files(&schemas)? {
                texts.push((path.display().to_string(), check::read_text(&path)?));
            }
            (texts, &[])
        } else if let Some(project) = project {
            (self.project_schema_texts(project)?, &self.protocols)
        } else if !self.protocols.is_empty() {
            (self.schemas()?, &self.protocols)
        } else {
            return Err(no_project("vectors", "give --schema FILE|DIR"));
        };
        let (dir, display, owned) = match (out, project) {
            (Some(dir), _) => {
                existing_dir(&dir)?;
                (dir.clone(), dir, false)
            }
            (None, Some(project)) => match &project.vectors_dir {
                Some(relative) => (project.path(relative), relative.clone(), true),
                None => {
                    return Err(Error::Usage(format!(
                        "{}: no [vectors] table says where vectors go; add one or give --out DIR",
                        crate::files::shown(&project.file)
                    )));
                }
            },
            (None, None) => return Err(no_project("vectors", "give --out DIR")),
        };
        let modules = emit::modules_from_texts(&texts)?;
        let settings = project.map(|p| p.vector_settings).unwrap_or_default();
        let (set, generated) = vectors_set(&modules, &texts, protocols, settings, dir, display)?;
        let changed = write_set(&set, owned)?;
        let count =
            |f: fn(&crate::vectors::Generated) -> usize| generated.iter().map(f).sum::<usize>();
        eprintln!(
            "symgen vectors: {} valid, {} invalid ({} only by an unenforced keyword), {} unknown over {} schema(s); {} file(s) changed in {}",
            count(|g| g.valid.len()),
            count(|g| g.invalid.len()),
            count(|g| g.invalid.iter().filter(|v| v.unenforced).count()),
            count(|g| g.unknown.len()),
            generated.len(),
            changed.len(),
            crate::files::shown(&set.display)
        );
        Ok(ExitCode::SUCCESS)
    }

    /// One output set per language of the project, from `modules`.
    fn outputs_of(&self, project: &Project, modules: &[Module]) -> Result<Vec<OutputSet>> {
        let mut sets = Vec::new();
        for language in &project.languages {
            let vectors = project
                .vectors_dir
                .as_ref()
                .map(|vectors| relative_path(&language.dir, vectors));
            let input = Input {
                modules,
                options: &language.options,
                vectors: vectors.as_deref(),
            };
            sets.push(language_set(
                language.backend,
                &input,
                project.path(&language.dir),
                language.dir.clone(),
                language.allow_other_files,
            )?);
        }
        Ok(sets)
    }

    fn generate(&self, project: Project, deny: bool) -> Result<ExitCode> {
        let texts = self.project_schema_texts(&project)?;
        let modules = emit::modules_from_texts(&texts)?;
        report_warnings(&modules, deny)?;
        let sets = self.outputs_from(&project, &modules, &texts)?;
        let mut changed = 0;
        for set in sets {
            let count = write_set(&set, true)?.len();
            eprintln!(
                "symgen generate: {count} file(s) changed in {}",
                crate::files::shown(&set.display)
            );
            changed += count;
        }
        eprintln!("symgen generate: done ({changed} file(s) changed)");
        Ok(ExitCode::SUCCESS)
    }

    fn check(&self, project: Project) -> Result<ExitCode> {
        let mut drifts = Vec::new();
        for set in self.project_outputs(&project)? {
            drifts.extend(check::compare(&set)?);
        }
        if drifts.is_empty() {
            eprintln!("symgen check: all generated files are up to date");
            return Ok(ExitCode::SUCCESS);
        }
        print_drifts(&drifts).map_err(|err| Error::io("<stdout>", err))?;
        eprintln!(
            "symgen check: {} file(s) out of date; run `{} generate` to refresh them",
            drifts.len(),
            self.program()
        );
        Ok(ExitCode::from(1))
    }

    fn language(
        &self,
        backend: &'static dyn Backend,
        args: LanguageArgs,
        deny: bool,
        project: Option<&Project>,
    ) -> Result<ExitCode> {
        let settings = project.and_then(|p| p.language(backend.name()));
        let modules = if !args.schemas.is_empty() {
            emit::load_modules(&emit::schema_files(&args.schemas)?)?
        } else if let Some(project) = project {
            self.project_modules(project)?
        } else if !self.protocols.is_empty() {
            emit::modules_from_texts(&self.schemas()?)?
        } else {
            return Err(no_project(backend.command(), "give --schema FILE|DIR"));
        };
        report_warnings(&modules, deny)?;
        let (dir, display, owned) = match (&args.out, project) {
            (Some(dir), _) => {
                existing_dir(dir)?;
                (dir.clone(), dir.clone(), false)
            }
            (None, Some(project)) => {
                let relative = settings
                    .map(|l| l.dir.clone())
                    .unwrap_or_else(|| PathBuf::from(backend.default_dir()));
                (project.path(&relative), relative, true)
            }
            (None, None) => return Err(no_project(backend.command(), "give --out DIR")),
        };
        // Vector tests belong to the project's own package, generated from its schemas.
        let vectors = match (project, args.schemas.is_empty(), owned) {
            (Some(project), true, true) => project
                .vectors_dir
                .as_ref()
                .map(|vectors| relative_path(&display, vectors)),
            _ => None,
        };
        let empty = toml::Table::new();
        let input = Input {
            modules: &modules,
            options: settings.map_or(&empty, |l| &l.options),
            vectors: vectors.as_deref(),
        };
        // An output directory given on the command line is the user's choice: files of
        // theirs there are left alone (and never overwritten; nothing is deleted).
        let shared = !owned || settings.is_some_and(|l| l.allow_other_files);
        let set = language_set(backend, &input, dir, display, shared)?;
        let changed = write_set(&set, owned)?;
        eprintln!(
            "symgen {}: {} file(s) changed in {}",
            backend.command(),
            changed.len(),
            crate::files::shown(&set.display)
        );
        Ok(ExitCode::SUCCESS)
    }
}

/// Prints every warning of `modules` (what the generated types will not enforce), one
/// line each with control characters escaped; with `deny`, any warning is an error.
fn report_warnings(modules: &[Module], deny: bool) -> Result<()> {
    let mut count = 0;
    for module in modules {
        for warning in &module.model.warnings {
            eprintln!("{}", crate::emit::text::one_line(&warning.to_string()));
            count += 1;
        }
    }
    if deny && count > 0 {
        return Err(Error::Warnings { count });
    }
    Ok(())
}

/// The vectors generated from `modules` (read from `texts`), as the output set of the
/// vector directory; roots no vector could be built for are printed as warnings.
fn vectors_set(
    modules: &[Module],
    texts: &[(String, String)],
    protocols: &[Protocol],
    settings: crate::vectors::Settings,
    dir: PathBuf,
    display: PathBuf,
) -> Result<(OutputSet, Vec<crate::vectors::Generated>)> {
    let mut documents = Vec::with_capacity(texts.len());
    for (path, text) in texts {
        let value = crate::schema_file::parse(path, text)
            .map_err(|err| Error::Schema(crate::model::Error::new(path, "", err)))?;
        documents.push((path.clone(), value));
    }
    let generated = crate::vectors::generate(modules, &documents, protocols, settings)?;
    for one in &generated {
        for (root, why) in &one.skipped {
            eprintln!(
                "{}",
                crate::emit::text::one_line(&format!(
                    "{}: warning: no vectors for {}: {why}",
                    one.stem,
                    if root == "*" {
                        "the schema".to_owned()
                    } else {
                        format!("`{root}`")
                    }
                ))
            );
        }
    }
    // The vector directory holds the hand-written vectors too: symgen's files are the
    // ones its manifest lists.
    let set = OutputSet {
        label: "vectors".into(),
        dir,
        display,
        files: generated
            .iter()
            .flat_map(crate::vectors::Generated::files)
            .collect(),
        ignore: Vec::new(),
        shared: true,
    };
    Ok((set, generated))
}

/// The message reference of a project's schemas, with examples from its vectors.
fn docs_set(
    project: &Project,
    modules: &[Module],
    dir: PathBuf,
    display: PathBuf,
) -> Result<OutputSet> {
    let vectors = project.vectors_dir.as_ref().map(|v| project.path(v));
    Ok(OutputSet {
        label: "docs".into(),
        dir,
        display,
        files: crate::docs::render(modules, vectors.as_deref())?,
        ignore: Vec::new(),
        shared: project.docs_shared,
    })
}

/// One language's output set; `shared`: the directory may hold files of the user's own.
fn language_set(
    backend: &'static dyn Backend,
    input: &Input<'_>,
    dir: PathBuf,
    display: PathBuf,
    shared: bool,
) -> Result<OutputSet> {
    Ok(OutputSet {
        label: backend.name().into(),
        dir,
        display,
        files: backend.render(input).map_err(Error::Emit)?,
        ignore: backend
            .build_paths()
            .iter()
            .map(|p| (*p).to_owned())
            .collect(),
        shared,
    })
}

fn write_set(set: &OutputSet, owned: bool) -> Result<Vec<PathBuf>> {
    check::write(set, owned)
}

fn require(project: Option<Project>, command: &str) -> Result<Project> {
    project.ok_or_else(|| no_project(command, "create one (see docs/adopting.md)"))
}

fn no_project(command: &str, hint: &str) -> Error {
    let cwd = std::env::current_dir()
        .map(|d| crate::files::shown(&d))
        .unwrap_or_else(|_| ".".into());
    Error::Usage(format!(
        "`{command}` needs a project: no {} in {cwd} or above it; {hint}",
        project::FILE_NAME
    ))
}

fn existing_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "output directory does not exist: {}",
            crate::files::shown(dir)
        )))
    }
}

/// The path from directory `from` to `to`, both relative to the same root and free of
/// `..` (project paths are), `/`-separated.
fn relative_path(from: &Path, to: &Path) -> String {
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (from, to) = (parts(from), parts(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: Vec<String> = vec!["..".to_owned(); from.len() - common];
    path.extend(to[common..].iter().cloned());
    if path.is_empty() {
        ".".to_owned()
    } else {
        path.join("/")
    }
}

/// Prints drift reports; a closed stdout (`symgen check | head -1`) ends the listing
/// quietly instead of failing.
fn print_drifts(drifts: &[Drift]) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for drift in drifts {
        match writeln!(out, "{}", drift.report()) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(err) => return Err(err),
        }
    }
    match out.flush() {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(err),
        _ => Ok(()),
    }
}

/// Runs the project's `command` with this invocation's arguments, in the project root.
fn delegate(project: &Project, command: &[String], args: &[OsString]) -> Result<ExitCode> {
    if std::env::var_os(DELEGATED).is_some() {
        return Err(Error::Usage(format!(
            "{}: `command` ({}) registers no protocols: it must be a program that calls \
             symgen::Cli::protocol (see docs/adopting.md)",
            crate::files::shown(&project.file),
            command.join(" ")
        )));
    }
    let (program, rest) = command
        .split_first()
        .ok_or_else(|| Error::Usage("empty command".into()))?;
    // Say what is run, and on whose word.
    eprintln!(
        "symgen: running `{}` (the `command` of {}) in {}",
        crate::files::escape_controls(&command.join(" ")),
        crate::files::shown(&project.file),
        crate::files::shown(&project.root)
    );
    let status = std::process::Command::new(program)
        .args(rest)
        .args(args.iter().skip(1))
        .current_dir(&project.root)
        .env(DELEGATED, "1")
        .status()
        .map_err(|err| Error::io(program, err))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(2)),
        None => ExitCode::from(2),
    })
}

/// The `symgen` binary: the command line with no protocols registered.
pub fn main() -> ExitCode {
    Cli::new().run()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::relative_path;

    #[test]
    fn relative_paths_climb_to_the_common_parent() {
        assert_eq!(
            relative_path(Path::new("generated/swift"), Path::new("tests/vectors")),
            "../../tests/vectors"
        );
        assert_eq!(
            relative_path(Path::new("."), Path::new("tests/vectors")),
            "tests/vectors"
        );
        assert_eq!(relative_path(Path::new("a/b"), Path::new("a/b")), ".");
        assert_eq!(relative_path(Path::new("a/b"), Path::new("a/c")), "../c");
    }
}
