//! Rust/serde constructs that schemars alone maps loosely: each one either maps exactly
//! (the schema accepts what serde accepts, checked against serde itself) or is refused
//! with a located error.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use symgen::Protocol;
use symgen::validate::{Outcome, Validator};

fn document(protocol: &Protocol) -> Value {
    symgen::schema::document(protocol).unwrap_or_else(|err| panic!("{err}"))
}

/// The schema's verdict (through the validator's schema walk) and serde's must agree.
fn agree<T: serde::de::DeserializeOwned>(protocol: &Protocol, message: &Value) -> bool {
    let schema = Validator::for_protocol(protocol).unwrap().schema_only();
    let by_schema = schema.validate_value(message).outcome != Outcome::Invalid;
    let by_serde = symgen::wire::from_str::<T>(&message.to_string()).is_ok();
    assert_eq!(
        by_schema, by_serde,
        "schema and serde disagree on {message}"
    );
    by_serde
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Wide {
    id: u32,
    count: u128,
}

#[test]
fn u128_is_refused_with_its_location() {
    let err = symgen::schema::render(&Protocol::new("wide").root::<Wide>()).unwrap_err();
    assert_eq!(err.file, "wide.schema.json");
    assert_eq!(err.pointer, "/$defs/Wide/properties/count");
    assert!(err.message.starts_with("a 128-bit integer (u128)"), "{err}");
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Measured {
    id: u32,
    samples: Vec<Sample>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Sample {
    ratio: f32,
}

#[test]
fn f32_is_refused_with_its_location() {
    // serde reads 16777217 into an f32 and writes 16777216 back; the peers keep the
    // number (issue 38, item 7).
    let sample: Sample = serde_json::from_str(r#"{"ratio": 16777217}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&sample).unwrap(),
        r#"{"ratio":16777216.0}"#
    );
    let err = symgen::schema::render(&Protocol::new("measured").root::<Measured>()).unwrap_err();
    assert_eq!(err.pointer, "/$defs/Sample/properties/ratio");
    assert!(err.message.starts_with("a 32-bit float (f32)"), "{err}");
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Renamed {
    /// Required, with two legacy spellings.
    #[serde(rename = "userId", alias = "user_id", alias = "uid")]
    user_id: String,
    /// Optional, with one.
    #[serde(default, alias = "nick")]
    nickname: Option<String>,
    nested: Option<Vec<Inner>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Inner {
    #[serde(alias = "colour")]
    pub color: String,
}

#[test]
fn field_aliases_reach_the_schema_with_serdes_presence_rules() {
    let protocol = Protocol::new("renamed").root::<Renamed>();
    let doc = document(&protocol);
    let def = &doc["$defs"]["Renamed"];
    assert_eq!(
        def["properties"]["userId"]["x-symgen-aliases"],
        json!(["uid", "user_id"])
    );
    assert_eq!(def["properties"]["uid"]["x-symgen-alias-of"], "userId");
    assert_eq!(def["properties"]["nick"]["x-symgen-alias-of"], "nickname");
    assert_eq!(
        doc["$defs"]["Inner"]["properties"]["colour"]["x-symgen-alias-of"],
        "color"
    );
    for (message, valid) in [
        (json!({"userId": "a"}), true),
        (json!({"user_id": "a"}), true),
        (json!({"uid": "a", "nick": "n"}), true),
        (json!({"uid": "a", "userId": "b"}), false),
        (json!({"userId": "a", "nick": "n", "nickname": "m"}), false),
        (json!({"nickname": "n"}), false),
        (json!({"userId": "a", "nested": [{"colour": "red"}]}), true),
        (json!({"userId": "a", "nested": [{"colour": 1}]}), false),
    ] {
        assert_eq!(agree::<Renamed>(&protocol, &message), valid, "{message}");
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
enum Event {
    Start {
        at: u32,
    },
    Stop,
    #[serde(other)]
    Other,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Level {
    Low,
    High,
    #[serde(other)]
    Unrecognised,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Log {
    event: Event,
    level: Level,
}

/// A struct with a flattened map decodes through `deserialize_map` and names no
/// fields: the types of its fields are still traced (from the keys its schema lists).
#[derive(Serialize, Deserialize, JsonSchema)]
struct FlattenedLog {
    level: Level,
    #[serde(flatten)]
    extra: std::collections::BTreeMap<String, serde_json::Value>,
}

#[test]
fn serde_other_is_found_behind_a_flattened_struct() {
    let protocol = Protocol::new("flattened").root::<FlattenedLog>();
    let doc = document(&protocol);
    assert_eq!(
        doc["$defs"]["Level"]["anyOf"][1]["x-symgen-unknown"], true,
        "{}",
        doc["$defs"]["Level"]
    );
    for (message, valid) in [
        (json!({"level": "Low", "note": 1}), true),
        (json!({"level": "Loud"}), true),
        (json!({"level": 3}), false),
    ] {
        assert_eq!(
            agree::<FlattenedLog>(&protocol, &message),
            valid,
            "{message}"
        );
    }
}

#[test]
fn serde_other_makes_the_tag_open() {
    let protocol = Protocol::new("events").root::<Log>();
    let doc = document(&protocol);
    let event = &doc["$defs"]["Event"];
    assert_eq!(event["x-symgen-union"], json!({"tag": "type"}));
    let unknown = event["oneOf"].as_array().unwrap().last().unwrap();
    assert_eq!(unknown["x-symgen-unknown"], true);
    assert_eq!(
        doc["$defs"]["Level"]["anyOf"][1]["x-symgen-unknown"], true,
        "{}",
        doc["$defs"]["Level"]
    );
    for (message, valid) in [
        (
            json!({"event": {"type": "Start", "at": 1}, "level": "Low"}),
            true,
        ),
        (json!({"event": {"type": "Start"}, "level": "Low"}), false),
        (
            json!({"event": {"type": "Pause", "x": 1}, "level": "Low"}),
            true,
        ),
        (json!({"event": {"type": "Stop"}, "level": "Loud"}), true),
        (json!({"event": {"type": "Stop"}, "level": 3}), false),
    ] {
        assert_eq!(agree::<Log>(&protocol, &message), valid, "{message}");
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Pages {
    names: Page<String>,
    ids: Page<u32>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Paged_for_{T}")]
struct Paged<T> {
    items: Vec<T>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct NamedPages {
    names: Paged<String>,
    ids: Paged<u32>,
}

#[test]
fn generic_instantiations_need_names_of_their_own() {
    let err = symgen::schema::render(&Protocol::new("pages").root::<Pages>()).unwrap_err();
    assert_eq!(err.pointer, "/$defs/Page");
    assert!(err.message.contains("Page<alloc::string::String>"), "{err}");
    assert!(err.message.contains("Page<u32>"), "{err}");
    assert!(err.message.contains("Page_for_{T}"), "{err}");
    // Named per instantiation, they map exactly, with deterministic names.
    let doc = document(&Protocol::new("pages").root::<NamedPages>());
    let names: Vec<&String> = doc["$defs"].as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        ["NamedPages", "Paged_for_string", "Paged_for_uint32"]
    );
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Hidden {
    shown: String,
    #[schemars(skip)]
    #[serde(default)]
    secret: String,
}

#[test]
fn a_key_serde_accepts_that_the_schema_cannot_describe_is_refused() {
    let err = symgen::schema::render(&Protocol::new("hidden").root::<Hidden>()).unwrap_err();
    assert_eq!(err.pointer, "/$defs/Hidden");
    assert!(err.message.contains("`secret`"), "{err}");
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Catchall {
    id: String,
    #[serde(flatten)]
    extra: HashMap<String, Value>,
}

#[test]
fn a_flattened_catch_all_map_keeps_extra_keys_open() {
    let protocol = Protocol::new("catchall").root::<Catchall>();
    let doc = document(&protocol);
    assert_eq!(doc["$defs"]["Catchall"]["additionalProperties"], true);
    assert!(agree::<Catchall>(&protocol, &json!({"id": "a", "x": [1]})));
}

/// Every construct above that maps, in one protocol.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Gaps {
    renamed: Renamed,
    log: Log,
    catchall: Catchall,
    pages: NamedPages,
}

const FIXTURE: &str = "tests/fixtures/schemas/serde-gaps.schema.json";

/// The schema of [`Gaps`] is a generator fixture (`tests/fixtures/schemas/`): TypeScript
/// and Swift must generate and compile for it like for every fixture.
#[test]
fn serde_gaps_fixture_is_current() {
    let protocol = Protocol::new("serde-gaps")
        .with_title("What schemars alone maps loosely")
        .root::<Gaps>();
    let text = symgen::schema::render(&protocol).unwrap().contents;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    if std::env::var_os("SYMGEN_UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{FIXTURE} is not what the types emit; rerun with SYMGEN_UPDATE_FIXTURES=1"
    );
}

/// A sender with a legacy spelling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sender {
    /// Who.
    #[serde(rename = "userId", alias = "user_id")]
    user_id: String,
}

symgen::envelope! {
    /// A message whose shared field has an alias.
    struct Note {
        tag = "kind";
        content = "body";
        body = body: NoteBody;
        /// Who sent it.
        from: Sender = "from",
    }
    /// The kinds.
    enum NoteBody (requests = note_requests) {
        /// Plain text.
        Text(Inner) = "text" => symgen::wire::NoReply,
    }
}

#[test]
fn aliases_are_found_in_envelope_fields_and_payloads_too() {
    let protocol = Protocol::new("notes").root::<Note>();
    let doc = document(&protocol);
    assert_eq!(
        doc["$defs"]["Sender"]["properties"]["user_id"]["x-symgen-alias-of"],
        "userId"
    );
    assert_eq!(
        doc["$defs"]["Inner"]["properties"]["colour"]["x-symgen-alias-of"],
        "color"
    );
    let message = json!({"kind": "text", "from": {"user_id": "u"}, "body": {"colour": "red"}});
    assert!(agree::<Note>(&protocol, &message));
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Severity {
    #[serde(alias = "warn")]
    Warning,
    Error,
    #[serde(other)]
    Unrecognised,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Mode {
    #[serde(alias = "r", alias = "ro")]
    Read,
    Write,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
enum Report {
    Log { severity: Severity, mode: Mode },
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Access {
    mode: Mode,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Levelled {
    severity: Severity,
}

/// Issue 38, item 3: `#[serde(alias)]` on an enum's variants (which schemars leaves
/// out) and `#[serde(other)]` reach the schema, for an enum of strings reached through
/// a struct field and one reached only through an internally tagged union.
#[test]
fn enum_aliases_and_other_survive_an_internally_tagged_union() {
    let protocol = Protocol::new("reports").root::<Report>();
    for (message, valid) in [
        (
            json!({"type": "Log", "severity": "Warning", "mode": "Read"}),
            true,
        ),
        (
            json!({"type": "Log", "severity": "warn", "mode": "ro"}),
            true,
        ),
        (
            json!({"type": "Log", "severity": "Loud", "mode": "r"}),
            true,
        ),
        (json!({"type": "Log", "severity": 3, "mode": "Read"}), false),
        (
            json!({"type": "Log", "severity": "Error", "mode": "rw"}),
            false,
        ),
    ] {
        assert_eq!(agree::<Report>(&protocol, &message), valid, "{message}");
    }
    // Behind the tag: the closed enum's aliases from serde's error, the open one open.
    let doc = document(&protocol);
    assert_eq!(
        doc["$defs"]["Mode"]["x-symgen-aliases"],
        json!({"r": "Read", "ro": "Read"}),
        "{}",
        doc["$defs"]["Mode"]
    );
    assert_eq!(
        doc["$defs"]["Severity"]["anyOf"][1]["x-symgen-unknown"],
        true
    );
    // With `#[serde(other)]`, its aliases are read where serde's names are (a struct
    // field), not behind a tag, where no error lists them (any string is taken).
    let doc = document(&Protocol::new("levelled").root::<Levelled>());
    let severity = &doc["$defs"]["Severity"];
    assert_eq!(
        severity["x-symgen-aliases"],
        json!({"warn": "Warning"}),
        "{severity}"
    );
    assert_eq!(severity["anyOf"][1]["x-symgen-unknown"], true, "{severity}");
    let protocol = Protocol::new("access").root::<Access>();
    let doc = document(&protocol);
    assert_eq!(
        doc["$defs"]["Mode"]["x-symgen-aliases"],
        json!({"r": "Read", "ro": "Read"}),
        "{}",
        doc["$defs"]["Mode"]
    );
    for (message, valid) in [
        (json!({"mode": "ro"}), true),
        (json!({"mode": "Write"}), true),
        (json!({"mode": "w"}), false),
    ] {
        assert_eq!(agree::<Access>(&protocol, &message), valid, "{message}");
    }
}

/// serde's double-option pattern (what `serde_with::rust::double_option` does): absent
/// is `None`, `null` is `Some(None)`, and `Some(None)` is written back as `null`.
fn double_option<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Patch {
    id: u32,
    profile: Profile,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Profile {
    /// Absent: unchanged. `null`: cleared.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    #[schemars(with = "Option<String>")]
    nickname: Option<Option<String>>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct PatchBelowAnOptional {
    id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profile: Option<Profile>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Nullables {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skipped: Option<String>,
    #[serde(default)]
    written: Option<String>,
    plain_double: Option<Option<String>>,
    #[serde(default)]
    any: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profile: Option<Box<Nullables>>,
}

#[test]
fn a_field_that_tells_null_from_absent_is_refused_with_its_location() {
    // What serde does with the field: a `null` survives, an absent key stays absent.
    let cleared: Patch =
        serde_json::from_str(r#"{"id": 1, "profile": {"nickname": null}}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&cleared).unwrap(),
        r#"{"id":1,"profile":{"nickname":null}}"#
    );
    for protocol in [
        Protocol::new("patch").root::<Patch>(),
        Protocol::new("patch").root::<PatchBelowAnOptional>(),
    ] {
        let err = symgen::schema::render(&protocol).unwrap_err();
        assert_eq!(err.file, "patch.schema.json");
        assert_eq!(err.pointer, "/$defs/Profile/properties/nickname", "{err}");
        assert!(
            err.message
                .starts_with("serde tells `null` from absent in the field `nickname`"),
            "{err}"
        );
    }
    // `null` read as absent (R3), whether or not it is written back: no refusal, at any
    // depth (a plain `Option<Option<T>>` reads `null` as `None`).
    symgen::schema::render(&Protocol::new("nullables").root::<Nullables>())
        .unwrap_or_else(|err| panic!("{err}"));
}

/// The conformance vectors of `protocol`'s schema, judged by its serde types too.
fn vectors_of(protocol: &Protocol) -> symgen::Result<Vec<symgen::vectors::Generated>> {
    let file = symgen::schema::render(protocol).unwrap_or_else(|err| panic!("{err}"));
    let texts = [(file.name.clone(), file.contents.clone())];
    let modules = symgen::emit::modules_from_texts(&texts).unwrap();
    let documents = [(
        file.name.clone(),
        serde_json::from_str::<Value>(&file.contents).unwrap(),
    )];
    symgen::vectors::generate(
        &modules,
        &documents,
        std::slice::from_ref(protocol),
        symgen::vectors::Settings::default(),
    )
}

/// A field that tells `null` from absent where the schema's probe does not look (an
/// alternative after the first), caught by the conformance vectors instead.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Change {
    Ping { id: u32 },
    Rename { profile: Profile },
}

#[test]
fn a_field_the_schema_probe_misses_is_refused_by_the_vectors() {
    let err = vectors_of(&Protocol::new("change").root::<Change>()).expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains("/profile/nickname: null")
            && text.contains("serde tells `null` from absent at /rename/profile/nickname"),
        "{text}"
    );
}

/// A plain internally tagged enum: serde reads the whole message into its buffer before
/// it sees the tag, so a value nested past serde_json's limit is refused for its depth
/// alone, under a key serde would otherwise skip. No schema states a depth, and the
/// generated types skip such a key whatever its depth.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Buffered {
    Ping { id: u32 },
    Stop,
}

#[test]
fn what_serde_refuses_for_its_nesting_alone_is_an_unenforced_invalid_vector() {
    let protocol = Protocol::new("buffered").root::<Buffered>();
    let generated = vectors_of(&protocol).unwrap_or_else(|err| panic!("{err}"));
    let deep: Vec<_> = generated
        .iter()
        .flat_map(|file| file.invalid.iter())
        .filter(|v| v.name.contains("nested 240 deep") && v.name.contains("unknown key"))
        .collect();
    assert!(
        !deep.is_empty(),
        "no deep unknown-key vector was filed invalid"
    );
    for vector in deep {
        assert!(vector.unenforced, "{} is not unenforced", vector.name);
        assert_eq!(vector.fault.as_deref(), Some("too_deep"), "{}", vector.name);
    }
    // Plain serde, to show the limit is serde's own.
    let deep = format!(
        r#"{{"kind":"ping","id":1,"x":{}1{}}}"#,
        "[".repeat(240),
        "]".repeat(240)
    );
    assert!(serde_json::from_str::<Buffered>(&deep).is_err());
    // `validate -p` names the rule serde broke: its depth, not a constraint.
    let report = Validator::for_protocol(&protocol)
        .unwrap()
        .validate_str(&deep);
    assert_eq!(report.outcome, Outcome::Invalid);
    assert_eq!(
        report.violations[0].kind,
        symgen::validate::ViolationKind::TooDeep,
        "{:?}",
        report.violations
    );
}
