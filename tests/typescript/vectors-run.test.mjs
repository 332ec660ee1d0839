// Runs every conformance vector through the generated decoders and encoders (run by
// scripts/test-ts.sh with `node --test`); the verdict must equal Rust's:
//
// * valid.json: `decode<Root>` accepts the message as a known variant, and
//   `encode<Root>` gives back `canonical` (or the message without its `null`-valued
//   keys). A reply (`reply_to`) also decodes its reply data with
//   `decode<Root>Reply(tag, data)` and re-encodes it in place.
// * invalid.json: decoding fails, and the first violation is at the vector's pointer
//   or below it (what the value there lacks); a fault in a reply's data fails
//   `decode<Root>Reply` there instead.
// * unknown.json: decoding succeeds as the open union's unknown case (`isKnown<Root>`
//   says no), and encoding gives the message back unchanged.
//
// No vector is skipped. Environment: SYMGEN_VECTORS (vector directory),
// SYMGEN_SCHEMAS (schema directory), SYMGEN_PACKAGE (the generated package),
// SYMGEN_RUN_COUNTS (file the counts are written to, as JSON).

import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, describe, test } from "node:test";

const vectorsDir = process.env.SYMGEN_VECTORS;
const schemaDir = process.env.SYMGEN_SCHEMAS;
const packageDir = process.env.SYMGEN_PACKAGE;
if (!vectorsDir || !schemaDir || !packageDir) {
  throw new Error("set SYMGEN_VECTORS, SYMGEN_SCHEMAS and SYMGEN_PACKAGE");
}
const require = createRequire(import.meta.url);
const counts = { valid: 0, replies: 0, invalid: 0, unknown: 0 };

// A protocol's schema is `<id>.schema.json`; another schema is `<stem>.json` (the
// real-world corpus), which has no replies and is no protocol.
function loadSchema(stem) {
  for (const name of [`${stem}.schema.json`, `${stem}.json`]) {
    const file = path.join(schemaDir, name);
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  }
  return {};
}

// The root whose union declares the request tagged `tag` with typed reply data.
function requestRoot(schema, tag) {
  for (const root of schema["x-symgen-protocol"]?.roots ?? []) {
    const def = schema.$defs?.[root] ?? {};
    for (const variant of def.oneOf ?? def.anyOf ?? []) {
      if (!variant["x-symgen-reply"]) continue;
      for (const property of Object.values(variant.properties ?? {})) {
        const tags =
          property.const !== undefined
            ? [property.const]
            : (property.enum ?? []);
        if (tags.includes(tag)) return root;
      }
    }
  }
  throw new Error(`no request tagged ${tag} has typed reply data`);
}

function segments(pointer) {
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function get(value, pointer) {
  let current = value;
  for (const segment of segments(pointer)) {
    if (
      current === null ||
      typeof current !== "object" ||
      !(segment in current)
    ) {
      return undefined;
    }
    current = current[segment];
  }
  return current;
}

function replaced(value, parts, replacement) {
  if (parts.length === 0) return replacement;
  const [head, ...rest] = parts;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(head)] = replaced(copy[Number(head)], rest, replacement);
    return copy;
  }
  return { ...value, [head]: replaced(value?.[head], rest, replacement) };
}

function withoutNulls(value) {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

// The module of a vector directory: its stem, numbered when the stem is a name the
// package itself uses (`package` → `package2`).
function loadModule(stem) {
  const file = [stem, `${stem}2`].find((f) =>
    fs.existsSync(path.join(packageDir, `${f}.d.ts`)),
  );
  return require(path.resolve(packageDir, `${file ?? stem}.js`));
}

function load(stem, kind) {
  const file = path.join(vectorsDir, stem, `${kind}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
}

function fn(module, name) {
  const found = module[name];
  assert.equal(typeof found, "function", `the package has no ${name}`);
  return found;
}

function show(errors) {
  return errors
    .map((e) => `${e.pointer || "/"}: ${e.rule}: ${e.message}`)
    .join("; ");
}

const stems = fs
  .readdirSync(vectorsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

for (const stem of stems) {
  const module = loadModule(stem);
  const schema = loadSchema(stem);
  const protocol = schema["x-symgen-protocol"] !== undefined;
  const dataPointer = schema["x-symgen-protocol"]?.replyData ?? null;

  describe(`${stem} valid`, () => {
    for (const v of load(stem, "valid")) {
      test(v.name, () => {
        const decoded = fn(module, `decode${v.root}`)(v.message);
        assert.ok(
          decoded.ok,
          `rejected: ${decoded.ok ? "" : show(decoded.errors)}`,
        );
        const isKnown = module[`isKnown${v.root}`];
        if (isKnown)
          assert.ok(isKnown(decoded.value), "decoded as the unknown case");
        let encoded = fn(module, `encode${v.root}`)(decoded.value);
        if (v.reply_to && dataPointer) {
          const data = get(v.message, dataPointer);
          if (data !== undefined && data !== null) {
            const root = requestRoot(schema, v.reply_to);
            const reply = fn(module, `decode${root}Reply`)(v.reply_to, data);
            assert.ok(
              reply.ok,
              `reply data rejected: ${reply.ok ? "" : show(reply.errors)}`,
            );
            const again = fn(module, `encode${root}Reply`)(
              v.reply_to,
              reply.value,
            );
            encoded = replaced(encoded, segments(dataPointer), again);
            counts.replies++;
          }
        }
        const expected = v.canonical ?? withoutNulls(v.message);
        // A schema symgen did not write: `null` and absent are told apart only where
        // the schema keeps other keys, so `null`-valued keys count on neither side.
        assert.deepEqual(protocol ? encoded : withoutNulls(encoded), expected);
        // What the encoder gives is JSON and decodes to the same value again.
        const text = JSON.stringify(encoded);
        assert.ok(
          fn(module, `parse${v.root}`)(text).ok,
          "the encoding does not decode",
        );
        counts.valid++;
      });
    }
  });

  describe(`${stem} invalid`, () => {
    for (const v of load(stem, "invalid")) {
      test(v.name, () => {
        let decoded = fn(module, `decode${v.root}`)(v.message);
        let prefix = "";
        if (decoded.ok && v.reply_to && dataPointer) {
          const data = get(v.message, dataPointer);
          const root = requestRoot(schema, v.reply_to);
          decoded = fn(module, `decode${root}Reply`)(v.reply_to, data);
          prefix = dataPointer;
        }
        assert.ok(
          !decoded.ok,
          `accepted (${v.fault} at ${v.pointer || "/"}: ${v.why})`,
        );
        const [first] = decoded.errors;
        const pointer = prefix + first.pointer;
        assert.ok(
          pointer === v.pointer || pointer.startsWith(v.pointer + "/"),
          `rejected at ${pointer || "/"}, not at ${v.pointer || "/"}: ${show(decoded.errors)}`,
        );
        counts.invalid++;
      });
    }
  });

  describe(`${stem} unknown`, () => {
    for (const v of load(stem, "unknown")) {
      test(v.name, () => {
        const decoded = fn(module, `decode${v.root}`)(v.message);
        assert.ok(
          decoded.ok,
          `rejected: ${decoded.ok ? "" : show(decoded.errors)}`,
        );
        assert.equal(
          fn(module, `isKnown${v.root}`)(decoded.value),
          false,
          "decoded as known",
        );
        assert.deepEqual(
          fn(module, `encode${v.root}`)(decoded.value),
          v.message,
        );
        counts.unknown++;
      });
    }
  });
}

after(() => {
  if (process.env.SYMGEN_RUN_COUNTS) {
    fs.writeFileSync(process.env.SYMGEN_RUN_COUNTS, JSON.stringify(counts));
  }
});
