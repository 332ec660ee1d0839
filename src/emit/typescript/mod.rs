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
mod names;

use askama::Template;

use super::Module;
use crate::check::ExpectedFile;

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
pub fn render_package(modules: &[Module]) -> Vec<ExpectedFile> {
    let mut files = Vec::with_capacity(modules.len() + 3);
    let mut refs = Vec::with_capacity(modules.len());
    let mut namespaces = names::Namespace::default();
    let mut sorted: Vec<&Module> = modules.iter().collect();
    sorted.sort_by(|a, b| a.stem.cmp(&b.stem));
    for module in sorted {
        files.push(ExpectedFile {
            relative: format!("{}.ts", module.stem),
            contents: module::render_module(&module.model, &module.file_name),
        });
        refs.push(ModuleRef {
            namespace: namespaces.claim_value(&module.stem),
            stem: module.stem.clone(),
        });
    }
    files.push(ExpectedFile {
        relative: "index.ts".into(),
        contents: render(&IndexTemplate { modules: &refs }),
    });
    let mut sources: Vec<&str> = modules.iter().map(|m| m.file_name.as_str()).collect();
    sources.sort_unstable();
    files.push(ExpectedFile {
        relative: "package.json".into(),
        contents: render(&PackageTemplate {
            sources: &sources.join(", "),
            modules: &refs,
        }),
    });
    files.push(ExpectedFile {
        relative: "tsconfig.json".into(),
        contents: render(&TsconfigTemplate),
    });
    files
}
