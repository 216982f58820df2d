#!/usr/bin/env bash
# Builds both binaries:
#   build/bin/vis-desktop  the window (Wails, cgo, WebKitGTK); also runs the CLI commands
#   build/bin/vis          the headless CLI (cmd/vis, pure Go, CGO_ENABLED=0): starts in
#                          milliseconds, and opens the window by exec'ing vis-desktop
#   scripts/build.sh             install what is missing (deps.sh build), then build both
#   scripts/build.sh --headless  only build/bin/vis (needs nothing but Go)
# Environment: VIS_BUILD_FLAGS adds flags to `wails build` (e.g. -debug).
# Never runs `go mod tidy` (-m) and never rewrites go.mod (-nosyncgomod).
# Steps: deps, Go bindings (frontend/wailsjs), the page (frontend/dist), the desktop
# binary, the headless binary.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)

headless() {
  local start
  start=$(date +%s)
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${version}" -o build/bin/vis ./cmd/vis
  printf '\033[1;34m[build]\033[0m build/bin/vis (%s, headless) in %ss\n' "$version" "$(( $(date +%s) - start ))" >&2
}

case "${1:-}" in
  --headless) headless; exit 0 ;;
  "") ;;
  *) echo "usage: scripts/build.sh [--headless]" >&2; exit 2 ;;
esac

scripts/deps.sh build
GOBIN=$(go env GOPATH)/bin

tags=()
if ! pkg-config --exists webkit2gtk-4.0 2>/dev/null && pkg-config --exists webkit2gtk-4.1 2>/dev/null; then
  tags=(-tags webkit2_41)
fi

start=$(date +%s)
# Bindings first (frontend/wailsjs), then the page, then the binary. Building
# the page here rather than inside `wails build` keeps wails from writing
# frontend/package.json.md5 and from running a second npm install.
"$GOBIN/wails" generate module "${tags[@]}"
(cd frontend && npm run --silent build)
# shellcheck disable=SC2086
"$GOBIN/wails" build -s -skipbindings -m -nosyncgomod -nocolour -v 1 "${tags[@]}" \
  -ldflags "-X main.version=${version} -X github.com/visdesktop/vis/app/cli.Version=${version}" ${VIS_BUILD_FLAGS:-}
printf '\033[1;34m[build]\033[0m build/bin/vis-desktop (%s) in %ss\n' "$version" "$(( $(date +%s) - start ))" >&2
headless
