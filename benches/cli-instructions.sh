#!/usr/bin/env bash
# Instructions per message of the CLI end to end, against the same validation in process
# and against the floor, counted by callgrind (issue 13: "CLI <= 1.25x the in-process
# validator, i.e. <= 1.6x the read_line + IgnoredAny loop").
#
#   benches/cli-instructions.sh [PROTOCOL...]      (default: symposium)
#   MESSAGES=50000 benches/cli-instructions.sh symposium worker-sideband
#
# Rows, per message of the protocol's benchmark corpus (written as JSON lines to
# target/bench-corpus/<protocol>.jsonl):
#   floor        a read_line + IgnoredAny loop over the file (bench approach lines-floor)
#   in process   Validator::validate_str on each message in memory (symgen, symgen-schema)
#   stream       the CLI's own stream reader over the file, in process (lines-typed,
#                lines-schema)
#   CLI          the command as a child process on the file: `cargo xtask validate -p`
#                (the protocol's Rust types registered, as a team's own binary has them)
#                and `symgen validate --schema`; the whole process is counted, less the
#                same command on the file's first line alone (start-up: the schema
#                compiled, the summary printed).
# Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

MESSAGES=${MESSAGES:-50000}
if [ "$#" -gt 0 ]; then
  PROTOCOLS="$*"
else
  PROTOCOLS="symposium"
fi

command -v valgrind >/dev/null || { echo "cli-instructions.sh: valgrind is not installed" >&2; exit 2; }

# shellcheck source=benches/bench-binary.sh
. benches/bench-binary.sh
cargo build --release --quiet --bin symgen
cargo build --release --quiet --package xtask
target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
xtask="$target/release/xtask"
symgen="$target/release/symgen"

# Collected instructions of a callgrind run; "-" for the whole process.
collected() {
  local toggle=$1
  shift
  local log
  log=$(mktemp)
  if [ "$toggle" = "-" ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$log" || true
  else
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
      --toggle-collect="$toggle" "$@" >/dev/null 2>"$log" || true
  fi
  local count
  count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  rm -f "$log"
  [ -n "$count" ] || { echo "cli-instructions.sh: callgrind reported nothing for $*" >&2; exit 2; }
  echo "$count"
}

per_message() {
  collected '*measured_passes*' "$bin" --count "$1" --protocol "$2" --messages "$MESSAGES" --iters 1 |
    awk -v n="$MESSAGES" '{ printf "%d", $1 / n }'
}

# The CLI's instructions per message: the whole process on the file, less the whole
# process on its first line.
cli_per_message() {
  local file=$1 first=$2
  shift 2
  local all one
  all=$(collected - "$@" "$file")
  one=$(collected - "$@" "$first")
  awk -v a="$all" -v o="$one" -v n="$MESSAGES" 'BEGIN { printf "%d", (a - o) / (n - 1) }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }'; }

for protocol in $PROTOCOLS; do
  floor=$(per_message lines-floor "$protocol")
  typed=$(per_message symgen "$protocol")
  schema=$(per_message symgen-schema "$protocol")
  stream_typed=$(per_message lines-typed "$protocol")
  stream_schema=$(per_message lines-schema "$protocol")
  file="target/bench-corpus/$protocol.jsonl"
  first=$(mktemp)
  head -n 1 "$file" >"$first"
  cli_typed=$(cli_per_message "$file" "$first" "$xtask" validate -p "$protocol")
  cli_schema=$(cli_per_message "$file" "$first" "$symgen" validate --schema "schema/$protocol.schema.json")
  rm -f "$first"
  printf '%s, %s messages (instructions per message)\n' "$protocol" "$MESSAGES"
  printf '  %-44s %8s %10s\n' "" "instr" "÷ floor"
  printf '  %-44s %8s %10s\n' "read_line + IgnoredAny (floor)" "$floor" "1.00×"
  for row in \
    "typed: validate_str in process|$typed" \
    "typed: stream reader in process|$stream_typed" \
    "typed: CLI \`cargo xtask validate -p\`|$cli_typed" \
    "schema: validate_str in process|$schema" \
    "schema: stream reader in process|$stream_schema" \
    "schema: CLI \`symgen validate --schema\`|$cli_schema"; do
    printf '  %-44s %8s %10s\n' "${row%%|*}" "${row##*|}" "$(ratio "${row##*|}" "$floor")"
  done
  printf '  CLI ÷ in process: typed %s, schema %s\n' \
    "$(ratio "$cli_typed" "$typed")" "$(ratio "$cli_schema" "$schema")"
done
