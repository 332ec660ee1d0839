//! A deterministic, large synthetic JSON Schema (draft 2020-12) for the codegen
//! benchmark: thousands of named types in the shapes real schemas use — records with
//! required/optional/nullable fields, string enums, internally tagged unions (`oneOf`
//! with a `const` tag), arrays, maps (`additionalProperties`), `$ref`s between types
//! (including cycles) and formats — written in plain JSON Schema that every generator
//! under comparison understands.
//!
//! Every type is reachable from the root `anyOf`, so a generator that emits only what it
//! can reach from the root still emits all of them.

use serde_json::{Map, Value, json};

use super::values::Gen;

const NOUNS: &[&str] = &[
    "Account",
    "Order",
    "Invoice",
    "Shipment",
    "Customer",
    "Product",
    "Review",
    "Session",
    "Device",
    "Sensor",
    "Policy",
    "Claim",
    "Ticket",
    "Agent",
    "Route",
    "Vehicle",
    "Ledger",
    "Payment",
    "Refund",
    "Coupon",
    "Warehouse",
    "Batch",
    "Job",
    "Task",
    "Report",
];
const PARTS: &[&str] = &[
    "Line", "Item", "Status", "Event", "Summary", "Detail", "Ref", "Window", "Limit", "Quote",
    "Change", "Note", "Entry", "Rule", "Metric", "Snapshot",
];
const FIELDS: &[&str] = &[
    "id",
    "name",
    "createdAt",
    "updatedAt",
    "status",
    "amount",
    "currency",
    "count",
    "notes",
    "owner",
    "labels",
    "kind",
    "priority",
    "startsAt",
    "endsAt",
    "score",
    "enabled",
    "version",
    "parentId",
    "items",
    "tags",
    "url",
    "email",
    "region",
    "reason",
    "retries",
    "weight",
    "display_name",
    "is_active",
    "max_size",
    "etag",
    "locale",
];
const VALUES: &[&str] = &[
    "pending",
    "active",
    "suspended",
    "closed",
    "draft",
    "archived",
    "open",
    "failed",
    "succeeded",
    "queued",
    "running",
    "cancelled",
    "low",
    "medium",
    "high",
    "critical",
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Record,
    Enum,
    Union,
    List,
}

/// The synthetic schema with `types` named types in `$defs`.
pub fn synthetic_schema(types: usize, seed: u64) -> Value {
    let mut g = Gen::new(seed);
    let roots = (types / 100).max(1);
    let names: Vec<String> = (0..types)
        .map(|i| format!("{}{}{i}", g.pick(NOUNS), g.pick(PARTS)))
        .collect();
    let kinds: Vec<Kind> = (0..types)
        .map(|i| {
            if i < roots {
                Kind::Union
            } else {
                [Kind::Record, Kind::Enum, Kind::Union, Kind::List][g.weighted(&[55, 20, 15, 10])]
            }
        })
        .collect();
    // Every type after the roots is referenced by an earlier composite type, so the
    // whole set is reachable from the root `anyOf`.
    let composite: Vec<usize> = (0..types).filter(|&i| kinds[i] != Kind::Enum).collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); types];
    for child in roots..types {
        let parents: Vec<usize> = composite.iter().copied().filter(|&p| p < child).collect();
        let parent = parents[g.below(parents.len())];
        children[parent].push(child);
    }

    let mut defs = Map::new();
    for i in 0..types {
        let def = match kinds[i] {
            Kind::Record => record(&mut g, &names, &children[i], i),
            Kind::Enum => string_enum(&mut g),
            Kind::Union => union(&mut g, &names, &children[i], i),
            Kind::List => list(&mut g, &names, &children[i]),
        };
        defs.insert(names[i].clone(), def);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/synthetic.schema.json",
        "title": "Synthetic",
        "description": format!("A synthetic schema with {types} named types."),
        "anyOf": (0..roots).map(|i| reference(&names[i])).collect::<Vec<_>>(),
        "$defs": defs,
    })
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

/// A field type: a primitive, or (when `target` is given) a use of that named type.
fn field_type(g: &mut Gen, target: Option<&str>) -> Value {
    match target {
        Some(name) => match g.weighted(&[60, 20, 10, 10]) {
            0 => reference(name),
            1 => json!({"type": "array", "items": reference(name)}),
            2 => json!({"type": "object", "additionalProperties": reference(name)}),
            _ => json!({"anyOf": [reference(name), {"type": "null"}]}),
        },
        None => match g.weighted(&[30, 15, 10, 10, 10, 10, 5, 5, 5]) {
            0 => json!({"type": "string"}),
            1 => {
                json!({"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4_294_967_295u64})
            }
            2 => json!({"type": "boolean"}),
            3 => json!({"type": "number"}),
            4 => json!({"type": "string", "format": "date-time"}),
            5 => json!({"type": ["string", "null"]}),
            6 => json!({"type": "array", "items": {"type": "string"}}),
            7 => {
                json!({"type": "object", "additionalProperties": {"type": "integer", "format": "int64"}})
            }
            _ => json!({"type": "string", "enum": [g.pick(VALUES), g.pick(VALUES).to_uppercase()]}),
        },
    }
}

/// Properties using every child plus a few primitives and, now and then, a reference
/// back to any type (cycles). No property is named in `reserved`.
fn fields(
    g: &mut Gen,
    names: &[String],
    children: &[usize],
    me: usize,
    extra: u32,
    reserved: &[&str],
) -> (Map<String, Value>, Vec<String>) {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut add = |g: &mut Gen, schema: Value, props: &mut Map<String, Value>| {
        let base = g.pick(FIELDS);
        let mut name = base.to_string();
        let mut suffix = props.len();
        while props.contains_key(&name) || reserved.contains(&name.as_str()) {
            name = format!("{base}{suffix}");
            suffix += 1;
        }
        let mut schema = schema;
        if g.chance(0.3) {
            schema["description"] = json!(format!(
                "The {} of this {}.",
                name,
                g.pick(NOUNS).to_lowercase()
            ));
        }
        if g.chance(0.7) && !schema.get("anyOf").is_some_and(Value::is_array) {
            required.push(name.clone());
        }
        props.insert(name, schema);
    };
    for &child in children {
        let schema = field_type(g, Some(&names[child]));
        add(g, schema, &mut properties);
    }
    for _ in 0..g.int(1, extra) {
        let schema = field_type(g, None);
        add(g, schema, &mut properties);
    }
    if me > 0 && g.chance(0.05) {
        let back = &names[g.below(me)];
        properties.insert(
            "related".into(),
            json!({"anyOf": [reference(back), {"type": "null"}]}),
        );
    }
    (properties, required)
}

fn record(g: &mut Gen, names: &[String], children: &[usize], me: usize) -> Value {
    let (properties, required) = fields(g, names, children, me, 6, &[]);
    let mut def = json!({
        "type": "object",
        "description": format!("A {} record.", names[me]),
        "properties": properties,
        "required": required,
    });
    if g.chance(0.3) {
        def["additionalProperties"] = json!(false);
    }
    def
}

fn string_enum(g: &mut Gen) -> Value {
    let count = g.int(2, 6) as usize;
    let mut values: Vec<String> = Vec::new();
    while values.len() < count {
        let value = g.pick(VALUES).to_string();
        let value = if values.contains(&value) {
            format!("{value}_{}", values.len())
        } else {
            value
        };
        values.push(value);
    }
    json!({"type": "string", "enum": values})
}

/// An internally tagged union: `oneOf` of objects whose `kind` is a distinct `const`.
/// The children are spread over the variants.
fn union(g: &mut Gen, names: &[String], children: &[usize], me: usize) -> Value {
    let variants = (g.int(2, 5) as usize).max(children.len().min(8));
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); variants];
    for (i, &child) in children.iter().enumerate() {
        groups[i % variants].push(child);
    }
    let one_of: Vec<Value> = groups
        .iter()
        .enumerate()
        .map(|(v, group)| {
            let (properties, mut required) = fields(g, names, group, me, 3, &["kind"]);
            let tag = format!("{}_{v}", g.pick(VALUES));
            let mut props = Map::new();
            props.insert("kind".into(), json!({"type": "string", "const": tag}));
            props.extend(properties);
            required.insert(0, "kind".into());
            json!({"type": "object", "properties": props, "required": required})
        })
        .collect();
    json!({
        "description": format!("One of the {} variants.", names[me]),
        "oneOf": one_of,
    })
}

/// A named array or map of a child type (or of strings when it has no children).
fn list(g: &mut Gen, names: &[String], children: &[usize]) -> Value {
    let item = match children.first() {
        Some(&child) => reference(&names[child]),
        None => json!({"type": "string"}),
    };
    let mut def = if g.chance(0.6) {
        json!({"type": "array", "items": item})
    } else {
        json!({"type": "object", "additionalProperties": item})
    };
    // Further children become a record wrapping the collection.
    if children.len() > 1 {
        let (mut properties, required) = fields(g, names, &children[1..], 0, 1, &["entries"]);
        properties.insert("entries".into(), def);
        def = json!({"type": "object", "properties": properties, "required": required});
    }
    def
}
