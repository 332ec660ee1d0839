#!/usr/bin/env bash
# The conformance kit over the whole SchemaStore catalog, outside CI (the test command
# runs a 200-schema sample; docs/vectors.md reports both).
#
# Usage: scripts/whole-catalog.sh SCHEMASTORE_GIT [LANGUAGE...]   (default: ts python rust swift)
#
# SCHEMASTORE_GIT is a git checkout (or mirror) of SchemaStore/schemastore. Every schema
# of its HEAD that the real-world corpus does not hold and that symgen reads on its own
# becomes one symgen project (scripts/refresh-schemastore-sample.py, any size, no
# sampling) under $SYMGEN_CATALOG_DIR (default target/catalog); each language's suite
# then runs with that project as its SchemaStore corpus, recording every vector on which
# the language differs from Rust's verdict or re-encoding instead of failing, and the
# differences are counted by class (scripts/divergences.py --report). The rest of each
# suite runs as its quick tier (scripts/test.sh --quick). Nothing in the repository
# changes. The catalog's vectors are generated once, before the first language (about
# five minutes and 7 GB of memory), and every language's run reads those files
# (`[vectors] generate = false` in the project). Expect over an hour per language on two
# cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  sed -n '5p' "$0" | sed 's/^# //' >&2
  exit 2
fi
catalog=$1
shift
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(ts python rust swift)
out=$(mkdir -p "${SYMGEN_CATALOG_DIR:-target/catalog}" && cd "${SYMGEN_CATALOG_DIR:-target/catalog}" && pwd)

cargo build --quiet --locked --workspace
rm -rf "$out/project" "$out/records"
scripts/refresh-schemastore-sample.py "$catalog" all --max-bytes 0 --out "$out/project"
if ! compgen -G "$out/project/schemas/*.json" >/dev/null; then
  echo "whole-catalog: symgen read none of the catalog's schemas; $out/project/README.md says why" >&2
  exit 1
fi
# The vectors once for every language: each language's `generate` then leaves them be.
symgen=$(pwd)/target/debug/symgen
(cd "$out/project" && "$symgen" vectors 2>vectors.warnings)
sed -i '/^\[vectors\]$/a generate = false' "$out/project/symgen.toml"

status=0
# The quick tier for everything else (scripts/test.sh --quick): the catalog is the point.
# tsc needs more than node's default heap for one package of the whole catalog.
NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=8192" \
  SYMGEN_SCHEMASTORE="$out/project" SYMGEN_RECORD_DIR="$out/records" \
  scripts/test.sh --quick "${langs[@]}" >"$out/test.log" 2>&1 || status=$?

kept=$(find "$out/project/schemas" -maxdepth 1 -name '*.json' | wc -l)
left=$(grep -c '^\* `.*`: ' "$out/project/README.md" || true)
echo "SchemaStore catalog at $(git -C "$catalog" rev-parse --short HEAD): $kept schema files read (with the files their \$refs name), $left left out (symgen cannot read them on their own; $out/project/README.md says why)"
# Each language's summary line names the SchemaStore corpus's generated-vector counts
# (as "SchemaStore sample"); the divergence counts are 0 here, since every difference
# was recorded instead.
sed -n '/^=== summary ===$/,$p' "$out/test.log"
echo
scripts/divergences.py --report "$out/records" schemastore
if [ "$status" -ne 0 ]; then
  echo "whole-catalog: a language's suite failed outside the recorded vectors; see $out/test.log" >&2
  exit "$status"
fi
