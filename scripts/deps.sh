#!/usr/bin/env bash
# Installs what building, running and testing Vis Desktop needs, skipping what is present.
#   scripts/deps.sh build   - Go/Node checks, GTK/WebKit dev packages, wails CLI, npm packages
#   scripts/deps.sh test    - build deps plus Xvfb, ImageMagick, xdotool, Chromium, python3, black,
#                             clojure + libnrepl-clojure (a real nREPL server)
# Safe to run repeatedly; each step checks before it installs. Works as root (CI)
# and as a user with sudo; prints what to install by hand otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.15.0
GO_MIN=1.26
NODE_MIN=20.19
mode=${1:-build}
case "$mode" in build | test) ;; *) echo "usage: $0 build|test" >&2; exit 2 ;; esac

log() { printf '\033[1;34m[deps]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[deps]\033[0m %s\n' "$*" >&2; exit 2; }

# version_ge A B: A >= B for dotted versions.
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

command -v go >/dev/null || die "Go is not installed: install Go ${GO_MIN} or newer from https://go.dev/dl/ and re-run."
gov=$(go env GOVERSION | sed 's/^go//')
version_ge "$gov" "$GO_MIN" || die "Go $gov is too old: install Go ${GO_MIN} or newer from https://go.dev/dl/."
command -v node >/dev/null && command -v npm >/dev/null ||
  die "Node.js is not installed: install Node ${NODE_MIN}+ (with npm) from https://nodejs.org/ and re-run."
nodev=$(node --version | sed 's/^v//')
version_ge "$nodev" "$NODE_MIN" || die "Node $nodev is too old for Vite 8: install Node ${NODE_MIN} or newer."

SUDO=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=(sudo); fi
fi

need_apt=()
want_pkg() { # want_pkg <dpkg-name>...
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$p")
  done
}

if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
  want_pkg pkg-config gcc libc6-dev libgtk-3-dev fonts-dejavu-core
  if apt-cache show libwebkit2gtk-4.0-dev >/dev/null 2>&1 || dpkg-query -W libwebkit2gtk-4.0-dev >/dev/null 2>&1; then
    want_pkg libwebkit2gtk-4.0-dev
  else
    want_pkg libwebkit2gtk-4.1-dev # newer Ubuntu/Debian: scripts/build.sh adds -tags webkit2_41
  fi
  if [ "$mode" = test ]; then
    want_pkg xvfb xauth imagemagick xdotool chromium python3 python3-pytest black
    want_pkg python3-gi gir1.2-gtk-3.0 # scripts/dragsrc.py: the smoke test drags a file in from another app
    want_pkg dbus-daemon # a private session bus for the desktop-notification tests (app/notify/notifytest)
    want_pkg desktop-file-utils # scripts/package-test.sh validates the packaged launcher
    want_pkg clojure libnrepl-clojure leiningen # a real nREPL server for backend/packs/clojure/nrepl tests; lein for its real-projects suite (offline on Debian's Maven repo)
  fi
  if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
      die "missing packages and no sudo: as root run  apt-get install ${need_apt[*]}"
    fi
    log "apt-get install ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  fi
else
  log "not a Debian/Ubuntu machine: install GTK3 and WebKit2GTK dev packages (and Xvfb, ImageMagick, xdotool for tests) yourself"
fi

GOBIN=$(go env GOPATH)/bin
if ! "$GOBIN/wails" version 2>/dev/null | grep -q "${WAILS_VERSION}"; then
  log "go install wails CLI ${WAILS_VERSION}"
  go install "github.com/wailsapp/wails/v2/cmd/wails@${WAILS_VERSION}"
fi

if [ -f frontend/package.json ]; then
  if [ ! -f frontend/node_modules/.package-lock.json ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
    log "npm ci (frontend)"
    (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
if [ "$mode" = test ] && [ -f tools/clojure/package.json ]; then
  # A real Clojure formatter (Standard Clojure Style) for the Clojure pack's format_code tests.
  if [ ! -f tools/clojure/node_modules/.package-lock.json ] || [ tools/clojure/package-lock.json -nt tools/clojure/node_modules/.package-lock.json ]; then
    log "npm ci (tools/clojure)"
    (cd tools/clojure && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
[ "$mode" = test ] && { [ ! -f tools/jsrepl/node_modules/.package-lock.json ] || [ tools/jsrepl/package-lock.json -nt tools/jsrepl/node_modules/.package-lock.json ]; } && log "npm ci (tools/jsrepl: tsx for the JS REPL's TypeScript tests)" && (cd tools/jsrepl && npm ci --no-audit --no-fund --loglevel=error)
if [ "$mode" = test ] && [ -f tools/js-fmt-lint/package.json ] && { [ ! -f tools/js-fmt-lint/node_modules/.package-lock.json ] || [ tools/js-fmt-lint/package-lock.json -nt tools/js-fmt-lint/node_modules/.package-lock.json ]; }; then log "npm ci (tools/js-fmt-lint: biome, eslint, oxfmt, prettier for the JS pack's format/lint tests)"; (cd tools/js-fmt-lint && npm ci --no-audit --no-fund --loglevel=error); fi
[ "$mode" = test ] && { [ ! -f tools/vitest/node_modules/.package-lock.json ] || [ tools/vitest/package-lock.json -nt tools/vitest/node_modules/.package-lock.json ]; } && log "npm ci (tools/vitest: vitest 4 for the JS pack's run_tests tests)" && (cd tools/vitest && npm ci --no-audit --no-fund --loglevel=error)
if [ "$mode" = test ] && [ -f tools/python/package.json ] && { [ ! -f tools/python/node_modules/.package-lock.json ] || [ tools/python/package-lock.json -nt tools/python/node_modules/.package-lock.json ]; }; then log "npm ci (tools/python: ruff as WebAssembly)"; (cd tools/python && npm ci --no-audit --no-fund --loglevel=error); fi
log "dependencies ready ($mode)"
