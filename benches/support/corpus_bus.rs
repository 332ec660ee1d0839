//! P1 (Symposium bus) and P2 (taskspace state) messages, shaped like the catalog's
//! examples (sections 1.6 and 2) with varied values.

use serde_json::{Value, json};

use super::corpus::Message;
use super::values::Gen;

/// Who is talking: one agent in one taskspace of one project.
struct Scene {
    project_path: String,
    taskspace: String,
    workspace: String,
    in_taskspace: bool,
    shell_pid: u32,
}

impl Scene {
    fn new(g: &mut Gen) -> Self {
        let user = g.user();
        let project = g.project();
        let project_path = g.project_path(user, project);
        let taskspace = g.uuid();
        // A third of the agents run outside any taskspace, in a plain checkout.
        let in_taskspace = g.chance(0.67);
        let workspace = if in_taskspace {
            format!("{project_path}/task-{taskspace}/{project}")
        } else {
            format!("/home/{user}/{project}")
        };
        Self {
            project_path,
            taskspace,
            workspace,
            in_taskspace,
            shell_pid: g.int(1_000, 99_999),
        }
    }

    /// `{workingDirectory}` plus `taskspaceUuid` when inside a taskspace.
    fn base_sender(&self) -> Value {
        let mut sender = json!({"workingDirectory": self.workspace});
        if self.in_taskspace {
            sender["taskspaceUuid"] = json!(self.taskspace);
        }
        sender
    }

    /// The MCP server: full sender (the shell PID is missing when discovery failed).
    fn mcp(&self, g: &mut Gen) -> Value {
        let mut sender = self.base_sender();
        if g.chance(0.9) {
            sender["shellPid"] = json!(self.shell_pid);
        }
        sender
    }

    /// The VS Code extension: its workspace folder and taskspace.
    fn extension(&self) -> Value {
        self.base_sender()
    }

    /// Any sender, weighted like the bus traffic.
    fn anyone(&self, g: &mut Gen) -> Value {
        match g.weighted(&[4, 3, 3]) {
            0 => self.mcp(g),
            1 => self.extension(),
            _ => app(),
        }
    }

    fn taskspace_ref(&self) -> Value {
        json!({"project_path": self.project_path, "taskspace_uuid": self.taskspace})
    }
}

/// The app and the daemon always send this placeholder sender.
fn app() -> Value {
    json!({"workingDirectory": "/tmp"})
}

fn envelope(root: &'static str, tag: &str, id: String, sender: Value, payload: Value) -> Message {
    let message = json!({"type": tag, "id": id, "sender": sender, "payload": payload});
    Message {
        root,
        tag: tag.to_string(),
        text: message.to_string(),
    }
}

/// P1 message types with their share of the traffic, in per mille. Log lines, responses
/// and the app's progress/roll-call chatter dominate; retired types are rare.
const P1_MIX: &[(&str, u32)] = &[
    ("log", 220),
    ("response", 200),
    ("log_progress", 80),
    ("polo", 60),
    ("taskspace_state", 60),
    ("get_selection", 50),
    ("resolve_symbol_by_name", 40),
    ("taskspace_roll_call", 40),
    ("marco", 30),
    ("store_reference", 30),
    ("present_walkthrough", 30),
    ("find_all_references", 30),
    ("register_taskspace_window", 30),
    ("signal_user", 20),
    ("goodbye", 20),
    ("spawn_taskspace", 10),
    ("update_taskspace", 5),
    ("delete_taskspace", 5),
    ("reload_window", 5),
    ("user_feedback", 5),
    ("create_synthetic_pr", 5),
    ("update_synthetic_pr", 5),
    ("get_taskspace_state", 3),
    ("present_review", 2),
];

/// The P1 message type names, in the order of [`P1_MIX`].
pub fn p1_types() -> Vec<&'static str> {
    P1_MIX.iter().map(|(tag, _)| *tag).collect()
}

/// One P1 message, its type drawn from [`P1_MIX`].
pub fn symposium_message(g: &mut Gen) -> Message {
    let weights: Vec<u32> = P1_MIX.iter().map(|(_, w)| *w).collect();
    let tag = P1_MIX[g.weighted(&weights)].0;
    let s = Scene::new(g);
    let id = g.uuid();
    let (sender, payload) = match tag {
        "log" => (s.anyone(g), log_payload(g, &s)),
        "response" => (s.anyone(g), response_payload(g, &s)),
        "log_progress" => {
            let mut payload = s.taskspace_ref();
            payload["message"] = json!(g.prose(3, 10));
            payload["category"] =
                json!(g.pick(&["info", "milestone", "warn", "error", "question"]));
            (s.mcp(g), payload)
        }
        "marco" => (
            json!({"workingDirectory": s.workspace, "shellPid": g.int(1_000, 99_999)}),
            json!({}),
        ),
        "polo" | "goodbye" | "get_selection" => (s.mcp(g), json!({})),
        "reload_window" => (app(), json!({})),
        "taskspace_state" => (s.mcp(g), taskspace_state_request(g, &s)),
        "resolve_symbol_by_name" => (s.mcp(g), json!({"name": g.symbol()})),
        "find_all_references" => (s.mcp(g), json!({"symbol": g.symbol_def(&s.workspace)})),
        "taskspace_roll_call" => (app(), json!({"taskspace_uuid": s.taskspace.to_uppercase()})),
        "store_reference" => (s.extension(), store_reference(g)),
        "present_walkthrough" => (
            s.mcp(g),
            json!({
                "content": format!("<h1>{}</h1><p>{}</p>", g.prose(2, 4), g.prose(4, 14)),
                "baseUri": s.workspace,
            }),
        ),
        "register_taskspace_window" => (
            s.extension(),
            json!({
                "window_title": format!("[SYMPOSIUM:{}]", g.uuid()),
                "taskspace_uuid": s.taskspace,
            }),
        ),
        "signal_user" => {
            let mut payload = s.taskspace_ref();
            payload["message"] = json!(g.prose(4, 9));
            (s.mcp(g), payload)
        }
        "spawn_taskspace" => {
            let mut payload = s.taskspace_ref();
            payload["name"] = json!(g.prose(2, 4));
            payload["task_description"] = json!(g.prose(3, 6));
            payload["initial_prompt"] = json!(g.prose(6, 16));
            if g.chance(0.5) {
                payload["collaborator"] = json!(g.collaborator());
            }
            (s.mcp(g), payload)
        }
        "update_taskspace" => {
            let mut payload = s.taskspace_ref();
            payload["name"] = json!(g.prose(2, 4));
            payload["description"] = json!(g.prose(3, 6));
            (s.mcp(g), payload)
        }
        "delete_taskspace" => (s.mcp(g), s.taskspace_ref()),
        "user_feedback" => (s.extension(), user_feedback(g)),
        "create_synthetic_pr" | "update_synthetic_pr" => {
            (s.mcp(g), synthetic_pr(g, tag == "create_synthetic_pr"))
        }
        "get_taskspace_state" => (s.extension(), json!({"taskspaceUuid": s.taskspace})),
        "present_review" => (
            s.mcp(g),
            json!({
                "content": format!("# {}\n\n## Summary\n{}", g.prose(2, 4), g.prose(6, 12)),
                "mode": "replace",
                "baseUri": s.workspace,
            }),
        ),
        other => unreachable!("no generator for {other}"),
    };
    envelope("IpcMessage", tag, id, sender, payload)
}

/// One P2 message: a `taskspace_state` read or write, or the app's `response`.
pub fn taskspace_state_message(g: &mut Gen) -> Message {
    let s = Scene::new(g);
    let id = g.uuid();
    if g.chance(0.5) {
        let sender = if g.chance(0.6) {
            s.mcp(g)
        } else {
            s.extension()
        };
        envelope(
            "TaskspaceStateMessage",
            "taskspace_state",
            id,
            sender,
            taskspace_state_request(g, &s),
        )
    } else {
        let payload = if g.chance(0.95) {
            json!({"success": true, "data": taskspace_state_response(g)})
        } else {
            json!({"success": false, "error": "Taskspace not found"})
        };
        envelope("TaskspaceStateMessage", "response", id, app(), payload)
    }
}

fn log_payload(g: &mut Gen, s: &Scene) -> Value {
    let level = g.pick(&["info", "info", "info", "debug", "debug", "warn", "error"]);
    let component = g.pick(&["APP", "MCP", "EXT", "DAEMON"]);
    let message = match g.below(4) {
        0 => format!("[{component}:{}] {}", s.shell_pid, g.prose(3, 9)),
        1 => format!(
            "[{component}:{}] Received message type: {}",
            s.shell_pid,
            g.pick(&p1_types())
        ),
        2 => format!(
            "[{component}:{}] Routing check for {} failed: \"{}\"",
            s.shell_pid, s.workspace, s.taskspace
        ),
        _ => format!(
            "[{component}:{}] {}\n{}",
            s.shell_pid,
            g.prose(3, 6),
            g.code_line()
        ),
    };
    json!({"level": level, "message": message})
}

fn taskspace_state_request(g: &mut Gen, s: &Scene) -> Value {
    let mut payload = s.taskspace_ref();
    if g.chance(0.4) {
        payload["name"] = json!(g.prose(2, 4));
        if g.chance(0.7) {
            payload["description"] = json!(g.prose(3, 7));
        }
        if g.chance(0.2) {
            payload["collaborator"] = json!(g.collaborator());
        }
    }
    payload
}

fn taskspace_state_response(g: &mut Gen) -> Value {
    let mut data = json!({"name": g.prose(2, 4), "description": g.prose(3, 7)});
    if g.chance(0.3) {
        data["initial_prompt"] = json!(g.prose(6, 14));
    }
    let resume = if g.chance(0.5) { "--resume" } else { "/yiasou" };
    data["agent_command"] = json!(["q", "chat", resume]);
    if g.chance(0.3) {
        data["collaborator"] = json!(g.collaborator());
    }
    data
}

fn store_reference(g: &mut Gen) -> Value {
    let (file, _) = g.source_file();
    let line = g.int(1, 400);
    json!({
        "key": g.uuid(),
        "value": {"in-reply-to-comment-at": {
            "file": file,
            "start": {"line": line},
            "end": {"line": line + g.int(0, 5)},
            "comment": g.prose(3, 8),
        }},
    })
}

fn user_feedback(g: &mut Gen) -> Value {
    if g.chance(0.6) {
        let (file, _) = g.source_file();
        let mut feedback = json!({
            "review_id": g.uuid(),
            "feedback_type": "comment",
            "file_path": file,
            "line_number": g.int(1, 500),
            "comment_text": g.prose(2, 8),
        });
        if g.chance(0.3) {
            feedback["context_lines"] = json!([g.code_line(), g.code_line()]);
        }
        feedback
    } else {
        json!({
            "review_id": g.uuid(),
            "feedback_type": "complete_review",
            "completion_action": g.pick(&["request_changes", "checkpoint", "return"]),
            "additional_notes": g.prose(3, 8),
        })
    }
}

fn synthetic_pr(g: &mut Gen, create: bool) -> Value {
    let (file, _) = g.source_file();
    let start = g.int(1, 300);
    let files = if create || g.chance(0.3) {
        json!([{
            "path": file,
            "status": g.pick(&["Added", "Modified", "Deleted"]),
            "additions": g.int(0, 40),
            "deletions": g.int(0, 20),
            "hunks": [{
                "header": format!("@@ -{start},6 +{start},8 @@"),
                "old_start": start, "old_lines": 6, "new_start": start, "new_lines": 8,
                "lines": [
                    {"line_type": "Context", "content": g.code_line(),
                     "old_line_number": start, "new_line_number": start},
                    {"line_type": "Added", "content": g.code_line(), "new_line_number": start + 1},
                ],
            }],
        }])
    } else {
        json!([])
    };
    let threads = if create {
        json!([{
            "thread_id": format!("t-{}", g.int(1, 40)),
            "file_path": file,
            "line_number": start + 1,
            "comment_type": g.pick(&["insight", "question", "todo", "fixme"]),
            "content": g.prose(3, 8),
            "responses": [],
        }])
    } else {
        json!([])
    };
    json!({
        "review_id": g.uuid(),
        "title": g.prose(2, 5),
        "description": {"summary": g.prose(3, 8)},
        "commit_range": format!("HEAD~{}..HEAD", g.int(1, 5)),
        "files_changed": files,
        "comment_threads": threads,
        "status": if create { "success" } else { "changes_requested" },
    })
}

/// A `response` payload, answering one of the request types with its typed data.
fn response_payload(g: &mut Gen, s: &Scene) -> Value {
    if g.chance(0.05) {
        let error = g.pick(&[
            "Taskspace not found",
            "Invalid payload",
            "No handler available",
            "Window not found",
            "Taskspace deletion was cancelled by user",
        ]);
        return json!({"success": false, "error": error});
    }
    let data = match g.below(8) {
        0 => json!({}),
        1 => {
            let (file, lang) = g.source_file();
            let line = g.int(1, 500);
            let text = g.code_line();
            json!({
                "selectedText": text,
                "filePath": format!("{}/{file}", s.workspace),
                "startLine": line, "startColumn": 1, "endLine": line,
                "endColumn": text.chars().count() + 1,
                "lineNumber": line,
                "documentLanguage": lang,
                "isUntitled": false,
                "message": format!("Selected {} characters from line {line}", text.chars().count()),
            })
        }
        2 => {
            let n = g.int(0, 2);
            Value::Array((0..n).map(|_| g.symbol_def(&s.workspace)).collect())
        }
        3 => {
            let n = g.int(1, 3);
            Value::Array((0..n).map(|_| g.file_range(&s.workspace, false)).collect())
        }
        4 => json!({"newTaskspaceUuid": g.uuid_case(true)}),
        5 => taskspace_state_response(g),
        6 => json!({"success": true}),
        _ => user_feedback(g),
    };
    if g.chance(0.1) {
        // Acks from the extension may omit `data` (drift D-S7).
        json!({"success": true})
    } else {
        json!({"success": true, "data": data})
    }
}
