#!/usr/bin/env bash
# The main job: generate the orders example from its spec, build it, and run
# it as an MCP server over stdio for a short scripted session, printing each
# exchange in order: the request (→) and the server's response (←),
# pretty-printed.
set -euo pipefail
cd "$(dirname "$0")"

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# A first build compiles mcpgen's dependencies too: minutes on a small
# machine, silent without -v. Say so, and list the packages as they build.
echo "== building mcpgen and examples/orders (a first build also compiles their dependencies; later runs take seconds)"
go build -v -o "$bin/mcpgen" ./cmd/mcpgen 2>&1 | sed -u 's/^/   compiling /'
go build -v -o "$bin/orders" ./examples/orders 2>&1 | sed -u 's/^/   compiling /'

echo
echo "== mcpgen generate -f examples/orders/mcpgen.yaml"
"$bin/mcpgen" generate -f examples/orders/mcpgen.yaml
ls examples/orders/ordersmcp

# generate rewrote nothing when the committed code is current; rebuild in
# case it did.
go build -o "$bin/orders" ./examples/orders

echo
echo "== examples/orders over stdio: a scripted session, request → response"
go run ./internal/demo "$bin/orders" <<'SESSION'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1042"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"a-1","extra":1}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund_order","arguments":{"order_id":"A-1042","reason":"damaged","idempotency_key":"0b6f5d1e-9a43-4c1b-8f6e-2d9c7a1b3e55"}}}
this line is not JSON
{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}
SESSION
