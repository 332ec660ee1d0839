//! One module's Rust source from typify: the module's definitions (in the dialect of
//! `dialect.rs`) go into a typify `TypeSpace`; types the module imports are typify
//! replacements naming the home module's type; the tokens are laid out by
//! `prettyplease`.

use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};

use schemars08::schema::{Schema, SchemaObject};
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use super::dialect::Whole;

/// What typify made of one module.
pub(super) struct Rendered {
    /// The module's source, laid out.
    pub source: String,
    /// The Rust type of each root and rendered model type, by model name: a name in the
    /// module, or a path into another module for an imported type.
    pub types: HashMap<String, String>,
    /// Which readings of the crate's whole-float module the module names.
    pub whole: WholeReads,
    /// Whether the module reads a field through the crate's bounds module.
    pub bounded: bool,
}

/// The readings of the crate's whole-float module (`templates/rust/whole.rs`) a module
/// names: each is written into that module only when some module names it.
#[derive(Clone, Copy, Default)]
pub(super) struct WholeReads {
    /// `read`: a field or variant read through it.
    pub read: bool,
    /// `read_present`: an optional field read from a present value only, through it.
    pub read_present: bool,
}

impl WholeReads {
    pub fn add(&mut self, other: WholeReads) {
        self.read |= other.read;
        self.read_present |= other.read_present;
    }
}

/// A type the module uses from another module: its definition key here and the Rust
/// path of the home module's type.
pub(super) struct Replacement {
    pub key: String,
    pub path: String,
}

/// How the fields of each definition (by key) are read where serde's derived reading
/// is not the schema's.
pub(super) struct Readings<'a> {
    /// The optional properties read from a present value only.
    pub present_only: &'a HashMap<String, BTreeSet<String>>,
    /// Where integers without a Rust `format` are.
    pub whole: &'a HashMap<String, Whole>,
    /// The path of the crate's whole-float module from a module (`super::…`).
    pub whole_module: &'a str,
    /// The values of each definition whose type the crate checks (`values.rs`).
    pub values: &'a HashMap<String, super::values::Values>,
    /// The integer bounds of each definition the crate checks (`bounds.rs`).
    pub bounds: &'a HashMap<String, super::bounds::Bounds>,
    /// The path of the crate's bounds module from a module (`super::…`).
    pub bounds_module: &'a str,
}

/// Runs typify over `definitions` (definition key, schema); `names` maps the model
/// names whose Rust names are wanted to their keys. Errors are typify's message, or
/// its panic's.
pub(super) fn render(
    definitions: Vec<(String, Value)>,
    replacements: &[Replacement],
    names: &[(String, String)],
    readings: &Readings<'_>,
) -> Result<Rendered, String> {
    let mut schemas = Vec::with_capacity(definitions.len());
    for (key, value) in definitions {
        let schema: Schema = serde_json::from_value(value).map_err(|err| {
            format!("the definition of `{key}` is not a schema typify reads: {err}")
        })?;
        schemas.push((key, schema));
    }
    let mut settings = TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    for replacement in replacements {
        settings.with_replacement(&replacement.key, &replacement.path, std::iter::empty());
    }
    // typify panics on some schemas; that panic is this function's error, so the
    // default hook's report (and backtrace) is held back while typify runs.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let run = catch_unwind(AssertUnwindSafe(move || -> Result<Rendered, String> {
        let mut space = TypeSpace::new(&settings);
        space
            .add_ref_types(schemas)
            .map_err(|err| err.to_string())?;
        let mut types = HashMap::new();
        // The definition key of each type typify named, by its name.
        let mut keys = HashMap::new();
        for (name, key) in names {
            let reference = Schema::Object(SchemaObject::new_ref(format!("#/definitions/{key}")));
            let id = space.add_type(&reference).map_err(|err| err.to_string())?;
            let ty = space.get_type(&id).map_err(|err| err.to_string())?;
            keys.insert(ty.name(), key.clone());
            types.insert(name.clone(), ty.name());
        }
        let mut file: syn::File =
            syn::parse2(space.to_stream()).map_err(|err| format!("typify wrote no Rust: {err}"))?;
        syn::visit_mut::VisitMut::visit_file_mut(&mut QualifiedDefaults, &mut file);
        rename_clashing_extras(&mut file.items);
        // The definition key of a type typify named.
        let key_of = |ident: &syn::Ident| {
            let name = ident.to_string();
            keys.get(&name).cloned().unwrap_or(name)
        };
        super::values::check(&mut file.items, readings.values, key_of);
        let whole = read_as_the_schema_says(&mut file.items, readings, &keys);
        // After the readings above, which the checks then wrap.
        let bounded = super::bounds::check(
            &mut file.items,
            readings.bounds,
            readings.bounds_module,
            key_of,
        );
        // Last: the remote definitions copy the fields' attributes as they now are.
        super::objects::objects_only(&mut file.items);
        Ok(Rendered {
            source: escape_unprintable(&prettyplease::unparse(&file)),
            types,
            whole,
            bounded,
        })
    }));
    std::panic::set_hook(hook);
    match run {
        Ok(result) => result,
        Err(panic) => Err(panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "typify failed".to_owned())),
    }
}

/// typify's `impl Default` bodies call `Default::default()` unqualified, which names the
/// schema's own type where the schema defines one called `default` (codecov's does):
/// every such path in an expression is written with the standard library's path. Only
/// code is visited; doc comments (schema text) stay as they are.
struct QualifiedDefaults;

impl syn::visit_mut::VisitMut for QualifiedDefaults {
    fn visit_expr_path_mut(&mut self, expr: &mut syn::ExprPath) {
        let path = &expr.path;
        let bare = path.leading_colon.is_none()
            && expr.qself.is_none()
            && path.segments.len() == 2
            && path.segments[0].ident == "Default"
            && path.segments[1].ident == "default";
        if bare {
            expr.path = syn::parse_quote!(::std::default::Default::default);
        }
        syn::visit_mut::visit_expr_path_mut(self, expr);
    }
}

/// Where a struct has a property named `extra` and typify adds its map of unknown keys
/// (`#[serde(flatten)] extra`) beside it, the map takes another name (`extra_keys`, or
/// `extra_keys2`, …): typify names both `extra`, which does not compile. The wire is
/// unchanged (a flattened field has no key of its own).
fn rename_clashing_extras(items: &mut [syn::Item]) {
    for item in items {
        match item {
            syn::Item::Struct(item) => {
                let syn::Fields::Named(fields) = &mut item.fields else {
                    continue;
                };
                let named =
                    |f: &syn::Field, name: &str| f.ident.as_ref().is_some_and(|i| i == name);
                if fields.named.iter().filter(|f| named(f, "extra")).count() < 2 {
                    continue;
                }
                let taken: Vec<String> = fields
                    .named
                    .iter()
                    .filter_map(|f| f.ident.as_ref().map(ToString::to_string))
                    .collect();
                let fresh = std::iter::once("extra_keys".to_owned())
                    .chain((2..).map(|n| format!("extra_keys{n}")))
                    .find(|name| !taken.contains(name))
                    .unwrap_or_default();
                let flattened = fields.named.iter_mut().find(|f| {
                    named(f, "extra") && f.attrs.iter().any(|a| is_serde_word(a, "flatten"))
                });
                if let Some(field) = flattened
                    && let Some(ident) = &field.ident
                {
                    field.ident = Some(syn::Ident::new(&fresh, ident.span()));
                }
            }
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &mut module.content {
                    rename_clashing_extras(items);
                }
            }
            _ => {}
        }
    }
}

/// Where serde's derived reading accepts more than the schema, a field or variant
/// reads through a helper that accepts only what the schema says; the wire written is
/// unchanged.
///
/// (A struct's reading from a JSON array, where serde's derived one would take it, is
/// refused by the struct itself: `objects.rs`.)
///
/// - An optional property typify types `Option<T>` is read from `null` too. Where its
///   schema does not admit `null` (`present_only`: the property keys, by the definition
///   key that is the struct's or enum's name), it reads through `symgen_present`: absent
///   is `None`, a present value must be a `T`.
/// - serde's integers refuse every float literal, where JSON Schema's `integer` takes a
///   whole one (`1.0`, `-0`). A field whose schema holds integers without a Rust
///   `format` (and none with one), and a newtype variant of an untagged or externally
///   tagged enum that holds an integer where the union's values hold only such
///   integers, read through the crate's whole-float module (`read`, or `read_present`
///   for a present-only field). Returns which of its readings the module names.
///
/// `keys` maps the name typify gave a definition's type to the definition's key, where
/// the two differ (`Ωx` is typify's `X`).
fn read_as_the_schema_says(
    items: &mut Vec<syn::Item>,
    readings: &Readings<'_>,
    keys: &HashMap<String, String>,
) -> WholeReads {
    let key_of = |ident: &syn::Ident| {
        let name = ident.to_string();
        keys.get(&name).cloned().unwrap_or(name)
    };
    let no_present = BTreeSet::new();
    let present_of = |ident: &syn::Ident| {
        readings
            .present_only
            .get(&key_of(ident))
            .unwrap_or(&no_present)
    };
    let no_whole = Whole::default();
    let whole_of = |ident: &syn::Ident| readings.whole.get(&key_of(ident)).unwrap_or(&no_whole);
    let read = format!("{}::read", readings.whole_module);
    let read_present = format!("{}::read_present", readings.whole_module);
    let mut reads = WholeReads::default();
    let mut present_used = false;
    let mut required_used = false;
    // `::std::option::Option<S>`: its `S`.
    let optional = |ty: &syn::Type| -> Option<syn::Type> {
        let syn::Type::Path(path) = ty else {
            return None;
        };
        let last = path.path.segments.last()?;
        if last.ident != "Option" {
            return None;
        }
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        match args.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner.clone()),
            _ => None,
        }
    };
    // The fields of every struct and of every struct variant, with the present-only and
    // whole-float keys of the definition the item is.
    type Keys<'k> = (&'k BTreeSet<String>, &'k BTreeSet<String>);
    let mut owned: Vec<(&mut syn::FieldsNamed, Keys<'_>)> = Vec::new();
    for item in items.iter_mut() {
        match item {
            syn::Item::Struct(item) => {
                let keys = present_of(&item.ident);
                let whole = &whole_of(&item.ident).keys;
                if let syn::Fields::Named(fields) = &mut item.fields {
                    owned.push((fields, (keys, whole)));
                }
            }
            syn::Item::Enum(item) => {
                let keys = present_of(&item.ident);
                let whole = &whole_of(&item.ident).keys;
                for variant in &mut item.variants {
                    if let syn::Fields::Named(fields) = &mut variant.fields {
                        owned.push((fields, (keys, whole)));
                    }
                }
            }
            _ => {}
        }
    }
    for (fields, (present_only, whole)) in owned {
        for field in &mut fields.named {
            let special = field.attrs.iter().any(|a| {
                ["flatten", "with", "deserialize_with"]
                    .iter()
                    .any(|word| is_serde_word(a, word))
            });
            if special {
                continue;
            }
            let defaulted = field.attrs.iter().any(|a| is_serde_word(a, "default"));
            // An optional `{"type": "null"}` property: typify's `()` with a default
            // would write `null` where the key was absent. As an `Option<()>` read from
            // a present value only, absent stays absent and `null` stays `null`.
            if defaulted && matches!(&field.ty, syn::Type::Tuple(unit) if unit.elems.is_empty()) {
                field.ty = syn::parse_quote!(::std::option::Option<()>);
                field.attrs.push(syn::parse_quote!(
                    #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                ));
                read_present_only(field);
                present_used = true;
                continue;
            }
            // A required property whose schema admits `null` is typify's `Option<T>`
            // without a `default`, which serde's derived reading takes as `None` when
            // the key is missing. Read through a function, a missing key is refused,
            // as the schema's `required` says (`null` is still `None`).
            let key = serde_key(field);
            if !defaulted && !whole.contains(&key) && optional(&field.ty).is_some() {
                field
                    .attrs
                    .push(syn::parse_quote!(#[serde(deserialize_with = "symgen_required")]));
                required_used = true;
                continue;
            }
            // Only an optional field (typify's `default`) of a key listed reads from a
            // present value only.
            let present = defaulted && present_only.contains(&key);
            if whole.contains(&key) {
                let path = if present && optional(&field.ty).is_some() {
                    reads.read_present = true;
                    &read_present
                } else {
                    reads.read = true;
                    &read
                };
                field
                    .attrs
                    .push(syn::parse_quote!(#[serde(deserialize_with = #path)]));
                continue;
            }
            // A struct reads from a JSON object only by itself (`objects.rs`).
            if present && optional(&field.ty).is_some() {
                read_present_only(field);
                present_used = true;
            }
        }
    }
    // An alias of integers: typify's newtype struct, read as its one field.
    for item in items.iter_mut() {
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let transparent = item.attrs.iter().any(|a| is_serde_word(a, "transparent"));
        if !transparent || !whole_of(&item.ident).alias {
            continue;
        }
        let syn::Fields::Unnamed(fields) = &mut item.fields else {
            continue;
        };
        if let [field] = &mut fields.unnamed.iter_mut().collect::<Vec<_>>()[..]
            && !field
                .attrs
                .iter()
                .any(|a| is_serde_word(a, "deserialize_with"))
        {
            field
                .attrs
                .push(syn::parse_quote!(#[serde(deserialize_with = #read)]));
            reads.read = true;
        }
    }
    for item in items.iter_mut() {
        let syn::Item::Enum(item) = item else {
            continue;
        };
        // Only untagged and externally tagged variants' values are written by
        // `Dialect::payload`, which finds their integers.
        if whole_of(&item.ident).variants {
            for variant in &mut item.variants {
                let syn::Fields::Unnamed(fields) = &variant.fields else {
                    continue;
                };
                let [field] = fields.unnamed.iter().collect::<Vec<_>>()[..] else {
                    continue;
                };
                if holds_integer(&field.ty) {
                    variant
                        .attrs
                        .push(syn::parse_quote!(#[serde(deserialize_with = #read)]));
                    reads.read = true;
                }
            }
        }
    }
    if required_used {
        items.push(syn::parse_quote! {
            /// Reads a required field whose schema admits `null`: `null` is `None`, and a
            /// missing key is refused (serde's derived reading would take it as `None`).
            fn symgen_required<'de, D, T>(
                deserializer: D,
            ) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                <::std::option::Option<T> as ::serde::Deserialize<'de>>::deserialize(deserializer)
            }
        });
    }
    if present_used {
        items.push(syn::parse_quote! {
            /// Reads an optional field whose schema does not admit `null` from a present
            /// value only (serde's `Option` would read `null` as `None`); absent is `None`
            /// through the field's `default`.
            fn symgen_present<'de, D, T>(
                deserializer: D,
            ) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                T::deserialize(deserializer).map(::std::option::Option::Some)
            }
        });
    }

    reads
}

/// Reads `field` (an `Option`) from a present value only, through the module's
/// `symgen_present`: an absent key is `None`, `null` is read as the field's type reads
/// it.
fn read_present_only(field: &mut syn::Field) {
    field
        .attrs
        .push(syn::parse_quote!(#[serde(deserialize_with = "symgen_present")]));
}

/// Whether `ty` is a Rust integer, or an option, box, array, tuple or map that holds
/// one (the types typify writes for a schema's integers).
fn holds_integer(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            // `i64`, `u8`, …, and `NonZeroU64` and the like.
            let name = last.ident.to_string();
            let primitive = name.trim_start_matches("NonZero").to_ascii_lowercase();
            let integer = matches!(
                primitive.as_str(),
                "i8" | "i16"
                    | "i32"
                    | "i64"
                    | "i128"
                    | "isize"
                    | "u8"
                    | "u16"
                    | "u32"
                    | "u64"
                    | "u128"
                    | "usize"
            );
            if integer {
                return true;
            }
            let container = ["Option", "Box", "Vec", "HashMap", "BTreeMap"]
                .iter()
                .any(|name| last.ident == name);
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return false;
            };
            container
                && args.args.iter().any(|arg| match arg {
                    syn::GenericArgument::Type(inner) => holds_integer(inner),
                    _ => false,
                })
        }
        syn::Type::Tuple(tuple) => tuple.elems.iter().any(holds_integer),
        syn::Type::Array(array) => holds_integer(&array.elem),
        syn::Type::Paren(inner) => holds_integer(&inner.elem),
        _ => false,
    }
}

/// The key a field is read from: its `#[serde(rename = "…")]`, else its name.
pub(super) fn serde_key(field: &syn::Field) -> String {
    let mut key = None;
    for attribute in &field.attrs {
        if !attribute.path().is_ident("serde") {
            continue;
        }
        let _ = attribute.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                key = Some(value.value());
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    key.unwrap_or_else(|| {
        let name = field
            .ident
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
    })
}

/// Whether an attribute is `#[serde(…, word, …)]` (`untagged`, `flatten`).
pub(super) fn is_serde_word(attribute: &syn::Attribute, word: &str) -> bool {
    let mut found = false;
    if attribute.path().is_ident("serde") {
        let _ = attribute.parse_nested_meta(|meta| {
            if meta.path.is_ident(word) {
                found = true;
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    found
}

/// `source` with every character rustc refuses or that could end a line for a reader
/// (control characters other than `\n` and `\t`, U+2028, U+2029, the invisible and
/// bidirectional characters of [`crate::emit::text::is_invisible`]) written as its `\u{…}` escape. String literals from syn
/// already escape them, so such a character can only be in a comment (the schema text
/// typify quotes in docs), where the escape is plain text; in a string literal it
/// would mean the same character.
fn escape_unprintable(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    for c in source.chars() {
        let unprintable = (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{2028}' | '\u{2029}')
            || crate::emit::text::is_invisible(c);
        if unprintable {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}
