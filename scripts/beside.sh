#!/usr/bin/env bash
# beside.sh LABEL_A -- CMD_A... -- LABEL_B -- CMD_B...: runs two steps of make
# test at the same time (each through timed.sh), shows A's output as it comes
# and B's whole when both are done, and fails when either fails.
#
# make test runs the Chromium e2e and then the real-window smoke beside `go
# test -race`: the race tests keep both cores busy in bursts (compiling, then
# packages that wait on real processes), the window tests mostly wait on a
# browser, a WebKit window and the fake LLM, so together they take about as
# long as the longer side instead of the sum (figures: docs/PERFORMANCE.md,
# "make test time"). The window binary is built before (scripts/build.sh
# rewrites frontend/dist, which the Go tests compile into the root package),
# and the e2e builds its page into a folder of its own. Every test of both must already
# pass on a loaded machine (CI runs on busy machines), so this adds no
# timing risk of its own.
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$2" = "--" ] || { echo "usage: beside.sh LABEL_A -- CMD_A... -- LABEL_B -- CMD_B..." >&2; exit 2; }
label_a=$1; shift 2
cmd_a=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd_a+=("$1"); shift; done
[ $# -ge 3 ] || { echo "beside.sh: no second step" >&2; exit 2; }
shift
label_b=$1; shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# B in its own process group, so an interrupt of make ends it and its children.
setsid scripts/timed.sh "$label_b" "$@" >"$log" 2>&1 &
b=$!
trap 'kill -TERM -- "-$b" 2>/dev/null; rm -f "$log"; exit 130' INT TERM
scripts/timed.sh "$label_a" "${cmd_a[@]}"
rc_a=$?
wait "$b"
rc_b=$?
printf '\033[1;34m[test]\033[0m the output of "%s", which ran beside "%s":\n' "$label_b" "$label_a" >&2
cat "$log" >&2
[ $rc_a -eq 0 ] && [ $rc_b -eq 0 ]
