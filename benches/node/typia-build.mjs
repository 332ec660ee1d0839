// Builds typia's ahead-of-time validators for the node validation benchmark (ajv.mjs):
// per protocol, `typia.createIs<Root>()` for each root type of the generated package's
// declarations (generated/typescript/<id>.d.ts), expanded by `typia generate` into
// plain code and transpiled to `benches/node/build/typia/<id>.mjs`, which exports `is<Root>`.
//
// typia checks the TypeScript types: it sees no integer ranges, no cross-field rules
// and no input aliases beyond what the types spell, so it checks less than symgen's
// decoders do; it also builds no value.
//
// Usage: node benches/node/typia-build.mjs [protocol-id ...]

import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const crateRoot = resolve(here, "../..");
const work = join(here, "build/typia");
const input = join(work, "input");
const output = join(work, "output");
const ids = process.argv.slice(2);
const protocols = ids.length
  ? ids
  : ["symposium", "taskspace-state", "dialectic", "worker-sideband", "ck3lens"];

rmSync(work, { recursive: true, force: true });
mkdirSync(input, { recursive: true });
for (const id of protocols) {
  const schema = JSON.parse(
    readFileSync(join(crateRoot, `schema/${id}.schema.json`), "utf8"),
  );
  const roots = schema["x-symgen-protocol"].roots;
  const module = join(crateRoot, `generated/typescript/${id}.js`);
  const lines = [
    'import typia from "typia";',
    `import type { ${roots.join(", ")} } from ${JSON.stringify(module)};`,
    ...roots.map(
      (root) => `export const is${root} = typia.createIs<${root}>();`,
    ),
  ];
  writeFileSync(join(input, `${id}.ts`), lines.join("\n") + "\n");
}
writeFileSync(
  join(work, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ["input/*.ts"],
  }),
);
execFileSync(
  join(here, "node_modules/.bin/typia"),
  [
    "generate",
    "--input",
    input,
    "--output",
    output,
    "--project",
    join(work, "tsconfig.json"),
  ],
  { stdio: "inherit", cwd: here },
);
for (const file of readdirSync(output)) {
  const source = readFileSync(join(output, file), "utf8");
  const js = ts.transpileModule(source, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
    },
  }).outputText;
  writeFileSync(join(work, file.replace(/\.ts$/, ".mjs")), js);
}
console.log(`typia validators in ${work}`);
