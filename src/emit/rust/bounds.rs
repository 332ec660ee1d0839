//! Integer bounds the crate checks itself. typify types a schema's integer by its width
//! alone (`minimum: 1, maximum: 150` is a `u8`), so serde's derived reading takes any
//! value of that width (`0`, `151`). Where an integer's bounds are narrower than its
//! Rust type, the field (or the newtype of an alias) holding it reads through a check:
//! the value is read as JSON first, each bounded integer in it (directly, or an array's
//! items, a map's values, a tuple's item, through any nesting of them) is compared
//! with its bounds, and only then is the value read as the field's type, through the
//! field's own reading where it had one. A value out of bounds is refused with its
//! bound; the wire written is unchanged.
//!
//! A named type a field refers to checks its own values, so a field's checks stop at
//! a reference. Not checked: a number's bounds (the model does not carry them) and an
//! untagged or externally tagged variant's integer payload.

use std::collections::HashMap;

use crate::model::{IntType, TypeExpr};

/// The step of a [`Check`]'s path that means every item of an array or every value of
/// a map; any other step is a tuple's item by position.
const EACH: u32 = u32::MAX;

/// One bounded integer in a value: where it is (steps from the value) and its bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Check {
    pub path: Vec<u32>,
    pub minimum: Option<i128>,
    pub maximum: Option<i128>,
}

/// The checks of one definition: by property key, and of an alias's value.
#[derive(Default)]
pub(super) struct Bounds {
    pub fields: HashMap<String, Vec<Check>>,
    pub alias: Vec<Check>,
}

/// The bounded integers `expr` holds that its Rust type does not bound (not through
/// the named types it refers to, which check their own).
pub(super) fn checks_of(expr: &TypeExpr) -> Vec<Check> {
    let mut checks = Vec::new();
    collect(expr, &mut Vec::new(), &mut checks);
    checks
}

fn collect(expr: &TypeExpr, path: &mut Vec<u32>, checks: &mut Vec<Check>) {
    match expr {
        TypeExpr::Integer(int) => {
            if let Some((minimum, maximum)) = narrower_than_width(int) {
                checks.push(Check {
                    path: path.clone(),
                    minimum,
                    maximum,
                });
            }
        }
        TypeExpr::Nullable(inner) => collect(inner, path, checks),
        TypeExpr::Array(inner) | TypeExpr::Map(inner) => {
            path.push(EACH);
            collect(inner, path, checks);
            path.pop();
        }
        TypeExpr::Tuple(items) => {
            for (index, item) in items.iter().enumerate() {
                let Ok(step) = u32::try_from(index) else {
                    break;
                };
                path.push(step);
                collect(item, path, checks);
                path.pop();
            }
        }
        TypeExpr::Any
        | TypeExpr::Null
        | TypeExpr::Bool
        | TypeExpr::Number(_)
        | TypeExpr::String(_)
        | TypeExpr::Literal(_)
        | TypeExpr::Ref(_) => {}
    }
}

/// The bounds of `int` its width (the Rust type typify gives it) does not hold, when
/// there are any.
fn narrower_than_width(int: &IntType) -> Option<(Option<i128>, Option<i128>)> {
    let (lowest, highest) = int.width.range();
    let minimum = int.minimum.filter(|&min| min > lowest);
    let maximum = int.maximum.filter(|&max| max < highest);
    (minimum.is_some() || maximum.is_some()).then_some((minimum, maximum))
}

/// The checks of a definition's property `key` over every object of the definition
/// that has it (`each`: the checks of each, in order): kept only when every one is the
/// same, since the crate cannot tell the objects' fields of one name apart.
pub(super) fn agreed(each: &[Vec<Check>]) -> Option<Vec<Check>> {
    let (first, rest) = each.split_first()?;
    (!first.is_empty() && rest.iter().all(|other| other == first)).then(|| first.clone())
}

/// Reads every field (of a struct or of a struct variant) and every alias newtype's
/// field that `bounds` (by the definition key of `key_of`) has checks for through a
/// generated `symgen_bounded_N`, which calls the crate's bounds module (`module`, a
/// path: `templates/rust/bounds.rs`). Returns whether any does.
pub(super) fn check(
    items: &mut Vec<syn::Item>,
    bounds: &HashMap<String, Bounds>,
    module: &str,
    key_of: impl Fn(&syn::Ident) -> String,
) -> bool {
    let Ok(module) = syn::parse_str::<syn::Path>(module) else {
        return false;
    };
    let mut readers = Readers {
        module,
        items: Vec::new(),
        by_reading: HashMap::new(),
    };
    for item in items.iter_mut() {
        match item {
            syn::Item::Struct(item) => {
                let Some(bounds) = bounds.get(&key_of(&item.ident)) else {
                    continue;
                };
                match &mut item.fields {
                    syn::Fields::Named(fields) => {
                        for field in &mut fields.named {
                            if let Some(checks) = bounds.fields.get(&super::types::serde_key(field))
                            {
                                wrap(field, checks, &mut readers);
                            }
                        }
                    }
                    syn::Fields::Unnamed(fields) if !bounds.alias.is_empty() => {
                        if let [field] = &mut fields.unnamed.iter_mut().collect::<Vec<_>>()[..] {
                            wrap(field, &bounds.alias, &mut readers);
                        }
                    }
                    _ => {}
                }
            }
            syn::Item::Enum(item) => {
                let Some(bounds) = bounds.get(&key_of(&item.ident)) else {
                    continue;
                };
                for variant in &mut item.variants {
                    if let syn::Fields::Named(fields) = &mut variant.fields {
                        for field in &mut fields.named {
                            if let Some(checks) = bounds.fields.get(&super::types::serde_key(field))
                            {
                                wrap(field, checks, &mut readers);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let used = !readers.items.is_empty();
    items.extend(readers.items);
    used
}

/// The `symgen_bounded_N` functions of a module, and which one reads what (the field's
/// type, its checks and its reading, as tokens), so that fields read alike share one.
struct Readers {
    /// The path of the crate's bounds module.
    module: syn::Path,
    items: Vec<syn::Item>,
    by_reading: HashMap<String, String>,
}

/// Reads `field` through a `symgen_bounded_N` of `readers` that checks `checks`, then
/// reads the value as the field did: through its `deserialize_with` function, else as
/// its type.
fn wrap(field: &mut syn::Field, checks: &[Check], readers: &mut Readers) {
    let special = field.attrs.iter().any(|a| {
        ["flatten", "with"]
            .iter()
            .any(|word| super::types::is_serde_word(a, word))
    });
    if special {
        return;
    }
    let ty = field.ty.clone();
    let read: syn::Expr = match take_deserialize_with(&mut field.attrs) {
        Some(path) => syn::parse_quote!(|value| #path(value)),
        // A reading this cannot take apart stays as it is, unchecked.
        None if field
            .attrs
            .iter()
            .any(|a| super::types::is_serde_word(a, "deserialize_with")) =>
        {
            return;
        }
        None => syn::parse_quote!(|value| <#ty as ::serde::Deserialize>::deserialize(value)),
    };
    let checks: Vec<syn::Expr> = checks
        .iter()
        .map(|check| -> syn::Expr {
            let path = &check.path;
            let bound = |value: Option<i128>| -> syn::Expr {
                match value {
                    Some(value) => syn::parse_quote!(::std::option::Option::Some(#value)),
                    None => syn::parse_quote!(::std::option::Option::None),
                }
            };
            let (minimum, maximum) = (bound(check.minimum), bound(check.maximum));
            syn::parse_quote!((&[#(#path),*], #minimum, #maximum))
        })
        .collect();
    let reading = quote::quote!(#ty #(#checks)* #read).to_string();
    if let Some(name) = readers.by_reading.get(&reading) {
        field
            .attrs
            .push(syn::parse_quote!(#[serde(deserialize_with = #name)]));
        return;
    }
    let name = format!("symgen_bounded_{}", readers.by_reading.len());
    let Ok(reader) = syn::parse_str::<syn::Ident>(&name) else {
        return;
    };
    field
        .attrs
        .push(syn::parse_quote!(#[serde(deserialize_with = #name)]));
    readers.by_reading.insert(reading, name);
    let module = &readers.module;
    readers.items.push(syn::parse_quote! {
        fn #reader<'de, D>(deserializer: D) -> ::std::result::Result<#ty, D::Error>
        where
            D: ::serde::Deserializer<'de>,
        {
            #module::check(deserializer, &[#(#checks),*], #read)
        }
    });
}

/// Removes the field's `#[serde(deserialize_with = "…")]` attribute (one that says
/// only that) and returns its function's path.
fn take_deserialize_with(attrs: &mut Vec<syn::Attribute>) -> Option<syn::Path> {
    let (position, path) = attrs.iter().enumerate().find_map(|(position, attribute)| {
        if !attribute.path().is_ident("serde") {
            return None;
        }
        // Every word of the attribute, and the path when one is `deserialize_with`.
        let (mut words, mut path) = (0, None);
        let read = attribute.parse_nested_meta(|meta| {
            words += 1;
            let value: syn::LitStr = meta.value()?.parse()?;
            if meta.path.is_ident("deserialize_with") {
                path = value.parse::<syn::Path>().ok();
            }
            Ok(())
        });
        (read.is_ok() && words == 1).then_some((position, path?))
    })?;
    attrs.remove(position);
    Some(path)
}
