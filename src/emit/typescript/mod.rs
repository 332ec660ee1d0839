//! The TypeScript generator (`symgen ts`): renders schema models into an npm package
//! that installs like any dependency: per schema a module of declarations (`.d.ts`) and
//! JavaScript, plus a runtime module, an index and `package.json`. Nothing is built
//! after generation: the declarations are the types, the JavaScript holds the run-time
//! code (the decoders and encoders of `codec.rs`, tag lists, guards), in CommonJS and ES
//! module form side by side (`module-format`), selected by `package.json`'s `exports`
//! conditions (see `docs/typescript.md` for why).
//!
//! Conventions (see `docs/typescript.md`): `export interface` for records, string-literal
//! unions for enums, discriminated unions of one interface per variant for tagged unions,
//! exact wire names as property names (quoted when not identifiers), `name?: T | null`
//! where null means absent (R3), `number` for every integer (64-bit ones carry a doc
//! note), JSDoc from the schema's descriptions, typed reply maps, and an `…OrUnknown` type
//! plus an `isKnown…` guard for open unions (R4). Output is byte-stable and already
//! prettier-formatted.

mod codec;
mod layout;
mod module;
mod names;
mod view;

use askama::Template;
use serde::Deserialize;

use self::codec::{Codec, Kind};
use self::view::{ApiFunction, Decl, filters};
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
    /// The package version (default `0.0.0`).
    pub version: Option<String>,
    /// `"private": true` in `package.json`, so npm refuses to publish it (default true).
    pub private: Option<bool>,
    /// `dual` (default), `esm` or `cjs`.
    pub module_format: Option<ModuleFormat>,
}

impl Options {
    fn package(&self) -> &str {
        self.package.as_deref().unwrap_or("protocols")
    }

    fn check(&self) -> Result<(), String> {
        if let Some(name) = &self.package {
            names::check_package_name(name).map_err(|why| format!("package: {why}"))?;
        }
        if let Some(version) = &self.version {
            semver::Version::parse(version).map_err(|err| {
                format!("version: `{version}` is not a version npm reads (`MAJOR.MINOR.PATCH`, optionally `-pre` and `+build`): {err}")
            })?;
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
        "Render the JSON Schemas into TypeScript: an npm package (declarations, and JavaScript decoders and encoders that check every rule at run time; CommonJS and ES modules) with one module per schema and an index"
    }

    fn default_dir(&self) -> &'static str {
        "generated/typescript"
    }

    fn by_default(&self) -> bool {
        true
    }

    fn build_paths(&self) -> &'static [&'static str] {
        &["node_modules"]
    }

    fn check_options(&self, options: &toml::Table) -> Result<(), String> {
        super::parse_options::<Options>(options)?.check()
    }

    fn render(&self, input: &Input<'_>) -> Result<Vec<OutputFile>, EmitError> {
        let options: Options = super::parse_options(input.options)
            .and_then(|o: Options| o.check().map(|()| o))
            .map_err(|message| EmitError::new(self.name(), "symgen.toml", "typescript", message))?;
        render_package(input.modules, &options)
    }
}

/// How the package's JavaScript is shaped (`module-format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModuleFormat {
    /// CommonJS (`.js`, `.d.ts`) and ES modules (`.mjs`, `.d.mts`) side by side, chosen
    /// by the `exports` conditions: works with every `moduleResolution` and bundler.
    #[default]
    Dual,
    /// ES modules only (`"type": "module"`).
    Esm,
    /// CommonJS only.
    Cjs,
}

/// One flavour of the package's modules: file extensions and module syntax.
#[derive(Debug, Clone, Copy)]
struct Flavour {
    /// `js` or `mjs`.
    js: &'static str,
    /// `d.ts` or `d.mts`.
    dts: &'static str,
    /// CommonJS syntax (`require`/`module.exports`) rather than ES modules.
    commonjs: bool,
}

const CJS: Flavour = Flavour {
    js: "js",
    dts: "d.ts",
    commonjs: true,
};
const ESM_MJS: Flavour = Flavour {
    js: "mjs",
    dts: "d.mts",
    commonjs: false,
};
const ESM_JS: Flavour = Flavour {
    js: "js",
    dts: "d.ts",
    commonjs: false,
};

impl ModuleFormat {
    fn flavours(self) -> &'static [Flavour] {
        match self {
            ModuleFormat::Dual => &[CJS, ESM_MJS],
            ModuleFormat::Esm => &[ESM_JS],
            ModuleFormat::Cjs => &[CJS],
        }
    }
}

/// A module of the package: the namespace `index` exports it as and its file stem.
struct ModuleRef {
    namespace: String,
    file: String,
}

/// A module's declarations (`.d.ts`, `.d.mts`).
#[derive(Template)]
#[template(path = "typescript/module.d.ts")]
struct DeclarationsTemplate<'a> {
    /// The schema file it comes from.
    source: &'a str,
    decls: &'a [Decl],
    /// The extension of the package's JavaScript files it imports from (`js`, `mjs`).
    js: &'a str,
    /// The specifier of the runtime module (`./runtime.js`).
    runtime: &'a str,
    /// `(exported, local)` names of the runtime's `Result` and `Json` types.
    runtime_types: &'a [(String, String)],
    /// The decoders and encoders.
    api: &'a [ApiFunction],
    /// Imported types exported again (see [`module::ModuleView::reexports`]).
    reexports: &'a [String],
}

/// A module's JavaScript (`.js`, `.mjs`): its run-time declarations.
#[derive(Template)]
#[template(path = "typescript/module.js")]
struct JavaScriptTemplate<'a> {
    source: &'a str,
    /// CommonJS rather than ES module syntax.
    commonjs: bool,
    decls: &'a [Decl],
    /// The specifier of its own declarations, for JSDoc types (`./chat.js`).
    declarations: &'a str,
    /// The names it exports.
    exports: &'a [String],
    /// The specifier of the runtime module (`./runtime.js`).
    runtime: &'a str,
    /// The readers and writers.
    codec: &'a Codec,
    /// The decoders and encoders it exports.
    api: &'a [ApiFunction],
    /// `(local, generic)` type names the API's JSDoc uses: the module's own types and
    /// the runtime's `Result` (generic) and `Json`.
    typedefs: &'a [(String, bool)],
    /// The local names of the runtime's `Result` and `Json`.
    result: &'a str,
    json: &'a str,
}

/// The runtime every module's decoders call (`runtime.js`, `runtime.d.ts`).
#[derive(Template)]
#[template(path = "typescript/runtime.js")]
struct RuntimeTemplate<'a> {
    commonjs: bool,
    /// The specifier of its declarations (`./runtime.js`).
    declarations: &'a str,
}

#[derive(Template)]
#[template(path = "typescript/runtime.d.ts")]
struct RuntimeDeclarationsTemplate;

#[derive(Template)]
#[template(path = "typescript/index.d.ts")]
struct IndexDeclarationsTemplate<'a> {
    modules: &'a [(String, String)],
    /// The specifier of the runtime module (`./runtime.js`).
    runtime: &'a str,
}

#[derive(Template)]
#[template(path = "typescript/index.js")]
struct IndexTemplate<'a> {
    commonjs: bool,
    modules: &'a [(String, String)],
}

/// One `exports` entry of `package.json`: the subpath and its files per condition.
struct ExportEntry {
    subpath: String,
    /// `(condition, types file, JavaScript file)`; one entry without a condition name
    /// for a single-format package.
    conditions: Vec<(&'static str, String, String)>,
}

#[derive(Template)]
#[template(path = "typescript/package.json")]
struct PackageTemplate<'a> {
    name: &'a str,
    version: &'a str,
    private: bool,
    description: &'a str,
    package_type: &'a str,
    main: &'a str,
    types: &'a str,
    exports: &'a [ExportEntry],
}

fn render(template: &impl Template, file: &str) -> Result<String, EmitError> {
    let mut text = template
        .render()
        .map_err(|err| EmitError::new("typescript", file, "", err.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// `./name.ext`: how one module of the package names another.
pub(crate) fn specifier(file: &str, ext: &str) -> String {
    format!("./{file}.{ext}")
}

/// Every file of the generated package for `modules`, with paths relative to the
/// package directory.
pub fn render_package(modules: &[Module], options: &Options) -> Result<Vec<OutputFile>, EmitError> {
    let format = options.module_format.unwrap_or_default();
    let mut files = Vec::new();
    let mut refs = Vec::with_capacity(modules.len());
    let mut namespaces = names::Namespace::default();
    let mut file_names =
        crate::emit::names::UniqueNames::with_reserved(&["index", "package", "runtime"]);
    let mut sorted: Vec<&Module> = modules.iter().collect();
    sorted.sort_by(|a, b| a.stem.cmp(&b.stem));
    let files_of: Vec<(&Module, String)> = sorted
        .iter()
        .map(|module| {
            (
                *module,
                file_names.claim_ignoring_case(crate::emit::names::file_stem(&module.stem)),
            )
        })
        .collect();
    for (module, file) in &files_of {
        let (module, file) = (*module, file.clone());
        let view = module::render_module(module, &files_of);
        let decls = &view.decls;
        let exports: Vec<String> = decls
            .iter()
            .filter_map(Decl::runtime_name)
            .chain(view.api.iter().map(|f| f.name.as_str()))
            .map(str::to_owned)
            .collect();
        let runtime_types = [
            ("Json".to_owned(), view.json.clone()),
            ("Result".to_owned(), view.result.clone()),
        ];
        let mut typedefs: Vec<(String, bool)> = view
            .api_types
            .iter()
            .map(|name| (name.clone(), false))
            .collect();
        typedefs.push((view.json.clone(), false));
        typedefs.push((view.result.clone(), true));
        for flavour in format.flavours() {
            let runtime = specifier("runtime", flavour.js);
            files.push(OutputFile {
                path: format!("{file}.{}", flavour.dts),
                contents: render(
                    &DeclarationsTemplate {
                        source: &module.file_name,
                        decls,
                        js: flavour.js,
                        runtime: &runtime,
                        runtime_types: &runtime_types,
                        api: &view.api,
                        reexports: &view.reexports,
                    },
                    &module.file_name,
                )?,
            });
            files.push(OutputFile {
                path: format!("{file}.{}", flavour.js),
                contents: render(
                    &JavaScriptTemplate {
                        source: &module.file_name,
                        commonjs: flavour.commonjs,
                        decls,
                        declarations: &format!("./{file}.{}", flavour.js),
                        exports: &exports,
                        runtime: &runtime,
                        codec: &view.codec,
                        api: &view.api,
                        typedefs: &typedefs,
                        result: &view.result,
                        json: &view.json,
                    },
                    &module.file_name,
                )?,
            });
        }
        refs.push(ModuleRef {
            namespace: namespaces.claim_value(&module.stem),
            file,
        });
    }
    for flavour in format.flavours() {
        let runtime = specifier("runtime", flavour.js);
        files.push(OutputFile {
            path: format!("runtime.{}", flavour.dts),
            contents: render(&RuntimeDeclarationsTemplate, "runtime")?,
        });
        files.push(OutputFile {
            path: format!("runtime.{}", flavour.js),
            contents: render(
                &RuntimeTemplate {
                    commonjs: flavour.commonjs,
                    declarations: &runtime,
                },
                "runtime",
            )?,
        });
        let entries: Vec<(String, String)> = refs
            .iter()
            .map(|m| (m.namespace.clone(), specifier(&m.file, flavour.js)))
            .collect();
        files.push(OutputFile {
            path: format!("index.{}", flavour.dts),
            contents: render(
                &IndexDeclarationsTemplate {
                    modules: &entries,
                    runtime: &runtime,
                },
                "index",
            )?,
        });
        files.push(OutputFile {
            path: format!("index.{}", flavour.js),
            contents: render(
                &IndexTemplate {
                    commonjs: flavour.commonjs,
                    modules: &entries,
                },
                "index",
            )?,
        });
    }
    let exports: Vec<ExportEntry> = std::iter::once("index".to_owned())
        .chain(refs.iter().map(|m| m.file.clone()))
        .map(|file| ExportEntry {
            subpath: if file == "index" {
                ".".to_owned()
            } else {
                format!("./{file}")
            },
            conditions: format
                .flavours()
                .iter()
                .map(|flavour| {
                    let condition = match (format, flavour.commonjs) {
                        (ModuleFormat::Dual, true) => "require",
                        (ModuleFormat::Dual, false) => "import",
                        _ => "",
                    };
                    (
                        condition,
                        specifier(&file, flavour.dts),
                        specifier(&file, flavour.js),
                    )
                })
                .collect(),
        })
        .collect();
    let mut sources: Vec<&str> = modules.iter().map(|m| m.file_name.as_str()).collect();
    sources.sort_unstable();
    let main = format.flavours()[0];
    files.push(OutputFile {
        path: "package.json".into(),
        contents: render(
            &PackageTemplate {
                name: options.package(),
                version: options.version.as_deref().unwrap_or("0.0.0"),
                private: options.private.unwrap_or(true),
                description: &format!(
                    "TypeScript types, decoders and encoders for the protocols in {}. Generated by `symgen ts`; do not edit.",
                    sources.join(", ")
                ),
                package_type: if main.commonjs { "commonjs" } else { "module" },
                main: &specifier("index", main.js),
                types: &specifier("index", main.dts),
                exports: &exports,
            },
            "package.json",
        )?,
    });
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}
