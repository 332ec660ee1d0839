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
//! One module per schema keeps the schemas' type names apart; a type one schema
//! `$ref`s from another is declared once, in its home module, which the other imports
//! (see `emit::Module::imports`). Output is byte-stable: no versions, no timestamps,
//! sorted where the input has no order.

mod enums;
mod fields;
mod layout;
mod naming;
mod records;
mod recursion;
mod storage;
mod templates;
mod types;
mod unions;

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use serde::Deserialize;

use crate::emit::{self, Backend, EmitError, Input, OutputFile};
use crate::model::{self, Model, Reply, TypeKind};

use self::naming::Scope;
use self::templates::{
    AliasTemplate, CodecsTemplate, ConformanceVectorsTemplate, FileTemplate, PackageTemplate,
    RuntimeTestsTemplate, VectorTest, VectorTestsTemplate, WrapperTemplate,
};
use self::types::TypeContext;

/// The Swift backend (`symgen swift`).
#[derive(Debug)]
pub struct Swift;

/// The `[swift]` options of `symgen.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The SwiftPM package name (default `Protocols`).
    pub package: Option<String>,
    /// Prepended to every schema module's name (default none).
    pub module_prefix: Option<String>,
    /// The runtime module (default: the prefix, or the package name, + `Runtime`).
    pub runtime_module: Option<String>,
    /// The vector test target (default: the prefix, or the package name, + `Tests`).
    pub test_target: Option<String>,
    /// Module names by protocol id (or schema file stem), overriding prefix + name.
    #[serde(default)]
    pub modules: BTreeMap<String, String>,
}

/// The names the package is built with, every one a Swift identifier.
#[derive(Debug, Clone)]
pub struct Names {
    /// The package.
    pub package: String,
    /// The schema modules' prefix.
    pub prefix: String,
    /// The runtime module.
    pub runtime: String,
    /// The test target.
    pub tests: String,
    /// Explicit module names by protocol id or file stem.
    pub modules: BTreeMap<String, String>,
}

impl Options {
    /// The resolved names, or what is wrong with one.
    pub fn names(&self) -> Result<Names, String> {
        let package = self.package.clone().unwrap_or_else(|| "Protocols".into());
        let prefix = self.module_prefix.clone().unwrap_or_default();
        let base = if prefix.is_empty() { &package } else { &prefix };
        let names = Names {
            runtime: self
                .runtime_module
                .clone()
                .unwrap_or_else(|| format!("{base}Runtime")),
            tests: self
                .test_target
                .clone()
                .unwrap_or_else(|| format!("{base}Tests")),
            package,
            prefix,
            modules: self.modules.clone(),
        };
        for (key, name) in [
            ("package", &names.package),
            ("runtime-module", &names.runtime),
            ("test-target", &names.tests),
        ]
        .into_iter()
        .chain(names.modules.values().map(|name| ("modules", name)))
        {
            naming::check_module_name(name).map_err(|why| format!("{key}: {why}"))?;
        }
        if !names.prefix.is_empty() {
            naming::check_module_name(&names.prefix)
                .map_err(|why| format!("module-prefix: {why}"))?;
        }
        Ok(names)
    }
}

impl Backend for Swift {
    fn name(&self) -> &'static str {
        "swift"
    }

    fn command(&self) -> &'static str {
        "swift"
    }

    fn about(&self) -> &'static str {
        "Render the JSON Schemas into a Swift package (SwiftPM): one module per schema, a shared runtime, and, with conformance vectors, an XCTest target that round-trips them"
    }

    fn default_dir(&self) -> &'static str {
        "generated/swift"
    }

    fn by_default(&self) -> bool {
        true
    }

    fn build_paths(&self) -> &'static [&'static str] {
        &[".build", ".swiftpm"]
    }

    fn check_options(&self, options: &toml::Table) -> Result<(), String> {
        emit::parse_options::<Options>(options)?.names().map(drop)
    }

    fn render(&self, input: &Input<'_>) -> Result<Vec<OutputFile>, EmitError> {
        let names = emit::parse_options::<Options>(input.options)
            .and_then(|options| options.names())
            .map_err(|message| EmitError::new(self.name(), "symgen.toml", "swift", message))?;
        let ids: Vec<String> = input.modules.iter().map(module_id).collect();
        if let Some(unknown) = names.modules.keys().find(|key| !ids.contains(key)) {
            return Err(EmitError::new(
                self.name(),
                "symgen.toml",
                "swift.modules",
                format!(
                    "`{unknown}` names no schema of this project; the schemas are {}",
                    ids.join(", ")
                ),
            ));
        }
        generate(input.modules, &names, input.vectors)
            .map_err(|err| EmitError::from_model(self.name(), err))
    }
}

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
    "WireDecoder",
    "TextFaults",
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
    (
        "WireDecoder.swift",
        include_str!("../../templates/swift/runtime/WireDecoder.swift"),
    ),
];

/// The Swift module of one schema.
struct Module<'a> {
    input: &'a emit::Module,
    name: String,
    /// Model type name → Swift type name.
    names: BTreeMap<String, String>,
    /// Model type name → the module that declares it under the same name (types
    /// another module of the package renders; see `emit::Module::imports`).
    homes: BTreeMap<String, String>,
    /// `(name, Module.Name)`: types another module renders under another name, which
    /// this one declares as type aliases.
    aliases: Vec<(String, String)>,
    /// The modules its files import: the runtime and the modules of shared types.
    imports: Vec<String>,
}

impl Module<'_> {
    /// A model type's name, qualified with its home module when another module
    /// declares it (for files that import more than this module).
    fn qualified(&self, name: &str) -> String {
        let swift = &self.names[name];
        match self.homes.get(name) {
            Some(home) => format!("{home}.{swift}"),
            None => swift.clone(),
        }
    }
}

/// What `[swift.modules]` names a schema by: its protocol id, else its file stem.
fn module_id(input: &emit::Module) -> String {
    match &input.model.protocol {
        Some(info) => info.id.clone(),
        None => input.stem.clone(),
    }
}

/// The module name of a schema: the configured name for its protocol id (or file
/// stem), else the prefix + that id in UpperCamelCase.
fn module_base(input: &emit::Module, names: &Names) -> String {
    let stem = module_id(input);
    match names.modules.get(&stem) {
        Some(name) => name.clone(),
        None => format!("{}{}", names.prefix, naming::type_name(&stem)),
    }
}

/// Fills in what each module imports from the others: the module names, and per shared
/// type either its home (same name) or a type alias (a name of its own here).
fn link_shared_types(modules: &mut [Module<'_>]) {
    for index in 0..modules.len() {
        let mut homes = BTreeMap::new();
        let mut aliases = Vec::new();
        let mut imports = BTreeSet::new();
        for import in modules[index].input.imports() {
            let Some(home) = modules.iter().find(|m| m.input.stem == import.module) else {
                continue;
            };
            let Some(home_swift) = home.names.get(&import.home_name) else {
                continue;
            };
            imports.insert(home.name.clone());
            let local = &modules[index].names[&import.name];
            if local == home_swift {
                homes.insert(import.name.clone(), home.name.clone());
            } else {
                aliases.push((local.clone(), format!("{}.{home_swift}", home.name)));
            }
        }
        let module = &mut modules[index];
        module.homes = homes;
        module.aliases = aliases;
        module.imports.extend(imports);
        module.imports.sort();
    }
}

/// The Swift name of every type of `model`, around the runtime's names and the
/// package's module names (a type named like a module would hide it from qualified
/// references such as `SharedHome.Color`).
fn type_names(model: &Model, modules: &[String], runtime: &str) -> BTreeMap<String, String> {
    let mut reserved: Vec<&str> = RUNTIME_NAMES.to_vec();
    reserved.extend(modules.iter().map(String::as_str));
    reserved.push(runtime);
    let mut scope = Scope::with_reserved(&reserved);
    model
        .types
        .iter()
        .map(|t| (t.name.clone(), scope.claim(naming::type_name(&t.name))))
        .collect()
}

/// Renders the whole package for `inputs`. With `vectors` (the vector directory
/// relative to the package), a test target round-trips the vectors of every protocol
/// schema.
pub fn generate(
    inputs: &[emit::Module],
    package: &Names,
    vectors: Option<&str>,
) -> Result<Vec<OutputFile>, model::Error> {
    // Input order does not matter: modules follow the schema file names.
    let mut sorted: Vec<&emit::Module> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    let runtime = package.runtime.as_str();
    let mut module_scope = Scope::with_reserved(&[runtime, &package.tests]);
    let module_names: Vec<String> = sorted
        .iter()
        .map(|input| module_scope.claim(module_base(input, package)))
        .collect();
    let mut modules: Vec<Module<'_>> = sorted
        .into_iter()
        .zip(&module_names)
        .map(|(input, name)| {
            let name = name.clone();
            let names = type_names(&input.model, &module_names, runtime);
            Module {
                input,
                name,
                names,
                homes: BTreeMap::new(),
                aliases: Vec::new(),
                imports: vec![runtime.to_owned()],
            }
        })
        .collect();
    link_shared_types(&mut modules);

    let mut files = Vec::new();
    for (file, contents) in RUNTIME_FILES {
        files.push(OutputFile {
            path: format!("Sources/{runtime}/{file}"),
            contents: (*contents).to_owned(),
        });
    }
    files.push(OutputFile {
        path: format!("Sources/{runtime}/Tuples.swift"),
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

    // With vectors, every module is tested: a protocol must have vectors, any other
    // schema is checked when its directory (named after the schema file) exists.
    let tested: Vec<&Module<'_>> = match vectors {
        Some(_) => modules.iter().collect(),
        None => Vec::new(),
    };
    let mut library_names = vec![runtime.to_owned()];
    library_names.extend(modules.iter().map(|m| m.name.clone()));
    let targets = std::iter::once(format!("    .target(name: \"{runtime}\"),"))
        .chain(modules.iter().map(|m| target_line(&m.name, &m.imports)))
        .collect();
    let test_dependencies = if tested.is_empty() {
        Vec::new()
    } else {
        library_names.clone()
    };
    files.push(OutputFile {
        path: "Package.swift".to_owned(),
        contents: render_template(
            &PackageTemplate {
                package: &package.package,
                test_target: &package.tests,
                products: library_names
                    .iter()
                    .map(|name| product_line(name))
                    .collect(),
                targets,
                tests: test_dependencies,
            },
            "Package.swift",
        )?,
    });
    if let (false, Some(vectors)) = (tested.is_empty(), vectors) {
        let tests = &package.tests;
        let mut imports = ["Foundation", runtime, "XCTest"];
        imports.sort_unstable();
        files.push(OutputFile {
            path: format!("Tests/{tests}/ConformanceVectors.swift"),
            contents: render_template(
                &ConformanceVectorsTemplate {
                    imports: &imports,
                    vectors: &layout::string_literal(vectors),
                },
                "ConformanceVectors.swift",
            )?,
        });
        files.push(OutputFile {
            path: format!("Tests/{tests}/RuntimeTests.swift"),
            contents: render_template(
                &RuntimeTestsTemplate { imports: &imports },
                "RuntimeTests.swift",
            )?,
        });
        let mut protocols = Vec::new();
        for module in &tested {
            let (file, entry) = render_codecs(module, tests)?;
            files.push(file);
            protocols.push(entry);
        }
        files.push(OutputFile {
            path: format!("Tests/{tests}/VectorTests.swift"),
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
fn render_module(module: &Module<'_>) -> Result<Vec<OutputFile>, model::Error> {
    let model = &module.input.model;
    let boxed = recursion::boxed_fields(model);
    let recursive = recursion::recursive_aliases(model);
    let storage = storage::plan(model, &boxed);
    let none = recursion::Boxed::new();
    let ctx = TypeContext {
        model,
        module: &module.name,
        names: &module.names,
        homes: &module.homes,
        shadowed: BTreeSet::new(),
        boxed: &none,
        large: &storage.indirect,
        large_fields: &storage.boxed,
    };
    let mut files = Vec::new();
    let mut paths = Scope::default();
    let mut bodies: Vec<(&str, String)> = Vec::new();
    for named in model.types.iter().filter(|t| module.input.renders(&t.name)) {
        let ctx = TypeContext {
            boxed: &boxed,
            ..ctx.clone()
        };
        let name = &module.names[&named.name];
        let constant = enums::constant_enum(&named.kind);
        let body = match &constant {
            Some(constant) => enums::render(&ctx, named, name, constant)?,
            None => match &named.kind {
                TypeKind::Record(record) => records::render_record(&ctx, named, name, record, 0)?,
                TypeKind::Enum(e) => enums::render(&ctx, named, name, e)?,
                TypeKind::Union(union) => {
                    let rendered = unions::render_union(&ctx, named, name, union)?;
                    match rendered.markers {
                        Some(markers) => format!("{}\n\n{markers}", rendered.declaration),
                        None => rendered.declaration,
                    }
                }
                TypeKind::Alias(expr) => {
                    let target = ctx.swift_type(expr, &named.pointer)?;
                    let docs = layout::doc_comment(layout::doc_text(&named.docs).as_deref(), 0);
                    let name = name.clone();
                    if recursive.contains(&named.name) {
                    // The wrapper's widest line.
                    let widest = format!(
                        "    self.value = try decoder.singleValueContainer().decode({target}.self)"
                    );
                    let too_long = !layout::fits(&widest);
                    WrapperTemplate { docs, name, target, too_long }.render()
                } else {
                    let too_long = !layout::fits(&format!("public typealias {name} = {target}"));
                    AliasTemplate { docs, name, target, too_long }.render()
                }
                .map_err(|err| ctx.error(&named.pointer, err.to_string()))?
                }
            },
        };
        bodies.push((name, body));
    }
    for (name, target) in &module.aliases {
        let line = format!("public typealias {name} = {target}");
        let docs = format!("The type `{target}`, which this module uses too.");
        let body = AliasTemplate {
            docs: layout::doc_comment(Some(&docs), 0),
            name: name.clone(),
            too_long: !layout::fits(&line),
            target: target.clone(),
        }
        .render()
        .map_err(|err| ctx.error("", err.to_string()))?;
        bodies.push((name, body));
    }
    if bodies.is_empty() {
        // A target needs a source file: a schema that defines no types still gets one.
        let docs = format!(
            "`{}` defines no types; this file keeps the module's target buildable.",
            module.input.file_name
        );
        let body = format!(
            "{}public enum {}Schema {{}}",
            layout::doc_comment(Some(&docs), 0),
            module.name
        );
        bodies.push((module.name.as_str(), body));
    }
    for (name, body) in bodies {
        let contents = render_template(
            &FileTemplate {
                source: &crate::emit::text::one_line(&module.input.file_name),
                imports: &module.imports,
                body: body.trim_end(),
            },
            &module.input.file_name,
        )?;
        // File names stay unique on case-insensitive file systems too.
        // The suffix is cut from the claimed name by the *lowercased* length: lowercasing
        // may change a name's length (`Ω` → `ω`, `İ` → `i̇`).
        let lower = name.to_lowercase();
        let claimed = paths.claim(lower.clone());
        let file = format!("{name}{}", &claimed[lower.len()..]);
        files.push(OutputFile {
            path: format!("Sources/{}/{file}.swift", module.name),
            contents,
        });
    }
    Ok(files)
}

/// `.target(name: "M", dependencies: [...]),` in `Package.swift`, on one line when it
/// fits, else one dependency per line (as swift-format lays it out).
fn target_line(name: &str, dependencies: &[String]) -> String {
    let quoted: Vec<String> = dependencies.iter().map(|d| format!("\"{d}\"")).collect();
    let line = format!(
        "    .target(name: \"{name}\", dependencies: [{}]),",
        quoted.join(", ")
    );
    if line.chars().count() <= layout::LINE_LIMIT {
        return line;
    }
    let items: String = quoted.iter().map(|d| format!("        {d},\n")).collect();
    format!("    .target(\n      name: \"{name}\",\n      dependencies: [\n{items}      ]\n    ),")
}

/// A dictionary literal entry `key: value,` at 4 spaces, broken after the colon when
/// too long.
/// `.library(name: "M", targets: ["M"]),` as swift-format prints it: on one line, else
/// its arguments on the next, else one per line with the parenthesis after the last.
fn product_line(name: &str) -> String {
    let fits = |line: &str| line.chars().count() <= layout::LINE_LIMIT;
    let line = format!("    .library(name: \"{name}\", targets: [\"{name}\"]),");
    if fits(&line) {
        return line;
    }
    let arguments = format!("      name: \"{name}\", targets: [\"{name}\"]),");
    if fits(&arguments) {
        return format!("    .library(\n{arguments}");
    }
    format!("    .library(\n      name: \"{name}\",\n      targets: [\"{name}\"]),")
}

fn dictionary_entry(key: &str, value: &str, comma: bool) -> String {
    let comma = if comma { "," } else { "" };
    let fits = |line: &str| line.chars().count() <= layout::LINE_LIMIT;
    let line = format!("    {key}: {value}{comma}");
    if fits(&line) {
        return line;
    }
    let value_line = format!("      {value}{comma}");
    if fits(&value_line) {
        return format!("    {key}:\n{value_line}");
    }
    // `Codec(A.Messages.B.self)`: the argument on its own lines, its member chain broken
    // before each `.` that would pass the limit.
    let Some((call, argument)) = value.split_once('(') else {
        return format!("    {key}:\n{value_line}");
    };
    let mut lines = vec![format!("    {key}:"), format!("      {call}(")];
    let mut current = "        ".to_owned();
    for (i, part) in argument.split('.').enumerate() {
        let piece = if i == 0 {
            part.to_owned()
        } else {
            format!(".{part}")
        };
        if i > 0 && !fits(&format!("{current}{piece}")) {
            lines.push(std::mem::take(&mut current));
            current = format!("          {piece}");
        } else {
            current.push_str(&piece);
        }
    }
    current.push_str(comma);
    lines.push(current);
    lines.join("\n")
}

/// Where a protocol's replies carry their typed data (`x-symgen-protocol.replyData`),
/// as JSON Pointer segments.
fn reply_data_pointer(model: &Model) -> Option<Vec<String>> {
    let pointer = model.protocol.as_ref()?.reply_data.as_deref()?;
    Some(
        pointer
            .split('/')
            .skip(1)
            .map(|segment| crate::json_pointer::unescape(segment).into_owned())
            .collect(),
    )
}

/// The test registry of one protocol module, and its `(suffix, constant, id)` entry.
fn render_codecs(
    module: &Module<'_>,
    tests: &str,
) -> Result<(OutputFile, VectorTest), model::Error> {
    let model = &module.input.model;
    let required = model.protocol.is_some();
    let id = model
        .protocol
        .as_ref()
        .map(|p| p.id.clone())
        .unwrap_or_else(|| module.input.stem.clone());
    let suffix = naming::type_name(&id);
    let constant = format!("{}Codecs", naming::member_name(&id));
    let id_literal = layout::string_literal(&id);
    let root_entries: Vec<(String, String)> = model
        .entry_points()
        .into_iter()
        .map(|root| {
            (
                layout::string_literal(root),
                format!("RootCodec({}.self)", module.qualified(root)),
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
        source: crate::emit::text::one_line(&module.input.file_name),
        imports: {
            let mut imports: BTreeSet<String> = module.homes.values().cloned().collect();
            imports.insert(module.name.clone());
            imports.into_iter().collect()
        },
        constant: constant.clone(),
        id: id_literal.clone(),
        roots: entries(&root_entries),
        replies: entries(&reply_entries),
        reply_data,
        required,
    };
    let file = OutputFile {
        path: format!("Tests/{tests}/{suffix}Codecs.swift"),
        contents: render_template(&template, &module.input.file_name)?,
    };
    Ok((
        file,
        VectorTest {
            suffix,
            constant,
            id: id_literal,
            required,
        },
    ))
}
