//! Mending a candidate the schema rejects only by keywords the generated types do not
//! enforce (a `pattern`, a `minLength`, a `minimum` on a number): the value is changed
//! where such a keyword fails until the schema accepts it, so that one vector still
//! says one thing. A failure the model should have seen (an enforced keyword) is never
//! mended: it is what the vector is there to show.

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::{Number, Value};

use crate::validate::{Asks, Failure};

/// Mends `value` where `failures` fail at a keyword `covered` accepts (never at or
/// below `keep`, the place of the fault a candidate carries). Whether anything changed.
pub(super) fn mend(
    value: &mut Value,
    failures: &[Failure],
    covered: &dyn Fn(&str) -> bool,
    keep: Option<&str>,
) -> bool {
    let mut changed = false;
    for failure in failures {
        match failure {
            Failure::Keyword {
                location,
                instance,
                asks: Some(asks),
            } if covered(location) && !under(instance, keep) => {
                if let Some(slot) = value.pointer_mut(instance) {
                    changed |= obey(slot, asks);
                }
            }
            Failure::Alternatives { alternatives, .. } => {
                // The first alternative whose failures can all be mended.
                let mendable = |errors: &Vec<Failure>| {
                    errors.iter().all(|f| {
                        matches!(f, Failure::Keyword { location, asks: Some(_), .. } if covered(location))
                    })
                };
                if let Some(errors) = alternatives.iter().find(|errors| mendable(errors)) {
                    changed |= mend(value, errors, covered, keep);
                }
            }
            _ => {}
        }
    }
    changed
}

fn under(pointer: &str, keep: Option<&str>) -> bool {
    keep.is_some_and(|keep| {
        pointer == keep
            || pointer
                .strip_prefix(keep)
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

/// Changes `slot` to obey what the keyword asks; whether it changed.
fn obey(slot: &mut Value, asks: &Asks) -> bool {
    let new = match (asks, &*slot) {
        (Asks::Pattern(pattern), Value::String(_)) => matching(pattern).map(Value::String),
        (Asks::MinLength(n), Value::String(s)) => {
            let missing = (*n as usize).saturating_sub(s.chars().count());
            Some(Value::String(format!("{s}{}", "a".repeat(missing))))
        }
        (Asks::MaxLength(n), Value::String(s)) => {
            Some(Value::String(s.chars().take(*n as usize).collect()))
        }
        (Asks::MinItems(n), Value::Array(items)) if !items.is_empty() => {
            let mut items = items.clone();
            while (items.len() as u64) < *n {
                items.push(items[items.len() - 1].clone());
            }
            Some(Value::Array(items))
        }
        (Asks::MaxItems(n), Value::Array(items)) => Some(Value::Array(
            items.iter().take(*n as usize).cloned().collect(),
        )),
        (Asks::Minimum(limit, exclusive), Value::Number(n)) => bound(n, limit, *exclusive, 1.0),
        (Asks::Maximum(limit, exclusive), Value::Number(n)) => bound(n, limit, *exclusive, -1.0),
        (Asks::MultipleOf(m), Value::Number(n)) if *m > 0.0 => {
            let x = n.as_f64().unwrap_or(0.0);
            let k = (x / m).round().max(1.0);
            Some(number(k * m))
        }
        (Asks::Format(format), Value::String(_)) => {
            Some(Value::String(super::build::typical_string(Some(format))))
        }
        (Asks::OneOf(options), _) => options.first().cloned(),
        (Asks::UniqueItems, Value::Array(items)) => Some(Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Value::String(format!("{s}{i}")),
                    Value::Number(n) => number(n.as_f64().unwrap_or(0.0) + i as f64),
                    other => other.clone(),
                })
                .collect(),
        )),
        _ => None,
    };
    match new {
        Some(new) if new != *slot => {
            *slot = new;
            true
        }
        _ => false,
    }
}

/// The limit, or one step past it (`direction` +1 above a minimum, −1 below a maximum)
/// when it is exclusive: an integer step for integers, half a unit otherwise.
fn bound(current: &Number, limit: &Value, exclusive: bool, direction: f64) -> Option<Value> {
    let limit = limit.as_f64()?;
    let integral = current.is_i64() || current.is_u64();
    let step = match (exclusive, integral && limit.fract() == 0.0) {
        (false, _) => 0.0,
        (true, true) => 1.0,
        (true, false) => 0.5,
    };
    let value = limit + direction * step;
    Some(if integral && value.fract() == 0.0 {
        number(value)
    } else {
        Number::from_f64(value).map_or(Value::Null, Value::Number)
    })
}

/// `x` as an integer when it is one (within ±2^53), else a double.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_991.0 {
        Value::from(x as i64)
    } else {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// A short string `pattern` matches, when its syntax is one the `regex` crate reads.
fn matching(pattern: &str) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = String::new();
    shortest(&hir, &mut out, 0).then_some(out)
}

/// Appends the shortest text `hir` matches (the first alternative, the fewest
/// repetitions, a letter or digit from a class when it has one).
fn shortest(hir: &Hir, out: &mut String, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => true,
        HirKind::Literal(literal) => match std::str::from_utf8(&literal.0) {
            Ok(text) => {
                out.push_str(text);
                true
            }
            Err(_) => false,
        },
        HirKind::Class(Class::Unicode(class)) => {
            let ranges = class.ranges();
            let contains = |c: char| ranges.iter().any(|r| r.start() <= c && c <= r.end());
            let pick = ['a', '0', 'A', '_', '-', '.']
                .into_iter()
                .find(|c| contains(*c))
                .or_else(|| ranges.first().map(|r| r.start()));
            match pick {
                Some(c) => {
                    out.push(c);
                    true
                }
                None => false,
            }
        }
        HirKind::Class(Class::Bytes(class)) => match class.ranges().first() {
            Some(range) if range.start().is_ascii() => {
                out.push(range.start() as char);
                true
            }
            _ => false,
        },
        HirKind::Repetition(repetition) => {
            (0..repetition.min.min(256)).all(|_| shortest(&repetition.sub, out, depth + 1))
        }
        HirKind::Capture(capture) => shortest(&capture.sub, out, depth + 1),
        HirKind::Concat(items) => items.iter().all(|item| shortest(item, out, depth + 1)),
        HirKind::Alternation(items) => items
            .first()
            .is_some_and(|item| shortest(item, out, depth + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_give_a_string_they_match() {
        for pattern in [
            "^[0-9a-f]{40}$",
            "^v[0-9]+\\.[0-9]+$",
            "^(https?|ftp)://[^ ]+$",
            "^[A-Z][a-z]*(-[A-Z][a-z]*){2}$",
            "x+y?",
        ] {
            let text = matching(pattern).expect("a string");
            let regex = regex_syntax::parse(pattern).unwrap();
            assert!(!text.is_empty() || regex.properties().minimum_len() == Some(0));
            // The regex crate is not a dependency: check the shape by hand.
            match pattern {
                "^[0-9a-f]{40}$" => assert_eq!(text, "a".repeat(40)),
                "^v[0-9]+\\.[0-9]+$" => assert_eq!(text, "v0.0"),
                "^(https?|ftp)://[^ ]+$" => assert_eq!(text, "http://a"),
                "^[A-Z][a-z]*(-[A-Z][a-z]*){2}$" => assert_eq!(text, "A-A-A"),
                _ => assert_eq!(text, "x"),
            }
        }
    }

    #[test]
    fn only_covered_keywords_away_from_the_fault_are_mended() {
        let mut value = serde_json::json!({"a": "x", "b": "y", "n": 3});
        let failures = vec![
            Failure::Keyword {
                location: "/properties/a/minLength".into(),
                instance: "/a".into(),
                asks: Some(Asks::MinLength(3)),
            },
            Failure::Keyword {
                location: "/properties/b/minLength".into(),
                instance: "/b".into(),
                asks: Some(Asks::MinLength(3)),
            },
            Failure::Keyword {
                location: "/properties/n/exclusiveMinimum".into(),
                instance: "/n".into(),
                asks: Some(Asks::Minimum(Value::from(5), true)),
            },
        ];
        let covered = |l: &str| l != "/properties/b/minLength";
        assert!(mend(&mut value, &failures, &covered, Some("/n")));
        assert_eq!(value, serde_json::json!({"a": "xaa", "b": "y", "n": 3}));
    }
}
