#!/usr/bin/env bash
# The main job: generate the orders example from its spec, build it, and run
# it as an MCP server over stdio for a short scripted session (initialize,
# tools/list, three tools/call), printing each JSON-RPC response.
set -euo pipefail
cd "$(dirname "$0")"

echo "== mcpgen generate -f examples/orders/mcpgen.yaml"
go run ./cmd/mcpgen generate -f examples/orders/mcpgen.yaml
ls examples/orders/ordersmcp

echo "== go run ./examples/orders (stdio), scripted session"
{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  echo '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1042"}}}'
  echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"a-1","extra":1}}}'
  echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund_order","arguments":{"order_id":"A-1042","reason":"damaged","idempotency_key":"0b6f5d1e-9a43-4c1b-8f6e-2d9c7a1b3e55"}}}'
  echo 'this line is not JSON'
  echo '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}'
} | go run ./examples/orders
