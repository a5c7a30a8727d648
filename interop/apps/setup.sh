#!/usr/bin/env bash
# Installs what the MCP Apps browser test needs: Chromium (Debian packages
# chromium and chromium-driver, through apt when missing and when we may),
# and playwright-core into interop/apps/node_modules with npm ci, exactly as
# pinned in package-lock.json (it drives the machine's Chromium; it
# downloads no browser). Quiet and idempotent.
#
# Without npm or Chromium the test skips; with MCPGEN_REQUIRE_BROWSER=1 (as
# test.sh sets it, for CI) a missing one is an error.
set -euo pipefail
cd "$(dirname "$0")"
. ../setup-lib.sh
require=${MCPGEN_REQUIRE_BROWSER:-}

if [ ! -x /usr/bin/chromium ]; then
  if can_apt_install; then
    echo "interop/apps/setup.sh: installing chromium with apt-get" >&2
    apt_install chromium chromium-driver
  elif [ -n "$require" ]; then
    echo "interop/apps/setup.sh: /usr/bin/chromium is missing and cannot be installed here (needs root and apt-get)" >&2
    exit 1
  else
    echo "interop/apps/setup.sh: /usr/bin/chromium not found; the browser test will skip" >&2
  fi
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "interop/apps/setup.sh: npm not found; the browser test will skip" >&2
  [ -z "$require" ] || exit 1
  exit 0
fi
npm_ci_pinned .
