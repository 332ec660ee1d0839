//! Numbers compared exactly, as JSON Schema compares them: by value, whatever their
//! representation (`1` equals `1.0`; a `u64` beyond 2^53 against an `f64`).

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// A number on the tape or in a schema.
#[derive(Clone, Copy)]
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

pub(super) fn num_of(number: &Number) -> Num {
    match (number.as_u64(), number.as_i64()) {
        (Some(n), _) => Num::Int(n.into()),
        (_, Some(n)) => Num::Int(n.into()),
        _ => Num::Float(number.as_f64().unwrap_or(f64::NAN)),
    }
}

/// `int` against `float`, exactly.
fn cmp_int_float(int: i128, float: f64) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    if float >= 1.7e38 {
        return Some(Ordering::Less);
    }
    if float <= -1.7e38 {
        return Some(Ordering::Greater);
    }
    let floor = float.floor();
    match int.cmp(&(floor as i128)) {
        Ordering::Equal if floor == float => Some(Ordering::Equal),
        Ordering::Equal => Some(Ordering::Less),
        other => Some(other),
    }
}

pub(super) fn cmp_num(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
        (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
        (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
        (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).map(Ordering::reverse),
    }
}

pub(super) fn equal_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => {
            cmp_num(num_of(a), num_of(b)) == Some(Ordering::Equal)
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal_values(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| equal_values(v, w)))
        }
        _ => a == b,
    }
}
