//! P3 (dialectic), P4 (worker sideband) and P5 (CK3 Lens JSON-RPC) messages, shaped like
//! the catalog's examples (sections 3, 4 and 5) with varied values.

use serde_json::{Value, json};

use super::corpus::Message;
use super::values::Gen;

fn message(root: &'static str, tag: &str, value: Value) -> Message {
    Message {
        root,
        tag: tag.to_string(),
        text: value.to_string(),
    }
}

/// One P3 message: a `present_review` request or the extension's flat reply.
pub fn dialectic_message(g: &mut Gen) -> Message {
    if g.chance(0.55) {
        let user = g.user();
        let project = g.project();
        let mut payload = json!({
            "content": format!(
                "# {}\n\n## Summary\n{}\n\n## Details\n- {}\n- {}",
                g.prose(2, 4), g.prose(5, 12), g.prose(3, 8), g.prose(3, 8)
            ),
            "mode": g.pick(&["replace", "replace", "append", "update-section"]),
        });
        if payload["mode"] == "update-section" {
            payload["section"] = json!(g.prose(1, 3));
        }
        payload["baseUri"] = json!(format!("/home/{user}/{project}"));
        let value = if g.chance(0.5) {
            json!({"type": "present_review", "payload": payload, "id": g.uuid()})
        } else {
            json!({"type": "present_review", "id": g.uuid(), "payload": payload})
        };
        message("DialecticRequest", "present_review", value)
    } else {
        let value = if g.chance(0.9) {
            json!({"id": g.uuid(), "success": true})
        } else {
            let error = g.pick(&[
                "Invalid JSON message",
                "Unknown message type: present-walkthrough",
                "Review panel is not open",
            ]);
            json!({"id": "unknown", "success": false, "error": error})
        };
        message("IPCResponse", "-", value)
    }
}

const P4_MIX: &[(&str, &str, u32)] = &[
    ("WorkerToServer", "readline_start", 30),
    ("WorkerToServer", "readline_result", 30),
    ("ServerToWorker", "stdin_write", 15),
    ("WorkerToServer", "request_end", 15),
    ("WorkerToServer", "plot_image", 4),
    ("ServerToWorker", "interrupt", 2),
    ("WorkerToServer", "backend_info", 2),
    ("ServerToWorker", "session_end", 1),
    ("WorkerToServer", "session_end", 1),
];

/// One P4 message, its direction and type drawn from a REPL session's traffic.
pub fn worker_sideband_message(g: &mut Gen) -> Message {
    let weights: Vec<u32> = P4_MIX.iter().map(|(_, _, w)| *w).collect();
    let (root, tag, _) = P4_MIX[g.weighted(&weights)];
    let prompt = g.pick(&[">>> ", "... ", "> ", "+ ", "Browse[1]> ", ""]);
    let value = match tag {
        "readline_start" => json!({"type": tag, "prompt": prompt}),
        "readline_result" => {
            let line = match g.below(4) {
                0 => format!("print({} + {})\n", g.int(0, 99), g.int(0, 99)),
                1 => format!("x <- rnorm({})\n", g.int(1, 1000)),
                2 => format!("{}\n", g.code_line()),
                _ => "\n".to_string(),
            };
            json!({"type": tag, "prompt": prompt, "line": line})
        }
        "stdin_write" => json!({"type": tag, "text": ""}),
        "plot_image" => {
            let len = g.int(48, 480) as usize;
            json!({
                "type": tag,
                "id": format!("plot-{}-{}", g.int(1000, 9999), g.int(1, 20)),
                "mime_type": "image/png",
                "data": g.base64(len),
                "is_new": g.chance(0.7),
            })
        }
        "backend_info" => json!({
            "type": tag,
            "language": g.pick(&["python", "r"]),
            "supports_images": g.chance(0.5),
        }),
        _ => json!({"type": tag}),
    };
    message(root, tag, value)
}

const METHODS: &[(&str, u32)] = &[
    ("getDiagnostics", 30),
    ("ping", 15),
    ("getAllDiagnostics", 15),
    ("getWorkspaceErrors", 10),
    ("validateFile", 10),
    ("getActiveFile", 8),
    ("getOpenFiles", 7),
    ("executeCommand", 5),
];

const COMMANDS: &[&str] = &[
    "ck3lens.validateFile",
    "ck3lens.validateWorkspace",
    "ck3lens.refreshViews",
    "ck3lens.initSession",
    "workbench.action.problems.focus",
    "editor.action.marker.next",
    "editor.action.marker.prev",
];

/// One P5 line: a request, its response (success or error), or rarely the port file.
pub fn ck3lens_message(g: &mut Gen) -> Message {
    let weights: Vec<u32> = METHODS.iter().map(|(_, w)| *w).collect();
    let method = METHODS[g.weighted(&weights)].0;
    let id = json!(g.int(1, 5000));
    let roll = g.below(100);
    if roll < 48 {
        let params = ck3_params(g, method);
        let mut request = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if let Some(params) = params {
            request["params"] = params;
        }
        message("JsonRpcRequest", method, request)
    } else if roll < 93 {
        let result = ck3_result(g, method);
        message(
            "JsonRpcResponse",
            method,
            json!({"jsonrpc": "2.0", "id": id, "result": result}),
        )
    } else if roll < 99 {
        let error = match g.below(3) {
            0 => json!({"code": -32601, "message": format!("Method not found: get{}", g.symbol())}),
            1 => json!({"code": -32603, "message": "Error: Either uri or path required"}),
            _ => json!({
                "code": -32700,
                "message": "Parse error",
                "data": "Unexpected token } in JSON at position 17",
            }),
        };
        let id = if error["code"] == -32700 {
            Value::Null
        } else {
            id
        };
        message(
            "JsonRpcResponse",
            "-",
            json!({"jsonrpc": "2.0", "id": id, "error": error}),
        )
    } else {
        message(
            "PortFile",
            "-",
            json!({"port": 9847 + g.int(0, 1), "pid": g.int(1000, 99999), "timestamp": g.timestamp_ms()}),
        )
    }
}

fn mod_path(g: &mut Gen) -> String {
    let dir = g.pick(&[
        "events",
        "common/decisions",
        "common/traits",
        "history/characters",
    ]);
    let stem = g.pick(&["foo", "bar_events", "my_mod_decisions", "00_traits"]);
    format!("/home/{}/mod/{dir}/{stem}.txt", g.user())
}

fn ck3_params(g: &mut Gen, method: &str) -> Option<Value> {
    let params = match method {
        "getDiagnostics" => {
            if g.chance(0.7) {
                json!({"path": mod_path(g)})
            } else {
                json!({"uri": format!("file://{}", mod_path(g))})
            }
        }
        "getAllDiagnostics" => {
            let mut params = json!({"severity": g.pick(&["error", "warning", "info", "hint"])});
            if g.chance(0.5) {
                params["source"] = json!(g.pick(&["CK3 Lens", "Pylance"]));
            }
            params["limit"] = json!(g.int(1, 100));
            params
        }
        "getWorkspaceErrors" => json!({"includeWarnings": g.chance(0.8)}),
        "validateFile" => json!({"path": mod_path(g)}),
        "executeCommand" => json!({"command": g.pick(COMMANDS), "args": []}),
        _ => {
            if g.chance(0.1) {
                return None;
            }
            json!({})
        }
    };
    Some(params)
}

fn position(g: &mut Gen, line: u32) -> Value {
    json!({"line": line, "character": g.int(0, 60)})
}

fn diagnostic(g: &mut Gen) -> Value {
    let line = g.int(1, 800);
    let mut d = json!({
        "range": {"start": position(g, line), "end": position(g, line)},
        "message": format!("Unknown trigger '{}'", g.symbol()),
        "severity": g.pick(&["error", "warning", "info", "hint"]),
        "source": g.pick(&["CK3 Lens", "Pylance"]),
    });
    if g.chance(0.7) {
        d["code"] = if g.chance(0.5) {
            json!(format!("E{:03}", g.int(1, 120)))
        } else {
            json!(g.int(1000, 9999))
        };
    }
    if g.chance(0.05) {
        d["tags"] = json!(["unnecessary"]);
    }
    d
}

fn file_diagnostics(g: &mut Gen) -> Value {
    let path = mod_path(g);
    let n = g.int(0, 2);
    json!({
        "uri": format!("file://{path}"),
        "path": path,
        "diagnostics": Value::Array((0..n).map(|_| diagnostic(g)).collect()),
    })
}

fn ck3_result(g: &mut Gen, method: &str) -> Value {
    match method {
        "ping" => json!({"status": "ok", "timestamp": g.timestamp_ms()}),
        "getDiagnostics" => file_diagnostics(g),
        "getAllDiagnostics" => {
            let files: Vec<Value> = (0..g.int(1, 2)).map(|_| file_diagnostics(g)).collect();
            let total: usize = files
                .iter()
                .map(|f| f["diagnostics"].as_array().map_or(0, Vec::len))
                .sum();
            json!({"fileCount": files.len(), "totalDiagnostics": total, "files": files})
        }
        "getWorkspaceErrors" => json!({
            "summary": {"errors": g.int(0, 20), "warnings": g.int(0, 40), "info": g.int(0, 9),
                        "filesWithErrors": g.int(0, 5), "filesWithWarnings": g.int(0, 9)},
            "bySource": {"CK3 Lens": g.int(0, 30), "Pylance": g.int(0, 10)},
            "topErrorFiles": [{"path": mod_path(g), "errors": g.int(1, 9), "warnings": g.int(0, 9)}],
            "sources": ["CK3 Lens", "Pylance"],
        }),
        "validateFile" => {
            let mut result = file_diagnostics(g);
            result["languageId"] = json!("paradox-script");
            result
        }
        "getOpenFiles" => {
            let path = mod_path(g);
            json!({"count": 1, "files": [{
                "uri": format!("file://{path}"), "path": path, "languageId": "paradox-script",
                "isDirty": g.chance(0.3), "lineCount": g.int(1, 3000),
            }]})
        }
        "getActiveFile" => {
            if g.chance(0.2) {
                json!({"active": false})
            } else {
                let path = mod_path(g);
                json!({
                    "active": true, "uri": format!("file://{path}"), "path": path,
                    "languageId": "paradox-script", "isDirty": false, "lineCount": g.int(1, 3000),
                    "selection": {"line": g.int(1, 3000), "column": g.int(1, 80)},
                    "diagnostics": [],
                })
            }
        }
        _ => json!({"executed": true, "command": g.pick(COMMANDS)}),
    }
}
