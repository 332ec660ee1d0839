#!/usr/bin/env bash
# TypeScript: the generated package is current, compiles under tsc strict
# (exactOptionalPropertyTypes, noUncheckedIndexedAccess) and is prettier-clean; the
# fixture schemas generate compiling, prettier-clean TypeScript too; every conformance
# vector type-checks as its message type or, when invalid in a way TypeScript can see,
# is rejected (tests/typescript/vectors-check.mjs states the rule).
set -euo pipefail
cd "$(dirname "$0")/.."

tools=tests/typescript
bin=$tools/node_modules/.bin

# Node tooling from the lockfile; skipped when node_modules matches it already.
stamp=$tools/node_modules/.symgen-lock
if [ ! -x "$bin/tsc" ] || [ ! -x "$bin/prettier" ] || ! cmp -s "$tools/package-lock.json" "$stamp"; then
  (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$tools/package-lock.json" "$stamp"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --locked --workspace
symgen=target/debug/symgen

# 1. The committed package is exactly what the seed protocols generate (byte for byte).
cargo xtask check

# 2. tsc strict and prettier over the committed package.
"$bin/tsc" -p generated/typescript/tsconfig.json --noEmit
"$bin/prettier" --check --log-level=warn generated/typescript

# 3. The fixture schemas (hand-written and schemars styles) generate TypeScript that
#    compiles and is prettier-clean as well.
mkdir -p "$work/fixtures"
"$symgen" ts --schema tests/fixtures/schemas --out "$work/fixtures" 2>/dev/null
"$bin/tsc" -p "$work/fixtures/tsconfig.json" --noEmit
"$bin/prettier" --check --log-level=warn "$work/fixtures"
fixtures=$(find tests/fixtures/schemas -name '*.json' | wc -l)

# 4. The conformance vectors against the generated types.
mkdir -p "$work/vectors"
counts=$(node "$tools/vectors-check.mjs" tests/vectors schema generated/typescript "$work/vectors/check.ts")
cat >"$work/vectors/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "noEmit": true,
    "types": []
  },
  "files": ["check.ts"]
}
JSON
"$bin/tsc" -p "$work/vectors/tsconfig.json"

count() { node -e "console.log(JSON.parse(process.argv[1]).$1)" "$counts"; }
echo "typescript: $(count valid) valid vectors type-check ($(count replies) reply data as ReplyFor), $(count rejected) invalid rejected by tsc, $(count skipped) skipped (not visible to TS), $(count unknown) unknown-tag vectors accepted only as …OrUnknown; $fixtures fixture schemas compile; tsc strict + prettier clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
# Every vector type-checked (or rejected as expected) is a passed check; tsc fails the
# whole script otherwise.
echo "$(($(count valid) + $(count rejected) + $(count unknown) + fixtures)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
