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

/// The fields to box so that no struct contains itself inline.
pub fn boxed_fields(model: &Model) -> Boxed {
    let mut edges: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for named in &model.types {
        let Some(fields) = struct_fields(&named.kind) else {
            continue;
        };
        for field in fields {
            if let Some(target) = inline_struct(model, &field.ty) {
                edges
                    .entry(&named.name)
                    .or_default()
                    .push((field.name.as_str(), target));
            }
        }
    }
    let reaches = |from: &str, to: &str| -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(node) = stack.pop() {
            if node == to {
                return true;
            }
            if !seen.insert(node) {
                continue;
            }
            for (_, next) in edges.get(node).map(Vec::as_slice).unwrap_or_default() {
                stack.push(next);
            }
        }
        false
    };
    let mut boxed = Boxed::new();
    for (owner, fields) in &edges {
        for (field, target) in fields {
            if reaches(target, owner) {
                boxed.insert(((*owner).to_owned(), (*field).to_owned()));
            }
        }
    }
    boxed
}
