#!/usr/bin/env bash
# The whole test suite: every language's checks, then a per-language summary.
# Usage: scripts/test.sh                    (all languages)
#        scripts/test.sh rust ts            (only those)
#        scripts/test.sh --quick [LANG...]  (the quick tier, for the edit-test loop)
# Each language has scripts/test-<lang>.sh; it appends one summary line to
# "$SYMGEN_SUMMARY", appends "<passed> <failed>" check counts to "$SYMGEN_COUNTS", and
# exits non-zero on failure.
#
# The quick tier runs every language's steps on the protocols and the fixtures whole,
# but on only a few schemas of the real-world corpus and of the SchemaStore sample
# (scripts/corpora.sh), without the adoption test and without packaging the crates
# (`cargo package`). It is not the suite CI runs: that one is `scripts/test.sh`.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
  export SYMGEN_QUICK=1
fi

langs=("$@")
if [ ${#langs[@]} -eq 0 ]; then
  langs=()
  for script in scripts/test-*.sh; do
    name=${script#scripts/test-}
    name=${name%.sh}
    if [ -n "$quick" ] && [ "$name" = adoption ]; then
      continue
    fi
    langs+=("$name")
  done
fi

SYMGEN_SUMMARY=$(mktemp)
SYMGEN_COUNTS=$(mktemp)
export SYMGEN_SUMMARY SYMGEN_COUNTS
trap 'rm -f "$SYMGEN_SUMMARY" "$SYMGEN_COUNTS"' EXIT

passed=0
failed=0
failed_langs=()
timings=()
for lang in "${langs[@]}"; do
  script="scripts/test-$lang.sh"
  if [ ! -f "$script" ]; then
    echo "test.sh: no such language: $lang ($script missing)" >&2
    exit 2
  fi
  printf '\n=== %s ===\n' "$lang"
  started=$SECONDS
  if bash "$script"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failed_langs+=("$lang")
    echo "$lang: FAILED (see above)" >>"$SYMGEN_SUMMARY"
  fi
  timings+=("$lang $((SECONDS - started)) s")
done

printf '\n=== summary ===\n'
cat "$SYMGEN_SUMMARY"
if [ ${#failed_langs[@]} -gt 0 ]; then
  echo "failed: ${failed_langs[*]}"
fi
echo "languages: $passed ok, $failed failed (time: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g'))"
read -r checks_passed checks_failed < <(awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }' "$SYMGEN_COUNTS")
if [ "$failed" -gt 0 ] && [ "$checks_failed" -eq 0 ]; then
  checks_failed=$failed
fi
echo "total: $checks_passed passed, $checks_failed failed"
if [ -n "$quick" ]; then
  echo "quick tier: corpora trimmed, no adoption test, no packaging; scripts/test.sh runs the full suite"
fi
[ "$failed" -eq 0 ]
