// JSON read and written without losing a number: what the vector tests need to tell
// whether a decoder kept an integer past 2^53 exactly, which `JSON.parse` cannot (it
// rounds every number to a double before anyone can look).
//
// parseExact(text): like JSON.parse, but an integer beyond ±(2^53 − 1) is a BigInt.
// stringifyExact(value): like JSON.stringify (compact), BigInts written as integers.
// sameJson(a, b): JSON equality, keys in any order, numbers by value: a double equals
//   a BigInt only when it is exactly that integer.

export function parseExact(text) {
  let at = 0;
  const fail = (what) => {
    throw new SyntaxError(`${what} at offset ${at}`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at++;
  };
  const value = () => {
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      const object = {};
      space();
      if (text[at] === "}") {
        at++;
        return object;
      }
      for (;;) {
        space();
        const key = string();
        space();
        if (text[at++] !== ":") fail("expected ':'");
        Object.defineProperty(object, key, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        const next = text[at++];
        if (next === "}") return object;
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      at++;
      const array = [];
      space();
      if (text[at] === "]") {
        at++;
        return array;
      }
      for (;;) {
        array.push(value());
        space();
        const next = text[at++];
        if (next === "]") return array;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null)/.exec(text.slice(at, at + 5));
    if (literal) {
      at += literal[0].length;
      return JSON.parse(literal[0]);
    }
    const number = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!number) fail("unexpected character");
    at += number[0].length;
    if (number[1] === undefined && number[2] === undefined) {
      const big = BigInt(number[0]);
      const safe = BigInt(Number.MAX_SAFE_INTEGER);
      if (big > safe || big < -safe) return big;
    }
    return Number(number[0]);
  };
  const string = () => {
    if (text[at] !== '"') fail("expected a string");
    const start = at;
    at++;
    while (text[at] !== '"') {
      if (at >= text.length) fail("unterminated string");
      at += text[at] === "\\" ? 2 : 1;
    }
    at++;
    return JSON.parse(text.slice(start, at));
  };
  const result = value();
  space();
  if (at !== text.length) fail("trailing text");
  return result;
}

export function stringifyExact(value) {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(stringifyExact).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${stringifyExact(v)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

function exactNumber(a, b) {
  if (typeof a === "bigint" || typeof b === "bigint") {
    const whole = (x) =>
      typeof x === "bigint" ? x : Number.isInteger(x) ? BigInt(x) : null;
    const [x, y] = [whole(a), whole(b)];
    return x !== null && y !== null && x === y;
  }
  return a === b;
}

export function sameJson(a, b) {
  const numeric = (x) => typeof x === "number" || typeof x === "bigint";
  if (numeric(a) && numeric(b)) return exactNumber(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => sameJson(x, b[i]))
    );
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]))
    );
  }
  return a === b;
}
