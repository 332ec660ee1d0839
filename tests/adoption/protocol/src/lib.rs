//! A chat protocol, declared the way a team outside symgen declares its own: plain
//! serde + schemars types, and symgen-wire's macros where it wants an envelope, an open
//! union and request/reply pairing.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use symgen_wire::{Empty, IsReply, NoReply, Protocol, RawJson, Reply};

/// Who sent a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct User {
    /// Stable user id. Old clients wrote `user_id`, still accepted on input.
    #[serde(rename = "userId", alias = "user_id")]
    pub user_id: String,
    /// Display name, when the user set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// How a post feels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mood {
    /// Glad.
    Happy,
    /// Not glad.
    Sad,
    /// A mood this version does not know.
    #[serde(other)]
    Other,
}

symgen_wire::string_enum! {
    /// How urgent a post is.
    pub enum Priority {
        /// Whenever.
        Low = "low",
        /// Now; old clients wrote `URGENT`, still accepted on input.
        High = "high" | "URGENT",
    }
}

symgen_wire::const_str! {
    /// The receipt format marker.
    pub struct ReceiptVersion = "receipt/1";
}

/// A chat post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Post {
    /// The text.
    pub text: String,
    /// How it feels.
    pub mood: Mood,
    /// How urgent it is, when the sender says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
    /// Anything else a newer client attached, kept as it came.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// A page of history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct History {
    /// The posts, oldest first.
    pub posts: Vec<Post>,
}

/// The answer to a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplyBody {
    /// Whether the request succeeded.
    pub ok: bool,
    /// The reply data, typed by the request being answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<RawJson>,
}

symgen_wire::envelope! {
    /// One message between a chat client and its server.
    pub struct ChatMessage {
        tag = "kind";
        content = "body";
        body = body: ChatBody;
        /// Correlates a reply with its request.
        pub id: String = "id",
        /// Who sent it.
        pub from: User = "from",
    }
    /// The kinds of chat messages.
    pub enum ChatBody (requests = requests) {
        /// A new post.
        @sent_by(client) @received_by(server)
        Post(Post) = "post" => NoReply,
        /// Asks for the history.
        @sent_by(client) @received_by(server)
        GetHistory(Empty) = "get_history" => Reply<History>,
        /// Answers a request.
        @sent_by(server) @received_by(client)
        Reply(ReplyBody) = "reply" => IsReply,
    }
}

/// Why a user is away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Away {
    /// Minutes until back.
    pub minutes: u16,
}

symgen_wire::internally_tagged_union! {
    /// Presence updates, broadcast by the server.
    pub enum Presence (tag = "state", requests = presence) {
        /// The user is here.
        Online(Empty) = "online" => NoReply,
        /// The user stepped away.
        Away(Away) = "away" => NoReply,
    }
}

/// A delivery receipt: a plain struct, no macro.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Receipt {
    /// Always `receipt/1`.
    pub v: ReceiptVersion,
    /// The id of the delivered message.
    pub id: String,
    /// When it was delivered (milliseconds since the epoch).
    pub at: u64,
}

/// The chat protocol.
pub fn protocol() -> Protocol {
    Protocol::new("chat")
        .with_title("Chat protocol")
        .with_description("Messages between a chat client and its server.")
        .with_reply_data("/body/data")
        .with_party("client", "the chat app (TypeScript, Swift or Python)")
        .with_party("server", "the chat server (Rust)")
        .root::<ChatMessage>()
        .root::<Presence>()
        .sent_by(["server"])
        .received_by(["client"])
        .root::<Receipt>()
        .sent_by(["server"])
        .received_by(["client"])
}
