#!/usr/bin/env bash
# Instructions per message of each validation approach, counted by callgrind.
#
#   benches/instructions.sh [PROTOCOL...]        (default: all five protocols)
#   APPROACHES="ignored symgen" benches/instructions.sh symposium
#
# For each protocol and approach it runs the release bench binary in `--count` mode under
#   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_passes*'
# so only the measured passes over the corpus are counted (not corpus generation, schema
# compilation or the warm-up pass), and divides callgrind's "Collected" total by the
# number of messages processed. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

MESSAGES=${MESSAGES:-10000}
ITERS=${ITERS:-1}
APPROACHES=${APPROACHES:-"value ignored sonic typed jsonschema boon symgen-schema symgen symgen-root \
  symgen-rejected symgen-rejected-missing symgen-rejected-value symgen-rejected-syntax"}
if [ "$#" -gt 0 ]; then
  PROTOCOLS="$*"
else
  PROTOCOLS="symposium taskspace-state dialectic worker-sideband ck3lens"
fi

command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }

# shellcheck source=benches/bench-binary.sh
. benches/bench-binary.sh

known=$("$bin" --list-approaches)
ratio() {
  if [ -n "$1" ] && [ -n "$2" ] && [ "$2" -gt 0 ]; then
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }'
  else
    echo "-"
  fi
}

printf '%-16s %-24s %12s %10s %11s %16s\n' protocol approach "instr/msg" "vs value" "vs ignored" "jsonschema/this"
for protocol in $PROTOCOLS; do
  declare -A per=() skipped=()
  for approach in $APPROACHES; do
    grep -qx "$approach" <<<"$known" || continue
    log=$(mktemp)
    status=0
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
      --toggle-collect='*measured_passes*' \
      "$bin" --count "$approach" --protocol "$protocol" --messages "$MESSAGES" --iters "$ITERS" \
      >/dev/null 2>"$log" || status=$?
    collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" | tail -n 1)
    # A rejected row whose fault this protocol cannot take (no restricted string in
    # P2 or P4, say) is left out, not an error.
    if [ "$status" -ne 0 ] && grep -q "no message takes a fault" "$log"; then
      rm -f "$log"
      skipped[$approach]=1
      continue
    fi
    rm -f "$log"
    [ -n "$collected" ] || { echo "instructions.sh: callgrind reported nothing for $approach" >&2; exit 2; }
    per[$approach]=$((collected / (MESSAGES * ITERS)))
  done
  for approach in $APPROACHES; do
    if [ -n "${skipped[$approach]:-}" ]; then
      printf '%-16s %-24s %12s\n' "$protocol" "$approach" "(no such fault)"
      continue
    fi
    if [ -z "${per[$approach]:-}" ]; then
      printf '%-16s %-24s %12s\n' "$protocol" "$approach" "(not built)"
      continue
    fi
    printf '%-16s %-24s %12s %10s %11s %16s\n' "$protocol" "$approach" "${per[$approach]}" \
      "$(ratio "${per[$approach]}" "${per[value]:-}")" "$(ratio "${per[$approach]}" "${per[ignored]:-}")" \
      "$(ratio "${per[jsonschema]:-}" "${per[$approach]}")"
  done
  unset per skipped
done
