#!/usr/bin/env bash
# Runs every check and test of the repository, as CI does. Needs only Go;
# modules come from the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...
(cd interop && go vet ./...)

echo "== generated code is current (mcpgen check)"
go build -o "${TMPDIR:-/tmp}/mcpgen-check" ./cmd/mcpgen
for specfile in examples/*/mcpgen.yaml bench/mcpgen.yaml; do
  "${TMPDIR:-/tmp}/mcpgen-check" check -f "$specfile"
done

echo "== real OpenAPI descriptions for the importer's tests (internal/openapi/testdata/npm, pinned by its package-lock.json)"
./internal/openapi/testdata/npm/setup.sh

echo "== go test -race (main module)"
go test -race -count=1 ./...

echo "== go test (interop module: the official Go and TypeScript SDK clients and the Inspector CLI against generated servers, in both eras; replicas behind nginx)"
./interop/setup.sh
./interop/scaleout/setup.sh # nginx, for the scale-out tests (three replicas behind it)
# The scale-out tests also run the alpha conformance suite through nginx
# when conformance/alpha (the 2026-07-28 suite) is installed.
if [ -f conformance/alpha/package.json ] && [ ! -d conformance/alpha/node_modules/@modelcontextprotocol/conformance ]; then
  (cd conformance/alpha && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
(cd interop && go test -race -count=1 ./...)

echo "== MCP Apps in a real browser: examples/expenses' view in a test host, headless Chromium (interop/apps)"
MCPGEN_REQUIRE_BROWSER=1 ./interop/apps/run.sh

echo "== bench module builds and its tests pass (the comparison itself: cd bench && ./run.sh)"
(cd bench && go vet ./... && go test -count=1 ./...)

echo "== the official MCP conformance suites against examples/conformance over HTTP: 0.1.16 (all server scenarios, legacy era) and 0.2.0-alpha.12 (--requirements 2026-07-28)"
./conformance/run.sh
