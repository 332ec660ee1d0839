// TypeScript generation peers for the codegen benchmark (issue 3).
//
// For each schema file given, runs in this one node process:
//   - json-schema-to-typescript `compile` (format: false, i.e. without its prettier pass;
//     unreachableDefinitions: true, so every $defs entry is emitted like symgen does),
//   - json-schema-to-typescript with its defaults (format: true: output run through
//     prettier),
//   - quicktype-core, TypeScript, `just-types` (types only, like symgen),
// and prints one JSON object per line: {schema, tool, ok, ms_median, runs, bytes, error}.
// Each tool's output is written to `<out>/<tool>/<schema name>.ts` for inspection.
//
// Usage: node benches/node/codegen.mjs [--min-ms MS] [--min-runs N] [--max-runs N]
//        --out DIR SCHEMA...
// (benches/codegen.rs runs it and folds the numbers into its table.)

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { quicktypeTypeScript } from "./quicktype.mjs";

function parseArgs(argv) {
  const args = { minMs: 1000, minRuns: 3, maxRuns: 20, out: null, schemas: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === "--min-ms") args.minMs = Number(value());
    else if (arg === "--max-runs") args.maxRuns = Number(value());
    else if (arg === "--min-runs") args.minRuns = Number(value());
    else if (arg === "--out") args.out = value();
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else args.schemas.push(arg);
  }
  if (!args.out) throw new Error("--out DIR is required");
  return args;
}

function typeName(file) {
  const stem = basename(file)
    .replace(/\.schema\.json$/, "")
    .replace(/\.json$/, "");
  return stem.replace(/(^|[-_])(\w)/g, (_, __, c) => c.toUpperCase());
}

const tools = {
  "json-schema-to-typescript": (text, name) =>
    compile(JSON.parse(text), name, {
      bannerComment: "",
      format: false,
      unreachableDefinitions: true,
    }),
  "json-schema-to-typescript+prettier": (text, name) =>
    compile(JSON.parse(text), name, {
      bannerComment: "",
      unreachableDefinitions: true,
    }),
  quicktype: quicktypeTypeScript,
};

async function time(tool, text, name, minMs, minRuns, maxRuns) {
  const samples = [];
  let output = "";
  const deadline = performance.now() + minMs;
  // One warm-up run (JIT, module loading), then at least minRuns runs, more until minMs
  // has passed, at most maxRuns.
  output = await tool(text, name);
  while (
    samples.length < minRuns ||
    (samples.length < maxRuns && performance.now() < deadline)
  ) {
    const start = performance.now();
    output = await tool(text, name);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return {
    ms: samples[Math.floor(samples.length / 2)],
    runs: samples.length,
    output,
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  for (const file of args.schemas) {
    const text = readFileSync(file, "utf8");
    const name = typeName(file);
    for (const [toolName, tool] of Object.entries(tools)) {
      const record = { schema: basename(file), tool: toolName };
      try {
        const { ms, runs, output } = await time(
          tool,
          text,
          name,
          args.minMs,
          args.minRuns,
          args.maxRuns,
        );
        const dir = join(args.out, toolName);
        mkdirSync(dir, { recursive: true });
        writeFileSync(
          join(dir, `${basename(file).replace(/\.json$/, "")}.ts`),
          output,
        );
        Object.assign(record, {
          ok: true,
          ms_median: ms,
          runs,
          bytes: Buffer.byteLength(output),
        });
      } catch (error) {
        Object.assign(record, {
          ok: false,
          error: String(error?.message ?? error).split("\n")[0],
        });
      }
      console.log(JSON.stringify(record));
    }
  }
}

main().catch((error) => {
  console.error(`codegen peers: error: ${error.message}`);
  process.exit(2);
});
