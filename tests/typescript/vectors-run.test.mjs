// Runs every conformance vector through the generated decoders and encoders (run by
// scripts/test-ts.sh with `node --test`); the verdict must equal Rust's, and what is
// accepted must re-encode exactly. The hand-written vectors (`<stem>/<kind>.json`) and
// the generated ones (`<stem>/generated/<kind>.json`, `symgen vectors`) alike; each is
// decoded from its wire text (`text`, else `message` written out), as a program reads
// it off a socket, and every expectation is read without rounding a number
// (exact-json.mjs), so a decoder that changes an integer past 2^53 is caught.
//
// * valid: `parse<Root>` accepts the text as a known variant, and `encode<Root>` gives
//   back `canonical` (or the message without its `null`-valued keys). A reply
//   (`reply_to`) also decodes its reply data with `decode<Root>Reply(tag, data)` and
//   re-encodes it in place.
// * invalid: decoding fails, and the first violation is at the vector's pointer or
//   below it (what the value there lacks); a fault in a reply's data fails
//   `decode<Root>Reply` there instead. A generated vector marked `unenforced` breaks
//   only a keyword the generated types are documented not to enforce: it must be
//   accepted, and is counted apart.
// * unknown: decoding succeeds as the open union's unknown case (`isKnown<Root>` says
//   no), and encoding gives the message back unchanged.
//
// No vector is skipped. Environment: SYMGEN_VECTORS (vector directory),
// SYMGEN_SCHEMAS (schema directory), SYMGEN_PACKAGE (the generated package),
// SYMGEN_RUN_COUNTS (file the counts are written to, as JSON).

import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, describe, test } from "node:test";

import { parseExact, sameJson, stringifyExact } from "./exact-json.mjs";

const vectorsDir = process.env.SYMGEN_VECTORS;
const schemaDir = process.env.SYMGEN_SCHEMAS;
const packageDir = process.env.SYMGEN_PACKAGE;
if (!vectorsDir || !schemaDir || !packageDir) {
  throw new Error("set SYMGEN_VECTORS, SYMGEN_SCHEMAS and SYMGEN_PACKAGE");
}
const require = createRequire(import.meta.url);
const counts = {
  valid: 0,
  replies: 0,
  invalid: 0,
  unknown: 0,
  documented: 0,
  generated: { valid: 0, invalid: 0, unenforced: 0, unknown: 0 },
};

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

// The vectors of one kind: the hand-written ones, then the generated ones.
function load(stem, kind) {
  const read = (file, generated) =>
    fs.existsSync(file)
      ? parseExact(fs.readFileSync(file, "utf8")).map((v) => ({ ...v, generated }))
      : [];
  return [
    ...read(path.join(vectorsDir, stem, `${kind}.json`), false),
    ...read(path.join(vectorsDir, stem, "generated", `${kind}.json`), true),
  ];
}

// The wire text of a vector.
function wire(v) {
  return v.text ?? stringifyExact(v.message);
}

function count(v, kind) {
  if (v.generated) counts.generated[kind]++;
  else counts[kind]++;
}

// The export `name` of a module, if any. A vector names its root as the schema does
// (`nullable-array`); the package spells it as an identifier (`parseNullableArray`), so
// an export whose letters and digits match, ignoring case, is the one when it is the
// only such export.
function lookup(module, name) {
  if (module[name] !== undefined) return module[name];
  const key = (s) => s.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  const like = Object.keys(module).filter((k) => key(k) === key(name));
  return like.length === 1 ? module[like[0]] : undefined;
}

function fn(module, name) {
  const found = lookup(module, name);
  assert.equal(typeof found, "function", `the package has no ${name}`);
  return found;
}

function show(errors) {
  return errors
    .map((e) => `${e.pointer || "/"}: ${e.rule}: ${e.message}`)
    .join("; ");
}

// The documented divergences (SYMGEN_DIVERGENCES, docs/vectors.md): vectors of one file
// (`in`: valid, invalid or unknown) whose `<stem>/<name>` matches a pattern (`*` for any
// text), on which this language is known to differ from Rust, how (`kind`), and why. A vector that matches an
// entry must differ exactly so (else the entry is stale and the test fails); any
// other difference fails.
const divergences = process.env.SYMGEN_DIVERGENCES
  ? (JSON.parse(fs.readFileSync(process.env.SYMGEN_DIVERGENCES, "utf8"))
      .typescript ?? [])
  : [];

// Whether `name` matches `pattern`, where `*` stands for any text.
function matches(pattern, name) {
  const escape = (part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${pattern.split("*").map(escape).join(".*")}$`, "s").test(name);
}

// Entries naming one vector exactly (`vector`), by file and name; the rest match by
// pattern (`vectors`).
const exact = new Map(
  divergences.filter((d) => d.vector !== undefined).map((d) => [`${d.in}\n${d.vector}`, d]),
);
const patterns = divergences.filter((d) => d.vector === undefined);

function documented(stem, kind, v) {
  const name = `${stem}/${v.name}`;
  return (
    exact.get(`${kind}\n${name}`) ??
    patterns.find((d) => d.in === kind && matches(d.vectors, name))
  );
}

// A difference from Rust's verdict: how ("accepts", "rejects", "re-encodes",
// "pointer", "unknown") and what happened.
class Mismatch extends Error {
  constructor(kind, message) {
    super(`${kind}: ${message}`);
    this.kind = kind;
  }
}

function expect(condition, kind, message) {
  if (!condition) throw new Mismatch(kind, message());
}

// SYMGEN_RECORD: a file each undocumented difference is appended to (one JSON object per
// line) instead of failing: how scripts/divergences.py records a corpus's differences.
const record = process.env.SYMGEN_RECORD;

// Runs one vector's check; a difference counts only when the divergences document it.
function run(stem, file, v, check, kind) {
  const entry = documented(stem, file, v);
  try {
    check();
  } catch (err) {
    if (entry && err instanceof Mismatch && err.kind === entry.kind) {
      counts.documented++;
      return;
    }
    if (record && err instanceof Mismatch && !entry) {
      const line = {
        language: "typescript",
        vector: `${stem}/${v.name}`,
        in: file,
        kind: err.kind,
        message: err.message,
        why: v.why ?? null,
      };
      fs.appendFileSync(record, JSON.stringify(line) + "\n");
      return;
    }
    throw err;
  }
  assert.ok(
    !entry,
    `documented as "${entry?.kind}" (${entry?.why ?? entry?.class}), but Rust's verdict holds: remove the entry`,
  );
  count(v, kind);
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

  const valid = (v) => {
    const text = wire(v);
    const decoded = fn(module, `parse${v.root}`)(text);
    expect(decoded.ok, "rejects", () => show(decoded.errors));
    const isKnown = lookup(module, `isKnown${v.root}`);
    expect(!isKnown || isKnown(decoded.value), "unknown", () => "decoded as the unknown case");
    let encoded = fn(module, `encode${v.root}`)(decoded.value);
    if (v.reply_to && dataPointer) {
      const data = get(JSON.parse(text), dataPointer);
      if (data !== undefined && data !== null) {
        const root = requestRoot(schema, v.reply_to);
        const reply = fn(module, `decode${root}Reply`)(v.reply_to, data);
        expect(reply.ok, "rejects", () => `reply data: ${show(reply.errors)}`);
        const again = fn(module, `encode${root}Reply`)(v.reply_to, reply.value);
        encoded = replaced(encoded, segments(dataPointer), again);
        if (!v.generated) counts.replies++;
      }
    }
    // A schema symgen did not write: `null` and absent are told apart only where
    // the schema keeps other keys, so `null`-valued keys count on neither side.
    const expected = protocol
      ? (v.canonical ?? withoutNulls(v.message))
      : withoutNulls(v.canonical ?? v.message);
    const got = protocol ? encoded : withoutNulls(encoded);
    expect(
      sameJson(got, expected),
      "re-encodes",
      () => `\n  got      ${stringifyExact(got)}\n  expected ${stringifyExact(expected)}`,
    );
    // What the encoder gives is JSON and decodes to the same value again.
    expect(
      fn(module, `parse${v.root}`)(JSON.stringify(encoded)).ok,
      "re-encodes",
      () => "the encoding does not decode",
    );
  };

  const invalid = (v) => {
    const text = wire(v);
    let decoded = fn(module, `parse${v.root}`)(text);
    let prefix = "";
    if (decoded.ok && v.reply_to && dataPointer) {
      // The data as the message's decoder kept it: a fault of the text in it (a
      // whole number written as a float, a key given twice) is the reply's to report.
      const data = get(decoded.value, dataPointer);
      const root = requestRoot(schema, v.reply_to);
      decoded = fn(module, `decode${root}Reply`)(v.reply_to, data);
      prefix = dataPointer;
    }
    if (v.unenforced) {
      // Invalid only by a keyword the generated types do not enforce (warned).
      expect(decoded.ok, "rejects", () => `documented as unenforced: ${show(decoded.errors)}`);
      return;
    }
    expect(!decoded.ok, "accepts", () => `${v.fault} at ${v.pointer || "/"}: ${v.why}`);
    const pointer = prefix + decoded.errors[0].pointer;
    expect(
      pointer === v.pointer || pointer.startsWith(v.pointer + "/"),
      "pointer",
      () => `rejected at ${pointer || "/"}, not at ${v.pointer || "/"}: ${show(decoded.errors)}`,
    );
  };

  const unknown = (v) => {
    const decoded = fn(module, `parse${v.root}`)(wire(v));
    expect(decoded.ok, "rejects", () => show(decoded.errors));
    expect(
      !fn(module, `isKnown${v.root}`)(decoded.value),
      "unknown",
      () => "decoded as known",
    );
    const encoded = fn(module, `encode${v.root}`)(decoded.value);
    expect(
      sameJson(encoded, v.message),
      "re-encodes",
      () => `not unchanged: ${stringifyExact(encoded)}`,
    );
  };

  for (const [kind, check] of [
    ["valid", valid],
    ["invalid", invalid],
    ["unknown", unknown],
  ]) {
    describe(`${stem} ${kind}`, () => {
      for (const v of load(stem, kind)) {
        const counted = kind === "invalid" && v.unenforced ? "unenforced" : kind;
        test(v.name, () => run(stem, kind, v, () => check(v), counted));
      }
    });
  }
}

after(() => {
  if (process.env.SYMGEN_RUN_COUNTS) {
    fs.writeFileSync(process.env.SYMGEN_RUN_COUNTS, JSON.stringify(counts));
  }
});
