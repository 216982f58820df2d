#!/usr/bin/env bash
# End-to-end tests of the page in real Chromium (playwright-core driving
# /usr/bin/chromium; no browser is ever downloaded).
#
# Builds the page (into a private folder, not frontend/dist), the
# dev-tagged binary (its -devserver serves the page with the Go bindings to
# any browser) and the scripted fake LLM, starts a private Xvfb (the dev
# binary opens its real WebKit window there too), then runs frontend/e2e/*.e2e.ts with vitest. Each scenario gets
# a fresh VIS_HOME, workspace, fake LLM and app, killed when it ends.
#
# Which scenarios run: frontend/e2e/scenarios.ts (`run: true`); the others
# are listed as NOT RUN with the UI parts they still need.
#   scripts/e2e.sh                               the enabled scenarios
#   E2E_SCENARIOS=all scripts/e2e.sh             every scenario
#   E2E_SCENARIOS=settings,inspector scripts/e2e.sh
#   E2E_SKIP_BUILD=1 E2E_BIN=... E2E_FAKELLM=... E2E_DIST=... reuse builds
#   E2E_KEEP=1                                   keep each scenario's home/workspace
# Output: build/e2e/<scenario>/ (final.png or failure.png + .html, app.log,
# fakellm.log, console.log) and build/e2e/results.jsonl (E2E_OUT_DIR=DIR
# puts them elsewhere, e.g. for two runs at once in one checkout).
# Exit status: non-zero when a scenario that ran failed, or the run broke.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

log() { printf '\033[1;34m[e2e]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[e2e] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

chromium=${E2E_CHROMIUM:-/usr/bin/chromium}
for tool in Xvfb node go; do
  command -v "$tool" >/dev/null || die "$tool is not installed: run scripts/deps.sh test"
done
[ -x "$chromium" ] || die "$chromium is missing: run scripts/deps.sh test (Debian package chromium)"
[ -d frontend/node_modules/playwright-core ] || die "playwright-core is not installed: cd frontend && npm ci"

out=${E2E_OUT_DIR:-$root/build/e2e}
rm -rf "$out"
mkdir -p "$out"
printf '*\n' >"$out/.gitignore"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vis-e2e.XXXXXX")
pids=$tmp/pids
: >"$pids"
xvfb_pid=""
vitest_pid=""
cleanup() {
  if [ -n "$vitest_pid" ]; then
    kill -TERM -- "-$vitest_pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$vitest_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$vitest_pid" 2>/dev/null || true
  fi
  # Every process group a scenario started and did not see end (after a crash).
  local p
  for p in $(awk '$1 == "done" { gone[$2] = 1; next } { started[$1] = 1 } END { for (p in started) if (!(p in gone)) print p }' "$pids"); do
    kill -KILL -- "-$p" 2>/dev/null || true
  done
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- build ------------------------------------------------------------------
bin=${E2E_BIN:-$tmp/vis-dev}
dist=${E2E_DIST:-$tmp/dist}
fakellm=${E2E_FAKELLM:-$tmp/fakellm}
mcpserver=${E2E_MCPSERVER:-$tmp/mcptest-server}
if [ "${E2E_SKIP_BUILD:-0}" != 1 ]; then
  tags=dev
  if ! pkg-config --exists webkit2gtk-4.0 2>/dev/null && pkg-config --exists webkit2gtk-4.1 2>/dev/null; then
    tags=dev,webkit2_41
  fi
  start=$(date +%s)
  # Into a private folder: frontend/dist may be served by another run meanwhile.
  (cd frontend && npx vite build --outDir "$dist" --emptyOutDir >"$out/vite.log" 2>&1) ||
    die "building the page failed: $(tail -n 30 "$out/vite.log")"
  go build -tags "$tags" -o "$bin" . || die "go build -tags $tags failed"
  go build -o "$fakellm" ./backend/provider/providertest/fakellm || die "building fakellm failed"
  log "built page, dev binary and fakellm in $(( $(date +%s) - start ))s"
fi
[ -x "$mcpserver" ] || go build -o "$mcpserver" ./backend/mcp/mcptest/server || die "building the test MCP server failed"
[ -x "$bin" ] || die "$bin is missing"
[ -x "$fakellm" ] || die "$fakellm is missing"
[ -f "$dist/index.html" ] || die "$dist/index.html is missing (E2E_DIST)"

# --- display ------------------------------------------------------------------
display=""
for n in $(seq 260 400); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || die "no free X display number in :260-:400"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp -noreset >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 100); do
  [ -e "/tmp/.X11-unix/X${display#:}" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || die "Xvfb exited: $(cat "$out/xvfb.log")"
  sleep 0.1
done
[ -e "/tmp/.X11-unix/X${display#:}" ] || die "Xvfb on $display did not come up"

# --- run ----------------------------------------------------------------------
(cd frontend && npx tsc -p e2e) || die "the scenarios do not type-check (tsc -p frontend/e2e)"
log "Xvfb $display; scenarios: ${E2E_SCENARIOS:-as enabled in frontend/e2e/scenarios.ts}"
rc=0
# In its own process group, in the background: a signal to this script runs
# the trap at once (bash defers traps while a foreground child runs), and the
# trap ends vitest, its workers and what they started.
E2E_BIN=$bin E2E_FAKELLM=$fakellm E2E_MCPSERVER=$mcpserver E2E_DISPLAY=$display E2E_ASSETDIR=$dist \
  E2E_TMP=$tmp E2E_OUT=$out E2E_RESULTS=$tmp/results.jsonl E2E_PIDS=$pids E2E_CHROMIUM=$chromium \
  setsid bash -c 'cd frontend && exec npx vitest run --config e2e/vitest.config.ts' &
vitest_pid=$!
wait "$vitest_pid" || rc=$?
vitest_pid=""

# --- summary --------------------------------------------------------------------
results=$tmp/results.jsonl
[ -s "$results" ] || die "no scenario reported a result (vitest exit $rc); see the output above"
cp "$results" "$out/results.jsonl"
node - "$results" <<'EOF' || rc=1
const lines = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => JSON.parse(l))
const n = { pass: 0, fail: 0, 'not-run': 0 }
const label = { pass: '\x1b[1;32mPASS   \x1b[0m', fail: '\x1b[1;31mFAIL   \x1b[0m', 'not-run': '\x1b[1;33mNOT RUN\x1b[0m' }
console.error('\n[e2e] scenarios:')
for (const r of lines) {
  n[r.status]++
  const t = r.seconds != null ? ` (${r.seconds.toFixed(1)}s)` : ''
  console.error(`  ${label[r.status]} ${r.name}${t}${r.reason ? ': ' + r.reason : ''}`)
}
console.error(`[e2e] summary: passed ${n.pass}, failed ${n.fail}, not run ${n['not-run']}`)
process.exit(n.fail ? 1 : 0)
EOF
if [ "$rc" != 0 ]; then
  printf '\033[1;31m[e2e] FAILED\033[0m: screenshots and logs in %s\n' "$out" >&2
  exit 1
fi
log "ok; screenshots and logs in $out"
