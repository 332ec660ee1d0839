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
# shellcheck source=scripts/corpora.sh
. scripts/corpora.sh

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

# 1b. The team's protocol crate leaves serde_json's maps as the team's program builds
#     them: symgen-wire turns on no `preserve_order` (only the team's symgen command
#     line, through the symgen crate, does).
if (cd "$project" && cargo tree --offline -e features -p chat-protocol) |
  grep -q 'serde_json feature "preserve_order"'; then
  fail "chat-protocol's dependencies turn on serde_json's preserve_order"
fi
pass

# 2. The plain symgen binary (no protocols compiled in) runs the project's command.
cargo build --quiet --locked --package symgen
(cd "$project" && "$repo/target/debug/symgen" check 2>/dev/null) ||
  fail "the plain symgen binary did not delegate check"
pass

# 2b. What symgen owns: a file the team put in an output directory survives `generate`,
#     which refuses the directory and names the file; a project file anyone may write,
#     or another user owns, is refused by name before anything runs.
echo "team notes" >"$project/generated/ts/NOTES.md"
set +e
cli generate >/dev/null 2>"$work/err"
code=$?
set -e
[ "$code" -ne 0 ] || fail "generate wrote into an output directory holding a file it did not write"
grep -q 'NOTES.md' "$work/err" || fail "generate's refusal does not name the file: $(cat "$work/err")"
[ "$(cat "$project/generated/ts/NOTES.md")" = "team notes" ] || fail "the team's file did not survive generate"
rm "$project/generated/ts/NOTES.md"
refused() {
  set +e
  (cd "$project" && "$repo/target/debug/symgen" check >/dev/null 2>"$work/err")
  code=$?
  set -e
  [ "$code" -ne 0 ] && grep -q "symgen.toml.*$1" "$work/err" ||
    fail "a project file $1 was not refused by name: $(cat "$work/err")"
}
chmod o+w "$project/symgen.toml"
refused "any user may write it"
chmod o-w "$project/symgen.toml"
# Only root can give a file away: as another user, the summary says that case was not run.
owners="a project file anyone may write or another user owns refused"
if [ "$(id -u)" = 0 ]; then
  chown 65534 "$project/symgen.toml"
  refused "owned by another user"
  chown 0 "$project/symgen.toml"
else
  owners="a project file anyone may write refused (another owner: run as root to check)"
fi
(cd "$project" && "$repo/target/debug/symgen" check 2>/dev/null) ||
  fail "the restored project file is still refused"
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

# 4. validate (Rust's verdict) on the vectors, the team's and those `generate` wrote
#    from the schema (vectors/chat/generated): every valid one valid, every invalid one
#    invalid, every unknown one unknown. (An invalid reply's fault is in its data, which
#    only its request gives a type: the language suites check those.)
[ -s "$project/vectors/chat/generated/invalid.json" ] || fail "generate wrote no vectors"
for kind in valid invalid unknown; do
  node -e 'for (const f of process.argv.slice(1)) {
    if (!require("fs").existsSync(f)) continue;
    for (const v of JSON.parse(require("fs").readFileSync(f, "utf8")))
      if (!(v.reply_to && f.endsWith("invalid.json"))) console.log(v.text ?? JSON.stringify(v.message)); }' \
    "$project/vectors/chat/$kind.json" "$project/vectors/chat/generated/$kind.json" >"$work/$kind.jsonl"
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
# The generated decoders give every vector the team's Rust verdict at run time, but
# the differences its divergences list documents (tests/divergences/adoption.json, as
# a team keeps its own; SYMGEN_RECORD_DIR records them instead, docs/vectors.md).
SYMGEN_VECTORS=$project/vectors SYMGEN_SCHEMAS=$project/schema SYMGEN_PACKAGE=$ts \
  SYMGEN_RUN_COUNTS=$work/ts-run.json with_divergences adoption typescript \
  node --test --test-reporter=dot tests/typescript/vectors-run.test.mjs >"$work/ts-run.log" 2>&1 ||
  { cat "$work/ts-run.log" >&2; fail "the generated TypeScript decoders disagree with Rust"; }
ts_run=$(node -p 'const c = require(process.argv[1]), g = c.generated;
  c.valid + c.invalid + c.unknown + c.documented + g.valid + g.invalid + g.unenforced + g.unknown' "$work/ts-run.json")
ts_documented=$(node -p 'require(process.argv[1]).documented' "$work/ts-run.json")
ts_all=$(find "$project/vectors" -name '*.json' -exec node -e \
  'let n = 0; for (const f of process.argv.slice(1)) n += require(f).length; console.log(n)' {} +)
[ -n "${SYMGEN_RECORD_DIR:-}" ] || [ "$ts_run" -eq "$ts_all" ] ||
  fail "only $ts_run of $ts_all vectors went through the TypeScript decoders"
pass

# 6. Swift: the package builds with zero warnings, lints clean and round-trips the
#    vectors; the app builds against it by path and runs.
swift=$project/generated/swift
scripts/swift.sh "$swift" swift build --build-tests -Xswiftc -warnings-as-errors >/dev/null
scripts/swift.sh "$swift" swift-format lint --strict -r Sources Tests Package.swift
# The chroot sees only the project: its divergences list and record are kept there.
swift_env=(SYMGEN_DIVERGENCES= SYMGEN_RECORD=)
if [ -n "${SYMGEN_RECORD_DIR:-}" ]; then
  swift_env=(SYMGEN_DIVERGENCES= "SYMGEN_RECORD=$project/swift-record.jsonl")
elif [ -f tests/divergences/adoption.json ]; then
  cp tests/divergences/adoption.json "$project/divergences.json"
  swift_env=("SYMGEN_DIVERGENCES=$project/divergences.json" SYMGEN_RECORD=)
fi
env "${swift_env[@]}" scripts/swift.sh "$swift" swift test --skip-build --disable-swift-testing \
  >"$work/swift.log" 2>&1 ||
  { tail -n 30 "$work/swift.log" >&2; fail "the Swift vector tests failed"; }
if [ -n "${SYMGEN_RECORD_DIR:-}" ] && [ -f "$project/swift-record.jsonl" ]; then
  cat "$project/swift-record.jsonl" >>"$SYMGEN_RECORD_DIR/adoption.swift.jsonl"
fi
grep -q '^symgen-vectors: chat valid=7 replies=1 invalid=5 unknown=2 generated-valid=[1-9][0-9]* generated-invalid=[1-9][0-9]* .* documented=[0-9]*$' "$work/swift.log" ||
  fail "Swift's vector counts: $(grep symgen-vectors "$work/swift.log")"
swift_documented=$(grep '^symgen-vectors: chat ' "$work/swift.log" | sed 's/.*documented=//')
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
(cd "$work" && with_divergences adoption python \
  "$py_bin/python" -m pytest -q -p no:cacheprovider "$py/tests" >"$work/pytest.log") ||
  { tail -n 30 "$work/pytest.log" >&2; fail "the Python vector tests failed"; }
# Every vector ran: passed, or failed as its documented divergence says (xfailed).
py_passed=$(tail -n 1 "$work/pytest.log" | grep -o '[0-9]* passed' | grep -o '[0-9]*' || echo 0)
py_documented=$(tail -n 1 "$work/pytest.log" | grep -o '[0-9]* xfailed' | grep -o '[0-9]*' || echo 0)
[ -n "${SYMGEN_RECORD_DIR:-}" ] || [ "$((py_passed + py_documented))" -eq "$((ts_all + 1))" ] ||
  fail "Python's vector tests: $(tail -n 1 "$work/pytest.log")"
(cd "$project/app-py" && "$py_bin/mypy" --config-file "$repo/$py_tools/mypy.ini" \
  --cache-dir "$work/mypy-cache" --no-error-summary main.py &&
  [ "$("$py_bin/python" main.py)" = "app ok" ]) || fail "the Python worker failed"
pass

echo "adoption: a team's repository (protocol crate on symgen-wire, own CLI, symgen.toml names) passes $checks checks: generate/check, no serde_json preserve_order forced on its protocol crate, a file it did not write kept, $owners, drift named with its fix, the plain binary delegating, its message reference and a wire-breaking change caught against its last commit, validate verdicts on its $ts_all vectors (hand-written and generated), TypeScript strict + vectors (types and run-time decoders; $ts_documented documented divergences), Swift build/lint/vectors ($swift_documented documented) and an app depending on it by path, Python ruff/mypy/vectors ($py_documented documented) and a worker using the pip-installed package" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$checks 0" >>"${SYMGEN_COUNTS:-/dev/null}"
