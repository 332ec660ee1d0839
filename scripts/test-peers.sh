#!/usr/bin/env bash
# Peers: the JSON Schemas symgen writes are the contract other teams' tools read. Each
# protocol's schema, written self-contained (`symgen schema --bundle`), is read by the
# generators symgen is measured against: json-schema-to-typescript and quicktype (pinned
# by benches/node's lockfile), whose TypeScript must pass `tsc --strict`, and
# datamodel-code-generator (benches/python's hashed requirements), whose pydantic
# models must import. The linked files of schema/ (a type two protocols share written
# once, `$ref`ed by its `urn:symgen:schema:` id) are for symgen's own generators; the
# summary says which of them the peers cannot read, so a change there is seen.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/node-tools.sh
. scripts/node-tools.sh
tsc=$node_bin/tsc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The peers, each installed from its lockfile into the project (git-ignored), skipped
# when the install matches the lockfile already.
peers_node=benches/node
if [ ! -d "$peers_node/node_modules/json-schema-to-typescript" ] ||
  ! cmp -s "$peers_node/package-lock.json" "$peers_node/node_modules/.symgen-lock"; then
  (cd "$peers_node" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$peers_node/package-lock.json" "$peers_node/node_modules/.symgen-lock"
fi
peers_py=benches/python
venv=$(pwd)/$peers_py/.venv
if [ ! -x "$venv/bin/datamodel-codegen" ] ||
  ! cmp -s "$peers_py/requirements.txt" "$venv/.symgen-requirements"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
    --only-binary=:all: -r "$peers_py/requirements.txt"
  cp "$peers_py/requirements.txt" "$venv/.symgen-requirements"
fi

cargo build --quiet --locked --workspace
mkdir "$work/bundled"
# The repository's symgen.toml runs the protocols' command line (xtask) for `schema`.
target/debug/symgen schema --bundle --out "$work/bundled" 2>/dev/null
schemas=("$work"/bundled/*.schema.json)
[ ${#schemas[@]} -ge 5 ] || {
  echo "test-peers: symgen schema --bundle wrote ${#schemas[@]} schemas" >&2
  exit 1
}
for schema in "${schemas[@]}"; do
  if grep -q '"\$ref": "urn:' "$schema"; then
    echo "test-peers: $schema refers to another document" >&2
    exit 1
  fi
done

# TypeScript peers: every schema read by both, and what they render type-checks.
node "$peers_node/coverage-peers.mjs" --out "$work/ts" "${schemas[@]}" >"$work/ts.jsonl"
ts_read=$(grep -c '"ok":true' "$work/ts.jsonl" || true)
if [ "$ts_read" -ne $((2 * ${#schemas[@]})) ]; then
  echo "test-peers: a TypeScript peer cannot read a bundled schema:" >&2
  grep -v '"ok":true' "$work/ts.jsonl" >&2
  exit 1
fi
for tool in json-schema-to-typescript quicktype; do
  # Each file on its own: the two peers' files declare the same names.
  for file in "$work/ts/$tool"/*.ts; do
    "$tsc" --strict --noEmit --target ES2022 --skipLibCheck "$file"
  done
done

# datamodel-code-generator: every schema rendered, and its models import.
py_read=0
for schema in "${schemas[@]}"; do
  stem=$(basename "$schema" .schema.json)
  out="$work/py/${stem//-/_}.py"
  mkdir -p "$work/py"
  if ! "$venv/bin/datamodel-codegen" --input "$schema" --input-file-type jsonschema \
    --output-model-type pydantic_v2.BaseModel --target-python-version 3.11 \
    --output "$out" >/dev/null 2>"$work/py.err"; then
    echo "test-peers: datamodel-code-generator cannot read $stem:" >&2
    cat "$work/py.err" >&2
    exit 1
  fi
  (cd "$work/py" && "$venv/bin/python" -c "import ${stem//-/_}")
  py_read=$((py_read + 1))
done

# The linked files, as the project's schema directory holds them: how many each peer
# reads (reported, not required: they are symgen's own generators' input).
node "$peers_node/coverage-peers.mjs" --out "$work/linked" schema/*.schema.json \
  >"$work/linked.jsonl"
linked_read=$(grep -c '"ok":true' "$work/linked.jsonl" || true)
linked_all=$(wc -l <"$work/linked.jsonl")

echo "peers: ${#schemas[@]} bundled schemas (symgen schema --bundle) read by json-schema-to-typescript and quicktype ($ts_read renderings, tsc --strict clean) and by datamodel-code-generator ($py_read model modules import); the linked files of schema/: $linked_read of $linked_all TypeScript renderings" >>"${SYMGEN_SUMMARY:-/dev/stdout}"
echo "$((ts_read + py_read + 1)) 0" >>"${SYMGEN_COUNTS:-/dev/null}"
