#!/usr/bin/env bash
# Installs what the scale-out tests (interop/scaleout) and the Redis store's
# tests (runtime/redisstore) run when it is missing: Debian's nginx-light
# and redis-server, with apt-get, as root. Idempotent and quiet. Where it
# cannot install (no apt-get, not root) it says so; the tests then skip,
# except under CI (CI set), where this is an error.
set -euo pipefail
. "$(dirname "$0")/../setup-lib.sh"
missing=()
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  missing+=(nginx-light)
fi
if ! command -v redis-server >/dev/null 2>&1; then
  missing+=(redis-server)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if can_apt_install; then
  apt_install "${missing[@]}"
  # The Debian packages may start a system nginx on port 80 and a system
  # redis-server on 6379; the tests start their own and need neither.
  for service in nginx redis-server; do
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$service" 2>/dev/null; then
      systemctl disable --now "$service" >/dev/null 2>&1 || true
    elif [ -x "/etc/init.d/$service" ]; then
      "/etc/init.d/$service" stop >/dev/null 2>&1 || true
    fi
  done
  exit 0
fi
echo "interop/scaleout/setup.sh: ${missing[*]} not found and cannot be installed here (needs apt-get as root: apt-get install ${missing[*]}); the tests that need them will skip" >&2
[ -z "${CI:-}" ] || exit 1
