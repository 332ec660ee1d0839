//! The TypeScript generator (`symgen ts`): renders schema models into an npm package,
//! one module per schema file plus `index.ts`, `package.json` and `tsconfig.json`.
//!
//! Conventions (see `docs/typescript.md`): `export interface` for records, string-literal
//! unions for enums, discriminated unions of one interface per variant for tagged unions,
//! exact wire names as property names (quoted when not identifiers), `name?: T | null`
//! where null means absent (R3), `number` for every integer (64-bit ones carry a doc
//! note), JSDoc from the schema's descriptions, typed reply maps, and an `…OrUnknown` type
//! plus an `isKnown…` guard for open unions (R4). Output is byte-stable and already
//! prettier-formatted.

mod layout;
mod module;
pub mod names;

use askama::Template;
use serde::Deserialize;

use super::{Backend, EmitError, Input, Module, OutputFile};

/// The TypeScript backend (`symgen ts`).
#[derive(Debug)]
pub struct TypeScript;

/// The `[typescript]` options of `symgen.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The npm package name (default `protocols`).
    pub package: Option<String>,
}

impl Options {
    fn package(&self) -> &str {
        self.package.as_deref().unwrap_or("protocols")
    }

    fn check(&self) -> Result<(), String> {
        if let Some(name) = &self.package {
            names::check_package_name(name).map_err(|why| format!("package: {why}"))?;
        }
        Ok(())
    }
}

impl Backend for TypeScript {
    fn name(&self) -> &'static str {
        "typescript"
    }

    fn command(&self) -> &'static str {
        "ts"
    }

    fn about(&self) -> &'static str {
        "Render the JSON Schemas into TypeScript: an npm package with one module per schema and an `index.ts`"
    }

    fn default_dir(&self) -> &'static str {
        "generated/typescript"
    }

    fn build_paths(&self) -> &'static [&'static str] {
        &["dist", "node_modules"]
    }

    fn check_options(&self, options: &toml::Table) -> Result<(), String> {
        super::parse_options::<Options>(options)?.check()
    }

    fn render(&self, input: &Input<'_>) -> Result<Vec<OutputFile>, EmitError> {
        let options: Options = super::parse_options(input.options)
            .and_then(|o: Options| o.check().map(|()| o))
            .map_err(|message| EmitError::new(self.name(), "symgen.toml", "typescript", message))?;
        Ok(render_package(input.modules, &options))
    }
}

struct ModuleRef {
    namespace: String,
    stem: String,
}

#[derive(Template)]
#[template(path = "typescript/index.ts")]
struct IndexTemplate<'a> {
    modules: &'a [ModuleRef],
}

#[derive(Template)]
#[template(path = "typescript/package.json")]
struct PackageTemplate<'a> {
    name: &'a str,
    sources: &'a str,
    modules: &'a [ModuleRef],
}

#[derive(Template)]
#[template(path = "typescript/tsconfig.json")]
struct TsconfigTemplate;

fn render(template: &impl Template) -> String {
    let mut text = template.render().unwrap_or_default();
    text.push('\n');
    text
}

/// Every file of the generated package for `modules`, with paths relative to the
/// package directory.
pub fn render_package(modules: &[Module], options: &Options) -> Vec<OutputFile> {
    let mut files = Vec::with_capacity(modules.len() + 3);
    let mut refs = Vec::with_capacity(modules.len());
    let mut namespaces = names::Namespace::default();
    let mut sorted: Vec<&Module> = modules.iter().collect();
    sorted.sort_by(|a, b| a.stem.cmp(&b.stem));
    for module in sorted {
        files.push(OutputFile {
            path: format!("{}.ts", module.stem),
            contents: module::render_module(&module.model, &module.file_name),
        });
        refs.push(ModuleRef {
            namespace: namespaces.claim_value(&module.stem),
            stem: module.stem.clone(),
        });
    }
    files.push(OutputFile {
        path: "index.ts".into(),
        contents: render(&IndexTemplate { modules: &refs }),
    });
    let mut sources: Vec<&str> = modules.iter().map(|m| m.file_name.as_str()).collect();
    sources.sort_unstable();
    files.push(OutputFile {
        path: "package.json".into(),
        contents: render(&PackageTemplate {
            name: &json_string(options.package()),
            sources: &sources.join(", "),
            modules: &refs,
        }),
    });
    files.push(OutputFile {
        path: "tsconfig.json".into(),
        contents: render(&TsconfigTemplate),
    });
    files
}

/// `text` as a JSON string literal (quotes included).
fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}
