//! Passes over a built model that make it simpler for every generator, each keeping
//! what the schema means (or saying, in a warning, what it stops enforcing):
//!
//! * objects of a schema symgen did not write are open: their other keys are kept;
//! * a `default` that is not an instance of its field's type is dropped (a generator
//!   would otherwise compile a default its own decoder rejects);
//! * shared fields of an untagged or externally tagged union (properties beside the
//!   `anyOf`) move into the variants they apply to: a variant with fields gets them, a
//!   variant that is a record becomes a record with them, and a non-object variant
//!   ignores them (JSON Schema's `properties` only constrain objects);
//! * a shared field that a tagged union's variant redefines moves out of the shared
//!   fields into the variants that do not redefine it;
//! * a field whose type is a reference to a type that admits `null` (an alias of a
//!   nullable type, through any chain of aliases) is itself nullable, so that every
//!   generator's presence rule (absent, `null`, a value) sees the `null` the schema
//!   allows there.

use super::*;
use crate::model::conform::conforms;

pub(super) fn finish(model: &mut Model) {
    model.resolved.clear();
    // Shared fields go into the alternatives before inline ones are hoisted: a hoisted
    // record is not yet a name the model can look up.
    push_down_shared_fields(model);
    hoist_untagged_field_variants(model);
    open_objects(model);
    drop_bad_defaults(model);
    narrow_redefined_shared_fields(model);
    move_redefined_shared_fields(model);
    nullable_through_references(model);
    model.reindex();
}

/// The model's type names, as a scope new hoisted types get fresh names in.
fn taken_names(model: &Model) -> crate::emit::names::UniqueNames {
    let names: Vec<&str> = model.types.iter().map(|t| t.name.as_str()).collect();
    crate::emit::names::UniqueNames::with_reserved(&names)
}

/// The inline object alternatives of untagged and externally tagged unions become named
/// records (a variant that is a record), so every generator treats them as objects
/// (open ones, below, keep their other keys).
fn hoist_untagged_field_variants(model: &mut Model) {
    let mut taken = taken_names(model);
    let mut added = Vec::new();
    for named in &mut model.types {
        let TypeKind::Union(union) = &mut named.kind else {
            continue;
        };
        if !matches!(union.tagging, Tagging::Untagged | Tagging::External) {
            continue;
        }
        for variant in &mut union.variants {
            let Payload::Fields(fields) = &mut variant.payload else {
                continue;
            };
            let name = taken.claim(format!("{}{}", named.name, pascal_case(&variant.name)));
            added.push(NamedType {
                name: name.clone(),
                pointer: variant.pointer.clone(),
                docs: variant.docs.clone(),
                kind: TypeKind::Record(Record {
                    fields: std::mem::take(fields),
                    additional: Additional::Allowed,
                    constraints: Vec::new(),
                }),
                origin: Origin::Inline {
                    parent: named.name.clone(),
                },
            });
            variant.payload = Payload::Type(TypeExpr::Ref(name));
        }
    }
    model.types.extend(added);
}

/// In a schema symgen did not write, an object without `additionalProperties` is open
/// (the JSON Schema default): its other keys are data a receiver keeps and re-encodes.
/// symgen's own protocol schemas (`x-symgen-protocol`) keep rule R2 instead: serde
/// ignores unknown keys, so their receivers do too.
fn open_objects(model: &mut Model) {
    if model.protocol.is_some() {
        return;
    }
    for named in &mut model.types {
        if let TypeKind::Record(record) = &mut named.kind
            && record.additional == Additional::Allowed
        {
            record.additional = Additional::Typed(TypeExpr::Any);
        }
    }
}

fn drop_bad_defaults(model: &mut Model) {
    let mut bad: Vec<(String, String)> = Vec::new(); // (type name, field pointer)
    for named in &model.types {
        let mut check = |fields: &[Field]| {
            for field in fields {
                if let Some(default) = &field.default
                    && !default.is_null()
                    && !conforms(model, &field.ty, default)
                {
                    bad.push((named.name.clone(), field.pointer.clone()));
                }
            }
        };
        match &named.kind {
            TypeKind::Record(record) => check(&record.fields),
            TypeKind::Union(union) => {
                check(&union.fields);
                for variant in &union.variants {
                    if let Payload::Fields(fields) = &variant.payload {
                        check(fields);
                    }
                }
            }
            _ => {}
        }
    }
    // A shared field pushed into several alternatives is one property: one warning.
    let mut warned = HashSet::new();
    for (_, pointer) in &bad {
        if !warned.insert(pointer) {
            continue;
        }
        model.warnings.push(
            Warning::new(
                &model.file,
                pointer,
                "this `default` is not a value of the field's type; it is left out",
            )
            .reaching(Reach::Nothing),
        );
    }
    let bad: HashSet<String> = bad.into_iter().map(|(_, p)| p).collect();
    let clear = |fields: &mut Vec<Field>| {
        for field in fields {
            if bad.contains(&field.pointer) {
                field.default = None;
            }
        }
    };
    for named in &mut model.types {
        match &mut named.kind {
            TypeKind::Record(record) => clear(&mut record.fields),
            TypeKind::Union(union) => {
                clear(&mut union.fields);
                for variant in &mut union.variants {
                    if let Payload::Fields(fields) = &mut variant.payload {
                        clear(fields);
                    }
                }
            }
            _ => {}
        }
    }
}

fn push_down_shared_fields(model: &mut Model) {
    let mut taken = taken_names(model);
    let mut added: Vec<NamedType> = Vec::new();
    let mut warnings = Vec::new();
    let snapshot = model.clone();
    let mut kind_of = |name: &str| snapshot.resolve(name).map(|t| t.kind.clone());
    for named in &mut model.types {
        let TypeKind::Union(union) = &mut named.kind else {
            continue;
        };
        if union.fields.is_empty()
            || !matches!(union.tagging, Tagging::Untagged | Tagging::External)
        {
            continue;
        }
        let shared = std::mem::take(&mut union.fields);
        for variant in &mut union.variants {
            match &mut variant.payload {
                Payload::Fields(fields) => {
                    let mut merged = shared.clone();
                    let unmerged =
                        objects::merge_fields(&mut merged, std::mem::take(fields), &mut kind_of);
                    warn_unmerged(&mut warnings, &snapshot.file, unmerged);
                    *fields = merged;
                }
                Payload::Type(TypeExpr::Ref(target)) => {
                    match snapshot.resolve(target).map(|t| &t.kind) {
                        Some(TypeKind::Record(record)) => {
                            let mut fields = shared.clone();
                            let unmerged = objects::merge_fields(
                                &mut fields,
                                record.fields.clone(),
                                &mut kind_of,
                            );
                            warn_unmerged(&mut warnings, &snapshot.file, unmerged);
                            let name = taken
                                .claim(format!("{}{}", named.name, pascal_case(&variant.name)));
                            added.push(NamedType {
                                name: name.clone(),
                                pointer: variant.pointer.clone(),
                                docs: variant.docs.clone(),
                                kind: TypeKind::Record(Record {
                                    fields,
                                    additional: record.additional.clone(),
                                    constraints: record.constraints.clone(),
                                }),
                                origin: Origin::Inline {
                                    parent: named.name.clone(),
                                },
                            });
                            variant.payload = Payload::Type(TypeExpr::Ref(name));
                        }
                        _ => warnings.push(Warning::new(
                            &snapshot.file,
                            &variant.pointer,
                            "the properties beside this union's alternatives are not enforced on this alternative",
                        )),
                    }
                }
                // Not an object: `properties` do not apply.
                Payload::Unit | Payload::Type(_) | Payload::Content(_) => {}
            }
        }
    }
    model.types.extend(added);
    model.warnings.extend(warnings);
}

/// A warning per property whose two schemas no generated type combines.
fn warn_unmerged(warnings: &mut Vec<Warning>, file: &str, unmerged: Vec<objects::Unmerged>) {
    for pair in unmerged {
        warnings.push(Warning::new(file, &pair.later, pair.message()));
    }
}

/// Whether `wide` accepts everything `narrow` does and more only where it says "any
/// JSON" (`[any]` against `[string]`).
fn wider(wide: &TypeExpr, narrow: &TypeExpr) -> bool {
    match (wide, narrow) {
        (TypeExpr::Any, other) => *other != TypeExpr::Any,
        (TypeExpr::Array(a), TypeExpr::Array(b)) | (TypeExpr::Map(a), TypeExpr::Map(b)) => {
            wider(a, b)
        }
        (TypeExpr::Nullable(a), TypeExpr::Nullable(b)) => wider(a, b),
        (TypeExpr::Nullable(a), b) => **a == *b || wider(a, b),
        _ => false,
    }
}

/// A variant field that only repeats a shared field more loosely (`[any]` where the
/// shared field says `[string]`) takes the shared field's type: the value must satisfy
/// both.
fn narrow_redefined_shared_fields(model: &mut Model) {
    for named in &mut model.types {
        let TypeKind::Union(union) = &mut named.kind else {
            continue;
        };
        let shared = union.fields.clone();
        for variant in &mut union.variants {
            let Payload::Fields(fields) = &mut variant.payload else {
                continue;
            };
            for field in fields.iter_mut() {
                if let Some(shared) = shared.iter().find(|s| s.name == field.name)
                    && wider(&field.ty, &shared.ty)
                {
                    field.ty = shared.ty.clone();
                }
            }
        }
    }
}

fn move_redefined_shared_fields(model: &mut Model) {
    let file = model.file.clone();
    let mut warnings = Vec::new();
    for named in &mut model.types {
        let TypeKind::Union(union) = &mut named.kind else {
            continue;
        };
        if union.fields.is_empty() || !matches!(union.tagging, Tagging::Internal { .. }) {
            continue;
        }
        let all_fields = union
            .variants
            .iter()
            .all(|v| matches!(v.payload, Payload::Fields(_) | Payload::Unit));
        if !all_fields {
            continue;
        }
        let redefined: Vec<String> = union
            .fields
            .iter()
            .filter(|shared| {
                union.variants.iter().any(|v| match &v.payload {
                    Payload::Fields(fields) => fields
                        .iter()
                        .any(|f| f.name == shared.name && f.ty != shared.ty),
                    _ => false,
                })
            })
            .map(|f| f.name.clone())
            .collect();
        for name in redefined {
            let Some(index) = union.fields.iter().position(|f| f.name == name) else {
                continue;
            };
            let shared = union.fields.remove(index);
            warnings.push(Warning::new(
                &file,
                &shared.pointer,
                format!("a variant redefines the shared field `{name}`; there the variant's definition is used"),
            ));
            for variant in &mut union.variants {
                match &mut variant.payload {
                    Payload::Fields(fields) if !fields.iter().any(|f| f.name == name) => {
                        fields.insert(0, shared.clone());
                    }
                    payload @ Payload::Unit => {
                        *payload = Payload::Fields(vec![shared.clone()]);
                    }
                    _ => {}
                }
            }
        }
    }
    model.warnings.extend(warnings);
}

/// See the module docs: `field: {"$ref": "#/$defs/MaybeText"}` with `MaybeText` an alias
/// of a nullable type makes the field nullable.
fn nullable_through_references(model: &mut Model) {
    // The named types that admit `null`: an alias of a nullable type, or an untagged
    // union with an alternative that admits it (`oneOf: [{type: [null, string, ...]},
    // ...]`, an inner `oneOf` with a `null` member), directly or through references to
    // such types (an alternative naming another untagged union that admits it), so
    // followed to a fixed point.
    let mut nullable: HashSet<String> = HashSet::new();
    let admits = |expr: &TypeExpr, nullable: &HashSet<String>| match expr {
        TypeExpr::Ref(name) => nullable.contains(name),
        other => other.is_nullable(),
    };
    loop {
        let more: Vec<String> = model
            .types
            .iter()
            .filter(|t| !nullable.contains(&t.name))
            .filter(|t| match &t.kind {
                TypeKind::Alias(expr) => admits(expr, &nullable),
                TypeKind::Union(union) => {
                    union.tagging == Tagging::Untagged
                        && union.variants.iter().any(|v| match &v.payload {
                            Payload::Type(expr) => admits(expr, &nullable),
                            Payload::Unit => true,
                            _ => false,
                        })
                }
                _ => false,
            })
            .map(|t| t.name.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        nullable.extend(more);
    }
    let admits_null = |name: &str| nullable.contains(name);
    let widen = |field: &mut Field| {
        if let TypeExpr::Ref(name) = &field.ty
            && admits_null(name)
        {
            field.ty = field.ty.clone().nullable();
        }
    };
    for named in &mut model.types {
        match &mut named.kind {
            TypeKind::Record(record) => record.fields.iter_mut().for_each(&widen),
            TypeKind::Union(union) => {
                union.fields.iter_mut().for_each(&widen);
                for variant in &mut union.variants {
                    match &mut variant.payload {
                        Payload::Fields(fields) => fields.iter_mut().for_each(&widen),
                        Payload::Content(field) => widen(field),
                        Payload::Unit | Payload::Type(_) => {}
                    }
                }
            }
            TypeKind::Enum(_) | TypeKind::Alias(_) => {}
        }
    }
}
