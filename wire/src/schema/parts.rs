//! Schema fragments for the shapes the wire macros declare. Called from macro
//! expansions; nothing here names a concrete protocol type.
//!
//! Custom keywords (all prefixed `x-symgen-`) carry what plain JSON Schema cannot say
//! but the code generators need: the envelope and union tag keys, the request/reply
//! pairing (R8), which variant is the open "unknown" case (R4), and enum input aliases.

use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::{ReplyKind, VariantInfo};

/// A shared field of an envelope.
pub struct FieldSpec {
    /// The exact wire name.
    pub wire: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// The field's schema.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
}

/// An envelope: shared fields plus an adjacently tagged body.
pub struct EnvelopeSpec {
    /// The envelope's doc comment.
    pub doc: &'static str,
    /// The key holding the tag (e.g. `type`, `method`).
    pub tag: &'static str,
    /// The key holding the content (e.g. `payload`, `params`).
    pub content: &'static str,
    /// The shared fields, in wire order.
    pub fields: Vec<FieldSpec>,
    /// The body's variants.
    pub variants: &'static [VariantInfo],
}

/// One value of a string enum.
pub struct EnumValueSpec {
    /// The canonical wire value.
    pub value: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// Values accepted on input as this one.
    pub aliases: &'static [&'static str],
}

/// Turns a `concat!`-ed doc comment into a description: one leading space per line
/// removed, surrounding blank lines dropped. `None` when empty.
pub fn clean_doc(doc: &str) -> Option<String> {
    let lines: Vec<&str> = doc
        .lines()
        .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end())
        .collect();
    let text = lines.join("\n");
    let text = text.trim_matches('\n');
    (!text.is_empty()).then(|| text.to_owned())
}

fn set_doc(object: &mut Map<String, Value>, doc: &str) {
    if let Some(doc) = clean_doc(doc) {
        object.insert("description".into(), Value::String(doc));
    }
}

fn into_object(schema: Schema) -> Map<String, Value> {
    match schema.to_value() {
        Value::Object(map) => map,
        Value::Bool(true) => Map::new(),
        other => {
            let mut map = Map::new();
            map.insert("allOf".into(), Value::Array(vec![other]));
            map
        }
    }
}

fn tag_schema(variant: &VariantInfo) -> Value {
    if variant.aliases.is_empty() {
        json!({ "type": "string", "const": variant.tag })
    } else {
        let mut values = vec![variant.tag];
        values.extend(variant.aliases);
        json!({ "type": "string", "enum": values, "x-symgen-aliases": variant.aliases })
    }
}

fn all_tags(variants: &[VariantInfo]) -> Vec<&'static str> {
    variants
        .iter()
        .flat_map(|v| std::iter::once(v.tag).chain(v.aliases.iter().copied()))
        .collect()
}

fn annotate_variant(
    generator: &mut SchemaGenerator,
    variant: &VariantInfo,
    object: &mut Map<String, Value>,
) {
    object.insert("title".into(), Value::String(variant.name.into()));
    set_doc(object, variant.doc);
    if variant.retired {
        object.insert("deprecated".into(), Value::Bool(true));
    }
    if let Some(parties) = variant.sent_by {
        object.insert("x-symgen-sent-by".into(), json!(parties));
    }
    if let Some(parties) = variant.received_by {
        object.insert("x-symgen-received-by".into(), json!(parties));
    }
    match (variant.reply)(generator) {
        ReplyKind::IsReply => {
            object.insert("x-symgen-is-reply".into(), Value::Bool(true));
        }
        ReplyKind::None => {
            object.insert("x-symgen-reply".into(), Value::Null);
        }
        ReplyKind::Data(schema) => {
            object.insert("x-symgen-reply".into(), schema.to_value());
        }
    }
}

fn unknown_variant(tag_key: &str, variants: &[VariantInfo], what: &str) -> Value {
    json!({
        "title": "Unknown",
        "description": format!(
            "A {what} whose `{tag_key}` this protocol does not know (rule R4). Receivers keep \
             the raw {what} so it can be forwarded unchanged."
        ),
        "type": "object",
        "properties": {
            tag_key: { "type": "string", "not": { "enum": all_tags(variants) } }
        },
        "required": [tag_key],
        "x-symgen-unknown": true
    })
}

/// The schema of an envelope (see `envelope!`).
pub fn envelope_schema(generator: &mut SchemaGenerator, spec: &EnvelopeSpec) -> Schema {
    let mut properties = Map::new();
    properties.insert(
        spec.tag.into(),
        json!({ "type": "string", "description": "The message tag; selects the content type." }),
    );
    let mut required = vec![Value::String(spec.tag.into())];
    for field in &spec.fields {
        let mut schema = into_object((field.schema)(generator));
        set_doc(&mut schema, field.doc);
        properties.insert(field.wire.into(), Value::Object(schema));
        required.push(Value::String(field.wire.into()));
    }

    let mut variants = Vec::new();
    for variant in spec.variants {
        let mut object = Map::new();
        annotate_variant(generator, variant, &mut object);
        let payload = variant.payload.map(|schema| schema(generator));
        let mut props = Map::new();
        props.insert(spec.tag.into(), tag_schema(variant));
        let mut var_required = vec![Value::String(spec.tag.into())];
        if let Some(payload) = payload {
            if (variant.payload_accepts_empty)() {
                // Absent or null content decodes as `{}` (R3).
                props.insert(
                    spec.content.into(),
                    json!({ "anyOf": [payload.to_value(), { "type": "null" }] }),
                );
            } else {
                props.insert(spec.content.into(), payload.to_value());
                var_required.push(Value::String(spec.content.into()));
            }
        }
        object.insert("properties".into(), Value::Object(props));
        object.insert("required".into(), Value::Array(var_required));
        variants.push(Value::Object(object));
    }
    variants.push(unknown_variant(spec.tag, spec.variants, "message"));

    let mut root = Map::new();
    set_doc(&mut root, spec.doc);
    root.insert("type".into(), "object".into());
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), Value::Array(required));
    root.insert("oneOf".into(), Value::Array(variants));
    root.insert(
        "x-symgen-envelope".into(),
        json!({ "tag": spec.tag, "content": spec.content }),
    );
    Schema::from(root)
}

/// The schema of an open internally tagged union (see `internally_tagged_union!`).
pub fn internal_union_schema(
    generator: &mut SchemaGenerator,
    doc: &str,
    tag_key: &str,
    variants: &[VariantInfo],
) -> Schema {
    let mut alternatives = Vec::new();
    for variant in variants {
        let mut object = Map::new();
        annotate_variant(generator, variant, &mut object);
        object.insert("type".into(), "object".into());
        object.insert("properties".into(), json!({ tag_key: tag_schema(variant) }));
        object.insert("required".into(), json!([tag_key]));
        if let Some(payload) = variant.payload {
            // The payload's fields sit beside the tag: a `$ref` beside `properties`,
            // exactly as schemars emits an internally tagged newtype variant.
            let payload = into_object(payload(generator));
            for (key, value) in payload {
                object.entry(key).or_insert(value);
            }
        }
        alternatives.push(Value::Object(object));
    }
    alternatives.push(unknown_variant(tag_key, variants, "message"));

    let mut root = Map::new();
    set_doc(&mut root, doc);
    root.insert("type".into(), "object".into());
    root.insert("required".into(), json!([tag_key]));
    root.insert("oneOf".into(), Value::Array(alternatives));
    root.insert("x-symgen-union".into(), json!({ "tag": tag_key }));
    Schema::from(root)
}

/// The schema of a closed string enum with input aliases (see `string_enum!`).
pub fn string_enum_schema(doc: &str, values: &[EnumValueSpec]) -> Schema {
    let mut root = Map::new();
    set_doc(&mut root, doc);
    root.insert("type".into(), "string".into());
    let documented = values.iter().any(|v| clean_doc(v.doc).is_some());
    let mut aliases = Map::new();
    if documented {
        let mut alternatives = Vec::new();
        for value in values {
            let mut object = Map::new();
            object.insert("const".into(), value.value.into());
            set_doc(&mut object, value.doc);
            alternatives.push(Value::Object(object));
        }
        for value in values {
            for alias in value.aliases {
                aliases.insert((*alias).into(), value.value.into());
                alternatives.push(json!({
                    "const": alias,
                    "description": format!("Input alias of `{}`.", value.value),
                    "deprecated": true
                }));
            }
        }
        root.insert("oneOf".into(), Value::Array(alternatives));
    } else {
        let mut all: Vec<Value> = values.iter().map(|v| v.value.into()).collect();
        for value in values {
            for alias in value.aliases {
                aliases.insert((*alias).into(), value.value.into());
                all.push((*alias).into());
            }
        }
        root.insert("enum".into(), Value::Array(all));
    }
    if !aliases.is_empty() {
        root.insert("x-symgen-aliases".into(), Value::Object(aliases));
    }
    Schema::from(root)
}

/// The schema of a fixed string (see `const_str!`).
pub fn const_schema(doc: &str, value: &str) -> Schema {
    let mut root = Map::new();
    set_doc(&mut root, doc);
    root.insert("type".into(), "string".into());
    root.insert("const".into(), value.into());
    Schema::from(root)
}

fn object_of(schema: &mut Schema) -> Option<&mut Map<String, Value>> {
    schema.as_object_mut()
}

fn push_constraint(object: &mut Map<String, Value>, constraint: Value) {
    match object.get_mut("allOf").and_then(Value::as_array_mut) {
        Some(all) => all.push(constraint),
        None => {
            object.insert("allOf".into(), Value::Array(vec![constraint]));
        }
    }
}

/// For a struct whose field `canonical` also accepts the serde aliases `aliases` on
/// input: adds each alias as a property with the same schema and makes presence match
/// serde: a required field needs exactly one of the keys, an optional one at most one
/// (serde rejects two as a duplicate field). The presence rules go under `allOf`, at
/// `position` (so that the rules of several fields keep their order).
pub(crate) fn add_field_aliases_at(
    object: &mut Map<String, Value>,
    canonical: &str,
    aliases: &[&str],
    position: usize,
) {
    let Some(property) = object
        .get("properties")
        .and_then(|p| p.get(canonical))
        .cloned()
    else {
        return;
    };
    let required = object
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|v| v == canonical));
    let mut alias_schema = property;
    if let Value::Object(map) = &mut alias_schema {
        map.insert(
            "description".into(),
            format!("Input alias of `{canonical}`, accepted on decode and never emitted.").into(),
        );
        map.insert("deprecated".into(), Value::Bool(true));
        map.insert("x-symgen-alias-of".into(), canonical.into());
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        if let Some(Value::Object(canonical_schema)) = properties.get_mut(canonical) {
            canonical_schema.insert("x-symgen-aliases".into(), json!(aliases));
            if required {
                canonical_schema.insert("x-symgen-required".into(), Value::Bool(true));
            }
        }
        for alias in aliases {
            properties.insert((*alias).into(), alias_schema.clone());
        }
    }
    let keys: Vec<&str> = std::iter::once(canonical)
        .chain(aliases.iter().copied())
        .collect();
    let constraint = if required {
        if let Some(Value::Array(list)) = object.get_mut("required") {
            list.retain(|v| v != canonical);
            if list.is_empty() {
                object.remove("required");
            }
        }
        let each: Vec<Value> = keys.iter().map(|k| json!({ "required": [k] })).collect();
        json!({ "oneOf": each })
    } else if let [alias] = aliases {
        json!({ "not": { "required": [canonical, alias] } })
    } else {
        let mut pairs = Vec::new();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                pairs.push(json!({ "required": [a, b] }));
            }
        }
        json!({ "not": { "anyOf": pairs } })
    };
    match object.get_mut("allOf").and_then(Value::as_array_mut) {
        Some(all) => all.insert(position.min(all.len()), constraint),
        None => {
            object.insert("allOf".into(), Value::Array(vec![constraint]));
        }
    }
}

/// Adds a validation-only constraint (under `allOf`) to an object schema: used for rules
/// that the Rust type enforces in code, such as "at least one of these fields".
pub fn add_constraint(schema: &mut Schema, constraint: Value) {
    if let Some(object) = object_of(schema) {
        push_constraint(object, constraint);
    }
}

/// A constraint "at least one of `fields` is present and not null".
pub fn at_least_one_of(fields: &[&str]) -> Value {
    let alternatives: Vec<Value> = fields
        .iter()
        .map(|f| json!({ "required": [f], "properties": { *f: { "not": { "type": "null" } } } }))
        .collect();
    json!({ "anyOf": alternatives })
}
