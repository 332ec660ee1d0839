#!/usr/bin/env bash
# Adoption: symgen used the way a team outside this repository uses it. The team's
# repository (tests/adoption/: a protocol crate that depends on symgen-wire only, a CLI
# crate calling symgen::Cli, symgen.toml with its own package names, vectors, an app)
# is copied to a scratch directory with symgen as a path dependency, then:
#   generate → check is clean; an edit → check fails naming the file and `generate`;
#   `check | head -1` exits cleanly; the message reference names who sends what;
#   `breaking --against HEAD` catches a new required field; the plain `symgen` binary
#   delegates to the project's command; validate gives each vector its verdict; the TypeScript package
#   passes tsc strict + prettier and the vector type checks; the Swift package builds
#   with zero warnings, is swift-format clean and round-trips the vectors; the app
#   builds against it as a path dependency and runs; the Python package is ruff and
#   mypy --strict clean, installs with pip, round-trips the vectors (pytest) and the
#   team's worker script type-checks and runs against it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
# shellcheck source=scripts/node-tools.sh
. scripts/node-tools.sh
bin=$node_bin
# shellcheck source=scripts/python-tools.sh
. scripts/python-tools.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
project=$work/chat
cp -r tests/adoption "$project"
sed -i "s|@SYMGEN@|$repo|g" "$project/protocol/Cargo.toml" "$project/cli/Cargo.toml"
# The toolkit's pinned versions, so nothing new is downloaded or built; and a git
# repository, as a team's is (scripts/swift.sh binds the repository into its chroot).
cp Cargo.lock "$project/"
git -C "$project" init -q
export CARGO_TARGET_DIR=$repo/target

checks=0
pass() {
  checks=$((checks + 1))
}
fail() {
  echo "test-adoption: $*" >&2
  exit 1
}
cli() { (cd "$project" && cargo run --quiet --package chat-cli -- "$@"); }

# 1. generate, then check is clean.
cli generate 2>/dev/null
cli check 2>/dev/null || fail "check after generate is not clean"
pass

# 2. The plain symgen binary (no protocols compiled in) runs the project's command.
cargo build --quiet --locked --package symgen
(cd "$project" && "$repo/target/debug/symgen" check 2>/dev/null) ||
  fail "the plain symgen binary did not delegate check"
pass

# 3. An edited doc comment without generate: check fails, names the stale schema file
#    and `generate` as the fix; `check | head -1` ends quietly (no panic, exit 1).
cp "$project/protocol/src/lib.rs" "$work/lib.rs"
sed -i 's|/// Who sent a message.|/// Who sent this message.|' "$project/protocol/src/lib.rs"
set +e
cli check >"$work/out" 2>"$work/err"
code=$?
(cd "$project" && cargo run --quiet --package chat-cli -- check 2>/dev/null | head -n 1 >/dev/null;
  echo "${PIPESTATUS[0]}") >"$work/pipe"
set -e
[ "$code" -eq 1 ] || fail "check after an edit exited $code, not 1"
grep -q '^stale: schema/chat.schema.json$' "$work/out" || fail "check did not name the schema: $(cat "$work/out")"
grep -q 'run `cargo run -p chat-cli -- generate`' "$work/err" || fail "check's hint: $(cat "$work/err")"
[ "$(cat "$work/pipe")" = 1 ] || fail "check | head -1 exited $(cat "$work/pipe")"
cp "$work/lib.rs" "$project/protocol/src/lib.rs"
cli check 2>/dev/null || fail "check after reverting the edit is not clean"
pass

# 3b. Who sends what: the message reference lists every message type with its parties
#     and an example; a new required field on `Post` (sent by clients, and by the
#     server inside history replies) is wire-breaking
#     against the last commit (read with git), in every output format.
docs=$project/generated/docs/chat.md
for heading in '### `post`' '### `get_history`' '### `reply`' '## `Presence`' '## `Receipt`'; do
  grep -qxF "$heading" "$docs" || fail "the reference has no section $heading"
done
grep -qF -- '- **Sent by:** `client`' "$docs" || fail "the reference does not say who sends post"
grep -qF '```json' "$docs" || fail "the reference has no example from the vectors"
git -C "$project" add -A
git -C "$project" -c user.name=team -c user.email=team@example.invalid commit -qm base
cli breaking --against HEAD >"$work/out" 2>/dev/null || fail "breaking found a change in an unchanged tree: $(cat "$work/out")"
sed -i 's|^    pub text: String,$|    pub text: String,\n    /// Whether it is pinned.\n    pub pinned: bool,|' "$project/protocol/src/lib.rs"
set +e
cli breaking --against HEAD >"$work/out" 2>"$work/err"
code=$?
cli breaking --against HEAD --format github >"$work/gh" 2>/dev/null
set -e
[ "$code" -eq 1 ] || fail "breaking exited $code on a wire-breaking change: $(cat "$work/out" "$work/err")"
grep -q '^schema/chat.schema.json:/$defs/Post/properties/pinned: required-field-added \[wire\]: .*old senders omit it: client, server$' "$work/out" ||
  fail "breaking's report: $(cat "$work/out")"
grep -q '^::error file=schema/chat.schema.json,line=[0-9]*,title=required-field-added (wire)::' "$work/gh" ||
  fail "breaking's annotations: $(cat "$work/gh")"
git -C "$project" checkout -q protocol/src/lib.rs
pass

# 4. validate (Rust's verdict) on the vectors: every valid one valid, every invalid one
#    invalid, every unknown one unknown.
for kind in valid invalid unknown; do
  node -e 'for (const v of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")))
    console.log(JSON.stringify(v.message))' "$project/vectors/chat/$kind.json" >"$work/$kind.jsonl"
done
cli validate -p chat "$work/valid.jsonl" >/dev/null || fail "a valid vector is invalid"
set +e
cli validate -p chat --format json "$work/invalid.jsonl" >"$work/invalid.out"
[ $? -eq 1 ] || fail "validate accepted the invalid vectors"
set -e
invalid=$(grep -c '"outcome":"invalid"' "$work/invalid.out")
[ "$invalid" -eq "$(wc -l <"$work/invalid.jsonl")" ] || fail "only $invalid invalid vectors rejected"
cli validate -p chat --format json "$work/unknown.jsonl" >"$work/unknown.out" ||
  fail "an unknown vector is invalid"
unknown=$(grep -c '"outcome":"unknown"' "$work/unknown.out")
[ "$unknown" -eq "$(wc -l <"$work/unknown.jsonl")" ] || fail "only $unknown unknown vectors kept"
pass

# 5. TypeScript: strict tsc over declarations and JSDoc-checked JavaScript, prettier,
#    the vectors as the generated types see them, and the vectors through the
#    generated decoders at run time.
ts=$project/generated/ts
cat >"$work/ts.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "strict": true, "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true,
    "allowJs": true, "checkJs": true, "skipLibCheck": false, "noEmit": true, "types": []
  },
  "include": ["$ts/**/*"]
}
JSON
"$bin/tsc" -p "$work/ts.json"
"$bin/prettier" --check --log-level=warn "$ts"
[ "$(node -p 'require(process.argv[1]).name' "$ts/package.json")" = "@chat/protocol" ] ||
  fail "the npm package is not named as symgen.toml says"
mkdir "$work/vectors"
node tests/typescript/vectors-check.mjs "$project/vectors" "$project/schema" "$ts" \
  "$work/vectors/check.ts" >/dev/null
cat >"$work/vectors/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
    "strict": true, "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true,
    "noEmit": true, "types": []
  },
  "files": ["check.ts"]
}
JSON
"$bin/tsc" -p "$work/vectors/tsconfig.json"
# The generated decoders give every vector the team's Rust verdict at run time.
SYMGEN_VECTORS=$project/vectors SYMGEN_SCHEMAS=$project/schema SYMGEN_PACKAGE=$ts \
  SYMGEN_RUN_COUNTS=$work/ts-run.json node --test --test-reporter=dot \
  tests/typescript/vectors-run.test.mjs >"$work/ts-run.log" 2>&1 ||
  { cat "$work/ts-run.log" >&2; fail "the generated TypeScript decoders disagree with Rust"; }
ts_run=$(node -p 'const c = require(process.argv[1]); c.valid + c.invalid + c.unknown' "$work/ts-run.json")
ts_all=$(find "$project/vectors" -name '*.json' -exec node -e \
  'let n = 0; for (const f of process.argv.slice(1)) n += require(f).length; console.log(n)' {} +)
[ "$ts_run" -eq "$ts_all" ] ||
  fail "only $ts_run of $ts_all vectors went through the TypeScript decoders"
pass

# 6. Swift: the package builds with zero warnings, lints clean and round-trips the
#    vectors; the app builds against it by path and runs.
swift=$project/generated/swift
scripts/swift.sh "$swift" swift build --build-tests -Xswiftc -warnings-as-errors >/dev/null
scripts/swift.sh "$swift" swift-format lint --strict -r Sources Tests Package.swift
scripts/swift.sh "$swift" swift test --skip-build --disable-swift-testing >"$work/swift.log" 2>&1 ||
  { tail -n 30 "$work/swift.log" >&2; fail "the Swift vector tests failed"; }
grep -q '^symgen-vectors: chat valid=7 replies=1 invalid=5 unknown=2$' "$work/swift.log" ||
  fail "Swift's vector counts: $(grep symgen-vectors "$work/swift.log")"
scripts/swift.sh "$project/app" swift build -Xswiftc -warnings-as-errors >/dev/null
[ "$(scripts/swift.sh "$project/app" swift run --skip-build App 2>/dev/null)" = "app ok" ] ||
  fail "the app did not run"
pass

# 7. Python: ruff and mypy --strict over the package; installed with pip (its own build
#    backend), its pytest suite round-trips the vectors, and the team's worker
#    type-checks and runs against the installed package.
py=$project/generated/python
"$py_bin/ruff" format --check --quiet "$py"
"$py_bin/ruff" check --quiet "$py"
(cd "$py" && MYPYPATH=src "$py_bin/mypy" --config-file "$repo/$py_tools/mypy.ini" \
  --cache-dir "$work/mypy-cache" --no-error-summary src tests)
grep -q '^name = "chat-protocol"$' "$py/pyproject.toml" ||
  fail "the Python distribution is not named as symgen.toml says"
"$py_bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation --force-reinstall "$py"
(cd "$work" && "$py_bin/python" -m pytest -q -p no:cacheprovider "$py/tests" >"$work/pytest.log") ||
  { tail -n 30 "$work/pytest.log" >&2; fail "the Python vector tests failed"; }
grep -q '^15 passed' "$work/pytest.log" ||
  fail "Python's vector tests: $(tail -n 1 "$work/pytest.log")"
(cd "$project/app-py" && "$py_bin/mypy" --config-file "$repo/$py_tools/mypy.ini" \
  --cache-dir "$work/mypy-cache" --no-error-summary main.py &&
  [ "$("$py_bin/python" main.py)" = "app ok" ]) || fail "the Python worker failed"
pass

echo "adoption: a team's repository (protocol crate on symgen-wire, own CLI, symgen.toml names) passes $checks checks: generate/check, drift named with its fix, the plain binary delegating, its message reference and a wire-breaking change caught against its last commit, validate verdicts on its vectors, TypeScript strict + vectors (types and run-time decoders), Swift build/lint/vectors and an app depending on it by path, Python ruff/mypy/vectors and a worker using the pip-installed package" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$checks 0" >>"${SYMGEN_COUNTS:-/dev/null}"
