// A consumer of the generated package, compiled under each module setup a TypeScript
// project typically has (scripts/test-ts.sh), then run: types and run-time values must
// resolve and agree in every one of them.
import { symposium, workerSideband } from "symgen-protocols";
import { isKnownIpcMessage } from "symgen-protocols/symposium";
import type { IpcMessage, IpcMessageOrUnknown } from "symgen-protocols/symposium";

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
const unknown = { type: "frobnicate" } as workerSideband.WorkerToServerOrUnknown;
if (workerSideband.isKnownWorkerToServer(unknown)) {
  throw new Error("an unknown tag was taken as known");
}
console.log("consumer ok");
