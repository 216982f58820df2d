#!/usr/bin/env bash
# Window benchmarks; writes the "## Window" section of docs/PERFORMANCE.md
# (replacing an older one). Nothing here asserts a time: it measures.
#
#   scripts/bench-ui.sh                    build (scripts/build.sh), then measure
#   BENCH_SKIP_BUILD=1 scripts/bench-ui.sh measure the existing build/bin/vis-desktop
#   BENCH_BIN=PATH                         measure that production binary (no build)
#   BENCH_RUNS=5                           launches measured per case
#   BENCH_NO_DOC=1                         print the section, leave the doc alone
#   BENCH_PAGE_ONLY=1                      only the Chromium figures (implies BENCH_NO_DOC)
#   BENCH_START_ONLY=1                     only first start and restart (implies BENCH_NO_DOC)
#   BENCH_APP_ENV="K=V ..."                extra environment for the measured window (e.g.
#                                          VIS_NO_PREFETCH=1 for the figure without read-ahead)
#
# What and how:
#  1. Sessions are made with the production binary's own CLI (`vis run`)
#     against the scripted LLM (fakellm): a 2,000-iteration session is 20
#     turns of 100 iterations (99 small programs, each printing 5 lines, then
#     an answer), run with `vis run --continue`; a small session is one turn
#     of 2 iterations. Each case gets its own VIS_HOME holding only what it
#     needs, the same workspace folder.
#  2. Launch to first painted transcript (production build/bin/vis-desktop under
#     Xvfb, WebKitGTK): the clock starts when the process is spawned; the
#     window is screenshotted (xdotool + ImageMagick import) back to back
#     until it has been still for 2 s; the time is that of the first
#     screenshot that matches the final one (normalised RMSE < 0.01), i.e.
#     the transcript painted as it stays. Resolution: one screenshot
#     interval (printed).
#     First start: a new user's first launch: empty VIS_HOME, a new HOME
#     (no WebKit or fontconfig caches), and the page cache of the binary,
#     every shared library it maps and WebKit's helper processes dropped
#     (posix_fadvise DONTNEED: pages another process maps stay cached, so
#     it is run while no other WebKit window is open), the workspace named
#     on the command line; restart: the same launch again at once. Both
#     also record when the window was mapped (xdotool sees it visible).
#  3. Peak RSS: VmHWM of the vis process (Go engine + GTK UI process) and of
#     each WebKit child process, read 3 s after the window is still: idle
#     (no session) and with the 2,000-iteration session open (the app opens
#     the workspace's latest session on start).
#  4. In Chromium against the dev-tagged binary (frontend/e2e/window.uibench.ts):
#     time from a click on the 2,000-iteration session in the sidebar to the
#     frame after it shows; events per second absorbed while streaming, with
#     the lowest frame count of any 1-second window of the stream.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

log() { printf '\033[1;34m[bench-ui]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[bench-ui] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

runs=${BENCH_RUNS:-5}
out=$root/build/bench-ui
bin=${BENCH_BIN:-$root/build/bin/vis-desktop}
rm -rf "$out"
mkdir -p "$out"
printf '*\n' >"$out/.gitignore"
for tool in Xvfb xdotool import compare identify convert node go python3; do
  command -v "$tool" >/dev/null || die "$tool is not installed: run scripts/deps.sh test"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vis-bench-ui.XXXXXX")
pids=$tmp/pids
: >"$pids"
xvfb_pid=""
llm_pid=""
app_pid=""
stop_app() {
  [ -n "$app_pid" ] || return 0
  kill -TERM -- "-$app_pid" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL -- "-$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  echo "done $app_pid" >>"$pids"
  app_pid=""
}
stop_llm() {
  [ -n "$llm_pid" ] || return 0
  kill "$llm_pid" 2>/dev/null || true
  wait "$llm_pid" 2>/dev/null || true
  llm_pid=""
}
cleanup() {
  stop_app
  stop_llm
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
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] && [ -z "${BENCH_BIN:-}" ]; then
  scripts/build.sh
fi
[ -x "$bin" ] || die "$bin is missing (run scripts/build.sh)"
tags=dev
if ! pkg-config --exists webkit2gtk-4.0 2>/dev/null && pkg-config --exists webkit2gtk-4.1 2>/dev/null; then tags=dev,webkit2_41; fi
dist=$tmp/dist
if [ "${BENCH_START_ONLY:-0}" != 1 ]; then
  (cd frontend && npx vite build --outDir "$dist" --emptyOutDir >"$out/vite.log" 2>&1) || die "building the page failed: $(tail -n 20 "$out/vite.log")"
  go build -tags "$tags" -o "$tmp/vis-dev" .
  go build -o "$tmp/fakellm" ./backend/provider/providertest/fakellm
fi

# --- display ------------------------------------------------------------------
display=""
for n in $(seq 401 520); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || die "no free X display number"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp -noreset >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
export DISPLAY=$display
for _ in $(seq 1 100); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
xdotool getdisplaygeometry >/dev/null 2>&1 || die "Xvfb did not come up"

# --- sessions -------------------------------------------------------------------
ws=$tmp/project
mkdir -p "$ws"
printf '# Demo\n\nA demo project for the window benchmarks.\n' >"$ws/README.md"
printf 'print("hello")\n' >"$ws/main.py"

# start_llm SCRIPT [-repeat]: starts fakellm, sets base_url.
start_llm() {
  stop_llm
  : >"$tmp/llm.log" # now: the redirection below happens in the child, later
  "$tmp/fakellm" -script "$1" -addr 127.0.0.1:0 ${2:-} >>"$tmp/llm.log" 2>&1 &
  llm_pid=$!
  base_url=""
  for _ in $(seq 1 100); do
    base_url=$(awk '/^listening /{print $2; exit}' "$tmp/llm.log")
    [ -n "$base_url" ] && return 0
    sleep 0.1
  done
  die "fakellm did not start: $(cat "$tmp/llm.log")"
}
cli() { # cli HOME ARGS...: the production binary's CLI against the fake.
  local home=$1; shift
  env VIS_HOME="$home" VIS_BASE_URL="$base_url" VIS_MODEL=fake-model VIS_API_KEY=bench "$bin" "$@"
}

if [ "${BENCH_START_ONLY:-0}" != 1 ]; then
node -e '
const code = "for i in range(5):\n    print(\"step\", i, \"of a program that prints a few lines of output\")\nx = 1";
const r = [];
for (let i = 0; i < 99; i++) r.push({ code, usage: { input_tokens: 2000 + 10 * i, output_tokens: 30 } });
r.push({ content: ["Done with this step: **all** programs ran."], usage: { input_tokens: 3000, output_tokens: 12 } });
require("fs").writeFileSync(process.argv[1], JSON.stringify(r));
' "$tmp/big.json"
cat >"$tmp/small.json" <<'EOF'
[
  {"reasoning": ["Reading the README first."], "code": "print(cat('README.md')['text'])", "usage": {"input_tokens": 900, "output_tokens": 40}},
  {"content": ["The project has **two** files: `README.md` and `main.py`, which prints hello."], "usage": {"input_tokens": 1150, "output_tokens": 31}}
]
EOF

home_big=$tmp/home-big
home_small=$tmp/home-small
home_both=$tmp/home-both
home_idle=$tmp/home-idle
mkdir -p "$home_big" "$home_small" "$home_idle"
log "making the 2,000-iteration session (20 turns x 100 iterations through vis run)"
start_llm "$tmp/big.json" -repeat
made=$(date +%s%N)
for t in $(seq 1 20); do
  cont=()
  [ "$t" -gt 1 ] && cont=(--continue)
  cli "$home_big" run --workspace "$ws" "${cont[@]}" "Big session turn $t: run the next hundred steps" >/dev/null ||
    die "vis run (big session turn $t) failed"
done
big_s=$(( ($(date +%s%N) - made) / 1000000 ))
log "made in ${big_s} ms"
start_llm "$tmp/small.json" -repeat
cli "$home_small" run --workspace "$ws" "Small session: what is in this project?" >/dev/null || die "vis run (small session) failed"
cp -r "$home_big" "$home_both"
cli "$home_both" run --workspace "$ws" "Small session: what is in this project?" >/dev/null || die "vis run (small session) failed"
stop_llm
sid() { # sid HOME PREFIX: id of the session whose title starts with PREFIX
  env VIS_HOME="$1" "$bin" sessions --json | node -e '
const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
const s = d.find((s) => (s.title || "").startsWith(process.argv[1]));
if (!s) { console.error("no session titled " + process.argv[1] + ": " + JSON.stringify(d)); process.exit(1) }
process.stdout.write(s.id)' "$2"
}
big_id=$(sid "$home_both" "Big session")
small_id=$(sid "$home_both" "Small session")
iters=$(env VIS_HOME="$home_big" "$bin" show --json "$big_id" | node -e '
const d = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(String(d.turns.reduce((n, t) => n + (t.iterations || []).length, 0)))')
[ "$iters" = 2000 ] || die "the big session has $iters iterations, want 2000"
db_kb=$(du -sk "$home_big/desktop" | cut -f1)
fi

# --- launch to painted, and peak RSS (production binary, WebKitGTK) ---------------
# tree PID: PID and its descendants.
tree() {
  local all=("$1") i=0 kids
  while [ $i -lt ${#all[@]} ]; do
    kids=$(ps -o pid= --ppid "${all[$i]}" 2>/dev/null || true)
    for k in $kids; do all+=("$k"); done
    i=$((i + 1))
  done
  echo "${all[@]}"
}
hwm() { awk '/^VmHWM:/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# rmse A B: normalised RMSE between two images.
rmse() { { compare -metric RMSE "$1" "$2" null: 2>&1 || true; } | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p'; }
# evict: drops the page cache of the binary, the shared libraries it maps
# and WebKit's helper processes (a first start after boot).
evict() {
  local libs
  libs=$(ldd "$bin" | awk '/=> \// {print $3}')
  python3 -c '
import os, sys
for p in sys.argv[1:]:
    try:
        fd = os.open(os.path.realpath(p), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    except OSError:
        pass' "$bin" $libs /usr/lib/*/webkit2gtk-4.*/* /usr/lib/*/webkit2gtk-4.*/injected-bundle/*
}
# launch HOME LABEL [USERHOME]: one launch (with USERHOME as HOME);
# appends "ms interval_ms vis_kb webkit_kb total_kb mapped_ms" to $out/LABEL.txt
launch() {
  local home=$1 label=$2 userhome=${3:-$HOME} t0 now wid="" i=0 last="" ms="" d checked=0 j mapped=""
  local dir=$tmp/frames-$label
  local -a at=()
  rm -rf "$dir"; mkdir -p "$dir"
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  env HOME="$userhome" VIS_HOME="$home" VIS_BASE_URL=http://127.0.0.1:9/v1 VIS_MODEL=fake-model VIS_API_KEY=bench NO_AT_BRIDGE=1 \
    ${BENCH_APP_ENV:-} setsid "$bin" "$ws" >>"$out/app-$label.log" 2>&1 &
  app_pid=$!
  echo "$app_pid" >>"$pids"
  # Screenshots back to back (uncompressed MIFF: ~0.1 s each); once a second
  # the newest is compared with the one from 2 s before; the window is still
  # when they match and it is not one flat colour.
  while :; do
    now=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ "$now" -lt 90000 ] || die "$label: the window did not settle within 90 s"
    kill -0 "$app_pid" 2>/dev/null || die "$label: the app exited: $(tail -n 20 "$out/app-$label.log")"
    if [ -z "$wid" ]; then
      wid=$(xdotool search --onlyvisible --name '^Vis$' 2>/dev/null | head -n 1 || true)
      [ -n "$wid" ] || { sleep 0.02; continue; }
      mapped=$(( ($(date +%s%N) - t0) / 1000000 ))
    fi
    import -window "$wid" "miff:$dir/$((i + 1)).miff" 2>/dev/null || continue
    i=$((i + 1))
    now=$(( ($(date +%s%N) - t0) / 1000000 ))
    at[$i]=$now
    echo "$i $now" >>"$dir/times"
    last=$i
    [ $((now - checked)) -ge 1000 ] || continue
    checked=$now
    j=$i
    while [ "$j" -gt 1 ] && [ $((now - at[j])) -lt 2000 ]; do j=$((j - 1)); done
    [ $((now - at[j])) -ge 2000 ] || continue
    d=$(rmse "$dir/$j.miff" "$dir/$i.miff")
    if [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d < 0.002) }' &&
      [ "$(identify -format '%k' "$dir/$i.miff" 2>/dev/null || echo 0)" -gt 64 ]; then
      break
    fi
  done
  sleep 3
  local vis_kb webkit_kb=0 total=0 p k comm
  vis_kb=$(hwm "$app_pid")
  for p in $(tree "$app_pid"); do
    k=$(hwm "$p"); total=$((total + k))
    comm=$(cat "/proc/$p/comm" 2>/dev/null || true)
    case "$comm" in WebKitWebProces*) webkit_kb=$((webkit_kb + k)) ;; esac
  done
  # The first frame that looks like the last one.
  local intervals=() prev=""
  while read -r n t; do
    [ -n "$prev" ] && intervals+=($((t - prev)))
    prev=$t
    if [ -z "$ms" ]; then
      d=$(rmse "$dir/$n.miff" "$dir/$last.miff")
      if [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d < 0.01) }'; then ms=$t; convert "$dir/$n.miff" "$out/$label-first.png"; fi
    fi
  done <"$dir/times"
  convert "$dir/$last.miff" "$out/$label-final.png"
  rm -rf "$dir"
  local iv
  iv=$(printf '%s\n' "${intervals[@]:-0}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  stop_app
  echo "$ms $iv $vis_kb $webkit_kb $total $mapped" >>"$out/$label.txt"
  log "$label: mapped at ${mapped} ms, painted at ${ms} ms (screenshot every ~${iv} ms); peak RSS vis ${vis_kb} kB, WebKit ${webkit_kb} kB, tree ${total} kB"
}

# first_start N: N pairs of a first start and a restart.
first_start() {
  local k h
  for k in $(seq 1 "$1"); do
    h=$tmp/first-$k
    mkdir -p "$h/vis" "$h/home"
    evict
    launch "$h/vis" first "$h/home"
    launch "$h/vis" restart "$h/home"
  done
}
if [ "${BENCH_START_ONLY:-0}" = 1 ]; then
  first_start "$runs"
  node -e '
const fs = require("fs"), out = process.argv[1]
const rows = (f) => fs.readFileSync(`${out}/${f}.txt`, "utf8").trim().split("\n").map((l) => l.split(" ").map(Number))
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2 }
for (const l of ["first", "restart"]) {
  const r = rows(l)
  console.log(`${l}: mapped ${med(r.map((x) => x[5]))} ms median (${r.map((x) => x[5]).join(", ")}); painted ${med(r.map((x) => x[0]))} ms median (${r.map((x) => x[0]).join(", ")})`)
}' "$out"
  exit 0
fi
if [ "${BENCH_PAGE_ONLY:-0}" != 1 ]; then
  first_start "$runs"
  for _ in $(seq 1 "$runs"); do launch "$home_small" small; done
  for _ in $(seq 1 3); do launch "$home_idle" idle; done
  for _ in $(seq 1 3); do launch "$home_big" big; done
fi

# --- in Chromium: open the big session, streaming rate -----------------------------------
log "page benchmarks in Chromium (dev binary)"
: >"$out/page.json"
rm -f "$out/page.json"
(
  cd frontend
  E2E_BIN=$tmp/vis-dev E2E_FAKELLM=$tmp/fakellm E2E_DISPLAY=$display E2E_ASSETDIR=$dist \
    E2E_TMP=$tmp E2E_OUT=$out E2E_PIDS=$pids \
    BENCH_HOME=$home_both BENCH_WORKSPACE=$ws BENCH_BIG_ID=$big_id BENCH_SMALL_ID=$small_id \
    npx vitest run --config e2e/bench.config.ts
) || log "page benchmarks failed (see above); their rows say not measured"

# --- the doc section ------------------------------------------------------------------
section=$out/window.md
BIG_MS=$big_s DB_KB=$db_kb VERSION=$(git describe --tags --always --dirty 2>/dev/null || echo dev) \
  CHROMIUM=$(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}') \
  node - "$out" >"$section" <<'EOF'
const fs = require('fs')
const out = process.argv[2]
const rows = (f) => (fs.existsSync(`${out}/${f}.txt`) ? fs.readFileSync(`${out}/${f}.txt`, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number)) : [])
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN }
const col = (r, i) => r.map((x) => x[i])
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`
const small = rows('small'), idle = rows('idle'), big = rows('big')
const page = fs.existsSync(`${out}/page.json`) ? JSON.parse(fs.readFileSync(`${out}/page.json`, 'utf8')) : {}
const s = (r, i) => (r.length ? col(r, i) : [])
const ms = (xs) => xs.length ? `${(med(xs) / 1000).toFixed(2)} s median (${xs.map((x) => (x / 1000).toFixed(2)).join(', ')})` : 'not measured'
const L = []
L.push('## Window', '')
L.push(`Measured by \`scripts/bench-ui.sh\` (\`make bench\`) on ${new Date().toISOString().slice(0, 10)}, checkout ${process.env.VERSION}: 2 shared cores, Xvfb 1280x860, WebKitGTK for the real window, Chromium ${process.env.CHROMIUM} (headless, software rendering) for the page figures. Magnitudes to watch, not promises; no test asserts them. On a shared 2-core machine they move by up to 2x with other load (launch times of 0.7 s and 1.3 s were both measured here on one day): compare runs made under similar load.`, '')
L.push('| what | figure |', '| --- | --- |')
L.push(`| launch to first painted transcript (production \`build/bin/vis-desktop\`, a 2-iteration session reopened) | **${ms(s(small, 0))}**; screenshot interval ~${med(s(small, 1))} ms |`)
L.push(`| launch to first painted transcript, the 2,000-iteration session reopened | ${ms(s(big, 0))} |`)
const first = rows('first'), restart = rows('restart')
L.push(`| first start (empty VIS_HOME, new HOME, binary and libraries out of the page cache): launch to window mapped / to painted | ${ms(s(first, 5))} / **${ms(s(first, 0))}** |`)
L.push(`| restart right after that first start: launch to window mapped / to painted | ${ms(s(restart, 5))} / **${ms(s(restart, 0))}** |`)
L.push(`| peak RSS idle (no session): vis process / WebKit web process / whole tree | **${mb(med(s(idle, 2)))}** / ${mb(med(s(idle, 3)))} / ${mb(med(s(idle, 4)))} |`)
L.push(`| peak RSS with the 2,000-iteration session open: vis process / WebKit web process / whole tree | **${mb(med(s(big, 2)))}** / ${mb(med(s(big, 3)))} / ${mb(med(s(big, 4)))} |`)
const o = page.open_session
L.push(`| open the 2,000-iteration session in the page (Chromium, click to the frame after it shows) | ${o ? `**${o.median_ms} ms** median of ${o.runs_ms.length} (${o.runs_ms.join(', ')} ms; first ${o.first_ms} ms); ${o.dom_elements_open} DOM elements with it open` : 'not measured'} |`)
const st = page.streaming
if (st && st.length) {
  // The highest rate whose level, and every slower one, kept each 1-second window at 30 frames or more.
  let best = null
  for (const r of st.filter((r) => r.kind === 'rate')) {
    if (r.min_fps_1s < 30) break
    best = r
  }
  const long = st.find((r) => r.kind === 'long')
  const burst = st.find((r) => r.kind === 'burst')
  const more = []
  if (long) more.push(`the same rate over a ${long.chunks}-chunk answer (${long.seconds.toFixed(0)} s): ${Math.round(long.events_per_s)} events/s, lowest 1-s window ${long.min_fps_1s} frames`)
  if (burst) more.push(`an unthrottled burst: ${Math.round(burst.events_per_s)} events/s for ${burst.seconds.toFixed(1)} s (${Math.round((100 * burst.content_events) / burst.chunks)} % of the deltas delivered, the broker drops deltas for a slow subscriber), lowest window ${burst.min_fps_1s} frames`)
  L.push(`| events per second the page absorbs while streaming, no 1-second window below 30 fps | ${best ? `**${Math.round(best.events_per_s)} events/s** for ${best.seconds.toFixed(1)} s (chunk delay ${best.delay_ms} ms; lowest 1-s window ${best.min_fps_1s} frames)` : 'below the slowest level measured'}${more.length ? '; ' + more.join('; ') : ''} |`)
} else L.push('| events per second the page absorbs while streaming | not measured |')
L.push('', `The 2,000-iteration session is 20 turns of 100 iterations (99 programs printing 5 lines each, then an answer), made with \`vis run --continue\` against fakellm in ${(process.env.BIG_MS / 1000).toFixed(1)} s; its VIS_HOME/desktop is ${(process.env.DB_KB / 1024).toFixed(1)} MB.`, '')
if (st && st.length) {
  L.push('Streaming levels (one answer per level, each in a new session; events are engine events as the page receives them, batched every ~33 ms by the bridge):', '')
  L.push('| level | chunk delay | chunks | deltas delivered | stream length | events/s received | mean fps | lowest 1-s window | longest frame |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const r of st) L.push(`| ${r.kind} | ${r.delay_ms} ms | ${r.chunks} | ${Math.round((100 * r.content_events) / r.chunks)} % | ${r.seconds.toFixed(1)} s | ${Math.round(r.events_per_s)} | ${r.mean_fps.toFixed(0)} | ${r.min_fps_1s} | ${r.max_frame_ms.toFixed(0)} ms |`)
  L.push('')
}
L.push('How: launch time is the first of back-to-back window screenshots (xdotool + ImageMagick `import`) that matches the final, still frame (normalised RMSE < 0.01), counted from the spawn of the process, so it includes GTK and WebKit start, page load, the bound calls and the render; its resolution is one screenshot interval. Peak RSS is VmHWM from /proc, 3 s after the window is still; the vis process holds the Go engine and the GTK UI, the WebKit web process renders the page. The page figures run in Chromium against the dev-tagged binary (`frontend/e2e/window.uibench.ts`): the open time is measured inside the page with `performance.now()` and requestAnimationFrame; the streaming figure counts the engine events delivered to the page per second and timestamps every animation frame. The dev binary also opens its WebKit window under Xvfb on the same 2 cores, so the page figures are pessimistic.', '')
process.stdout.write(L.join('\n'))
EOF
cat "$section"
if [ "${BENCH_NO_DOC:-0}" != 1 ] && [ "${BENCH_PAGE_ONLY:-0}" != 1 ]; then
  node - docs/PERFORMANCE.md "$section" <<'EOF'
const fs = require('fs')
const [doc, sec] = process.argv.slice(2)
let text = fs.readFileSync(doc, 'utf8')
const add = fs.readFileSync(sec, 'utf8').trimEnd() + '\n'
const start = text.search(/^## Window\s*$/m)
if (start >= 0) {
  const rest = text.slice(start + 1)
  const next = rest.search(/^## /m)
  text = text.slice(0, start) + add + (next >= 0 ? '\n' + rest.slice(next) : '')
} else {
  text = text.trimEnd() + '\n\n' + add
}
fs.writeFileSync(doc, text)
EOF
  log "docs/PERFORMANCE.md: Window section written"
fi
