#!/usr/bin/env bash
# The comparison of BENCHMARKS.md in one command: mcpgen's generated server
# against the official Go SDK, mcp-go and the floor (a minimal JSON-RPC
# responder every figure is also divided by), as separate processes over stdio and
# Streamable HTTP (cmd/compare: 5 rounds × 3 tools × 2 transports, N=20000,
# C=16), tools/list sizes, the generator's cost on 1,000 tools, then the
# in-process Go benchmarks (registration of 1,000 tools, allocations per call).
# Arguments go to cmd/compare, e.g. ./run.sh -rounds 1 -n 2000 for a quick look.
# Loopback only; takes about 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")"
go run ./cmd/compare "$@"
echo "## Go benchmarks (in process)"
echo
echo '```'
go test -run '^$' -bench . -benchmem -count 1 .
echo '```'
