//! Explaining a rejected message of a union by walking only what its tag decides, or,
//! without a tag, what it comes closest to.
//!
//! The general engine checks a failed `oneOf`/`anyOf` against every alternative and
//! keeps every alternative's errors, each with its own copy of the instance; the
//! explainer then reports only the alternative the tag selects, or only what is wrong
//! with the tag ([`super::explain`]). For a union of 25 alternatives that costs 100
//! times a valid message, and a message judged against several roots pays it per root.
//!
//! Here a root that is a tagged union is split once into its alternatives and the rest
//! of its node (its `type`, `properties`, `required`, … without the union), each
//! compiled on first need. Where the union's verdict is sure to be one alternative's
//! (every other one pins the tag to other values) the message is explained by the rest
//! and that alternative; where the union is sure to fail on the tag alone (the tag is
//! absent and every alternative requires it, or no alternative takes it), by the rest
//! and the tag's fault. That is what the explainer finds in the whole root's errors.
//!
//! A root that is a union without a tag is split the same way. Each alternative is
//! walked on its own, its errors kept as the engine gives them (no copies), and the
//! alternative the message misses least, by the explainer's own measure
//! ([`super::explain::best_alternative`]), explains it, as in the whole root's errors.
//! Where no single alternative is closest, or more than one takes a `oneOf`'s message,
//! the whole root explains it.

use std::sync::OnceLock;

use jsonschema::Validator;
use jsonschema::json::{Json, SerdeJson};
use serde_json::Value;

use super::compiled::{SchemaOptions, build_explaining, rooted_anywhere, standalone};
use super::discriminator::{self, Discriminator};
use super::explain::required_sets;
use super::few::Few;
use super::message::{Member, Message};
use super::tape::json::TapeJson;
use crate::tags::BranchTag;

/// The compiled parts of a [`Narrow`] root, for messages in representation `F`: a
/// message's tape ([`TapeJson`]), or a `Value` (a message given as one, or an envelope
/// explained with its content filled in).
pub struct Parts<F: Json> {
    /// The root's node without the union, compiled on first need (`None`: it did not
    /// compile, or nothing is left to check).
    rest: OnceLock<Option<Validator<F>>>,
    /// Each alternative, compiled on first need.
    branches: Vec<OnceLock<Option<Validator<F>>>>,
}

impl<F: Json> Parts<F> {
    fn new(alternatives: usize) -> Self {
        Self {
            rest: OnceLock::new(),
            branches: (0..alternatives).map(|_| OnceLock::new()).collect(),
        }
    }
}

/// A representation a [`Narrow`] root is compiled for.
pub trait Walked: Json {
    /// The root's parts for this representation.
    fn parts(narrow: &Narrow) -> &Parts<Self>;
}

impl Walked for TapeJson {
    fn parts(narrow: &Narrow) -> &Parts<Self> {
        &narrow.on_tape
    }
}

impl Walked for SerdeJson {
    fn parts(narrow: &Narrow) -> &Parts<Self> {
        &narrow.on_value
    }
}

/// A root that is a union, split for explaining.
pub struct Narrow {
    /// `oneOf` or `anyOf`.
    keyword: &'static str,
    /// Where the union's node is in the document (`""`: the document itself).
    pointer: String,
    /// The union's tag and what it selects; `None` for a union without a tag, whose
    /// rejected message is explained by the alternative it comes closest to.
    pub tagged: Option<Tagged>,
    /// The parts, for messages on their tape.
    on_tape: Parts<TapeJson>,
    /// The parts, for messages as `Value`s (compiled only if one comes).
    on_value: Parts<SerdeJson>,
}

/// The tag of a [`Narrow`] root's union.
pub struct Tagged {
    /// The union's tag.
    pub union: Discriminator,
    /// The alternative of each known string tag.
    by_string: Few<String, usize>,
    /// The open alternative, which takes every tag no other one knows.
    open: Option<usize>,
    /// Whether every alternative requires the tag.
    all_require: bool,
}

/// What explains a rejected message of a [`Narrow`] root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The rest of the root and this alternative.
    Branch(usize),
    /// The rest of the root and the tag's fault ([`super::explain::Explainer::tag_fault`]).
    Tag,
    /// The rest of the root and, when the union fails, the alternative the message
    /// misses least (a union without a tag; [`super::explain::best_alternative`]).
    Closest,
    /// The whole root: the union's verdict is not sure from the tag.
    Whole,
}

impl Narrow {
    /// The split of the root at `pointer` in `document`, when its node is itself a union
    /// and nothing in it depends on what the union evaluates (`unevaluatedProperties`,
    /// `unevaluatedItems`). A tagged union qualifies when its known tags no other
    /// alternative takes (an open alternative excludes them all with `not: {enum}`); a
    /// union without a tag, unless each alternative only requires keys (the explainer
    /// words that case as a whole: "at least one of", an alias).
    pub fn new(document: &Value, pointer: &str) -> Option<Self> {
        let node = document.pointer(pointer)?.as_object()?;
        if node.contains_key("unevaluatedProperties") || node.contains_key("unevaluatedItems") {
            return None;
        }
        ["oneOf", "anyOf"].into_iter().find_map(|keyword| {
            let alternatives = node.get(keyword)?.as_array()?;
            let split = |tagged| Self {
                keyword,
                pointer: pointer.to_owned(),
                tagged,
                on_tape: Parts::new(alternatives.len()),
                on_value: Parts::new(alternatives.len()),
            };
            let Some(union) = discriminator::discriminator(document, alternatives) else {
                let plain = !alternatives.is_empty() && required_sets(alternatives).is_none();
                return plain.then(|| split(None));
            };
            if union.branches.len() != alternatives.len() {
                return None;
            }
            let resolved: Vec<&Value> = alternatives
                .iter()
                .map(|a| discriminator::resolve(document, a))
                .collect();
            let open = union.branches.iter().position(|b| *b == BranchTag::Unknown);
            if open.is_some_and(|index| !excludes_known(&union, resolved[index])) {
                return None;
            }
            let all_require = resolved.iter().all(|a| requires(a, &union.key));
            let by_string = union
                .branches
                .iter()
                .enumerate()
                .flat_map(|(index, branch)| {
                    match branch {
                        BranchTag::Known(tags) => tags.as_slice(),
                        BranchTag::Unknown => &[],
                    }
                    .iter()
                    .filter_map(move |tag| Some((tag.as_str()?.to_owned(), index)))
                })
                .collect();
            Some(split(Some(Tagged {
                by_string,
                open,
                all_require,
                union,
            })))
        })
    }

    /// How many alternatives the union has.
    pub fn alternatives(&self) -> usize {
        self.on_tape.branches.len()
    }

    /// Whether the union is a `oneOf` (exactly one alternative must take the message).
    pub fn is_one_of(&self) -> bool {
        self.keyword == "oneOf"
    }

    /// What explains `message` (see [`Route`]).
    pub fn route(&self, message: &Message<'_>) -> Route {
        match &self.tagged {
            Some(tagged) => tagged.route(message),
            None => Route::Closest,
        }
    }
    /// The rest of the root: its node without the union. `None` when it did not
    /// compile.
    pub fn rest<F: Walked>(
        &self,
        document: &Value,
        options: &SchemaOptions,
    ) -> Option<&Validator<F>> {
        F::parts(self)
            .rest
            .get_or_init(|| {
                let mut copy = document.clone();
                copy.pointer_mut(&self.pointer)?
                    .as_object_mut()?
                    .shift_remove(self.keyword)?;
                let source = if self.pointer.is_empty() {
                    copy
                } else {
                    rooted_anywhere(&copy, &self.pointer, options.base_uri.as_deref())
                };
                build_explaining(options, &source).ok()
            })
            .as_ref()
    }

    /// Alternative `index` on its own. `None` when it did not compile.
    pub fn branch<F: Walked>(
        &self,
        document: &Value,
        options: &SchemaOptions,
        index: usize,
    ) -> Option<&Validator<F>> {
        F::parts(self)
            .branches
            .get(index)?
            .get_or_init(|| {
                let pointer = format!("{}/{}/{index}", self.pointer, self.keyword);
                let schema = standalone(document, &pointer).unwrap_or_else(|| {
                    rooted_anywhere(document, &pointer, options.base_uri.as_deref())
                });
                build_explaining(options, &schema).ok()
            })
            .as_ref()
    }
}

impl Tagged {
    /// What explains `message`. Every alternative with known tags pins the tag to its own
    /// values, so a tag one of them knows fails all the others; a tag none knows fails
    /// them all, leaving the open alternative (if any) to decide.
    pub fn route(&self, message: &Message<'_>) -> Route {
        if !message.is_object() {
            return Route::Whole;
        }
        let Some(tag) = message.member(&self.union.key) else {
            return if self.all_require {
                Route::Tag
            } else {
                Route::Whole
            };
        };
        // A tag that is not a string, as a `Value` (built once, for a message on a tape).
        let other = match &tag {
            Member::Str(_) => None,
            other => Some(other.to_value()),
        };
        let known = match (&tag, &other) {
            (Member::Str(tag), _) => self.by_string.get(tag).copied(),
            (_, other) => self.union.branches.iter().position(
                |b| matches!((b, other), (BranchTag::Known(tags), Some(tag)) if tags.contains(tag)),
            ),
        };
        let same_type = |t: &Value| match &other {
            None => t.is_string(),
            Some(tag) => std::mem::discriminant(t) == std::mem::discriminant(&**tag),
        };
        match (known, self.open) {
            (Some(index), _) => Route::Branch(index),
            (None, None) => Route::Tag,
            // The open alternative decides a tag of the known tags' type, as the
            // explainer reads it; any other tag is left to the whole root.
            (None, Some(open)) if self.union.known_tags().any(same_type) => Route::Branch(open),
            (None, Some(_)) => Route::Whole,
        }
    }
}

/// Whether `alternative`'s tag property excludes every known tag of `union`
/// (`not: {enum: [...]}` or `not: {const: ...}`, and nothing else in the `not`).
fn excludes_known(union: &Discriminator, alternative: &Value) -> bool {
    let Some(not) = alternative
        .get("properties")
        .and_then(|p| p.get(&union.key))
        .and_then(|p| p.get("not"))
        .and_then(Value::as_object)
        .filter(|not| not.len() == 1)
    else {
        return false;
    };
    let excluded: Vec<&Value> = match (not.get("enum"), not.get("const")) {
        (Some(Value::Array(values)), _) => values.iter().collect(),
        (None, Some(value)) => vec![value],
        _ => return false,
    };
    union.known_tags().all(|tag| excluded.contains(&tag))
}

/// Whether `schema` lists `key` in its own `required`.
fn requires(schema: &Value, key: &str) -> bool {
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|keys| keys.iter().any(|k| k == key))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validate::compiled::CompiledSchema;

    fn union(open: bool) -> Value {
        let mut alternatives = vec![
            json!({"properties": {"kind": {"const": "a"}, "n": {"type": "integer"}}, "required": ["kind", "n"]}),
            json!({"properties": {"kind": {"const": "b"}, "s": {"enum": ["x", "y"]}}, "required": ["kind"]}),
        ];
        if open {
            alternatives.push(json!({"properties": {"kind": {"type": "string", "not": {"enum": ["a", "b"]}}, "extra": {"type": "boolean"}}, "required": ["kind"]}));
        }
        json!({"$defs": {"U": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"], "oneOf": alternatives}}})
    }

    #[test]
    fn a_tag_routes_to_its_alternative_or_to_the_tag_or_to_the_whole_root() {
        let closed = Narrow::new(&union(false), "/$defs/U").expect("a tagged union");
        let open = Narrow::new(&union(true), "/$defs/U").expect("an open tagged union");
        for (value, closed_route, open_route) in [
            (json!({"kind": "b"}), Route::Branch(1), Route::Branch(1)),
            (json!({"id": "1"}), Route::Tag, Route::Tag),
            (json!({"kind": "zzz"}), Route::Tag, Route::Branch(2)),
            (json!({"kind": null}), Route::Tag, Route::Whole),
            (json!({"kind": 3}), Route::Tag, Route::Whole),
            (json!([1]), Route::Whole, Route::Whole),
        ] {
            let message = Message::Value(&value);
            assert_eq!(closed.route(&message), closed_route, "closed: {value}");
            assert_eq!(open.route(&message), open_route, "open: {value}");
            let text = value.to_string();
            let tape = crate::validate::tape::read(&text, false).unwrap();
            let message = Message::on_tape(&tape);
            assert_eq!(
                closed.route(&message),
                closed_route,
                "closed, tape: {value}"
            );
            assert_eq!(open.route(&message), open_route, "open, tape: {value}");
        }
        // An open alternative that does not exclude the known tags could take them too.
        let mut loose = union(true);
        loose["$defs"]["U"]["oneOf"][2]["properties"]["kind"] = json!({"type": "string"});
        assert!(Narrow::new(&loose, "/$defs/U").is_none());
        // A whole document that is such a union is split too.
        assert!(Narrow::new(&union(false)["$defs"]["U"], "").is_some());
    }

    #[test]
    fn explained_by_the_tag_as_by_the_whole_root() {
        for (open, whole) in [(false, false), (true, false), (false, true), (true, true)] {
            let (mut schema, root) = if whole {
                let document = union(open)["$defs"]["U"].clone();
                (
                    CompiledSchema::compile(document, Default::default()).unwrap(),
                    0,
                )
            } else {
                let mut schema = CompiledSchema::compile(union(open), Default::default()).unwrap();
                let root = schema.add_root("U").unwrap();
                (schema, root)
            };
            // A root anywhere in the document (not under `$defs`) compiles too.
            let at = if whole {
                "#/oneOf/0"
            } else {
                "#/$defs/U/oneOf/0"
            };
            let inner = schema.add_root(at).unwrap();
            let (missing, _) = schema
                .explanations(inner, &json!({"kind": "a"}).to_string())
                .unwrap();
            assert_eq!(missing.len(), 1, "{missing:?}");
            assert_eq!(missing[0].pointer, "/n");
            for value in [
                json!({"kind": "a", "n": "x"}),
                json!({"kind": "a", "id": 7}),
                json!({"kind": "b", "s": "z", "id": "1"}),
                json!({"id": "1"}),
                json!({"kind": "zzz", "extra": 1, "id": "1"}),
                json!({"kind": null, "id": 2}),
                json!({"kind": 3}),
                json!([1]),
            ] {
                let (narrowed, whole_root) = schema.explanations(root, &value.to_string()).unwrap();
                assert!(!whole_root.is_empty(), "{value} is rejected");
                assert_eq!(
                    narrowed, whole_root,
                    "open: {open}, whole: {whole}, {value}"
                );
            }
        }
    }

    /// A union without a tag is explained by the alternative the message misses least,
    /// as the whole root's errors explain it: a `oneOf` and an `anyOf`, with something
    /// outside the union to check too, on messages that fail one alternative, all of
    /// them evenly (no closest one), none (two take a `oneOf`'s message) and the rest only.
    #[test]
    fn a_union_without_a_tag_is_explained_by_its_closest_alternative() {
        for keyword in ["oneOf", "anyOf"] {
            let document = json!({"$defs": {"U": {
                "required": ["id"],
                "properties": {"id": {"type": "string"}},
                keyword: [
                    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                    {"type": "object", "properties": {"b": {"type": "string"}, "c": {"enum": ["x"]}}, "required": ["b", "c"]},
                    {"type": "array", "items": {"type": "boolean"}}
                ]
            }}});
            let narrow = Narrow::new(&document, "/$defs/U").expect("a union");
            assert!(narrow.tagged.is_none());
            assert_eq!(narrow.route(&Message::Value(&json!(1))), Route::Closest);
            let mut schema = CompiledSchema::compile(document, Default::default()).unwrap();
            let root = schema.add_root("U").unwrap();
            for value in [
                json!({"a": "x", "id": "1"}),
                json!({"b": "y", "c": "z", "id": 2}),
                json!({"b": 1, "id": "1"}),
                json!({"id": "1"}),
                json!({"a": 1, "b": "y", "c": "x"}),
                json!({"a": 1, "id": 5}),
                json!([1, true]),
                json!("text"),
            ] {
                let (narrowed, whole_root) = schema.explanations(root, &value.to_string()).unwrap();
                assert!(!whole_root.is_empty(), "{keyword}: {value} is rejected");
                assert_eq!(narrowed, whole_root, "{keyword}: {value}");
            }
        }
        // Alternatives that only require keys are worded as a whole ("at least one of").
        let keys = json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert!(Narrow::new(&keys, "").is_none());
    }

    /// A union of constants in another file, reached by `$ref`, is read as an enum by
    /// the explaining engines too (the retriever rewrites what it reads). The whole
    /// root's explanation cannot name the constants: the explainer reads alternatives
    /// in the root's own document only.
    #[test]
    fn a_union_of_constants_in_another_file_is_explained_as_an_enum() {
        let dir = tempfile::tempdir().unwrap();
        let other = json!({"$defs": {"Mode": {"oneOf": [{"const": "x"}, {"const": "y"}]}}});
        std::fs::write(dir.path().join("other.json"), other.to_string()).unwrap();
        let root = json!({"$defs": {"U": {
            "type": "object",
            "required": ["id"],
            "oneOf": [
                {"properties": {"kind": {"const": "a"}, "mode": {"$ref": "other.json#/$defs/Mode"}}, "required": ["kind"]},
                {"properties": {"kind": {"const": "b"}}, "required": ["kind"]}
            ]
        }}});
        let path = dir.path().join("root.json");
        std::fs::write(&path, root.to_string()).unwrap();
        let options = crate::validate::SchemaOptions::for_file(&path);
        let mut schema = CompiledSchema::compile(root, options).unwrap();
        let u = schema.add_root("U").unwrap();
        let (narrowed, whole) = schema
            .explanations(u, r#"{"kind": "a", "mode": "z", "id": "1"}"#)
            .unwrap();
        assert_eq!(narrowed.len(), 1, "{narrowed:?}");
        assert_eq!(
            narrowed[0].kind,
            crate::validate::ViolationKind::UnknownEnumValue
        );
        assert_eq!(narrowed[0].message, r#"must be "x" or "y"; found "z""#);
        assert_eq!(whole.len(), 1, "{whole:?}");
        assert_eq!(whole[0].pointer, "/mode");
    }

    /// Under a draft-04 root, a referenced document without `$schema` is read as draft 4:
    /// its `const` is no keyword, so its union of "constants" is not an enum (here both
    /// alternatives take every value, and the `oneOf` fails on any). The message also
    /// lacks `id`, so the narrowed explanation finds something either way (an empty one
    /// falls back to the whole root). This passes without the draft-04 guard in
    /// `build_explaining` too; the guard is a precaution.
    #[test]
    fn a_draft_04_root_reads_its_references_as_draft_04() {
        let dir = tempfile::tempdir().unwrap();
        let other = json!({"definitions": {"Mode": {"oneOf": [{"const": "x"}, {"const": "y"}]}}});
        std::fs::write(dir.path().join("other.json"), other.to_string()).unwrap();
        let root = json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "$ref": "#/definitions/U",
            "definitions": {"U": {
                "type": "object",
                "required": ["id"],
                "oneOf": [
                    {"properties": {"kind": {"enum": ["a"]}, "mode": {"$ref": "other.json#/definitions/Mode"}}, "required": ["kind"]},
                    {"properties": {"kind": {"enum": ["b"]}}, "required": ["kind"]}
                ]
            }}
        });
        let path = dir.path().join("root.json");
        std::fs::write(&path, root.to_string()).unwrap();
        assert!(
            Narrow::new(&root, "/definitions/U").is_some(),
            "a tagged union"
        );
        let options = crate::validate::SchemaOptions::for_file(&path);
        let schema = CompiledSchema::compile(root, options).unwrap();
        let (narrowed, whole) = schema
            .explanations(0, &json!({"kind": "a", "mode": "x"}).to_string())
            .unwrap();
        // The missing `id`, and the mode draft 4 rejects.
        assert_eq!(whole.len(), 2, "{whole:?}");
        assert_eq!(narrowed, whole);
    }
}
