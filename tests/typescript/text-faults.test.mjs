// Faults of the wire text that JSON.parse reads without complaint (a key given twice, a
// lone surrogate escape, a number beyond a double, arrays nested past serde's 128
// levels, `-0` or `1.0` for a Rust integer): the generated `parse…` must give
// the validator's verdict, at the validator's pointer, wherever they sit: in a declared
// field, a key, an array item, a map, free-form JSON, and in the value of a key the type
// does not declare, which serde skips (docs/typescript.md).
//
// The oracle is `symgen validate -p symposium` on the same lines; nothing here states a
// verdict. Usage: SYMGEN_BIN=target/debug/symgen SYMGEN_PACKAGE=generated/typescript
//   node --test tests/typescript/text-faults.test.mjs
// With SYMGEN_COUNT set, the number of messages judged is written to that file.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

const bin = process.env.SYMGEN_BIN ?? "target/debug/symgen";
const pkg = process.env.SYMGEN_PACKAGE ?? "generated/typescript";
const symposium = await import(resolve(pkg, "symposium.mjs"));

const polo = (sender) => `{"type":"polo","id":"x","sender":${sender}}`;
// Free-form JSON (`value`) at level 3: the root is level 1, `payload` level 2.
const store = (value) =>
  `{"type":"store_reference","id":"x","sender":{"workingDirectory":"a"},"payload":{"key":"k","value":${value}}}`;
const nested = (n) => "[".repeat(n) + "1" + "]".repeat(n);

// Each line is one message; the cases put one fault (or none) at every kind of place.
const lines = [
  polo('{"workingDirectory":"a"}'),
  // a declared field
  polo('{"workingDirectory":"\\ud800"}'),
  polo('{"workingDirectory":"\\udc00x"}'),
  polo('{"workingDirectory":"a","workingDirectory":"b"}'),
  polo('{"workingDirectory" : "a" , "workingDirectory" :"b"}'),
  '{"type":"polo","id":"x","id":"y","sender":{"workingDirectory":"a"}}',
  // a key
  polo('{"workingDirectory":"a","\\ud800":1}'),
  // a key the type does not declare: skipped, as serde skips it
  polo('{"workingDirectory":"a","other":"\\ud800"}'),
  polo('{"workingDirectory":"a","other":1,"other":2}'),
  polo('{"workingDirectory":"a","other":[1e400,{"x":"\\udfff"}]}'),
  // nesting: serde keeps free-form JSON to level 128, and skips a key at any depth
  store(nested(126)),
  store(nested(127)),
  store(`[{"a":${nested(5000)}}]`),
  polo(`{"workingDirectory":"a","other":${nested(5000)}}`),
  // `-0` for a Rust integer (a float to serde)
  polo('{"workingDirectory":"a","shellPid":-0}'),
  polo('{"workingDirectory":"a","shellPid":0}'),
  // a whole number written as a float, for a Rust integer (refused by serde) and in
  // free-form JSON or a key the type does not declare (kept or skipped by serde)
  polo('{"workingDirectory":"a","shellPid":7.0}'),
  polo('{"workingDirectory":"a","shellPid":7.00}'),
  polo('{"workingDirectory":"a","shellPid":7e0}'),
  polo('{"workingDirectory":"a","shellPid":70E-1}'),
  polo('{"workingDirectory":"a","shellPid":7.5e1}'),
  polo('{"workingDirectory":"a","shellPid":7.5}'),
  polo('{"workingDirectory":"a","other":7.0}'),
  store('{"n":7.0,"m":[1e2]}'),
  // well-formed text that looks like one: a string, an integer after a fraction
  polo('{"workingDirectory":"v1.0 at 2e3","shellPid":7}'),
  polo('{"workingDirectory":"a","other":0.05,"shellPid":10}'),
  // well-formed text that looks like a fault
  polo('{"workingDirectory":"\\ud83d\\ude00"}'),
  polo('{"workingDirectory":"\\\\ud800"}'),
  polo('{"workingDirectory":"a\\"b","x\\\\":"\\\\"}'),
  polo('{"workingDirectory":"a:b\\":c"}'),
];

/** The validator's verdict and first pointer per line. */
function oracle() {
  let out;
  try {
    out = execFileSync(
      bin,
      ["validate", "-p", "symposium", "--format", "json"],
      {
        input: lines.join("\n") + "\n",
        encoding: "utf8",
      },
    );
  } catch (error) {
    // Exit 1: some message is invalid; its report is still on stdout.
    out = error.stdout;
  }
  const verdicts = lines.map(() => ({ ok: true, pointer: null }));
  for (const line of out.split("\n").filter(Boolean)) {
    const report = JSON.parse(line);
    if (report.summary !== undefined) continue;
    verdicts[report.line - 1] = {
      ok: false,
      pointer: report.violations[0].pointer,
    };
  }
  return verdicts;
}

test("parse… gives the validator's verdict on faults of the text", () => {
  const expected = oracle();
  assert.ok(expected.some((v) => v.ok) && expected.some((v) => !v.ok));
  if (process.env.SYMGEN_COUNT) {
    writeFileSync(process.env.SYMGEN_COUNT, String(lines.length));
  }
  lines.forEach((line, i) => {
    const got = symposium.parseIpcMessage(line);
    const want = /** @type {{ ok: boolean, pointer: string | null }} */ (
      expected[i]
    );
    assert.equal(got.ok, want.ok, `${line}: ${JSON.stringify(got)}`);
    if (!got.ok) assert.equal(got.errors[0].pointer, want.pointer, line);
  });
});

test("a text without faults reads as JSON.parse reads it", () => {
  for (const line of lines) {
    const got = symposium.parseIpcMessage(line);
    const direct = symposium.decodeIpcMessage(JSON.parse(line));
    if (got.ok)
      assert.deepEqual(got.value, direct.ok ? direct.value : null, line);
  }
});

test("a decoder never throws, even on what is no JSON data", () => {
  const throwing = {
    type: "polo",
    id: "x",
    get sender() {
      throw new Error("no");
    },
  };
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new TypeError("trap");
      },
      has() {
        throw new TypeError("trap");
      },
      ownKeys() {
        throw new TypeError("trap");
      },
    },
  );
  for (const value of [throwing, proxy]) {
    const got = symposium.decodeIpcMessage(value);
    assert.equal(got.ok, false);
    if (!got.ok) assert.equal(got.errors[0].rule, "wrong_type");
  }
});
