#!/usr/bin/env bash
# The package's test (in make test): builds the .deb (scripts/package.sh), installs it
# into a scratch root without touching the system (dpkg -x) and checks
#   - the Debian versions package.sh makes from `git describe` (a table);
#   - its control fields (dpkg-deb -f): Package, a valid Debian Version carrying the
#     binaries' `vis version`, this machine's Architecture, Depends naming WebKitGTK and
#     GTK, Recommends python3 and git; apt resolves its Depends (apt-get install -s:
#     simulated, nothing installed);
#   - its files (dpkg-deb -c): /usr/bin/vis and /usr/bin/vis-desktop mode 0755, the
#     launcher, the 256x256 icon, copyright, changelog.gz and the lintian override mode
#     0644, nothing else;
#   - the installed files: both binaries byte for byte build/bin's, `vis version` and
#     `vis-desktop version` print the built version, the launcher runs vis-desktop with the
#     icon the package installs (desktop-file-validate when installed, else skipped);
#   - one turn of the installed `vis run` against the fake LLM, whose program runs a shell
#     command (through the installed binary's own sandbox helper) and sees its output.
# Fails (exit 1) naming every check that failed.
#   scripts/package-test.sh                     build both binaries and the .deb, then check
#   PACKAGE_SKIP_BUILD=1 scripts/package-test.sh  package build/bin as it is, then check
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1;34m[package-test]\033[0m %s\n' "$*" >&2; }
failed=0
fail() { printf '\033[1;31m[package-test] FAIL\033[0m %s\n' "$*" >&2; failed=$((failed + 1)); }
ok() { printf '\033[1;32m[package-test] ok\033[0m %s\n' "$*" >&2; }

tmp=$(mktemp -d)
llm_pid=""
cleanup() {
  if [ -n "$llm_pid" ]; then kill "$llm_pid" 2>/dev/null || true; wait "$llm_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# --- the Debian version made from git describe ---------------------------------
before=$failed
while read -r describe want; do
  got=$(VIS_DEB_DATE=20260101 scripts/package.sh --debversion "$describe")
  if [ "$got" != "$want" ]; then fail "debversion $describe = $got, want $want"
  elif ! dpkg --validate-version "$got" 2>/dev/null; then fail "debversion $describe = $got: not a valid Debian version"; fi
done <<'TABLE'
v1.2.3 1.2.3
1.2.3-dirty 1.2.3+dirty
v1.2.3-4-gabc1234 1.2.3+git20260101.4.abc1234
v1.0.0-rc1 1.0.0~rc1
v1.0.0-rc1-2-gabc1234-dirty 1.0.0~rc1+git20260101.2.abc1234.dirty
7e35368 0.0.0~git20260101.7e35368
7e35368-dirty 0.0.0~git20260101.7e35368.dirty
dev 0.0.0~dev
TABLE
[ "$failed" -ne "$before" ] || ok "Debian versions from git describe"
dpkg --compare-versions 1.0.0~rc1 lt 1.0.0 && dpkg --compare-versions 0.0.0~git20990101.abc1234 lt 0.0.1 ||
  fail "a pre-release or an untagged build does not sort below the release"

deb=$(scripts/package.sh | tail -n 1)
[ -f "$deb" ] || { fail "scripts/package.sh named no .deb (got '$deb')"; exit 1; }
say "$deb"
described=$(build/bin/vis version | awk '{print $2}')

# --- control fields -----------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = vis-desktop ] && ok "Package: vis-desktop" || fail "Package is '$(field Package)', want vis-desktop"
version=$(field Version)
if dpkg --validate-version "$version" 2>/dev/null && [[ "$version" =~ ^[0-9] ]]; then
  ok "Version: $version (a Debian version)"
else
  fail "Version '$version' is not a valid Debian version starting with a digit"
fi
# The version carries the build's: its hash (untagged) or its tag.
core=${described#v}; core=${core%-dirty}; core=${core##*-g}; core=${core//-/\~}
case "$version" in
  *"$core"*) ok "Version $version carries the build's $described" ;;
  *) fail "Version $version does not carry the build's $described ($core)" ;;
esac
case "$described" in
  *-dirty) [[ "$version" == *dirty ]] || fail "Version $version hides that the build $described is dirty" ;;
esac
arch=$(dpkg --print-architecture)
[ "$(field Architecture)" = "$arch" ] && ok "Architecture: $arch" || fail "Architecture is '$(field Architecture)', want $arch"
depends=$(field Depends)
for want in 'libwebkit2gtk-4\.[01]' 'libgtk-3-0'; do
  grep -Eq "(^|[ ,|])$want" <<<"$depends" && ok "Depends names $want" || fail "Depends '$depends' names no $want"
done
recommends=$(field Recommends)
for want in python3 git; do
  grep -Eq "(^|[ ,])$want(,|$)" <<<"$recommends" && ok "Recommends $want" || fail "Recommends '$recommends' lacks $want"
done

# apt on this machine can resolve every Depends (simulated: nothing is installed).
if out=$(apt-get install -s "./$deb" 2>&1) && grep -q '^Inst vis-desktop ' <<<"$out"; then
  ok "apt-get install -s resolves its dependencies"
else
  fail "apt-get install -s ./$deb: $(grep -E 'Depends|^E:' <<<"$out" | head -n 5)"
fi

# --- the file list ------------------------------------------------------------
declare -A want_mode=(
  [/usr/bin/vis]=-rwxr-xr-x
  [/usr/bin/vis-desktop]=-rwxr-xr-x
  [/usr/share/applications/vis-desktop.desktop]=-rw-r--r--
  [/usr/share/icons/hicolor/256x256/apps/vis-desktop.png]=-rw-r--r--
  [/usr/share/doc/vis-desktop/copyright]=-rw-r--r--
  [/usr/share/doc/vis-desktop/changelog.gz]=-rw-r--r--
  [/usr/share/lintian/overrides/vis-desktop]=-rw-r--r--
)
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {p=$6; sub(/^\./, "", p); print $1, p}' >"$tmp/files"
for p in "${!want_mode[@]}"; do
  mode=$(awk -v p="$p" '$2==p {print $1}' "$tmp/files")
  if [ -z "$mode" ]; then fail "$p is not in the package"
  elif [ "$mode" != "${want_mode[$p]}" ]; then fail "$p has mode $mode, want ${want_mode[$p]}"
  else ok "$p $mode"; fi
done
while read -r mode p; do
  [ -n "${want_mode[$p]:-}" ] || fail "unexpected file in the package: $p ($mode)"
done <"$tmp/files"

# --- installed into a scratch root --------------------------------------------
root=$tmp/root
dpkg -x "$deb" "$root"
for b in vis vis-desktop; do
  cmp -s "$root/usr/bin/$b" "build/bin/$b" && ok "/usr/bin/$b is build/bin/$b" || fail "/usr/bin/$b differs from build/bin/$b"
done
got=$("$root/usr/bin/vis" version 2>&1) || true
[ "$got" = "vis $described" ] && ok "installed vis version: $got" || fail "installed vis version printed '$got', want 'vis $described'"
got=$("$root/usr/bin/vis-desktop" version 2>&1) || true
[ "$got" = "vis $described" ] && ok "installed vis-desktop version: $got" || fail "installed vis-desktop version printed '$got', want 'vis $described'"

desktop=$root/usr/share/applications/vis-desktop.desktop
grep -qx 'Exec=vis-desktop %f' "$desktop" && ok "launcher runs vis-desktop from PATH" || fail "launcher's Exec is '$(grep ^Exec= "$desktop")', want 'Exec=vis-desktop %f'"
icon=$(sed -n 's/^Icon=//p' "$desktop")
[ -f "$root/usr/share/icons/hicolor/256x256/apps/$icon.png" ] && ok "launcher's icon $icon is installed" || fail "launcher's Icon=$icon has no /usr/share/icons/hicolor/256x256/apps/$icon.png"
size=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", b[16:24]) if b[:8]==b"\x89PNG\r\n\x1a\n" else "not a PNG")' \
  "$root/usr/share/icons/hicolor/256x256/apps/$icon.png" 2>&1) || true
[ "$size" = 256x256 ] && ok "icon is a 256x256 PNG" || fail "icon in 256x256/apps is $size"
if command -v desktop-file-validate >/dev/null; then
  if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then ok "desktop-file-validate"; else fail "desktop-file-validate: $out"; fi
else
  say "desktop-file-validate is not installed (apt install desktop-file-utils): launcher not validated"
fi

# --- one turn of the installed vis against the fake LLM ------------------------
say "build fakellm"
go build -o "$tmp/fakellm" ./backend/provider/providertest/fakellm
cat >"$tmp/script.json" <<'JSON'
[
  {"code": "r = shell('echo from-the-$((6*7))-package')\nprint(r['output'])", "usage": {"input_tokens": 100, "output_tokens": 10}},
  {"content": ["The packaged vis ran a program."], "usage": {"input_tokens": 200, "output_tokens": 6}}
]
JSON
"$tmp/fakellm" -script "$tmp/script.json" -addr 127.0.0.1:0 -requests "$tmp/requests.jsonl" >"$tmp/fakellm.log" 2>&1 &
llm_pid=$!
base_url=""
for _ in $(seq 1 300); do
  base_url=$(awk '/^listening /{print $2; exit}' "$tmp/fakellm.log")
  [ -n "$base_url" ] && break
  kill -0 "$llm_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$base_url" ]; then
  fail "fakellm did not start: $(cat "$tmp/fakellm.log")"
else
  mkdir -p "$tmp/home" "$tmp/project"
  if out=$(cd "$tmp/project" && env -i PATH="$root/usr/bin:/usr/bin:/bin" HOME="$tmp/home" VIS_HOME="$tmp/home" \
    VIS_BASE_URL="$base_url" VIS_MODEL=fake-model VIS_API_KEY=package-test \
    "$root/usr/bin/vis" run "run a command" 2>"$tmp/run.err"); then
    [ "$out" = "The packaged vis ran a program." ] && ok "installed vis run: one turn answered" || fail "installed vis run printed '$out'"
  else
    fail "installed vis run exited $?: $(cat "$tmp/run.err")"
  fi
  # The shell's output reached the model in the second request: the program ran.
  grep -q 'from-the-42-package' "$tmp/requests.jsonl" 2>/dev/null && ok "the turn's shell command ran (its output went back to the model)" ||
    fail "the second request did not carry the shell's output: $(head -c 600 "$tmp/requests.jsonl" 2>/dev/null)"
fi

if [ "$failed" -gt 0 ]; then
  printf '\033[1;31m[package-test]\033[0m %d check(s) failed\n' "$failed" >&2
  exit 1
fi
say "all checks passed"
