//! P4: the worker sideband protocol ("sideband v0", docs/protocols.md).
//!
//! JSON lines between an MCP REPL server and its language worker, internally tagged by
//! `"type"` with snake_case values. A unit message is exactly `{"type": "<tag>"}`;
//! receivers ignore extra keys, and drop lines with an unknown tag (R4).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use symgen_wire::Protocol;
use symgen_wire::{Empty, NoReply};

/// Marks the start of a request, sent just before the server writes the request input to
/// the worker's stdin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct StdinWrite {
    /// Required, may be empty. Since the restore of this message the server sends `""`;
    /// workers must not treat it as the input (drift D-W1).
    pub text: String,
}

/// Identifies the worker's language backend, once, right after the sideband connects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BackendInfo {
    /// The backend language, e.g. `"r"` or `"python"`.
    pub language: String,
    /// Whether the backend can send `plot_image`. Always emitted; a receiver reads a
    /// missing or `null` value as `false` (drift D-W3, R3).
    #[serde(default, deserialize_with = "symgen_wire::null_as_default")]
    #[schemars(with = "Option<bool>")]
    pub supports_images: bool,
}

/// Sent before each readline, with the prompt that will be shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReadlineStart {
    /// The prompt; `""` when the backend gave none.
    pub prompt: String,
}

/// Sent after a line was consumed from stdin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReadlineResult {
    /// The prompt that was shown.
    pub prompt: String,
    /// Exactly the consumed text, including its newline when one was consumed, so the
    /// echo is `prompt + line` (drift D-W5).
    pub line: String,
}

/// A new or updated plot image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlotImage {
    /// Stable per figure, e.g. `"plot-<pid>-<n>"`.
    pub id: String,
    /// The image MIME type, e.g. `"image/png"`.
    pub mime_type: String,
    /// The image bytes, standard base64 with padding.
    pub data: String,
    /// True for a new figure, false for an update of an existing one.
    pub is_new: bool,
}

symgen_wire::internally_tagged_union! {
    /// A message from the server to the worker.
    pub enum ServerToWorker (tag = "type", requests = server_to_worker) {
        /// Request-start marker, sent once per request before its input is written.
        StdinWrite(StdinWrite) = "stdin_write" => NoReply,
        /// The server interrupted the pending request: the worker discards buffered stdin
        /// bytes of that request and resumes normal prompt and completion signalling.
        Interrupt(Empty) = "interrupt" => NoReply,
        /// The session is ending (restart or shutdown): the worker stops consuming stdin
        /// and shuts down (drift D-W2).
        SessionEnd(Empty) = "session_end" => NoReply,
    }
}

symgen_wire::internally_tagged_union! {
    /// A message from the worker to the server.
    pub enum WorkerToServer (tag = "type", requests = worker_to_server) {
        /// The worker's backend, sent exactly once after connecting.
        BackendInfo(BackendInfo) = "backend_info" => NoReply,
        /// A readline is about to start.
        ReadlineStart(ReadlineStart) = "readline_start" => NoReply,
        /// A line was consumed.
        ReadlineResult(ReadlineResult) = "readline_result" => NoReply,
        /// The primary completion signal of the current request.
        RequestEnd(Empty) = "request_end" => NoReply,
        /// A plot image update.
        PlotImage(PlotImage) = "plot_image" => NoReply,
        /// The worker session is terminating (drift D-W2).
        SessionEnd(Empty) = "session_end" => NoReply,
    }
}

/// The P4 protocol definition.
pub fn protocol() -> Protocol {
    Protocol::new("worker-sideband")
        .with_code("P4")
        .with_party(
            "server",
            "the MCP REPL server, which owns the worker process",
        )
        .with_party("worker", "the language worker (R or Python)")
        .with_title("Worker sideband protocol (sideband v0)")
        .with_description(
            "JSON lines between an MCP REPL server and its language worker, \
             internally tagged by `type`. Server-to-worker and worker-to-server \
             messages are separate roots; `session_end` exists in both.",
        )
        .root::<ServerToWorker>()
        .sent_by(["server"])
        .received_by(["worker"])
        .root::<WorkerToServer>()
        .sent_by(["worker"])
        .received_by(["server"])
}
