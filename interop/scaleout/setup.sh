#!/usr/bin/env bash
# Installs nginx for the scale-out tests (interop/scaleout) when it is
# missing: Debian's nginx-light, with apt-get, as root. Idempotent and
# quiet. Where it cannot install (no apt-get, not root) it says so; the
# tests then skip, except under CI (CI set), where this is an error.
set -euo pipefail
. "$(dirname "$0")/../setup-lib.sh"
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if can_apt_install; then
  apt_install nginx-light
  # The Debian package may start a system nginx on port 80 (the one whose
  # pid is in /run/nginx.pid); the tests start their own and need none.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then
    systemctl disable --now nginx >/dev/null 2>&1 || true
  elif [ -s /run/nginx.pid ] && [ -x /etc/init.d/nginx ]; then
    /etc/init.d/nginx stop >/dev/null 2>&1 || true
  fi
  exit 0
fi
echo "interop/scaleout/setup.sh: nginx not found and cannot be installed here (needs apt-get as root: apt-get install nginx-light); the scale-out tests will skip" >&2
[ -z "${CI:-}" ] || exit 1
