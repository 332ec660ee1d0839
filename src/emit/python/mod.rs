//! The Python generator (`symgen py`): renders schema models into a pip-installable
//! package (`pyproject.toml`, `src/` layout) of pydantic v2 models: per schema a module
//! with a class per record and union variant, `Literal` types for enums, a codec per
//! root type (`decode_…`/`encode_…`), typed reply decoding for requests, and a shared
//! runtime module. With conformance vectors it also writes a pytest suite that
//! round-trips every vector.
//!
//! Conventions (see `docs/python.md`): snake_case attributes whose aliases are the exact
//! wire names; strict decoding (no coercion, like serde), unknown keys ignored (R2),
//! absent and `null` alike for optional fields and optional fields left out when
//! encoding (R3), open unions keep unknown messages whole (R4), located decode errors
//! (`DecodeError.pointer`). Output is byte-stable, `ruff format`-clean and passes
//! `mypy --strict`.

mod layout;
mod module;
mod names;
mod view;

use askama::Template;
use serde::Deserialize;

use self::module::ModuleView;
use self::view::{Decl, filters};
use super::{Backend, EmitError, Input, Module, OutputFile};

/// The Python backend (`symgen py`).
#[derive(Debug)]
pub struct Python;

/// The `[python]` options of `symgen.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The distribution name, as `pip install` spells it (default `protocols`).
    pub package: Option<String>,
    /// The import name (default: the distribution name in lowercase with `-` and `.`
    /// as `_`).
    pub module: Option<String>,
    /// The package version (default `0.0.0`).
    pub version: Option<String>,
}

impl Options {
    fn package(&self) -> &str {
        self.package.as_deref().unwrap_or("protocols")
    }

    fn module(&self) -> String {
        self.module
            .clone()
            .unwrap_or_else(|| names::module_of_distribution(self.package()))
    }

    fn check(&self) -> Result<(), String> {
        if let Some(name) = &self.package {
            names::check_distribution(name).map_err(|why| format!("package: {why}"))?;
        }
        names::check_module(&self.module()).map_err(|why| format!("module: {why}"))?;
        if let Some(version) = &self.version {
            let ok = !version.is_empty()
                && version
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._+-!".contains(&b));
            if !ok {
                return Err(format!(
                    "version: `{}` is not a Python package version",
                    version.escape_default()
                ));
            }
        }
        Ok(())
    }
}

impl Backend for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn command(&self) -> &'static str {
        "py"
    }

    fn about(&self) -> &'static str {
        "Render the JSON Schemas into Python: a pip-installable package of pydantic models with one module per schema, codecs for the root types and, with conformance vectors, a pytest suite"
    }

    fn default_dir(&self) -> &'static str {
        "generated/python"
    }

    fn by_default(&self) -> bool {
        true
    }

    fn build_paths(&self) -> &'static [&'static str] {
        &[
            ".venv",
            "build",
            "dist",
            ".mypy_cache",
            ".pytest_cache",
            ".ruff_cache",
            "__pycache__",
            "src/__pycache__",
        ]
    }

    fn check_options(&self, options: &toml::Table) -> Result<(), String> {
        super::parse_options::<Options>(options)?.check()
    }

    fn render(&self, input: &Input<'_>) -> Result<Vec<OutputFile>, EmitError> {
        let options: Options = super::parse_options(input.options)
            .and_then(|o: Options| o.check().map(|()| o))
            .map_err(|message| EmitError::new(self.name(), "symgen.toml", "python", message))?;
        render_package(input, &options)
    }
}

/// A module's source.
#[derive(Template)]
#[template(path = "python/module.py")]
struct ModuleTemplate<'a> {
    /// The schema file it comes from, as a docstring-safe line.
    source: &'a str,
    view: &'a ModuleView,
}

/// The package's `__init__.py`.
#[derive(Template)]
#[template(path = "python/__init__.py")]
struct InitTemplate<'a> {
    package: &'a str,
    /// `from . import …`, laid out.
    imports: &'a str,
    modules: &'a [String],
}

/// `pyproject.toml`.
#[derive(Template)]
#[template(path = "python/project.toml")]
struct ProjectTemplate<'a> {
    /// A TOML string: the distribution name.
    name: &'a str,
    /// A TOML string: the version.
    version: &'a str,
    /// The import name.
    module: &'a str,
    /// A TOML string: the description.
    description: &'a str,
    /// Whether the package has a test suite.
    tests: bool,
}

/// `tests/test_vectors.py`.
#[derive(Template)]
#[template(path = "python/test_vectors.py")]
struct VectorTestsTemplate<'a> {
    package: &'a str,
    /// `from <package> import <protocol modules>`, laid out.
    imports: &'a str,
    /// `MODULES = [...]`, laid out.
    modules: &'a str,
    /// A Python string literal: the vector directory relative to the package root.
    vectors: &'a str,
}

/// Renders the whole package.
pub fn render_package(input: &Input<'_>, options: &Options) -> Result<Vec<OutputFile>, EmitError> {
    let package = options.module();
    let mut scope = names::Scope::with_reserved(&["_runtime", "__init__", "py"]);
    let mut modules: Vec<&Module> = input.modules.iter().collect();
    modules.sort_by(|a, b| a.stem.cmp(&b.stem));
    let mut files = Vec::new();
    let mut module_names = Vec::new();
    let python_names: Vec<(&Module, String)> = modules
        .into_iter()
        .map(|module| (module, scope.claim(names::snake(&module.stem, "m"))))
        .collect();
    for (module, name) in &python_names {
        let (module, name) = (*module, name.clone());
        let view = module::render_module(module, &python_names)?;
        let source = crate::emit::text::one_line(&module.file_name);
        let contents = super::render_template(
            "python",
            &ModuleTemplate {
                source: &layout::docstring_text(&source),
                view: &view,
            },
            &module.file_name,
        )?;
        files.push(OutputFile {
            path: format!("src/{package}/{name}.py"),
            contents,
        });
        module_names.push(name);
    }
    // The package's modules in the order isort and `__all__` keep them: by name, digits
    // by value.
    let mut sorted_names = module_names.clone();
    module::sort_names(&mut sorted_names);
    files.push(OutputFile {
        path: format!("src/{package}/__init__.py"),
        contents: super::render_template(
            "python",
            &InitTemplate {
                package: &package,
                imports: &module::import_line(".", &sorted_names),
                modules: &sorted_names,
            },
            "__init__.py",
        )?,
    });
    files.push(OutputFile {
        path: format!("src/{package}/_runtime.py"),
        contents: include_str!("../../../templates/python/runtime.py").to_owned(),
    });
    files.push(OutputFile {
        path: format!("src/{package}/py.typed"),
        contents: String::new(),
    });
    // With vectors, the suite covers every module: a protocol must have vectors, any
    // other schema is checked when its directory exists.
    let tests = input.vectors.is_some() && !module_names.is_empty();
    if let (Some(vectors), true) = (input.vectors, tests) {
        files.push(OutputFile {
            path: "tests/test_vectors.py".to_owned(),
            contents: super::render_template(
                "python",
                &VectorTestsTemplate {
                    package: &package,
                    imports: &module::import_line(&package, &sorted_names),
                    modules: &layout::assignment(
                        0,
                        "MODULES",
                        Some(&layout::Py::sub(
                            "list",
                            vec![layout::Py::atom("ModuleType")],
                        )),
                        Some(&layout::Py::List(
                            module_names.iter().map(layout::Py::atom).collect(),
                        )),
                    ),
                    vectors: &layout::string(vectors),
                },
                "tests/test_vectors.py",
            )?,
        });
    }
    let description = crate::emit::text::toml_string(&format!(
        "Protocol types generated by symgen ({})",
        module_names.join(", ")
    ));
    files.push(OutputFile {
        path: "pyproject.toml".to_owned(),
        contents: super::render_template(
            "python",
            &ProjectTemplate {
                name: &crate::emit::text::toml_string(options.package()),
                version: &crate::emit::text::toml_string(
                    options.version.as_deref().unwrap_or("0.0.0"),
                ),
                module: &package,
                description: &description,
                tests,
            },
            "pyproject.toml",
        )?,
    });
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}
