#!/usr/bin/env bash
# Builds the Debian package of Vis Desktop (make package):
#   build/package/vis-desktop_<version>_<arch>.deb
# holding /usr/bin/vis (headless CLI), /usr/bin/vis-desktop (the window), the launcher
# /usr/share/applications/vis-desktop.desktop, its 256x256 icon in hicolor,
# /usr/share/doc/vis-desktop/{copyright,changelog.gz} and a lintian override (vis is
# static on purpose); Depends: the packages that hold the libraries
# vis-desktop links (WebKitGTK, GTK, GLib: read from the binary with objdump and dpkg -S,
# so the .deb fits the distribution it was built on, webkit2gtk-4.0 or 4.1); Recommends:
# python3, git. Install it with `sudo apt install ./build/package/vis-desktop_*.deb`.
#   scripts/package.sh                     build both binaries (scripts/build.sh), then the .deb
#   PACKAGE_SKIP_BUILD=1 scripts/package.sh  package build/bin as it is
# Version: the one built into the binaries (`vis version`, from `git describe --tags
# --always --dirty`) made a Debian version, which must start with a digit:
#   v1.2.3 / 1.2.3              -> 1.2.3
#   v1.2.3-4-gabc1234[-dirty]   -> 1.2.3+git<date>.4.abc1234[.dirty]
#   abc1234[-dirty] (no tag)    -> 0.0.0~git<date>.abc1234[.dirty]
# where <date> is the commit's date (UTC, YYYYMMDD), so untagged builds sort by date
# and below any tagged release. nfpm (github.com/goreleaser/nfpm/v2) runs pinned with
# `go run ...@v2.45.2` from the Go module proxy; go.mod is not touched.
# AppImage: not built (appimagetool is not packaged by Debian/Ubuntu).
set -euo pipefail
cd "$(dirname "$0")/.."

NFPM=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2
out=build/package
say() { printf '\033[1;34m[package]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[package]\033[0m %s\n' "$*" >&2; exit 1; }

command -v dpkg >/dev/null || die "dpkg is missing: the package is a .deb for Debian/Ubuntu"
# debversion DESCRIBE: the Debian version of a `git describe --tags --always --dirty`.
# A tag's own hyphens become ~ (v1.0.0-rc1 -> 1.0.0~rc1, which sorts before 1.0.0).
debversion() {
  local d=${1#v} dirty="" date hash tag
  case "$d" in *-dirty) dirty=.dirty; d=${d%-dirty} ;; esac
  commit_date() {
    [ -z "${VIS_DEB_DATE:-}" ] || { echo "$VIS_DEB_DATE"; return; } # the tests' fixed date
    TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d "$1" 2>/dev/null || TZ=UTC date +%Y%m%d
  }
  if [[ "$d" =~ ^([0-9][0-9A-Za-z.-]*)-([0-9]+)-g([0-9a-f]{4,40})$ ]]; then # commits after a tag
    tag=${BASH_REMATCH[1]//-/\~} hash=${BASH_REMATCH[3]}
    date=$(commit_date "$hash")
    echo "${tag}+git${date}.${BASH_REMATCH[2]}.${hash}${dirty}"
  elif [[ "$d" =~ ^[0-9a-f]{7,40}$ ]]; then # no tag: an abbreviated hash (may start with a digit)
    date=$(commit_date "$d")
    echo "0.0.0~git${date}.${d}${dirty}"
  elif [[ "$d" =~ ^[0-9][0-9A-Za-z.-]*$ ]]; then # a tag
    tag=${d//-/\~}
    if [ -n "$dirty" ]; then echo "${tag}+dirty"; else echo "$tag"; fi
  else # not from git (dev)
    echo "0.0.0~$(printf '%s' "$d" | tr -c '0-9A-Za-z.+~' '.')${dirty}"
  fi
}

if [ "${1:-}" = --debversion ]; then # scripts/package.sh --debversion DESCRIBE (package-test.sh's table)
  debversion "${2:?usage: scripts/package.sh --debversion DESCRIBE}"
  exit 0
fi
[ $# -eq 0 ] || die "usage: scripts/package.sh (PACKAGE_SKIP_BUILD=1: package build/bin as it is)"
if [ "${PACKAGE_SKIP_BUILD:-}" != 1 ]; then
  scripts/build.sh
fi
for b in build/bin/vis build/bin/vis-desktop; do
  [ -x "$b" ] || die "$b is missing: run scripts/build.sh (or drop PACKAGE_SKIP_BUILD)"
done

described=$(build/bin/vis version | awk '{print $2}')
[ -n "$described" ] || die "build/bin/vis version printed no version"
desktop_described=$(build/bin/vis-desktop version | awk '{print $2}')
[ "$described" = "$desktop_described" ] ||
  die "build/bin/vis is $described but build/bin/vis-desktop is $desktop_described: rebuild both (scripts/build.sh)"
VIS_DEB_VERSION=$(debversion "$described")
dpkg --validate-version "$VIS_DEB_VERSION" 2>/dev/null || die "not a Debian version: $VIS_DEB_VERSION (from $described)"
VIS_DEB_ARCH=$(dpkg --print-architecture)

# Depends: for each library vis-desktop links (NEEDED), the package that holds the file
# the loader resolves it to. Falls back to the usual names when a library is not from a
# package (a hand-built WebKit, say).
depends() {
  local lib path pkgs=() pkg
  while read -r lib path; do
    [ -n "$path" ] || die "vis-desktop links $lib, which this machine does not resolve"
    pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null || dpkg -S "$path" 2>/dev/null) || return 1
    pkgs+=("${pkg%%:*}")
  done < <(
    ldd build/bin/vis-desktop | awk 'NR==FNR{need[$2]=1; next} ($1 in need) && $2=="=>" {print $1, $3}' \
      <(objdump -p build/bin/vis-desktop | awk '/NEEDED/') -
  )
  [ ${#pkgs[@]} -gt 0 ] || return 1
  printf '%s\n' "${pkgs[@]}" | sort -u | paste -sd, - | sed 's/,/, /g'
}
command -v objdump >/dev/null || die "objdump is missing (apt install binutils)"
if ! VIS_DEB_DEPENDS=$(depends); then
  VIS_DEB_DEPENDS="libwebkit2gtk-4.1-0 | libwebkit2gtk-4.0-37, libgtk-3-0, libglib2.0-0"
  say "some linked libraries are not from a Debian package: Depends falls back to $VIS_DEB_DEPENDS"
fi
VIS_DEB_MAINTAINER=${VIS_DEB_MAINTAINER:-Vis Desktop <noreply@vis-desktop.invalid>}
export VIS_DEB_VERSION VIS_DEB_ARCH VIS_DEB_DEPENDS VIS_DEB_MAINTAINER

mkdir -p "$out"
# The time of the commit the binaries were built from (HEAD may have moved since):
# the changelog's date and the files' times in the archive.
rev=${described%-dirty}; rev=${rev##*-g}
epoch=$(git log -1 --format=%ct "$rev" 2>/dev/null || git log -1 --format=%ct 2>/dev/null || date +%s)
# /usr/share/doc/vis-desktop/changelog.gz: one entry naming the build.
{
  printf 'vis-desktop (%s) unstable; urgency=medium\n\n' "$VIS_DEB_VERSION"
  printf '  * Built from git describe %s.\n\n' "$described"
  printf ' -- %s  %s\n' "$VIS_DEB_MAINTAINER" "$(LC_ALL=C date -R -u -d "@$epoch")"
} | gzip -9n >"$out/changelog.gz"
deb="$out/vis-desktop_${VIS_DEB_VERSION}_${VIS_DEB_ARCH}.deb"
rm -f "$deb"
start=$(date +%s)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$epoch} \
  go run "$NFPM" package --config packaging/nfpm.yaml --packager deb --target "$deb" >&2
[ -f "$deb" ] || die "nfpm wrote no $deb"
say "$deb ($VIS_DEB_VERSION from $described, $VIS_DEB_ARCH, $(( $(stat -c %s "$deb") / 1024 )) KiB) in $(( $(date +%s) - start ))s"
say "Depends: $VIS_DEB_DEPENDS"
echo "$deb"
