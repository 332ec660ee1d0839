//! proptest strategies that build JSON values from a JSON Schema document (the subset
//! symgen emits), and mutations of them.
//!
//! The values are mostly valid: every required key, a random half of the optional ones
//! (sometimes `null`, R3), integers at and inside their bounds, enum values and input
//! aliases, tagged union variants, unknown extra keys (R2). Cross-field rules (`not`,
//! `if`/`then`) are not steered, so some values break them; the tests compare verdicts,
//! not assume them.

use proptest::prelude::*;
use proptest::strategy::Union;
use serde_json::{Map, Value, json};

/// Builds strategies from one schema document.
pub struct Gen<'a> {
    pub document: &'a Value,
}

const MAX_DEPTH: u32 = 8;

impl<'a> Gen<'a> {
    fn resolve(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..16 {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                break;
            };
            if schema.get("properties").is_some() {
                break;
            }
            match reference
                .strip_prefix('#')
                .and_then(|p| self.document.pointer(p))
            {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    /// A strategy for instances of `schema`.
    pub fn value(&self, schema: &'a Value, depth: u32) -> BoxedStrategy<Value> {
        let schema = self.resolve(schema);
        if depth > MAX_DEPTH {
            return Just(Value::Null).boxed();
        }
        let object = match schema {
            Value::Bool(true) => return any_json(2).boxed(),
            Value::Bool(false) => return Just(Value::Null).boxed(),
            Value::Object(object) => object,
            _ => return any_json(2).boxed(),
        };
        if let Some(value) = object.get("const") {
            return Just(value.clone()).boxed();
        }
        if let Some(Value::Array(values)) = object.get("enum") {
            return proptest::sample::select(values.clone()).boxed();
        }
        if self.is_object_schema(schema) {
            return self.object(vec![schema], depth);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(alternatives)) = object.get(key) {
                let options: Vec<_> = alternatives
                    .iter()
                    .map(|a| self.value(a, depth + 1))
                    .collect();
                return Union::new(options).boxed();
            }
        }
        match object.get("type") {
            Some(Value::String(t)) => self.of_type(t, object, depth),
            Some(Value::Array(types)) => {
                let options: Vec<_> = types
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|t| self.of_type(t, object, depth))
                    .collect();
                Union::new(options).boxed()
            }
            _ => any_json(2).boxed(),
        }
    }

    fn is_object_schema(&self, schema: &Value) -> bool {
        schema.get("type").and_then(Value::as_str) == Some("object")
            || schema.get("properties").is_some()
            || schema.get("required").is_some()
    }

    fn of_type(&self, t: &str, schema: &'a Map<String, Value>, depth: u32) -> BoxedStrategy<Value> {
        match t {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "string" => string().prop_map(Value::String).boxed(),
            "number" => prop_oneof![
                (-1e6f64..1e6).prop_map(|f| json!(f)),
                Just(json!(0.5)),
                Just(json!(3))
            ]
            .boxed(),
            "integer" => integer(schema).boxed(),
            "array" => {
                let items = schema
                    .get("items")
                    .map_or_else(|| any_json(1).boxed(), |i| self.value(i, depth + 1));
                proptest::collection::vec(items, 0..3)
                    .prop_map(Value::Array)
                    .boxed()
            }
            "object" => self.object(vec![schema_value(schema)], depth),
            _ => any_json(1).boxed(),
        }
    }

    /// Adds `part` and everything it joins in (`$ref` beside properties, `allOf`) to
    /// `parts`, and its `oneOf`/`anyOf` alternatives to `choices`.
    fn flatten(&self, part: &'a Value, parts: &mut Vec<&'a Value>, choices: &mut Vec<&'a [Value]>) {
        let part = self.resolve(part);
        parts.push(part);
        if let Some(target) = part
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|p| self.document.pointer(p))
        {
            self.flatten(target, parts, choices);
        }
        if let Some(Value::Array(items)) = part.get("allOf") {
            for item in items {
                self.flatten(item, parts, choices);
            }
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = part.get(key) {
                choices.push(branches.as_slice());
            }
        }
    }

    /// Every way to satisfy the conjunction of `parts`: one alternative of each
    /// `oneOf`/`anyOf` chosen (at most 256 ways).
    fn expand(
        &self,
        parts: Vec<&'a Value>,
        mut choices: Vec<&'a [Value]>,
        out: &mut Vec<Vec<&'a Value>>,
    ) {
        if out.len() >= 256 {
            return;
        }
        let Some(branches) = choices.pop() else {
            out.push(parts);
            return;
        };
        for branch in branches {
            let mut parts = parts.clone();
            let mut choices = choices.clone();
            self.flatten(branch, &mut parts, &mut choices);
            self.expand(parts, choices, out);
        }
    }

    fn object(&self, roots: Vec<&'a Value>, depth: u32) -> BoxedStrategy<Value> {
        let mut parts = Vec::new();
        let mut choices = Vec::new();
        for root in roots {
            self.flatten(root, &mut parts, &mut choices);
        }
        let mut alternatives = Vec::new();
        self.expand(parts, choices, &mut alternatives);
        let options: Vec<BoxedStrategy<Value>> = alternatives
            .into_iter()
            .map(|parts| self.object_of(&parts, depth))
            .collect();
        Union::new(options).boxed()
    }

    fn object_of(&self, parts: &[&'a Value], depth: u32) -> BoxedStrategy<Value> {
        let mut properties: Vec<(String, &'a Value)> = Vec::new();
        let mut required: Vec<String> = Vec::new();
        let mut additional: Option<&'a Value> = None;
        for part in parts {
            if let Some(Value::Object(props)) = part.get("properties") {
                for (key, schema) in props {
                    let pinned = schema.get("const").is_some() || schema.get("enum").is_some();
                    match properties.iter_mut().find(|(k, _)| k == key) {
                        Some(entry) if pinned => entry.1 = schema,
                        Some(_) => {}
                        None => properties.push((key.clone(), schema)),
                    }
                }
            }
            if let Some(Value::Array(keys)) = part.get("required") {
                for key in keys.iter().filter_map(Value::as_str) {
                    if !required.iter().any(|r| r == key) {
                        required.push(key.to_owned());
                    }
                }
            }
            if let Some(schema @ Value::Object(_)) = part.get("additionalProperties") {
                additional = Some(schema);
            }
        }
        let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        for key in &required {
            let schema = properties.iter().find(|(k, _)| k == key).map(|(_, s)| *s);
            let value = match schema {
                Some(schema) => self.value(schema, depth + 1),
                None => any_json(1).boxed(),
            };
            let key = key.clone();
            fields.push(value.prop_map(move |v| Some((key.clone(), v))).boxed());
        }
        for (key, schema) in &properties {
            if required.contains(key) {
                continue;
            }
            let key = key.clone();
            let value = self.value(schema, depth + 1);
            fields.push(
                prop_oneof![
                    2 => Just(None),
                    2 => value.prop_map(move |v| Some((key.clone(), v))),
                ]
                .boxed(),
            );
        }
        if let Some(schema) = additional {
            let value = self.value(schema, depth + 1);
            fields.push(
                prop_oneof![
                    Just(None),
                    ("[a-z]{1,6}", value).prop_map(|(k, v)| Some((format!("m_{k}"), v)))
                ]
                .boxed(),
            );
        } else {
            // Unknown keys are ignored (R2).
            fields.push(prop_oneof![4 => Just(None), 1 => any_json(1).prop_map(|v| Some(("zz_extra".to_owned(), v)))].boxed());
        }
        fields
            .prop_map(|fields| Value::Object(fields.into_iter().flatten().collect()))
            .boxed()
    }
}

fn schema_value(map: &Map<String, Value>) -> &'static Value {
    Box::leak(Box::new(Value::Object(map.clone())))
}

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 _./:-]{0,12}",
        Just(String::new()),
        Just("é ü 😀 \"q\" \\\\ \n".to_owned()),
        Just("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d".to_owned()),
    ]
}

/// Integers at and inside the schema's bounds, and far outside when it has none.
fn integer(schema: &Map<String, Value>) -> impl Strategy<Value = Value> + use<> {
    let min = schema.get("minimum").and_then(Value::as_i64);
    let max = schema.get("maximum").and_then(Value::as_u64);
    let mut edges: Vec<Value> = vec![json!(0), json!(1), json!(42)];
    match min {
        Some(min) => edges.push(json!(min)),
        None => edges.extend([json!(-1), json!(i64::MIN), json!(i32::MIN)]),
    }
    match max {
        Some(max) => edges.push(json!(max)),
        None => edges.extend([json!(i64::MAX), json!(u64::MAX), json!(u32::MAX)]),
    }
    let low = min.unwrap_or(-1_000_000);
    let high = max.map_or(1_000_000, |m| m.min(i64::MAX as u64) as i64);
    let edges: Vec<Value> = edges
        .into_iter()
        .filter(|v| {
            let above = v.as_i64().is_some_and(|i| i >= low) || v.as_u64().is_some();
            let below = v.as_u64().is_none_or(|u| max.is_none_or(|m| u <= m));
            (min.is_none() || above) && below
        })
        .collect();
    prop_oneof![
        proptest::sample::select(edges),
        (low..=high).prop_map(|i| json!(i)),
    ]
}

/// Any JSON value, nested at most `depth` levels.
pub fn any_json(depth: u32) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|i| json!(i)),
        (-1e3f64..1e3).prop_map(|f| json!(f)),
        "[a-z ]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(depth, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,4}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A change to a value at one location, chosen by a selector.
#[derive(Debug, Clone, Copy)]
pub enum Mutation {
    /// Removes an object member.
    DropKey,
    /// Replaces a value with one of another JSON type.
    ChangeType,
    /// Pushes a number out of its likely range (negative, beyond u32, beyond u64).
    OutOfRange,
    /// Replaces a string with one no enum has.
    ReplaceString,
    /// Adds an unknown key to an object.
    AddKey,
    /// Replaces a value with `null`.
    Null,
    /// Sends an object as the array of its values.
    ObjectAsArray,
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    proptest::sample::select(vec![
        Mutation::DropKey,
        Mutation::ChangeType,
        Mutation::OutOfRange,
        Mutation::ReplaceString,
        Mutation::AddKey,
        Mutation::Null,
        Mutation::ObjectAsArray,
    ])
}

fn pointers(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(value, String::new())];
    while let Some((value, pointer)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    stack.push((
                        v,
                        format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                    ));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    stack.push((v, format!("{pointer}/{i}")));
                }
            }
            _ => {}
        }
        out.push(pointer);
    }
    out.sort();
    out
}

/// Applies `mutation` at the location `selector` picks.
pub fn mutate(mut value: Value, mutation: Mutation, selector: usize) -> Value {
    let all = pointers(&value);
    let pointer = &all[selector % all.len()];
    let target = value.pointer_mut(pointer).expect("pointer from the value");
    match mutation {
        Mutation::DropKey => {
            if let Some((parent, key)) = pointer.rsplit_once('/') {
                let key = key.replace("~1", "/").replace("~0", "~");
                if let Some(Value::Object(map)) = value.pointer_mut(parent) {
                    map.remove(&key);
                }
            }
        }
        Mutation::ChangeType => {
            let options = [
                json!(1.5),
                json!("s"),
                json!(true),
                json!([]),
                json!({}),
                json!(7),
            ];
            let current = std::mem::discriminant(&*target);
            let replacement = options
                .iter()
                .cycle()
                .skip(selector % options.len())
                .find(|o| std::mem::discriminant(*o) != current)
                .cloned()
                .unwrap_or(Value::Null);
            *target = replacement;
        }
        Mutation::OutOfRange => {
            let options = [
                json!(-1),
                json!(0),
                json!(4_294_967_296u64),
                json!(65_536),
                json!(18_446_744_073_709_551_615u64),
                json!(-9_223_372_036_854_775_808i64),
            ];
            *target = options[selector % options.len()].clone();
        }
        Mutation::ReplaceString => *target = json!("zz-not-a-known-value"),
        Mutation::AddKey => {
            if let Value::Object(map) = target {
                map.insert("zz_added".into(), json!({"x": [1, null]}));
            }
        }
        Mutation::Null => *target = Value::Null,
        Mutation::ObjectAsArray => {
            if let Value::Object(map) = target {
                *target = Value::Array(map.values().cloned().collect());
            }
        }
    }
    value
}
