//! How much a value stores inline. Swift keeps a struct's fields and an enum's payloads
//! in the value itself, and compiles every copy, destroy and comparison of a type field
//! by field through everything the type stores inline: a union whose payload is a
//! record of a thousand fields (Cargo's `lints` table) made each enclosing type cost
//! tens of seconds to compile in a debug build. A union enum one of whose payloads
//! stores more than [`INDIRECT_ABOVE`] values inline is declared `indirect`: its
//! payloads live in a box, the enum is one reference, and nothing about its API or wire
//! form changes (docs/swift.md, "Build time"). Likewise a struct field whose type
//! stores more than that inline is kept in a box by the runtime's `@Boxed` property
//! wrapper: read, initialized, compared and coded as before.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Field, Model, Payload, TypeExpr, TypeKind, Union};

use super::recursion::Boxed;

/// The most values one of a union's payloads may store inline before the enum is
/// `indirect`.
pub const INDIRECT_ABOVE: usize = 64;

/// What the generated code keeps out of line because it is large.
#[derive(Debug, Default)]
pub struct Storage {
    /// The unions (by model name) with a payload that stores more than
    /// [`INDIRECT_ABOVE`] values inline: declared `indirect`.
    pub indirect: BTreeSet<String>,
    /// `(type name, field wire name)` of the struct fields whose type stores more than
    /// [`INDIRECT_ABOVE`] values inline: declared `@Boxed`. Fields that close a cycle
    /// (`recursive`, stored as `Indirect<T>`) are not among them.
    pub boxed: Boxed,
}

/// Plans [`Storage`] for a model whose cycles are broken at `recursive`. Linear in the
/// model's size: each type's inline count is computed once.
pub fn plan(model: &Model, recursive: &Boxed) -> Storage {
    let mut sizes = Sizes {
        model,
        recursive,
        memo: BTreeMap::new(),
        open: BTreeSet::new(),
        boxed: Boxed::new(),
    };
    let mut indirect = BTreeSet::new();
    for named in &model.types {
        sizes.named(&named.name);
        if let TypeKind::Union(union) = &named.kind
            && sizes.payloads(union) > INDIRECT_ABOVE
        {
            indirect.insert(named.name.clone());
        }
    }
    Storage {
        indirect,
        boxed: sizes.boxed,
    }
}

/// Inline counts, capped just above [`INDIRECT_ABOVE`] (nothing beyond that matters).
struct Sizes<'m> {
    model: &'m Model,
    recursive: &'m Boxed,
    memo: BTreeMap<&'m str, usize>,
    /// Types being counted: a reference back to one closes a cycle, which the
    /// generator breaks with a box (recursion.rs), so it counts as one reference.
    open: BTreeSet<&'m str>,
    /// The struct fields found large so far.
    boxed: Boxed,
}

const CAP: usize = INDIRECT_ABOVE + 1;

/// How deep the count follows references before it calls the rest large.
const MAX_DEPTH: usize = 4 * CAP;

impl<'m> Sizes<'m> {
    /// The most any one of a union's payloads stores inline: an enum is as large as its
    /// largest case, and copying it copies that case's values one by one.
    fn payloads(&mut self, union: &'m Union) -> usize {
        let mut largest = 0;
        for variant in &union.variants {
            let size = match &variant.payload {
                Payload::Unit => 1,
                Payload::Type(expr) => self.expr(expr),
                Payload::Content(field) => self.expr(&field.ty),
                Payload::Fields(fields) => self.fields(None, fields),
            };
            largest = largest.max(size);
        }
        largest
    }

    fn expr(&mut self, expr: &'m TypeExpr) -> usize {
        match expr {
            TypeExpr::Nullable(inner) => self.expr(inner),
            TypeExpr::Tuple(items) => items.iter().map(|i| self.expr(i)).sum::<usize>().min(CAP),
            TypeExpr::Ref(name) => self.named(name),
            // Arrays and maps hold one reference; scalars one value.
            _ => 1,
        }
    }

    fn named(&mut self, name: &'m str) -> usize {
        if let Some(&size) = self.memo.get(name) {
            return size;
        }
        let Some(named) = self.model.get(name) else {
            return 1;
        };
        // A chain of types deeper than the bound stores more than it inline, or is a
        // chain of aliases, which a box costs nothing to hold: either way it counts as
        // large, and the recursion stays shallow whatever the schema.
        if self.open.len() > MAX_DEPTH {
            return CAP;
        }
        if !self.open.insert(&named.name) {
            return 1;
        }
        let size = match &named.kind {
            TypeKind::Record(record) => self.fields(Some(&named.name), &record.fields),
            // Rendered as a struct: its fields and its body's payloads.
            TypeKind::Union(union) if !union.fields.is_empty() => {
                (self.fields(Some(&named.name), &union.fields) + self.payloads(union)).min(CAP)
            }
            // A large union is itself `indirect`: one reference.
            TypeKind::Union(union) => match self.payloads(union) {
                size if size > INDIRECT_ABOVE => 1,
                size => size,
            },
            TypeKind::Alias(expr) => self.expr(expr),
            TypeKind::Enum(_) => 1,
        };
        self.open.remove(named.name.as_str());
        self.memo.insert(&named.name, size);
        size
    }

    /// What a struct's fields store inline; a field of `owner` (a named struct) that
    /// stores more than [`INDIRECT_ABOVE`] is boxed and counts as one reference.
    fn fields(&mut self, owner: Option<&str>, fields: &'m [Field]) -> usize {
        let mut total = 1; // the struct's map of other keys, or its own header
        for field in fields {
            let key = owner.map(|owner| (owner.to_owned(), field.name.clone()));
            if key.as_ref().is_some_and(|key| self.recursive.contains(key)) {
                total += 1;
                continue;
            }
            let size = self.expr(&field.ty);
            total += match key {
                Some(key) if size > INDIRECT_ABOVE => {
                    self.boxed.insert(key);
                    1
                }
                _ => size,
            };
        }
        total.min(CAP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(defs: serde_json::Value) -> Model {
        let document = serde_json::json!({ "title": "Root", "$ref": "#/$defs/U", "$defs": defs });
        crate::model::from_value("storage.json", &document).unwrap()
    }

    fn record(fields: usize) -> serde_json::Value {
        let properties: serde_json::Map<String, serde_json::Value> = (0..fields)
            .map(|i| (format!("f{i}"), serde_json::json!({ "type": "string" })))
            .collect();
        serde_json::json!({ "type": "object", "properties": properties })
    }

    #[test]
    fn a_union_is_indirect_when_its_payloads_store_more_than_the_bound_inline() {
        let small = model(serde_json::json!({
            "R": record(10),
            "U": { "anyOf": [{ "$ref": "#/$defs/R" }, { "type": "integer" }] },
        }));
        assert!(plan(&small, &Boxed::new()).indirect.is_empty());
        let large = model(serde_json::json!({
            "Big": record(INDIRECT_ABOVE),
            "U": { "anyOf": [{ "$ref": "#/$defs/Big" }, { "type": "integer" }] },
        }));
        let storage = plan(&large, &Boxed::new());
        assert_eq!(
            storage.indirect.into_iter().collect::<Vec<_>>(),
            vec!["U".to_owned()]
        );
        assert!(storage.boxed.is_empty(), "{:?}", storage.boxed);
        // Behind an array the record is one reference.
        let listed = model(serde_json::json!({
            "Big": record(INDIRECT_ABOVE),
            "U": { "anyOf": [{ "type": "array", "items": { "$ref": "#/$defs/Big" } }, { "type": "integer" }] },
        }));
        assert!(plan(&listed, &Boxed::new()).indirect.is_empty());
    }

    #[test]
    fn a_long_chain_of_types_is_counted_on_a_small_stack() {
        // 5,000 records, each holding the next: the count stops at its depth bound
        // (without it, this overflows a 256 KiB stack).
        let mut defs = serde_json::Map::new();
        for i in 0..5_000 {
            let next = serde_json::json!({ "$ref": format!("#/$defs/R{}", i + 1) });
            defs.insert(
                format!("R{i}"),
                serde_json::json!({ "type": "object", "properties": { "next": next } }),
            );
        }
        defs.insert("R5000".into(), serde_json::json!({ "type": "string" }));
        defs.insert(
            "U".into(),
            serde_json::json!({ "anyOf": [{ "$ref": "#/$defs/R0" }, { "type": "integer" }] }),
        );
        let chained = model(serde_json::Value::Object(defs));
        let storage = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || plan(&chained, &Boxed::new()))
            .unwrap()
            .join()
            .expect("no stack overflow");
        // Where the chain is cut, a field is boxed; what holds the box is small.
        assert!(!storage.boxed.is_empty());
        assert!(storage.indirect.is_empty(), "{:?}", storage.indirect);
    }

    #[test]
    fn a_struct_field_that_stores_a_large_struct_inline_is_boxed() {
        let nested = model(serde_json::json!({
            "Big": record(INDIRECT_ABOVE),
            "Holder": { "type": "object", "properties": {
                "big": { "$ref": "#/$defs/Big" },
                "small": { "$ref": "#/$defs/Small" },
            } },
            "Outer": { "type": "object", "properties": { "holder": { "$ref": "#/$defs/Holder" } } },
            "Small": record(3),
            "U": { "anyOf": [{ "$ref": "#/$defs/Outer" }, { "type": "integer" }] },
        }));
        let storage = plan(&nested, &Boxed::new());
        // Holder boxes `big`, so Holder, Outer and U are small.
        assert_eq!(
            storage.boxed.into_iter().collect::<Vec<_>>(),
            vec![("Holder".to_owned(), "big".to_owned())]
        );
        assert!(storage.indirect.is_empty());
    }
}
