//! The checks against the engine, keyword by keyword, and the documents they leave alone.

use serde_json::{Map, json};

use super::compile::MAX_REF_ENGINES;
use super::*;
use crate::validate::compiled::{SchemaOptions, build};
use crate::validate::tape;

/// Each schema with messages: the checks must answer on their own (not `Unsure`)
/// and give the engine's verdict.
#[test]
fn agree_with_the_engine_keyword_by_keyword() {
    let cases = [
        (
            json!({"type": "integer", "minimum": 1.5, "exclusiveMaximum": 18446744073709551615_u64}),
            vec![
                "1",
                "2",
                "2.0",
                "1.5",
                "-3",
                "18446744073709551614",
                "18446744073709551615",
                "1e300",
            ],
        ),
        (
            json!({"type": ["number", "null"], "maximum": -1e300, "multipleOf": 3}),
            vec!["null", "-3", "-6", "true"],
        ),
        (
            json!({"type": "integer", "multipleOf": 3, "minimum": -9223372036854775808_i64}),
            vec!["-9", "-9223372036854775808", "9", "10", "9.5"],
        ),
        (
            json!({"type": "string", "minLength": 2, "maxLength": 3}),
            vec![
                r#""a""#,
                r#""ab""#,
                r#""🦀🦀""#,
                r#""abcd""#,
                r#""\u00e9\u00e9\u00e9""#,
                "1",
            ],
        ),
        (
            json!({"enum": [1, "a", null, {"k": [1, 2.0]}, [true]]}),
            vec![
                "1.0",
                r#""a""#,
                "null",
                r#"{"k": [1.0, 2]}"#,
                r#"{"k": [1, 2], "x": 1}"#,
                "[true]",
                "[false]",
                "2",
            ],
        ),
        (
            json!({"const": {"a": 1, "b": "x"}}),
            vec![
                r#"{"b": "x", "a": 1}"#,
                r#"{"a": 1}"#,
                r#"{"a": 1, "b": "y"}"#,
            ],
        ),
        (
            json!({
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                "required": ["a", "c"],
                "additionalProperties": {"type": "boolean"},
                "maxProperties": 3
            }),
            vec![
                r#"{"a": "x", "c": true}"#,
                r#"{"a": "x", "c": 1}"#,
                r#"{"a": "x"}"#,
                r#"{"a": "x", "c": false, "b": 1}"#,
                r#"{"a": "x", "c": false, "b": 1, "d": true}"#,
                r#"{"a": 1, "c": true}"#,
                "[]",
            ],
        ),
        (
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 1}),
            vec![
                r#"["a"]"#,
                r#"["a", 1]"#,
                r#"["a", 1, 2]"#,
                "[]",
                "[1]",
                r#"{"a": 1}"#,
            ],
        ),
        (
            json!({
                "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}, "additionalProperties": false}},
                "$ref": "#/$defs/node"
            }),
            vec![
                r#"{"v": 1, "next": {"next": {"v": 2}}}"#,
                r#"{"next": {"next": {"v": "x"}}}"#,
                r#"{"w": 1}"#,
            ],
        ),
        (
            json!({
                "oneOf": [
                    {"type": "object", "properties": {"type": {"const": "a"}, "x": {"type": "integer"}}, "required": ["type", "x"]},
                    {"type": "object", "properties": {"type": {"enum": ["b", "B"]}}, "required": ["type"]},
                    {"type": "object", "properties": {"type": {"type": "string", "not": {"enum": ["a", "b", "B"]}}}, "required": ["type"]}
                ]
            }),
            vec![
                r#"{"type": "a", "x": 1}"#,
                r#"{"type": "a", "x": "1"}"#,
                r#"{"type": "B"}"#,
                r#"{"type": "zzz"}"#,
                r#"{"type": 1}"#,
                r#"{"x": 1}"#,
            ],
        ),
        (
            json!({"anyOf": [
                {"properties": {"t": {"const": "a"}}, "required": ["t"]},
                {"properties": {"t": {"const": "b"}, "n": {"type": "integer"}}, "required": ["n"]}
            ]}),
            vec![
                r#"{"t": "a"}"#,
                r#"{"n": 1}"#,
                r#"{"n": "x"}"#,
                r#"{"t": "b", "n": 1}"#,
                r#"{"t": "b"}"#,
                "{}",
                "3",
            ],
        ),
        (
            json!({"anyOf": [{"type": "integer"}, {"minimum": 2}], "not": {"const": 3}}),
            vec!["1", "2.5", "3", "-1.5", r#""s""#],
        ),
        (
            json!({"if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}),
            vec![
                r#"{"k": 1, "a": 0}"#,
                r#"{"k": 1, "b": 0}"#,
                r#"{"k": 2, "b": 0}"#,
                r#"{"k": 2}"#,
                "7",
            ],
        ),
        (
            json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "properties": {"s": {"pattern": "^[a-z]+$"}}}),
            vec![
                r#"{"x-a": "y", "s": "abc"}"#,
                r#"{"x-a": 1}"#,
                r#"{"s": "ABC"}"#,
            ],
        ),
        (
            json!({"type": "array", "uniqueItems": true, "items": {"type": ["integer", "object", "array"]}}),
            vec![
                "[1, 2]",
                "[1, 1.0]",
                "[1, \"a\"]",
                r#"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#,
                r#"[{"a": 1}, {"a": 2}, [1], [1, 2]]"#,
                "[[1], [1]]",
            ],
        ),
        (
            json!({"type": "object", "propertyNames": {"maxLength": 3, "not": {"const": "bad"}}}),
            vec![
                r#"{"abc": 1, "de": 2}"#,
                r#"{"abcd": 1}"#,
                r#"{"bad": 1}"#,
                "{}",
            ],
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}},
                   "properties": {"a": {"$ref": "#/definitions/s", "type": "integer"}}, "items": [{"type": "integer"}]}),
            vec![r#"{"a": "x"}"#, r#"{"a": 1}"#, r#"["x"]"#, "[1, \"x\"]"],
        ),
        (
            // Folded (simplify.rs): alternatives' `$ref`s to payload schemas, a union
            // that implies the root's `required` tag; and the folds that must not
            // happen (a name on both sides, `additionalProperties`, disjoint types).
            json!({
                "$defs": {
                    "Prompt": {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
                    "Line": {"type": "object", "properties": {"type": {"type": "string", "maxLength": 4}, "line": {"type": "integer"}}},
                    "Text": {"type": "string"},
                    "Closed": {"properties": {"n": {"type": "integer"}}, "required": ["n"]}
                },
                "type": "object",
                "required": ["type"],
                "oneOf": [
                    {"properties": {"type": {"const": "start"}}, "required": ["type"], "$ref": "#/$defs/Prompt"},
                    {"properties": {"type": {"const": "line"}}, "required": ["type"], "$ref": "#/$defs/Line"},
                    {"properties": {"type": {"const": "text"}}, "required": ["type"], "$ref": "#/$defs/Text"},
                    {"properties": {"type": {"const": "closed"}}, "required": ["type"], "additionalProperties": false, "allOf": [{"$ref": "#/$defs/Closed"}]}
                ]
            }),
            vec![
                r#"{"type": "start", "prompt": "> "}"#,
                r#"{"type": "start", "prompt": 1}"#,
                r#"{"type": "start"}"#,
                r#"{"type": "line", "line": 3}"#,
                r#"{"type": "line", "line": "3"}"#,
                r#"{"type": "text"}"#,
                r#"{"type": "closed", "n": 1}"#,
                r#"{"type": "closed"}"#,
                r#"{"type": "other"}"#,
                r#"{"prompt": "> "}"#,
                "{}",
                r#""start""#,
            ],
        ),
        (
            // One alternative does not require the tag: the root's `required` stays.
            json!({"required": ["t"], "anyOf": [
                {"properties": {"t": {"const": "a"}}, "required": ["t"]},
                {"properties": {"t": {"const": "b"}, "n": {"type": "integer"}}, "required": ["n"]}
            ]}),
            vec![
                r#"{"n": 1}"#,
                r#"{"t": "b", "n": 1}"#,
                r#"{"t": "a"}"#,
                "{}",
            ],
        ),
        (
            // The tag's schema refuses one of the tags its `enum` lists: the union must
            // still check it for that tag.
            json!({"oneOf": [
                {"properties": {"t": {"enum": ["ab", "abc"], "maxLength": 2}, "n": {"type": "integer"}}, "required": ["t"]},
                {"properties": {"t": {"const": "x"}}, "required": ["t"]}
            ]}),
            vec![
                r#"{"t": "ab", "n": 1}"#,
                r#"{"t": "abc", "n": 1}"#,
                r#"{"t": "ab", "n": "1"}"#,
                r#"{"t": "x"}"#,
            ],
        ),
        (
            // A union of constants read as an `enum` (simplify.rs), and the unions
            // that must stay: a value in two alternatives of a `oneOf`, a number, a
            // `type` that refuses the constant, an alternative with more to check.
            json!({"type": "object", "properties": {
                "one": {"type": "string", "oneOf": [{"const": "a", "description": "A."}, {"enum": ["b", "c", "b"]}, {"const": true}]},
                "any": {"anyOf": [{"const": "a"}, {"enum": ["a", null]}, {"type": "integer", "const": "x"}]},
                "twice": {"oneOf": [{"const": "a"}, {"enum": ["a", "b"]}]},
                "number": {"oneOf": [{"const": 1}, {"const": "1"}]},
                "more": {"oneOf": [{"const": "a"}, {"const": "b", "maxLength": 0}]}
            }}),
            vec![
                r#"{"one": "a"}"#,
                r#"{"one": "c"}"#,
                r#"{"one": "d"}"#,
                r#"{"one": true}"#,
                r#"{"one": 1}"#,
                r#"{"any": "a"}"#,
                r#"{"any": null}"#,
                r#"{"any": "x"}"#,
                r#"{"twice": "a"}"#,
                r#"{"twice": "b"}"#,
                r#"{"number": 1.0}"#,
                r#"{"number": "1"}"#,
                r#"{"number": 2}"#,
                r#"{"more": "a"}"#,
                r#"{"more": "b"}"#,
            ],
        ),
        (
            // `not: {"required": …}` read with the members (simplify.rs): as an `allOf`
            // member and as the node's own `not`, a name the node does not declare, a
            // name the union's tag implies; and where it must stay: a node that takes
            // other types, a `not` with more than `required`.
            json!({
                "$defs": {
                    "Payload": {
                        "type": "object",
                        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                        "required": ["t"],
                        "allOf": [{"not": {"required": ["a", "b"]}}, {"not": {"required": ["c"]}}],
                        "not": {"required": ["d"]},
                        "oneOf": [
                            {"properties": {"t": {"const": "x"}}, "required": ["t"]},
                            {"properties": {"t": {"const": "y"}}, "required": ["t"]}
                        ]
                    },
                    "Loose": {"properties": {"a": {}}, "not": {"required": ["a"]}},
                    "Typed": {"type": "object", "not": {"required": ["a"], "properties": {"a": {"type": "string"}}}}
                },
                "anyOf": [
                    {"properties": {"k": {"const": 1}, "v": {"$ref": "#/$defs/Payload"}}, "required": ["k"]},
                    {"properties": {"k": {"const": 2}, "v": {"$ref": "#/$defs/Loose"}}, "required": ["k"]},
                    {"properties": {"k": {"const": 3}, "v": {"$ref": "#/$defs/Typed"}}, "required": ["k"]}
                ]
            }),
            vec![
                r#"{"k": 1, "v": {"t": "x"}}"#,
                r#"{"k": 1, "v": {"t": "x", "a": "1"}}"#,
                r#"{"k": 1, "v": {"t": "y", "b": "1"}}"#,
                r#"{"k": 1, "v": {"t": "x", "a": "1", "b": "2"}}"#,
                r#"{"k": 1, "v": {"t": "x", "c": 0}}"#,
                r#"{"k": 1, "v": {"t": "x", "d": 0}}"#,
                r#"{"k": 1, "v": {"t": "z"}}"#,
                r#"{"k": 1, "v": {"a": "1"}}"#,
                r#"{"k": 1, "v": 3}"#,
                r#"{"k": 2, "v": 3}"#,
                r#"{"k": 2, "v": {}}"#,
                r#"{"k": 2, "v": {"a": 1}}"#,
                r#"{"k": 3, "v": {"a": 1}}"#,
                r#"{"k": 3, "v": {"a": "1"}}"#,
                r#"{"k": 3, "v": {}}"#,
            ],
        ),
        (json!(false), vec!["1", "{}"]),
        (json!({}), vec!["1", "{}"]),
    ];
    let options = SchemaOptions::default();
    for (schema, messages) in cases {
        let checks = Checks::compile(&schema, &options, &[""]).expect("compiled");
        let engine = build(&options, &schema).unwrap();
        for text in messages {
            let (verdict, expected) = verdicts(&checks, &engine, text);
            assert_eq!(verdict, expected, "{schema} on {text}");
        }
    }
}

/// The checks' verdict on `text` for the first root, and the engine's (`Yes` or `No`).
fn verdicts(checks: &Checks, engine: &jsonschema::Validator, text: &str) -> (Verdict, Verdict) {
    let tape = tape::read(text, false).unwrap();
    let expected = if engine.is_valid(&serde_json::from_str(text).unwrap()) {
        Verdict::Yes
    } else {
        Verdict::No
    };
    (checks.check(0, &tape, None), expected)
}

#[test]
fn dispatch_on_the_tag_checks_only_the_alternatives_that_take_it() {
    let schema = json!({"anyOf": [
        {"properties": {"t": {"const": "a"}}, "required": ["t"]},
        {"properties": {"t": {"const": "b"}}, "required": ["t"]},
        {"properties": {"t": {"not": {"enum": ["a", "b"]}}}}
    ]});
    let options = SchemaOptions::default();
    let checks = Checks::compile(&schema, &options, &[""]).unwrap();
    let Node::Schema(root) = &checks.nodes[0] else {
        panic!("the root is compiled");
    };
    let tagging = root.any_of.as_ref().unwrap().tag.as_ref().unwrap();
    assert_eq!(&*tagging.key, "t");
    assert_eq!(tagging.by_tag.get("a").unwrap().len(), 1);
    assert_eq!(tagging.other.len(), 1);
    // The root's union takes the tag the caller looked up (a wrong one shows it is not
    // looked up again), only for the union's own key.
    let text = r#"{"n": 1, "t": "a"}"#;
    let tape = tape::read(text, false).unwrap();
    let at = tape.member(0, "t");
    assert_eq!(checks.check(0, &tape, None), Verdict::Yes);
    assert_eq!(checks.check(0, &tape, Some(("t", at))), Verdict::Yes);
    assert_eq!(checks.check(0, &tape, Some(("t", None))), Verdict::No);
    assert_eq!(checks.check(0, &tape, Some(("u", None))), Verdict::Yes);
}

#[test]
fn leaves_documents_it_cannot_follow_to_the_engine() {
    let options = SchemaOptions::default();
    for schema in [
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}),
        json!({"$schema": "http://localhost:1234/draft2020-12/metaschema-no-validation.json"}),
        json!({"$defs": {"a": {"$id": "http://example.com/a", "type": "string"}}}),
        json!({"$defs": {"a": {"$anchor": "x"}}, "$ref": "#x"}),
        json!({"$dynamicAnchor": "node", "type": "object"}),
    ] {
        assert!(
            Checks::compile(&schema, &options, &[""]).is_none(),
            "{schema}"
        );
    }
    // Many uncovered nodes that follow references: a bounded number get engines of
    // their own, and messages reaching the rest take the general path.
    let mut defs = Map::new();
    for i in 0..200 {
        defs.insert(
            format!("d{i}"),
            json!({"pattern": "^a", "properties": {"next": {"$ref": format!("#/$defs/d{}", (i + 1) % 200)}}}),
        );
    }
    let many = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    let checks = Checks::compile(&many, &options, &[""]).unwrap();
    let engines = checks
        .nodes
        .iter()
        .filter(|n| matches!(n, Node::Engine(_)))
        .count();
    assert!(engines <= MAX_REF_ENGINES, "{engines} engines");
    let deep = format!("{}\"a\"{}", r#"{"next": "#.repeat(100), "}".repeat(100));
    let tape = tape::read(&deep, false).unwrap();
    assert_ne!(checks.check(0, &tape, None), Verdict::No);
    // A loop of references that reads nothing gives up rather than recursing.
    let looping = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
    let checks = Checks::compile(&looping, &options, &[""]).expect("a loop of references compiles");
    let tape = tape::read("1", false).unwrap();
    assert_eq!(checks.check(0, &tape, None), Verdict::Unsure);
}

#[test]
fn simplifying_folds_payloads_into_alternatives_and_drops_the_implied_tag() {
    let schema = json!({
        "$defs": {
            "Prompt": {"type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]},
            "Text": {"type": "string"}
        },
        "type": "object",
        "required": ["type"],
        "oneOf": [
            {"properties": {"type": {"const": "start"}}, "required": ["type"], "$ref": "#/$defs/Prompt"},
            {"properties": {"type": {"const": "text"}}, "required": ["type"], "$ref": "#/$defs/Text"}
        ]
    });
    let checks = Checks::compile(&schema, &SchemaOptions::default(), &[""]).unwrap();
    let Node::Schema(root) = &checks.nodes[0] else {
        panic!("the root is compiled");
    };
    // Every alternative requires `type`: the root no longer reads the members for it.
    assert_eq!(root.has & HAS_MEMBERS, 0);
    assert!(root.properties.is_empty());
    let union = root.one_of.as_ref().unwrap();
    let schema_of = |id: NodeId| match &checks.nodes[id as usize] {
        Node::Schema(a) => a,
        _ => panic!("an alternative is compiled"),
    };
    let start = schema_of(union.alternatives[0]);
    assert!(start.all_of.is_empty(), "Prompt is folded in");
    let names: Vec<&str> = start.properties.iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["type", "prompt"]);
    assert_eq!(start.required, 0b11);
    assert_eq!(start.types, OBJECT);
    // Dispatched on its tag, the union goes to a copy that does not check it again.
    let dispatched = union.tag.as_ref().unwrap().by_tag.get("start").unwrap()[0];
    assert_ne!(dispatched, union.alternatives[0]);
    let copy = schema_of(dispatched);
    assert!(copy.properties[0].node.is_none() && start.properties[0].node.is_some());
    // A payload of only `type` is folded too: the alternative takes strings only.
    let text = schema_of(union.alternatives[1]);
    assert!(text.all_of.is_empty());
    assert_eq!(text.types, STRING);
}

#[test]
fn simplifying_reads_constants_as_an_enum_and_excluded_names_with_the_members() {
    let schema = json!({
        "type": "object",
        "properties": {
            "mode": {"oneOf": [{"const": "replace", "description": "Replace."}, {"const": "append"}]},
            "twice": {"oneOf": [{"const": "a"}, {"enum": ["a", "b"]}]},
            "baseUri": {"type": "string"}
        },
        "allOf": [{"not": {"required": ["baseUri", "base_uri"]}}]
    });
    let checks = Checks::compile(&schema, &SchemaOptions::default(), &[""]).unwrap();
    let Node::Schema(root) = &checks.nodes[0] else {
        panic!("the root is compiled");
    };
    assert!(root.all_of.is_empty(), "the `not` is folded in");
    let names: Vec<&str> = root.properties.iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["mode", "twice", "baseUri", "base_uri"]);
    assert_eq!(root.excluded, [0b1100]);
    assert!(!root.properties[3].declared);
    let schema_of =
        |index: usize| match &checks.nodes[root.properties[index].node.unwrap() as usize] {
            Node::Schema(a) => a,
            _ => panic!("a property is compiled"),
        };
    let mode = schema_of(0);
    assert!(mode.one_of.is_none());
    assert_eq!(mode.values, Some(vec![json!("replace"), json!("append")]));
    // "a" is in both alternatives: `oneOf` refuses it, an `enum` would not.
    let twice = schema_of(1);
    assert!(twice.one_of.is_some() && twice.values.is_none());
}

/// Past 64 properties the rewrites leave the bit sets alone (no shift past 63): a tag
/// union's node and a `not: {"required": …}` of 71 declared names.
#[test]
fn simplifying_a_node_of_more_than_64_properties() {
    let mut names = Map::new();
    for i in 0..70 {
        names.insert(format!("p{i}"), json!(true));
    }
    let mut properties = Map::new();
    properties.insert("t".into(), json!({"type": "string"}));
    properties.extend(names.clone());
    let schema = json!({
        "type": "object",
        "properties": properties,
        "required": ["t"],
        "oneOf": [
            {"properties": {"t": {"const": "a"}}, "required": ["t"]},
            {"properties": {"t": {"const": "b"}}, "required": ["t"]}
        ],
        "allOf": [{"not": {"properties": names, "required": ["p1", "p2"]}}]
    });
    let options = SchemaOptions::default();
    let checks = Checks::compile(&schema, &options, &[""]).expect("compiled");
    let Node::Schema(root) = &checks.nodes[0] else {
        panic!("the root is compiled");
    };
    assert!(
        root.all_of.is_empty() && root.one_of.is_some(),
        "the `not` is folded"
    );
    let engine = build(&options, &schema).unwrap();
    for text in [
        r#"{"t": "a"}"#,
        r#"{"t": "b", "p1": 1}"#,
        r#"{"t": "a", "p1": 1, "p2": 2}"#,
        r#"{"t": "c"}"#,
        r#"{"p69": 1}"#,
        "[]",
    ] {
        let (verdict, expected) = verdicts(&checks, &engine, text);
        let opposite = if expected == Verdict::Yes {
            Verdict::No
        } else {
            Verdict::Yes
        };
        assert_ne!(verdict, opposite, "{text}");
    }
}
