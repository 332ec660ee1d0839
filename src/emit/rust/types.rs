//! One module's Rust source from typify: the module's definitions (in the dialect of
//! `dialect.rs`) go into a typify `TypeSpace`; types the module imports are typify
//! replacements naming the home module's type; the tokens are laid out by
//! `prettyplease`.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use schemars08::schema::{Schema, SchemaObject};
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

/// What typify made of one module.
pub(super) struct Rendered {
    /// The module's source, laid out.
    pub source: String,
    /// The Rust type of each root and rendered model type, by model name: a name in the
    /// module, or a path into another module for an imported type.
    pub types: HashMap<String, String>,
}

/// A type the module uses from another module: its definition key here and the Rust
/// path of the home module's type.
pub(super) struct Replacement {
    pub key: String,
    pub path: String,
}

/// Runs typify over `definitions` (definition key, schema); `names` maps the model
/// names whose Rust names are wanted to their keys. Errors are typify's message, or
/// its panic's.
pub(super) fn render(
    definitions: Vec<(String, Value)>,
    replacements: &[Replacement],
    names: &[(String, String)],
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
        for (name, key) in names {
            let reference = Schema::Object(SchemaObject::new_ref(format!("#/definitions/{key}")));
            let id = space.add_type(&reference).map_err(|err| err.to_string())?;
            let ty = space.get_type(&id).map_err(|err| err.to_string())?;
            types.insert(name.clone(), ty.name());
        }
        let mut file: syn::File =
            syn::parse2(space.to_stream()).map_err(|err| format!("typify wrote no Rust: {err}"))?;
        rename_clashing_extras(&mut file.items);
        Ok(Rendered {
            source: escape_unprintable(&prettyplease::unparse(&file)),
            types,
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
                let flattened = fields
                    .named
                    .iter_mut()
                    .find(|f| named(f, "extra") && f.attrs.iter().any(is_serde_flatten));
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

/// Whether an attribute is `#[serde(…, flatten, …)]`.
fn is_serde_flatten(attribute: &syn::Attribute) -> bool {
    if !attribute.path().is_ident("serde") {
        return false;
    }
    let mut flatten = false;
    let _ = attribute.parse_nested_meta(|meta| {
        if meta.path.is_ident("flatten") {
            flatten = true;
        } else if meta.input.peek(syn::Token![=]) {
            let _: syn::Expr = meta.value()?.parse()?;
        }
        Ok(())
    });
    flatten
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
