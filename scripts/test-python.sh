#!/usr/bin/env bash
# Python: the generated package is current, passes `ruff format --check`, `ruff check`
# and `mypy --strict` (pydantic plugin); the fixture schemas generate packages that do
# too and whose every model builds; the package installs with pip (a wheel built by its
# own build backend) and a consumer script type-checks and runs against it; and the
# package's own pytest suite round-trips every conformance vector (valid re-encodes as
# expected, invalid rejected at the vector's pointer, unknown kept whole).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/python-tools.sh
. scripts/python-tools.sh
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh
tools=$py_tools
bin=$py_bin

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --locked --workspace
symgen=$(pwd)/target/debug/symgen
package=$(pwd)/generated/python

# 1. The committed package is exactly what the seed protocols generate (byte for byte).
cargo xtask check

# A package checked as a whole: formatted, linted, strictly typed (mypy's cache kept
# from run to run beside the corpora, scripts/corpora.sh).
mypy_cache=${SYMGEN_CORPORA:-$(pwd)/target/corpora}/python-mypy-cache
check_package() {
  local dir=$1
  "$bin/ruff" format --check --quiet "$dir"
  "$bin/ruff" check --quiet "$dir"
  (cd "$dir" && MYPYPATH=src "$bin/mypy" --config-file "$OLDPWD/$tools/mypy.ini" \
    --cache-dir "$mypy_cache" --no-error-summary src $(test -d tests && echo tests))
}

# 2. The committed package.
check_package "$package"

# 3. The fixture schemas (and the Python-specific ones: keywords, pydantic's own names,
#    quotes in docs): the same checks, and every model and alias builds.
fixtures=$(find tests/fixtures/schemas tests/fixtures/python -name '*.json' | wc -l)
mkdir -p "$work/fixtures"
printf 'languages = ["python"]\n[python]\npackage = "fixtures"\n' >"$work/fixtures.toml"
"$symgen" --config "$work/fixtures.toml" py --schema tests/fixtures/schemas \
  --schema tests/fixtures/python --out "$work/fixtures" 2>/dev/null
check_package "$work/fixtures"
built=$(PYTHONPATH="$work/fixtures/src" "$bin/python" "$tools/rebuild_all.py" fixtures)

# 4. Install the package (a wheel built by hatchling) and run a consumer against it,
#    from outside the repository.
"$bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --force-reinstall "$package"
mkdir -p "$work/consumer"
cp "$tools/consumer/main.py" "$work/consumer/"
(cd "$work/consumer" && "$bin/mypy" --config-file "$OLDPWD/$tools/mypy.ini" \
  --cache-dir "$work/mypy-cache" main.py >/dev/null && "$bin/python" main.py >/dev/null)

# 5. The package's vector suite, against the installed package: the hand-written vectors
#    and those `symgen vectors` generated, each giving Rust's verdict and re-encoding or
#    differing as tests/divergences/<corpus>.json documents (an expected failure).
# vector_suite CORPUS COUNTS DIR PYTHONPATH TESTS: runs pytest on TESTS in DIR (the package
# from PYTHONPATH, or installed when it is empty), writes the counts.
vector_suite() {
  local corpus=$1 counts=$2 dir=$3 path=$4 tests=$5
  (cd "$dir" && with_divergences "$corpus" python env PYTHONPATH="$path" "$bin/python" -m pytest \
    -q -p no:cacheprovider "$tests" --junitxml="$counts.xml" >"$counts.log") || {
    cat "$counts.log"
    exit 1
  }
  "$bin/python" "$tools/vector_counts.py" "$counts.xml" >"$counts"
}
field() { "$bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }
generated() {
  "$bin/python" -c 'import json, sys
c = json.load(open(sys.argv[1]))
g = c["generated"]
print("{} valid / {} invalid ({} only by an unenforced keyword) / {} unknown generated vectors, {} documented divergences".format(g["valid"], g["invalid"] + g["unenforced"], g["unenforced"], g["unknown"], c["documented"]))' "$1"
}
checked() {
  "$bin/python" -c 'import json, sys
c = json.load(open(sys.argv[1]))
print(c["valid"] + c["invalid"] + c["unknown"] + sum(c["generated"].values()))' "$1"
}
vector_suite protocols "$work/vectors.json" "$work" "" "$package/tests"

# 6. The fixture schemas' generated vectors.
corpus fixtures "$work/fixture-vectors" python
check_package "$work/fixture-vectors/generated/python"
vector_suite fixtures "$work/fixture-vectors.json" "$work/fixture-vectors" generated/python/src \
  generated/python/tests

# 7. The real-world corpus (schemas symgen did not write): its package passes the same
#    checks, and every instance its authors publish decodes and re-encodes to equal JSON.
corpus real "$work/real" python
check_package "$work/real/generated/python"
vector_suite real "$work/real.json" "$work/real" generated/python/src generated/python/tests
real_valid=$(field "$work/real.json" valid)
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "$real_valid" -ne "$(corpus_instances "$work/real")" ]; then
  echo "test-python: $real_valid of $(corpus_instances "$work/real") corpus instances checked" >&2
  exit 1
fi

# 8. The SchemaStore sample (tests/fixtures/schemastore): the same checks, and its
#    generated vectors.
corpus schemastore "$work/store" python
check_package "$work/store/generated/python"
vector_suite schemastore "$work/store.json" "$work/store" generated/python/src generated/python/tests
store_schemas=$(find "$work/store/schemas" -maxdepth 1 -name '*.json' | wc -l)

valid=$(field "$work/vectors.json" valid)
invalid=$(field "$work/vectors.json" invalid)
unknown=$(field "$work/vectors.json" unknown)

echo "python: $valid valid vectors re-encode as expected, $invalid invalid rejected at their pointer, $unknown unknown-tag vectors kept whole (pytest, installed package); generated vectors, verdicts and re-encodings equal: protocols $(generated "$work/vectors.json"), fixtures $(generated "$work/fixture-vectors.json"), real-world corpus $(generated "$work/real.json"), SchemaStore sample ($store_schemas schemas, a clean package) $(generated "$work/store.json"); real-world corpus: $real_schemas schemas generate a clean package, $real_valid published instances re-encode equal; $fixtures fixture schemas generate packages whose models all build ($built); pip installs the package and a consumer type-checks and runs; ruff format + ruff check + mypy --strict clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$(($(checked "$work/vectors.json") + $(checked "$work/fixture-vectors.json") + $(checked "$work/real.json") + $(checked "$work/store.json") + store_schemas + real_schemas + fixtures + 1)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
