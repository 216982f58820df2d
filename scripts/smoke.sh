#!/usr/bin/env bash
# GUI smoke test: one real turn through the real window.
#
# Builds the app and the scripted fake LLM (backend/provider/providertest/
# fakellm), starts the fake LLM on loopback and the app on a private Xvfb
# display with a temporary VIS_HOME and a workspace holding two files. Then:
#   1. waits for the window to be shown and painted (not one flat colour);
#   2. types a request into the composer and presses Enter;
#   3. polls the same binary's CLI (`vis sessions --json`, `vis show --json`,
#      same VIS_HOME) until the turn has ended, and fails unless it ended
#      with status done, the scripted answer, and the program's output saved;
#   4. screenshots the window once it stops changing: the finished turn as
#      the live events and the reload on turn-end left it (turn.png);
#   5. starts a new empty session (new.png, must differ from turn.png), then
#      clicks the session in the sidebar, which loads it from the database
#      (reopened.png); fails unless its transcript looks like turn.png's;
#   6. restarts the app, which reopens the latest session (restart.png);
#      fails unless it looks like turn.png too;
#   7. drags a PNG in from another application (dropped.png) and sends it;
#   7b. drags a text file in: its chip must show its reason ("not an image",
#      warn-coloured, no picture) before Send (dropped-text.png); then puts a
#      text on the X clipboard from another process (clipsrc.py) and pastes
#      it with Ctrl+V (the request), then a PNG, pastes it (pasted.png) and
#      sends: the stored request must be the pasted text; the model's request
#      must carry the pasted image, pixel for pixel, and name the text file
#      as not an image;
#   8. sets a goal with a budget in the goal panel: the objective must reach
#      the model (its request log) and start a turn; Pause mid-stream must
#      end it halted with no further request; Resume must start a turn that
#      completes the goal (goal-running.png, goal-paused.png, goal-done.png);
#   9. a program prints 5,000 lines: the transcript says "clipped at N of M"
#      and offers "open full output" (long-clipped.png);
#  10. the window is resized (xdotool windowsize) and "show all" clicked: no
#      app-error banner, in the text or in the error colour (long-shown.png);
#      "open full output" holds all 5,000 lines, End scrolls it to line 5000
#      (full-output.png), Escape closes it;
#  11. a program's shell prints three lines, then waits for a file in the
#      workspace: the running tool card shows them live (live-tool.png);
#      the smoke makes the file and the turn ends done (live-done.png);
#  12. a program's shell writes outside the project: the sandbox refuses it
#      (the file is not there), the card offers "Run again without the
#      sandbox"; a click re-runs it as an approval turn and the file appears
#      (sandbox-refused.png, sandbox-approved.png). Skipped, with a line
#      saying so, where the kernel does not enforce Landlock;
#  13. with permissions.ask on (config.yml), the same kind of write waits at
#      its call: the window asks (sandbox-question.png); "Run it without the
#      sandbox" runs it once unconfined, the program goes on and the turn
#      ends done; the card records the approval (sandbox-asked.png);
#  14. a turn ends while another window has the keyboard focus: the app's
#      notification reaches a recording server on a private D-Bus session
#      bus, naming the session and the answer; a click on it (the
#      recorder's SIGUSR1) brings that session back into the window
#      (notified.png); meanwhile the sidebar marks it with the "finished
#      while you were away" dot (unread-dot.png).
#  15. a turn writes a file: its card says "1 file changed +2 −0", the
#      diff opens naming the file with its lines, and "Undo turn" removes
#      the file from disk; the undo is turn 2 of the session and the card
#      says so (checkpoint-diff.png, checkpoint-undone.png).
# The page's text is read as a person would copy it: Ctrl+A, Ctrl+C, then
# the X clipboard (build/smoke/*.txt). At the end the page's error log
# ($VIS_HOME/desktop/logs/frontend.log) must be empty.
# Screenshots are compared on the transcript only (right of the sidebar,
# above the composer). Throughout it fails if the app dies, logs a panic or
# shows a blank window. Look at turn.png: it must show the request, the
# program with its output, the answer and status/iterations/tokens.
#   scripts/smoke.sh                      build, then test
#   SMOKE_SKIP_BUILD=1 scripts/smoke.sh   test the existing build/bin/vis-desktop
# Output in build/smoke/: app.png (first frame), live.png (while the turn
# runs, when caught), turn.png, new.png, reopened.png, restart.png,
# app.log (the app's stdout and stderr), fakellm.log.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1;34m[smoke]\033[0m +%ss %s\n' "$(( $(date +%s) - t0 ))" "$*" >&2; }
die() { printf '\033[1;31m[smoke] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

out=build/smoke
bin=$PWD/build/bin/vis-desktop
wait_window=${SMOKE_WAIT:-90} # seconds; a cold WebKit start on a busy 2-core machine is slow
wait_turn=${SMOKE_TURN_WAIT:-60}
t0=$(date +%s)
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.log "$out"/*.txt

if [ "${SMOKE_SKIP_BUILD:-0}" != 1 ]; then
  scripts/build.sh
fi
[ -x "$bin" ] || die "$bin is missing (build failed?)"
for tool in Xvfb xdotool import convert identify compare node; do
  command -v "$tool" >/dev/null || die "$tool is not installed: run scripts/deps.sh test"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vis-smoke.XXXXXX")
xvfb_pid=""
app_pid=""
llm_pid=""
stop_app() {
  [ -n "$app_pid" ] || return 0
  kill -TERM -- "-$app_pid" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL -- "-$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  app_pid=""
}
cleanup() {
  stop_app
  if [ -n "${clip_pid:-}" ]; then kill "$clip_pid" 2>/dev/null || true; wait "$clip_pid" 2>/dev/null || true; fi
  if [ -n "$llm_pid" ]; then kill "$llm_pid" 2>/dev/null || true; wait "$llm_pid" 2>/dev/null || true; fi
  for p in "${thief_pid:-}" "${rec_pid:-}" "${bus_pid:-}"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
  done
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; wait "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# --- the scripted LLM -------------------------------------------------------
# Turn: iteration 1 thinks and runs a program that prints README.md;
# iteration 2 streams the final answer. Delays make the streaming visible.
request='What is in this project?'
answer='The project has **two** files: `README.md`, which describes a tiny demo, and `main.py`, which prints hello.'
cat >"$tmp/script.json" <<'EOF'
[
  {
    "reasoning": ["The user wants ", "an overview. ", "Reading the README ", "first."],
    "code": "print(cat('README.md')['text'])\nprint(len(ls()), 'entries')",
    "usage": {"input_tokens": 900, "output_tokens": 40},
    "delay": "60ms"
  },
  {
    "content": ["The project ", "has **two** files: ", "`README.md`, ", "which describes ", "a tiny demo, ", "and `main.py`, ", "which prints hello."],
    "usage": {"input_tokens": 1150, "output_tokens": 31},
    "delay": "120ms"
  },
  {
    "content": ["I was told ", "about the dropped image."],
    "usage": {"input_tokens": 1300, "output_tokens": 8}
  },
  {
    "content": ["I see the pasted image."],
    "usage": {"input_tokens": 1350, "output_tokens": 6}
  },
  {
    "reasoning": ["Reading the tests ", "to see what fails. ", "Three of them. "],
    "hang_after": 4,
    "delay": "80ms"
  },
  {
    "code": "print('all 3 tests pass')\nupdate_goal('complete')",
    "usage": {"input_tokens": 1400, "output_tokens": 30},
    "delay": "40ms"
  },
  {
    "content": ["Every test passes: ", "verified by the run above."],
    "usage": {"input_tokens": 1500, "output_tokens": 12},
    "delay": "40ms"
  },
  {
    "code": "for i in range(5000):\n    print('line %04d of 5000: ' % (i + 1) + 'x' * 60)",
    "usage": {"input_tokens": 1600, "output_tokens": 30}
  },
  {
    "content": ["Printed them all."],
    "usage": {"input_tokens": 20000, "output_tokens": 5}
  },
  {
    "code": "r = shell('for i in 1 2 3; do echo \"step $i of the long run\"; done; while [ ! -e gate ]; do sleep 0.1; done; echo finished')\nprint(r['output'])",
    "usage": {"input_tokens": 20100, "output_tokens": 40}
  },
  {
    "content": ["The long run finished."],
    "usage": {"input_tokens": 20200, "output_tokens": 6}
  },
  {
    "code": "print('confined:', session['sandbox']['confined'])\nr = shell('echo escaped > @TMP@/outside.txt')\nprint('exit', r['exit_code'])",
    "usage": {"input_tokens": 20300, "output_tokens": 30}
  },
  {
    "content": ["The sandbox kept the file out."],
    "usage": {"input_tokens": 20400, "output_tokens": 6}
  },
  {
    "code": "r = shell('echo asked > @TMP@/asked.txt')\nprint('exit', r['exit_code'])\nprint('the program went on')",
    "usage": {"input_tokens": 20500, "output_tokens": 30}
  },
  {
    "content": ["Written after you said yes."],
    "usage": {"input_tokens": 20600, "output_tokens": 6}
  },
  {
    "code": "r = shell('while [ ! -e gate2 ]; do sleep 0.1; done; echo other done')\nprint(r['output'])",
    "usage": {"input_tokens": 20700, "output_tokens": 30}
  },
  {
    "content": ["The other long run finished."],
    "usage": {"input_tokens": 20800, "output_tokens": 6}
  },
  {
    "code": "write('notes.txt', 'one\\ntwo\\n')\nprint('written')",
    "usage": {"input_tokens": 20900, "output_tokens": 20}
  },
  {
    "content": ["Wrote notes.txt."],
    "usage": {"input_tokens": 21000, "output_tokens": 5}
  },
  {
    "code": "r = shell('while [ ! -e @TMP@/gate3 ]; do sleep 0.1; done; echo left gate')\nprint(r['output'])",
    "usage": {"input_tokens": 21050, "output_tokens": 10}
  },
  {
    "code": "r = shell('while [ ! -e @TMP@/gate4 ]; do sleep 0.1; done; echo right gate')\nprint(r['output'])",
    "usage": {"input_tokens": 21060, "output_tokens": 10}
  },
  {
    "content": ["The left ", "pane's ", "answer ", "streams ", "slowly ", "so ", "that ", "the ", "right ", "pane ", "can ", "start ", "its ", "own ", "turn ", "while ", "this ", "one ", "is ", "still ", "arriving ", "word ", "by ", "word ", "in ", "the ", "real ", "window ", "under ", "Xvfb ", "until ", "it ", "ends ", "here."],
    "usage": {"input_tokens": 21100, "output_tokens": 34},
    "delay": "300ms"
  },
  {
    "content": ["The right ", "pane's ", "answer ", "arrives ", "beside ", "the ", "left ", "one."],
    "usage": {"input_tokens": 21200, "output_tokens": 8},
    "delay": "80ms"
  }
]
EOF
sed -i "s|@TMP@|$tmp|g" "$tmp/script.json"
log "build fakellm"
go build -o "$tmp/fakellm" ./backend/provider/providertest/fakellm
"$tmp/fakellm" -script "$tmp/script.json" -addr 127.0.0.1:0 -requests "$out/requests.jsonl" >"$out/fakellm.log" 2>&1 &
llm_pid=$!
base_url=""
for _ in $(seq 1 100); do
  # The log may not exist yet (the background shell opens it): not an error.
  base_url=$(awk '/^listening /{print $2; exit}' "$out/fakellm.log" 2>/dev/null || true)
  [ -n "$base_url" ] && break
  kill -0 "$llm_pid" 2>/dev/null || die "fakellm exited: $(cat "$out/fakellm.log")"
  sleep 0.1
done
[ -n "$base_url" ] || die "fakellm did not say where it listens"
log "fake LLM at $base_url"

# --- display ----------------------------------------------------------------
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

# --- workspace, home, environment -------------------------------------------
mkdir -p "$tmp/home" "$tmp/project"
printf '# Demo\n\nA tiny demo project for the smoke test.\n' >"$tmp/project/README.md"
printf 'print("hello")\n' >"$tmp/project/main.py"
# A model name with "vision" in it: the engine sends it images (config.LikelyVision).
# A private session bus whose notification server records what the app
# sends (step 14); VIS_TRACE_FOCUS logs the window's focus changes.
log "private D-Bus session bus and a recording notification server"
go build -o "$tmp/recorder" ./app/notify/notifytest/recorder
dbus-daemon --session --nofork --print-address=1 >"$tmp/bus.addr" 2>"$tmp/bus.log" &
bus_pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/bus.addr" ] && break; sleep 0.1; done
bus_addr=$(head -n 1 "$tmp/bus.addr")
[ -n "$bus_addr" ] || die "dbus-daemon did not start: $(cat "$tmp/bus.log")"
: >"$out/notifications.jsonl"
DBUS_SESSION_BUS_ADDRESS=$bus_addr "$tmp/recorder" "$out/notifications.jsonl" >"$tmp/recorder.out" 2>&1 &
rec_pid=$!
for _ in $(seq 1 100); do grep -q ready "$tmp/recorder.out" && break; sleep 0.1; done
grep -q ready "$tmp/recorder.out" || die "the notification recorder did not start: $(cat "$tmp/recorder.out")"
vis_env=(VIS_HOME="$tmp/home" VIS_API_KEY=smoke-test-key VIS_MODEL=fake-vision-model VIS_BASE_URL="$base_url" DBUS_SESSION_BUS_ADDRESS="$bus_addr" VIS_TRACE_FOCUS=1)
vis() { env "${vis_env[@]}" "$bin" "$@"; }

# --- helpers ----------------------------------------------------------------
wid=""
start_app() {
  local start deadline
  start=$(date +%s)
  # setsid: the app leads its own process group, killed as a group in stop_app.
  env "${vis_env[@]}" NO_AT_BRIDGE=1 setsid "$bin" "$tmp/project" >>"$out/app.log" 2>&1 &
  app_pid=$!
  wid=""
  deadline=$(( start + wait_window ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    alive
    wid=$(xdotool search --onlyvisible --name '^Vis$' 2>/dev/null | head -n 1 || true)
    [ -n "$wid" ] && break
    sleep 0.25
  done
  [ -n "$wid" ] || die "no visible window named 'Vis' after ${wait_window}s; log:
$(tail -n 40 "$out/app.log")"
  log "window $wid shown after $(( $(date +%s) - start ))s"
}
alive() {
  kill -0 "$app_pid" 2>/dev/null || die "the app exited; log:
$(tail -n 40 "$out/app.log")"
  if grep -qiE 'panic:|fatal error:' "$out/app.log"; then
    die "the app logged a panic; see $out/app.log"
  fi
}
# shot FILE: screenshot of the window; fails when it is one flat colour.
shot() {
  alive
  import -window "$wid" "$1" 2>/dev/null || die "screenshot $1 failed"
  local colours stddev
  colours=$(identify -format '%k' "$1" 2>/dev/null || echo 0)
  stddev=$(convert "$1" -colorspace Gray -format '%[fx:standard_deviation]' info: 2>/dev/null || echo 0)
  [ "$colours" -gt 64 ] && awk -v s="$stddev" 'BEGIN { exit !(s > 0.02) }' ||
    die "the window looks blank (${colours} colours, grey stddev ${stddev}); see $1"
}
# painted FILE: waits (up to 30 s) until the window is painted, then shoots it.
painted() {
  local colours=0
  for _ in $(seq 1 60); do
    import -window "$wid" "$1" 2>/dev/null || true
    colours=$(identify -format '%k' "$1" 2>/dev/null || echo 0)
    [ "$colours" -gt 64 ] && break
    sleep 0.5
  done
  shot "$1"
}
# differ A B: the normalised RMSE (0 = identical) between the transcripts of
# two screenshots: right of the sidebar, below the header, above the composer
# (whose focus ring and caret come and go).
differ() {
  local crop=$(( w - 262 ))x$(( h - 240 ))+262+50 d
  convert "$1" -crop "$crop" +repage "$tmp/a.png"
  convert "$2" -crop "$crop" +repage "$tmp/b.png"
  d=$({ compare -metric RMSE "$tmp/a.png" "$tmp/b.png" null: 2>&1 || true; } | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p')
  [ -n "$d" ] || die "could not compare $1 with $2"
  echo "$d"
}
# stable FILE: screenshots until the transcript is unchanged for 0.5 s (up to 15 s).
stable() {
  shot "$1"
  for _ in $(seq 1 30); do
    sleep 0.5
    cp "$1" "$tmp/prev.png"
    shot "$1"
    [ "$(differ "$tmp/prev.png" "$1")" = 0 ] && return 0
  done
  die "the window kept changing for 15 s; see $1"
}
# like FILE REF WHAT: screenshots until the transcript looks like REF's (up to 15 s).
like() {
  local d=""
  for _ in $(seq 1 30); do
    sleep 0.5
    shot "$1"
    d=$(differ "$2" "$1")
    awk -v d="$d" 'BEGIN { exit !(d < 0.01) }' && { log "$3: difference from $(basename "$2") ${d}"; return 0; }
  done
  die "$3 does not look like $2 (difference ${d}); see $1"
}
# click X Y: clicks at window coordinates. WebKit drops a click that comes
# in the same instant as the pointer's move onto a new element: move, pause,
# then click.
click() {
  xdotool mousemove --window "$wid" "$1" "$2"
  sleep 0.3
  xdotool click 1
}
json() { node -e "const d=JSON.parse(require('fs').readFileSync(0,'utf8')); const v=($1); process.stdout.write(v===undefined?'':typeof v==='string'?v:JSON.stringify(v))"; }

# --- 1. first frame ----------------------------------------------------------
start_app
painted "$out/app.png"
read -r w h < <(identify -format '%w %h\n' "$out/app.png")
log "window ${w}x${h}"

# --- 2. send a request --------------------------------------------------------
# The composer sits at the bottom of the main column (right of the 260 px
# sidebar).
click $(( w / 2 + 130 )) $(( h - 110 ))
sleep 0.3
xdotool type --delay 15 "$request"
xdotool key Return
sent=$(date +%s)

# --- 3. wait for the turn through the CLI -------------------------------------
# Each of these CLI calls opens the engine, which marks "running" turns of
# dead processes interrupted; the window is alive, so its turn must stay
# "running" until it ends ("interrupted" here is a failure).
sid=""
status=""
live=0
deadline=$(( sent + wait_turn ))
while [ "$(date +%s)" -lt "$deadline" ]; do
  alive
  if [ -z "$sid" ]; then
    sid=$(vis sessions --json | json 'd.length ? d[0].id : ""')
  fi
  if [ -n "$sid" ]; then
    vis show --json "$sid" >"$tmp/show.json"
    status=$(json '(d.turns && d.turns[0] && d.turns[0].status) || ""' <"$tmp/show.json")
    case "$status" in
    interrupted) die "a CLI call marked the live window's turn interrupted (store.InterruptRunning must spare live owners)" ;;
    running)
      if [ "$live" = 0 ]; then
        import -window "$wid" "$out/live.png" 2>/dev/null || true
        live=1
      fi
      ;;
    ?*) break ;;
    esac
  fi
  sleep 0.3
done
[ -n "$sid" ] || die "no session was created ${wait_turn}s after Enter (did the composer get the text?); see $out/app.png and $out/app.log"
case "$status" in '' | running) die "turn 1 of $sid did not end within ${wait_turn}s (status '${status}')" ;; esac
log "turn ended ($status) $(( $(date +%s) - sent ))s after Enter"
[ "$status" = done ] || die "turn status is '$status', want done: $(json 'd.turns[0].error' <"$tmp/show.json")"
got=$(json 'd.turns[0].answer' <"$tmp/show.json")
[ "$got" = "$answer" ] || die "answer in the database is '$got', want '$answer'"
got=$(json 'd.turns[0].request' <"$tmp/show.json")
[ "$got" = "$request" ] || die "request in the database is '$got', want '$request' (typing into the composer lost keys?)"
got=$(json 'd.turns[0].iterations.map(i => i.output || "").join("")' <"$tmp/show.json")
case "$got" in *'A tiny demo project'*) ;; *) die "the program's output was not saved: '$got'" ;; esac

# --- 4. the finished turn ----------------------------------------------------
# The page reloads its snapshot on turn-end: wait until it stops changing.
stable "$out/turn.png"
[ -s "$out/live.png" ] || rm -f "$out/live.png"

# --- 5. new session, then the old one from the sidebar -----------------------
# The sidebar's "New" button (top right of the 260 px sidebar), then its
# first session row.
click 221 73
stable "$out/new.png"
d_new=$(differ "$out/turn.png" "$out/new.png")
log "difference of the new session from turn.png: ${d_new}"
awk -v d="$d_new" 'BEGIN { exit !(d > 0.02) }' || die "'New' did not change the window (see $out/new.png)"
click 120 120
like "$out/reopened.png" "$out/turn.png" "the session reopened from the sidebar"

# --- 6. restart: the session comes back from the database ---------------------
stop_app
start_app
painted "$out/restart.png"
like "$out/restart.png" "$out/turn.png" "the session reopened after a restart"
alive

# --- 7. a file dropped from another application -------------------------------
# A GTK drag source outside the window (as a file manager would) drags a
# PNG's URI onto the composer: WebKitGTK hands it to Go (OnFileDrop), the
# page attaches it as a thumbnail and must not also drop the URI as text.
convert -size 64x48 xc:tomato "$tmp/dropped.png"
read -r sw sh < <(xdotool getdisplaygeometry)
/usr/bin/python3 scripts/dragsrc.py "file://$tmp/dropped.png" $(( sw - 90 )) $(( sh - 45 )) >"$tmp/dragsrc.log" 2>&1 &
drag_pid=$!
src=""
for _ in $(seq 1 40); do
  src=$(xdotool search --onlyvisible --name '^vis-smoke-dragsrc$' 2>/dev/null | head -n 1 || true)
  [ -n "$src" ] && break
  kill -0 "$drag_pid" 2>/dev/null || die "the drag source exited: $(cat "$tmp/dragsrc.log")"
  sleep 0.25
done
[ -n "$src" ] || die "no drag source window: $(cat "$tmp/dragsrc.log")"
xdotool windowraise "$src"
shot "$out/before-drop.png"
eval "$(xdotool getwindowgeometry --shell "$wid")"                   # X Y WIDTH HEIGHT: the Vis window
eval "$(xdotool getwindowgeometry --shell "$src" | sed 's/^/SRC_/')" # the drag source
from_x=$(( SRC_X + SRC_WIDTH / 2 )); from_y=$(( SRC_Y + SRC_HEIGHT / 2 ))
to_x=$(( X + WIDTH / 2 + 130 )); to_y=$(( Y + HEIGHT - 110 ))
xdotool mousemove "$from_x" "$from_y"
sleep 0.3
xdotool mousedown 1
for i in 1 2 3 4 5 6 7 8; do
  xdotool mousemove $(( from_x + (to_x - from_x) * i / 8 )) $(( from_y + (to_y - from_y) * i / 8 ))
  sleep 0.15
done
sleep 0.4
xdotool mouseup 1
# The thumbnail row appears above the input: the composer area changes.
crop=$(( w - 262 ))x150+262+$(( h - 260 ))
d_drop=0
for _ in $(seq 1 20); do
  sleep 0.5
  shot "$out/dropped.png"
  convert "$out/before-drop.png" -crop "$crop" +repage "$tmp/a.png"
  convert "$out/dropped.png" -crop "$crop" +repage "$tmp/b.png"
  d_drop=$({ compare -metric RMSE "$tmp/a.png" "$tmp/b.png" null: 2>&1 || true; } | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p')
  awk -v d="$d_drop" 'BEGIN { exit !(d > 0.01) }' && break
done
kill "$drag_pid" 2>/dev/null || true
wait "$drag_pid" 2>/dev/null || true
awk -v d="$d_drop" 'BEGIN { exit !(d > 0.01) }' || die "dropping a file did not show a thumbnail (composer difference ${d_drop}); see $out/dropped.png"
log "the dropped file shows above the composer (difference ${d_drop})"
# Send with a typed request: the stored request is exactly what was typed
# (the page did not also insert the file:// URI), and the turn answers.
drop_request='Describe the dropped image'
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 "$drop_request"
xdotool key Return
status=""
deadline=$(( $(date +%s) + wait_turn ))
while [ "$(date +%s)" -lt "$deadline" ]; do
  alive
  vis show --json "$sid" >"$tmp/show.json"
  status=$(json '(d.turns && d.turns[1] && d.turns[1].status) || ""' <"$tmp/show.json")
  case "$status" in '' | running) sleep 0.3 ;; *) break ;; esac
done
[ "$status" = done ] || die "the turn with the dropped image ended '${status}'"
got=$(json 'd.turns[1].request' <"$tmp/show.json")
[ "$got" = "$drop_request" ] || die "the request sent with the dropped image is '$got', want '$drop_request' (did the drop insert text?)"
stable "$out/drop-turn.png"

# --- 7b. a dropped text file says why before Send; a screenshot pasted with Ctrl+V ---
# drag FILE: drags FILE's URI from dragsrc.py onto the composer.
drag() {
  local pid src="" from_x from_y to_x to_y i
  /usr/bin/python3 scripts/dragsrc.py "file://$1" $(( sw - 90 )) $(( sh - 45 )) >"$tmp/dragsrc.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 40); do
    src=$(xdotool search --onlyvisible --name '^vis-smoke-dragsrc$' 2>/dev/null | head -n 1 || true)
    [ -n "$src" ] && break
    kill -0 "$pid" 2>/dev/null || die "the drag source exited: $(cat "$tmp/dragsrc.log")"
    sleep 0.25
  done
  [ -n "$src" ] || die "no drag source window: $(cat "$tmp/dragsrc.log")"
  xdotool windowraise "$src"
  eval "$(xdotool getwindowgeometry --shell "$wid")"
  eval "$(xdotool getwindowgeometry --shell "$src" | sed 's/^/SRC_/')"
  from_x=$(( SRC_X + SRC_WIDTH / 2 )); from_y=$(( SRC_Y + SRC_HEIGHT / 2 ))
  to_x=$(( X + WIDTH / 2 + 130 )); to_y=$(( Y + HEIGHT - 110 ))
  xdotool mousemove "$from_x" "$from_y"
  sleep 0.3
  xdotool mousedown 1
  for i in 1 2 3 4 5 6 7 8; do
    xdotool mousemove $(( from_x + (to_x - from_x) * i / 8 )) $(( from_y + (to_y - from_y) * i / 8 ))
    sleep 0.15
  done
  sleep 0.4
  xdotool mouseup 1
  sleep 1
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
# warn_pixels FILE: how many pixels of the composer area above the input
# have the warning colour (--warn, #b35c00: a refused chip's border and reason).
warn_pixels() {
  convert "$1" -crop $(( w - 262 ))x170+262+$(( h - 280 )) +repage -fuzz 12% \
    -fill black +opaque '#b35c00' -fill white -opaque '#b35c00' -format '%[fx:round(mean*w*h)]' info:
}
printf 'TODO: take a screenshot of the bug\n' >"$tmp/notes.txt"
shot "$out/before-text-drop.png"
[ "$(warn_pixels "$out/before-text-drop.png")" -lt 50 ] || die "the composer shows the warning colour before any drop; see $out/before-text-drop.png"
drag "$tmp/notes.txt"
n_warn=0
for _ in $(seq 1 20); do
  shot "$out/dropped-text.png"
  n_warn=$(warn_pixels "$out/dropped-text.png")
  [ "$n_warn" -gt 300 ] && break
  sleep 0.5
done
[ "$n_warn" -gt 300 ] || die "the dropped text file's chip shows no reason before Send (${n_warn} warning-coloured pixels); see $out/dropped-text.png"
log "the dropped text file's chip shows its reason before Send (${n_warn} warning-coloured pixels)"
# clipboard KIND VALUE: another process (clipsrc.py) owns KIND on CLIPBOARD
# from now on, until the next call or the end of the step.
clip_pid=""
clipboard() {
  if [ -n "$clip_pid" ]; then kill "$clip_pid" 2>/dev/null || true; wait "$clip_pid" 2>/dev/null || true; fi
  : >"$tmp/clipsrc.log"
  /usr/bin/python3 scripts/clipsrc.py "$1" "$2" >"$tmp/clipsrc.log" 2>&1 &
  clip_pid=$!
  for _ in $(seq 1 40); do
    grep -q '^ready' "$tmp/clipsrc.log" && return 0
    kill -0 "$clip_pid" 2>/dev/null || die "clipsrc.py exited: $(cat "$tmp/clipsrc.log")"
    sleep 0.25
  done
  die "clipsrc.py did not take the clipboard: $(cat "$tmp/clipsrc.log")"
}
# A text paste is the text field's, as before: the request comes from the clipboard.
paste_request='What does the screenshot show?'
clipboard text "$paste_request"
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool key ctrl+v
sleep 1
# A screenshot tool's clipboard: an image.
convert -size 80x60 gradient:navy-gold -fill crimson -draw 'rectangle 10,10 30,50' -depth 8 "PNG24:$tmp/clip.png"
clipboard image "$tmp/clip.png"
shot "$tmp/before-paste.png"
xdotool key ctrl+v
d_paste=0
for _ in $(seq 1 20); do
  sleep 0.5
  shot "$out/pasted.png"
  convert "$tmp/before-paste.png" -crop "$crop" +repage "$tmp/a.png"
  convert "$out/pasted.png" -crop "$crop" +repage "$tmp/b.png"
  d_paste=$({ compare -metric RMSE "$tmp/a.png" "$tmp/b.png" null: 2>&1 || true; } | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p')
  awk -v d="$d_paste" 'BEGIN { exit !(d > 0.01) }' && break
done
awk -v d="$d_paste" 'BEGIN { exit !(d > 0.01) }' || die "Ctrl+V with an image on the clipboard attached nothing (composer difference ${d_paste}); see $out/pasted.png and $out/app.log"
log "Ctrl+V attached the clipboard's image (difference ${d_paste})"
sleep 1 # the chip's verdict and preview settle
shot "$out/pasted.png"
before=$(wc -l <"$out/requests.jsonl")
xdotool key Return
status=""
deadline=$(( $(date +%s) + wait_turn ))
while [ "$(date +%s)" -lt "$deadline" ]; do
  alive
  vis show --json "$sid" >"$tmp/show.json"
  status=$(json '(d.turns && d.turns[2] && d.turns[2].status) || ""' <"$tmp/show.json")
  case "$status" in '' | running) sleep 0.3 ;; *) break ;; esac
done
kill "$clip_pid" 2>/dev/null || true
wait "$clip_pid" 2>/dev/null || true
clip_pid=""
[ "$status" = done ] || die "the turn with the pasted image ended '${status}'"
got=$(json 'd.turns[2].request' <"$tmp/show.json")
[ "$got" = "$paste_request" ] || die "the request pasted as text is '$got', want '$paste_request' (the text paste changed?)"
[ "$(wc -l <"$out/requests.jsonl")" -gt "$before" ] || die "the pasted image's turn sent no request"
# The model's request: the pasted image as an image part, the text file named.
tail -n 1 "$out/requests.jsonl" | node -e '
  const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const u = r.messages.filter((m) => m.role === "user").pop();
  const parts = Array.isArray(u.content) ? u.content : [{ type: "text", text: String(u.content) }];
  const imgs = parts.filter((p) => p.type === "image_url").map((p) => p.image_url.url);
  const text = parts.filter((p) => p.type === "text").map((p) => p.text).join("\n");
  process.stdout.write(JSON.stringify({ imgs, text }));
' >"$tmp/pasted-req.json"
[ "$(json 'd.imgs.length' <"$tmp/pasted-req.json")" = 1 ] || die "the request carries $(json 'd.imgs.length' <"$tmp/pasted-req.json") images, want the pasted one: $(head -c 600 "$tmp/pasted-req.json")"
json 'd.imgs[0].replace(/^data:image\/png;base64,/, "")' <"$tmp/pasted-req.json" | base64 -d >"$tmp/sent.png" || die "the sent image is not a base64 PNG"
ae=$({ compare -metric AE "$tmp/clip.png" "$tmp/sent.png" null: 2>&1 || true; } | sed 's/ .*//')
[ "$ae" = 0 ] || die "the image sent is not the one on the clipboard (${ae} pixels differ); see $tmp/sent.png"
case "$(json 'd.text' <"$tmp/pasted-req.json")" in *notes.txt*'not an image'*) ;; *) die "the request does not name notes.txt as not an image: $(json 'd.text' <"$tmp/pasted-req.json" | tail -n 8)" ;; esac
log "the pasted image reached the model pixel for pixel; notes.txt was named as not an image"
stable "$out/paste-turn.png"

# --- 8. a goal set in the goal panel, paused mid-stream, resumed -----------------
# The panel is the user path seed 003 describes: the objective must reach
# the model as the person's message and start a turn; Pause must stop the
# streaming reply at once (no further request); Resume must start work
# again. The fake LLM logs every request it gets (requests.jsonl).
requests() { wc -l <"$out/requests.jsonl" | tr -d ' '; }
wait_requests() { # wait_requests N WHAT: until the model got N requests
  local deadline=$(( $(date +%s) + wait_turn ))
  while [ "$(requests)" -lt "$1" ]; do
    alive
    [ "$(date +%s)" -lt "$deadline" ] || die "$2: the model got $(requests) requests, want $1"
    sleep 0.2
  done
}
last_user() { tail -n 1 "$out/requests.jsonl" | json 'd.messages.filter(m => m.role === "user").pop().content'; }
# turn_of SID N: status and answer of turn N (1-based) of a session, as the CLI reads them.
turn_of() { vis show --json "$1" | json "(t => t ? t.status + '|' + (t.answer || '') : '')(d.turns && d.turns[$2 - 1])"; }
wait_turn_end() { # wait_turn_end SID N WHAT: until turn N ended; prints status|answer
  local got="" deadline=$(( $(date +%s) + wait_turn ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    alive
    got=$(turn_of "$1" "$2")
    case "$got" in '' | running\|*) sleep 0.3 ;; *) echo "$got"; return 0 ;; esac
  done
  die "$3: turn $2 of $1 did not end within ${wait_turn}s ('${got}')"
}
objective='Make every test pass'
click 221 73 # New session
stable "$out/goal-new.png"
before=$(requests)
click $(( w - 42 )) $(( h - 15 )) # the footer's goal badge opens the goal form
sleep 0.5
click 400 79 # the objective field
xdotool type --delay 15 "$objective"
xdotool key Tab
xdotool type --delay 15 "3"
xdotool key Return
wait_requests $(( before + 1 )) "the goal set in the panel"
case "$(last_user)" in *"/goal --budget 3 $objective"*) ;; *) die "the goal panel's objective did not reach the model; its message: $(last_user | tail -n 3)" ;; esac
gsid=$(vis sessions --json | json 'd[0].id')
[ "$(turn_of "$gsid" 1)" = "running|" ] || die "the goal's turn is not running: '$(turn_of "$gsid" 1)'"
sleep 1 # the reasoning streams, then the reply hangs
shot "$out/goal-running.png"
log "the goal panel started a turn with the objective (session $gsid)"
# Pause: the panel's first action button (right-aligned row: Pause, Resume,
# Cancel, Clear, New goal).
click $(( w - 322 )) 79
got=$(wait_turn_end "$gsid" 1 "Pause")
[ "$got" = "halted|Goal stopped by the user." ] || die "after Pause the goal's turn ended '$got', want halted with the goal's message"
n=$(requests)
sleep 1.5
[ "$(requests)" = "$n" ] || die "a request was sent after Pause ($n, then $(requests))"
[ "$(vis goal --session "$gsid" --json | json 'd.status')" = paused ] || die "the goal is not paused"
stable "$out/goal-paused.png"
log "Pause stopped the streaming turn: halted, no request after it"
# Resume: the panel's second button; work goes on in a new turn.
click $(( w - 258 )) 79
wait_requests $(( n + 1 )) "Resume"
case "$(last_user)" in *"/goal --resume"*"The user resumed the session goal"*) ;; *) die "Resume's turn did not carry the resume prompt: $(last_user | tail -n 5)" ;; esac
got=$(wait_turn_end "$gsid" 2 "Resume")
[ "$got" = "done|Every test passes: verified by the run above." ] || die "the resumed turn ended '$got'"
[ "$(vis goal --session "$gsid" --json | json 'd.status')" = complete ] || die "the goal is not complete after the resumed turn"
stable "$out/goal-done.png"
log "Resume started work again; the goal is complete"

# --- 9. a long output: clipped in the transcript, whole in "open full output" ---
# What the page shows is read as text: Ctrl+A, Ctrl+C in the window (the
# pointer over a spot that takes no focus, so the composer's text field
# does not keep the keys), then the X clipboard read by another process.
# page_text FILE: the window's whole text, as copied, into FILE.
neutral_x=270 # the transcript's left padding: no control there
page_text() {
  alive
  /usr/bin/python3 - "$1" <<'PY' || die "could not copy the window's text (Ctrl+A, Ctrl+C)"
import subprocess, sys, time
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402
clip = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
nonce = "vis-smoke-nonce-%f" % time.time()
clip.set_text(nonce, -1)  # ours until the window's copy takes it: never an older copy
while Gtk.events_pending():
    Gtk.main_iteration()
subprocess.run(["xdotool", "key", "ctrl+a", "ctrl+c"], check=True)
deadline = time.time() + 10
while time.time() < deadline:
    t = clip.wait_for_text()
    if t is not None and t != nonce:
        open(sys.argv[1], "w").write(t)
        sys.exit(0)
    time.sleep(0.1)
sys.exit("the window copied nothing within 10 s")
PY
}
# deselect: a click where nothing is, so the next screenshot shows no selection.
deselect() { click "$neutral_x" $(( h / 2 )); }
# text_until FILE WHAT NEEDLE...: copies the window's text until it holds every NEEDLE (up to wait_turn s).
text_until() {
  local f=$1 what=$2 deadline=$(( $(date +%s) + wait_turn )) n missing
  shift 2
  while :; do
    page_text "$f"
    missing=""
    for n in "$@"; do grep -qF -- "$n" "$f" || { missing=$n; break; }; done
    [ -z "$missing" ] && return 0
    [ "$(date +%s)" -lt "$deadline" ] || die "$what: the window never showed '$missing'; its text is in $f"
    sleep 0.3
  done
}
# accent_boxes FILE: the transcript's runs of accent-coloured text (--accent,
# #3b5bdb: links and the output's "show all" / "open full output"), one
# "X Y W H" a line in window coordinates, top to bottom.
accent_boxes() { colour_boxes "$1" '#3b5bdb'; }
# colour_boxes FILE COLOUR: the same for any colour (#c92a2a: --danger, the
# "Run again without the sandbox" button's text and border).
colour_boxes() {
  local top=50 ch=$(( h - 270 ))
  convert "$1" -crop $(( w - 262 ))x${ch}+262+${top} +repage -fuzz 8% \
    -fill black +opaque "$2" -fill white -opaque "$2" -morphology Dilate Rectangle:13x5 \
    -define connected-components:verbose=true -connected-components 8 null: 2>/dev/null |
    awk -v ox=262 -v oy="$top" '$NF == "srgb(255,255,255)" || $NF == "gray(255)" {
      split($2, g, /[x+]/); if (g[1] * g[2] > 60) print g[3] + ox, g[4] + oy, g[1], g[2] }' | sort -n -k2
}
# danger_pixels FILE: pixels of the transcript column (above the composer,
# whose Stop button has it too) in --danger (#c92a2a): the app-error
# banner's border and text.
danger_pixels() {
  convert "$1" -crop $(( w - 262 ))x$(( h - 220 ))+262+50 +repage -fuzz 8% \
    -fill black +opaque '#c92a2a' -fill white -opaque '#c92a2a' -format '%[fx:round(mean*w*h)]' info:
}
click 221 73 # New session
stable "$out/long-new.png"
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Print five thousand lines'
xdotool key Return
lsid=""
deadline=$(( $(date +%s) + wait_turn ))
while [ -z "$lsid" ] || [ "$lsid" = "$gsid" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the long output's request started no session"
  lsid=$(vis sessions --json | json 'd[0].id')
  sleep 0.3
done
got=$(wait_turn_end "$lsid" 1 "the long output")
[ "$got" = "done|Printed them all." ] || die "the long output's turn ended '$got'"
stable "$out/long-clipped.png"
deselect
text_until "$out/long.txt" "the long output's turn" 'clipped at 64.0 KB of 390.6 KB' 'open full output' 'more lines, up to the clip'
grep -qF 'line 5000 of 5000' "$out/long.txt" && die "the transcript shows line 5000 although the output is clipped; see $out/long.txt"
deselect
log "the transcript says the output is clipped and offers 'open full output'"

# --- 10. the real window resized, "show all" on the long output: no error banner ---
# WebKitGTK reports a "ResizeObserver loop" while rows are measured; the
# page must neither show it nor have caused it.
resize() { # resize W H: the window to W x H, once it is that size
  local gw gh
  xdotool windowsize "$wid" "$1" "$2"
  for _ in $(seq 1 40); do
    read -r gw gh < <(xdotool getwindowgeometry --shell "$wid" | awk -F= '/^WIDTH/{x=$2} /^HEIGHT/{y=$2} END{print x, y}')
    [ "$gw" = "$1" ] && [ "$gh" = "$2" ] && return 0
    sleep 0.1
  done
  die "the window did not take the size $1x$2 (it is ${gw}x${gh})"
}
# settled FILE: screenshots until two in a row are identical (up to 15 s);
# cheaper than stable (no blank check, the whole window).
settled() {
  local ae
  alive
  import -window "$wid" "$1" 2>/dev/null || die "screenshot $1 failed"
  for _ in $(seq 1 50); do
    sleep 0.2
    mv "$1" "$tmp/prev.png"
    import -window "$wid" "$1" 2>/dev/null || die "screenshot $1 failed"
    ae=$({ compare -metric AE "$tmp/prev.png" "$1" null: 2>&1 || true; } | sed 's/ .*//')
    [ "$ae" = 0 ] && return 0
  done
  die "the window kept changing for 15 s; see $1"
}
for size in "760 560" "1260 840" "$w $h"; do
  resize $size
  settled "$tmp/resized.png"
done
shot "$out/long-resized.png"
boxes=$(accent_boxes "$out/long-resized.png")
[ "$(echo "$boxes" | grep -c .)" -ge 2 ] || die "no 'show all' and 'open full output' links in the transcript (accent text: '${boxes}'); see $out/long-resized.png"
read -r bx by bw bh < <(echo "$boxes" | tail -n 2 | head -n 1) # "show N more lines", above the clip marker
click $(( bx + 20 )) $(( by + bh / 2 ))
for size in "860 620" "$w $h"; do
  resize $size
  settled "$tmp/resized.png"
done
shot "$out/long-shown.png"
deselect
text_until "$out/shown.txt" "show all" 'show less' 'clipped at 64.0 KB of 390.6 KB'
grep -qF 'Something went wrong' "$out/shown.txt" && die "the window shows an error after resizing and 'show all': $(grep -F 'Something went wrong' "$out/shown.txt")"
deselect
n_danger=$(danger_pixels "$out/long-shown.png")
[ "$n_danger" -lt 30 ] || die "the window shows something in the error colour after resizing (${n_danger} pixels); see $out/long-shown.png"
log "resized 5 times around 'show all': no error banner (${n_danger} error-coloured pixels)"
# "open full output": the last accent run, in the clip marker's row.
boxes=$(accent_boxes "$out/long-shown.png")
read -r bx by bw bh < <(echo "$boxes" | tail -n 1)
click $(( bx + bw / 2 )) $(( by + bh / 2 ))
text_until "$out/full.txt" "open full output" 'line 5000 of 5000: ' '5,000 lines'
n=$(grep -E '^line [0-9]{4} of 5000: x{60}$' "$out/full.txt" | sort -u | wc -l)
[ "$n" = 5000 ] || die "the full output view holds $n of the 5000 lines; see $out/full.txt"
# Its end, as a person scrolls there: a click in the text, then End.
click $(( w / 2 )) $(( h / 2 ))
settled "$tmp/full-top.png"
xdotool key End
settled "$out/full-output.png"
d=$(differ "$tmp/full-top.png" "$out/full-output.png")
awk -v d="$d" 'BEGIN { exit !(d > 0.01) }' || die "End did not scroll the full output view (difference ${d}); see $out/full-output.png"
# Escape closes it (the focus is on the page's body after that click): the
# header is no longer under the view's dimmed backdrop.
xdotool key Escape
header_light() { convert "$1" -format '%[fx:p{500,40}.intensity > 0.9]' info:; }
for _ in $(seq 1 20); do
  shot "$tmp/closed.png"
  [ "$(header_light "$tmp/closed.png")" = 1 ] && break
  sleep 0.3
done
[ "$(header_light "$tmp/closed.png")" = 1 ] || die "Escape did not close the full output view; see $tmp/closed.png"
log "open full output shows all 5,000 lines, up to line 5000"

# --- 11. a running tool's output shows live ----------------------------------
# The program's shell prints three lines, then waits for a file the smoke
# creates only once the window showed them (inside the workspace: the
# model's processes may write nowhere else, and read it there).
rm -f "$tmp/project/gate"
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Run the long thing'
xdotool key Return
deselect
text_until "$out/live.txt" "the live tool output" 'step 1 of the long run' 'step 3 of the long run' 'running…'
[ "$(turn_of "$lsid" 2)" = "running|" ] || die "the live tool's turn is not running: '$(turn_of "$lsid" 2)'"
deselect
shot "$out/live-tool.png" # (a running turn's clock ticks: never stable)
touch "$tmp/project/gate"
got=$(wait_turn_end "$lsid" 2 "the live tool")
[ "$got" = "done|The long run finished." ] || die "the live tool's turn ended '$got'"
case "$(vis show --json "$lsid" | json 'd.turns[1].iterations.map(i => i.output || "").join("")')" in
*'step 3 of the long run'*finished*) ;; *) die "the live tool's program output was not saved whole" ;; esac
text_until "$out/after.txt" "the live tool's end" 'The long run finished.'
grep -qF 'running…' "$out/after.txt" && die "a tool card still says running… after the turn ended; see $out/after.txt"
deselect
stable "$out/live-done.png"
log "the running tool's lines showed live; the turn finished once the gate was made"

# --- 12. the sandbox refuses a write outside the project; one approval re-runs it ---
# The program's shell writes next to the project (in this run's temp
# folder, outside the workspace): confined, it is refused, and the card
# offers "Run again without the sandbox" (a danger-coloured button). One
# click runs that program once more with full access, as a turn of its
# own (channel approval), and the file appears.
rm -f "$tmp/outside.txt"
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Write next to the project'
xdotool key Return
deselect
got=$(wait_turn_end "$lsid" 3 "the refused write")
[ "$got" = "done|The sandbox kept the file out." ] || die "the refused write's turn ended '$got'"
prog_out=$(vis show --json "$lsid" | json 'd.turns[2].iterations.map(i => i.output || "").join("")')
if ! grep -qF 'confined: True' <<<"$prog_out"; then
  # Landlock is not enforced on this kernel: nothing is refused, so there
  # is nothing to approve (backend/confine's tests say the same).
  log "SKIP step 12: the OS sandbox is not enforced here ($(head -n 1 <<<"$prog_out"))"
else
  [ ! -e "$tmp/outside.txt" ] || die "a confined shell wrote outside the workspace: $tmp/outside.txt exists"
  text_until "$out/refused.txt" "the sandbox's refusal" 'The sandbox refused it' 'Run again without the sandbox'
  deselect
  stable "$out/sandbox-refused.png"
  boxes=$(colour_boxes "$out/sandbox-refused.png" '#c92a2a')
  [ -n "$boxes" ] || die "no danger-coloured 'Run again without the sandbox' button; see $out/sandbox-refused.png"
  read -r bx by bw bh < <(echo "$boxes" | tail -n 1) # the newest turn's button, lowest on screen
  click $(( bx + bw / 2 )) $(( by + bh / 2 ))
  got=$(wait_turn_end "$lsid" 4 "the approved re-run")
  case "$got" in done\|*) ;; *) die "the approved re-run's turn ended '$got'" ;; esac
  [ "$(vis show --json "$lsid" | json 'd.turns[3].channel')" = approval ] || die "the re-run is not recorded as an approval turn"
  [ -e "$tmp/outside.txt" ] || die "the approved re-run did not write $tmp/outside.txt"
  text_until "$out/approved.txt" "the approval's record" 'Ran again without the sandbox in turn 4' 'Run again without the sandbox (approved by the person)'
  deselect
  stable "$out/sandbox-approved.png"
  log "the sandbox refused the write; one approval ran it again without the sandbox (turn 4, channel approval)"
fi

# --- 13. "ask" mode: the program waits at the refused call for the person ---
# permissions.ask in config.yml (what Settings → "Ask me at once" saves in
# settings.json) applies from the next turn: the refused write waits while
# the window asks; "Run it without the sandbox" (danger-coloured) runs that
# command once unconfined and the same program goes on.
if grep -qF 'confined: True' <<<"$prog_out"; then
  printf 'permissions:\n  ask: true\n' >>"$tmp/home/config.yml"
  rm -f "$tmp/asked.txt"
  click $(( w / 2 + 130 )) $(( h - 110 ))
  xdotool type --delay 15 'Write next to the project, asking'
  xdotool key Return
  deselect
  text_until "$out/question.txt" "the question at the call" 'The sandbox refused a command; the program waits for you.' "echo asked > $tmp/asked.txt" 'Run it without the sandbox' 'Keep it refused'
  deselect
  [ ! -e "$tmp/asked.txt" ] || die "the asked write happened before the answer"
  [ "$(turn_of "$lsid" 5)" = "running|" ] || die "the asking turn is not running: '$(turn_of "$lsid" 5)'"
  shot "$out/sandbox-question.png" # (a running turn's clock ticks: never stable)
  # The question card sits above the composer: its danger-coloured button
  # is the lowest danger run on screen (the Stop button is in the composer,
  # below the crop).
  boxes=$(colour_boxes "$out/sandbox-question.png" '#c92a2a')
  [ -n "$boxes" ] || die "no danger-coloured 'Run it without the sandbox' button; see $out/sandbox-question.png"
  read -r bx by bw bh < <(echo "$boxes" | tail -n 1)
  click $(( bx + bw / 2 )) $(( by + bh / 2 ))
  got=$(wait_turn_end "$lsid" 5 "the asked write")
  [ "$got" = "done|Written after you said yes." ] || die "the asked write's turn ended '$got'"
  [ -e "$tmp/asked.txt" ] || die "the approved command did not write $tmp/asked.txt"
  case "$(vis show --json "$lsid" | json 'd.turns[4].iterations.map(i => i.output || "").join("")')" in
  *'exit 0'*'went on'*) ;; *) die "the program did not go on with the approved run's result" ;; esac
  text_until "$out/asked.txt" "the answer's record" 'You approved running it without the sandbox'
  grep -qF 'The sandbox refused a command; the program waits for you.' "$out/asked.txt" && die "the question is still shown after the answer"
  deselect
  stable "$out/sandbox-asked.png"
  log "ask mode: the refused write waited at its call; one click ran it without the sandbox and the program went on"
fi

# --- 14. a desktop notification when a turn ends while the window is not focused ---
# The app talks to a private session bus whose notification server is the
# recorder (app/notify/notifytest/recorder). A turn waits for a file; the
# keyboard focus moves to another window (focus-thief), the app logs that
# the page said so (VIS_TRACE_FOCUS), then the file is made: the turn ends
# unfocused and the recorder must get one notification naming the session
# and the answer. The window then shows another session; a click on the
# notification (SIGUSR1 to the recorder) must bring the notified session
# back into view.
rm -f "$tmp/project/gate2"
click 221 73 # New session
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Run the other long thing'
xdotool key Return
nsid=""
deadline=$(( $(date +%s) + wait_turn ))
while [ -z "$nsid" ] || [ "$nsid" = "$lsid" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the notified request started no session"
  nsid=$(vis sessions --json | json 'd[0].id')
  sleep 0.3
done
deadline=$(( $(date +%s) + wait_turn ))
until [ "$(turn_of "$nsid" 1)" = "running|" ]; do # it cannot end before gate2 exists
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the notified turn never ran its program"
  sleep 0.2
done
/usr/bin/python3 - >"$tmp/thief.log" 2>&1 <<'PY' &
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk
w = Gtk.Window(title="vis-smoke-focus-thief")
w.set_default_size(200, 120)
w.move(10, 10)
w.connect("destroy", Gtk.main_quit)
w.show_all()
Gtk.main()
PY
thief_pid=$!
thief=""
for _ in $(seq 1 100); do
  thief=$(xdotool search --onlyvisible --name '^vis-smoke-focus-thief$' 2>/dev/null | head -n 1 || true)
  [ -n "$thief" ] && break
  sleep 0.1
done
[ -n "$thief" ] || die "no focus-thief window: $(cat "$tmp/thief.log")"
xdotool mousemove --window "$thief" 50 50
xdotool windowfocus --sync "$thief"
deadline=$(( $(date +%s) + wait_turn ))
until grep -q 'vis: window focused: false' "$out/app.log"; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the page never said the window lost the focus (log: $(grep 'window focused' "$out/app.log" | tail -n 3))"
  sleep 0.2
done
n_notes=$(grep -c . "$out/notifications.jsonl" 2>/dev/null || true)
touch "$tmp/project/gate2"
got=$(wait_turn_end "$nsid" 1 "the notified turn")
[ "$got" = "done|The other long run finished." ] || die "the notified turn ended '$got'"
deadline=$(( $(date +%s) + wait_turn ))
until [ "$(grep -c . "$out/notifications.jsonl" 2>/dev/null || echo 0)" -gt "${n_notes:-0}" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "no desktop notification for a turn that ended while the window was not focused"
  sleep 0.2
done
note=$(tail -n 1 "$out/notifications.jsonl")
case "$(json 'd.summary + "|" + d.body' <<<"$note")" in
"Vis — Run the other long thing|Done: The other long run finished.") ;;
*) die "the notification says: $note" ;;
esac
log "a turn that ended while the window was not focused sent one notification: $(json 'd.body' <<<"$note")"
# The sidebar marks the session until the person is back: a turn finished
# while they were away (an --ok green dot beside its title, the sidebar's
# only green; the screenshot needs no focus).
shot "$out/unread-dot.png"
n_ok=$(convert "$out/unread-dot.png" -crop 262x$(( h - 100 ))+0+50 +repage -fuzz 8% -fill black +opaque '#2b8a3e' -fill white -opaque '#2b8a3e' -format '%[fx:round(mean*w*h)]' info:)
[ "$n_ok" -ge 20 ] || die "no 'finished while you were away' dot in the sidebar (${n_ok} green pixels); see $out/unread-dot.png"
# Back to the window, on another session; the click must bring the
# notified one back.
xdotool windowfocus --sync "$wid"
xdotool mousemove --window "$wid" "$neutral_x" $(( h / 2 ))
kill "$thief_pid" 2>/dev/null || true
wait "$thief_pid" 2>/dev/null || true
click 221 73 # New session: an empty transcript
text_until "$out/before-click.txt" "a new session before the click" 'Describe what you want done in'
grep -qF 'The other long run finished.' "$out/before-click.txt" && die "the new session still shows the notified turn"
kill -USR1 "$rec_pid"
text_until "$out/after-click.txt" "the session a notification click opens" 'The other long run finished.' 'Run the other long thing'
deselect
stable "$out/notified.png"
log "clicking the notification opened its session in the window"

# --- 15. a turn's checkpoint: its diff, and Undo turn restores the files ---
# A program writes notes.txt: the turn card says what changed ("1 file
# changed +2 −0", the transcript's lowest link); a click opens the diff
# (the file named with its lines); Tab moves from that link to "Undo turn"
# and Return undoes it: notes.txt is gone from disk and the undo is the
# session's turn 2.
click 221 73 # New session
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Write the notes'
xdotool key Return
csid=""
deadline=$(( $(date +%s) + wait_turn ))
while [ -z "$csid" ] || [ "$csid" = "$nsid" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the checkpointed request started no session"
  csid=$(vis sessions --json | json 'd[0].id')
  sleep 0.3
done
got=$(wait_turn_end "$csid" 1 "the checkpointed turn")
[ "$got" = "done|Wrote notes.txt." ] || die "the checkpointed turn ended '$got'"
case "$(last_user)" in *'Write the notes'*) ;; *) die "the checkpointed request did not reach the model: $(last_user | tail -n 3)" ;; esac
[ "$(cat "$tmp/project/notes.txt" 2>/dev/null)" = "$(printf 'one\ntwo')" ] || die "the turn did not write notes.txt"
deselect
text_until "$out/checkpoint.txt" "the turn's changes" '1 file changed +2 −0' 'Undo turn'
deselect
stable "$tmp/checkpoint.png"
boxes=$(accent_boxes "$tmp/checkpoint.png")
[ -n "$boxes" ] || die "no accent-coloured '1 file changed' link; see $tmp/checkpoint.png"
read -r bx by bw bh < <(echo "$boxes" | tail -n 1)
click $(( bx + bw / 2 )) $(( by + bh / 2 ))
text_until "$out/checkpoint-diff.txt" "the turn's diff" 'added notes.txt +2 −0' '+one' '+two'
shot "$out/checkpoint-diff.png"
[ -e "$tmp/project/notes.txt" ] || die "opening the diff changed the files"
xdotool key Tab Return # from the link to "Undo turn"
deadline=$(( $(date +%s) + wait_turn ))
while [ -e "$tmp/project/notes.txt" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "Undo turn did not remove notes.txt"
  sleep 0.2
done
got=$(wait_turn_end "$csid" 2 "the undo")
case "$got" in "done|Turn 1 was undone"*) ;; *) die "the undo's turn ended '$got'" ;; esac
[ "$(vis show --json "$csid" | json 'd.turns[1].channel')" = undo ] || die "the undo is not recorded as a turn of channel undo"
deselect
text_until "$out/checkpoint-undone.txt" "the undo in the transcript" 'Undo turn 1' 'undone by turn 2' 'Redo turn 1'
deselect
stable "$out/checkpoint-undone.png"
log "the turn's card said 1 file changed, its diff named notes.txt, and Undo turn removed the file (turn 2, channel undo)"

# --- 16. two sessions side by side, streaming at the same time ---
# A turn starts in the open pane; Ctrl+\ opens a second pane beside it (a
# new session, its composer focused), where a second request starts a
# second session while the first still runs: both turns run at once (read
# through the CLI; each first runs a program that waits for its gate file,
# so neither can end before both were seen running, however busy the
# machine). Then the left's answer streams slowly and the right's arrives
# while it does; each pane shows its own answer, each request reached the
# model alone, and after a restart both panes come back.
rm -f "$tmp/gate3" "$tmp/gate4" # outside the project: the turns change no file
click 221 73 # New session in the (only) pane
click $(( w / 2 + 130 )) $(( h - 110 ))
xdotool type --delay 15 'Left long request'
xdotool key Return
lsid=""
deadline=$(( $(date +%s) + wait_turn ))
while [ -z "$lsid" ] || [ "$lsid" = "$csid" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the left request started no session"
  lsid=$(vis sessions --json | json 'd[0].id')
  sleep 0.3
done
known=$(vis sessions --json | json 'd.map(x => x.id).join(" ")')
xdotool key ctrl+backslash
sleep 1
# The right pane's composer has the keyboard; a click there makes sure.
click $(( 260 + (w - 260) * 3 / 4 )) $(( h - 110 ))
xdotool type --delay 15 'Right request'
xdotool key Return
rsid=""
both=0
deadline=$(( $(date +%s) + wait_turn ))
while :; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the right request: no second session running beside the first (left $(turn_of "$lsid" 1), right '$rsid')"
  [ -n "$rsid" ] || rsid=$(vis sessions --json | json "(d.find(x => !'$known'.split(' ').includes(x.id)) || {}).id || ''")
  if [ -n "$rsid" ]; then
    l=$(turn_of "$lsid" 1)
    r=$(turn_of "$rsid" 1)
    case "$l/$r" in running\|*/running\|*) both=1; break ;; done\|*/*) break ;; esac
  fi
  sleep 0.2
done
[ "$both" = 1 ] || die "the two sessions never ran at the same time (left '$l', right '$r')"
# The left's answer first (the fake serves replies in order), then the
# right's while the left's still streams.
n=$(requests)
touch "$tmp/gate3"
deadline=$(( $(date +%s) + wait_turn ))
until [ "$(requests)" -gt "$n" ]; do
  alive
  [ "$(date +%s)" -lt "$deadline" ] || die "the left pane's program did not go on after its gate"
  sleep 0.2
done
touch "$tmp/gate4"
sleep 1
import -window "$wid" "$out/split-streaming.png" 2>/dev/null || true
got=$(wait_turn_end "$rsid" 1 "the right pane's turn")
[ "$got" = "done|The right pane's answer arrives beside the left one." ] || die "the right pane's turn ended '$got'"
got=$(wait_turn_end "$lsid" 1 "the left pane's turn")
case "$got" in "done|The left pane's answer streams slowly"*) ;; *) die "the left pane's turn ended '$got'" ;; esac
[ "$(vis show --json "$rsid" | json 'd.turns[0].request')" = 'Right request' ] || die "the right pane's request is not its session's turn 1"
[ "$(vis show --json "$lsid" | json 'd.turns.length')" = 1 ] || die "the left session got more than its own turn"
grep -F 'Right request' "$out/requests.jsonl" | grep -qF 'Left long request' && die "a request carried both panes' messages"
deselect
text_until "$out/split.txt" "both panes" "The left pane's answer streams slowly" "The right pane's answer arrives beside the left one."
deselect
stable "$out/split.png"
layout=$(json 'JSON.stringify((d.layout || {}).panes || [])' <"$tmp/home/desktop/window.json")
case "$layout" in *"$lsid"*"$rsid"*) ;; *) die "window.json does not remember the two panes: $layout" ;; esac
stop_app
start_app
painted "$tmp/split-restart.png"
text_until "$out/split-restart.txt" "both panes after a restart" "The left pane's answer streams slowly" "The right pane's answer arrives beside the left one."
deselect
stable "$out/split-restart.png"
log "two panes streamed two sessions at once (left $lsid, right $rsid) and came back after a restart"

# Nothing the page threw reached its error log (the app-error banner's twin).
flog="$tmp/home/desktop/logs/frontend.log"
[ ! -s "$flog" ] || die "the page logged uncaught errors: $(head -c 800 "$flog")"

log "ok in $(( $(date +%s) - t0 ))s: $out/turn.png, $out/reopened.png, $out/restart.png, $out/dropped.png, $out/dropped-text.png, $out/pasted.png, $out/goal-running.png, $out/goal-paused.png, $out/goal-done.png, $out/long-shown.png, $out/full-output.png, $out/live-tool.png, $out/sandbox-refused.png, $out/sandbox-approved.png, $out/sandbox-question.png, $out/sandbox-asked.png, $out/notified.png, $out/checkpoint-diff.png, $out/checkpoint-undone.png, $out/split-streaming.png, $out/split.png, $out/split-restart.png"
