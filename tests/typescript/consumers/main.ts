// A consumer of the generated package, compiled under each module setup a TypeScript
// project typically has (scripts/test-ts.sh), then run: types and run-time values must
// resolve and agree in every one of them.
import { symposium, workerSideband } from "symgen-protocols";
import type { Violation } from "symgen-protocols";
import { isKnownIpcMessage, parseIpcMessage } from "symgen-protocols/symposium";
import type {
  IpcMessage,
  IpcMessageOrUnknown,
} from "symgen-protocols/symposium";

const line =
  '{"type":"log","id":"1","sender":{"workingDirectory":"/tmp"},"payload":{"level":"info","message":"hi"}}';
const message = JSON.parse(line) as IpcMessageOrUnknown;

function describe(known: IpcMessage): string {
  switch (known.type) {
    case "log":
      return `${known.payload.level}: ${known.payload.message}`;
    default:
      return known.type;
  }
}

if (!isKnownIpcMessage(message)) {
  throw new Error("a log message was not recognised");
}
if (describe(message) !== "info: hi") {
  throw new Error(`unexpected description: ${describe(message)}`);
}
if (!symposium.ipcMessageTags.includes("log")) {
  throw new Error("the tag list lacks log");
}
// The generated decoder: the same line decodes; a bad level is refused where it is.
const decoded = parseIpcMessage(line);
if (
  !decoded.ok ||
  !isKnownIpcMessage(decoded.value) ||
  describe(decoded.value) !== "info: hi"
) {
  throw new Error("the log line did not decode");
}
const loud = symposium.parseIpcMessage(line.replace('"info"', '"loud"'));
const errors: Violation[] = loud.ok ? [] : loud.errors;
if (
  errors[0]?.pointer !== "/payload/level" ||
  errors[0].rule !== "unknown_enum_value"
) {
  throw new Error(
    `a bad level was not refused at /payload/level: ${JSON.stringify(errors)}`,
  );
}
// JSON text with sorted keys, so that key order does not count.
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : v,
  );
}
const sent: unknown = symposium.encodeIpcMessage(decoded.value);
if (canonical(sent) !== canonical(JSON.parse(line))) {
  throw new Error(`re-encoded differently: ${JSON.stringify(sent)}`);
}
const unknown = {
  type: "frobnicate",
} as workerSideband.WorkerToServerOrUnknown;
if (workerSideband.isKnownWorkerToServer(unknown)) {
  throw new Error("an unknown tag was taken as known");
}
console.log("consumer ok");
