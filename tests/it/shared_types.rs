//! Types shared between schemas: a type one schema defines and another `$ref`s is
//! rendered once, in the defining schema's module, and imported by the other — in every
//! language; module dependencies stay acyclic. And the protocols' own schema files: a
//! later protocol `$ref`s the definitions it shares with an earlier one.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use symgen::Protocol;
use symgen::emit::{self, Backend, Input, Module};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/schemas")
        .join(name)
}

/// The fixture pair, as one package's modules.
fn pair() -> Vec<Module> {
    emit::load_modules(&[
        fixture("shared-user.schema.json"),
        fixture("shared-home.schema.json"),
    ])
    .unwrap_or_else(|err| panic!("{err}"))
}

/// The stems of the modules `module` imports from.
fn dependencies(module: &Module) -> Vec<&str> {
    module
        .imports_by_module()
        .into_iter()
        .map(|(stem, _)| stem)
        .collect()
}

fn module<'m>(modules: &'m [Module], stem: &str) -> &'m Module {
    modules.iter().find(|m| m.stem == stem).expect("module")
}

/// Renders `modules` with `backend`; the file at `path`.
fn file(backend: &dyn Backend, modules: &[Module], path: &str) -> String {
    let input = Input {
        modules,
        options: &toml::Table::new(),
        vectors: None,
    };
    let files = backend.render(&input).unwrap_or_else(|err| panic!("{err}"));
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    files
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("no {path} in {paths:?}"))
        .contents
        .clone()
}

#[test]
fn a_referenced_type_is_rendered_by_its_home_and_imported_elsewhere() {
    let modules = pair();
    let (home, user) = (
        module(&modules, "shared-home"),
        module(&modules, "shared-user"),
    );
    assert!(home.imports().is_empty());
    let imported: Vec<(&str, &str, &str)> = user
        .imports()
        .iter()
        .map(|i| (i.name.as_str(), i.module.as_str(), i.home_name.as_str()))
        .collect();
    assert_eq!(
        imported,
        [
            ("Color2", "shared-home", "Color"),
            ("Point", "shared-home", "Point"),
            ("Shape", "shared-home", "Shape")
        ]
    );
    // Not rendered here: the shared types and what only they use (`Label`).
    for name in ["Point", "Shape", "Color2", "Label"] {
        assert!(!user.renders(name), "{name} rendered twice");
    }
    assert!(user.renders("Color") && user.renders("Drawing"));
    assert_eq!(dependencies(user), ["shared-home"]);
}

#[test]
fn generated_alone_a_schema_keeps_its_own_copies() {
    let modules = emit::load_modules(&[fixture("shared-user.schema.json")]).unwrap();
    assert!(modules[0].imports().is_empty());
    assert!(modules[0].renders("Point") && modules[0].renders("Label"));
}

#[test]
fn typescript_imports_the_shared_types() {
    let modules = pair();
    let user = file(&emit::typescript::TypeScript, &modules, "shared-user.d.ts");
    assert!(
        user.contains("import type { Color as Color2, Point, Shape } from \"./shared-home.js\";"),
        "{user}"
    );
    assert!(!user.contains("interface Point"), "{user}");
    let esm = file(&emit::typescript::TypeScript, &modules, "shared-user.d.mts");
    assert!(esm.contains("from \"./shared-home.mjs\";"), "{esm}");
}

#[test]
fn swift_depends_on_the_home_module_and_aliases_a_renamed_type() {
    let modules = pair();
    let swift = &emit::swift::Swift;
    let package = file(swift, &modules, "Package.swift");
    assert!(
        package.contains(
            ".target(name: \"SharedUser\", dependencies: [\"ProtocolsRuntime\", \"SharedHome\"]),"
        ),
        "{package}"
    );
    let drawing = file(swift, &modules, "Sources/SharedUser/Drawing.swift");
    assert!(drawing.contains("\nimport SharedHome\n"), "{drawing}");
    let alias = file(swift, &modules, "Sources/SharedUser/Color2.swift");
    assert!(
        alias.contains("public typealias Color2 = SharedHome.Color"),
        "{alias}"
    );
    let input = Input {
        modules: &modules,
        options: &toml::Table::new(),
        vectors: None,
    };
    let files = swift.render(&input).unwrap();
    for name in ["Point", "Shape", "Label"] {
        let path = format!("Sources/SharedUser/{name}.swift");
        assert!(
            files.iter().all(|f| f.path != path),
            "{path} rendered twice"
        );
    }
}

#[test]
fn python_imports_the_shared_types() {
    let modules = pair();
    let user = file(
        &emit::python::Python,
        &modules,
        "src/protocols/shared_user.py",
    );
    assert!(
        user.contains(
            "from .shared_home import Color as Color2\nfrom .shared_home import Point, Shape\n"
        ),
        "{user}"
    );
    assert!(!user.contains("class Point"), "{user}");
}

/// Two in-memory schemas that reference each other.
fn cycle() -> Vec<Module> {
    let a = json!({
        "$id": "urn:test:a",
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "urn:test:b#/$defs/B"}}}
        }
    });
    let b = json!({
        "$id": "urn:test:b",
        "$defs": {
            "B": {"type": "object", "properties": {"a": {"$ref": "urn:test:a#/$defs/A"}}}
        }
    });
    emit::modules_from_texts(&[
        ("b.json".to_owned(), b.to_string()),
        ("a.json".to_owned(), a.to_string()),
    ])
    .unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn schemas_that_reference_each_other_do_not_import_in_a_cycle() {
    let modules = cycle();
    let (a, b) = (module(&modules, "a"), module(&modules, "b"));
    // The module that sorts first imports; the other keeps its own copy.
    assert_eq!(dependencies(a), ["b"]);
    assert!(b.imports().is_empty());
    assert!(b.renders("A") && b.renders("B"));
    assert!(!a.renders("B"));
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Common {
    id: u32,
}

mod one {
    use super::*;

    /// The first protocol's `Item`.
    #[derive(Serialize, Deserialize, JsonSchema)]
    pub struct Item {
        pub name: String,
    }

    #[derive(Serialize, Deserialize, JsonSchema)]
    pub struct First {
        pub common: Common,
        pub item: Item,
    }
}

mod two {
    use super::*;

    /// The second protocol's `Item`: another type with the same name.
    #[derive(Serialize, Deserialize, JsonSchema)]
    pub struct Item {
        pub size: u8,
    }

    #[derive(Serialize, Deserialize, JsonSchema)]
    pub struct Second {
        pub common: Common,
        pub item: Item,
    }
}

#[test]
fn a_later_protocol_references_the_definitions_it_shares_with_an_earlier_one() {
    let protocols = [
        Protocol::new("one").root::<one::First>(),
        Protocol::new("two").root::<two::Second>(),
    ];
    let files = symgen::schema::render_all(&protocols).unwrap_or_else(|err| panic!("{err}"));
    let docs: Vec<Value> = files
        .iter()
        .map(|f| serde_json::from_str(&f.contents).unwrap())
        .collect();
    let second = &docs[1];
    assert!(docs[0]["$defs"]["Common"].is_object());
    assert!(second["$defs"].get("Common").is_none(), "{second:#}");
    assert_eq!(
        second["$defs"]["Second"]["properties"]["common"]["$ref"],
        "urn:symgen:schema:one#/$defs/Common"
    );
    // Same name, another type: stays.
    assert_eq!(
        second["$defs"]["Second"]["properties"]["item"]["$ref"],
        "#/$defs/Item"
    );
    assert!(second["$defs"]["Item"]["properties"]["size"].is_object());
    // Each file alone still stands for `render`.
    let alone: Value =
        serde_json::from_str(&symgen::schema::render(&protocols[1]).unwrap().contents).unwrap();
    assert!(alone["$defs"]["Common"].is_object());
}

#[test]
fn the_seed_protocols_share_their_common_types_with_p1() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let modules = emit::load_modules(&emit::schema_files(&[dir]).unwrap()).unwrap();
    let p2 = module(&modules, "taskspace-state");
    let from_p1: Vec<&str> = p2
        .imports()
        .iter()
        .filter(|i| i.module == "symposium")
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(
        from_p1,
        [
            "MessageSender",
            "ResponsePayload",
            "TaskspaceStateRequest",
            "TaskspaceStateResponse"
        ]
    );
    let p3 = module(&modules, "dialectic");
    assert!(
        p3.imports()
            .iter()
            .any(|i| i.name == "PresentReviewParams" && i.module == "symposium")
    );
    assert!(module(&modules, "symposium").imports().is_empty());
}

#[test]
fn a_swift_type_never_takes_the_name_of_a_module_it_may_qualify_with() {
    let home = json!({
        "$id": "urn:test:home",
        "$defs": {"Color": {"enum": ["red"]}}
    });
    // `Home` would hide the module `Home` from `Home.Color` in this module.
    let user = json!({
        "$defs": {
            "Home": {"type": "object", "properties": {"c": {"$ref": "urn:test:home#/$defs/Color"}}},
            "Color": {"type": "string"}
        }
    });
    let modules = emit::modules_from_texts(&[
        ("home.json".to_owned(), home.to_string()),
        ("user.json".to_owned(), user.to_string()),
    ])
    .unwrap_or_else(|err| panic!("{err}"));
    let swift = &emit::swift::Swift;
    let input = Input {
        modules: &modules,
        options: &toml::Table::new(),
        vectors: None,
    };
    let files = swift.render(&input).unwrap_or_else(|err| panic!("{err}"));
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert!(!paths.contains(&"Sources/User/Home.swift"), "{paths:?}");
    let alias = files
        .iter()
        .find(|f| f.path == "Sources/User/Color2.swift")
        .unwrap_or_else(|| panic!("no alias in {paths:?}"));
    assert!(
        alias
            .contents
            .contains("public typealias Color2 = Home.Color")
    );
}
