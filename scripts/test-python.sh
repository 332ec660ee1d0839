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
# shellcheck source=scripts/real-corpus.sh
. scripts/real-corpus.sh
tools=$py_tools
bin=$py_bin

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --locked --workspace
symgen=$(pwd)/target/debug/symgen
package=$(pwd)/generated/python

# 1. The committed package is exactly what the seed protocols generate (byte for byte).
cargo xtask check

# A package checked as a whole: formatted, linted, strictly typed.
check_package() {
  local dir=$1
  "$bin/ruff" format --check --quiet "$dir"
  "$bin/ruff" check --quiet "$dir"
  (cd "$dir" && MYPYPATH=src "$bin/mypy" --config-file "$OLDPWD/$tools/mypy.ini" \
    --cache-dir "$work/mypy-cache" --no-error-summary src $(test -d tests && echo tests))
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

# 5. The package's vector suite, against the installed package.
(cd "$work" && "$bin/python" -m pytest -q -p no:cacheprovider "$package/tests" \
  --junitxml="$work/vectors.xml" >"$work/pytest.log") || {
  cat "$work/pytest.log"
  exit 1
}
# 6. The real-world corpus (schemas symgen did not write): its package passes the same
#    checks, and every instance its authors publish decodes and re-encodes to equal JSON.
real_corpus "$work/real" python
check_package "$work/real/generated/python"
(cd "$work/real" && PYTHONPATH=generated/python/src "$bin/python" -m pytest -q \
  -p no:cacheprovider generated/python/tests --junitxml="$work/real.xml" >"$work/real.log") || {
  cat "$work/real.log"
  exit 1
}
real_valid=$(grep -o '<testcase [^>]*name="test_valid\[' "$work/real.xml" | wc -l)
real_schemas=$(find "$work/real/schemas" -maxdepth 1 -name '*.json' | wc -l)
if [ "$real_valid" -ne "$(real_instances "$work/real")" ]; then
  echo "test-python: $real_valid of $(real_instances "$work/real") corpus instances checked" >&2
  exit 1
fi

count() { grep -o "<testcase [^>]*name=\"$1\[" "$work/vectors.xml" | wc -l; }
valid=$(count test_valid)
invalid=$(count test_invalid)
unknown=$(count test_unknown)

echo "python: $valid valid vectors re-encode as expected, $invalid invalid rejected at their pointer, $unknown unknown-tag vectors kept whole (pytest, installed package); real-world corpus: $real_schemas schemas generate a clean package, $real_valid published instances re-encode equal; $fixtures fixture schemas generate packages whose models all build ($built); pip installs the package and a consumer type-checks and runs; ruff format + ruff check + mypy --strict clean" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$((valid + invalid + unknown + real_valid + real_schemas + fixtures + 1)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
