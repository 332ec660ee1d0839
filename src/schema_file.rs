//! A schema file's name and text: JSON, or YAML (`.yaml`, `.yml`) read into the same
//! JSON value, so every part of symgen reads both alike.
//!
//! A YAML file is read as the JSON document it stands for, or refused at its line and
//! column: a value JSON has no spelling for (`.inf`, `.nan`, a tag such as `!include`,
//! a mapping or sequence as a key) is refused rather than approximated, a key given
//! twice is refused (as in a JSON schema file), and aliases may not expand the document
//! past [`node_budget`] values (a few hundred bytes of anchors could otherwise stand
//! for billions). Merge keys (`<<: *base`) are applied, as YAML 1.1 readers do. Scalar
//! keys are read as written (`200:` is the key `"200"`).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The file name endings read as schema files, JSON first.
const EXTENSIONS: [&str; 3] = [".json", ".yaml", ".yml"];

/// Whether `name` (a path or file name) is a schema file by its ending.
pub(crate) fn is_schema_name(name: &str) -> bool {
    EXTENSIONS.iter().any(|ext| name.ends_with(ext))
}

/// Whether `name` is read as YAML.
pub(crate) fn is_yaml(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}

/// The file name of `name` without its directory, its schema ending and `.schema`:
/// `a/b/chat.schema.json` and `chat.yml` are both `chat`.
pub(crate) fn stem(name: &str) -> &str {
    let name = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let name = EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name);
    name.strip_suffix(".schema").unwrap_or(name)
}

/// The document `text` holds, read as YAML when `name` ends in `.yaml` or `.yml` and as
/// JSON otherwise; the error says which reading failed and where (`invalid JSON: …`,
/// `invalid YAML: … at line 3 column 7`).
pub(crate) fn parse(name: &str, text: &str) -> Result<Value, String> {
    if is_yaml(name) {
        parse_yaml(text).map_err(|err| format!("invalid YAML: {err}"))
    } else {
        serde_json::from_str(text).map_err(|err| format!("invalid JSON: {err}"))
    }
}

/// How many values a YAML text of `len` bytes may stand for: what a JSON text of that
/// length could hold (a value per two bytes), and a million more for anchors a schema
/// reuses.
fn node_budget(len: usize) -> usize {
    len / 2 + 1_000_000
}

fn parse_yaml(text: &str) -> Result<Value, yaml_serde::Error> {
    let mut left = node_budget(text.len());
    Node { left: &mut left }.deserialize(yaml_serde::Deserializer::from_str(text))
}

/// One YAML node read as a JSON value, counted against the budget.
struct Node<'a> {
    left: &'a mut usize,
}

impl Node<'_> {
    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        match self.left.checked_sub(1) {
            Some(left) => {
                *self.left = left;
                Ok(())
            }
            None => Err(E::custom(
                "its aliases expand it past the values a schema file may hold",
            )),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(mut self, deserializer: D) -> Result<Value, D::Error> {
        self.count()?;
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value JSON can hold")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            let written = match v {
                v if v.is_nan() => ".nan",
                v if v > 0.0 => ".inf",
                _ => "-.inf",
            };
            E::custom(format!("{written} is not a JSON number"))
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Node { left: self.left })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let value = map.next_value_seed(Node { left: self.left })?;
            if key != MERGE && entries.iter().any(|(k, _)| *k == key) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            entries.push((key, value));
        }
        merged(entries).map(Value::Object)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, _: A) -> Result<Value, A::Error> {
        Err(de::Error::custom(
            "a tagged value (`!name …`) has no JSON meaning",
        ))
    }
}

/// The key of a merge (`<<: *base`).
const MERGE: &str = "<<";

/// A mapping's entries as a JSON object: a merge's mappings (one, or a sequence of
/// them, the first taking precedence) add the keys the mapping does not give itself, at
/// the merge's place.
fn merged<E: de::Error>(entries: Vec<(String, Value)>) -> Result<Map<String, Value>, E> {
    if !entries.iter().any(|(k, _)| k == MERGE) {
        return Ok(entries.into_iter().collect());
    }
    let own: Vec<String> = entries
        .iter()
        .filter(|(k, _)| k != MERGE)
        .map(|(k, _)| k.clone())
        .collect();
    let mut out = Map::new();
    for (key, value) in entries {
        if key != MERGE {
            out.insert(key, value);
            continue;
        }
        let sources = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        for source in sources {
            let Value::Object(source) = source else {
                return Err(E::custom(
                    "a merge (`<<`) takes a mapping or a sequence of mappings",
                ));
            };
            for (key, value) in source {
                if !own.contains(&key) && !out.contains_key(&key) {
                    out.insert(key, value);
                }
            }
        }
    }
    Ok(out)
}

/// A mapping key: a scalar, as written.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scalar key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(text: &str) -> Result<Value, String> {
        parse("s.yaml", text)
    }

    #[test]
    fn names_and_stems() {
        assert!(is_schema_name("a/chat.schema.json") && is_schema_name("x.yml"));
        assert!(!is_schema_name("notes.txt") && !is_schema_name("x.yaml.bak"));
        assert_eq!(stem("a/b/chat.schema.json"), "chat");
        assert_eq!(stem("chat.schema.yaml"), "chat");
        assert_eq!(stem("c:\\s\\x.yml"), "x");
        assert_eq!(stem("plain"), "plain");
    }

    #[test]
    fn a_yaml_schema_reads_as_the_json_it_stands_for() {
        let text = "\
$schema: http://json-schema.org/draft-07/schema#
type: object
properties:
  name: {type: string, default: \"~\"}
  count: {type: integer, minimum: -1, maximum: 1.5e3}
  200: {const: null}
  on: {enum: [yes, true, ~, '0x10', 0x10]}
required: [name]
";
        assert_eq!(
            yaml(text).unwrap(),
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "name": {"type": "string", "default": "~"},
                    "count": {"type": "integer", "minimum": -1, "maximum": 1500.0},
                    "200": {"const": null},
                    "on": {"enum": ["yes", true, null, "0x10", 16]}
                },
                "required": ["name"]
            })
        );
    }

    #[test]
    fn key_order_is_kept_and_merges_apply_at_their_place() {
        let text = "\
base: &base {type: string, minLength: 1}
strict:
  title: Strict
  <<: *base
  minLength: 2
";
        let value = yaml(text).unwrap();
        let strict = &value["strict"];
        assert_eq!(
            strict,
            &json!({"title": "Strict", "type": "string", "minLength": 2})
        );
        let keys: Vec<&str> = strict
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["title", "type", "minLength"]);
        let both = yaml("a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc: {<<: [*a, *b]}\n").unwrap();
        assert_eq!(both["c"], json!({"x": 1, "y": 2}));
    }

    #[test]
    fn what_json_cannot_spell_is_refused_where_it_is() {
        for (text, said, line) in [
            ("a: 1\nb: .inf\n", ".inf", 2),
            ("a: 1\nb: .nan\n", ".nan", 2),
            ("a: 1\nb: !include other.yaml\n", "tagged value", 2),
            ("a: 1\n? [x]\n: 1\n", "sequence, expected a scalar key", 2),
            ("a: 1\nb: {c: 1, c: 2}\n", "duplicate key `c`", 2),
            ("a: 1\nb: [\n", "did not find expected node", 3),
            ("a: 1\n---\nb: 2\n", "more than one document", 0),
        ] {
            let err = yaml(text).unwrap_err();
            assert!(
                err.starts_with("invalid YAML: ") && err.contains(said),
                "{text:?}: {err}"
            );
            // A second document is refused before any is read; the rest are at a line.
            let at = format!("line {line} ");
            assert!(
                line == 0 || err.contains(&at),
                "{text:?}: not at {at}: {err}"
            );
        }
    }

    #[test]
    fn aliases_expand_the_document_no_further_than_its_budget() {
        // Nine levels of ten aliases each: 10^9 values from a few hundred bytes.
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..10 {
            let below = format!("*a{}", level - 1);
            let items = [below.as_str(); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        let err = yaml(&text).unwrap_err();
        assert!(
            err.contains("expand it past") || err.contains("repetition limit"),
            "{err}"
        );
        // One anchor used many times, each within the limit the parser sets itself: the
        // budget stops it before it holds millions of values.
        let list = vec!["x"; 10_000].join(", ");
        let aliases = vec!["*big"; 2_000].join(", ");
        let err = yaml(&format!("big: &big [{list}]\nmany: [{aliases}]\n")).unwrap_err();
        assert!(err.contains("expand it past"), "{err}");
        // A schema that reuses an anchor a few times reads.
        let value = yaml("s: &s {type: string}\np: {a: *s, b: *s, c: *s}\n").unwrap();
        assert_eq!(value["p"]["c"], json!({"type": "string"}));
    }

    #[test]
    fn a_json_file_is_read_as_json_only() {
        assert_eq!(parse("s.json", "{\"a\": 1}").unwrap(), json!({"a": 1}));
        let err = parse("s.json", "a: 1").unwrap_err();
        assert!(err.starts_with("invalid JSON: "), "{err}");
    }
}
