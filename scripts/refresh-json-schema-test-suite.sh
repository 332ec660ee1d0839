#!/usr/bin/env bash
# Refreshes tests/fixtures/json-schema-test-suite/ from a git checkout of
# json-schema-org/JSON-Schema-Test-Suite: draft 2020-12's tests, the remotes, the
# licence and the README, unchanged, and SOURCE.md naming the commit.
#
# Usage: scripts/refresh-json-schema-test-suite.sh CHECKOUT
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/refresh-json-schema-test-suite.sh CHECKOUT}
dest=tests/fixtures/json-schema-test-suite
commit=$(git -C "$src" rev-parse HEAD)
date=$(git -C "$src" log -1 --format=%cs HEAD)
rm -rf "$dest/tests" "$dest/remotes"
mkdir -p "$dest/tests"
cp -R "$src/tests/draft2020-12" "$dest/tests/"
cp -R "$src/remotes" "$dest/"
cp "$src/LICENSE" "$src/README.md" "$dest/"
sed -i "s/at commit [0-9a-f]\{40\} ([0-9-]*)/at commit $commit ($date)/" "$dest/SOURCE.md"
echo "refreshed $dest from $commit ($date)"
