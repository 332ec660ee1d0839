# Sourced by the test scripts: installs the Node tooling of tests/typescript (tsc,
# prettier, esbuild) from its lockfile, skipped when node_modules matches it already,
# and sets $node_bin to its bin directory.
node_tools=tests/typescript
node_bin=$(pwd)/$node_tools/node_modules/.bin
node_stamp=$node_tools/node_modules/.symgen-lock
if [ ! -x "$node_bin/tsc" ] || [ ! -x "$node_bin/prettier" ] || [ ! -x "$node_bin/esbuild" ] ||
  ! cmp -s "$node_tools/package-lock.json" "$node_stamp"; then
  (cd "$node_tools" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$node_tools/package-lock.json" "$node_stamp"
fi
