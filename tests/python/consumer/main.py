"""A consumer of the generated package, installed the way a project installs any
dependency (scripts/test-python.sh): type-checked with `mypy --strict`, then run. It
builds, encodes, decodes and matches messages, decodes typed reply data, keeps an
unknown message whole and reads a located decode error."""

from symgen_protocols import DecodeError, UnknownVariant, ck3lens, symposium
from symgen_protocols.symposium import (
    IpcMessage,
    IpcMessageGetSelection,
    IpcMessageLog,
    LogPayload,
    MessageSender,
)


def describe(message: IpcMessage) -> str:
    match message:
        case IpcMessageLog(payload=LogPayload(level=level, message=text)):
            return f"{level}: {text}"
        case UnknownVariant():
            return "unknown"
        case _:
            return message.symgen_tag if isinstance(message.symgen_tag, str) else "?"


sender = MessageSender(working_directory="/tmp", shell_pid=42)
log = IpcMessageLog(id="1", sender=sender, payload=LogPayload(level="info", message="hi"))
line = symposium.encode_ipc_message(log)
assert line == (
    '{"id":"1","sender":{"workingDirectory":"/tmp","shellPid":42},'
    '"type":"log","payload":{"level":"info","message":"hi"}}'
), line
decoded = symposium.decode_ipc_message(line)
assert decoded == log
assert describe(decoded) == "info: hi", describe(decoded)

request = IpcMessageGetSelection(id="2", sender=sender)
reply = request.decode_reply({"selectedText": "x", "startLine": 3})
assert reply.selected_text == "x" and reply.start_line == 3

unknown = symposium.decode_ipc_message(
    '{"type":"frobnicate","id":"3","sender":{"workingDirectory":"/"},"payload":[1]}'
)
assert describe(unknown) == "unknown"
assert '"payload":[1]' in symposium.encode_ipc_message(unknown)

try:
    ck3lens.decode_port_file('{"port": 65536, "pid": 1, "timestamp": 0}')
except DecodeError as error:
    assert error.pointer == "/port", error
else:
    raise AssertionError("an out-of-range port was accepted")

print("consumer ok")
