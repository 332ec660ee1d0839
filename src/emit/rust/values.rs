//! Enum values the crate checks itself. typify types an enum by its JSON type alone where
//! it has no enum for it: string values it cannot name apart (`-`, `_` and `/` are all
//! `T`; `Etc/GMT+0` and `Etc/GMT-0`), values of other types (`false` beside `"inline"`,
//! `-32700`), a constant that is not a string. Its type is then a newtype of that JSON
//! type (`String`, `bool`, `i64`, `serde_json::Value`), which would take any value of
//! it. The newtype's field is read through a check of the schema's values instead
//! (`symgen_one_of`): a value equal to one of them (as JSON Schema compares: numbers by
//! value, so `1.0` is `1`) is read as that value, written back as the schema writes it
//! (an alias as its canonical value); any other value is refused.

use std::collections::HashMap;

use crate::model::{Enum, Literal, NamedType, TypeExpr, TypeKind};

/// Each value a checked type takes (a spelling: the value or one of its aliases) with
/// the value it stands for.
pub(super) type Values = Vec<(Literal, Literal)>;

/// The values of `named` when typify's type of it would take more: a closed enum
/// [`typed_as_enum`] does not keep as an enum, or a constant that is not a string.
pub(super) fn checked(named: &NamedType) -> Option<Values> {
    match &named.kind {
        TypeKind::Enum(values) if !values.open && !typed_as_enum(values) => Some(
            values
                .values
                .iter()
                .flat_map(|value| {
                    std::iter::once(&value.value)
                        .chain(&value.aliases)
                        .map(|spelling| (spelling.clone(), value.value.clone()))
                })
                .collect(),
        ),
        TypeKind::Alias(TypeExpr::Literal(literal)) if literal.as_str().is_none() => {
            Some(vec![(literal.clone(), literal.clone())])
        }
        _ => None,
    }
}

/// Whether typify writes the enum as a Rust enum: every value is a string and no two
/// make the same variant name (typify gives up on the enum when two do).
pub(super) fn typed_as_enum(values: &Enum) -> bool {
    if !values.is_string() {
        return false;
    }
    let strings: Vec<&str> = values
        .values
        .iter()
        .filter_map(|v| v.value.as_str())
        .collect();
    let mut names: Vec<String> = strings.iter().map(|s| super::type_key(s)).collect();
    names.sort();
    names.dedup();
    names.len() == strings.len()
}

/// Reads the field of every newtype struct whose definition (by key) has checked
/// values through `symgen_one_of`, writing the helpers the module then uses.
pub(super) fn check(
    items: &mut Vec<syn::Item>,
    values: &HashMap<String, Values>,
    key_of: impl Fn(&syn::Ident) -> String,
) {
    let mut readers: Vec<syn::Item> = Vec::new();
    for item in items.iter_mut() {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let Some(values) = values.get(&key_of(&item.ident)) else {
            continue;
        };
        let syn::Fields::Unnamed(fields) = &mut item.fields else {
            continue;
        };
        let [field] = &mut fields.unnamed.iter_mut().collect::<Vec<_>>()[..] else {
            continue;
        };
        let name = format!("symgen_values_{}", readers.len());
        let Ok(reader) = syn::parse_str::<syn::Ident>(&name) else {
            continue;
        };
        field
            .attrs
            .push(syn::parse_quote!(#[serde(deserialize_with = #name)]));
        let (strings, others): (Vec<_>, Vec<_>) = values
            .iter()
            .partition(|(spelling, _)| spelling.as_str().is_some());
        let strings = strings.iter().map(|(spelling, canonical)| -> syn::Expr {
            let spelling = spelling.as_str().unwrap_or_default();
            let canonical = canonical.to_json();
            syn::parse_quote!((#spelling, #canonical))
        });
        let others = others.iter().map(|(spelling, canonical)| -> syn::Expr {
            let (spelling, canonical) = (spelling.to_json(), canonical.to_json());
            syn::parse_quote!((#spelling, #canonical))
        });
        readers.push(syn::parse_quote! {
            fn #reader<'de, D, T>(deserializer: D) -> ::std::result::Result<T, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::de::DeserializeOwned,
            {
                symgen_one_of(deserializer, &[#(#strings),*], &[#(#others),*])
            }
        });
    }
    if readers.is_empty() {
        return;
    }
    items.extend(readers);
    items.push(syn::parse_quote! {
        /// Reads a value that must equal one of the schema's: `strings` pairs each string
        /// spelling with the JSON text of the value it stands for, `others` each other
        /// spelling's JSON text with it. Numbers are equal by value (`1.0` is `1`). The
        /// value it equals is read as `T`; anything else is refused.
        fn symgen_one_of<'de, D, T>(
            deserializer: D,
            strings: &[(&str, &str)],
            others: &[(&str, &str)],
        ) -> ::std::result::Result<T, D::Error>
        where
            D: ::serde::Deserializer<'de>,
            T: ::serde::de::DeserializeOwned,
        {
            use ::serde::de::Error as _;
            let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
            let canonical = match &value {
                ::serde_json::Value::String(text) => strings
                    .iter()
                    .find(|(spelling, _)| spelling == text)
                    .map(|(_, canonical)| *canonical),
                _ => others
                    .iter()
                    .find(|(spelling, _)| symgen_same(&value, spelling))
                    .map(|(_, canonical)| *canonical),
            };
            let Some(canonical) = canonical else {
                return ::std::result::Result::Err(D::Error::custom(format!(
                    "{value} is not one of the values the schema allows"
                )));
            };
            ::serde_json::from_str(canonical).map_err(D::Error::custom)
        }
    });
    items.push(syn::parse_quote! {
        /// Whether a value that is not a string equals a scalar written as JSON text
        /// (`spelling`), as JSON Schema compares them: numbers by value. Nothing is
        /// built: a number's text is read as a number, `true`, `false` and `null` are
        /// their own text.
        fn symgen_same(value: &::serde_json::Value, spelling: &str) -> bool {
            match value {
                ::serde_json::Value::Number(x) => {
                    let Ok(y) = spelling.parse::<::serde_json::Number>() else {
                        return false;
                    };
                    match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                        (Some(x), Some(y), _, _) => x == y,
                        (_, _, Some(x), Some(y)) => x == y,
                        _ => x.as_f64() == y.as_f64(),
                    }
                }
                ::serde_json::Value::Bool(true) => spelling == "true",
                ::serde_json::Value::Bool(false) => spelling == "false",
                ::serde_json::Value::Null => spelling == "null",
                _ => false,
            }
        }
    });
}
