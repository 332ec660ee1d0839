//! The schema model: the model of the seed protocols' schemas (outline snapshots plus
//! targeted assertions), the shapes hand-written schemas use, and the errors.

use std::path::Path;

use serde_json::{Value, json};
use symgen::model::*;

const PROTOCOLS: [&str; 5] = [
    "symposium",
    "taskspace-state",
    "dialectic",
    "worker-sideband",
    "ck3lens",
];

fn ours(id: &str) -> Model {
    let path = format!("{}/schema/{id}.schema.json", env!("CARGO_MANIFEST_DIR"));
    parse_file(Path::new(&path)).unwrap_or_else(|err| panic!("{err}"))
}

fn model(doc: &Value) -> Model {
    from_value("test.json", doc).unwrap_or_else(|err| panic!("{err}"))
}

fn error(doc: &Value) -> String {
    match from_value("test.json", doc) {
        Ok(model) => panic!("expected an error, got:\n{}", outline(&model)),
        Err(err) => err.to_string(),
    }
}

fn kind<'m>(model: &'m Model, name: &str) -> &'m TypeKind {
    &model
        .get(name)
        .unwrap_or_else(|| panic!("no type {name}:\n{}", outline(model)))
        .kind
}

fn record<'m>(model: &'m Model, name: &str) -> &'m Record {
    match kind(model, name) {
        TypeKind::Record(record) => record,
        other => panic!("{name} is not a record: {other:?}"),
    }
}

fn union<'m>(model: &'m Model, name: &str) -> &'m Union {
    match kind(model, name) {
        TypeKind::Union(union) => union,
        other => panic!("{name} is not a union: {other:?}"),
    }
}

fn field<'r>(fields: &'r [Field], name: &str) -> &'r Field {
    fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name}"))
}

#[test]
fn our_schemas_outline() {
    for id in PROTOCOLS {
        insta::assert_snapshot!(id, outline(&ours(id)));
    }
}

#[test]
fn envelope_p1() {
    let model = ours("symposium");
    assert_eq!(model.roots, ["IpcMessage"]);
    let protocol = model.protocol.as_ref().unwrap();
    assert_eq!(
        (protocol.id.as_str(), protocol.code.as_deref().unwrap_or("")),
        ("symposium", "P1")
    );
    assert_eq!(protocol.reply_data.as_deref(), Some("/payload/data"));
    let ck3lens = ours("ck3lens");
    assert_eq!(
        ck3lens.protocol.as_ref().unwrap().reply_data.as_deref(),
        Some("/result")
    );
    let message = union(&model, "IpcMessage");
    assert_eq!(
        message.tagging,
        Tagging::Adjacent {
            tag: "type".into(),
            content: "payload".into()
        }
    );
    let shared: Vec<&str> = message.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(shared, ["id", "sender"]);
    assert_eq!(message.unknown.as_ref().unwrap().name, "Unknown");
    let response = &message.variants[0];
    assert_eq!(response.tag, Some(Literal::String("response".into())));
    assert_eq!(response.reply, Reply::IsReply);
    let marco = message.variants.iter().find(|v| v.name == "Marco").unwrap();
    let Payload::Content(content) = &marco.payload else {
        panic!("marco has content");
    };
    assert_eq!(content.presence(), Presence::OptionalNullable);
    assert_eq!(*content.ty.non_null(), TypeExpr::Ref("Empty".into()));
    assert_eq!(marco.reply, Reply::None);
    let resolve = message
        .variants
        .iter()
        .find(|v| v.name == "ResolveSymbolByName")
        .unwrap();
    assert_eq!(
        resolve.reply,
        Reply::Data(TypeExpr::Array(Box::new(TypeExpr::Ref("SymbolDef".into()))))
    );
    let retired = message
        .variants
        .iter()
        .find(|v| v.name == "PresentReview")
        .unwrap();
    assert!(retired.docs.deprecated);
}

#[test]
fn flattened_internal_union_p1_user_feedback() {
    let model = ours("symposium");
    let feedback = union(&model, "UserFeedback");
    assert_eq!(
        feedback.tagging,
        Tagging::Internal {
            tag: "feedback_type".into()
        }
    );
    assert_eq!(feedback.fields.len(), 1);
    assert_eq!(feedback.fields[0].name, "review_id");
    let Payload::Fields(fields) = &feedback.variants[0].payload else {
        panic!("inline fields");
    };
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["comment_text", "file_path", "line_number", "context_lines"]
    );
}

#[test]
fn aliases_p1_p3() {
    let model = ours("symposium");
    let walkthrough = record(&model, "PresentWalkthroughPayload");
    let base = field(&walkthrough.fields, "baseUri");
    assert!(
        base.required,
        "x-symgen-required makes the aliased field required"
    );
    assert_eq!(base.aliases, ["base_uri"]);
    assert_eq!(walkthrough.fields.len(), 2, "the alias property is folded");
    let mode = match kind(&model, "ReviewMode") {
        TypeKind::Enum(e) => e,
        other => panic!("{other:?}"),
    };
    assert!(mode.is_string());
    assert_eq!(mode.values.len(), 3);
    assert_eq!(
        mode.values[1].value,
        Literal::String("update-section".into())
    );
    assert_eq!(
        mode.values[1].aliases,
        [Literal::String("UpdateSection".into())]
    );
    assert!(mode.values[0].docs.description.is_some());

    let dialectic = ours("dialectic");
    let request = union(&dialectic, "DialecticRequest");
    assert_eq!(
        request.variants[0].tag_aliases,
        [Literal::String("present-review".into())]
    );
    assert_eq!(
        request.variants[0].reply,
        Reply::Data(TypeExpr::Ref("IPCResponse".into()))
    );
}

#[test]
fn internal_newtype_variants_p4() {
    let model = ours("worker-sideband");
    assert_eq!(model.roots, ["ServerToWorker", "WorkerToServer"]);
    let up = union(&model, "ServerToWorker");
    assert_eq!(up.tagging, Tagging::Internal { tag: "type".into() });
    assert_eq!(
        up.variants[0].payload,
        Payload::Type(TypeExpr::Ref("StdinWrite".into()))
    );
    let info = record(&model, "BackendInfo");
    let images = field(&info.fields, "supports_images");
    assert_eq!(images.presence(), Presence::OptionalNullable);
    assert_eq!(images.default, Some(json!(false)));
}

#[test]
fn jsonrpc_p5() {
    let model = ours("ck3lens");
    let request = union(&model, "JsonRpcRequest");
    assert_eq!(
        request.tagging,
        Tagging::Adjacent {
            tag: "method".into(),
            content: "params".into()
        }
    );
    assert_eq!(
        field(&request.fields, "jsonrpc").ty,
        TypeExpr::Literal(Literal::String("2.0".into()))
    );
    assert_eq!(union(&model, "JsonRpcResponse").tagging, Tagging::Untagged);
    let id = union(&model, "RequestId");
    assert_eq!(id.variants.len(), 2);
    let Payload::Type(TypeExpr::Integer(int)) = &id.variants[0].payload else {
        panic!("integer id");
    };
    assert_eq!(int.width, IntWidth::I64);
    let port = record(&model, "PortFile");
    let TypeExpr::Integer(port_type) = &field(&port.fields, "port").ty else {
        panic!("port is an integer");
    };
    assert_eq!(port_type.width, IntWidth::U16);
    assert_eq!(port_type.maximum, Some(65535));
    let TypeExpr::Integer(stamp) = &field(&port.fields, "timestamp").ty else {
        panic!("timestamp is an integer");
    };
    assert_eq!(stamp.width, IntWidth::U64);
    let active = union(&model, "ActiveFileResult");
    assert_eq!(
        active.tagging,
        Tagging::Internal {
            tag: "active".into()
        }
    );
    assert_eq!(active.variants[0].payload, Payload::Unit);
    let errors = record(&model, "WorkspaceErrorsResult");
    assert!(matches!(
        field(&errors.fields, "bySource").ty,
        TypeExpr::Map(_)
    ));
    let diagnostics = record(&model, "GetDiagnosticsParams");
    assert_eq!(
        diagnostics.fields.len(),
        2,
        "the at-least-one-of allOf is ignored"
    );
}

#[test]
fn hand_written_nullable_anyof_and_type_lists() {
    let model = model(&json!({
        "$defs": {
            "Thing": {
                "type": "object",
                "properties": {
                    "a": { "anyOf": [{ "type": "string" }, { "type": "null" }] },
                    "b": { "type": ["integer", "null"], "minimum": 0, "maximum": 255 },
                    "c": { "oneOf": [{ "$ref": "#/$defs/Other" }, { "type": "null" }] },
                    "d": { "type": ["string", "integer"] }
                },
                "required": ["a"],
                "additionalProperties": false
            },
            "Other": { "type": "string", "format": "uuid" }
        }
    }));
    let thing = record(&model, "Thing");
    assert_eq!(thing.additional, Additional::Forbidden);
    assert_eq!(
        field(&thing.fields, "a").presence(),
        Presence::RequiredNullable
    );
    let b = field(&thing.fields, "b");
    assert_eq!(b.presence(), Presence::OptionalNullable);
    let TypeExpr::Integer(int) = b.ty.non_null() else {
        panic!("integer")
    };
    assert_eq!(int.width, IntWidth::U8, "width from minimum/maximum");
    assert_eq!(
        field(&thing.fields, "c").ty,
        TypeExpr::Ref("Other".into()).nullable()
    );
    assert_eq!(field(&thing.fields, "d").ty, TypeExpr::Ref("ThingD".into()));
    let d = union(&model, "ThingD");
    assert_eq!(d.tagging, Tagging::Untagged);
    assert_eq!(d.variants.len(), 2);
    assert_eq!(
        kind(&model, "Other"),
        &TypeKind::Alias(TypeExpr::String(StringType {
            format: Some("uuid".into())
        }))
    );
    assert_eq!(
        model.get("ThingD").unwrap().origin,
        Origin::Inline {
            parent: "Thing".into()
        }
    );
}

#[test]
fn hand_written_mixed_enum_and_const() {
    let model = model(&json!({
        "$defs": {
            "Mixed": { "enum": ["a", 1, true, null] },
            "One": { "const": 42 },
            "Strings": { "enum": ["x", "y"] }
        }
    }));
    let TypeKind::Alias(mixed) = kind(&model, "Mixed") else {
        panic!("nullable enum is an alias of a nullable hoisted enum")
    };
    assert!(mixed.is_nullable());
    let TypeExpr::Ref(inner) = mixed.non_null() else {
        panic!("ref")
    };
    let TypeKind::Enum(values) = kind(&model, inner) else {
        panic!("enum")
    };
    assert!(!values.is_string());
    assert_eq!(values.values.len(), 3);
    assert_eq!(
        kind(&model, "One"),
        &TypeKind::Alias(TypeExpr::Literal(Literal::Number(42.into())))
    );
    let TypeKind::Enum(strings) = kind(&model, "Strings") else {
        panic!("enum")
    };
    assert!(strings.is_string());
}

/// Found by generated vectors of stylelint's schema, where every language took `{}` for
/// `{"type": "boolean", "enum": [true, []]}` (the array value made the enum any JSON):
/// a value of a kind `type` excludes is never valid, so it is not one of the values.
#[test]
fn enum_values_of_a_kind_type_excludes_are_not_values() {
    let model = model(&json!({
        "$defs": {
            "Flag": { "type": "boolean", "enum": [true, []] },
            "Count": { "type": "integer", "enum": [1, 1.5, 2.0, "x"] },
            "Open": { "type": ["boolean", "object"], "enum": [true, {}] },
            "None": { "type": "integer", "enum": [{}] }
        }
    }));
    assert_eq!(
        kind(&model, "Flag"),
        &TypeKind::Alias(TypeExpr::Literal(Literal::Bool(true)))
    );
    let TypeKind::Enum(count) = kind(&model, "Count") else {
        panic!("Count: {:?}", kind(&model, "Count"))
    };
    let values: Vec<String> = count
        .values
        .iter()
        .map(|v| format!("{:?}", v.value))
        .collect();
    assert_eq!(values, ["Number(Number(1))", "Number(Number(2.0))"]);
    // An object the `type` allows is still a value: the enum stays any JSON, warned.
    assert_eq!(kind(&model, "Open"), &TypeKind::Alias(TypeExpr::Any));
    // No value of the kind: no value is valid, which no type says; read as written
    // (any JSON, warned), never as a type that takes some value (`null`).
    assert_eq!(kind(&model, "None"), &TypeKind::Alias(TypeExpr::Any));
    let warned: Vec<&str> = model.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(warned, ["/$defs/Open/enum/1", "/$defs/None/enum/0"]);
}

#[test]
fn ref_chains_and_recursion() {
    let model = model(&json!({
        "$defs": {
            "A": { "$ref": "#/$defs/B" },
            "B": { "$ref": "#/$defs/Tree" },
            "Tree": {
                "type": "object",
                "properties": {
                    "children": { "type": "array", "items": { "$ref": "#/$defs/Tree" } },
                    "parent": { "anyOf": [{ "$ref": "#/$defs/Tree" }, { "type": "null" }] }
                },
                "required": ["children"]
            }
        }
    }));
    assert_eq!(
        kind(&model, "A"),
        &TypeKind::Alias(TypeExpr::Ref("B".into()))
    );
    assert_eq!(model.resolve("A").unwrap().name, "Tree");
    let tree = record(&model, "Tree");
    assert_eq!(
        field(&tree.fields, "children").ty,
        TypeExpr::Array(Box::new(TypeExpr::Ref("Tree".into())))
    );
}

#[test]
fn all_of_inheritance_merges_fields() {
    let model = model(&json!({
        "$defs": {
            "Base": {
                "type": "object",
                "properties": { "id": { "type": "string" } },
                "required": ["id"]
            },
            "Derived": {
                "allOf": [
                    { "$ref": "#/$defs/Base" },
                    { "type": "object", "properties": { "extra": { "type": "boolean" } } },
                    { "required": ["extra"] }
                ]
            }
        }
    }));
    let derived = record(&model, "Derived");
    let names: Vec<&str> = derived.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["id", "extra"]);
    assert!(field(&derived.fields, "id").required);
}

/// Issue 38, item 1 (found by generated vectors of SchemaStore's `launchsettings` and
/// `servicehub.config`, which every language accepted without a required key): a key
/// `required` names holds wherever the property is declared, in an `allOf` part or
/// nowhere, and an `allOf` member that only requires keys is read with the object's own.
#[test]
fn required_keys_hold_wherever_the_property_is_declared() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Root",
        "type": "object",
        "properties": { "a": { "type": "string" } },
        "required": ["a", "hosts"],
        "definitions": {
            "Content": {
                "type": "object",
                "properties": { "commandName": { "type": "string" }, "x": { "type": "integer" } }
            },
            "Profile": {
                "type": "object",
                "allOf": [{ "$ref": "#/definitions/Content" }],
                "required": ["commandName"]
            },
            "Derived": {
                "allOf": [
                    { "$ref": "#/definitions/Content" },
                    { "type": "object", "properties": { "extra": { "type": "boolean" } } },
                    { "required": ["extra", "x"] }
                ]
            },
            "Typed": {
                "type": "object",
                "additionalProperties": { "type": "string" },
                "required": ["k"]
            },
            "Closed": {
                "type": "object",
                "properties": { "a": {} },
                "additionalProperties": false,
                "required": ["b"]
            }
        }
    }));
    let required = |name: &str| -> Vec<(String, TypeExpr)> {
        let fields = &record(&model, name).fields;
        let required = fields.iter().filter(|f| f.required);
        required.map(|f| (f.name.clone(), f.ty.clone())).collect()
    };
    let string = TypeExpr::String(StringType { format: None });
    let boolean = TypeExpr::Bool;
    assert_eq!(
        required("Root"),
        [
            ("a".into(), string.clone()),
            ("hosts".into(), TypeExpr::Any)
        ]
    );
    assert_eq!(
        required("Profile"),
        [("commandName".into(), string.clone())]
    );
    assert!(!field(&record(&model, "Profile").fields, "x").required);
    assert!(!field(&record(&model, "Content").fields, "commandName").required);
    let derived: Vec<String> = required("Derived").into_iter().map(|(n, _)| n).collect();
    assert_eq!(derived, ["x", "extra"]);
    assert_eq!(
        field(&record(&model, "Derived").fields, "extra").ty,
        boolean
    );
    assert_eq!(required("Typed"), [("k".into(), string)]);
    assert!(
        record(&model, "Closed")
            .fields
            .iter()
            .all(|f| f.name == "a")
    );
    let warned: Vec<&str> = model.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(
        warned,
        ["/definitions/Closed/required/0"],
        "{:?}",
        model.warnings
    );
}

/// A warning about what the generated types refuse beyond the schema (an object schema
/// without `type`) or leave out as documentation (a `default` of another type) lets no
/// invalid value through, so it excuses no fault below it: the vector generator marks a
/// value built as valid that the schema refuses `unenforced` only where a warning
/// reaching below covers the failing keyword. Both warnings reached below, which excused
/// every fault under such an object (found on stylelint's schema, whose rules are all
/// objects without `type`: a language that rightly refused a mended pair of enum values
/// was reported as differing).
#[test]
fn warnings_that_let_nothing_through_reach_nothing() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "properties": { "port": { "type": "integer", "default": "none" } }
    }));
    let reaches: Vec<(&str, Reach)> = model
        .warnings
        .iter()
        .map(|w| (w.pointer.as_str(), w.reach))
        .collect();
    assert_eq!(reaches.len(), 2, "{:?}", model.warnings);
    for (pointer, reach) in reaches {
        assert_ne!(reach, Reach::Below, "{pointer}: {:?}", model.warnings);
        assert_ne!(reach, Reach::Keyword, "{pointer}: {:?}", model.warnings);
    }
}

/// A warning names the keyword as the author wrote it: the model reads an older draft
/// in the 2020-12 spelling (`dependencies` as `dependentRequired`/`dependentSchemas`,
/// an `items` array as `prefixItems` and `additionalItems` as `items`), but a warning at
/// `/dependentSchemas` points at nothing in the document, and the conformance kit
/// matches warnings to the validator's keyword locations in the document as written.
#[test]
fn warnings_name_a_rewritten_keyword_as_written() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "string"},
            "pair": {
                "type": "array",
                "items": [{"type": "string"}],
                "additionalItems": {"type": "string", "pattern": "^x"}
            }
        },
        "dependencies": {"a": ["b"], "b": {"required": ["a"]}}
    }));
    let warned: Vec<(&str, &str)> = model
        .warnings
        .iter()
        .map(|w| (w.pointer.as_str(), w.message.as_str()))
        .collect();
    for pointer in ["/dependencies", "/properties/pair/additionalItems/pattern"] {
        assert!(
            warned.iter().any(|(p, _)| *p == pointer),
            "no warning at {pointer}: {warned:?}"
        );
    }
    assert!(
        warned
            .iter()
            .all(|(p, m)| !p.contains("dependent") && !m.starts_with("`dependent")),
        "{warned:?}"
    );
}

/// A tuple whose length varies is typed as an array of any JSON, so its length and the
/// schema of the items after its positions are not enforced either, and each is warned
/// about where it is written (found on tslint's schema: `[true]` for a rule of `minItems:
/// 2` was refused by the validator and taken by every language, unwarned, because a
/// `minItems` equal to the positions' count was taken for a closed tuple's length).
#[test]
fn an_open_tuple_warns_about_its_length_and_what_follows_its_positions() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "rule": {
                "type": "array",
                "minItems": 2,
                "items": [{"type": "boolean"}, {"type": "string"}],
                "additionalItems": {"type": "integer"}
            },
            "pair": {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "items": [{"type": "boolean"}, {"type": "string"}]
            }
        }
    }));
    let warned: Vec<&str> = model.warnings.iter().map(|w| w.pointer.as_str()).collect();
    for pointer in [
        "/properties/rule/items",
        "/properties/rule/minItems",
        "/properties/rule/additionalItems",
    ] {
        assert!(
            warned.contains(&pointer),
            "no warning at {pointer}: {warned:?}"
        );
    }
    // A closed tuple is its positions: nothing to warn about.
    assert!(
        warned.iter().all(|p| !p.starts_with("/properties/pair")),
        "{warned:?}"
    );
}

/// The properties beside an untagged union's inline alternatives hold on each of them
/// (found by the ASP.NET `debugsettings` schema's vectors: a profile without its
/// required `name` was taken by every language). They were pushed down only after the
/// inline alternatives had become named records the model could not yet look up, so
/// they were dropped with a warning.
#[test]
fn properties_beside_inline_alternatives_hold_on_each() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Profile": {
                "type": "object",
                "required": ["name"],
                "allOf": [{ "$ref": "#/definitions/Content" }],
                "anyOf": [
                    { "properties": { "path": { "type": "string" } }, "not": { "required": ["command"] } },
                    { "properties": { "command": { "type": "string" } }, "not": { "required": ["path"] } }
                ]
            },
            "Content": { "type": "object", "properties": { "name": { "type": "string" } } }
        }
    }));
    let profile = union(&model, "Profile");
    assert_eq!(profile.variants.len(), 2);
    for variant in &profile.variants {
        let Payload::Type(TypeExpr::Ref(name)) = &variant.payload else {
            panic!("{variant:?}")
        };
        let name = field(&record(&model, name).fields, "name");
        assert!(name.required, "{variant:?}");
    }
    let lost = "the properties beside this union's alternatives are not enforced";
    assert!(
        !model.warnings.iter().any(|w| w.message.starts_with(lost)),
        "{:?}",
        model.warnings
    );
}

/// Issue 38, item 1: a property an `allOf` member describes again must satisfy both
/// schemas; the narrower is its type, and a union of such messages is tagged by the
/// constant they pin.
#[test]
fn all_of_refinements_narrow_inherited_properties() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": { "message": { "$ref": "#/definitions/Message" } },
        "definitions": {
            "Base": {
                "type": "object",
                "properties": {
                    "kind": { "type": "string" },
                    "body": {},
                    "count": { "type": "integer" },
                    "arguments": { "type": ["array", "boolean", "integer", "null", "number", "object", "string"] },
                    "level": { "enum": ["low", "mid", "high"] },
                    "other": { "type": "integer" }
                },
                "required": ["kind"]
            },
            "Derived": {
                "allOf": [
                    { "$ref": "#/definitions/Base" },
                    {
                        "type": "object",
                        "properties": {
                            "kind": { "enum": ["derived"] },
                            "body": { "type": "object", "properties": { "n": { "type": "integer" } }, "required": ["n"] },
                            "count": { "type": "integer", "minimum": 0, "maximum": 9 },
                            "arguments": { "$ref": "#/definitions/Args" },
                            "level": { "enum": ["low", "mid"] },
                            "other": { "type": "string" }
                        },
                        "required": ["body"]
                    }
                ]
            },
            "Second": {
                "allOf": [
                    { "$ref": "#/definitions/Base" },
                    { "type": "object", "properties": { "kind": { "const": "second" } } }
                ]
            },
            "Args": { "type": "object", "properties": { "flag": { "type": "boolean" } } },
            "Message": {
                "oneOf": [{ "$ref": "#/definitions/Derived" }, { "$ref": "#/definitions/Second" }]
            }
        }
    }));
    let derived = record(&model, "Derived");
    let ty = |name: &str| field(&derived.fields, name).ty.clone();
    assert_eq!(
        ty("kind"),
        TypeExpr::Literal(Literal::String("derived".into()))
    );
    assert_eq!(ty("body"), TypeExpr::Ref("DerivedBody".into()));
    assert_eq!(ty("arguments"), TypeExpr::Ref("Args".into()));
    let TypeExpr::Integer(count) = ty("count") else {
        panic!("count: {:?}", ty("count"));
    };
    assert_eq!((count.minimum, count.maximum), (Some(0), Some(9)));
    let TypeExpr::Ref(level) = ty("level") else {
        panic!("level: {:?}", ty("level"));
    };
    let TypeKind::Enum(level) = kind(&model, &level) else {
        panic!("{level} is not an enum");
    };
    assert_eq!(level.values.len(), 2);
    // No type is both an integer and a string: the later schema is kept, and said so.
    assert_eq!(ty("other"), TypeExpr::String(StringType { format: None }));
    let warned: Vec<&str> = model.warnings.iter().map(|w| w.pointer.as_str()).collect();
    assert_eq!(
        warned,
        ["/definitions/Derived/allOf/1/properties/other"],
        "{:?}",
        model.warnings
    );
    // A property that may be any JSON value (every `type` listed) is `Any`.
    assert_eq!(
        field(&record(&model, "Base").fields, "arguments").ty,
        TypeExpr::Any
    );
    let message = union(&model, "Message");
    assert_eq!(message.tagging, Tagging::Internal { tag: "kind".into() });
}

/// Issue 38, item 16: names say what a type is, not in which order it was met.
#[test]
fn alike_alternatives_and_same_named_schemas_get_distinct_meaningful_names() {
    let model = model(&json!({
        "type": "object",
        "properties": {
            "command": {
                "oneOf": [
                    { "type": "string" },
                    { "type": "object", "properties": { "ps": { "type": "string" } }, "additionalProperties": false },
                    { "type": "object", "properties": { "sh": { "type": "string" } }, "additionalProperties": false }
                ]
            },
            "allow": { "type": "array", "items": { "type": "object", "properties": { "name": { "type": "string", "minLength": 1 } } } },
            "ignore": { "type": "array", "items": { "type": "object", "properties": { "name": { "type": "string", "maxLength": 9 } } } },
            "a": { "$ref": "#/properties/allow/items/properties/name" },
            "b": { "$ref": "#/properties/ignore/items/properties/name" }
        }
    }));
    let command = union(&model, "TestCommand");
    let names: Vec<&str> = command.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["String", "Ps", "Sh"]);
    assert!(model.get("TestCommandPs").is_some(), "{}", outline(&model));
    assert!(model.get("name").is_some(), "{}", outline(&model));
    assert!(model.get("IgnoreName").is_some(), "{}", outline(&model));
}

/// Two types that contain themselves, one inherited and one described again: comparing
/// them must end (it overflowed the stack), with the warning for a pair no type combines.
#[test]
fn refining_a_self_containing_type_with_another_ends() {
    let model = model(&json!({
        "type": "object",
        "properties": { "d": { "$ref": "#/definitions/D" } },
        "definitions": {
            "A": { "type": "array", "items": { "$ref": "#/definitions/A" } },
            "B": { "type": "array", "items": { "$ref": "#/definitions/B" } },
            "Base": { "type": "object", "properties": { "x": { "$ref": "#/definitions/A" } } },
            "D": {
                "allOf": [
                    { "$ref": "#/definitions/Base" },
                    { "type": "object", "properties": { "x": { "$ref": "#/definitions/B" } } }
                ]
            }
        }
    }));
    assert_eq!(
        field(&record(&model, "D").fields, "x").ty,
        TypeExpr::Ref("B".into())
    );
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.pointer == "/definitions/D/allOf/1/properties/x"),
        "{:?}",
        model.warnings
    );
}

#[test]
fn external_tagging_and_tuples() {
    // The shapes schemars emits for a default (externally tagged) enum and a tuple.
    let model = model(&json!({
        "$defs": {
            "Shape": {
                "oneOf": [
                    { "type": "string", "enum": ["Empty", "Point"] },
                    {
                        "type": "object",
                        "properties": { "Circle": { "type": "number", "format": "double" } },
                        "required": ["Circle"],
                        "additionalProperties": false
                    },
                    {
                        "type": "object",
                        "properties": {
                            "Rect": {
                                "type": "array",
                                "prefixItems": [{ "type": "number" }, { "type": "number" }],
                                "minItems": 2,
                                "maxItems": 2
                            }
                        },
                        "required": ["Rect"],
                        "additionalProperties": false
                    }
                ]
            }
        }
    }));
    let shape = union(&model, "Shape");
    assert_eq!(shape.tagging, Tagging::External);
    let names: Vec<&str> = shape.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Empty", "Point", "Circle", "Rect"]);
    assert_eq!(shape.variants[0].payload, Payload::Unit);
    let Payload::Type(TypeExpr::Tuple(items)) = &shape.variants[3].payload else {
        panic!("tuple payload: {:?}", shape.variants[3].payload);
    };
    assert_eq!(items.len(), 2);
}

#[test]
fn tag_inside_referenced_records() {
    // OpenAPI style: each variant is a `$ref` whose record holds the constant tag.
    let model = model(&json!({
        "$defs": {
            "Pet": { "oneOf": [{ "$ref": "#/$defs/Cat" }, { "$ref": "#/$defs/Dog" }] },
            "Cat": {
                "type": "object",
                "properties": { "kind": { "const": "cat" }, "lives": { "type": "integer" } },
                "required": ["kind", "lives"]
            },
            "Dog": {
                "type": "object",
                "properties": { "kind": { "const": "dog" } },
                "required": ["kind"]
            }
        }
    }));
    let pet = union(&model, "Pet");
    assert_eq!(pet.tagging, Tagging::Internal { tag: "kind".into() });
    assert_eq!(pet.variants[0].name, "cat");
    assert_eq!(
        pet.variants[0].payload,
        Payload::Type(TypeExpr::Ref("Cat".into()))
    );
}

#[test]
fn root_type_named_from_title() {
    let model = model(&json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "node config",
        "type": "object",
        "properties": {
            "next": { "$ref": "#" },
            "labels": { "type": "object", "additionalProperties": { "type": "string" } }
        }
    }));
    assert_eq!(model.roots, ["NodeConfig"]);
    let root = record(&model, "NodeConfig");
    assert_eq!(
        field(&root.fields, "next").ty,
        TypeExpr::Ref("NodeConfig".into())
    );
    assert_eq!(
        field(&root.fields, "labels").ty,
        TypeExpr::Map(Box::new(TypeExpr::String(StringType { format: None })))
    );
}

#[test]
fn hoisted_names_do_not_collide() {
    let model = model(&json!({
        "$defs": {
            "A": {
                "type": "object",
                "properties": {
                    "b": { "type": "object", "properties": { "x": { "type": "string" } } }
                }
            },
            "AB": { "type": "string" }
        }
    }));
    assert_eq!(
        field(&record(&model, "A").fields, "b").ty,
        TypeExpr::Ref("AB2".into())
    );
    assert!(matches!(kind(&model, "AB"), TypeKind::Alias(_)));
}

#[test]
fn errors_name_file_and_pointer() {
    let remote = error(&json!({
        "$defs": { "A": { "type": "object", "properties": { "x": { "$ref": "https://example.com/s.json" } } } }
    }));
    assert!(
        remote.starts_with(
            "test.json:/$defs/A/properties/x/$ref: `$ref` \"https://example.com/s.json\" names a document that is not available"
        ),
        "{remote}"
    );
    let missing = error(&json!({ "$defs": { "A": { "$ref": "#/$defs/Nope" } } }));
    assert!(
        missing.starts_with("test.json:/$defs/A/$ref: "),
        "{missing}"
    );
    let cycle = error(&json!({
        "$defs": {
            "A": { "$ref": "#/$defs/B" },
            "B": { "anyOf": [{ "$ref": "#/$defs/A" }, { "type": "null" }] }
        }
    }));
    assert!(cycle.contains("circular type alias"), "{cycle}");
    let inherit = error(&json!({
        "$defs": { "A": { "allOf": [{ "$ref": "#/$defs/A" }, { "properties": { "x": true } }] } }
    }));
    assert!(inherit.contains("circular type alias A → A"), "{inherit}");
    let pointer = error(&json!({ "$defs": { "A": { "$ref": "#/properties/x" } } }));
    assert!(pointer.contains("points at nothing"), "{pointer}");
    let dynamic = error(&json!({ "$defs": { "A": { "$dynamicRef": "#meta" } } }));
    assert!(
        dynamic.starts_with("test.json:/$defs/A/$dynamicRef:"),
        "{dynamic}"
    );
    let never = error(&json!({ "$defs": { "A": false } }));
    assert!(never.starts_with("test.json:/$defs/A: "), "{never}");
    let draft = error(&json!({ "$schema": "http://json-schema.org/draft-03/schema#" }));
    assert!(
        draft.starts_with("test.json:/$schema: unsupported"),
        "{draft}"
    );
    let tilde = error(&json!({ "$defs": { "a/b~c": { "type": "wat" } } }));
    assert!(
        tilde.starts_with("test.json:/$defs/a~1b~0c/type: "),
        "{tilde}"
    );
}

/// Issue 38, item 9: the decoders take a `oneOf`'s first alternative that fits, so a
/// value that fits two is accepted where the schema refuses it. The model warns at the
/// `oneOf` unless its alternatives are provably apart (types, values, a tag, a key one
/// requires and the other's closed object lacks).
#[test]
fn a_one_of_whose_alternatives_may_meet_is_warned_about() {
    let model = parse_str(
        "one-of.json",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Msg",
            "type": "object",
            "properties": {
                "link": {"oneOf": [
                    {"type": "string"},
                    {"type": "object", "properties": {"href": {"type": "string"}}}
                ]},
                "size": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
                "shape": {"oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                    {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}
                ]},
                "either": {"oneOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}},
                    {"type": "object", "properties": {"b": {"type": "string"}}}
                ]}
            }
        })
        .to_string(),
    )
    .unwrap();
    let warned: Vec<&str> = model
        .warnings
        .iter()
        .filter(|w| w.message.contains("\"exactly one\""))
        .map(|w| w.pointer.as_str())
        .collect();
    assert_eq!(
        warned,
        ["/properties/size/oneOf", "/properties/either/oneOf"],
        "{:?}",
        model.warnings
    );
}

#[test]
fn hostile_deep_nesting_is_an_error() {
    let mut schema = json!({ "type": "string" });
    for _ in 0..500 {
        schema = json!({ "type": "array", "items": schema });
    }
    let message = error(&json!({ "$defs": { "Deep": schema } }));
    assert!(message.contains("nested deeper than"), "{message}");
}

/// A `$ref` beside other keywords that leads back to itself (77 bytes that overflowed
/// the stack of every generator): a located error.
#[test]
fn a_ref_beside_keywords_that_leads_back_to_itself_is_an_error() {
    let message = error(&json!({
        "properties": { "a": { "additionalProperties": {}, "$ref": "#/properties/a" } }
    }));
    assert!(message.contains("alias of itself"), "{message}");
}

#[test]
fn invalid_json_is_an_error() {
    let err = parse_str("bad.json", "{\"$defs\": ").unwrap_err();
    assert_eq!(err.file, "bad.json");
    assert!(err.message.starts_with("invalid JSON"), "{err}");
}

#[test]
fn large_schema_parses() {
    let mut defs = serde_json::Map::new();
    for i in 0..3000 {
        defs.insert(
            format!("T{i}"),
            json!({
                "type": "object",
                "properties": {
                    "next": { "$ref": format!("#/$defs/T{}", (i + 1) % 3000) },
                    "tag": { "enum": ["a", "b"] }
                }
            }),
        );
    }
    let model = model(&json!({ "$defs": defs }));
    assert_eq!(
        model.types.len(),
        6000,
        "3000 records plus 3000 hoisted enums"
    );
}

#[test]
fn cross_field_constraints_p3_p5() {
    let dialectic = ours("dialectic");
    assert_eq!(
        record(&dialectic, "PresentReviewParams").constraints,
        vec![Constraint::RequiredWhen {
            field: "section".into(),
            when: "mode".into(),
            values: vec![
                Literal::String("update-section".into()),
                Literal::String("UpdateSection".into()),
            ],
        }]
    );
    let ck3lens = ours("ck3lens");
    assert_eq!(
        record(&ck3lens, "GetDiagnosticsParams").constraints,
        vec![Constraint::AtLeastOneOf(vec!["path".into(), "uri".into()])]
    );
    // Alias rules are not constraints: the aliases cover them.
    let symposium = ours("symposium");
    assert!(
        record(&symposium, "PresentWalkthroughPayload")
            .constraints
            .is_empty()
    );
    // Hand-written: `const` condition, several fields required at once.
    let doc = json!({
        "$defs": {"A": {
            "type": "object",
            "properties": {"k": {"type": "string"}, "x": {"type": "string"}, "y": {"type": "string"}},
            "allOf": [{"if": {"properties": {"k": {"const": "on"}}, "required": ["k"]},
                       "then": {"required": ["x", "y"]}}]
        }}
    });
    let m = model(&doc);
    let on = vec![Literal::String("on".into())];
    assert_eq!(
        record(&m, "A").constraints,
        vec![
            Constraint::RequiredWhen {
                field: "x".into(),
                when: "k".into(),
                values: on.clone()
            },
            Constraint::RequiredWhen {
                field: "y".into(),
                when: "k".into(),
                values: on
            },
        ]
    );
}

/// Every keyword of the draft 2020-12 vocabularies, each used once on a property: the
/// model either represents it (listed with what represents it) or warns at its pointer.
#[test]
fn every_keyword_is_represented_or_warned() {
    // keyword → a property schema using it.
    let uses: &[(&str, Value)] = &[
        ("$ref", json!({ "$ref": "#/$defs/Other" })),
        ("$anchor", json!({ "$anchor": "here", "type": "string" })),
        ("$dynamicRef", json!({ "$dynamicRef": "#/$defs/Other" })),
        (
            "$dynamicAnchor",
            json!({ "$dynamicAnchor": "node", "type": "string" }),
        ),
        ("$comment", json!({ "$comment": "c", "type": "string" })),
        (
            "$defs",
            json!({ "$defs": { "X": { "type": "string" } }, "type": "string" }),
        ),
        (
            "prefixItems",
            json!({ "prefixItems": [{ "type": "string" }], "items": false, "minItems": 1 }),
        ),
        (
            "items",
            json!({ "type": "array", "items": { "type": "string" } }),
        ),
        (
            "contains",
            json!({ "type": "array", "contains": { "type": "string" } }),
        ),
        (
            "additionalProperties",
            json!({ "type": "object", "additionalProperties": { "type": "integer" } }),
        ),
        (
            "properties",
            json!({ "type": "object", "properties": { "a": { "type": "string" } } }),
        ),
        (
            "patternProperties",
            json!({ "type": "object", "properties": { "a": true }, "patternProperties": { "^x": { "type": "string" } } }),
        ),
        (
            "dependentSchemas",
            json!({ "type": "object", "dependentSchemas": { "a": { "required": ["b"] } } }),
        ),
        (
            "propertyNames",
            json!({ "type": "object", "propertyNames": { "maxLength": 3 } }),
        ),
        (
            "if",
            json!({ "type": "object", "if": { "required": ["a"] }, "then": { "required": ["b"] } }),
        ),
        (
            "then",
            json!({ "type": "object", "if": { "required": ["a"] }, "then": { "required": ["b"] }, "else": { "required": ["c"] } }),
        ),
        (
            "else",
            json!({ "type": "object", "if": { "required": ["a"] }, "else": { "required": ["c"] } }),
        ),
        (
            "allOf",
            json!({ "allOf": [{ "type": "object", "properties": { "a": { "type": "string" } } }] }),
        ),
        (
            "anyOf",
            json!({ "anyOf": [{ "type": "string" }, { "type": "integer" }] }),
        ),
        (
            "oneOf",
            json!({ "oneOf": [{ "type": "string" }, { "type": "boolean" }] }),
        ),
        ("not", json!({ "type": "string", "not": { "const": "x" } })),
        (
            "unevaluatedItems",
            json!({ "type": "array", "unevaluatedItems": false }),
        ),
        (
            "unevaluatedProperties",
            json!({ "type": "object", "properties": { "a": true }, "unevaluatedProperties": false }),
        ),
        ("type", json!({ "type": "boolean" })),
        ("const", json!({ "const": "fixed" })),
        ("enum", json!({ "enum": ["a", "b"] })),
        ("multipleOf", json!({ "type": "number", "multipleOf": 0.5 })),
        ("maximum", json!({ "type": "number", "maximum": 5 })),
        (
            "exclusiveMaximum",
            json!({ "type": "number", "exclusiveMaximum": 5 }),
        ),
        ("minimum", json!({ "type": "number", "minimum": 1 })),
        (
            "exclusiveMinimum",
            json!({ "type": "number", "exclusiveMinimum": 1 }),
        ),
        ("maxLength", json!({ "type": "string", "maxLength": 5 })),
        ("minLength", json!({ "type": "string", "minLength": 1 })),
        ("pattern", json!({ "type": "string", "pattern": "^a" })),
        ("maxItems", json!({ "type": "array", "maxItems": 2 })),
        ("minItems", json!({ "type": "array", "minItems": 1 })),
        (
            "uniqueItems",
            json!({ "type": "array", "uniqueItems": true }),
        ),
        (
            "maxContains",
            json!({ "type": "array", "contains": true, "maxContains": 2 }),
        ),
        (
            "minContains",
            json!({ "type": "array", "contains": true, "minContains": 2 }),
        ),
        (
            "maxProperties",
            json!({ "type": "object", "maxProperties": 2 }),
        ),
        (
            "minProperties",
            json!({ "type": "object", "minProperties": 1 }),
        ),
        (
            "required",
            json!({ "type": "object", "properties": { "a": true }, "required": ["a"] }),
        ),
        (
            "dependentRequired",
            json!({ "type": "object", "dependentRequired": { "a": ["b"] } }),
        ),
        ("title", json!({ "title": "T", "type": "string" })),
        (
            "description",
            json!({ "description": "D", "type": "string" }),
        ),
        ("default", json!({ "type": "string", "default": "d" })),
        (
            "deprecated",
            json!({ "type": "string", "deprecated": true }),
        ),
        ("readOnly", json!({ "type": "string", "readOnly": true })),
        ("writeOnly", json!({ "type": "string", "writeOnly": true })),
        ("examples", json!({ "type": "string", "examples": ["e"] })),
        ("format", json!({ "type": "string", "format": "date-time" })),
        (
            "contentEncoding",
            json!({ "type": "string", "contentEncoding": "base64" }),
        ),
        (
            "contentMediaType",
            json!({ "type": "string", "contentMediaType": "text/html" }),
        ),
        (
            "contentSchema",
            json!({ "type": "string", "contentMediaType": "application/json", "contentSchema": { "type": "object" } }),
        ),
    ];
    // What represents each keyword the model does not warn about.
    let represented: &[(&str, &str)] = &[
        ("$ref", "a reference to the named type"),
        ("$anchor", "a `$ref` target"),
        ("$dynamicRef", "a reference (static scope)"),
        ("$dynamicAnchor", "a `$ref` target"),
        ("$comment", "a comment: nothing to enforce"),
        ("$defs", "named types"),
        ("prefixItems", "a tuple"),
        ("items", "the array's item type"),
        ("additionalProperties", "the record's other keys"),
        ("properties", "fields"),
        ("then", "warned with its `if`"),
        ("else", "warned with its `if`"),
        ("allOf", "merged fields"),
        ("anyOf", "a union"),
        ("oneOf", "a union"),
        ("unevaluatedProperties", "read as `additionalProperties`"),
        ("type", "the type"),
        ("const", "a literal type"),
        ("enum", "an enum type"),
        ("required", "required fields"),
        ("title", "docs"),
        ("description", "docs"),
        ("default", "the field's default"),
        ("deprecated", "docs"),
        ("readOnly", "an annotation: nothing to enforce"),
        ("writeOnly", "an annotation: nothing to enforce"),
        ("examples", "an annotation: nothing to enforce"),
        ("format", "the documented type mapping"),
        ("contentEncoding", "an annotation in 2020-12"),
        ("contentMediaType", "an annotation in 2020-12"),
    ];
    let vocabulary = [
        "$schema",
        "$id",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "$comment",
        "$defs",
        "prefixItems",
        "items",
        "contains",
        "additionalProperties",
        "properties",
        "patternProperties",
        "dependentSchemas",
        "propertyNames",
        "if",
        "then",
        "else",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "unevaluatedItems",
        "unevaluatedProperties",
        "type",
        "const",
        "enum",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples",
        "format",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    ];
    // `$schema`, `$id` and `$vocabulary` belong to documents (and meta-schemas), not to
    // property schemas; the other tests cover them.
    for keyword in vocabulary {
        if matches!(keyword, "$schema" | "$id" | "$vocabulary") {
            continue;
        }
        let (_, schema) = uses
            .iter()
            .find(|(k, _)| *k == keyword)
            .unwrap_or_else(|| panic!("no use of `{keyword}`"));
        let document = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {
                "Other": { "type": "string" },
                "Holder": { "type": "object", "properties": { "p": schema } }
            }
        });
        let model =
            from_value("test.json", &document).unwrap_or_else(|err| panic!("`{keyword}`: {err}"));
        let warned = model.warnings.iter().any(|w| {
            w.pointer.starts_with("/$defs/Holder/properties/p")
                && (w.message.starts_with(&format!("`{keyword}`"))
                    || w.pointer.ends_with(&format!("/{keyword}")))
        });
        let is_represented = represented.iter().any(|(k, _)| *k == keyword);
        assert!(
            warned || is_represented,
            "`{keyword}` is neither represented nor warned about: {:?}",
            model.warnings
        );
        assert!(
            !(warned && is_represented),
            "`{keyword}` is listed as represented but warned about: {:?}",
            model.warnings
        );
    }
}

/// Spellings other schema readers accept (issue 38): no `$schema` beside draft-07
/// syntax, the versionless "latest" `$schema`, a `$ref` fragment without its leading
/// `/`, and `oneOf` beside `anyOf`. Each is read, with a warning that says how; the
/// validator reads the document the same way.
#[test]
fn peer_spellings_are_read_with_a_warning_and_validated_alike() {
    use symgen::validate::{Outcome, SchemaOptions, Validator};
    let doc = json!({
        "title": "P",
        "type": "object",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                "additionalItems": false, "minItems": 2},
            "label": {"$ref": "#definitions/Label"},
            "size": {"oneOf": [{"type": "string"}, {"type": "integer"}],
                "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}
        },
        "definitions": {"Label": {"type": "string"}}
    });
    let read = model(&doc);
    let warned: Vec<(&str, &str)> = read
        .warnings
        .iter()
        .map(|w| (w.pointer.as_str(), w.message.as_str()))
        .collect();
    let says = |pointer: &str, text: &str| {
        warned
            .iter()
            .any(|(p, m)| *p == pointer && m.contains(text))
    };
    assert!(says("/$schema", "read as draft-07"), "{warned:?}");
    assert!(
        says("/properties/label/$ref", "\"#/definitions/Label\""),
        "{warned:?}"
    );
    assert!(
        says("/properties/size/anyOf", "follow `oneOf`"),
        "{warned:?}"
    );
    let fields = &record(&read, "P").fields;
    assert!(
        matches!(field(fields, "pair").ty.non_null(), TypeExpr::Tuple(items) if items.len() == 2)
    );
    assert_eq!(
        field(fields, "label").ty.non_null(),
        &TypeExpr::Ref("Label".into())
    );

    let validator = Validator::from_schema(doc, SchemaOptions::default()).unwrap();
    let verdict = |text: &str| validator.validate_str(text).outcome;
    assert_eq!(
        verdict(r#"{"pair":["a",1],"label":"x","size":3}"#),
        Outcome::Valid
    );
    assert_eq!(verdict(r#"{"pair":["a","b"]}"#), Outcome::Invalid);
    assert_eq!(verdict(r#"{"pair":["a",1,2]}"#), Outcome::Invalid);
    assert_eq!(verdict(r#"{"label":7}"#), Outcome::Invalid);
    assert_eq!(verdict(r#"{"size":-1}"#), Outcome::Invalid);

    let latest =
        json!({"$schema": "http://json-schema.org/schema#", "title": "L", "type": "string"});
    let latest_model = model(&latest);
    assert!(
        latest_model
            .warnings
            .iter()
            .any(|w| w.pointer == "/$schema" && w.message.contains("read as 2020-12"))
    );
    let validator = Validator::from_schema(latest, SchemaOptions::default()).unwrap();
    assert_eq!(validator.validate_str("7").outcome, Outcome::Invalid);
}

/// Draft-04 defines an integer as a JSON number without a fraction or exponent part, so
/// `1.0` is not one there (from draft-06 on it is), and its validators read `-0` as the
/// float it is spelled as: such an integer is read from an integer literal only, like a
/// Rust integer (found on SchemaStore's draft-04 schemas: prettierrc's `tabWidth: 1.0`,
/// refused by the validator, was taken by every language).
#[test]
fn a_draft_04_integer_is_read_from_an_integer_literal_only() {
    let literal_only = |draft: &str, format: Option<&str>| {
        let mut count = json!({"type": "integer", "minimum": 0});
        if let Some(format) = format {
            count["format"] = json!(format);
        }
        let model = model(&json!({
            "$schema": draft,
            "title": "Msg",
            "type": "object",
            "properties": {"count": count, "list": {"type": "array", "items": count}}
        }));
        let fields = &record(&model, "Msg").fields;
        let TypeExpr::Integer(int) = field(fields, "count").ty.non_null() else {
            panic!("count is not an integer:\n{}", outline(&model));
        };
        let TypeExpr::Array(item) = field(fields, "list").ty.non_null() else {
            panic!("list is not an array:\n{}", outline(&model));
        };
        let TypeExpr::Integer(item) = item.as_ref() else {
            panic!("list's item is not an integer:\n{}", outline(&model));
        };
        assert_eq!(int.literal_only, item.literal_only);
        int.literal_only
    };
    let draft_04 = "http://json-schema.org/draft-04/schema#";
    let draft_07 = "http://json-schema.org/draft-07/schema#";
    let draft_2020 = "https://json-schema.org/draft/2020-12/schema";
    assert!(literal_only(draft_04, None));
    assert!(!literal_only(draft_07, None));
    assert!(!literal_only(draft_2020, None));
    assert!(literal_only(draft_07, Some("uint32")));
    assert!(!literal_only(draft_07, Some("port")));
}

/// A `$ref` to a draft's meta-schema becomes a type of any JSON, with a warning placed
/// at that type (`#meta-schema`), never at the document's root: the conformance kit
/// reads a warning as reaching everything below its location, and one at the root
/// excused every keyword of the document (aio-connector-metadata's `defaultDestination:
/// []`, refused by every language for its enforced `type: object`, was marked as taken
/// by all of them).
#[test]
fn the_meta_schema_warning_is_placed_at_the_meta_schema_not_the_root() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "config": {"$ref": "http://json-schema.org/draft-07/schema#"},
            "n": {"type": "integer"}
        }
    }));
    let at: Vec<&str> = model
        .warnings
        .iter()
        .filter(|w| w.message.contains("meta-schema"))
        .map(|w| w.pointer.as_str())
        .collect();
    assert_eq!(at, ["#meta-schema"]);
}

/// Before 2019-09 a schema with `$ref` is the schema it names: its other keywords are
/// ignored, by the draft and by the validator. The model read them (stale.json's root
/// `$ref` beside `properties`, label-commenter-config's `items: {"$ref", "properties"}`),
/// so the generated types refused `{"pulls": {"exemptLabels": null}}`, which the
/// validator takes (`pulls` is no property of the named schema). Now they are dropped
/// with a warning that excuses nothing; from 2019-09 on they are read.
#[test]
fn keywords_beside_a_ref_are_ignored_before_2019_09() {
    let doc = |draft: &str, defs: &str| {
        json!({
            "$schema": draft,
            "title": "Msg",
            "type": "object",
            "properties": {
                "item": {
                    "$ref": format!("#/{defs}/Base"),
                    "description": "kept",
                    "properties": {"extra": {"type": "string"}},
                    "required": ["extra"]
                }
            },
            defs: {"Base": {"type": "object", "properties": {"n": {"type": "integer"}}}}
        })
    };
    let draft_07 = model(&doc(
        "http://json-schema.org/draft-07/schema#",
        "definitions",
    ));
    let item = field(&record(&draft_07, "Msg").fields, "item");
    assert_eq!(
        item.ty.non_null(),
        &TypeExpr::Ref("Base".into()),
        "{}",
        outline(&draft_07)
    );
    let warned: Vec<(&str, Reach, &str)> = draft_07
        .warnings
        .iter()
        .filter(|w| w.message.contains("beside `$ref` ignored"))
        .map(|w| (w.pointer.as_str(), w.reach, &w.message[..28]))
        .collect();
    let keywords = "`properties`, `required` bes";
    assert_eq!(warned, [("/properties/item", Reach::Nothing, keywords)]);

    let draft_2019 = model(&doc(
        "https://json-schema.org/draft/2019-09/schema",
        "$defs",
    ));
    let item = field(&record(&draft_2019, "Msg").fields, "item");
    assert_ne!(item.ty.non_null(), &TypeExpr::Ref("Base".into()));
    assert!(
        !draft_2019
            .warnings
            .iter()
            .any(|w| w.message.contains("beside `$ref`")),
        "{:?}",
        draft_2019.warnings
    );
}

/// A field whose type is an untagged union admitting `null` only through another
/// named type (lsdlschema's `Boolean: {"$ref": booleanValues}`, `booleanValues =
/// oneOf [{"$ref": nullableBooleanValue}, an array of them]`, `nullableBooleanValue =
/// oneOf [boolean, null]`) admits `null`: the TypeScript decoder read the required
/// field's `null` as the key missing.
#[test]
fn a_field_admits_null_through_a_union_of_references_to_nullable_types() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {"value": {"$ref": "#/definitions/Values"}},
        "required": ["value"],
        "definitions": {
            "Nullable": {"oneOf": [{"type": "boolean"}, {"type": "null"}]},
            "Values": {"oneOf": [
                {"$ref": "#/definitions/Nullable"},
                {"type": "array", "items": {"$ref": "#/definitions/Nullable"}}
            ]}
        }
    }));
    let value = field(&record(&model, "Msg").fields, "value");
    assert!(value.ty.is_nullable(), "{}", outline(&model));
}

/// `allOf: [{oneOf: [A, B]}, {$ref: Shared}]` (lsdlschema's phrasings: each alternative
/// declares `State: {}`, the shared member says what `State` is): every alternative
/// must satisfy the shared member too. The model read the union and dropped the other
/// member without a word, so every language took a `State` the validator refuses.
#[test]
fn a_member_beside_a_union_in_all_of_refines_every_alternative() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {"p": {"$ref": "#/definitions/Phrasing"}},
        "definitions": {
            "Phrasing": {"allOf": [
                {"oneOf": [{"$ref": "#/definitions/A"}, {"$ref": "#/definitions/B"}]},
                {"$ref": "#/definitions/Shared"}
            ]},
            "A": {"type": "object", "properties": {"a": {"type": "string"}, "State": {}},
                  "required": ["a"], "additionalProperties": false},
            "B": {"type": "object", "properties": {"b": {"type": "string"}, "State": {}},
                  "required": ["b"], "additionalProperties": false},
            "Shared": {"type": "object", "properties": {"State": {"enum": ["on", "off"]}}}
        }
    }));
    let phrasing = union(&model, "Phrasing");
    assert_eq!(phrasing.variants.len(), 2, "{}", outline(&model));
    for variant in &phrasing.variants {
        let fields = match &variant.payload {
            Payload::Fields(fields) => fields,
            Payload::Type(TypeExpr::Ref(name)) => &record(&model, name).fields,
            other => panic!("{other:?}\n{}", outline(&model)),
        };
        let state = field(fields, "State");
        assert_ne!(state.ty.non_null(), &TypeExpr::Any, "{}", outline(&model));
    }
}

/// `additionalProperties: false` beside `patternProperties` refuses a key that matches
/// no pattern; the generated types take every key (typed as the patterns' values), so
/// that is warned about at `additionalProperties`, where the validator reports such a
/// key (luaurc's `aliases`: every language took `"a/b~c ☃"`, counted as a closed object
/// left open, though nothing said the types do not hold it).
#[test]
fn a_closed_object_of_patterns_warns_that_other_keys_are_taken() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "aliases": {
                "type": "object",
                "patternProperties": {"^[a-z]+$": {"type": "string"}},
                "additionalProperties": false
            },
            "open": {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "string"}}}
        }
    }));
    let warned: Vec<(&str, Reach)> = model
        .warnings
        .iter()
        .filter(|w| w.message.contains("matches no pattern"))
        .map(|w| (w.pointer.as_str(), w.reach))
        .collect();
    assert_eq!(
        warned,
        [("/properties/aliases/additionalProperties", Reach::Keyword)]
    );
}

/// `unevaluatedProperties: false` beside a `$ref` closes the object the reference
/// describes (yamllint's `{"$ref": "#/$defs/rule", "unevaluatedProperties": false}`):
/// the model kept the bare reference, so every language took a key the schema refuses,
/// and nothing said so.
#[test]
fn unevaluated_properties_beside_a_ref_close_the_referenced_object() {
    let model = model(&json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Msg",
        "type": "object",
        "properties": {
            "rule": {"oneOf": [
                {"type": "boolean"},
                {"$ref": "#/$defs/Rule", "unevaluatedProperties": false}
            ]},
            "open": {"$ref": "#/$defs/Rule"}
        },
        "$defs": {"Rule": {"type": "object", "properties": {"level": {"type": "string"}}}}
    }));
    let msg = record(&model, "Msg");
    assert_eq!(
        field(&msg.fields, "open").ty,
        TypeExpr::Ref("Rule".into()),
        "{}",
        outline(&model)
    );
    let TypeExpr::Ref(rule) = &field(&msg.fields, "rule").ty else {
        panic!("rule: {}", outline(&model));
    };
    let closed = union(&model, rule)
        .variants
        .iter()
        .find_map(|v| match &v.payload {
            Payload::Type(TypeExpr::Ref(name)) if name != "Rule" => Some(record(&model, name)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no closed alternative: {}", outline(&model)));
    assert_eq!(closed.additional, Additional::Forbidden);
    assert!(matches!(
        field(&closed.fields, "level").ty,
        TypeExpr::String(_)
    ));
}

/// `patternProperties` whose values are of another type than `additionalProperties`:
/// the other keys are typed as any JSON, so the schema of `additionalProperties` is not
/// enforced and is warned about where it is written (ava's `extensions`: a key's value
/// `5` was refused by `additionalProperties: {enum: [...]}`, taken by every language,
/// and the warning sat at `patternProperties` only).
#[test]
fn additional_properties_beside_patterns_of_other_types_are_warned_about() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "mixed": {
                "type": "object",
                "patternProperties": {"^js$": {"enum": [true]}},
                "additionalProperties": {"enum": ["commonjs", "module"]}
            },
            "alike": {
                "type": "object",
                "patternProperties": {"^js$": {"type": "string"}},
                "additionalProperties": {"type": "string"}
            }
        }
    }));
    let warned: Vec<(&str, Reach)> = model
        .warnings
        .iter()
        .filter(|w| w.pointer.ends_with("/additionalProperties"))
        .map(|w| (w.pointer.as_str(), w.reach))
        .collect();
    assert_eq!(
        warned,
        [("/properties/mixed/additionalProperties", Reach::Below)]
    );
}

/// A combination typed as one of its parts (tslint's `allOf: [{"$ref": rule}, {items,
/// properties, additionalProperties: false}]`, where `rule` is a union): that part's
/// rules are enforced, so its warning excuses nothing; the other parts' rules are not,
/// and are warned about where they are written. The warning that reached everything
/// below the typed part excused its rules and none of the others'.
#[test]
fn a_combination_typed_as_one_part_warns_about_the_other_parts() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Msg",
        "type": "object",
        "properties": {
            "rule": {"allOf": [
                {"$ref": "#/definitions/Rule"},
                {"items": [{"type": "boolean"}], "properties": {"severity": {}}, "additionalProperties": false}
            ]}
        },
        "definitions": {"Rule": {"type": ["boolean", "array"], "items": {"type": "string"}}}
    }));
    let warned: Vec<(&str, Reach)> = model
        .warnings
        .iter()
        .filter(|w| w.pointer.starts_with("/properties/rule/allOf/"))
        .map(|w| (w.pointer.as_str(), w.reach))
        .collect();
    assert_eq!(
        warned,
        [
            ("/properties/rule/allOf/0", Reach::Nothing),
            ("/properties/rule/allOf/1", Reach::Below)
        ],
        "{:?}",
        model.warnings
    );
}

/// An untagged alternative that says nothing (`{}` in an `anyOf` beside `properties`
/// and `type: object`) is the object of the shared fields, not any JSON: dofigen's root,
/// `{"type": "object", "properties": {...}, "anyOf": [{"oneOf": [...]}, {}]}`, took a
/// number at the root in every language.
#[test]
fn an_empty_alternative_beside_shared_fields_is_their_object() {
    let model = model(&json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Doc",
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "anyOf": [
            {"type": "object", "properties": {"from": {"type": "string"}}, "required": ["from"]},
            {}
        ]
    }));
    let doc = union(&model, "Doc");
    assert!(
        doc.variants
            .iter()
            .all(|v| !matches!(v.payload, Payload::Type(TypeExpr::Any))),
        "{}",
        outline(&model)
    );
    assert_eq!(doc.variants.len(), 2, "{}", outline(&model));
}
