#!/usr/bin/env bash
# Whole-process figures of the binaries as shipped (cmd/vis BenchmarkProcess):
# `vis version`, one-turn, 20- and 200-iteration `vis run` against the scripted
# fake LLM, and a one-turn run into an empty VIS_HOME; wall time from start to
# reaping and, for a turn, from the answer on stdout to the reaping (exit-ms),
# each as median, min and max; peak RSS from /usr/bin/time; the request body.
# Nothing here asserts a figure: it measures (docs/PERFORMANCE.md quotes them).
#
#   scripts/bench-cli.sh              build build/bin/vis (headless: seconds), measure it,
#                                     and build/bin/vis-desktop when it exists
#   BENCH_CLI_RUNS=N                  processes per case (default 20)
#   BENCH_CLI_DESKTOP=0               the headless binary only
#   BENCH_CLI_SKIP_BUILD=1            measure build/bin/vis as it is
# make bench builds both first (scripts/build.sh); run that once for the desktop figures.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${BENCH_CLI_SKIP_BUILD:-0}" != 1 ]; then
  scripts/build.sh --headless
fi
export VIS_BENCH_BIN=$PWD/build/bin/vis
[ -x "$VIS_BENCH_BIN" ] || { echo "bench-cli: $VIS_BENCH_BIN is missing (scripts/build.sh --headless)" >&2; exit 1; }
desktop=$PWD/build/bin/vis-desktop
if [ "${BENCH_CLI_DESKTOP:-1}" != 0 ] && [ -x "$desktop" ]; then
  export VIS_BENCH_DESKTOP=$desktop
  last=$(git log -1 --format=%ct 2>/dev/null || echo 0)
  if [ "$(stat -c %Y "$desktop")" -lt "$last" ]; then
    echo "bench-cli: note: $desktop is older than the last commit (scripts/build.sh rebuilds it)" >&2
  fi
else
  echo "bench-cli: measuring the headless binary only ($desktop: not built, or BENCH_CLI_DESKTOP=0)" >&2
fi
command -v /usr/bin/time >/dev/null || echo "bench-cli: /usr/bin/time is missing (apt-get install time): no peak RSS" >&2
printf '\033[1;34m[bench-cli]\033[0m %s, load %s\n' "$(git describe --always --dirty 2>/dev/null || echo '?')" "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
go test ./cmd/vis -run '^$' -bench '^BenchmarkProcess$' -benchtime "${BENCH_CLI_RUNS:-20}x" -timeout 60m
# The load at the end too: wall times mean little without it (CPU times move least).
printf '\033[1;34m[bench-cli]\033[0m done, load %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
