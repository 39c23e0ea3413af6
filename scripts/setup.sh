#!/usr/bin/env bash
# Installs the Debian 12 packages sudoku-bot needs, skipping those already installed.
#   scripts/setup.sh          build + play (Tesseract, capture and input libraries, and the
#                             virtual display the quick start plays GNOME Sudoku on)
#   scripts/setup.sh --test   also what the tests need (Chromium, fonts, headless Mutter
#                             with PipeWire for the Wayland end-to-end test)
#   scripts/setup.sh --list [--test]   print the package names, one a line, and stop
# The README's quick start lists the same packages; scripts/check-quick-start.sh (run by
# scripts/test.sh) fails when the two differ or a package is not installed.
set -euo pipefail

build_pkgs=(pkg-config libclang-dev libtesseract-dev libleptonica-dev libpipewire-0.3-dev
            libwayland-dev libgbm-dev libegl-dev libxcb1-dev tesseract-ocr-eng)
# A virtual display for machines without one (the quick start plays GNOME Sudoku there),
# and the tools scripts/play.sh uses: xdotool, xwd (x11-apps), convert (imagemagick).
play_pkgs=(xvfb openbox gnome-sudoku dbus dbus-x11 x11-utils x11-apps xdotool imagemagick)
# Chromium and fonts for the web game (condensed, segment, stencil and pixel faces for the
# reader's fixtures); Mutter, GNOME Shell, PipeWire and WirePlumber for the Wayland
# end-to-end tests (headless Mutter or GNOME Shell in a dbus-run-session); sway, grim
# (its screenshots) and Xwayland for the sway ones (xhost is in x11-xserver-utils);
# KWin (kwin-wayland) for the KDE Plasma ones; stress-ng, the load generator of
# scripts/ci-under-load.sh and `scripts/zoo.sh --load`; tmux, which runs the zoo's terminal games.
test_pkgs=(chromium x11-xserver-utils fonts-dejavu-core fonts-liberation fonts-freefont-ttf
           fonts-noto-mono fonts-dejavu-extra fonts-dseg fonts-allerta fonts-dotgothic16
           mutter gnome-shell pipewire pipewire-bin wireplumber sway grim xwayland
           kwin-wayland stress-ng tmux)

list=0 test=0
for arg in "$@"; do
  case "$arg" in
    --list) list=1 ;;
    --test) test=1 ;;
    *) echo "setup: unknown option $arg (use --test, --list)" >&2; exit 2 ;;
  esac
done

want=("${build_pkgs[@]}" "${play_pkgs[@]}")
((test)) && want+=("${test_pkgs[@]}")
if ((list)); then
  printf '%s\n' "${want[@]}"
  exit 0
fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  echo "setup: cargo not found: install the Rust toolchain (https://rustup.rs) and run again" >&2
  exit 2
fi
