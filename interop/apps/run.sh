#!/usr/bin/env bash
# The real-browser test of MCP Apps against examples/expenses (see
# browser.test.mjs). Installs its needs (setup.sh), builds the example
# server, and runs the test on the machine's Node. The screenshot lands in
# interop/apps/artifacts/ (not committed).
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh
if ! command -v node >/dev/null 2>&1 || [ ! -d node_modules/playwright-core ]; then
  echo "interop/apps/run.sh: node or playwright-core missing; skipping the browser test" >&2
  [ -z "${MCPGEN_REQUIRE_BROWSER:-}" ] || exit 1
  exit 0
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd ../.. && go build -o "$bin/expenses" ./examples/expenses)
EXPENSES_BIN="$bin/expenses" node --test --test-reporter=spec browser.test.mjs
