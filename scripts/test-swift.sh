#!/usr/bin/env bash
# Swift: the committed generated/swift package is what `symgen swift` produces, it
# builds (tests included) in Swift 6 language mode with warnings as errors, passes
# `swift-format lint --strict`, and its XCTest target round-trips every conformance
# vector. Provisions Swift through scripts/swift.sh when the machine has none.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/real-corpus.sh
. scripts/real-corpus.sh

pkg=generated/swift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The committed package is current (build output under .build/ is ignored).
cargo xtask check

# 2. Build library and tests, zero warnings.
scripts/swift.sh "$pkg" swift build --build-tests -Xswiftc -warnings-as-errors

# 3. swift-format reports nothing.
scripts/swift.sh "$pkg" swift-format lint --strict -r Sources Tests Package.swift

# 4. The vector round trip (XCTest only, so its summary is the last line).
scripts/swift.sh "$pkg" swift test --skip-build --disable-swift-testing 2>&1 | tee "$work/log"

# 5. The fixture schemas (shared with TypeScript, plus Swift's naming fixture) give a
#    package that builds with zero warnings and is swift-format clean too.
mkdir "$work/fixtures"
cargo run --quiet --locked -- swift --schema tests/fixtures/schemas --schema tests/fixtures/swift \
  --out "$work/fixtures"
scripts/swift.sh "$work/fixtures" swift build -Xswiftc -warnings-as-errors
scripts/swift.sh "$work/fixtures" swift-format lint --strict -r Sources Package.swift
fixtures=$(find tests/fixtures/schemas tests/fixtures/swift -name '*.json' | wc -l)

# 6. The real-world corpus (schemas symgen did not write): the package builds with zero
#    warnings, is swift-format clean, and every published instance decodes and
#    re-encodes equal. Four of the largest schemas (npm's package.json, GitHub's
#    workflow, ESLint's configuration and its plugins) are left out here to keep the
#    suite inside CI's time; TypeScript and Python check them.
cargo build --quiet --locked
symgen=$(pwd)/target/debug/symgen
real_corpus "$work/real" swift package github-workflow eslintrc partial-eslint-plugins
real_pkg=$work/real/generated/swift
scripts/swift.sh "$real_pkg" swift build --build-tests -Xswiftc -warnings-as-errors
scripts/swift.sh "$real_pkg" swift-format lint --strict -r Sources Tests Package.swift
scripts/swift.sh "$real_pkg" swift test --skip-build --disable-swift-testing >"$work/real.log" 2>&1 || {
  cat "$work/real.log"
  exit 1
}
real_valid=$(awk '/^symgen-vectors: / { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "valid") n += kv[2] } } END { print n + 0 }' "$work/real.log")
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "$real_valid" -ne "$(real_instances "$work/real")" ]; then
  echo "test-swift: $real_valid of $(real_instances "$work/real") corpus instances round-tripped" >&2
  exit 1
fi

# Sum the per-protocol counts the test prints.
read -r valid replies invalid unknown protocols < <(awk '
  /^symgen-vectors: / {
    for (i = 3; i <= NF; i++) { split($i, kv, "="); n[kv[1]] += kv[2] }
    p++
  }
  END { print n["valid"] + 0, n["replies"] + 0, n["invalid"] + 0, n["unknown"] + 0, p + 0 }
' "$work/log")
cases=$(awk '/Executed [0-9]+ tests?, with 0 failures/ { n = $2 } END { print n + 0 }' "$work/log")
if [ "$protocols" -eq 0 ]; then
  echo "test-swift: the vector test printed no counts" >&2
  exit 1
fi
# Checks for the total: vectors, runtime test cases (the others are one per protocol),
# fixture schemas.
echo "$((valid + invalid + unknown + cases - protocols + fixtures + real_valid + real_schemas)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
echo "swift: $valid valid decoded and re-encoded equal ($replies typed replies), $invalid invalid rejected naming the field, $unknown unknown kept over $protocols protocols ($cases XCTest cases); $fixtures fixture schemas build; real-world corpus: $real_schemas schemas build, $real_valid published instances re-encode equal; build -warnings-as-errors and swift-format lint clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
