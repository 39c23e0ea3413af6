#!/usr/bin/env bash
# Installs the Debian 12 packages sudoku-bot needs, skipping those already installed.
#   scripts/setup.sh          build + run (Tesseract, capture and input libraries)
#   scripts/setup.sh --test   also what the tests need (Xvfb, openbox, GNOME Sudoku, Chromium)
set -euo pipefail

build_pkgs=(pkg-config libclang-dev libtesseract-dev libleptonica-dev libpipewire-0.3-dev
            libwayland-dev libgbm-dev libegl-dev libxcb1-dev tesseract-ocr-eng)
# A virtual display for machines without one (the quick start plays GNOME Sudoku there).
play_pkgs=(xvfb openbox gnome-sudoku dbus dbus-x11 x11-utils xdotool imagemagick)
test_pkgs=(chromium x11-xserver-utils fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-noto-mono)

want=("${build_pkgs[@]}" "${play_pkgs[@]}")
[[ "${1:-}" == "--test" ]] && want+=("${test_pkgs[@]}")

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
