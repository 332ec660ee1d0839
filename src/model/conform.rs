//! Whether a JSON value is an instance of a model type: used to check a schema's
//! `default`s before any generator writes them into code (a default that does not fit
//! its field's type is dropped with a warning rather than compiled into a decoder that
//! fails). Conservative: anything it cannot decide is "no".

use serde_json::Value;

use super::{
    Additional, Field, Literal, Model, Payload, Record, Tagging, TypeExpr, TypeKind, Union,
};

const MAX_DEPTH: usize = 64;

/// Whether `value` is an instance of `expr` in `model`.
pub fn conforms(model: &Model, expr: &TypeExpr, value: &Value) -> bool {
    expr_conforms(model, expr, value, 0)
}

fn literal_matches(literal: &Literal, value: &Value) -> bool {
    match (literal, value) {
        (Literal::String(a), Value::String(b)) => a == b,
        (Literal::Bool(a), Value::Bool(b)) => a == b,
        (Literal::Null, Value::Null) => true,
        (Literal::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

fn expr_conforms(model: &Model, expr: &TypeExpr, value: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let next = depth + 1;
    match expr {
        TypeExpr::Any => true,
        TypeExpr::Null => value.is_null(),
        TypeExpr::Bool => value.is_boolean(),
        TypeExpr::Integer(int) => {
            let n = value
                .as_i64()
                .map(i128::from)
                .or_else(|| value.as_u64().map(i128::from));
            match n {
                Some(n) => {
                    int.minimum.is_none_or(|min| n >= min) && int.maximum.is_none_or(|max| n <= max)
                }
                None => false,
            }
        }
        TypeExpr::Number(_) => value.is_number(),
        TypeExpr::String(_) => value.is_string(),
        TypeExpr::Literal(literal) => literal_matches(literal, value),
        TypeExpr::Array(item) => value
            .as_array()
            .is_some_and(|items| items.iter().all(|v| expr_conforms(model, item, v, next))),
        TypeExpr::Tuple(types) => value.as_array().is_some_and(|items| {
            items.len() == types.len()
                && items
                    .iter()
                    .zip(types)
                    .all(|(v, t)| expr_conforms(model, t, v, next))
        }),
        TypeExpr::Map(item) => value
            .as_object()
            .is_some_and(|map| map.values().all(|v| expr_conforms(model, item, v, next))),
        TypeExpr::Nullable(inner) => value.is_null() || expr_conforms(model, inner, value, next),
        TypeExpr::Ref(name) => {
            let Some(named) = model.get(name) else {
                return false;
            };
            match &named.kind {
                TypeKind::Alias(inner) => expr_conforms(model, inner, value, next),
                TypeKind::Enum(e) => {
                    (e.open && value.is_string())
                        || e.values.iter().any(|v| {
                            literal_matches(&v.value, value)
                                || v.aliases.iter().any(|a| literal_matches(a, value))
                        })
                }
                TypeKind::Record(record) => record_conforms(model, record, value, &[], next),
                TypeKind::Union(union) => union_conforms(model, union, value, next),
            }
        }
    }
}

fn field_conforms(model: &Model, field: &Field, value: &Value, depth: usize) -> bool {
    // `null` in an optional field means absent (R3) in symgen's own schemas, as to serde;
    // in another schema it is a value the field's type must admit.
    let absent = value.is_null() && !field.required && model.protocol.is_some();
    absent || expr_conforms(model, &field.ty, value, depth)
}

/// Whether `value` is an object with `fields` (and, beside them, `extra` known keys).
fn fields_conform(
    model: &Model,
    fields: &[Field],
    additional: &Additional,
    value: &Value,
    extra: &[&str],
    depth: usize,
) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    for field in fields {
        let present: Vec<&Value> = std::iter::once(&field.name)
            .chain(&field.aliases)
            .filter_map(|name| object.get(name))
            .collect();
        match present.as_slice() {
            [] if field.required => return false,
            [] => {}
            [one] => {
                if !field_conforms(model, field, one, depth) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    object.iter().all(|(key, item)| {
        let known = extra.contains(&key.as_str())
            || fields
                .iter()
                .any(|f| f.name == *key || f.aliases.iter().any(|a| a == key));
        known
            || match additional {
                Additional::Allowed => true,
                Additional::Forbidden => false,
                Additional::Typed(ty) => expr_conforms(model, ty, item, depth),
            }
    })
}

fn record_conforms(
    model: &Model,
    record: &Record,
    value: &Value,
    extra: &[&str],
    depth: usize,
) -> bool {
    // Cross-field rules are not checked: anything with one is "no".
    record.constraints.is_empty()
        && fields_conform(
            model,
            &record.fields,
            &record.additional,
            value,
            extra,
            depth,
        )
}

fn union_conforms(model: &Model, union: &Union, value: &Value, depth: usize) -> bool {
    match &union.tagging {
        Tagging::Untagged => union.variants.iter().any(|v| match &v.payload {
            Payload::Unit => value.is_null(),
            Payload::Type(expr) => expr_conforms(model, expr, value, depth),
            Payload::Fields(fields) => {
                fields_conform(model, fields, &Additional::Allowed, value, &[], depth)
            }
            Payload::Content(_) => false,
        }),
        Tagging::Internal { tag } => {
            let Some(tag_value) = value.get(tag) else {
                return false;
            };
            let Some(variant) = union.variants.iter().find(|v| {
                v.tag
                    .iter()
                    .chain(&v.tag_aliases)
                    .any(|t| literal_matches(t, tag_value))
            }) else {
                return false;
            };
            let shared_ok = fields_conform(
                model,
                &union.fields,
                &Additional::Allowed,
                value,
                &[],
                depth,
            );
            shared_ok
                && match &variant.payload {
                    Payload::Unit => true,
                    Payload::Fields(fields) => {
                        fields_conform(model, fields, &Additional::Allowed, value, &[], depth)
                    }
                    Payload::Type(TypeExpr::Ref(name)) => {
                        match model.resolve(name).map(|t| &t.kind) {
                            Some(TypeKind::Record(record)) => {
                                record_conforms(model, record, value, &[tag.as_str()], depth)
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                }
        }
        // Adjacent and external tagging: not needed for defaults; "no".
        Tagging::Adjacent { .. } | Tagging::External => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{ProtocolInfo, from_value};

    #[test]
    fn defaults_are_checked_against_their_types() {
        let model = from_value(
            "t.json",
            &json!({
                "$defs": {
                    "Level": {"enum": ["low", "high"]},
                    "Point": {
                        "type": "object",
                        "required": ["x"],
                        "properties": {"x": {"type": "integer", "minimum": 0}, "tag": {"type": "string"}},
                        "additionalProperties": false
                    }
                }
            }),
        )
        .unwrap();
        let level = TypeExpr::Ref("Level".into());
        let point = TypeExpr::Ref("Point".into());
        assert!(conforms(&model, &level, &json!("high")));
        assert!(!conforms(&model, &level, &json!("mid")));
        assert!(conforms(&model, &point, &json!({"x": 1})));
        // `null` is a value of its own in a schema symgen did not write (the field's
        // type does not admit it); in symgen's own schemas it means absent (R3).
        assert!(!conforms(&model, &point, &json!({"x": 1, "tag": null})));
        let own = Model {
            protocol: Some(ProtocolInfo {
                id: "t".into(),
                code: None,
                reply_data: None,
                parties: Vec::new(),
            }),
            ..model.clone()
        };
        assert!(conforms(&own, &point, &json!({"x": 1, "tag": null})));
        assert!(!conforms(&model, &point, &json!({"x": -1})));
        assert!(!conforms(&model, &point, &json!({"x": 1, "y": 2})));
        assert!(!conforms(&model, &point, &json!({})));
        let list = TypeExpr::Array(Box::new(level));
        assert!(conforms(&model, &list, &json!(["low", "high"])));
        assert!(!conforms(&model, &list, &json!(["low", 3])));
    }
}
