#!/usr/bin/env python3
"""Writes drifts.json: the drift resolutions of the protocol catalog (section 6) that
changed a wire shape, each as edits that turn today's schema back into the drift's old
shape, with the verdicts `symgen breaking` must give (old shape as --against, today's
schema as the new side) and why a careful reviewer agrees.
Run after editing: `python3 tests/breaking/make-drifts.py`."""
import json, os

P1, P3, P4, P5 = "symposium", "dialectic", "worker-sideband", "ck3lens"
D = "/$defs/"
S = {"type": "string"}
drifts = []

def drift(id_, file, title, ops, expect, verdict):
    expect = sorted(expect)
    drifts.append({"drift": id_, "file": file, "title": title, "old": ops,
                   "expect": expect, "verdict": verdict})

def msg(i):
    return D + "IpcMessage/oneOf/%d" % i

drift("D-S2", P1, "`TaskspaceStateResponse.agent_command` was a required array (Swift, TS)",
      [["set", D + "TaskspaceStateResponse/properties/agent_command", {"type": "array", "items": S}],
       ["set", D + "TaskspaceStateResponse/required", ["agent_command"]]],
      [["field-now-optional", "wire"], ["null-allowed", "wire"]],
      "the app may now omit it or send null, and the old extension calls `.join` on it: the crash the drift describes")
drift("D-S3", P1, "`TaskspaceStateRequest` had no `collaborator`",
      [["remove", D + "TaskspaceStateRequest/properties/collaborator"]],
      [["optional-field-added", "compatible"]],
      "an old app ignores the new key (R2)")
drift("D-S4", P1, "`taskspace_roll_call` had an empty payload (seed)",
      [["set", D + "TaskspaceRollCallPayload/properties", {}],
       ["set", D + "TaskspaceRollCallPayload/required", []]],
      [["required-field-added", "wire"]],
      "an app that sends `{}` is refused by an extension that requires `taskspace_uuid`")
drift("D-S5", P1, "`resolve_symbol_by_name` sent `{symbol_name}` (seed)",
      [["set", D + "ResolveSymbolByNamePayload", {"type": "object", "properties": {"symbol_name": S}, "required": ["symbol_name"]}]],
      [["field-renamed", "wire"]],
      "new MCP servers write `name`, which a seed-era extension does not read; old senders are still accepted through the alias")
drift("D-S6", P1, "`find_all_references` sent `{symbol_name}` (seed)",
      [["set", D + "FindAllReferencesPayload", {"type": "object", "properties": {"symbol_name": S}, "required": ["symbol_name"]}]],
      [["field-removed", "wire"], ["required-field-added", "wire"]],
      "neither side understands the other's payload")
drift("D-S7", P1, "`present_walkthrough` wrote `base_uri` and expected no reply (215c6a41)",
      [["set", D + "PresentWalkthroughPayload", {"type": "object", "properties": {"content": S, "base_uri": S}, "required": ["content", "base_uri"]}],
       ["set", msg(6) + "/x-symgen-reply", None]],
      [["field-renamed", "wire"], ["reply-changed", "wire"]],
      "the rename is the 63bd79ad bug (an old extension lost the base URI); a new server waits for an ack an old extension never sends")
drift("D-S10", P1, "`spawn_taskspace` expected no reply (Rust)",
      [["set", msg(14) + "/x-symgen-reply", None]],
      [["reply-changed", "wire"]],
      "an old app sends no `response`, a new MCP server waits for the new taskspace's UUID")
drift("D-S11", P1, "`update_taskspace` had no `collaborator` (seed)",
      [["remove", D + "UpdateTaskspacePayload/properties/collaborator"]],
      [["optional-field-added", "compatible"]],
      "an old app ignores the new key")
drift("D-S12", P1, "`delete_taskspace` was fire-and-forget (Rust)",
      [["set", msg(20) + "/x-symgen-reply", None]],
      [["reply-changed", "wire"]],
      "an old requester reports the deletion before the user confirmed; a new one waits for an ack")
drift("D-S15", P1, "`comment_type` was PascalCase (Rust)",
      [["set", D + "CommentType", {"type": "string", "enum": ["Explanation", "Question", "Todo", "Fixme"]}]],
      [["enum-value-renamed", "wire"]] * 4,
      "new senders write lowercase values an old PascalCase receiver refuses; old senders are read through the aliases")
drift("D-S16", P1, "`DiffLine.line_type` was `context|addition|deletion` (TS before bd52dafb)",
      [["set", D + "DiffLineType", {"type": "string", "enum": ["context", "addition", "deletion"]}]],
      [["enum-value-removed", "wire"]] * 3 + [["enum-value-added", "wire"]] * 3,
      "no value means the same on both sides: the diff rendering bug bd52dafb fixed")
drift("D-S18", P1, "`LogLevel` had no `warn` (Rust)",
      [["set", D + "LogLevel/enum", ["debug", "info", "error"]]],
      [["enum-value-added", "wire"]],
      "a daemon that decodes a closed `info|error|debug` refuses the TS logger's `warn`")
drift("D-S19", P1, "`log_progress.category` was a free string (Swift)",
      [["set", D + "LogProgressPayload/properties/category", S]],
      [["range-narrowed", "wire"]],
      "an MCP server that wrote another string is refused by the new app")
drift("D-S21", P1, "the Rust stdio bridge decoded `type` as a closed enum",
      [["remove", msg(24)]],
      [["union-opened", "compatible"]],
      "keeping unknown types (R4) only accepts more")
drift("D-S25", P1, "`FileRange` had no `content` (TS ipc.ts)",
      [["remove", D + "FileRange/properties/content"]],
      [["optional-field-added", "compatible"]],
      "an old MCP server ignores the key in `find_all_references` replies")
drift("D-S26", P1, "`MessageSender.shellPid` was a 64-bit `Int` (Swift)",
      [["set", D + "MessageSender/properties/shellPid", {"type": ["integer", "null"], "format": "int64"}]],
      [["range-narrowed", "wire"]],
      "a negative or larger-than-u32 PID from an old sender is refused; in practice PIDs fit, but the schema no longer promises it")
drift("D-X1", P3, "the tag was `present-review` (seed)",
      [["set", D + "DialecticRequest/oneOf/0/properties/type", {"type": "string", "const": "present-review"}]],
      [["tag-renamed", "wire"]],
      "new MCP servers write `present_review`, which a seed extension does not know; the old tag is still read")
drift("D-X2", P1, "`ReviewMode` was PascalCase (later Rust)",
      [["set", D + "ReviewMode", {"type": "string", "enum": ["Replace", "UpdateSection", "Append"]}]],
      [["enum-value-renamed", "wire"]] * 3,
      "an old PascalCase receiver refuses the kebab-case values (the `present_review` variant on P1 is retired, but its MCP server still sends it)")
drift("D-X5", P1, "`section` was optional whatever the `mode` (seed)",
      [["set", D + "PresentReviewParams/allOf", [{"not": {"required": ["baseUri", "base_uri"]}}]]],
      [["constraint-added", "wire"]],
      "an old sender may send `update-section` without `section`, which is refused now")
drift("D-W3", P4, "`backend_info.supports_images` was required (seed)",
      [["set", D + "BackendInfo/properties/supports_images", {"type": "boolean"}],
       ["set", D + "BackendInfo/required", ["language", "supports_images"]]],
      [["field-now-optional", "wire"], ["null-allowed", "wire"]],
      "by the schema a new worker may omit it, which a seed server refuses (symgen's workers always emit it; the schema does not promise that)")
drift("D-C6", P5, "`getDiagnostics` params were `{path}` (seed)",
      [["set", D + "GetDiagnosticsParams", {"type": "object", "properties": {"path": S}, "required": ["path"]}]],
      [["field-now-optional", "wire"], ["null-allowed", "wire"], ["optional-field-added", "compatible"],
       ["constraint-added", "compatible"]],
      "a new client may send only `uri`, which a seed server refuses; the at-least-one rule is implied by the old required `path`")
drift("D-C7", P5, "a parse error's `id` was not `null` (seed, clients used 0)",
      [["set", D + "JsonRpcErrorResponse/properties/id", {"$ref": "#/$defs/RequestId"}]],
      [["null-allowed", "wire"]],
      "an old client that decodes `id` as integer-or-string refuses `null`")
drift("D-C9", P5, "`Diagnostic` had no `relatedInformation` and `tags` (seed)",
      [["remove", D + "Diagnostic/properties/relatedInformation"], ["remove", D + "Diagnostic/properties/tags"]],
      [["optional-field-added", "compatible"]] * 2,
      "an old client ignores keys it does not know")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "drifts.json"), "w") as f:
    json.dump({"drifts": drifts}, f, indent=1)
    f.write("\n")
print(len(drifts), "drifts")

def verdicts(expect):
    out = []
    for pair in expect:
        text = "`%s` [%s]" % (pair[0], pair[1])
        n = expect.count(pair)
        item = text + (" ×%d" % n if n > 1 else "")
        if item not in out:
            out.append(item)
    return ", ".join(out)

rows = ["| drift | old shape | verdicts | why |", "|---|---|---|---|"]
for d in drifts:
    rows.append("| %s | %s (%s) | %s | %s |" % (d["drift"], d["title"], d["file"], verdicts(d["expect"]), d["verdict"]))
docs = os.path.join(here, "..", "..", "docs", "breaking.md")
text = open(docs).read()
start, end = "<!-- drifts:start -->\n", "<!-- drifts:end -->"
a, b = text.index(start) + len(start), text.index(end)
open(docs, "w").write(text[:a] + "\n".join(rows) + "\n" + text[b:])
