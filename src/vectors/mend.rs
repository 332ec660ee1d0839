//! Mending a candidate the schema rejects only by keywords the generated types do not
//! enforce (a `pattern`, a `minLength`, a `minimum` on a number): the value is changed
//! where such a keyword fails until the schema accepts it, so that one vector still
//! says one thing. A failure the model should have seen (an enforced keyword) is never
//! mended: it is what the vector is there to show.

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::{Number, Value};

use crate::json_pointer;
use crate::validate::{Asks, Failure};

/// A key of the object at `object` (a JSON Pointer) renamed from `from` to `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Renamed {
    pub object: String,
    pub from: String,
    pub to: String,
}

impl Renamed {
    /// `pointer` as it reads after the rename (unchanged when it is not at or below the
    /// renamed key).
    pub fn pointer(&self, pointer: &str) -> String {
        let old = json_pointer::child(&self.object, &self.from);
        match pointer.strip_prefix(&old) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                format!("{}{rest}", json_pointer::child(&self.object, &self.to))
            }
            _ => pointer.to_owned(),
        }
    }
}

/// What a mending round may consult about the schema.
pub(super) struct Rules<'a> {
    /// Whether the keyword at a location, reached by a way (a failure's `via`), is one
    /// the model does not enforce there.
    pub covered: &'a dyn Fn(&str, &str) -> bool,
    /// Whether the model warns about the keyword at a location itself (a
    /// `patternProperties` whose choice of pattern per key it does not enforce, though it
    /// holds the other keys to the patterns' type).
    pub warned: &'a dyn Fn(&str) -> bool,
    /// The `patternProperties` patterns beside the keyword at a location (an
    /// `additionalProperties: false` that refuses a key).
    pub patterns_beside: &'a dyn Fn(&str) -> Vec<String>,
    /// The candidate's fault is a value (the key that holds it may be renamed).
    pub value_fault: bool,
}

/// Mends `value` where `failures` fail at a keyword `rules.covered` accepts (never at or
/// below `keep`, the place of the fault a candidate carries). A key is renamed where
/// `propertyNames` or `additionalProperties: false` beside `patternProperties` (rules
/// the generated types do not enforce) refuses it; each rename is added to `renamed`.
/// Whether anything changed.
pub(super) fn mend(
    value: &mut Value,
    failures: &[Failure],
    rules: &Rules<'_>,
    keep: Option<&str>,
    renamed: &mut Vec<Renamed>,
) -> bool {
    let mut changed = false;
    for failure in failures {
        match failure {
            Failure::Keyword {
                location,
                instance,
                asks: Some(Asks::NoKeys(keys)),
                ..
            } => {
                let parent = location.rsplit_once('/').map_or("", |(parent, _)| parent);
                if !(rules.warned)(&format!("{parent}/patternProperties")) {
                    continue;
                }
                let Some(new) = (rules.patterns_beside)(location)
                    .iter()
                    .find_map(|pattern| matching(pattern))
                else {
                    continue;
                };
                for key in keys {
                    changed |= rename(value, instance, key, &new, rules, keep, renamed);
                }
            }
            Failure::Keyword {
                location,
                instance,
                via,
                asks: Some(Asks::KeyName(key, asks)),
            } if (rules.covered)(location, via) => {
                let mut name = Value::String(key.clone());
                if obey(&mut name, asks)
                    && let Value::String(new) = name
                {
                    changed |= rename(value, instance, key, &new, rules, keep, renamed);
                }
            }
            Failure::Keyword {
                location,
                instance,
                via,
                asks: Some(asks),
            } if (rules.covered)(location, via) && !under(instance, keep) => {
                if let Some(slot) = value.pointer_mut(instance) {
                    changed |= obey(slot, asks);
                }
            }
            Failure::Alternatives { alternatives, .. } => {
                // The first alternative whose failures can all be mended.
                if let Some(errors) = alternatives.iter().find(|errors| mendable(errors, rules)) {
                    changed |= mend(value, errors, rules, keep, renamed);
                }
            }
            _ => {}
        }
    }
    changed
}

/// Whether every failure of an alternative can be mended: a keyword `rules.covered`
/// accepts that says what it asks, or alternatives of which one can be (an `anyOf` of
/// one `pattern` inside a `oneOf`'s alternative).
fn mendable(errors: &[Failure], rules: &Rules<'_>) -> bool {
    errors.iter().all(|failure| match failure {
        Failure::Keyword {
            location,
            via,
            asks: Some(_),
            ..
        } => (rules.covered)(location, via),
        Failure::Keyword { asks: None, .. } => false,
        Failure::Alternatives { alternatives, .. } => {
            alternatives.iter().any(|errors| mendable(errors, rules))
        }
    })
}

/// Renames `from` to `to` in the object at `object` of `value`, unless the key is the
/// candidate's fault itself (`keep`, where the fault is not a value) or `to` is taken.
/// Whether it renamed.
fn rename(
    value: &mut Value,
    object: &str,
    from: &str,
    to: &str,
    rules: &Rules<'_>,
    keep: Option<&str>,
    renamed: &mut Vec<Renamed>,
) -> bool {
    let change = Renamed {
        object: object.to_owned(),
        from: from.to_owned(),
        to: to.to_owned(),
    };
    let key_pointer = json_pointer::child(object, from);
    if from == to || (keep == Some(key_pointer.as_str()) && !rules.value_fault) {
        return false;
    }
    let Some(Value::Object(map)) = value.pointer_mut(object) else {
        return false;
    };
    if map.contains_key(to) {
        return false;
    }
    // In place, so that the key keeps its position.
    let entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    let mut found = false;
    for (key, item) in entries {
        if key == from {
            found = true;
            map.insert(to.to_owned(), item);
        } else {
            map.insert(key, item);
        }
    }
    if found {
        renamed.push(change);
    }
    found
}

fn under(pointer: &str, keep: Option<&str>) -> bool {
    keep.is_some_and(|keep| within(pointer, keep))
}

/// Whether the JSON Pointer `pointer` is `base` or below it.
pub(super) fn within(pointer: &str, base: &str) -> bool {
    pointer
        .strip_prefix(base)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
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

/// A short string `pattern` matches, when its syntax is one the `regex` crate reads:
/// not empty where the pattern takes more (a `minLength: 1` often stands beside a
/// pattern of optional parts, prometheus' durations `^([0-9]+y)?…([0-9]+ms)?$`).
fn matching(pattern: &str) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = String::new();
    if !shortest(&hir, &mut out, false, 0) {
        return None;
    }
    if out.is_empty() {
        let mut grown = String::new();
        if shortest(&hir, &mut grown, true, 0) {
            return Some(grown);
        }
    }
    Some(out)
}

/// Appends the shortest text `hir` matches (the first alternative, the fewest
/// repetitions, a letter or digit from a class when it has one); with `grow`, each
/// repetition that may be taken is taken at least once.
fn shortest(hir: &Hir, out: &mut String, grow: bool, depth: usize) -> bool {
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
            let mut times = repetition.min.min(256);
            if grow && times == 0 && repetition.max != Some(0) {
                times = 1;
            }
            (0..times).all(|_| shortest(&repetition.sub, out, grow, depth + 1))
        }
        HirKind::Capture(capture) => shortest(&capture.sub, out, grow, depth + 1),
        HirKind::Concat(items) => items
            .iter()
            .all(|item| shortest(item, out, grow, depth + 1)),
        HirKind::Alternation(items) => items
            .first()
            .is_some_and(|item| shortest(item, out, grow, depth + 1)),
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
            "^([0-9]+y)?([0-9]+w)?([0-9]+ms)?$",
            "^[a-z]*$",
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
                // Nothing but optional parts: each taken once, not the empty string.
                "^([0-9]+y)?([0-9]+w)?([0-9]+ms)?$" => assert_eq!(text, "0y0w0ms"),
                "^[a-z]*$" => assert_eq!(text, "a"),
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
                via: String::new(),
                asks: Some(Asks::MinLength(3)),
            },
            Failure::Keyword {
                location: "/properties/b/minLength".into(),
                instance: "/b".into(),
                via: String::new(),
                asks: Some(Asks::MinLength(3)),
            },
            Failure::Keyword {
                location: "/properties/n/exclusiveMinimum".into(),
                instance: "/n".into(),
                via: String::new(),
                asks: Some(Asks::Minimum(Value::from(5), true)),
            },
        ];
        let warned = |l: &str| l != "/properties/b/minLength";
        let rules = Rules {
            covered: &|l: &str, _: &str| warned(l),
            warned: &warned,
            patterns_beside: &|_: &str| Vec::new(),
            value_fault: false,
        };
        let mut renamed = Vec::new();
        assert!(mend(
            &mut value,
            &failures,
            &rules,
            Some("/n"),
            &mut renamed
        ));
        assert_eq!(value, serde_json::json!({"a": "xaa", "b": "y", "n": 3}));
        assert!(renamed.is_empty());
    }

    #[test]
    fn an_alternative_failing_only_inside_its_own_alternatives_is_mended() {
        // `{"oneOf": [{"$ref": "#/$defs/P"}, {"type": "array"}]}` with
        // `P = {"type": "string", "anyOf": [{"pattern": "\\.blf$"}]}`: "text" fails
        // the `oneOf`, its first alternative only by the `anyOf`'s unenforced pattern.
        let failures = |inner: Vec<Failure>| {
            vec![Failure::Alternatives {
                location: "/properties/p/oneOf".into(),
                instance: "/p".into(),
                via: String::new(),
                alternatives: vec![
                    vec![Failure::Alternatives {
                        location: "/$defs/P/anyOf".into(),
                        instance: "/p".into(),
                        via: String::new(),
                        alternatives: vec![inner],
                    }],
                    vec![Failure::Keyword {
                        location: "/properties/p/oneOf/1/type".into(),
                        instance: "/p".into(),
                        via: String::new(),
                        asks: None,
                    }],
                ],
            }]
        };
        let pattern = Failure::Keyword {
            location: "/$defs/P/anyOf/0/pattern".into(),
            instance: "/p".into(),
            via: String::new(),
            asks: Some(Asks::Pattern("\\.blf$".into())),
        };
        let rules = Rules {
            covered: &|l: &str, _: &str| l.starts_with("/$defs/P/anyOf"),
            warned: &|_: &str| false,
            patterns_beside: &|_: &str| Vec::new(),
            value_fault: false,
        };
        let mut value = serde_json::json!({"p": "text"});
        assert!(mend(
            &mut value,
            &failures(vec![pattern]),
            &rules,
            None,
            &mut Vec::new()
        ));
        assert_eq!(value, serde_json::json!({"p": ".blf"}));
        // An inner failure the model enforces is never mended.
        let enforced = Failure::Keyword {
            location: "/$defs/Q/minLength".into(),
            instance: "/p".into(),
            via: String::new(),
            asks: Some(Asks::MinLength(9)),
        };
        let mut value = serde_json::json!({"p": "text"});
        assert!(!mend(
            &mut value,
            &failures(vec![enforced]),
            &rules,
            None,
            &mut Vec::new()
        ));
        assert_eq!(value, serde_json::json!({"p": "text"}));
    }

    #[test]
    fn keys_a_map_refuses_are_renamed_in_place_to_keys_it_takes() {
        // `{"m": {"patternProperties": {"^[a-z]+_id$": …}, "additionalProperties": false}}`
        // refuses `key`; `propertyNames: {"maxLength": 3}` refuses `long`.
        let mut value = serde_json::json!({"m": {"first": 1, "key": {"x": 1.5}}, "p": {"long": 2}});
        let failures = vec![
            Failure::Keyword {
                location: "/properties/m/additionalProperties".into(),
                instance: "/m".into(),
                via: String::new(),
                asks: Some(Asks::NoKeys(vec!["key".into()])),
            },
            Failure::Keyword {
                location: "/properties/p/propertyNames/maxLength".into(),
                instance: "/p".into(),
                via: String::new(),
                asks: Some(Asks::KeyName("long".into(), Box::new(Asks::MaxLength(3)))),
            },
        ];
        let warned = |l: &str| l.ends_with("/patternProperties") || l.contains("/propertyNames");
        let patterns = |l: &str| {
            assert_eq!(l, "/properties/m/additionalProperties");
            vec!["^[a-z]+_id$".to_owned()]
        };
        let rules = Rules {
            covered: &|l: &str, _: &str| warned(l),
            warned: &warned,
            patterns_beside: &patterns,
            value_fault: false,
        };
        let mut renamed = Vec::new();
        assert!(mend(
            &mut value,
            &failures,
            &rules,
            Some("/m/key/x"),
            &mut renamed
        ));
        assert_eq!(
            value.to_string(),
            r#"{"m":{"first":1,"a_id":{"x":1.5}},"p":{"lon":2}}"#
        );
        assert_eq!(renamed[0].pointer("/m/key/x"), "/m/a_id/x");
        assert_eq!(renamed[0].pointer("/m/keys"), "/m/keys");
        assert_eq!(renamed[1].pointer("/p/long"), "/p/lon");

        // Never the key that is the candidate's fault, never onto a key already there.
        let mut value = serde_json::json!({"m": {"a_id": 1, "key": 2}});
        let mut renamed = Vec::new();
        assert!(!mend(
            &mut value,
            &failures[..1],
            &rules,
            None,
            &mut renamed
        ));
        let mut value = serde_json::json!({"m": {"key": 2}});
        assert!(!mend(
            &mut value,
            &failures[..1],
            &rules,
            Some("/m/key"),
            &mut renamed
        ));
        assert!(renamed.is_empty());
        // Unless the fault is the value the key holds.
        let rules = Rules {
            value_fault: true,
            ..rules
        };
        let fault = Some("/m/key");
        assert!(mend(
            &mut value,
            &failures[..1],
            &rules,
            fault,
            &mut renamed
        ));
        assert_eq!(value, serde_json::json!({"m": {"a_id": 2}}));
    }
}
