# Vis Desktop. On a fresh Debian/Ubuntu machine (as root, or a user with sudo):
#   make run    install what is missing, build build/bin/vis-desktop (the window) and
#               build/bin/vis (headless CLI), link both into ~/.local/bin, install a
#               launcher, open the window
#   make test   install what is missing, then every test, GUI smoke test included
#   make package  build/package/vis-desktop_<version>_<arch>.deb (scripts/package.sh)
#   make bench  engine benchmarks, whole vis/vis-desktop processes, the window (docs/PERFORMANCE.md)
#   make bench-cli    only the whole-process figures of build/bin/vis (and vis-desktop if built)
#   make bench-engine only issue 17's engine figures with their spread (gap, bytes, sessions)
#   make bench-start  only the window's first start and restart (build/bin/vis-desktop)
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
GOBIN := $(shell go env GOPATH 2>/dev/null)/bin
WAILS := $(GOBIN)/wails

.PHONY: run build launcher test test-frontend test-go smoke bench bench-cli bench-engine bench-start bindings clean

run: build launcher
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  echo "make run: no display (DISPLAY/WAYLAND_DISPLAY unset); built build/bin/vis-desktop and build/bin/vis, installed vis and vis-desktop in ~/.local/bin and the launcher, not opening the window" >&2; exit 1; fi
	build/bin/vis-desktop

build:
	scripts/build.sh

launcher:
	scripts/install-launcher.sh

# build/package/vis-desktop_<version>_<arch>.deb (both binaries, the launcher, Depends on
# WebKitGTK/GTK): sudo apt install ./build/package/vis-desktop_*.deb
.PHONY: package
package:
	scripts/package.sh

# Regenerates frontend/wailsjs (Go bindings + runtime) from the Go code.
bindings:
	scripts/deps.sh build
	$(WAILS) generate module

test:
	scripts/deps.sh test
	@scripts/timed.sh "frontend: bindings" $(MAKE) --no-print-directory bindings
	@scripts/timed.sh "frontend: npm ci" bash -c 'cd frontend && npm ci --no-audit --no-fund --loglevel=error'
	@scripts/timed.sh "frontend: svelte-check" bash -c 'cd frontend && npm run --silent check'
	@scripts/timed.sh "frontend: vitest" bash -c 'cd frontend && npx vitest run'
	@scripts/timed.sh "go vet" go vet ./...
	@scripts/timed.sh "go mod tidy check" scripts/tidy-check.sh
	@scripts/timed.sh "build the binaries" scripts/build.sh
	@scripts/beside.sh "go test -race" -- go test -race ./... -- "e2e in Chromium, then the GUI smoke" -- \
		bash -c 'scripts/timed.sh "e2e in Chromium" scripts/e2e.sh && SMOKE_SKIP_BUILD=1 scripts/timed.sh "GUI smoke" scripts/smoke.sh'
	@scripts/timed.sh "fuzz the sandbox (10 s)" go test ./backend/sandbox -run '^$$' -fuzz '^FuzzExec$$' -fuzztime 10s -fuzzminimizetime 0
	@scripts/timed.sh "package" env PACKAGE_SKIP_BUILD=1 scripts/package-test.sh

test-frontend:
	cd frontend && npm run check && npx vitest run

test-go:
	go vet ./... && go test -race ./...

smoke:
	scripts/smoke.sh

# The reliability soak (docs/RELIABILITY.md), not part of make test: 500 turns of
# hostile programs and provider faults in one engine; fails on any leak.
.PHONY: soak
soak:
	mkdir -p build
	VIS_SOAK=1 VIS_SOAK_REPORT=build/soak-report.txt nice go test -run '^TestSoak$$' -count=1 -timeout 60m -v ./backend

ENGINE_BENCH := ^Benchmark(TurnGap|StoreBytesPerTurn|SessionsAtScale)$$

bench:
	scripts/deps.sh test
	scripts/build.sh
	go test -run '^$$' -bench . -skip '$(ENGINE_BENCH)' -benchmem ./...
	$(MAKE) --no-print-directory bench-engine
	BENCH_CLI_SKIP_BUILD=1 scripts/bench-cli.sh
	BENCH_SKIP_BUILD=1 scripts/bench-ui.sh

# Issue 17's engine figures, several runs each so their spread shows (docs/PERFORMANCE.md,
# "Long turns and big histories"): the gap between a response and the next request and the
# request bytes of a 200-iteration turn, the database's bytes per one-turn session, and
# vis sessions / --search at 1,000 and 10,000 sessions.
bench-engine:
	go test ./backend -run '^$$' -bench '^Benchmark(TurnGap|StoreBytesPerTurn)$$' -benchtime 3x -count 5
	go test ./backend/store -run '^$$' -bench '^BenchmarkSessionsAtScale$$' -count 3

# Whole processes of build/bin/vis (rebuilt: seconds) and of build/bin/vis-desktop
# when built: start, one turn, 20 and 200 iterations, peak RSS (docs/PERFORMANCE.md).
bench-cli:
	scripts/bench-cli.sh

bench-start:
	scripts/deps.sh test
	BENCH_START_ONLY=1 scripts/bench-ui.sh

clean:
	rm -rf build/bin build/smoke frontend/dist/assets frontend/dist/index.html

# Explores the pre-pass and the sandbox with new inputs (FUZZTIME each, default 2m).
# Not in make test: a random run that meets a new input would make CI fail
# at random (FuzzPrepass's last three 3-minute runs, 2 December 2026, found
# none); make test runs its seeds and every input found so far
# (testdata/fuzz) in go test.
# A failure here writes the input under testdata/fuzz: fix it, keep the file.
FUZZTIME ?= 2m
.PHONY: fuzz
fuzz:
	go test ./backend/sandbox/pyprep -run '^$$' -fuzz '^FuzzPrepass$$' -fuzztime $(FUZZTIME)
	go test ./backend/sandbox -run '^$$' -fuzz '^FuzzExec$$' -fuzztime $(FUZZTIME)
