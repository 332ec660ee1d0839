#!/usr/bin/env bash
# Swift: the committed generated/swift package is what `symgen swift` produces, it
# builds (tests included) in Swift 6 language mode with warnings as errors, passes
# `swift-format lint --strict`, and its XCTest target round-trips every conformance
# vector, hand-written and generated (`symgen vectors`), giving Rust's verdict or
# differing as tests/divergences/<corpus>.json documents. The fixture schemas and the
# real-world corpus get the same. Provisions Swift through scripts/swift.sh when the
# machine has none.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

pkg=generated/swift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --quiet --locked
symgen=$(pwd)/target/debug/symgen

# 1. The committed package is current (build output under .build/ is ignored).
cargo xtask check

# swift_vectors CORPUS PACKAGE LOG: builds PACKAGE (tests included, zero warnings),
# lints it and runs its vector test into LOG. The chroot sees only the package's git root,
# by its physical path, so the divergences file and the record of differences are
# staged in the package's own build directory, which is physically inside it (a
# repository's target/ may be a link to elsewhere, as in .ci/run).
swift_vectors() {
  local corpus=$1 package=$2 log=$3 stage
  stage="$(cd "$package" && pwd -P)/.build/symgen-vectors"
  mkdir -p "$stage"
  rm -f "$stage/$corpus.json" "$stage/$corpus.record.jsonl"
  local env=(SYMGEN_DIVERGENCES= SYMGEN_RECORD=)
  if [ -n "${SYMGEN_RECORD_DIR:-}" ]; then
    env=(SYMGEN_DIVERGENCES= "SYMGEN_RECORD=$stage/$corpus.record.jsonl")
  elif [ -f "tests/divergences/$corpus.json" ]; then
    cp "tests/divergences/$corpus.json" "$stage/$corpus.json"
    env=("SYMGEN_DIVERGENCES=$stage/$corpus.json" SYMGEN_RECORD=)
  fi
  scripts/swift.sh "$package" swift build --build-tests -Xswiftc -warnings-as-errors
  scripts/swift.sh "$package" swift-format lint --strict -r Sources Tests Package.swift
  env "${env[@]}" scripts/swift.sh "$package" swift test --skip-build --disable-swift-testing \
    >"$log" 2>&1 || {
    cat "$log"
    exit 1
  }
  if [ -n "${SYMGEN_RECORD_DIR:-}" ] && [ -f "$stage/$corpus.record.jsonl" ]; then
    mkdir -p "$SYMGEN_RECORD_DIR"
    cat "$stage/$corpus.record.jsonl" >>"$SYMGEN_RECORD_DIR/$corpus.swift.jsonl"
  fi
}
# The sum of one count the vector test prints (`symgen-vectors: <id> key=n ...`).
total() {
  awk -v key="$2" '/^symgen-vectors: / { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) n += kv[2] } } END { print n + 0 }' "$1"
}
generated() {
  local unenforced
  unenforced=$(total "$1" unenforced)
  echo "$(total "$1" generated-valid) valid / $(($(total "$1" generated-invalid) + unenforced)) invalid ($unenforced only by an unenforced keyword) / $(total "$1" generated-unknown) unknown generated vectors, $(total "$1" documented) documented divergences"
}
checked() {
  echo $(($(total "$1" valid) + $(total "$1" invalid) + $(total "$1" unknown) + $(total "$1" generated-valid) + $(total "$1" generated-invalid) + $(total "$1" unenforced) + $(total "$1" generated-unknown)))
}

# 2. The committed package: build, lint, and every vector of the five protocols.
swift_vectors protocols "$pkg" "$work/log"

# 3. The fixture schemas (shared with TypeScript, plus Swift's naming fixture) give a
#    package that builds with zero warnings and is swift-format clean too; the shared
#    ones, with their generated vectors.
mkdir "$work/fixtures"
"$symgen" swift --schema tests/fixtures/swift --out "$work/fixtures"
scripts/swift.sh "$work/fixtures" swift build -Xswiftc -warnings-as-errors
scripts/swift.sh "$work/fixtures" swift-format lint --strict -r Sources Package.swift
corpus fixtures "$work/fixture-vectors" swift
swift_vectors fixtures "$work/fixture-vectors/generated/swift" "$work/fixture.log"
fixtures=$(find tests/fixtures/schemas tests/fixtures/swift -name '*.json' | wc -l)

# 4. The real-world corpus (schemas symgen did not write): the package builds with zero
#    warnings, is swift-format clean, and every published instance decodes and
#    re-encodes equal. Four of the largest schemas (npm's package.json, GitHub's
#    workflow, ESLint's configuration and its plugins) are left out here to keep the
#    suite inside CI's time; TypeScript and Python check them.
corpus real "$work/real" swift package github-workflow eslintrc partial-eslint-plugins
swift_vectors real "$work/real/generated/swift" "$work/real.log"
real_valid=$(total "$work/real.log" valid)
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "$real_valid" -ne "$(corpus_instances "$work/real")" ]; then
  echo "test-swift: $real_valid of $(corpus_instances "$work/real") corpus instances round-tripped" >&2
  exit 1
fi

# 5. The SchemaStore sample (tests/fixtures/schemastore): the same, over its generated
#    vectors.
corpus schemastore "$work/store" swift
swift_vectors schemastore "$work/store/generated/swift" "$work/store.log"
store_schemas=$(find "$work/store/schemas" -maxdepth 1 -name '*.json' | wc -l)

valid=$(total "$work/log" valid)
replies=$(total "$work/log" replies)
invalid=$(total "$work/log" invalid)
unknown=$(total "$work/log" unknown)
protocols=$(grep -c '^symgen-vectors: ' "$work/log" || true)
cases=$(awk '/Executed [0-9]+ tests?, with 0 failures/ { n = $2 } END { print n + 0 }' "$work/log")
if [ "$protocols" -eq 0 ]; then
  echo "test-swift: the vector test printed no counts" >&2
  exit 1
fi
# Checks for the total: vectors, runtime test cases (the others are one per protocol),
# fixture schemas.
echo "$(($(checked "$work/log") + $(checked "$work/fixture.log") + $(checked "$work/real.log") + $(checked "$work/store.log") + store_schemas + cases - protocols + fixtures + real_schemas)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
echo "swift: $valid valid decoded and re-encoded equal ($replies typed replies), $invalid invalid rejected naming the field, $unknown unknown kept over $protocols protocols ($cases XCTest cases); generated vectors, verdicts and re-encodings equal: protocols $(generated "$work/log"), fixtures $(generated "$work/fixture.log"), real-world corpus $(generated "$work/real.log"), SchemaStore sample ($store_schemas schemas build) $(generated "$work/store.log"); $fixtures fixture schemas build; real-world corpus: $real_schemas schemas build, $real_valid published instances re-encode equal; build -warnings-as-errors and swift-format lint clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
