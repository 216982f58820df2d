#!/usr/bin/env bash
# Installs a desktop launcher for build/bin/vis for the current user (Linux):
#   ~/.local/share/applications/vis-desktop.desktop
#   ~/.local/share/icons/hicolor/{256x256,512x512}/apps/vis-desktop.png
# The launcher runs the binary where it was built; re-run after moving the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(uname -s)" = Linux ] || { echo "install-launcher: Linux only; skipped" >&2; exit 0; }
bin=$(pwd)/build/bin/vis
[ -x "$bin" ] || { echo "install-launcher: $bin is missing; run scripts/build.sh" >&2; exit 1; }

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
