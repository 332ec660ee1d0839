//! Structs read from a JSON object only. serde's derived `Deserialize` of a struct with
//! named fields also reads a JSON array, its fields in order (`[]` is a struct whose
//! fields all have defaults), which the schema's `"type": "object"` refuses (unless a
//! field is flattened, as typify's map of an open object's unknown keys is: serde then
//! reads a map only). Each such struct typify writes keeps its derived reading, moved
//! onto a remote definition of itself (`#[serde(remote = "…")]`, the same fields and
//! attributes) that its own `Deserialize` calls through `SymgenObjectOnly`: every
//! request becomes `deserialize_map`, so an array is refused wherever the struct is read
//! (a root, an array's item, a map's value, a field), while a key given twice, a missing
//! field and an unknown key are refused as before. The remote definition is named so
//! that it hides no type of the module (a schema may well define a `Remote`).

use syn::punctuated::Punctuated;

use super::types::is_serde_word;

/// Moves the derived `Deserialize` of every struct with named fields in `items` onto a
/// remote definition read from an object only (with `SymgenObjectOnly`, when one was).
pub(super) fn objects_only(items: &mut Vec<syn::Item>) {
    let remote = remote_name(items);
    let mut impls: Vec<syn::Item> = Vec::new();
    for item in items.iter_mut() {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        if !matches!(item.fields, syn::Fields::Named(_)) || !item.generics.params.is_empty() {
            continue;
        }
        // A struct with a flattened field (typify's map of unknown keys) is read with
        // `deserialize_map` already, never from an array.
        if item
            .fields
            .iter()
            .any(|field| field.attrs.iter().any(|a| is_serde_word(a, "flatten")))
        {
            continue;
        }
        if !take_derived_deserialize(&mut item.attrs) {
            continue;
        }
        let ident = &item.ident;
        let name = ident.to_string();
        let serde_attrs = item
            .attrs
            .iter()
            .filter(|attr| attr.path().is_ident("serde"));
        let mut fields = item.fields.clone();
        for field in fields.iter_mut() {
            field.attrs.retain(|attr| attr.path().is_ident("serde"));
            field.vis = syn::Visibility::Inherited;
        }
        let syn::Fields::Named(fields) = fields else {
            continue;
        };
        let fields = fields.named.iter();
        impls.push(syn::parse_quote! {
            impl<'de> ::serde::Deserialize<'de> for #ident {
                fn deserialize<D: ::serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::std::result::Result<Self, D::Error> {
                    // Only its derived reading is used: it is never built itself.
                    #[allow(dead_code)]
                    #[derive(::serde::Deserialize)]
                    #[serde(remote = #name)]
                    #(#serde_attrs)*
                    struct #remote {
                        #(#fields,)*
                    }
                    #remote::deserialize(SymgenObjectOnly(deserializer))
                }
            }
        });
    }
    if impls.is_empty() {
        return;
    }
    items.extend(impls);
    items.push(syn::parse_quote! {
        /// The deserializer that reads a struct from a JSON object only: a map, whatever
        /// is asked.
        struct SymgenObjectOnly<D>(D);
    });
    items.push(syn::parse_quote! {
        impl<'de, D: ::serde::Deserializer<'de>> ::serde::Deserializer<'de> for SymgenObjectOnly<D> {
            type Error = D::Error;
            fn deserialize_any<V: ::serde::de::Visitor<'de>>(
                self,
                visitor: V,
            ) -> ::std::result::Result<V::Value, D::Error> {
                self.0.deserialize_map(visitor)
            }
            ::serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
                struct enum identifier ignored_any
            }
        }
    });
}

/// `SymgenRemote`, or `SymgenRemote2`, …: the first that no item of the module is
/// called (inside a function it would hide that item from the fields' types).
fn remote_name(items: &[syn::Item]) -> syn::Ident {
    let taken: std::collections::HashSet<String> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(item) => Some(item.ident.to_string()),
            syn::Item::Enum(item) => Some(item.ident.to_string()),
            syn::Item::Type(item) => Some(item.ident.to_string()),
            syn::Item::Mod(item) => Some(item.ident.to_string()),
            syn::Item::Fn(item) => Some(item.sig.ident.to_string()),
            syn::Item::Const(item) => Some(item.ident.to_string()),
            syn::Item::Static(item) => Some(item.ident.to_string()),
            _ => None,
        })
        .collect();
    let name = (1..)
        .map(|n| match n {
            1 => "SymgenRemote".to_owned(),
            n => format!("SymgenRemote{n}"),
        })
        .find(|name| !taken.contains(name))
        .unwrap_or_default();
    syn::parse_str(&name).unwrap_or_else(|_| syn::parse_quote!(SymgenRemote))
}

/// Removes `Deserialize` from the item's `#[derive(…)]`; whether it was there.
fn take_derived_deserialize(attrs: &mut [syn::Attribute]) -> bool {
    for attr in attrs.iter_mut() {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let Ok(paths) =
            attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        let is_deserialize = |path: &syn::Path| {
            path.segments
                .last()
                .is_some_and(|segment| segment.ident == "Deserialize")
        };
        if !paths.iter().any(is_deserialize) {
            continue;
        }
        let kept = paths.iter().filter(|path| !is_deserialize(path));
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remote_definition_hides_no_type_of_the_module() {
        // A schema's closed object called `Remote`, holding a `SymgenRemote`: the remote
        // definition inside `Remote`'s `Deserialize` must be called neither.
        let mut items: Vec<syn::Item> = vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(deny_unknown_fields)]
                pub struct Remote { pub next: ::std::option::Option<::std::boxed::Box<Remote>>, pub other: SymgenRemote }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(transparent)]
                pub struct SymgenRemote(pub ::std::string::String);
            },
        ];
        objects_only(&mut items);
        let source = prettyplease::unparse(&syn::File {
            shebang: None,
            attrs: Vec::new(),
            items,
        });
        assert!(source.contains("struct SymgenRemote2 {"), "{source}");
        assert!(source.contains("SymgenRemote2::deserialize(SymgenObjectOnly(deserializer))"));
        // The newtype keeps its derived reading; the struct's is moved.
        assert!(source.contains(
            "#[derive(::serde::Deserialize, ::serde::Serialize)]\n#[serde(transparent)]"
        ));
        assert!(
            source.contains(
                "#[derive(::serde::Serialize)]\n#[serde(deny_unknown_fields)]\npub struct Remote"
            ),
            "{source}"
        );
    }
}
