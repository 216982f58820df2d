#!/usr/bin/env bash
# Installs what building, running and testing Vis Desktop needs, skipping what is present.
#   scripts/deps.sh build   - Go toolchain check, GTK/WebKit dev packages, wails CLI, npm packages
#   scripts/deps.sh test    - build deps plus Xvfb, ImageMagick, xdotool, Chromium (UI tests)
# Safe to run repeatedly; each step checks before it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.15.0
mode=${1:-build}

log() { printf '\033[1;34m[deps]\033[0m %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; fi
fi

need_apt=()
want_pkg() { # want_pkg <dpkg-name>...
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
  done
}

if ! command -v go >/dev/null; then
  echo "Go is not installed: install Go 1.26 from https://go.dev/dl/ and re-run." >&2
  exit 2
fi

if command -v dpkg >/dev/null; then
  want_pkg pkg-config gcc libgtk-3-dev
  if apt-cache show libwebkit2gtk-4.0-dev >/dev/null 2>&1; then
    want_pkg libwebkit2gtk-4.0-dev
  else
    want_pkg libwebkit2gtk-4.1-dev
  fi
  if [ "$mode" = test ]; then
    want_pkg xvfb xauth imagemagick xdotool chromium python3 black
  fi
  if [ ${#need_apt[@]} -gt 0 ]; then
    log "apt-get install ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  fi
else
  log "not a Debian/Ubuntu machine: install GTK3 and WebKit2GTK dev packages yourself"
fi

GOBIN=$(go env GOPATH)/bin
if ! "$GOBIN/wails" version 2>/dev/null | grep -q "${WAILS_VERSION}"; then
  log "go install wails CLI ${WAILS_VERSION}"
  go install "github.com/wailsapp/wails/v2/cmd/wails@${WAILS_VERSION}"
fi

if [ -f frontend/package.json ]; then
  if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
    log "npm ci (frontend)"
    (cd frontend && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
  fi
fi
log "dependencies ready ($mode)"
