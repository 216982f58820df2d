#!/usr/bin/env bash
# Installs Vis for the current user (Linux):
#   ~/.local/bin/vis, ~/.local/bin/vis-desktop   symlinks to build/bin/vis (headless CLI)
#                                                and build/bin/vis-desktop (the window)
#   ~/.local/share/applications/vis-desktop.desktop
#   ~/.local/share/icons/hicolor/{256x256,512x512}/apps/vis-desktop.png
# The links and the launcher point at the binaries where they were built, so a rebuild
# needs no reinstall; re-run after moving the checkout. A file at ~/.local/bin/vis that is
# not a symlink (someone else's vis) is left alone, with a warning. Says so when
# ~/.local/bin is not on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(uname -s)" = Linux ] || { echo "install-launcher: Linux only; skipped" >&2; exit 0; }
bin=$(pwd)/build/bin/vis-desktop
cli=$(pwd)/build/bin/vis
for b in "$bin" "$cli"; do
  [ -x "$b" ] || { echo "install-launcher: $b is missing; run scripts/build.sh" >&2; exit 1; }
done

bindir=$HOME/.local/bin
mkdir -p "$bindir"
for b in "$cli" "$bin"; do
  link=$bindir/$(basename "$b")
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    printf '\033[1;33m[launcher]\033[0m %s exists and is not a symlink: left alone (remove it to install %s)\n' "$link" "$b" >&2
    continue
  fi
  ln -sfn "$b" "$link"
  printf '\033[1;34m[launcher]\033[0m %s -> %s\n' "$link" "$b" >&2
done
case ":${PATH:-}:" in
  *":$bindir:"*) ;;
  *) printf '\033[1;33m[launcher]\033[0m %s is not on your PATH: add it (e.g. in ~/.profile: export PATH="$HOME/.local/bin:$PATH") to run vis from a terminal\n' "$bindir" >&2 ;;
esac

data=${XDG_DATA_HOME:-$HOME/.local/share}
for size in 256 512; do
  dir="$data/icons/hicolor/${size}x${size}/apps"
  mkdir -p "$dir"
  if command -v convert >/dev/null; then
    convert build/appicon.png -resize "${size}x${size}" "$dir/vis-desktop.png"
  else
    cp build/appicon.png "$dir/vis-desktop.png"
  fi
done
mkdir -p "$data/applications"
cat >"$data/applications/vis-desktop.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=Vis
Comment=A desktop coding agent
Exec="$bin" %f
Icon=vis-desktop
Terminal=false
Categories=Development;IDE;
StartupWMClass=vis-desktop
DESKTOP
command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" 2>/dev/null || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" 2>/dev/null || true
printf '\033[1;34m[launcher]\033[0m %s\n' "$data/applications/vis-desktop.desktop" >&2
