//! One snapshot harness for every backend in the registry: each fixture schema
//! (`tests/fixtures/schemas/`, plus `tests/fixtures/<language>/` for a backend's own) is
//! rendered with the options this repository's `symgen.toml` gives that language, and
//! every file that depends on the schema is snapshotted (files every fixture renders
//! the same, such as a runtime library, are left out). A new backend gets its snapshots
//! here without touching this file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use symgen::emit::{self, Input};
use symgen::project::Project;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture schemas a backend is tested on.
fn fixtures(language: &str) -> Vec<PathBuf> {
    let mut dirs = vec![root().join("tests/fixtures/schemas")];
    let own = root().join("tests/fixtures").join(language);
    if own.is_dir() {
        dirs.push(own);
    }
    emit::schema_files(&dirs).expect("fixture schemas")
}

#[test]
fn every_backend_renders_every_fixture_as_snapshotted() {
    let project = Project::load(&root().join("symgen.toml")).expect("symgen.toml");
    let no_options = toml::Table::new();
    for backend in emit::backends() {
        let options = project
            .language(backend.name())
            .map_or(&no_options, |l| &l.options);
        // Every fixture's files, by path.
        let mut rendered: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for path in fixtures(backend.name()) {
            let modules = emit::load_modules(std::slice::from_ref(&path))
                .unwrap_or_else(|err| panic!("{err}"));
            let input = Input {
                modules: &modules,
                options,
                vectors: None,
            };
            let files = backend
                .render(&input)
                .unwrap_or_else(|err| panic!("{}: {err}", backend.name()));
            let files = files.into_iter().map(|f| (f.path, f.contents)).collect();
            rendered.insert(emit::module_stem(&path), files);
        }
        assert!(rendered.len() >= 2, "{}: too few fixtures", backend.name());
        // Paths every fixture renders with the same contents do not depend on it.
        let invariant: BTreeSet<&String> = rendered
            .values()
            .flat_map(|files| files.keys())
            .filter(|path| {
                let mut contents = rendered.values().map(|files| files.get(*path));
                let first = contents.next().flatten();
                first.is_some() && contents.all(|c| c == first)
            })
            .collect();
        for (stem, files) in &rendered {
            let text: Vec<String> = files
                .iter()
                .filter(|(path, _)| !invariant.contains(path))
                .map(|(path, contents)| format!("// ---- {path}\n{contents}"))
                .collect();
            assert!(
                !text.is_empty(),
                "{}/{stem}: nothing to snapshot",
                backend.name()
            );
            insta::assert_snapshot!(format!("{}__{stem}", backend.name()), text.join("\n"));
        }
    }
}
