#!/usr/bin/env bash
# Rust: formatting, lints, the test suite, and the drift check.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
log=$(mktemp)
trap 'rm -f "$log" "$log.package"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"
# The official JSON Schema Test Suite (draft 2020-12) through symgen's validator. The
# suite lives beside the repository (shared/), not in it; the test fails if it is missing.
SYMGEN_JSON_SCHEMA_TEST_SUITE="$(pwd)/../shared/json-schema-test-suite" cargo test --locked --test it json_schema_test_suite -- --ignored 2>&1 | tee -a "$log"
cargo xtask check
# The toolkit and the protocol-declaration crate package and build on their own (as
# `cargo publish` would check them). Cargo treats a packaged crate as immutable (same
# name and version): it would reuse an earlier run's package of symgen-wire, the source
# it extracted from its temporary registry into cargo's home (directories `-<hash>`,
# never the public registry's) and its build of it. Start from none of them.
rm -rf target/package "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/symgen-wire-* \
  "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/symgen-[0-9]* \
  target/debug/deps/libsymgen_wire-* target/debug/.fingerprint/symgen-wire-*
if ! cargo package --workspace --exclude symgen-protocols --exclude xtask --allow-dirty \
  >"$log.package" 2>&1; then
  cat "$log.package" >&2
  exit 1
fi

# Sum the "test result:" lines of every test binary.
read -r pass fail < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' "$log")
echo "rust: $pass tests passed, $fail failed; clippy, fmt and 'symgen check' clean; symgen and symgen-wire package and verify" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$pass $fail" >>"${SYMGEN_COUNTS:-/dev/null}"
