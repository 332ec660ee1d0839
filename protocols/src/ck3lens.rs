//! P5: the CK3 Lens VS Code IPC diagnostics server (docs/protocols.md).
//!
//! Newline-delimited JSON-RPC 2.0 over TCP on 127.0.0.1, plus a port-discovery file.
//! Each method declares its params and result types (R8). An unknown method decodes to
//! the unknown case; the server answers it with error -32601 (R4).

use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use symgen_wire::Protocol;
use symgen_wire::schema::{add_constraint, at_least_one_of};
use symgen_wire::{Empty, RawJson, Reply, decode_buffered, describe_json_type};

symgen_wire::const_str! {
    /// The JSON-RPC version marker; exactly `"2.0"`.
    pub struct JsonRpcVersion = "2.0";
}

/// A JSON-RPC request id: the client sends positive integers; strings are allowed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

/// A position in a document: `line` is 1-based, `character` is 0-based (drift D-C3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Position {
    /// Line, 1-based.
    pub line: std::num::NonZeroU32,
    /// Character offset in the line, 0-based.
    pub character: u32,
}

/// A range between two positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Range {
    /// Start position.
    pub start: Position,
    /// End position.
    pub end: Position,
}

symgen_wire::string_enum! {
    /// Severity of a diagnostic.
    pub enum Severity {
        Error = "error",
        Warning = "warning",
        Info = "info",
        Hint = "hint",
        Unknown = "unknown",
    }
}

symgen_wire::string_enum! {
    /// A severity filter for `getAllDiagnostics`.
    pub enum SeverityFilter {
        Error = "error",
        Warning = "warning",
        Info = "info",
        Hint = "hint",
    }
}

symgen_wire::string_enum! {
    /// A diagnostic tag.
    pub enum DiagnosticTag {
        Unnecessary = "unnecessary",
        Deprecated = "deprecated",
    }
}

/// A diagnostic code: a string or an integer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DiagnosticCode {
    /// An integer code.
    Number(i64),
    /// A string code such as `"E042"`.
    String(String),
}

/// Where related information points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RelatedLocation {
    /// Document URI.
    pub uri: String,
    /// File-system path.
    pub path: String,
    /// The range in the document.
    pub range: Range,
}

/// Extra information attached to a diagnostic (drift D-C9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RelatedInformation {
    /// Where it points.
    pub location: RelatedLocation,
    /// What it says.
    pub message: String,
}

/// One diagnostic reported by VS Code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Diagnostic {
    /// Where the problem is.
    pub range: Range,
    /// What the problem is.
    pub message: String,
    /// How severe it is.
    pub severity: Severity,
    /// Who reported it, e.g. `"Pylance"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The reporter's code for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<DiagnosticCode>,
    /// Related locations (drift D-C9).
    #[serde(
        rename = "relatedInformation",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub related_information: Option<Vec<RelatedInformation>>,
    /// Tags (drift D-C9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<DiagnosticTag>>,
}

/// The diagnostics of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileDiagnostics {
    /// A `file://` URI.
    pub uri: String,
    /// The file-system path.
    pub path: String,
    /// Its diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// An open document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OpenFile {
    /// Document URI.
    pub uri: String,
    /// File-system path.
    pub path: String,
    /// VS Code language id.
    #[serde(rename = "languageId")]
    pub language_id: String,
    /// Whether it has unsaved changes.
    #[serde(rename = "isDirty")]
    pub is_dirty: bool,
    /// Its number of lines.
    #[serde(rename = "lineCount")]
    pub line_count: u32,
}

/// Result of `ping`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PingResult {
    /// Always `"ok"`.
    pub status: String,
    /// Server time in milliseconds since the epoch.
    pub timestamp: u64,
}

/// Params of `getDiagnostics`: at least one of `path` and `uri`; `uri` wins (drift D-C6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(transform = get_diagnostics_rules)]
pub struct GetDiagnosticsParams {
    /// A file-system path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A document URI; wins over `path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

#[derive(Deserialize)]
struct GetDiagnosticsParamsWire {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    uri: Option<String>,
}

impl<'de> Deserialize<'de> for GetDiagnosticsParams {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = GetDiagnosticsParamsWire::deserialize(deserializer)?;
        Self::try_from(wire).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<GetDiagnosticsParamsWire> for GetDiagnosticsParams {
    type Error = &'static str;
    fn try_from(wire: GetDiagnosticsParamsWire) -> Result<Self, Self::Error> {
        if wire.path.is_none() && wire.uri.is_none() {
            return Err("path: either uri or path required");
        }
        Ok(Self {
            path: wire.path,
            uri: wire.uri,
        })
    }
}

fn get_diagnostics_rules(schema: &mut Schema) {
    add_constraint(schema, at_least_one_of(&["path", "uri"]));
}

/// Params of `getAllDiagnostics`; every filter is optional.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GetAllDiagnosticsParams {
    /// Only diagnostics of this severity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<SeverityFilter>,
    /// Only diagnostics from this source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// At most this many files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<std::num::NonZeroU32>,
}

/// Result of `getAllDiagnostics`: only files with at least one matching diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AllDiagnosticsResult {
    /// Number of files listed.
    #[serde(rename = "fileCount")]
    pub file_count: u32,
    /// Number of diagnostics over all files listed.
    #[serde(rename = "totalDiagnostics")]
    pub total_diagnostics: u32,
    /// The files.
    pub files: Vec<FileDiagnostics>,
}

symgen_wire::string_enum! {
    /// How `getWorkspaceErrors` groups (currently ignored by the server).
    pub enum GroupBy {
        File = "file",
        Source = "source",
        Severity = "severity",
    }
}

/// Params of `getWorkspaceErrors`; both are ignored by the server today (drift D-C4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GetWorkspaceErrorsParams {
    /// Whether to include warnings (default true).
    #[serde(
        rename = "includeWarnings",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub include_warnings: Option<bool>,
    /// How to group.
    #[serde(rename = "groupBy", default, skip_serializing_if = "Option::is_none")]
    pub group_by: Option<GroupBy>,
}

/// Counts over the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorSummary {
    /// Number of errors.
    pub errors: u32,
    /// Number of warnings.
    pub warnings: u32,
    /// Number of info and hint diagnostics together.
    pub info: u32,
    /// Number of files with errors.
    #[serde(rename = "filesWithErrors")]
    pub files_with_errors: u32,
    /// Number of files with warnings.
    #[serde(rename = "filesWithWarnings")]
    pub files_with_warnings: u32,
}

/// A file with many errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorFile {
    /// The file's path.
    pub path: String,
    /// Its number of errors.
    pub errors: u32,
    /// Its number of warnings.
    pub warnings: u32,
}

/// Result of `getWorkspaceErrors`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WorkspaceErrorsResult {
    /// The counts.
    pub summary: ErrorSummary,
    /// Diagnostics per source.
    #[serde(rename = "bySource")]
    pub by_source: BTreeMap<String, u32>,
    /// At most 10 files, most errors first.
    #[serde(rename = "topErrorFiles")]
    pub top_error_files: Vec<ErrorFile>,
    /// Every source seen.
    pub sources: Vec<String>,
}

/// Params of `validateFile`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ValidateFileParams {
    /// The file to open and validate.
    pub path: String,
}

/// Result of `validateFile`, taken about 500 ms after opening the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ValidateFileResult {
    /// Document URI.
    pub uri: String,
    /// File-system path.
    pub path: String,
    /// VS Code language id.
    #[serde(rename = "languageId")]
    pub language_id: String,
    /// Its diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Result of `getOpenFiles`: `file:` documents that are not untitled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OpenFilesResult {
    /// Number of files.
    pub count: u32,
    /// The files.
    pub files: Vec<OpenFile>,
}

/// The cursor position in the active file; both parts 1-based (drift D-C3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Selection {
    /// Line, 1-based.
    pub line: std::num::NonZeroU32,
    /// Column, 1-based.
    pub column: std::num::NonZeroU32,
}

/// The active file, when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ActiveFile {
    /// Document URI.
    pub uri: String,
    /// File-system path.
    pub path: String,
    /// VS Code language id.
    #[serde(rename = "languageId")]
    pub language_id: String,
    /// Whether it has unsaved changes.
    #[serde(rename = "isDirty")]
    pub is_dirty: bool,
    /// Its number of lines.
    #[serde(rename = "lineCount")]
    pub line_count: u32,
    /// The cursor.
    pub selection: Selection,
    /// Its diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Result of `getActiveFile`: `{active: false}` or the active file (`active: true` beside
/// its fields). The tag is a JSON boolean, which serde's internal tagging cannot express,
/// hence the hand-written impls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActiveFileResult {
    /// No active editor.
    Inactive,
    /// An active editor.
    Active(ActiveFile),
}

impl Serialize for ActiveFileResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Tagged<'a> {
            active: bool,
            #[serde(flatten)]
            file: Option<&'a ActiveFile>,
        }
        let file = match self {
            Self::Inactive => None,
            Self::Active(file) => Some(file),
        };
        Tagged {
            active: file.is_some(),
            file,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ActiveFileResult {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        /// The key that decides the variant; the others are read once it is known.
        #[derive(Deserialize)]
        struct Head {
            active: Option<Value>,
        }
        let object = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        let head: Head = decode_buffered("", object.get())?;
        match head.active {
            Some(Value::Bool(false)) => Ok(Self::Inactive),
            Some(Value::Bool(true)) => decode_buffered("", object.get()).map(Self::Active),
            None | Some(Value::Null) => Err(D::Error::missing_field("active")),
            Some(other) => Err(D::Error::custom(format_args!(
                "active: invalid type: {}, expected a boolean",
                describe_json_type(&other)
            ))),
        }
    }
}

impl JsonSchema for ActiveFileResult {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ActiveFileResult".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> Schema {
        let file = generator.subschema_for::<ActiveFile>();
        schemars::json_schema!({
            "description": "Result of `getActiveFile`: `{\"active\": false}`, or `{\"active\": true, ...}` with the active file's fields beside the boolean tag.",
            "type": "object",
            "required": ["active"],
            "oneOf": [
                {
                    "title": "Inactive",
                    "description": "No active editor.",
                    "type": "object",
                    "properties": { "active": { "type": "boolean", "const": false } },
                    "required": ["active"]
                },
                {
                    "title": "Active",
                    "description": "An active editor.",
                    "type": "object",
                    "properties": { "active": { "type": "boolean", "const": true } },
                    "required": ["active"],
                    "$ref": file.get("$ref")
                }
            ]
        })
    }
}

symgen_wire::string_enum! {
    /// The commands `executeCommand` allows (drift D-C5).
    pub enum AllowedCommand {
        ValidateFile = "ck3lens.validateFile",
        ValidateWorkspace = "ck3lens.validateWorkspace",
        RefreshViews = "ck3lens.refreshViews",
        InitSession = "ck3lens.initSession",
        ProblemsFocus = "workbench.action.problems.focus",
        MarkerNext = "editor.action.marker.next",
        MarkerPrev = "editor.action.marker.prev",
    }
}

/// Params of `executeCommand` (drift D-C5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExecuteCommandParams {
    /// The command to run; others are refused with error -32603.
    pub command: AllowedCommand,
    /// Its arguments (absent means none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<Value>>,
}

/// Result of `executeCommand`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExecuteCommandResult {
    /// Always true.
    pub executed: bool,
    /// The command that ran.
    pub command: String,
    /// What the command returned, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
}

symgen_wire::envelope! {
    /// A JSON-RPC 2.0 request from the MCP server (Python) to the extension. `params` may
    /// be absent, `null` or `{}` when a method needs none (drift D-C8).
    pub struct JsonRpcRequest {
        tag = "method";
        content = "params";
        body = call: MethodCall;
        /// Always `"2.0"`.
        pub jsonrpc: JsonRpcVersion = "jsonrpc",
        /// The request id, echoed in the response.
        pub id: RequestId = "id",
    }
    /// The P5 methods, each with its params and result types (R8).
    pub enum MethodCall (requests = methods) {
        /// Liveness check.
        Ping(Empty) = "ping" => Reply<PingResult>,
        /// Diagnostics of one file.
        GetDiagnostics(GetDiagnosticsParams) = "getDiagnostics" => Reply<FileDiagnostics>,
        /// Diagnostics of every file, filtered.
        GetAllDiagnostics(GetAllDiagnosticsParams) = "getAllDiagnostics" => Reply<AllDiagnosticsResult>,
        /// A summary of the workspace's problems.
        GetWorkspaceErrors(GetWorkspaceErrorsParams) = "getWorkspaceErrors" => Reply<WorkspaceErrorsResult>,
        /// Open a file and report its diagnostics.
        ValidateFile(ValidateFileParams) = "validateFile" => Reply<ValidateFileResult>,
        /// The open documents.
        GetOpenFiles(Empty) = "getOpenFiles" => Reply<OpenFilesResult>,
        /// The active document.
        GetActiveFile(Empty) = "getActiveFile" => Reply<ActiveFileResult>,
        /// Run one of the allowed VS Code commands.
        ExecuteCommand(ExecuteCommandParams) = "executeCommand" => Reply<ExecuteCommandResult>,
    }
}

/// The error object of a JSON-RPC error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JsonRpcError {
    /// -32700 parse error, -32601 method not found, -32603 internal error.
    pub code: i64,
    /// What went wrong, e.g. `"Method not found: getFoo"`.
    pub message: String,
    /// Extra data; for -32700 the parser's message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// A successful JSON-RPC response; `result` is typed by the request's method.
// `result` is kept as its JSON text, checked for syntax but not parsed into a
// `serde_json::Value`: its type depends on the request's method, so the receiver decodes
// it once it knows that (`success.result.parse::<FileDiagnostics>()`),
// and a decode that only judges a line (the validator) builds nothing for it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct JsonRpcSuccess {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request answered.
    pub id: RequestId,
    /// The method-specific result.
    pub result: RawJson,
}

/// A JSON-RPC error response. `id` is `null` when the request could not be parsed
/// (drift D-C7; clients also accept the legacy `0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = id_is_required)]
pub struct JsonRpcErrorResponse {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request answered, or `null`. Required, even when `null`.
    #[serde(deserialize_with = "id_or_null")]
    pub id: Option<RequestId>,
    /// The error.
    pub error: JsonRpcError,
}

/// schemars reads `Option` as "may be absent"; here `id` must be present, even if `null`.
fn id_is_required(schema: &mut Schema) {
    if let Some(Value::Array(required)) = schema.get_mut("required")
        && !required.iter().any(|r| r == "id")
    {
        required.insert(required.len().min(1), Value::from("id"));
    }
}

fn id_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RequestId>, D::Error> {
    Option::<RequestId>::deserialize(d)
}

/// A JSON-RPC response line: a success or an error.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum JsonRpcResponse {
    /// A success.
    Success(JsonRpcSuccess),
    /// An error.
    Error(JsonRpcErrorResponse),
}

/// The port-discovery file `<os temp dir>/ck3lens_ipc_port`, written after every
/// successful listen (drift D-C2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PortFile {
    /// The port actually bound.
    pub port: u16,
    /// The extension host's PID.
    pub pid: u32,
    /// Write time in milliseconds since the epoch; readers ignore files older than
    /// 3600 s (drift D-C1).
    pub timestamp: u64,
}

/// Accepts exactly what the untagged pair accepts, but reports the error of the shape the
/// line claims to be (an error response when it has a non-null `error`), so the message
/// names the offending field instead of "did not match any variant".
///
/// It streams: `jsonrpc`, `id` and `result` are decoded in place (a message is never
/// buffered whole); only `error`, which decides between the shapes, is buffered until
/// the end. The line is an error response when that decodes as [`JsonRpcError`] (and
/// `id` is present, `null` allowed), else a success when `id` is not `null` and `result`
/// is present (any JSON, `null` included). Keys are case-sensitive; other keys are
/// ignored (R2); a key of the pair given twice is rejected, as in every derived struct.
impl<'de> Deserialize<'de> for JsonRpcResponse {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ResponseVisitor)
    }
}

/// The keys of a JSON-RPC response; any other key is ignored (R2).
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum ResponseKey {
    Jsonrpc,
    Id,
    Result,
    Error,
    #[serde(other)]
    Other,
}

struct ResponseVisitor;

impl<'de> serde::de::Visitor<'de> for ResponseVisitor {
    type Value = JsonRpcResponse;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON-RPC response object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let mut jsonrpc: Option<JsonRpcVersion> = None;
        // `Some(None)`: present and `null`.
        let mut id: Option<Option<RequestId>> = None;
        let mut result: Option<RawJson> = None;
        let mut error: Option<Box<serde_json::value::RawValue>> = None;
        while let Some(key) = map.next_key::<ResponseKey>()? {
            match key {
                ResponseKey::Jsonrpc if jsonrpc.is_none() => jsonrpc = Some(map.next_value()?),
                ResponseKey::Id if id.is_none() => id = Some(map.next_value()?),
                ResponseKey::Result if result.is_none() => result = Some(map.next_value()?),
                ResponseKey::Error if error.is_none() => error = Some(map.next_value()?),
                ResponseKey::Other => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                ResponseKey::Jsonrpc => return Err(A::Error::duplicate_field("jsonrpc")),
                ResponseKey::Id => return Err(A::Error::duplicate_field("id")),
                ResponseKey::Result => return Err(A::Error::duplicate_field("result")),
                ResponseKey::Error => return Err(A::Error::duplicate_field("error")),
            }
        }
        let jsonrpc = jsonrpc.ok_or_else(|| A::Error::missing_field("jsonrpc"))?;
        // An error response when `error` is given (not `null`); on failure the line may
        // still be a success, which ignores `error` like any other key.
        let claimed_error = match error.filter(|e| e.get() != "null") {
            Some(error) => Some(match (&id, decode_buffered("error", error.get())) {
                (Some(id), Ok(error)) => {
                    return Ok(JsonRpcResponse::Error(JsonRpcErrorResponse {
                        jsonrpc,
                        id: id.clone(),
                        error,
                    }));
                }
                (None, Ok(_)) => A::Error::missing_field("id"),
                (_, Err(err)) => err,
            }),
            None => None,
        };
        let success = match (id, result) {
            (Some(Some(id)), Some(result)) => Ok(JsonRpcSuccess {
                jsonrpc,
                id,
                result,
            }),
            (None, _) => Err(A::Error::missing_field("id")),
            (Some(None), _) => Err(A::Error::custom(
                "id: invalid type: null, expected an integer or a string (`null` only in error responses)",
            )),
            (Some(Some(_)), None) => Err(A::Error::missing_field("result")),
        };
        match (success, claimed_error) {
            (Ok(success), _) => Ok(JsonRpcResponse::Success(success)),
            (Err(_), Some(err)) | (Err(err), None) => Err(err),
        }
    }
}

/// The P5 protocol definition.
pub fn protocol() -> Protocol {
    Protocol::new("ck3lens")
        .with_code("P5")
        .with_party("client", "the CK3 Lens MCP server's Python IPC client")
        .with_party(
            "extension",
            "the CK3 Lens VS Code extension, the JSON-RPC server",
        )
        .with_title("CK3 Lens IPC diagnostics server")
        .with_description(
            "Newline-delimited JSON-RPC 2.0 between the CK3 Lens MCP server and \
             its VS Code extension, plus the port-discovery file.",
        )
        .with_reply_data("/result")
        .root::<JsonRpcRequest>()
        .sent_by(["client"])
        .received_by(["extension"])
        .root::<JsonRpcResponse>()
        .sent_by(["extension"])
        .received_by(["client"])
        .root::<PortFile>()
        .sent_by(["extension"])
        .received_by(["client"])
}
