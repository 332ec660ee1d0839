//! The generic wire machinery (envelopes, open unions, aliased enums), exercised through
//! the built-in protocol types: decoding order, absent/null content, unknown tags,
//! duplicate keys and error paths.

use serde_json::{Value, json};
use symgen::wire::Request;
use symgen_protocols::ck3lens::{JsonRpcRequest, MethodCall};
use symgen_protocols::dialectic::{DialecticBody, DialecticRequest, ReviewMode};
use symgen_protocols::symposium::{IpcBody, IpcMessage, LogLevel};
use symgen_protocols::worker_sideband::WorkerToServer;

fn decode<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|err| format!("{}: {}", err.path(), err.inner()))
}

const SENDER: &str = r#""sender":{"workingDirectory":"/tmp"}"#;

#[test]
fn payload_before_type_decodes_the_same() {
    let a: IpcMessage = decode(&format!(
        r#"{{"type":"log","id":"1",{SENDER},"payload":{{"level":"warn","message":"m"}}}}"#
    ))
    .unwrap();
    let b: IpcMessage = decode(&format!(
        r#"{{"payload":{{"level":"warn","message":"m"}},{SENDER},"id":"1","type":"log"}}"#
    ))
    .unwrap();
    assert_eq!(a, b);
    match a.body {
        IpcBody::Log(log) => assert_eq!(log.level, LogLevel::Warn),
        other => panic!("decoded as {other:?}"),
    }
}

#[test]
fn absent_and_null_payload_decode_as_empty_object() {
    for payload in ["", r#","payload":null"#, r#","payload":{}"#] {
        let text = format!(r#"{{"type":"marco","id":"1",{SENDER}{payload}}}"#);
        let message: IpcMessage = decode(&text).unwrap();
        assert!(matches!(message.body, IpcBody::Marco(_)), "{text}");
        let encoded = serde_json::to_value(&message).unwrap();
        assert_eq!(encoded["payload"], json!({}), "{text}");
    }
}

#[test]
fn absent_payload_is_an_error_when_the_payload_has_required_fields() {
    let err = decode::<IpcMessage>(&format!(r#"{{"type":"log","id":"1",{SENDER}}}"#)).unwrap_err();
    assert!(err.contains("level"), "{err}");
}

#[test]
fn unknown_type_keeps_tag_and_payload_verbatim() {
    for text in [
        format!(r#"{{"type":"frobnicate","id":"1",{SENDER},"payload":{{"x":[1,2]}}}}"#),
        format!(r#"{{"type":"frobnicate","id":"1",{SENDER}}}"#),
        format!(r#"{{"type":"frobnicate","id":"1",{SENDER},"payload":null}}"#),
        format!(r#"{{"payload":7,"type":"frobnicate","id":"1",{SENDER}}}"#),
    ] {
        let message: IpcMessage = decode(&text).unwrap();
        assert!(matches!(message.body, IpcBody::Unknown(_)), "{text}");
        assert_eq!(message.body.tag(), "frobnicate");
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_value(&message).unwrap(), original, "{text}");
    }
}

#[test]
fn envelope_errors_name_the_field() {
    let cases = [
        (
            format!(r#"{{"type":"marco",{SENDER},"payload":{{}}}}"#),
            "id",
        ),
        (
            r#"{"type":"marco","id":"1","payload":{}}"#.to_owned(),
            "sender",
        ),
        (format!(r#"{{"id":"1",{SENDER},"payload":{{}}}}"#), "type"),
        (format!(r#"{{"type":5,"id":"1",{SENDER}}}"#), "type"),
        (
            format!(
                r#"{{"type":"log","id":"1",{SENDER},"payload":{{"level":"loud","message":""}}}}"#
            ),
            "level",
        ),
        (
            format!(
                r#"{{"payload":{{"level":"loud","message":""}},"type":"log","id":"1",{SENDER}}}"#
            ),
            "level",
        ),
        (
            r#"{"type":"polo","id":"1","sender":{"workingDirectory":"/","shellPid":4294967296}}"#
                .to_owned(),
            "shellPid",
        ),
    ];
    for (text, field) in cases {
        let err = decode::<IpcMessage>(&text).unwrap_err();
        assert!(err.contains(field), "{text}: {err}");
    }
}

#[test]
fn duplicate_envelope_keys_are_rejected() {
    let err = decode::<IpcMessage>(&format!(
        r#"{{"type":"marco","type":"polo","id":"1",{SENDER}}}"#
    ))
    .unwrap_err();
    assert!(err.contains("duplicate field `type`"), "{err}");
}

#[test]
fn internally_tagged_refuses_the_tag_twice_wherever_it_is() {
    // A peer whose JSON reader keeps the last value would read another message type.
    for text in [
        r#"{"type":"interrupt","type":"stdin_write","text":""}"#,
        r#"{"type":"interrupt","text":"","type":"interrupt"}"#,
        r#"{"text":"","type":"interrupt","type":"stdin_write"}"#,
        r#"{"type":"worker_ready","type":"worker_ready"}"#,
        r#"{"version":2,"type":"worker_ready","type":"other"}"#,
    ] {
        let err = decode::<WorkerToServer>(text).unwrap_err();
        assert!(err.contains("duplicate field `type`"), "{text}: {err}");
    }
    // Any other key given twice is the payload type's business (an undeclared one is
    // ignored, as ever).
    let message: WorkerToServer = decode(r#"{"type":"interrupt","reason":1,"reason":2}"#).unwrap();
    assert_eq!(message.tag(), "interrupt");
}

#[test]
fn tag_and_enum_aliases_decode_to_canonical() {
    let request: DialecticRequest = decode(
        r#"{"type":"present-review","id":"x","payload":{"content":"c","mode":"UpdateSection","section":"S","base_uri":"/b"}}"#,
    )
    .unwrap();
    let DialecticBody::PresentReview(params) = &request.body else {
        panic!("not present_review");
    };
    assert_eq!(params.mode, ReviewMode::UpdateSection);
    let encoded = serde_json::to_value(&request).unwrap();
    assert_eq!(encoded["type"], "present_review");
    assert_eq!(encoded["payload"]["mode"], "update-section");
    assert_eq!(encoded["payload"]["baseUri"], "/b");
}

#[test]
fn required_when_rule_is_enforced() {
    let err = decode::<DialecticRequest>(
        r#"{"type":"present_review","id":"x","payload":{"content":"c","mode":"update-section"}}"#,
    )
    .unwrap_err();
    assert!(err.contains("section"), "{err}");
}

#[test]
fn internally_tagged_unknown_is_kept_whole() {
    let text = r#"{"type":"worker_ready","version":2}"#;
    let message: WorkerToServer = decode(text).unwrap();
    assert!(matches!(message, WorkerToServer::Unknown(_)));
    assert_eq!(message.tag(), "worker_ready");
    assert_eq!(
        serde_json::to_value(&message).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
}

#[test]
fn internally_tagged_errors_name_the_field() {
    let err = decode::<WorkerToServer>(
        r#"{"type":"plot_image","id":"p","mime_type":"x","data":"","is_new":"yes"}"#,
    )
    .unwrap_err();
    assert!(err.contains("is_new"), "{err}");
    let err = decode::<WorkerToServer>(r#"{"prompt":""}"#).unwrap_err();
    assert!(err.contains("type"), "{err}");
}

#[test]
fn json_rpc_version_must_be_2_0() {
    let ok: JsonRpcRequest = decode(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
    assert!(matches!(ok.call, MethodCall::Ping(_)));
    let err = decode::<JsonRpcRequest>(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#).unwrap_err();
    assert!(err.contains("jsonrpc"), "{err}");
}

#[test]
fn requests_declare_their_reply_types() {
    use symgen_protocols::symposium::{GetSelectionResult, messages};
    fn reply_of<R: Request>() -> &'static str {
        std::any::type_name::<<R::Reply as symgen::wire::ReplySpec>::Data>()
    }
    assert_eq!(
        reply_of::<messages::GetSelection>(),
        std::any::type_name::<GetSelectionResult>()
    );
    assert_eq!(reply_of::<messages::Log>(), "()");
    assert_eq!(<messages::GetSelection as Request>::TAG, "get_selection");
}

#[test]
fn boolean_tagged_active_file_result() {
    use symgen_protocols::ck3lens::ActiveFileResult;
    let inactive: ActiveFileResult = decode(r#"{"active":false}"#).unwrap();
    assert_eq!(inactive, ActiveFileResult::Inactive);
    assert_eq!(
        serde_json::to_value(&inactive).unwrap(),
        json!({"active": false})
    );
    let text = r#"{"active":true,"uri":"file:///x","path":"/x","languageId":"python","isDirty":false,"lineCount":3,"selection":{"line":1,"column":1},"diagnostics":[]}"#;
    let active: ActiveFileResult = decode(text).unwrap();
    assert!(matches!(active, ActiveFileResult::Active(_)));
    assert_eq!(
        serde_json::to_value(&active).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    let err = decode::<ActiveFileResult>(r#"{"active":"yes"}"#).unwrap_err();
    assert!(err.contains("active"), "{err}");
    let err = decode::<ActiveFileResult>(r#"{"active":true,"uri":"u"}"#).unwrap_err();
    assert!(err.contains("path"), "{err}");
}

#[test]
fn structs_do_not_decode_from_arrays() {
    // serde's derive alone would accept `["info","m"]` for `{level, message}`.
    let text = format!(r#"{{"type":"log","id":"1",{SENDER},"payload":["info","m"]}}"#);
    assert!(symgen::wire::from_str::<IpcMessage>(&text).is_err());
    let text = format!(r#"{{"payload":["info","m"],"type":"log","id":"1",{SENDER}}}"#);
    assert!(symgen::wire::from_str::<IpcMessage>(&text).is_err());
    let text = r#"{"type":"marco","id":"1","sender":["/tmp"],"payload":{}}"#;
    assert!(symgen::wire::from_str::<IpcMessage>(text).is_err());
    let text = format!(r#"{{"type":"marco","id":"1",{SENDER},"payload":[]}}"#);
    assert!(symgen::wire::from_str::<IpcMessage>(&text).is_err());
    let root = symgen_protocols::find("symposium").unwrap();
    assert!(root.roots()[0].roundtrip(text.as_str()).is_err());
    // Arrays where the schema says array still decode.
    let text = format!(
        r#"{{"type":"taskspace_state","id":"1",{SENDER},"payload":{{"project_path":"/p","taskspace_uuid":"u"}}}}"#
    );
    assert!(symgen::wire::from_str::<IpcMessage>(&text).is_ok());
}

#[test]
fn internally_tagged_decodes_with_the_tag_anywhere() {
    let first: WorkerToServer = decode(r#"{"type":"readline_start","prompt":">>> "}"#).unwrap();
    let last: WorkerToServer = decode(r#"{"prompt":">>> ","type":"readline_start"}"#).unwrap();
    assert_eq!(first, last);
    let text = r#"{"version":2,"type":"worker_ready","extra":[1]}"#;
    let unknown: WorkerToServer = decode(text).unwrap();
    assert!(matches!(unknown, WorkerToServer::Unknown(_)));
    assert_eq!(
        serde_json::to_value(&unknown).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    for text in [
        r#"{"type":null,"prompt":""}"#,
        r#"{"prompt":"","type":7}"#,
        r#"{}"#,
    ] {
        let err = decode::<WorkerToServer>(text).unwrap_err();
        assert!(err.contains("type"), "{text}: {err}");
    }
    let err = decode::<WorkerToServer>(r#"{"type":"readline_start","prompt":5}"#).unwrap_err();
    assert!(err.contains("prompt"), "{err}");
}

#[test]
fn json_rpc_response_picks_its_shape_by_what_decodes() {
    use symgen_protocols::ck3lens::JsonRpcResponse;
    let success = |text: &str| {
        matches!(
            decode::<JsonRpcResponse>(text),
            Ok(JsonRpcResponse::Success(_))
        )
    };
    let error = |text: &str| {
        matches!(
            decode::<JsonRpcResponse>(text),
            Ok(JsonRpcResponse::Error(_))
        )
    };
    assert!(success(r#"{"jsonrpc":"2.0","id":1,"result":null}"#));
    assert!(success(
        r#"{"result":{"a":[1]},"x":{"y":2},"id":"s","jsonrpc":"2.0"}"#
    ));
    assert!(error(
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#
    ));
    // Both shapes fit: the error response wins, as `error` is given.
    assert!(error(
        r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#
    ));
    // `error` that is no error object (or `null`) is an ignored key of a success.
    assert!(success(
        r#"{"jsonrpc":"2.0","id":1,"result":1,"error":"oops"}"#
    ));
    assert!(success(
        r#"{"jsonrpc":"2.0","id":1,"result":1,"error":null}"#
    ));
    // Errors name the field of the shape the line claims to be.
    let cases = [
        (r#"{"jsonrpc":"2.0","id":null,"result":1}"#, "id"),
        (r#"{"jsonrpc":"2.0","result":1}"#, "id"),
        (r#"{"jsonrpc":"2.0","id":1}"#, "result"),
        (r#"{"jsonrpc":"1.0","id":1,"result":1}"#, "jsonrpc"),
        (r#"{"id":1,"result":1}"#, "jsonrpc"),
        (
            r#"{"jsonrpc":"2.0","id":true,"error":{"code":1,"message":"m"}}"#,
            "id",
        ),
        (
            r#"{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}"#,
            "id",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}"#,
            "code",
        ),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#, "message"),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":1,"id":2}"#,
            "duplicate field `id`",
        ),
        (r#"[ "2.0", 1, 1 ]"#, "JSON-RPC response"),
    ];
    for (text, field) in cases {
        let err = decode::<JsonRpcResponse>(text).unwrap_err();
        assert!(err.contains(field), "{text}: {err}");
    }
}

mod direction {
    use symgen::wire::{Empty, NoReply};
    use symgen::{Protocol, schema};

    symgen::internally_tagged_union! {
        /// A test union.
        pub enum Chat (tag = "type", requests = chat) {
            /// Sent by the client.
            @sent_by(client) @received_by(server)
            Hello(Empty) = "hello" => NoReply,
            /// Retired; nobody sends it.
            @retired @sent_by() @received_by(server, client)
            Old(Empty) = "old" => NoReply,
            /// Undeclared direction.
            Other(Empty) = "other" => NoReply,
        }
    }

    #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
    struct Receipt {
        id: String,
    }

    fn chat() -> Protocol {
        Protocol::new("chat")
            .with_party("client", "the client")
            .with_party("server", "the server")
            .root::<Chat>()
            .root::<Receipt>()
            .sent_by(["server"])
            .received_by(["client"])
    }

    #[test]
    fn variants_and_roots_carry_who_sends_and_receives_them() {
        let variants = <Chat as symgen::wire::UnionInfo>::variants();
        assert_eq!(variants[0].sent_by, Some(&["client"][..]));
        assert_eq!(variants[0].received_by, Some(&["server"][..]));
        assert!(variants[1].retired);
        assert_eq!(variants[1].sent_by, Some(&[][..]));
        assert_eq!(variants[1].received_by, Some(&["server", "client"][..]));
        assert_eq!((variants[2].sent_by, variants[2].received_by), (None, None));

        let document = schema::document(&chat()).unwrap();
        let hello = &document["$defs"]["Chat"]["oneOf"][0];
        assert_eq!(hello["x-symgen-sent-by"], serde_json::json!(["client"]));
        assert_eq!(hello["x-symgen-received-by"], serde_json::json!(["server"]));
        assert!(
            document["$defs"]["Chat"]["oneOf"][2]
                .get("x-symgen-sent-by")
                .is_none()
        );
        assert_eq!(
            document["$defs"]["Receipt"]["x-symgen-sent-by"],
            serde_json::json!(["server"])
        );
        assert_eq!(
            document["x-symgen-protocol"]["parties"]["client"],
            "the client"
        );

        // The model reads it back.
        let model = symgen::model::from_value("chat.schema.json", &document).unwrap();
        let info = model.protocol.as_ref().unwrap();
        assert_eq!(info.parties.len(), 2);
        let symgen::model::TypeKind::Union(union) = &model.get("Chat").unwrap().kind else {
            panic!("Chat is a union");
        };
        assert_eq!(
            union.variants[0].docs.direction.sent_by,
            Some(vec!["client".to_owned()])
        );
        assert_eq!(
            model.get("Receipt").unwrap().docs.direction.received_by,
            Some(vec!["client".to_owned()])
        );
    }

    #[test]
    fn an_undeclared_party_is_a_located_error() {
        let err = schema::document(&Protocol::new("chat").root::<Chat>()).unwrap_err();
        assert_eq!(err.pointer, "/$defs/Chat/oneOf/0/x-symgen-sent-by/0");
        assert!(
            err.message.contains("declares no parties"),
            "{}",
            err.message
        );
        let err = schema::document(&chat().with_party("Bad Name", "x")).unwrap_err();
        assert!(err.message.contains("lowercase"), "{}", err.message);
        let err = schema::document(&Protocol::new("chat").sent_by(["a"])).unwrap_err();
        assert!(err.message.contains("after `root`"), "{}", err.message);

        // A hand-written schema gets the same check when it is read.
        let mut document = schema::document(&chat()).unwrap();
        document["$defs"]["Receipt"]["x-symgen-sent-by"] = serde_json::json!(["nobody"]);
        let err = symgen::model::from_value("chat.schema.json", &document).unwrap_err();
        assert_eq!(err.pointer, "/$defs/Receipt/x-symgen-sent-by/0");
        document["$defs"]["Receipt"]["x-symgen-sent-by"] = serde_json::json!("server");
        let err = symgen::model::from_value("chat.schema.json", &document).unwrap_err();
        assert!(
            err.message.contains("list of party names"),
            "{}",
            err.message
        );
    }
}
