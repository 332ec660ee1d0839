//! Recursive structs: Swift stores a struct's fields inline, so a struct cannot hold
//! itself, not even through an optional. Fields that close such a cycle are stored in
//! the runtime's `Indirect` box. (Cycles through arrays and maps need nothing; cycles
//! through unions are broken by making the union enum `indirect`.)

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Field, Model, TypeExpr, TypeKind};

/// `(type name, field wire name)` of every field that must be boxed.
pub type Boxed = BTreeSet<(String, String)>;

/// The struct a field's type stores inline, if any: a reference (possibly nullable,
/// through aliases) to a type rendered as a struct.
fn inline_struct<'m>(model: &'m Model, ty: &TypeExpr) -> Option<&'m str> {
    let mut ty = ty.non_null();
    for _ in 0..=model.types.len() {
        let TypeExpr::Ref(name) = ty else {
            return None;
        };
        let named = model.get(name)?;
        match &named.kind {
            TypeKind::Record(_) => return Some(&named.name),
            TypeKind::Union(u) if !u.fields.is_empty() => return Some(&named.name),
            TypeKind::Alias(inner) => ty = inner.non_null(),
            _ => return None,
        }
    }
    None
}

fn struct_fields(kind: &TypeKind) -> Option<&[Field]> {
    match kind {
        TypeKind::Record(r) => Some(&r.fields),
        TypeKind::Union(u) if !u.fields.is_empty() => Some(&u.fields),
        _ => None,
    }
}

/// The fields to box so that no struct contains itself inline: a field closes a cycle
/// when its struct and the struct it stores inline are in the same strongly connected
/// component of the "stores inline" graph (then the target reaches the owner). Linear
/// in the number of types and fields (Tarjan's algorithm, iterative).
pub fn boxed_fields(model: &Model) -> Boxed {
    let index = type_index(model);
    // Per type, its inline edges: (field wire name, target type index).
    let mut edges: Vec<Vec<(&str, usize)>> = vec![Vec::new(); model.types.len()];
    for (i, named) in model.types.iter().enumerate() {
        let Some(fields) = struct_fields(&named.kind) else {
            continue;
        };
        for field in fields {
            if let Some(target) = inline_struct(model, &field.ty).and_then(|t| index.get(t)) {
                edges[i].push((field.name.as_str(), *target));
            }
        }
    }
    let component = components(&edges);
    let mut boxed = Boxed::new();
    for (owner, fields) in edges.iter().enumerate() {
        for (field, target) in fields {
            if component[owner] == component[*target] {
                boxed.insert((model.types[owner].name.clone(), (*field).to_owned()));
            }
        }
    }
    boxed
}

/// Each named type's position in the model, by name.
fn type_index(model: &Model) -> BTreeMap<&str, usize> {
    model
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect()
}

/// The aliases Swift cannot declare as `typealias`: those whose type reaches
/// themselves through other aliases, arrays, maps, optionals and tuples (`T = [T]`).
/// They are rendered as structs that wrap their value.
pub fn recursive_aliases(model: &Model) -> BTreeSet<String> {
    let index = type_index(model);
    let mut edges: Vec<Vec<(&str, usize)>> = vec![Vec::new(); model.types.len()];
    for (i, named) in model.types.iter().enumerate() {
        if let TypeKind::Alias(expr) = &named.kind {
            alias_refs(model, &index, expr, &mut edges[i]);
        }
    }
    let component = components(&edges);
    let mut recursive = BTreeSet::new();
    for (owner, targets) in edges.iter().enumerate() {
        if targets
            .iter()
            .any(|(_, t)| component[*t] == component[owner])
        {
            recursive.insert(model.types[owner].name.clone());
        }
    }
    recursive
}

/// The aliases `expr` names where Swift would have to expand them to declare it.
fn alias_refs<'m>(
    model: &Model,
    index: &BTreeMap<&'m str, usize>,
    expr: &TypeExpr,
    out: &mut Vec<(&'m str, usize)>,
) {
    match expr {
        TypeExpr::Ref(name) => {
            let is_alias = model
                .get(name)
                .is_some_and(|t| matches!(t.kind, TypeKind::Alias(_)));
            if let (true, Some(&target)) = (is_alias, index.get(name.as_str())) {
                out.push(("", target));
            }
        }
        TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
            alias_refs(model, index, inner, out)
        }
        TypeExpr::Tuple(items) => items.iter().for_each(|i| alias_refs(model, index, i, out)),
        _ => {}
    }
}

/// The strongly connected component of every node (Tarjan's algorithm without
/// recursion, so a long chain of types cannot overflow the stack).
fn components(edges: &[Vec<(&str, usize)>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut order = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut component = vec![UNSEEN; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut components = 0;
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        // (node, index of the next edge to follow)
        let mut work = vec![(root, 0usize)];
        order[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(&(_, target)) = edges[node].get(*edge) {
                *edge += 1;
                if order[target] == UNSEEN {
                    order[target] = next;
                    low[target] = next;
                    next += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(order[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component[member] = components;
                    if member == node {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fields_that_close_a_cycle_are_boxed() {
        // A -> B -> A is a cycle; C -> A enters it; D -> D holds itself; E is plain.
        let object = |refs: &[(&str, &str)]| {
            let properties: serde_json::Map<String, serde_json::Value> = refs
                .iter()
                .map(|(field, target)| {
                    (
                        (*field).to_owned(),
                        serde_json::json!({ "$ref": format!("#/$defs/{target}") }),
                    )
                })
                .collect();
            serde_json::json!({ "type": "object", "properties": properties })
        };
        let document = serde_json::json!({
            "title": "Root",
            "$ref": "#/$defs/C",
            "$defs": {
                "A": object(&[("b", "B"), ("e", "E")]),
                "B": object(&[("a", "A")]),
                "C": object(&[("a", "A")]),
                "D": object(&[("d", "D")]),
                "E": { "type": "object", "properties": { "x": { "type": "integer" } } },
            }
        });
        let model = crate::model::from_value("cycles.json", &document).unwrap();
        let boxed: Vec<(String, String)> = boxed_fields(&model).into_iter().collect();
        let expected: Vec<(String, String)> = [("A", "b"), ("B", "a"), ("D", "d")]
            .iter()
            .map(|(t, f)| ((*t).to_owned(), (*f).to_owned()))
            .collect();
        assert_eq!(boxed, expected);
    }
}
