//! What serde accepts and schemars does not say, found by tracing the types'
//! `Deserialize` impls ([`crate::trace`]) and written into the `$defs`:
//!
//! * `#[serde(alias = "...")]` on a struct field: the alias becomes an input-only
//!   property (`x-symgen-alias-of`) with serde's presence rule;
//! * `#[serde(other)]` on an internally tagged enum: the union gets the open alternative
//!   for unknown tags (`x-symgen-unknown`), as the macros' open unions have;
//! * `#[serde(other)]` on an enum of strings: any other string is accepted as well;
//! * `#[serde(alias = "...")]` on a variant of an enum of strings: the alias joins the
//!   values (`x-symgen-aliases`, see [`super::enum_aliases`]), also for an enum that only
//!   an internally tagged enum's variant reaches;
//! * two Rust types that share a schema name (two instantiations of one generic type,
//!   or same-named types of different modules), which schemars tells apart only by a
//!   number (`Page`, `Page2`): refused, naming the types and the fix.
//!
//! A key serde accepts that the schema neither describes nor can place is refused too.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::enum_aliases;
use crate::trace::{FoundKind, PROBE_TAG, Question, Tracer};

/// A refusal: JSON Pointer in the document and message.
pub(crate) type Refusal = (String, String);

/// Applies everything `tracer` found to `defs`.
pub(crate) fn apply(tracer: &mut Tracer, defs: &mut Map<String, Value>) -> Result<(), Refusal> {
    refuse_shared_names(tracer, defs)?;
    let found = tracer.found().to_vec();
    for item in &found {
        match &item.kind {
            FoundKind::Struct(fields) => {
                let (targets, strict) = struct_defs(defs, &item.name, fields);
                for target in targets {
                    let def = &defs[target.as_str()];
                    let canonical = properties(def);
                    let extras: Vec<&str> = fields
                        .iter()
                        .copied()
                        .filter(|f| !canonical.iter().any(|c| c == f))
                        .collect();
                    let mut aliases = Vec::new();
                    for extra in extras {
                        let owner = canonical.iter().find(|c| {
                            let Some(value) = sample(defs, &def["properties"][c.as_str()], 0)
                            else {
                                return false;
                            };
                            let question = Question::Keys {
                                first: (*c).clone(),
                                value,
                                second: extra.to_owned(),
                            };
                            tracer.ask(&item.path, question).err().as_deref()
                                == Some(&format!("duplicate field `{c}`"))
                        });
                        match owner {
                            Some(owner) => aliases.push((owner.clone(), extra.to_owned())),
                            None if strict => {
                                return Err((
                                    crate::json_pointer::def(&target),
                                    format!(
                                        "serde also accepts the key `{extra}` in `{}`, which the \
                                         schema does not describe and symgen cannot place (a \
                                         skipped field, or an alias of a field whose type \
                                         symgen cannot sample); describe it in the schema or \
                                         remove it",
                                        item.name
                                    ),
                                ));
                            }
                            None => {
                                aliases.clear();
                                break;
                            }
                        }
                    }
                    let mut by_field: Vec<(String, Vec<&str>)> = Vec::new();
                    for (owner, alias) in &aliases {
                        match by_field.iter_mut().find(|(o, _)| o == owner) {
                            Some((_, list)) => list.push(alias),
                            None => by_field.push((owner.clone(), vec![alias])),
                        }
                    }
                    if let Some(Value::Object(object)) = defs.get_mut(&target) {
                        for (index, (owner, list)) in by_field.iter().enumerate() {
                            super::parts::add_field_aliases_at(object, owner, list, index);
                        }
                    }
                }
            }
            FoundKind::Tagged(tag) => {
                string_enums_behind_tag(tracer, defs, item, tag)?;
                let Some(Value::Object(def)) = defs.get_mut(&item.name) else {
                    continue;
                };
                if def.contains_key("x-symgen-union")
                    || tracer
                        .ask(&item.path, Question::UnknownTag(tag.clone()))
                        .is_err()
                {
                    continue;
                }
                open_tagged_union(def, tag);
            }
            FoundKind::Enum(names) => {
                let Some(Value::Object(def)) = defs.get_mut(&item.name) else {
                    continue;
                };
                string_enum_aliases(def, &item.name, names)?;
                if tracer.ask(&item.path, Question::UnknownVariant).is_ok() {
                    open_string_values(def);
                }
            }
        }
    }
    Ok(())
}

/// Adds the aliases serde reads the enum-of-strings `def` (serde's `name`) by, from
/// `names`, serde's variant names; refuses an alias it cannot place.
fn string_enum_aliases(
    def: &mut Map<String, Value>,
    name: &str,
    names: &[&str],
) -> Result<(), Refusal> {
    let Some(canonical) = enum_aliases::canonical_values(def) else {
        return Ok(());
    };
    match enum_aliases::owners(names, &canonical) {
        Ok(aliases) => {
            enum_aliases::add(def, &aliases);
            Ok(())
        }
        Err(alias) => Err((
            crate::json_pointer::def(name),
            format!(
                "serde also reads `{name}` from the string `{alias}`, an alias that symgen \
                 cannot tell the variant of from serde's list of names; declare the enum \
                 with `string_enum!`, whose aliases are written out, or rename the alias"
            ),
        )),
    }
}

/// The enums of strings the variants of the internally tagged union `item` reach
/// through a field (`{"$ref": "#/$defs/E"}`): serde decodes them from buffered content,
/// where the probe cannot walk, so each is asked through the union itself what it
/// makes of a string it does not know. "unknown variant …, expected …" lists its names
/// (aliases); no such error means it takes any string (`#[serde(other)]`).
fn string_enums_behind_tag(
    tracer: &mut Tracer,
    defs: &mut Map<String, Value>,
    item: &crate::trace::Found,
    tag: &str,
) -> Result<(), Refusal> {
    let Some(def) = defs.get(&item.name) else {
        return Ok(());
    };
    let mut asked: Vec<(String, String, String)> = Vec::new();
    for key in ["oneOf", "anyOf"] {
        for alternative in def.get(key).and_then(Value::as_array).into_iter().flatten() {
            let Some(properties) = alternative.get("properties").and_then(Value::as_object) else {
                continue;
            };
            let Some(variant) = properties
                .get(tag)
                .and_then(|t| t.get("const").or_else(|| t.get("enum")?.get(0)))
                .and_then(Value::as_str)
            else {
                continue;
            };
            for (field, schema) in properties {
                let Some(target) = schema
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/$defs/"))
                else {
                    continue;
                };
                let is_enum = defs
                    .get(target)
                    .and_then(Value::as_object)
                    .and_then(enum_aliases::canonical_values)
                    .is_some();
                if is_enum && !asked.iter().any(|(_, _, t)| t == target) {
                    asked.push((variant.to_owned(), field.clone(), target.to_owned()));
                }
            }
        }
    }
    for (variant, field, target) in asked {
        let question = Question::TaggedField {
            tag: tag.to_owned(),
            variant,
            field,
        };
        let answer = tracer.ask(&item.path, question);
        let Some(Value::Object(def)) = defs.get_mut(&target) else {
            continue;
        };
        match answer {
            Err(message) => {
                if let Some(names) = enum_aliases::listed_in_error(&message, PROBE_TAG) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    string_enum_aliases(def, &target, &names)?;
                } else if message.starts_with("missing field") {
                    open_string_values(def);
                }
            }
            Ok(()) => open_string_values(def),
        }
    }
    Ok(())
}

/// The property names of an object schema.
fn properties(def: &Value) -> Vec<String> {
    def.get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter(|(_, schema)| schema.get("x-symgen-alias-of").is_none())
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The `$defs` entries that may describe the struct serde calls `name` with keys
/// `fields`, and whether the match is certain: the entry of that name (and the ones
/// schemars numbered after it, for a generic type) when their properties are all keys
/// serde accepts; else every entry that fits so (a struct decoded through a helper
/// type), each kept only if serde's extra keys turn out to be aliases of its fields.
fn struct_defs(defs: &Map<String, Value>, name: &str, fields: &[&str]) -> (Vec<String>, bool) {
    let fits = |def: &Value| {
        let props = properties(def);
        !props.is_empty() && props.iter().all(|p| fields.contains(&p.as_str()))
    };
    if defs.get(name).is_some_and(fits) {
        let mut names = vec![name.to_owned()];
        names.extend(numbered(defs, name).filter(|n| fits(&defs[n.as_str()])));
        return (names, true);
    }
    let names = defs
        .iter()
        .filter(|(_, def)| fits(def))
        .map(|(n, _)| n.clone())
        .collect();
    (names, false)
}

/// `name2`, `name3`, ...: the entries schemars numbered after `name`.
fn numbered<'a>(defs: &'a Map<String, Value>, name: &'a str) -> impl Iterator<Item = String> + 'a {
    defs.keys()
        .filter(move |key| {
            key.strip_prefix(name)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        })
        .cloned()
}

/// Refuses schema names that schemars numbered because several Rust types share them.
fn refuse_shared_names(tracer: &Tracer, defs: &Map<String, Value>) -> Result<(), Refusal> {
    let mut types: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for item in tracer.found() {
        if let (FoundKind::Struct(_) | FoundKind::Enum(_), Some(rust)) =
            (&item.kind, item.rust_type)
        {
            types.entry(&item.name).or_default().insert(rust);
        }
    }
    for (name, rust) in types {
        if rust.len() < 2 || !defs.contains_key(name) || numbered(defs, name).next().is_none() {
            continue;
        }
        let list: Vec<&str> = rust.into_iter().collect();
        return Err((
            crate::json_pointer::def(name),
            format!(
                "{} Rust types share the schema name `{name}` ({}), so schemars tells them \
                 apart only by a number (`{name}2`, ...), which changes whenever the types do; \
                 name each one: for a generic type `#[schemars(rename = \"{name}_for_{{T}}\")]` \
                 (giving e.g. `{name}_for_string`), else `#[schemars(rename = \"...\")]`",
                list.len(),
                list.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Adds the open alternative for unknown tags to an internally tagged union.
fn open_tagged_union(def: &mut Map<String, Value>, tag: &str) {
    let key = if def.contains_key("oneOf") {
        "oneOf"
    } else {
        "anyOf"
    };
    let Some(Value::Array(alternatives)) = def.get_mut(key) else {
        return;
    };
    let known: Vec<Value> = alternatives
        .iter()
        .filter_map(|alt| {
            let tag_schema = alt.get("properties")?.get(tag)?;
            tag_schema
                .get("const")
                .cloned()
                .or_else(|| tag_schema.get("enum")?.as_array()?.first().cloned())
        })
        .collect();
    alternatives.push(json!({
        "title": "Unknown",
        "description": format!(
            "A tag this union does not know: serde decodes it as the `#[serde(other)]` variant \
             (rule R4)."
        ),
        "type": "object",
        "properties": { tag: { "type": "string", "not": { "enum": known } } },
        "required": [tag],
        "x-symgen-unknown": true
    }));
    def.insert("x-symgen-union".into(), json!({ "tag": tag }));
}

/// Lets an enum of strings with `#[serde(other)]` accept any other string.
fn open_string_values(def: &mut Map<String, Value>) {
    let Some(known) = enum_aliases::canonical_values(def) else {
        return;
    };
    let mut closed = Map::new();
    for key in ["enum", "oneOf"] {
        if let Some(value) = def.remove(key) {
            closed.insert(key.into(), value);
        }
    }
    // Documented values (`oneOf` of `const`s) are read with the aliases beside them.
    if let Some(aliases) = def.get("x-symgen-aliases") {
        closed.insert("x-symgen-aliases".into(), aliases.clone());
    }
    def.insert("type".into(), "string".into());
    def.insert(
        "anyOf".into(),
        json!([
            Value::Object(closed),
            {
                "description": "Any other string: serde decodes it as the `#[serde(other)]` value.",
                "not": { "enum": known },
                "x-symgen-unknown": true
            }
        ]),
    );
}

/// A value `schema` accepts, built from the simplest choice at every turn (required
/// keys only, the first alternative, the lowest number); `None` when it finds none.
pub(crate) fn sample(defs: &Map<String, Value>, schema: &Value, depth: usize) -> Option<Value> {
    if depth > 16 {
        return None;
    }
    let object = match schema {
        Value::Bool(true) => return Some(Value::Null),
        Value::Object(object) => object,
        _ => return None,
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/$defs/")?;
        return sample(defs, defs.get(name)?, depth + 1);
    }
    if let Some(value) = object.get("const") {
        return Some(value.clone());
    }
    if let Some(first) = object
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|v| v.first())
    {
        return Some(first.clone());
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alternatives) = object.get(key).and_then(Value::as_array) {
            return alternatives
                .iter()
                .find_map(|alt| sample(defs, alt, depth + 1));
        }
    }
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).next()?,
        _ if object.contains_key("properties") => "object",
        _ => return Some(Value::Null),
    };
    match kind {
        "string" => Some(Value::String(String::new())),
        "boolean" => Some(Value::Bool(false)),
        "null" => Some(Value::Null),
        "integer" | "number" => {
            let low = object.get("minimum").and_then(Value::as_i64).unwrap_or(0);
            Some(Value::from(low.max(0)))
        }
        "array" => match object.get("prefixItems").and_then(Value::as_array) {
            Some(items) => items
                .iter()
                .map(|item| sample(defs, item, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            None => Some(Value::Array(Vec::new())),
        },
        "object" => {
            let mut out = Map::new();
            let required = object.get("required").and_then(Value::as_array);
            for key in required.into_iter().flatten().filter_map(Value::as_str) {
                let property = object
                    .get("properties")
                    .and_then(|p| p.get(key))
                    .cloned()
                    .unwrap_or(Value::Bool(true));
                out.insert(key.to_owned(), sample(defs, &property, depth + 1)?);
            }
            Some(Value::Object(out))
        }
        _ => None,
    }
}
