//! P2: the TaskspaceState request/response (docs/protocols.md).
//!
//! Rides on the P1 bus as `type: "taskspace_state"`: the single read/write operation on
//! a taskspace's user-visible state. A read sends only the two ids; a write also sends
//! at least one of `name`, `description`, `collaborator`. The app answers with a P1
//! `response` whose `data` is a [`TaskspaceStateResponse`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::symposium::{MessageSender, ResponsePayload};
use symgen_wire::Protocol;
use symgen_wire::{IsReply, Reply};

/// Reads, or writes, a taskspace's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskspaceStateRequest {
    /// Absolute path of the `*.symposium` project directory (drift D-S24). The app does
    /// not route on it for this message.
    pub project_path: String,
    /// The taskspace's UUID, matched case-insensitively.
    pub taskspace_uuid: String,
    /// New name; absent means "do not change".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New description; absent means "do not change".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// New collaborator; absent means "do not change" (drift D-S3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collaborator: Option<String>,
}

impl TaskspaceStateRequest {
    /// True when no field to change is present: the request only reads.
    pub fn is_read(&self) -> bool {
        self.name.is_none() && self.description.is_none() && self.collaborator.is_none()
    }
}

/// A taskspace's state, as the app reports it. Every field is optional (drift D-S2).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct TaskspaceStateResponse {
    /// User-visible name (tabs, window titles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// User-visible summary (tooltips, status bars).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The LLM task description: present only on a read while the taskspace was never
    /// updated; always absent after a write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_prompt: Option<String>,
    /// The argv that launches the agent, e.g. `["q","chat","/yiasou"]`. Absent means
    /// "do not launch".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_command: Option<Vec<String>>,
    /// The collaborator persona.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collaborator: Option<String>,
}

symgen_wire::envelope! {
    /// A P1 bus envelope carrying P2: a `taskspace_state` request or its `response`.
    /// Any other P1 type is outside P2 and decodes as unknown.
    pub struct TaskspaceStateMessage {
        tag = "type";
        content = "payload";
        body = body: TaskspaceStateBody;
        /// A UUID; on `response` it equals the id of the request being answered.
        pub id: String = "id",
        /// Who sent the message.
        pub sender: MessageSender = "sender",
    }
    /// The two P2 messages.
    pub enum TaskspaceStateBody (requests = messages) {
        /// The app's reply; `data` is a `TaskspaceStateResponse` on success.
        @sent_by(app) @received_by(mcp_server, extension)
        Response(ResponsePayload) = "response" => IsReply,
        /// Read or write a taskspace's state.
        @sent_by(mcp_server, extension) @received_by(app)
        TaskspaceState(TaskspaceStateRequest) = "taskspace_state" => Reply<TaskspaceStateResponse>,
    }
}

/// The P2 protocol definition.
pub fn protocol() -> Protocol {
    Protocol::new("taskspace-state")
        .with_code("P2")
        .with_party("mcp_server", "the Symposium MCP server (Rust)")
        .with_party("extension", "the VS Code extension (TypeScript)")
        .with_party(
            "app",
            "the Symposium macOS app (Swift), which owns taskspace state",
        )
        .with_title("Symposium TaskspaceState request/response")
        .with_description(
            "Reads and writes a taskspace's user-visible state over the P1 bus \
             (`type: \"taskspace_state\"`), answered by a P1 `response`.",
        )
        .with_reply_data("/payload/data")
        .root::<TaskspaceStateMessage>()
}
