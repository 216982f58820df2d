#!/usr/bin/env bash
# tidy-check.sh: fails, printing the diff, when `go mod tidy` would change go.mod or go.sum.
#
# Copies go.mod and go.sum to a temp dir, tidies the copies there
# (go mod tidy -modfile=COPY) and diffs them against the originals. The
# originals are never written, so a run cannot leave them changed and there is
# nothing to restore: putting back a saved copy could only undo an edit someone
# else made in the shared checkout meanwhile. The trap removes the temp dir on
# every exit. Network: only the module proxy (GOPROXY), for modules not
# already in the module cache.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp go.mod "$tmp/orig.mod"
cp go.sum "$tmp/orig.sum"
cp go.mod "$tmp/go.mod" # go mod tidy -modfile=X/go.mod uses X/go.sum
cp go.sum "$tmp/go.sum"

if ! GOFLAGS="${GOFLAGS:-} -mod=mod" go mod tidy -modfile="$tmp/go.mod"; then
  echo "tidy-check: go mod tidy failed (see above)" >&2
  exit 1
fi

rc=0
diff -u --label go.mod --label 'go.mod after go mod tidy' "$tmp/orig.mod" "$tmp/go.mod" || rc=1
diff -u --label go.sum --label 'go.sum after go mod tidy' "$tmp/orig.sum" "$tmp/go.sum" || rc=1
if [ $rc -ne 0 ]; then
  echo "tidy-check: go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result (diff above)" >&2
fi
exit $rc
