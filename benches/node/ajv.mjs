// ajv comparison for the validation benchmark (issue 5, item 4), and symgen's
// generated TypeScript decoders against it (issue 12, item 4).
//
// Reads the SAME corpora the Rust benchmark writes (`target/bench-corpus/<id>.jsonl`,
// produced by `cargo bench --bench validation`) and the committed schemas
// (`schema/<id>.schema.json`), and measures per protocol, in interleaved rounds:
//   - JSON.parse alone (the node baseline),
//   - symgen's generated decoder (`generated/typescript/<id>.js`): `parse<Root>` on
//     the line, which checks every rule and builds the typed value. A protocol with
//     several roots (P3–P5: one per direction) is read as a receiver reads it, with
//     the root of its direction; which root a line has is found once before timing.
//   - JSON.parse + typia's ahead-of-time `is<Root>` (same roots), when
//     `node benches/node/typia-build.mjs` has built them (benches/node/build/typia/).
//   - JSON.parse + ajv 8 (Ajv2020) on the committed schema,
//   - JSON.parse + ajv 8 with `discriminator` on a copy of the schema where every
//     tagged `oneOf` gets `discriminator: {propertyName: <tag>}`. ajv's discriminator
//     needs a const/enum tag in every branch, so that copy drops the open `Unknown`
//     branch (rule R4): it then rejects unknown tags, which the corpus never contains.
//
// Usage: node benches/node/ajv.mjs [--rounds N] [--sample-ms MS] [--corpus-dir DIR]
//        [--schema-dir DIR] [protocol-id ...]

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";

const crateRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const PROTOCOLS = [
  "symposium",
  "taskspace-state",
  "dialectic",
  "worker-sideband",
  "ck3lens",
];

function parseArgs(argv) {
  const args = {
    rounds: 11,
    sampleMs: 25,
    corpusDir: join(crateRoot, "target/bench-corpus"),
    schemaDir: join(crateRoot, "schema"),
    packageDir: join(crateRoot, "generated/typescript"),
    protocols: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === "--rounds") args.rounds = Number(value());
    else if (arg === "--sample-ms") args.sampleMs = Number(value());
    else if (arg === "--corpus-dir") args.corpusDir = resolve(value());
    else if (arg === "--schema-dir") args.schemaDir = resolve(value());
    else if (arg === "--package-dir") args.packageDir = resolve(value());
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`);
    else args.protocols.push(arg);
  }
  if (args.protocols.length === 0) args.protocols = PROTOCOLS;
  return args;
}

// symgen's decoder of each line: `parse<Root>` of the root the line is an instance of
// (found before timing), in the generated package's CommonJS module for `id`.
function symgenParsers(packageDir, id, schema, lines) {
  const module = require(join(packageDir, `${id}.js`));
  const names = schema["x-symgen-protocol"].roots;
  const roots = names.map((root) => module[`parse${root}`]);
  // A known variant of the root: an open union also accepts the other direction's
  // messages, as its unknown case.
  const known = (line, i) => {
    const result = roots[i](line);
    const isKnown = module[`isKnown${names[i]}`];
    return result.ok && (isKnown === undefined || isKnown(result.value));
  };
  return lines.map((line) => {
    const parse = roots.find((_, i) => known(line, i));
    if (parse === undefined) {
      const errors = roots.map((p) => JSON.stringify(p(line).errors[0]));
      throw new Error(`${id}: symgen rejects ${line}: ${errors.join("; ")}`);
    }
    return parse;
  });
}

// typia's `is<Root>` per protocol, when built (see the header); else null.
async function typiaGuards(id) {
  const file = join(crateRoot, `benches/node/build/typia/${id}.mjs`);
  return existsSync(file) ? await import(file) : null;
}

// The tag key shared by every branch of `oneOf` (a string const or enum of strings in
// `properties`), ignoring the open Unknown branch; null when there is none.
function discriminatorTag(oneOf) {
  const known = oneOf.filter((branch) => !branch["x-symgen-unknown"]);
  if (known.length === 0) return null;
  const keys = Object.keys(known[0].properties ?? {});
  return (
    keys.find((key) =>
      known.every((branch) => {
        const prop = branch.properties?.[key];
        if (!prop) return false;
        if (typeof prop.const === "string") return true;
        return (
          Array.isArray(prop.enum) &&
          prop.enum.every((v) => typeof v === "string")
        );
      }),
    ) ?? null
  );
}

function isRequired(schema, branches, key) {
  const has = (s) => Array.isArray(s.required) && s.required.includes(key);
  return has(schema) || branches.every(has);
}

// A copy of `schema` with `discriminator` on every tagged oneOf (see the header).
function withDiscriminators(schema) {
  let count = 0;
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if (Array.isArray(out.oneOf)) {
      const tag = discriminatorTag(out.oneOf);
      if (tag !== null) {
        const known = out.oneOf.filter((branch) => !branch["x-symgen-unknown"]);
        if (isRequired(out, known, tag)) {
          out.oneOf = known;
          out.discriminator = { propertyName: tag };
          count++;
        }
      }
    }
    return out;
  };
  return { schema: walk(schema), count };
}

// The committed schemas refer to each other (`$ref` to another protocol's `$id`):
// ajv gets every other one to resolve them.
function compile(schema, discriminator, others) {
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: false,
    discriminator,
  });
  for (const other of others) {
    if (other.$id !== schema.$id) ajv.addSchema(other);
  }
  return ajv.compile(schema);
}

function allSchemas(schemaDir) {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".schema.json"))
    .map((file) => JSON.parse(readFileSync(join(schemaDir, file), "utf8")));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(approaches, lines, rounds, sampleMs) {
  const rates = approaches.map(() => []);
  const sampleNs = BigInt(sampleMs) * 1_000_000n;
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < approaches.length; offset++) {
      const index = (round + offset) % approaches.length;
      const pass = approaches[index].pass;
      const start = process.hrtime.bigint();
      let runs = 0;
      let elapsed = 0n;
      while (runs === 0 || elapsed < sampleNs) {
        pass(lines);
        runs++;
        elapsed = process.hrtime.bigint() - start;
      }
      rates[index].push((runs * lines.length) / (Number(elapsed) / 1e9));
    }
  }
  return rates.map(median);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  console.log(
    `node ${process.version}, ajv ${JSON.parse(readFileSync(join(crateRoot, "benches/node/node_modules/ajv/package.json"))).version}`,
  );
  for (const id of args.protocols) {
    const corpusPath = join(args.corpusDir, `${id}.jsonl`);
    let text;
    try {
      text = readFileSync(corpusPath, "utf8");
    } catch {
      throw new Error(
        `${corpusPath} is missing: run \`cargo bench --bench validation\` first`,
      );
    }
    const lines = text.split("\n").filter((line) => line.length > 0);
    const schema = JSON.parse(
      readFileSync(join(args.schemaDir, `${id}.schema.json`), "utf8"),
    );
    const others = allSchemas(args.schemaDir);
    const plain = compile(schema, false, others);
    const tagged = withDiscriminators(schema);
    const parsers = symgenParsers(args.packageDir, id, schema, lines);
    const approaches = [
      {
        label: "JSON.parse",
        pass: (ls) => {
          let ok = 0;
          for (const line of ls) if (JSON.parse(line) !== undefined) ok++;
          return ok;
        },
      },
      {
        label: "JSON.parse + ajv (Ajv2020)",
        pass: (ls) => {
          let ok = 0;
          for (const line of ls) if (plain(JSON.parse(line))) ok++;
          return ok;
        },
      },
    ];
    if (tagged.count > 0) {
      const fast = compile(tagged.schema, true, others);
      approaches.push({
        label: `JSON.parse + ajv + discriminator (${tagged.count})`,
        pass: (ls) => {
          let ok = 0;
          for (const line of ls) if (fast(JSON.parse(line))) ok++;
          return ok;
        },
        validate: fast,
      });
    }
    approaches[1].validate = plain;
    const typia = await typiaGuards(id);
    if (typia !== null) {
      const roots = schema["x-symgen-protocol"].roots;
      const guards = parsers.map((parse) => {
        const module = require(join(args.packageDir, `${id}.js`));
        const root = roots.find((r) => module[`parse${r}`] === parse);
        return typia[`is${root}`];
      });
      approaches.push({
        label: "JSON.parse + typia is<Root> (AOT)",
        pass: (ls) => {
          let ok = 0;
          for (let i = 0; i < ls.length; i++)
            if (guards[i](JSON.parse(ls[i]))) ok++;
          return ok;
        },
        validate: () => false,
      });
    }
    approaches.push({
      label: "symgen parse<Root> (generated decoder)",
      pass: (ls) => {
        let ok = 0;
        for (let i = 0; i < ls.length; i++) if (parsers[i](ls[i]).ok) ok++;
        return ok;
      },
      validate: () => false,
    });
    // The same checks on values parsed once before timing: what each adds to
    // JSON.parse, without the parse (and its garbage) in the measurement.
    const values = lines.map((line) => JSON.parse(line));
    const module = require(join(args.packageDir, `${id}.js`));
    const decoders = parsers.map(
      (parse) => module[parse.name.replace(/^parse/, "decode")],
    );
    const best = tagged.count > 0 ? approaches[2].validate : plain;
    approaches.push({
      label: `  ajv${tagged.count > 0 ? " + discriminator" : ""}, parsed values`,
      pass: () => {
        let ok = 0;
        for (const value of values) if (best(value)) ok++;
        return ok;
      },
      validate: () => false,
    });
    approaches.push({
      label: "  symgen decode<Root>, parsed values",
      pass: () => {
        let ok = 0;
        for (let i = 0; i < values.length; i++)
          if (decoders[i](values[i]).ok) ok++;
        return ok;
      },
      validate: () => false,
    });
    for (const approach of approaches) {
      const accepted = approach.pass(lines);
      if (accepted !== lines.length) {
        const bad = lines.find((line) => !approach.validate(JSON.parse(line)));
        throw new Error(
          `${id}: ${approach.label} accepted ${accepted} of ${lines.length}; first rejected: ${bad}\n` +
            JSON.stringify(approach.validate.errors, null, 1),
        );
      }
    }
    const rates = measure(approaches, lines, args.rounds, args.sampleMs);
    const avg = Math.round(
      lines.reduce((n, l) => n + Buffer.byteLength(l), 0) / lines.length,
    );
    console.log(
      `\n${id} (${lines.length} messages, avg ${avg} B): median of ${args.rounds} rounds`,
    );
    console.log(
      `  ${"approach".padEnd(44)} ${"msgs/s".padStart(12)} ${"µs/msg".padStart(8)} ${"vs parse".padStart(9)} ${"vs best ajv".padStart(12)}`,
    );
    // The faster ajv set-up (with discriminator where the schema allows it).
    const ajvBest = Math.max(
      ...approaches
        .map((approach, i) =>
          approach.label.startsWith("JSON.parse + ajv") ? rates[i] : 0,
        )
        .filter((rate) => rate > 0),
    );
    approaches.forEach((approach, i) => {
      const rate = rates[i];
      console.log(
        `  ${approach.label.padEnd(44)} ${Math.round(rate).toLocaleString("en-US").padStart(12)} ${(1e6 / rate).toFixed(3).padStart(8)} ${(rate / rates[0]).toFixed(2).padStart(8)}× ${(rate / ajvBest).toFixed(2).padStart(7)}×`,
      );
    });
  }
}

try {
  await main();
} catch (error) {
  console.error(`ajv bench: error: ${error.message}`);
  process.exit(2);
}
