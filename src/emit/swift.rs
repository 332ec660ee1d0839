//! The Swift generator: renders schema models ([`crate::model`]) into a SwiftPM package.
//!
//! Layout of the package (see `docs/swift.md`):
//!
//! * `Package.swift`: Swift tools 6.0, Swift 6 language mode, one library product per
//!   schema plus the shared runtime;
//! * `Sources/SymgenRuntime/`: `JSONValue`, coding helpers, the request/reply protocols;
//! * `Sources/Symgen<Protocol>/<Type>.swift`: one file per schema type;
//! * `Tests/SymgenTests/`: an XCTest target that round-trips every conformance vector
//!   of the protocols (only for schemas of symgen's protocols).
//!
//! One module per schema keeps the protocols' type names apart (P1 and P2 both have a
//! `MessageSender`). Output is byte-stable: no versions, no timestamps, sorted where the
//! input has no order.

pub mod enums;
pub mod fields;
pub mod layout;
pub mod naming;
pub mod records;
pub mod recursion;
pub mod templates;
pub mod types;
pub mod unions;

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;

use crate::emit;
use crate::model::{self, Model, Reply, TypeKind};

use self::naming::Scope;
use self::templates::{
    AliasTemplate, CodecsTemplate, FileTemplate, PackageTemplate, VectorTestsTemplate,
};
use self::types::TypeContext;

/// The runtime module every generated module depends on.
pub const RUNTIME_MODULE: &str = "SymgenRuntime";

/// The runtime's public names; schema types are renamed around them.
const RUNTIME_NAMES: &[&str] = &[
    "AnyCodingKey",
    "Indirect",
    "Tuple1",
    "Tuple2",
    "Tuple3",
    "Tuple4",
    "JSONValue",
    "NoContent",
    "OpenUnion",
    "WireMessage",
    "WireRequest",
    "decodeEmptyObject",
];

/// Runtime sources, emitted unchanged.
const RUNTIME_FILES: &[(&str, &str)] = &[
    (
        "AnyCodingKey.swift",
        include_str!("../../templates/swift/runtime/AnyCodingKey.swift"),
    ),
    (
        "Decoding.swift",
        include_str!("../../templates/swift/runtime/Decoding.swift"),
    ),
    (
        "JSONValue.swift",
        include_str!("../../templates/swift/runtime/JSONValue.swift"),
    ),
    (
        "Indirect.swift",
        include_str!("../../templates/swift/runtime/Indirect.swift"),
    ),
    (
        "WireMessage.swift",
        include_str!("../../templates/swift/runtime/WireMessage.swift"),
    ),
];

/// The vector round-trip harness, emitted unchanged.
const CONFORMANCE_VECTORS: &str =
    include_str!("../../templates/swift/tests/ConformanceVectors.swift");

/// Tests of the runtime itself, emitted unchanged.
const RUNTIME_TESTS: &str = include_str!("../../templates/swift/tests/RuntimeTests.swift");

/// One generated file, relative to the package directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// `/`-separated path inside the package.
    pub path: String,
    /// Exact contents.
    pub contents: String,
}

/// The Swift module of one schema.
struct Module<'a> {
    input: &'a emit::Module,
    name: String,
    /// Model type name → Swift type name.
    names: BTreeMap<String, String>,
}

/// The module name of a schema: `Symgen` + its protocol id (or file stem) in
/// UpperCamelCase.
fn module_base(input: &emit::Module) -> String {
    let stem = match &input.model.protocol {
        Some(info) => info.id.clone(),
        None => input.stem.clone(),
    };
    format!("Symgen{}", naming::type_name(&stem))
}

fn type_names(model: &Model, module: &str) -> BTreeMap<String, String> {
    let mut reserved: Vec<&str> = RUNTIME_NAMES.to_vec();
    reserved.push(module);
    reserved.push(RUNTIME_MODULE);
    let mut scope = Scope::with_reserved(&reserved);
    model
        .types
        .iter()
        .map(|t| (t.name.clone(), scope.claim(naming::type_name(&t.name))))
        .collect()
}

/// Renders the whole package for `inputs`.
pub fn generate(inputs: &[emit::Module]) -> Result<Vec<GeneratedFile>, model::Error> {
    // Input order does not matter: modules follow the schema file names.
    let mut sorted: Vec<&emit::Module> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    let mut module_scope = Scope::with_reserved(&[RUNTIME_MODULE, "SymgenTests"]);
    let modules: Vec<Module<'_>> = sorted
        .into_iter()
        .map(|input| {
            let name = module_scope.claim(module_base(input));
            let names = type_names(&input.model, &name);
            Module { input, name, names }
        })
        .collect();

    let mut files = Vec::new();
    for (file, contents) in RUNTIME_FILES {
        files.push(GeneratedFile {
            path: format!("Sources/{RUNTIME_MODULE}/{file}"),
            contents: (*contents).to_owned(),
        });
    }
    files.push(GeneratedFile {
        path: format!("Sources/{RUNTIME_MODULE}/Tuples.swift"),
        contents: render_template(
            &templates::TuplesTemplate {
                arities: (1..=types::MAX_TUPLE)
                    .map(|n| (n, (0..n).collect()))
                    .collect(),
            },
            "Tuples.swift",
        )?,
    });
    for module in &modules {
        files.extend(render_module(module)?);
    }

    let tested: Vec<&Module<'_>> = modules
        .iter()
        .filter(|m| m.input.model.protocol.is_some())
        .collect();
    let mut library_names = vec![RUNTIME_MODULE.to_owned()];
    library_names.extend(modules.iter().map(|m| m.name.clone()));
    let test_dependencies = if tested.is_empty() {
        Vec::new()
    } else {
        library_names.clone()
    };
    files.push(GeneratedFile {
        path: "Package.swift".to_owned(),
        contents: render_template(
            &PackageTemplate {
                modules: library_names,
                tests: test_dependencies,
            },
            "Package.swift",
        )?,
    });
    if !tested.is_empty() {
        files.push(GeneratedFile {
            path: "Tests/SymgenTests/ConformanceVectors.swift".to_owned(),
            contents: CONFORMANCE_VECTORS.to_owned(),
        });
        files.push(GeneratedFile {
            path: "Tests/SymgenTests/RuntimeTests.swift".to_owned(),
            contents: RUNTIME_TESTS.to_owned(),
        });
        let mut protocols = Vec::new();
        for module in &tested {
            let (file, entry) = render_codecs(module)?;
            files.push(file);
            protocols.push(entry);
        }
        files.push(GeneratedFile {
            path: "Tests/SymgenTests/VectorTests.swift".to_owned(),
            contents: render_template(&VectorTestsTemplate { protocols }, "VectorTests.swift")?,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

fn render_template(template: &impl Template, what: &str) -> Result<String, model::Error> {
    let mut text = template
        .render()
        .map_err(|err| model::Error::new(what, "", err.to_string()))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// Renders one module: a file per named type.
fn render_module(module: &Module<'_>) -> Result<Vec<GeneratedFile>, model::Error> {
    let model = &module.input.model;
    let boxed = recursion::boxed_fields(model);
    let none = recursion::Boxed::new();
    let ctx = TypeContext {
        model,
        module: &module.name,
        names: &module.names,
        shadowed: BTreeSet::new(),
        boxed: &none,
    };
    let mut files = Vec::new();
    let mut paths = Scope::default();
    for named in &model.types {
        let ctx = TypeContext {
            boxed: &boxed,
            ..ctx.clone()
        };
        let name = &module.names[&named.name];
        let body = match &named.kind {
            TypeKind::Record(record) => records::render_record(&ctx, named, name, record, 0)?,
            TypeKind::Enum(e) => enums::render(&ctx, named, name, e)?,
            TypeKind::Union(union) => {
                let rendered = unions::render_union(&ctx, named, name, union)?;
                match rendered.markers {
                    Some(markers) => format!("{}\n\n{markers}", rendered.declaration),
                    None => rendered.declaration,
                }
            }
            TypeKind::Alias(expr) => AliasTemplate {
                docs: layout::doc_comment(named.docs.description.as_deref(), 0),
                name: name.clone(),
                target: ctx.swift_type(expr, &named.pointer)?,
            }
            .render()
            .map_err(|err| ctx.error(&named.pointer, err.to_string()))?,
        };
        let contents = render_template(
            &FileTemplate {
                source: &module.input.file_name,
                body: body.trim_end(),
            },
            &module.input.file_name,
        )?;
        // File names stay unique on case-insensitive file systems too.
        let file = paths.claim(name.to_lowercase());
        let file = format!("{name}{}", &file[name.len()..]);
        files.push(GeneratedFile {
            path: format!("Sources/{}/{file}.swift", module.name),
            contents,
        });
    }
    Ok(files)
}

/// A dictionary literal entry `key: value,` at 4 spaces, broken after the colon when
/// too long.
fn dictionary_entry(key: &str, value: &str, comma: bool) -> String {
    let comma = if comma { "," } else { "" };
    let line = format!("    {key}: {value}{comma}");
    if line.chars().count() <= layout::LINE_LIMIT {
        line
    } else {
        format!("    {key}:\n      {value}{comma}")
    }
}

/// Where a protocol's replies carry their typed data (`x-symgen-protocol.replyData`),
/// as JSON Pointer segments.
fn reply_data_pointer(model: &Model) -> Option<Vec<String>> {
    let pointer = model.protocol.as_ref()?.reply_data.as_deref()?;
    Some(
        pointer
            .split('/')
            .skip(1)
            .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// The test registry of one protocol module, and its `(suffix, constant, id)` entry.
fn render_codecs(
    module: &Module<'_>,
) -> Result<(GeneratedFile, (String, String, String)), model::Error> {
    let model = &module.input.model;
    let id = model
        .protocol
        .as_ref()
        .map(|p| p.id.clone())
        .unwrap_or_default();
    let suffix = naming::type_name(&id);
    let constant = format!("{}Codecs", naming::member_name(&id));
    let id_literal = layout::string_literal(&id);
    let root_entries: Vec<(String, String)> = model
        .roots
        .iter()
        .map(|root| {
            (
                layout::string_literal(root),
                format!("RootCodec({}.self)", module.names[root]),
            )
        })
        .collect();
    let mut reply_entries: Vec<(String, String)> = Vec::new();
    for root in &model.roots {
        let Some(named) = model.get(root) else {
            continue;
        };
        let TypeKind::Union(union) = &named.kind else {
            continue;
        };
        if !unions::has_markers(union) {
            continue;
        }
        let owner = &module.names[root];
        for (variant, marker) in union
            .variants
            .iter()
            .zip(unions::marker_names(&union.variants))
        {
            if !matches!(variant.reply, Reply::Data(_)) {
                continue;
            }
            let codec = format!("ReplyCodec({owner}.Messages.{marker}.self)");
            for tag in variant.tag.iter().chain(&variant.tag_aliases) {
                if let Some(tag) = tag.as_str() {
                    reply_entries.push((layout::string_literal(tag), codec.clone()));
                }
            }
        }
    }
    let entries = |items: &[(String, String)]| -> Vec<String> {
        let comma = items.len() > 1;
        items
            .iter()
            .map(|(k, v)| dictionary_entry(k, v, comma))
            .collect()
    };
    let reply_data = match reply_data_pointer(model) {
        Some(segments) => format!(
            "[{}]",
            segments
                .iter()
                .map(|s| layout::string_literal(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "nil".to_owned(),
    };
    let template = CodecsTemplate {
        source: module.input.file_name.clone(),
        module: module.name.clone(),
        constant: constant.clone(),
        id: id_literal.clone(),
        roots: entries(&root_entries),
        replies: entries(&reply_entries),
        reply_data,
    };
    let file = GeneratedFile {
        path: format!("Tests/SymgenTests/{suffix}Codecs.swift"),
        contents: render_template(&template, &module.input.file_name)?,
    };
    Ok((file, (suffix, constant, id_literal)))
}
