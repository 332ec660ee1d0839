// ajv on a JSON-lines stream, for `cargo bench --bench validation -- --stream MIB`
// (issue 13, item 6): the stream file is read in 1 MiB chunks and split into lines,
// and each line is judged by JSON.parse alone (node's floor) and by JSON.parse + ajv 8
// (Ajv2020, `strict: false`, `validateFormats: false`, as in ajv.mjs) on the schema.
// Every line must be accepted. Prints one line per approach: `<label>\t<seconds>\t<lines>`.
//
// Usage: node benches/node/ajv-stream.mjs SCHEMA STREAM

import { closeSync, openSync, readFileSync, readSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, streamPath] = process.argv.slice(2);
if (!schemaPath || !streamPath) {
  console.error("usage: node benches/node/ajv-stream.mjs SCHEMA STREAM");
  process.exit(2);
}

// The committed schemas refer to each other by `$id`: ajv gets the others too.
function compile(schemaPath) {
  const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const dir = dirname(schemaPath);
  for (const file of readdirSync(dir)) {
    if (!file.endsWith(".schema.json") || file === basename(schemaPath)) continue;
    const other = JSON.parse(readFileSync(join(dir, file), "utf8"));
    if (other.$id !== schema.$id) ajv.addSchema(other);
  }
  return ajv.compile(schema);
}

// Seconds to read every line of the stream and judge it with `accept`, and how many
// lines it accepted.
function perLine(accept) {
  const start = process.hrtime.bigint();
  const fd = openSync(streamPath, "r");
  const chunk = Buffer.alloc(1 << 20);
  let carry = "";
  let accepted = 0;
  let lines = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    // A chunk may end inside a UTF-8 sequence: split at the last newline in bytes.
    const last = chunk.lastIndexOf(10, read - 1);
    if (last < 0) {
      carry += chunk.toString("utf8", 0, read);
      continue;
    }
    const text = carry + chunk.toString("utf8", 0, last);
    carry = chunk.toString("utf8", last + 1, read);
    for (const line of text.split("\n")) {
      lines++;
      if (accept(line)) accepted++;
    }
  }
  if (carry.length > 0) {
    lines++;
    if (accept(carry)) accepted++;
  }
  closeSync(fd);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (accepted !== lines) {
    throw new Error(`${accepted} of ${lines} lines accepted`);
  }
  return { seconds, lines };
}

const validate = compile(schemaPath);
const approaches = [
  ["JSON.parse (node floor)", (line) => JSON.parse(line) !== undefined],
  ["JSON.parse + ajv (Ajv2020)", (line) => validate(JSON.parse(line))],
];
for (const [label, accept] of approaches) {
  const { seconds, lines } = perLine(accept);
  console.log(`${label}\t${seconds}\t${lines}`);
}
