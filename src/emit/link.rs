//! Types shared between the schemas of one package. A type that one schema defines and
//! another `$ref`s is rendered once, in the module of the schema that defines it, and
//! the other modules import it: one type, passable between the two modules' APIs.
//!
//! Which module renders a type is decided here, for every backend alike:
//!
//! * a type of the model with [`Origin::Document`] whose document is another input of
//!   the package, and whose pointer names a type that module declares (a `$defs` entry,
//!   another `$ref` target or the root), is *shared*: that module is its home;
//! * a module never imports from one that (directly or not) imports from it: module
//!   dependencies stay acyclic, as Swift package targets and Python imports require.
//!   Where two schemas reference each other, the module whose stem sorts first imports
//!   and the other keeps its own copies;
//! * a module renders every type except the shared ones and what was hoisted out of
//!   them, and imports the shared types its rendered types (or roots) refer to.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::Module;
use crate::model::{Model, Origin};

/// A type a module uses but does not render: it imports it from its home module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// Its name in this module's model.
    pub name: String,
    /// The stem of the module that renders it ([`Module::stem`]).
    pub module: String,
    /// Its name in that module's model.
    pub home_name: String,
}

/// What a module renders and imports, once the package's modules are known.
#[derive(Debug, Clone, Default)]
pub struct Links {
    /// The shared types the module uses, by home module then name.
    pub imports: Vec<Import>,
    /// Model types the module does not render (imported, or only used by imported ones).
    pub(super) skipped: BTreeSet<String>,
}

/// Where the types one module declares itself are, by JSON pointer (pointers that
/// name two types are left out: nothing can be shared through them).
fn declared(model: &Model) -> HashMap<&str, &str> {
    let mut by_pointer: HashMap<&str, Option<&str>> = HashMap::new();
    for ty in &model.types {
        if matches!(ty.origin, Origin::Defs | Origin::Root) {
            by_pointer
                .entry(ty.pointer.as_str())
                .and_modify(|name| *name = None)
                .or_insert(Some(ty.name.as_str()));
        }
    }
    by_pointer
        .into_iter()
        .filter_map(|(pointer, name)| Some((pointer, name?)))
        .collect()
}

/// Whether `to` can be reached from `from` in `deps`.
fn reaches(deps: &[BTreeSet<usize>], from: usize, to: usize) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from];
    while let Some(at) = stack.pop() {
        if at == to {
            return true;
        }
        if seen.insert(at) {
            stack.extend(deps[at].iter().copied());
        }
    }
    false
}

/// The links of every module, in the order of `modules`.
pub(super) fn link(modules: &[Module]) -> Vec<Links> {
    let declared: Vec<HashMap<&str, &str>> = modules.iter().map(|m| declared(&m.model)).collect();
    let by_file: HashMap<&str, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| (m.model.file.as_str(), i))
        .collect();
    let mut order: Vec<usize> = (0..modules.len()).collect();
    order.sort_by(|&a, &b| modules[a].stem.cmp(&modules[b].stem));
    let mut deps: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); modules.len()];
    let mut links = vec![Links::default(); modules.len()];
    for index in order {
        let model = &modules[index].model;
        // Candidates by home module: local name → home name.
        let mut candidates: BTreeMap<usize, Vec<(&str, &str)>> = BTreeMap::new();
        for ty in &model.types {
            if let Origin::Document { file, pointer } = &ty.origin
                && let Some(&home) = by_file.get(file.as_str())
                && home != index
                && let Some(&home_name) = declared[home].get(pointer.as_str())
            {
                candidates
                    .entry(home)
                    .or_default()
                    .push((ty.name.as_str(), home_name));
            }
        }
        let mut shared: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
        for (home, names) in candidates {
            if reaches(&deps, home, index) {
                continue;
            }
            for (name, home_name) in names {
                shared.insert(name, (home, home_name));
            }
        }
        let rendered = rendered(model, &shared);
        let mut used: BTreeSet<&str> = model.roots.iter().map(String::as_str).collect();
        for ty in model
            .types
            .iter()
            .filter(|t| rendered.contains(t.name.as_str()))
        {
            used.extend(ty.references());
        }
        let mut imports: Vec<Import> = shared
            .iter()
            .filter(|(name, _)| used.contains(*name))
            .map(|(name, (home, home_name))| Import {
                name: (*name).to_owned(),
                module: modules[*home].stem.clone(),
                home_name: (*home_name).to_owned(),
            })
            .collect();
        imports.sort_by(|a, b| (&a.module, &a.name).cmp(&(&b.module, &b.name)));
        for (home, _) in shared.values() {
            deps[index].insert(*home);
        }
        links[index] = Links {
            imports,
            skipped: model
                .types
                .iter()
                .filter(|t| !rendered.contains(t.name.as_str()))
                .map(|t| t.name.clone())
                .collect(),
        };
    }
    links
}

/// The types a module renders: all but the shared ones and those hoisted out of them,
/// plus whatever a rendered type refers to that is not shared.
fn rendered<'m>(model: &'m Model, shared: &BTreeMap<&str, (usize, &str)>) -> BTreeSet<&'m str> {
    let inside_shared = |name: &str| {
        let mut current = name;
        for _ in 0..=model.types.len() {
            if shared.contains_key(current) {
                return true;
            }
            match model.get(current).map(|t| &t.origin) {
                Some(Origin::Inline { parent }) => current = parent,
                _ => return false,
            }
        }
        false
    };
    let mut rendered: BTreeSet<&str> = BTreeSet::new();
    let mut pending: Vec<&str> = model
        .types
        .iter()
        .map(|t| t.name.as_str())
        .filter(|name| !inside_shared(name))
        .collect();
    while let Some(name) = pending.pop() {
        if shared.contains_key(name) || !rendered.insert(name) {
            continue;
        }
        if let Some(ty) = model.get(name) {
            pending.extend(ty.references());
        }
    }
    rendered
}
