//! P3: the Dialectic present-review socket protocol (docs/protocols.md; legacy).
//!
//! The MCP server sends `{type: "present_review", id, payload}` to the VS Code extension
//! and gets back a flat `{id, success, error?}`. Newline-delimited (R5, drift D-X4).

use schemars::{JsonSchema, Schema};
use serde::{Deserialize, Serialize};
use serde_json::json;

use symgen_wire::Protocol;
use symgen_wire::Reply;
use symgen_wire::schema::add_constraint;

symgen_wire::string_enum! {
    /// How the extension applies a review to its panel (drift D-X2: kebab-case on the
    /// wire; the PascalCase values later Rust emitted are accepted on input).
    pub enum ReviewMode {
        /// Replace the whole review.
        Replace = "replace" | "Replace",
        /// Replace one section, named by `section`.
        UpdateSection = "update-section" | "UpdateSection",
        /// Append to the review.
        Append = "append" | "Append",
    }
}

/// A review for the extension to display.
///
/// `section` is required when `mode` is `update-section` (drift D-X5); decoding
/// enforces that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(transform = present_review_rules)]
pub struct PresentReviewParams {
    /// The review, in markdown.
    pub content: String,
    /// How to apply it.
    pub mode: ReviewMode,
    /// The heading of the section to replace (required for `update-section`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// Base directory for relative file links. Optional on input, emitted by every
    /// current sender; `base_uri` is accepted on input (drift D-X3).
    #[serde(
        rename = "baseUri",
        alias = "base_uri",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub base_uri: Option<String>,
}

#[derive(Deserialize)]
struct PresentReviewParamsWire {
    content: String,
    mode: ReviewMode,
    #[serde(default)]
    section: Option<String>,
    #[serde(rename = "baseUri", alias = "base_uri", default)]
    base_uri: Option<String>,
}

impl<'de> Deserialize<'de> for PresentReviewParams {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = PresentReviewParamsWire::deserialize(deserializer)?;
        Self::try_from(wire).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<PresentReviewParamsWire> for PresentReviewParams {
    type Error = String;
    fn try_from(wire: PresentReviewParamsWire) -> Result<Self, String> {
        if wire.mode == ReviewMode::UpdateSection && wire.section.is_none() {
            return Err("section: required when mode is \"update-section\"".into());
        }
        Ok(Self {
            content: wire.content,
            mode: wire.mode,
            section: wire.section,
            base_uri: wire.base_uri,
        })
    }
}

fn present_review_rules(schema: &mut Schema) {
    add_constraint(
        schema,
        json!({
            "if": {
                "properties": { "mode": { "enum": ["update-section", "UpdateSection"] } },
                "required": ["mode"]
            },
            "then": {
                "required": ["section"],
                "properties": { "section": { "type": "string" } }
            }
        }),
    );
}

symgen_wire::envelope! {
    /// A request from the MCP server to the extension.
    pub struct DialecticRequest {
        tag = "type";
        content = "payload";
        body = body: DialecticBody;
        /// Correlation id (a UUID), echoed in the reply.
        pub id: String = "id",
    }
    /// The P3 request types.
    pub enum DialecticBody (requests = requests) {
        /// Show a review. The hyphenated tag of the seed is accepted on input (drift D-X1).
        PresentReview(PresentReviewParams) = "present_review" | "present-review" => Reply<IpcResponse>,
    }
}

/// The extension's flat reply to a [`DialecticRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "IPCResponse")]
pub struct IpcResponse {
    /// The request's id, or `"unknown"` when the request could not be parsed.
    pub id: String,
    /// Whether the request succeeded.
    pub success: bool,
    /// Why it failed, e.g. `"Invalid JSON message"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The P3 protocol definition.
pub fn protocol() -> Protocol {
    Protocol::new("dialectic")
        .with_code("P3")
        .with_party("mcp_server", "the Dialectic MCP server, the socket client")
        .with_party("extension", "the VS Code extension, the socket server")
        .with_title("Dialectic present-review protocol")
        .with_description(
            "Legacy socket protocol: the MCP server sends a present_review request \
             {type, id, payload}; the VS Code extension answers with a flat \
             {id, success, error?}.",
        )
        .root::<DialecticRequest>()
        .sent_by(["mcp_server"])
        .received_by(["extension"])
        .root::<IpcResponse>()
        .sent_by(["extension"])
        .received_by(["mcp_server"])
}
