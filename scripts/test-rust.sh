#!/usr/bin/env bash
# Rust: formatting, lints, the test suite, and the drift check; then `symgen rust` (types
# written by typify) on schemas symgen did not write: the fixture schemas build, and the
# real-world corpus's crate builds warning-free and round-trips every published instance.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$log.package" "$log.suite" "$work"' EXIT
cargo test --workspace --locked -- --skip json_schema_test_suite 2>&1 | tee "$log"
# The official JSON Schema Test Suite (draft 2020-12, in tests/fixtures/), on its own so
# its tally is printed for the summary.
cargo test --locked --test it json_schema_test_suite -- --nocapture 2>&1 | tee "$log.suite"
cat "$log.suite" >>"$log"
suite=$(sed -n 's/^JSON Schema Test Suite draft 2020-12: \([0-9]*\) required tests passed, \([0-9]*\) failed.*/\1 required tests passed, \2 failed/p' "$log.suite")
cargo xtask check
# A protocol crate's users keep serde_json's default maps: neither symgen-wire nor a
# protocol declared with it turns on `preserve_order` (the symgen crate does, for
# itself). Built alone, symgen-wire's own tests run without it, so its schema writer's
# refusal to write a document with sorted keys is tested where it applies.
for crate in symgen-wire symgen-protocols; do
  if cargo tree --locked -e features -p "$crate" | grep -q 'serde_json feature "preserve_order"'; then
    echo "$crate turns on serde_json's preserve_order for its users:" >&2
    cargo tree --locked -e features -p "$crate" -i serde_json >&2
    exit 1
  fi
done
cargo test --locked -p symgen-wire --lib 2>&1 | tee -a "$log"
# The toolkit and the protocol-declaration crate package and build on their own (as
# `cargo publish` would check them). Cargo treats a packaged crate as immutable (same
# name and version): it would reuse an earlier run's package of symgen-wire, the source
# it extracted from its temporary registry into cargo's home (directories `-<hash>`,
# never the public registry's) and its build of it. Start from none of them.
# (Not in the quick tier, scripts/test.sh --quick: it builds both crates afresh.)
packaged="symgen and symgen-wire package and verify"
if [ -z "${SYMGEN_QUICK:-}" ]; then
  rm -rf target/package "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/symgen-wire-* \
    "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/symgen-[0-9]* \
    target/debug/deps/libsymgen_wire-* target/debug/.fingerprint/symgen-wire-*
  if ! cargo package --workspace --exclude symgen-protocols --exclude xtask --allow-dirty \
    >"$log.package" 2>&1; then
    cat "$log.package" >&2
    exit 1
  fi
else
  packaged="packaging not run (quick tier)"
fi
# The CLI without its optional parts (docs/adopting.md, "Build cost") still builds, and
# says how to get the language it leaves out instead of not knowing the subcommand.
# Built in the shared target directory (its dependencies are the default build's; a
# target directory of its own rebuilt every one of them) and copied out; the default
# build below links the default binary back.
cargo build --quiet --locked --bin symgen --no-default-features
cp target/debug/symgen "$work/symgen-no-default"
if out=$("$work/symgen-no-default" rust --out . 2>&1) \
  || ! printf '%s' "$out" | grep -q 'rebuild it with the `rust-backend` feature'; then
  echo "symgen without rust-backend: \`symgen rust\` should fail naming the feature; it said: $out" >&2
  exit 1
fi

# `symgen rust`: generated crates share one target directory (serde is built once),
# kept from run to run beside the corpora (scripts/corpora.sh), and must build without
# a warning. Not incrementally: a crate is rebuilt when it is regenerated, and the
# incremental caches of the real-world corpus's crates grew past 20 GB.
cargo build --quiet --locked --bin symgen
symgen=$(pwd)/target/debug/symgen
export CARGO_TARGET_DIR="${SYMGEN_CORPORA:-$(pwd)/target/corpora}/rust-target" RUSTFLAGS="-D warnings" CARGO_INCREMENTAL=0
fixtures=$(find tests/fixtures/schemas -name '*.json' | wc -l)
# rust_vectors CORPUS CRATE LOG: the crate's vector test, every vector (hand-written and
# generated) giving Rust's verdict or differing as tests/divergences/CORPUS.json says.
rust_vectors() {
  (cd "$2" && with_divergences "$1" rust cargo test --quiet -- --nocapture 2>&1) >"$3" || {
    cat "$3"
    exit 1
  }
}
generated_field() { sed -n "s/^symgen-generated: .*\b$2=\([0-9]*\).*/\1/p" "$1"; }
generated() {
  local unenforced
  unenforced=$(generated_field "$1" unenforced)
  echo "$(generated_field "$1" valid) valid / $(($(generated_field "$1" invalid) + unenforced)) invalid ($unenforced only by an unenforced keyword) / $(generated_field "$1" unknown) unknown generated vectors, $(generated_field "$1" documented) documented divergences"
}
checked() {
  echo $(($(generated_field "$1" valid) + $(generated_field "$1" invalid) + $(generated_field "$1" unenforced) + $(generated_field "$1" unknown)))
}
corpus fixtures "$work/fixtures" rust
rust_vectors fixtures "$work/fixtures/generated/rust" "$work/fixtures.log"
corpus real "$work/real" rust
rust_vectors real "$work/real/generated/rust" "$work/real.log"
corpus schemastore "$work/store" rust
rust_vectors schemastore "$work/store/generated/rust" "$work/store.log"
store_schemas=$(find "$work/store/schemas" -maxdepth 1 -name '*.json' | wc -l)
real_valid=$(sed -n 's/^symgen-vectors: \([0-9]*\) valid vectors round-trip$/\1/p' "$work/real.log")
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "${real_valid:-0}" -ne "$(corpus_instances "$work/real")" ]; then
  echo "test-rust: ${real_valid:-0} of $(corpus_instances "$work/real") corpus instances round-trip" >&2
  exit 1
fi
unset CARGO_TARGET_DIR RUSTFLAGS CARGO_INCREMENTAL

# Sum the "test result:" lines of every test binary.
read -r pass fail < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' "$log")
echo "rust: $pass tests passed, $fail failed; JSON Schema Test Suite (draft 2020-12): ${suite:-no tally}; clippy, fmt and 'symgen check' clean; $packaged; the CLI builds without its optional features; symgen rust (typify), generated vectors, verdicts and re-encodings equal: fixtures $(generated "$work/fixtures.log"), real-world corpus $(generated "$work/real.log"), SchemaStore sample ($store_schemas schemas build warning-free) $(generated "$work/store.log"); $fixtures fixture schemas build, real-world corpus: $real_schemas schemas build warning-free, $real_valid published instances re-encode equal" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$((pass + fixtures + real_schemas + real_valid + $(checked "$work/fixtures.log") + $(checked "$work/real.log") + $(checked "$work/store.log") + store_schemas)) $fail" >>"${SYMGEN_COUNTS:-/dev/null}"
