#!/usr/bin/env bash
# GUI smoke test: builds the real app, starts it on a private Xvfb display with
# a temporary VIS_HOME and workspace, waits for its window to be shown (the
# window starts hidden and is shown once the page's DOM is ready), takes a
# screenshot and fails unless the window shows a drawn page (not one flat
# colour). Exits non-zero with a message on any failure.
#   scripts/smoke.sh                  build, then test
#   SMOKE_SKIP_BUILD=1 scripts/smoke.sh   test the existing build/bin/vis
# Output: build/smoke/window.png (whole screen), build/smoke/app.png (window
# only), build/smoke/after-send.png (after typing a request and Enter),
# build/smoke/app.log (the app's stdout and stderr).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1;34m[smoke]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[smoke] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

out=build/smoke
bin=build/bin/vis
wait_window=${SMOKE_WAIT:-90} # seconds; a cold WebKit start on a busy 2-core machine is slow
mkdir -p "$out"
rm -f "$out"/*.png "$out"/app.log

if [ "${SMOKE_SKIP_BUILD:-0}" != 1 ]; then
  scripts/build.sh
fi
[ -x "$bin" ] || die "$bin is missing (build failed?)"
for tool in Xvfb xdotool import convert identify; do
  command -v "$tool" >/dev/null || die "$tool is not installed: run scripts/deps.sh test"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vis-smoke.XXXXXX")
xvfb_pid=""
app_pid=""
cleanup() {
  if [ -n "$app_pid" ]; then
    kill -TERM -- "-$app_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.3; done
    kill -KILL -- "-$app_pid" 2>/dev/null || true
  fi
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# A free display number: no lock file and no socket.
display=""
for n in $(seq 90 250); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || die "no free X display number in :90-:250"

log "Xvfb $display"
Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp -noreset >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
export DISPLAY=$display
for _ in $(seq 1 100); do
  xdotool getdisplaygeometry >/dev/null 2>&1 && break
  kill -0 "$xvfb_pid" 2>/dev/null || die "Xvfb exited: $(cat "$tmp/xvfb.log")"
  sleep 0.1
done
xdotool getdisplaygeometry >/dev/null 2>&1 || die "Xvfb on $display did not come up"

# A workspace with something in it, and a fresh VIS_HOME.
mkdir -p "$tmp/home" "$tmp/project"
printf 'print("hello")\n' >"$tmp/project/main.py"
env_extra=(VIS_HOME="$tmp/home" VIS_API_KEY=smoke-test-key VIS_MODEL=smoke-model)
# Never talk to a real provider from a test: point at a closed loopback port
# unless a fake LLM is given (VIS_SMOKE_BASE_URL).
env_extra+=(VIS_BASE_URL="${VIS_SMOKE_BASE_URL:-http://127.0.0.1:9/v1}")

log "start $bin"
start=$(date +%s)
# setsid: the app leads its own process group, killed as a group in cleanup.
env "${env_extra[@]}" NO_AT_BRIDGE=1 setsid "$bin" "$tmp/project" >"$out/app.log" 2>&1 &
app_pid=$!

wid=""
deadline=$(( start + wait_window ))
while [ "$(date +%s)" -lt "$deadline" ]; do
  kill -0 "$app_pid" 2>/dev/null || die "the app exited early; log:
$(tail -n 40 "$out/app.log")"
  wid=$(xdotool search --onlyvisible --name '^Vis$' 2>/dev/null | head -n 1 || true)
  [ -n "$wid" ] && break
  sleep 0.25
done
[ -n "$wid" ] || die "no visible window named 'Vis' after ${wait_window}s; log:
$(tail -n 40 "$out/app.log")"
log "window $wid shown after $(( $(date +%s) - start ))s"

# The page paints shortly after the window is shown: take screenshots until
# the window is not one flat colour (or give up).
colours=0
for _ in $(seq 1 60); do
  import -window "$wid" "$out/app.png" 2>/dev/null || true
  if [ -s "$out/app.png" ]; then
    colours=$(identify -format '%k' "$out/app.png" 2>/dev/null || echo 0)
    [ "$colours" -gt 64 ] && break
  fi
  sleep 0.5
done
import -window root "$out/window.png" || die "screenshot failed"
stddev=$(convert "$out/app.png" -colorspace Gray -format '%[fx:standard_deviation]' info: 2>/dev/null || echo 0)
geometry=$(identify -format '%wx%h' "$out/app.png" 2>/dev/null || echo '?')
log "window ${geometry}, ${colours} colours, grey stddev ${stddev}"
[ "$colours" -gt 64 ] || die "the window looks blank (${colours} colours); see $out/app.png and $out/app.log"
awk -v s="$stddev" 'BEGIN { exit !(s > 0.02) }' || die "the window looks blank (stddev ${stddev}); see $out/app.png"
kill -0 "$app_pid" 2>/dev/null || die "the app died after showing its window; see $out/app.log"

# Type a request into the composer and press Enter: the Send path must not
# crash the app, whatever the engine answers (with no LLM here the turn fails,
# and the page must say so). Screenshot for a person: build/smoke/after-send.png.
read -r w h < <(identify -format '%w %h\n' "$out/app.png")
xdotool mousemove --window "$wid" $(( w / 2 + 130 )) $(( h - 90 )) click 1
sleep 0.3
xdotool type --delay 20 'Say hello'
xdotool key Return
for _ in $(seq 1 20); do # let the page show the outcome (up to 5 s)
  sleep 0.25
  kill -0 "$app_pid" 2>/dev/null || die "the app died after Send; log:
$(tail -n 40 "$out/app.log")"
done
import -window root "$out/after-send.png" || die "screenshot after send failed"
if grep -qiE 'panic:|fatal error:' "$out/app.log"; then
  die "the app logged a panic; see $out/app.log"
fi
log "ok: $out/window.png"
