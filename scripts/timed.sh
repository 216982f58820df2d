#!/usr/bin/env bash
# timed.sh LABEL CMD...: runs CMD and prints how long it took (for make test).
set -uo pipefail
label=$1; shift
start=$(date +%s)
printf '\033[1;34m[test]\033[0m %s\n' "$label" >&2
"$@"
rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -eq 0 ]; then
  printf '\033[1;32m[test]\033[0m %s ok in %ss\n' "$label" "$took" >&2
else
  printf '\033[1;31m[test]\033[0m %s FAILED (exit %s) after %ss\n' "$label" "$rc" "$took" >&2
fi
exit $rc
