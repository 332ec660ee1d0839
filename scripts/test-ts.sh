#!/usr/bin/env bash
# TypeScript: the generated package is current, its declarations and JavaScript pass
# tsc with every strict flag (the JavaScript through its JSDoc types) and prettier; the
# fixture schemas generate packages that do too; every conformance vector type-checks as
# its message type or, when invalid in a way TypeScript can see, is rejected
# (tests/typescript/vectors-check.mjs states the rule); at run time, the generated
# decoders give every vector Rust's verdict, none skipped, and every instance of the
# real-world corpus decodes and re-encodes (tests/typescript/vectors-run.test.mjs);
# and the package installs into
# consumer projects of every common module setup, compiles there, runs, and bundles
# with esbuild (tests/typescript/consumers/).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/node-tools.sh
. scripts/node-tools.sh
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh
tools=$node_tools
bin=$node_bin

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --locked --workspace
symgen=$(pwd)/target/debug/symgen
package=$(pwd)/generated/typescript

# 1. The committed package is exactly what the seed protocols generate (byte for byte).
cargo xtask check

# A package checked as a whole: declarations strict, JavaScript against its JSDoc.
check_package() {
  local dir=$1 config=$2
  cat >"$config" <<JSON
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "noImplicitOverride": true,
    "allowJs": true,
    "checkJs": true,
    "skipLibCheck": false,
    "noEmit": true,
    "types": []
  },
  "include": ["$dir/**/*"]
}
JSON
  "$bin/tsc" -p "$config"
  "$bin/prettier" --check --log-level=warn "$dir"
}

# 2. tsc strict and prettier over the committed package.
check_package "$package" "$work/package.tsconfig.json"

# 3. The fixture schemas generate packages that pass the same checks, in every module
#    format.
fixtures=$(find tests/fixtures/schemas -name '*.json' | wc -l)
for format in dual esm cjs; do
  mkdir -p "$work/fixtures-$format"
  printf 'languages = ["typescript"]\n[typescript]\nmodule-format = "%s"\n' "$format" \
    >"$work/fixtures-$format.toml"
  "$symgen" --config "$work/fixtures-$format.toml" ts --schema tests/fixtures/schemas \
    --out "$work/fixtures-$format" 2>/dev/null
  check_package "$work/fixtures-$format" "$work/fixtures-$format.tsconfig.json"
done

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

# 4b. The same vectors at run time, through the generated decoders and encoders, with the
#     vectors `symgen vectors` generated (tests/vectors/*/generated/): each gives Rust's
#     verdict and re-encoding, or differs as tests/divergences/<corpus>.json documents.
runtime_vectors() {
  local vectors=$1 schemas=$2 package=$3 counts=$4
  SYMGEN_VECTORS=$vectors SYMGEN_SCHEMAS=$schemas SYMGEN_PACKAGE=$package \
    SYMGEN_RUN_COUNTS=$counts node --test --test-reporter=dot \
    "$tools/vectors-run.test.mjs" >"$counts.log" 2>&1 || {
    cat "$counts.log" >&2
    echo "test-ts: the generated decoders disagree with Rust on the vectors above" >&2
    exit 1
  }
}
with_divergences protocols typescript runtime_vectors tests/vectors schema "$package" "$work/run.json"

# 4b'. Faults of the text JSON.parse reads without complaint (a key given twice, a lone
#      surrogate, 1e400), in every kind of place, judged by `parse…` as the validator
#      judges them (tests/typescript/text-faults.test.mjs).
SYMGEN_BIN=$symgen SYMGEN_PACKAGE=$package SYMGEN_COUNT=$work/text-faults.count \
  node --test --test-reporter=dot tests/typescript/text-faults.test.mjs >"$work/text-faults.log" 2>&1 || {
  cat "$work/text-faults.log" >&2
  echo "test-ts: parse… and the validator disagree on a fault of the text" >&2
  exit 1
}
text_faults=$(cat "$work/text-faults.count")
run() { node -e "console.log(JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')).$1)" "$work/run.json"; }
# "N valid / M invalid (U only by an unenforced keyword) / K unknown generated vectors"
# of a counts file, and the documented divergences.
generated() {
  node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const g = c.generated; console.log(`${g.valid} valid / ${g.invalid + g.unenforced} invalid (${g.unenforced} only by an unenforced keyword) / ${g.unknown} unknown generated vectors, ${c.documented} documented divergences`)' "$1"
}
# Every vector a counts file counts (a passed check each).
checked() {
  node -e 'const c = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const g = c.generated; console.log(c.valid + c.invalid + c.unknown + g.valid + g.invalid + g.unenforced + g.unknown)' "$1"
}

# 4c. The fixture schemas' generated vectors, at run time.
corpus fixtures "$work/fixture-vectors" typescript
with_divergences fixtures typescript runtime_vectors "$work/fixture-vectors/vectors" \
  "$work/fixture-vectors/schemas" "$work/fixture-vectors/generated/typescript" "$work/fixture-run.json"

# 5. The real-world corpus (schemas symgen did not write): its package passes the same
#    checks, and every instance its authors publish type-checks as its root type.
corpus real "$work/real" typescript
check_package "$work/real/generated/typescript" "$work/real/package.tsconfig.json"
real=$(node "$tools/vectors-check.mjs" "$work/real/vectors" "$work/real/schemas" \
  "$work/real/generated/typescript" "$work/real/check.ts")
sed 's/"files": \[.*\]/"files": ["check.ts"]/' "$work/vectors/tsconfig.json" >"$work/real/tsconfig.json"
"$bin/tsc" -p "$work/real/tsconfig.json"
real_valid=$(node -e "console.log(JSON.parse(process.argv[1]).valid)" "$real")
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "$real_valid" -ne "$(corpus_instances "$work/real")" ]; then
  echo "test-ts: $real_valid of $(corpus_instances "$work/real") corpus instances checked" >&2
  exit 1
fi
with_divergences real typescript runtime_vectors "$work/real/vectors" "$work/real/schemas" \
  "$work/real/generated/typescript" "$work/real-run.json"
real_run=$(node -e "console.log(JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')).valid)" "$work/real-run.json")
if [ "$real_run" -ne "$real_valid" ]; then
  echo "test-ts: $real_run of $real_valid corpus instances decoded at run time" >&2
  exit 1
fi

# 5b. The SchemaStore sample (tests/fixtures/schemastore): its package passes the same
#     checks, and its generated vectors run.
corpus schemastore "$work/store" typescript
check_package "$work/store/generated/typescript" "$work/store/package.tsconfig.json"
with_divergences schemastore typescript runtime_vectors "$work/store/vectors" "$work/store/schemas" \
  "$work/store/generated/typescript" "$work/store-run.json"
store_schemas=$(find "$work/store/schemas" -maxdepth 1 -name '*.json' | wc -l)

# 6. Consumers: install the package by `file:` dependency, compile under each setup,
#    run; bundle with esbuild and run the bundle.
name=$(node -p 'require(process.argv[1]).name' "$package/package.json")
consumers=$tools/consumers
consumer() {
  local setup=$1 type=$2 dir="$work/consumer-$1-$2"
  mkdir -p "$dir"
  cp "$consumers/main.ts" "$dir/"
  cp "$consumers/$setup.tsconfig.json" "$dir/tsconfig.json"
  printf '{ "private": true, "type": "%s", "dependencies": { "%s": "file:%s" } }\n' \
    "$type" "$name" "$package" >"$dir/package.json"
  (cd "$dir" && npm install --offline --no-audit --no-fund --loglevel=error >/dev/null)
  "$bin/tsc" -p "$dir/tsconfig.json"
  if [ "$setup" = bundler ]; then
    "$bin/esbuild" "$dir/main.ts" --bundle --platform=node --log-level=warning \
      --outfile="$dir/bundle.js"
    node "$dir/bundle.js" >/dev/null
  else
    node "$dir/out/main.js" >/dev/null
  fi
  echo "$setup ($type)"
}
setups=()
setups+=("$(consumer commonjs-node commonjs)")
setups+=("$(consumer node16 commonjs)")
setups+=("$(consumer node16 module)")
setups+=("$(consumer bundler module)")

count() { node -e "console.log(JSON.parse(process.argv[1]).$1)" "$counts"; }
echo "typescript: at run time (generated decoders) $(run valid) valid vectors decode and re-encode ($(run replies) with reply data), $(run invalid) invalid rejected at the named pointer, $(run unknown) unknown kept as …OrUnknown, 0 skipped; $text_faults texts with faults JSON.parse reads (a key twice, a lone surrogate, 1e400) judged as the validator judges them; generated vectors, verdicts and re-encodings equal: protocols $(generated "$work/run.json"), fixtures $(generated "$work/fixture-run.json"), real-world corpus $(generated "$work/real-run.json"), SchemaStore sample ($store_schemas schemas, tsc strict + prettier clean) $(generated "$work/store-run.json"); at type level $(count valid) valid type-check ($(count replies) reply data as ReplyFor), $(count rejected) invalid rejected by tsc ($(count skipped) only visible at run time), $(count unknown) unknown accepted only as …OrUnknown; real-world corpus: $real_schemas schemas compile, $real_valid published instances type-check, $real_run decode and re-encode; $fixtures fixture schemas compile in 3 module formats; ${#setups[@]} consumer setups compile and run (${setups[*]}, the last bundled by esbuild); tsc strict (declarations and JSDoc-checked JavaScript) + prettier clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
# Every vector type-checked (or rejected as expected), every vector run (or documented),
# fixture and consumer setup is a passed check; tsc fails the whole script otherwise.
echo "$(($(count valid) + text_faults + $(count rejected) + $(count unknown) + $(checked "$work/run.json") + $(checked "$work/fixture-run.json") + $(checked "$work/real-run.json") + $(checked "$work/store-run.json") + store_schemas + real_valid + real_schemas + fixtures + ${#setups[@]})) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
