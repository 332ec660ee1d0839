# Sourced by the test scripts: installs the Node tooling of tests/typescript (tsc,
# prettier, esbuild) from its lockfile, skipped when node_modules matches it already,
# and sets $node_bin to its bin directory.
#
# npm is the machine's when it runs. Where it does not (a machine whose npm upgrade
# failed half-way leaves no working `npm`), the npm named by tests/typescript's
# "packageManager" field runs through corepack, which Node 20 ships: the field pins
# the version and the sha512 of its tarball, and corepack refuses a download whose
# hash differs.
node_tools=tests/typescript
node_bin=$(pwd)/$node_tools/node_modules/.bin
node_stamp=$node_tools/node_modules/.symgen-lock
if ! command npm --version >/dev/null 2>&1; then
  if ! command -v corepack >/dev/null 2>&1; then
    echo "neither a working npm nor corepack is on PATH: install Node.js 20 with npm" >&2
    exit 1
  fi
  node_npm=$(node -p "require('./$node_tools/package.json').packageManager")
  npm() {
    COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack "$node_npm" "$@"
  }
fi
if [ ! -x "$node_bin/tsc" ] || [ ! -x "$node_bin/prettier" ] || [ ! -x "$node_bin/esbuild" ] ||
  ! cmp -s "$node_tools/package-lock.json" "$node_stamp"; then
  (cd "$node_tools" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$node_tools/package-lock.json" "$node_stamp"
fi
