// The TypeScript generators symgen is measured against, run on a directory of
// schemas for benches/schema-coverage.py: json-schema-to-typescript (`compile`, its
// defaults) and quicktype-core (TypeScript, `just-types`). Each schema's output is
// written to `<out>/<tool>/<stem>.ts`; one JSON line per schema and tool says whether
// the tool produced output and, when not, why.
//
// Usage: node benches/node/coverage-peers.mjs --out DIR SCHEMA...
// Sibling `$ref`s resolve from the schema's directory; neither tool is given network
// access beyond what it does by itself.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { quicktypeTypeScript } from "./quicktype.mjs";

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
if (outIndex < 0 || !args[outIndex + 1]) {
  console.error("usage: node coverage-peers.mjs --out DIR SCHEMA...");
  process.exit(2);
}
const out = args[outIndex + 1];
const schemas = args.filter((_, i) => i !== outIndex && i !== outIndex + 1);

function typeName(file) {
  const stem = basename(file)
    .replace(/\.schema\.json$/, "")
    .replace(/\.json$/, "");
  const name = stem
    .replace(/(^|[-_.])(\w)/g, (_, __, c) => c.toUpperCase())
    .replace(/\W/g, "");
  return /^[0-9]/.test(name) ? `T${name}` : name || "Root";
}

const TIMEOUT_MS = 60_000;

function withTimeout(promise) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

const tools = {
  "json-schema-to-typescript": (text, name, file) =>
    compile(JSON.parse(text), name, { bannerComment: "", cwd: dirname(file) }),
  quicktype: quicktypeTypeScript,
};

for (const tool of Object.keys(tools)) {
  mkdirSync(join(out, tool), { recursive: true });
}
for (const file of schemas) {
  const text = readFileSync(file, "utf8");
  const stem = basename(file).replace(/\.json$/, "");
  for (const [tool, run] of Object.entries(tools)) {
    try {
      const code = await withTimeout(
        Promise.resolve(run(text, typeName(file), file)),
      );
      writeFileSync(join(out, tool, `${stem}.ts`), `${code}\nexport {};\n`);
      console.log(JSON.stringify({ schema: stem, tool, ok: true }));
    } catch (err) {
      const message = String(err?.message ?? err)
        .split("\n")[0]
        .slice(0, 200);
      console.log(
        JSON.stringify({ schema: stem, tool, ok: false, error: message }),
      );
    }
  }
}
