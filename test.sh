#!/usr/bin/env bash
# Runs every check and test of the repository, as CI does (.ci/run runs
# this). Needs Go (go.mod's version; modules come from the Go module proxy)
# and npm (pinned Node packages: the TypeScript SDK, the Inspector, the
# conformance suites, OpenAPI descriptions, Playwright). On Debian as root
# it also installs what is missing with apt-get: nginx-light and
# redis-server (the scale-out and Redis tests), Chromium (the MCP Apps
# browser test); without them those tests skip, except under CI.
#
# Each stage prints its name when it starts and its time when it ends; the
# run ends on one summary line. The go test runs have explicit timeouts
# sized for a loaded 2-core machine, and the tests that build whole modules
# run once, in the builds stage, without -race.
set -euo pipefail
cd "$(dirname "$0")"

# stage NAME TEXT: starts a stage (and ends the one before, printing its
# time). The run ends on one summary line: every stage passed (and what the
# conformance suites did not score), or the stage that failed and those
# that passed before it.
passed=()
times=()
current=""
started=$SECONDS
end_stage() {
  [ -n "$current" ] || return 0
  local took=$((SECONDS - started))
  times+=("$current $(printf '%dm%02ds' $((took / 60)) $((took % 60)))")
  echo "-- $current: $(printf '%dm%02ds' $((took / 60)) $((took % 60)))"
}
stage() {
  end_stage
  [ -z "$current" ] || passed+=("$current")
  current=$1
  started=$SECONDS
  echo "== $1: $2 ($(date -u +%H:%M:%S))"
}
logs=$(mktemp -d)
# disk_report: free space where the run writes (the checkout, the temporary
# directory, Go's build and module caches). A run from a clean clone took
# about 8 GB on a fresh machine (Go's build cache with and without -race,
# the test binaries, npm packages, apt's); a build that fails with "no space
# left on device" is the machine, not the code, and this line tells which.
disk_report() {
  local dirs=(. "${TMPDIR:-/tmp}")
  command -v go >/dev/null 2>&1 && dirs+=("$(go env GOCACHE)" "$(go env GOMODCACHE)")
  echo "test.sh: free space: $(for d in "${dirs[@]}"; do mkdir -p "$d" 2>/dev/null; df -Ph "$d" | awk -v d="$d" 'NR==2 {printf "%s %s free of %s; ", d, $4, $2}'; done | sed 's/; $//')"
}
disk_report
finish() {
  local rc=$?
  end_stage
  [ "$rc" -eq 0 ] || disk_report
  echo
  echo "test.sh: stage times: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g'); total $((SECONDS / 60))m$(printf '%02d' $((SECONDS % 60)))s"
  if [ "$rc" -eq 0 ]; then
    passed+=("$current")
    echo "test.sh: PASSED, all ${#passed[@]} stages (${passed[*]}); ${conformance_summary:-conformance not run}"
  else
    echo "test.sh: FAILED in stage '$current' (exit $rc)${passed:+; passed before it: ${passed[*]}}"
  fi
  rm -rf "$logs"
}
trap finish EXIT

# Timeouts of the go test runs: generous, for a busy shared 2-core machine
# (a test that needs more is a hung test, not a slow one).
go_test_timeout=30m

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

stage setup "install what the tests need: nginx, redis-server (apt-get), OpenAPI descriptions (npm)"
# nginx and redis-server, for runtime/redisstore's tests and the interop stage's scale-out
# ones; with MCPGEN_REQUIRE_REDIS set, those fail instead of skipping
# without redis-server.
./interop/scaleout/setup.sh
export MCPGEN_REQUIRE_REDIS=1

# Real OpenAPI descriptions for the importer's tests (internal/openapi/testdata/npm,
# pinned by its package-lock.json).
./internal/openapi/testdata/npm/setup.sh

stage test "go test -race (main module; the tests that build modules skip, see the builds stage)"
go test -race -count=1 -timeout "$go_test_timeout" ./...

# The tests that build generated or scaffolded modules with the go command
# (named ...Builds; internal/testenv.BuildsModules): once, without -race,
# which adds nothing to a child process's build.
stage builds "tests that build whole modules (go test -run 'Builds\$', without -race)"
build_pkgs=$(grep -rl --include='*_test.go' 'testenv.BuildsModules(t)' . | grep -v node_modules | xargs -n1 dirname | sort -u)
go test -count=1 -timeout "$go_test_timeout" -run 'Builds$' $build_pkgs

stage interop "go test (interop module: the official Go and TypeScript SDK clients, the Inspector CLI, Claude Code, Gemini CLI and Codex against generated servers, in both eras; replicas behind nginx)"
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
# Claude Code, Gemini CLI and Codex (interop/clients-npm, installed by setup.sh):
# with MCPGEN_REQUIRE_CLIENTS set, a missing CLI or node fails their tests
# instead of skipping them.
(cd interop && MCPGEN_REQUIRE_CLIENTS=1 go test -race -count=1 -timeout "$go_test_timeout" ./...)

stage apps "MCP Apps in a real browser: examples/expenses' view in a test host, headless Chromium (interop/apps)"
MCPGEN_REQUIRE_BROWSER=1 ./interop/apps/run.sh

stage bench "bench module builds and its tests pass (the comparison itself: cd bench && ./run.sh)"
(cd bench && go vet ./... && go test -count=1 -timeout "$go_test_timeout" ./...)

stage release "GoReleaser: the release config is valid, and a snapshot build of this machine's target runs and reports its version (goreleaser pinned in tools/go.mod; built once, then cached)"
goreleaser() { go tool -modfile=tools/go.mod goreleaser "$@"; }
goreleaser check
goreleaser build --snapshot --clean --single-target --output "$logs/mcpgen-snapshot"
"$logs/mcpgen-snapshot" version | grep -E '^mcpgen v?[0-9]+\.[0-9]+\.[0-9]+' ||
  { echo "the snapshot build does not report a release version"; exit 1; }
rm -rf dist

stage conformance "the official MCP conformance suites against examples/conformance over HTTP: 0.1.16 (all server scenarios, legacy era) and 0.2.0-alpha.12 (--requirements 2026-07-28)"
./conformance/run.sh | tee "$logs/conformance.log"
conformance_summary=$(tail -1 "$logs/conformance.log")
