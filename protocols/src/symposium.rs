//! P1: the Symposium IPC bus (docs/protocols.md).
//!
//! Every line on the daemon's bus is one envelope `{type, id, sender, payload}`: the
//! `type` tag selects the payload type, `id` correlates a `response` with its request,
//! and `sender` says who sent it. Field names are exactly the wire names (R1): the
//! envelope is camelCase, most app payloads are snake_case.

use std::num::NonZeroU32;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::dialectic::PresentReviewParams;
use crate::taskspace_state::{TaskspaceStateRequest, TaskspaceStateResponse};
use symgen_wire::Protocol;
use symgen_wire::{Empty, IsReply, NoReply, RawJson, Reply, decode_buffered};

/// Who sent a message. Endpoints use it for routing: the VS Code extension matches
/// `workingDirectory` against its workspace folders and `shellPid` against its terminals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MessageSender {
    /// Absolute working directory of the sender. The app and the daemon send the
    /// placeholder `"/tmp"`.
    #[serde(rename = "workingDirectory")]
    pub working_directory: String,
    /// UUID of the sender's taskspace, when it runs inside one.
    #[serde(
        rename = "taskspaceUuid",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub taskspace_uuid: Option<String>,
    /// PID of the terminal shell the sender runs in (MCP server), or the extension's own
    /// PID on `marco`.
    #[serde(rename = "shellPid", default, skip_serializing_if = "Option::is_none")]
    pub shell_pid: Option<u32>,
}

/// The payload of a `response`: the outcome of a request plus its typed data.
///
/// `success` alone decides the outcome (R7); a receiver never infers it from `data`.
/// Generated clients always decode replies through this wrapper (R8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "ResponsePayload")]
pub struct ResponsePayload<T = RawJson> {
    /// Whether the request succeeded.
    pub success: bool,
    /// Why it failed, when `success` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The reply data, typed by the request being answered. `{}` for acknowledgements.
    #[serde(
        default = "Option::default",
        skip_serializing_if = "Option::<T>::is_none",
        bound(deserialize = "T: Deserialize<'de>")
    )]
    pub data: Option<T>,
}

/// An acknowledgement reply: `data` is `{}` (R7). Any object is accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ack {}

/// Context stored by the extension under a key that the agent expands later.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StoreReferencePayload {
    /// The reference key (a UUID).
    pub key: String,
    /// Opaque JSON chosen by the extension.
    pub value: RawJson,
}

/// The current editor selection, as the extension reports it. Every field is optional;
/// positions are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GetSelectionResult {
    /// The selected text; absent when nothing is selected.
    #[serde(
        rename = "selectedText",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub selected_text: Option<String>,
    /// Absolute path of the active document.
    #[serde(rename = "filePath", default, skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    /// First line of the selection (1-based).
    #[serde(rename = "startLine", default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<NonZeroU32>,
    /// First column of the selection (1-based).
    #[serde(
        rename = "startColumn",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub start_column: Option<NonZeroU32>,
    /// Last line of the selection (1-based).
    #[serde(rename = "endLine", default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<NonZeroU32>,
    /// Last column of the selection (1-based).
    #[serde(rename = "endColumn", default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<NonZeroU32>,
    /// The line, when the selection is on a single line (1-based).
    #[serde(
        rename = "lineNumber",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub line_number: Option<NonZeroU32>,
    /// VS Code language id of the document.
    #[serde(
        rename = "documentLanguage",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub document_language: Option<String>,
    /// Whether the document was never saved.
    #[serde(
        rename = "isUntitled",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub is_untitled: Option<bool>,
    /// A human-readable summary, e.g. `"No active editor found"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A walkthrough for the extension to render in its webview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PresentWalkthroughPayload {
    /// Rendered HTML of the walkthrough.
    pub content: String,
    /// Base directory for relative file references. Older senders wrote `base_uri`,
    /// which is accepted on input (drift D-S7).
    #[serde(rename = "baseUri", alias = "base_uri")]
    pub base_uri: String,
}

symgen_wire::string_enum! {
    /// Severity of a `log` message (drift D-S18 adds `warn`).
    pub enum LogLevel {
        Debug = "debug",
        Info = "info",
        Warn = "warn",
        Error = "error",
    }
}

/// A log line for the daemon's debug history. The daemon never rebroadcasts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LogPayload {
    /// How severe the message is.
    pub level: LogLevel,
    /// Free text, conventionally prefixed with the component, e.g. `[APP:<pid>] ...`.
    pub message: String,
}

/// Asks the extension to look a symbol up by name in the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ResolveSymbolByNamePayload {
    /// The symbol name, e.g. `"User"`. The seed's `symbol_name` is accepted on input
    /// (drift D-S5).
    #[serde(alias = "symbol_name")]
    pub name: String,
}

/// A 1-based position in a file (VS Code is 0-based; the extension converts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileLocation {
    /// Line, 1-based.
    pub line: NonZeroU32,
    /// Column, 1-based.
    pub column: NonZeroU32,
}

/// A range of text in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileRange {
    /// File path: absolute from the extension, possibly workspace-relative from Rust
    /// tools.
    pub path: String,
    /// Start of the range (start ≤ end).
    pub start: FileLocation,
    /// End of the range.
    pub end: FileLocation,
    /// The enclosed text, when the sender included it (drift D-S25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// A symbol definition found in the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SymbolDef {
    /// The symbol's name.
    pub name: String,
    /// An LSP symbol kind name such as `Function` or `Class`; an open string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Where the symbol is defined.
    #[serde(rename = "definedAt")]
    pub defined_at: FileRange,
}

/// Asks the extension for every reference to a symbol found earlier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FindAllReferencesPayload {
    /// The symbol, usually from a `resolve_symbol_by_name` reply (drift D-S6).
    pub symbol: SymbolDef,
}

symgen_wire::string_enum! {
    /// How a file changed in a synthetic pull request.
    pub enum ChangeStatus {
        Added = "Added",
        Modified = "Modified",
        Deleted = "Deleted",
    }
}

symgen_wire::string_enum! {
    /// The kind of a diff line (drift D-S16).
    pub enum DiffLineType {
        Added = "Added",
        Removed = "Removed",
        Context = "Context",
    }
}

symgen_wire::string_enum! {
    /// The kind of a review comment thread (drift D-S15). The PascalCase values older
    /// Rust senders emitted are accepted on input.
    pub enum CommentType {
        /// An explanation of the change.
        Insight = "insight" | "Explanation",
        /// A question for the author.
        Question = "question" | "Question",
        /// Work left to do.
        Todo = "todo" | "Todo",
        /// Something that must be fixed.
        Fixme = "fixme" | "Fixme",
    }
}

/// One line of a diff hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DiffLine {
    /// Added, removed or context.
    pub line_type: DiffLineType,
    /// The line's text.
    pub content: String,
    /// Line number in the old file; absent for added lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_line_number: Option<u32>,
    /// Line number in the new file; absent for removed lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_line_number: Option<u32>,
}

/// A hunk of a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DiffHunk {
    /// The `@@ -a,b +c,d @@` header line.
    pub header: String,
    /// First line in the old file.
    pub old_start: u32,
    /// Number of lines in the old file.
    pub old_lines: u32,
    /// First line in the new file.
    pub new_start: u32,
    /// Number of lines in the new file.
    pub new_lines: u32,
    /// The hunk's lines.
    pub lines: Vec<DiffLine>,
}

/// A changed file in a synthetic pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileChange {
    /// The file's path.
    pub path: String,
    /// How it changed.
    pub status: ChangeStatus,
    /// Number of added lines.
    pub additions: u32,
    /// Number of deleted lines.
    pub deletions: u32,
    /// The diff hunks.
    pub hunks: Vec<DiffHunk>,
}

/// A reply in a comment thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UserResponse {
    /// Who wrote it.
    pub author: String,
    /// What they wrote.
    pub content: String,
    /// When, as an RFC 3339 UTC timestamp.
    pub timestamp: String,
}

/// A review comment thread anchored at a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CommentThread {
    /// The thread's id (drift D-S15: not `id`).
    pub thread_id: String,
    /// The file the thread is anchored in.
    pub file_path: String,
    /// The 1-based line it is anchored at.
    pub line_number: NonZeroU32,
    /// What kind of comment it is.
    pub comment_type: CommentType,
    /// The comment text.
    pub content: String,
    /// Replies so far; absent means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responses: Option<Vec<UserResponse>>,
}

/// A full snapshot of a synthetic pull request (retired messages; shape as of the
/// catalog's commit 215c6a41).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SyntheticPRPayload {
    /// The review's id (a UUID).
    pub review_id: String,
    /// The review title.
    pub title: String,
    /// Free-form JSON supplied by the LLM.
    pub description: RawJson,
    /// The commit range, e.g. `"HEAD~2..HEAD"`.
    pub commit_range: String,
    /// Changed files; may be empty.
    pub files_changed: Vec<FileChange>,
    /// Comment threads; may be empty.
    pub comment_threads: Vec<CommentThread>,
    /// An open string: `"success"` on create, or a review status such as
    /// `"changes_requested"`.
    pub status: String,
}

symgen_wire::string_enum! {
    /// What the reviewer chose when completing a review.
    pub enum CompletionAction {
        RequestChanges = "request_changes",
        Checkpoint = "checkpoint",
        Return = "return",
    }
}

/// The variant part of [`UserFeedback`], internally tagged by `feedback_type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "feedback_type")]
pub enum FeedbackKind {
    /// A comment on a line or on the review as a whole.
    #[serde(rename = "comment")]
    Comment {
        /// The comment; `""` when the input box was cancelled.
        comment_text: String,
        /// The file commented on; the placeholder `"review"` for general comments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        file_path: Option<String>,
        /// The 1-based line commented on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line_number: Option<NonZeroU32>,
        /// The lines around the comment (drift D-S17).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        context_lines: Option<Vec<String>>,
    },
    /// The reviewer finished the review.
    #[serde(rename = "complete_review")]
    CompleteReview {
        /// What to do next.
        completion_action: CompletionAction,
        /// Free-text notes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        additional_notes: Option<String>,
    },
}

// Decoding is hand-written below: it reads the tag, then that variant's fields, so an
// error names the offending field (serde's flattened, internally tagged form loses the
// path). Encoding and the schema stay derived.
/// Reviewer feedback on a synthetic pull request (drift D-S17: one tagged type).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UserFeedback {
    /// The review the feedback is about.
    pub review_id: String,
    /// The feedback itself.
    #[serde(flatten)]
    pub kind: FeedbackKind,
}

/// The decode-only view of [`UserFeedback`]: the id and the tag.
#[derive(Deserialize)]
struct UserFeedbackHead {
    review_id: String,
    feedback_type: FeedbackType,
}

#[derive(Deserialize)]
enum FeedbackType {
    #[serde(rename = "comment")]
    Comment,
    #[serde(rename = "complete_review")]
    CompleteReview,
}

#[derive(Deserialize)]
struct CommentWire {
    comment_text: String,
    #[serde(default)]
    file_path: Option<String>,
    #[serde(default)]
    line_number: Option<NonZeroU32>,
    #[serde(default)]
    context_lines: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct CompleteReviewWire {
    completion_action: CompletionAction,
    #[serde(default)]
    additional_notes: Option<String>,
}

impl<'de> Deserialize<'de> for UserFeedback {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        let object = object.get();
        let head: UserFeedbackHead = decode_buffered("", object)?;
        let kind = match head.feedback_type {
            FeedbackType::Comment => {
                let wire: CommentWire = decode_buffered("", object)?;
                FeedbackKind::Comment {
                    comment_text: wire.comment_text,
                    file_path: wire.file_path,
                    line_number: wire.line_number,
                    context_lines: wire.context_lines,
                }
            }
            FeedbackType::CompleteReview => {
                let wire: CompleteReviewWire = decode_buffered("", object)?;
                FeedbackKind::CompleteReview {
                    completion_action: wire.completion_action,
                    additional_notes: wire.additional_notes,
                }
            }
        };
        Ok(Self {
            review_id: head.review_id,
            kind,
        })
    }
}

/// Asks the app to create a new taskspace in a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpawnTaskspacePayload {
    /// Absolute path of the `*.symposium` project directory (drift D-S24).
    pub project_path: String,
    /// UUID of the parent taskspace that requests the spawn.
    pub taskspace_uuid: String,
    /// User-visible name of the new taskspace.
    pub name: String,
    /// User-visible description of the new taskspace.
    pub task_description: String,
    /// Task text for the new agent.
    pub initial_prompt: String,
    /// Collaborator persona, e.g. `"sparkle"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collaborator: Option<String>,
}

/// The app's reply to `spawn_taskspace` (drift D-S10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SpawnTaskspaceReply {
    /// UUID of the new taskspace. camelCase on the wire for compatibility with the app;
    /// `new_taskspace_uuid` is accepted on input.
    #[serde(rename = "newTaskspaceUuid", alias = "new_taskspace_uuid")]
    pub new_taskspace_uuid: String,
}

symgen_wire::string_enum! {
    /// Category of a progress entry (drift D-S19).
    pub enum ProgressCategory {
        Info = "info",
        Warn = "warn",
        Error = "error",
        Milestone = "milestone",
        Question = "question",
    }
}

/// An entry for a taskspace's activity log in the app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LogProgressPayload {
    /// Absolute path of the project directory.
    pub project_path: String,
    /// The taskspace's UUID.
    pub taskspace_uuid: String,
    /// The entry's text.
    pub message: String,
    /// Its category.
    pub category: ProgressCategory,
}

/// Asks the app to draw the user's attention to a taskspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SignalUserPayload {
    /// Absolute path of the project directory.
    pub project_path: String,
    /// The taskspace's UUID.
    pub taskspace_uuid: String,
    /// Why the user is needed.
    pub message: String,
}

/// Legacy: sets a taskspace's name and description (drift D-S11). New senders use
/// `taskspace_state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UpdateTaskspacePayload {
    /// Absolute path of the project directory.
    pub project_path: String,
    /// The taskspace's UUID.
    pub taskspace_uuid: String,
    /// The new name.
    pub name: String,
    /// The new description.
    pub description: String,
    /// The new collaborator; the app applies it when present (drift D-S3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collaborator: Option<String>,
}

/// Retired request for a taskspace's launch state (drift D-S1), kept for decoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GetTaskspaceStateLegacy {
    /// The taskspace's UUID (camelCase on this retired message).
    #[serde(rename = "taskspaceUuid")]
    pub taskspace_uuid: String,
}

/// Retired reply to `get_taskspace_state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskspaceStateLegacy {
    /// The argv that launches the agent.
    #[serde(rename = "agentCommand")]
    pub agent_command: Vec<String>,
    /// Whether the extension should launch the agent.
    #[serde(rename = "shouldLaunch")]
    pub should_launch: bool,
}

/// Asks the app to delete a taskspace after the user confirms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeleteTaskspacePayload {
    /// Absolute path of the project directory.
    pub project_path: String,
    /// The taskspace's UUID.
    pub taskspace_uuid: String,
}

/// The app asks the extension of one taskspace to register its window (drift D-S4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskspaceRollCallPayload {
    /// The taskspace's UUID; compare case-insensitively (R6).
    pub taskspace_uuid: String,
}

/// The extension tells the app which window belongs to its taskspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RegisterTaskspaceWindowPayload {
    /// A marker of the form `[SYMPOSIUM:<uuid>]` that the extension put in its window
    /// title.
    pub window_title: String,
    /// The taskspace's UUID.
    pub taskspace_uuid: String,
}

/// The app's reply to `register_taskspace_window`: a nested flag the extension tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RegisterTaskspaceWindowReply {
    /// Whether the window was associated.
    pub success: bool,
}

symgen_wire::envelope! {
    /// One message on the Symposium bus. `type` selects the payload; unknown types are
    /// kept verbatim so relays can forward them (R4).
    pub struct IpcMessage {
        tag = "type";
        content = "payload";
        body = body: IpcBody;
        /// A UUID, new for each request or notification; on `response` it equals the id
        /// of the request being answered.
        pub id: String = "id",
        /// Who sent the message.
        pub sender: MessageSender = "sender",
    }
    /// The tagged body of an [`IpcMessage`]: one variant per registered `type`.
    pub enum IpcBody (requests = messages) {
        /// The reply to a request; `id` equals the request's id.
        @sent_by(mcp_server, extension, app) @received_by(mcp_server, extension, app)
        Response(ResponsePayload) = "response" => IsReply,
        /// The extension looks for MCP servers; each answers with a fresh `polo`, not a
        /// `response`.
        @sent_by(extension) @received_by(mcp_server)
        Marco(Empty) = "marco" => NoReply,
        /// An MCP server announces itself (on start and in answer to `marco`).
        @sent_by(mcp_server) @received_by(extension)
        Polo(Empty) = "polo" => NoReply,
        /// An MCP server shuts down gracefully.
        @sent_by(mcp_server) @received_by(extension)
        Goodbye(Empty) = "goodbye" => NoReply,
        /// The extension stores context under a key; each MCP server acks.
        @sent_by(extension) @received_by(mcp_server)
        StoreReference(StoreReferencePayload) = "store_reference" => Reply<Ack>,
        /// The MCP server asks the routed extension window for its selection.
        @sent_by(mcp_server) @received_by(extension)
        GetSelection(Empty) = "get_selection" => Reply<GetSelectionResult>,
        /// The MCP server asks the extension to show a walkthrough; the ack may lack
        /// `data` (drift D-S7).
        @sent_by(mcp_server) @received_by(extension)
        PresentWalkthrough(PresentWalkthroughPayload) = "present_walkthrough" => Reply<Ack>,
        /// A log line for the daemon's history; never rebroadcast.
        @sent_by(mcp_server, extension, app) @received_by(daemon)
        Log(LogPayload) = "log" => NoReply,
        /// The daemon asks every extension to reload its window.
        @sent_by(daemon) @received_by(extension)
        ReloadWindow(Empty) = "reload_window" => NoReply,
        /// Look a symbol up by name; an empty array means no match.
        @sent_by(mcp_server) @received_by(extension)
        ResolveSymbolByName(ResolveSymbolByNamePayload) = "resolve_symbol_by_name" => Reply<Vec<SymbolDef>>,
        /// Find every reference to a symbol.
        @sent_by(mcp_server) @received_by(extension)
        FindAllReferences(FindAllReferencesPayload) = "find_all_references" => Reply<Vec<FileRange>>,
        /// Deprecated: retired in 37dd9e47. Creates a synthetic pull request and waits
        /// for the reviewer's feedback (drift D-S13).
        @retired @sent_by(mcp_server) @received_by(extension)
        CreateSyntheticPr(SyntheticPRPayload) = "create_synthetic_pr" => Reply<UserFeedback>,
        /// Deprecated: retired in 37dd9e47. Refreshes a synthetic pull request with a full
        /// snapshot (drift D-S14) and waits for feedback.
        @retired @sent_by(mcp_server) @received_by(extension)
        UpdateSyntheticPr(SyntheticPRPayload) = "update_synthetic_pr" => Reply<UserFeedback>,
        /// Reviewer feedback; declared for compatibility, no real sender (drift D-S17).
        @sent_by() @received_by(mcp_server)
        UserFeedback(UserFeedback) = "user_feedback" => Reply<Ack>,
        /// Ask the app to create a taskspace (drift D-S10).
        @sent_by(mcp_server) @received_by(app)
        SpawnTaskspace(SpawnTaskspacePayload) = "spawn_taskspace" => Reply<SpawnTaskspaceReply>,
        /// Append to a taskspace's activity log; the app acks anyway, requesters ignore it.
        @sent_by(mcp_server) @received_by(app)
        LogProgress(LogProgressPayload) = "log_progress" => NoReply,
        /// Draw the user's attention to a taskspace; the app acks anyway.
        @sent_by(mcp_server) @received_by(app)
        SignalUser(SignalUserPayload) = "signal_user" => NoReply,
        /// Legacy, still accepted: set a taskspace's name and description (drift D-S11).
        @sent_by(mcp_server) @received_by(app)
        UpdateTaskspace(UpdateTaskspacePayload) = "update_taskspace" => Reply<Ack>,
        /// Read or write a taskspace's state (P2).
        @sent_by(mcp_server, extension) @received_by(app)
        TaskspaceState(TaskspaceStateRequest) = "taskspace_state" => Reply<TaskspaceStateResponse>,
        /// Deprecated: retired in cb092d8c in favour of `taskspace_state` (drift D-S1).
        @retired @sent_by(extension) @received_by(app)
        GetTaskspaceState(GetTaskspaceStateLegacy) = "get_taskspace_state" => Reply<TaskspaceStateLegacy>,
        /// Ask the app to delete a taskspace; the ack comes only after the user confirms,
        /// possibly past the usual timeout (drift D-S12).
        @sent_by(mcp_server) @received_by(app)
        DeleteTaskspace(DeleteTaskspacePayload) = "delete_taskspace" => Reply<Ack>,
        /// The app asks the matching extension to register its window (drift D-S4).
        @sent_by(app) @received_by(extension)
        TaskspaceRollCall(TaskspaceRollCallPayload) = "taskspace_roll_call" => NoReply,
        /// The extension registers its window with the app.
        @sent_by(extension) @received_by(app)
        RegisterTaskspaceWindow(RegisterTaskspaceWindowPayload) = "register_taskspace_window" => Reply<RegisterTaskspaceWindowReply>,
        /// Deprecated: retired on P1 (drift D-S27); the live definition is P3.
        @retired @sent_by(mcp_server) @received_by()
        PresentReview(PresentReviewParams) = "present_review" => Reply<Ack>,
    }
}

/// The P1 protocol definition.
pub fn protocol() -> Protocol {
    Protocol::new("symposium")
        .with_code("P1")
        .with_party(
            "mcp_server",
            "the Symposium MCP server (Rust), one per agent",
        )
        .with_party(
            "extension",
            "the VS Code extension (TypeScript), one per window",
        )
        .with_party("app", "the Symposium macOS app (Swift)")
        .with_party(
            "daemon",
            "the bus daemon (`symposium-mcp daemon`), which relays every line",
        )
        .with_title("Symposium IPC bus")
        .with_description(
            "The daemon message bus between the Symposium MCP server, VS Code \
             extension and macOS app: one envelope {type, id, sender, payload} \
             per line, adjacently tagged by `type`.",
        )
        .with_reply_data("/payload/data")
        .root::<IpcMessage>()
}
