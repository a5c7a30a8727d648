# Shell functions shared by the interop setup scripts (interop/setup.sh,
# interop/scaleout/setup.sh, interop/apps/setup.sh).
# Source it; it sets no shell options of its own.

# npm_ci_pinned DIR: installs DIR/node_modules with npm ci exactly as
# DIR/package-lock.json pins it. Quiet and idempotent: a stamp holding the
# lock file's hash makes a second run with the same lock file do nothing.
npm_ci_pinned() {
  local dir=$1 stamp want
  stamp="$dir/node_modules/.mcpgen-lock.sha256"
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  mkdir -p "$dir/node_modules"
  echo "$want" >"$stamp"
}

# can_apt_install: true where apt_install may run (apt-get, as root).
can_apt_install() {
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]
}

# apt_install PKG...: installs Debian packages quietly, refreshing the
# package lists once if the first attempt fails (a fresh machine has none).
# It waits up to 10 minutes for dpkg's lock: on a busy machine another
# apt-get (an unattended upgrade, a second checkout's setup) may hold it.
apt_install() {
  local apt=(apt-get -o DPkg::Lock::Timeout=600 -y -qq)
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install "$@" >/dev/null ||
    { "${apt[@]}" update >/dev/null && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install "$@" >/dev/null; }
}
