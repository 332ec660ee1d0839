//! A candidate's wire text: its value written compactly, with the one text change no
//! JSON value can carry ([`Edit`]) made where the candidate says.

use serde_json::Value;

use super::build::Edit;

/// `value` as compact JSON text, with `edit` (at a JSON Pointer) applied.
pub(super) fn write(value: &Value, edit: Option<&(String, Edit)>) -> String {
    let mut out = String::new();
    match edit {
        None => out.push_str(&value.to_string()),
        Some((pointer, edit)) => write_at(value, "", pointer, edit, &mut out),
    }
    out
}

fn write_at(value: &Value, here: &str, pointer: &str, edit: &Edit, out: &mut String) {
    if here == pointer {
        match (edit, value) {
            (Edit::Raw(text), _) => {
                out.push_str(text);
                return;
            }
            (Edit::DuplicateKey(key), Value::Object(map)) if map.contains_key(key) => {
                out.push('{');
                let mut first = true;
                for (k, v) in map {
                    let times = if k == key { 2 } else { 1 };
                    for _ in 0..times {
                        if !first {
                            out.push(',');
                        }
                        first = false;
                        out.push_str(&Value::from(k.as_str()).to_string());
                        out.push(':');
                        out.push_str(&v.to_string());
                    }
                }
                out.push('}');
                return;
            }
            _ => {}
        }
    }
    // Only the path to the edit is walked; everything else is written whole.
    let below = pointer
        .strip_prefix(here)
        .is_some_and(|rest| rest.starts_with('/'));
    if !below {
        out.push_str(&value.to_string());
        return;
    }
    match value {
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push(':');
                write_at(v, &crate::json_pointer::child(here, k), pointer, edit, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_at(v, &format!("{here}/{i}"), pointer, edit, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Whether every reader of JSON reads `value` back exactly: no integer past ±2^53,
/// which a reader of doubles (JavaScript's `JSON.parse`) rounds.
pub(super) fn exact_everywhere(value: &Value) -> bool {
    const SAFE: u64 = (1 << 53) - 1;
    match value {
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u <= SAFE,
            (None, Some(i)) => i.unsigned_abs() <= SAFE,
            _ => true,
        },
        Value::Array(items) => items.iter().all(exact_everywhere),
        Value::Object(map) => map.values().all(exact_everywhere),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn edits_land_where_their_pointer_says() {
        let value = json!({"a": {"n": 1, "s": "x"}, "b": [1, 2]});
        let raw = (String::from("/a/n"), Edit::Raw("1.0".into()));
        assert_eq!(
            write(&value, Some(&raw)),
            r#"{"a":{"n":1.0,"s":"x"},"b":[1,2]}"#
        );
        let twice = (String::from("/a"), Edit::DuplicateKey("s".into()));
        assert_eq!(
            write(&value, Some(&twice)),
            r#"{"a":{"n":1,"s":"x","s":"x"},"b":[1,2]}"#
        );
        let item = (String::from("/b/1"), Edit::Raw("1e400".into()));
        assert_eq!(
            write(&value, Some(&item)),
            r#"{"a":{"n":1,"s":"x"},"b":[1,1e400]}"#
        );
        assert_eq!(write(&value, None), value.to_string());
    }

    #[test]
    fn integers_past_2_53_are_not_exact_everywhere() {
        assert!(exact_everywhere(
            &json!({"a": [9007199254740991_u64, -9007199254740991_i64]})
        ));
        assert!(!exact_everywhere(&json!({"a": [9007199254740992_u64]})));
        assert!(!exact_everywhere(&json!(-9007199254740992_i64)));
    }
}
