#!/usr/bin/env bash
# The README's first command: install what is missing, build, play a puzzle.
#
# In a desktop session (DISPLAY is set) it watches the game window titled "Sudoku"
# (GNOME Sudoku; SUDOKU_WINDOW=... for another game) and plays every new puzzle until
# Ctrl+C. Extra arguments go to sudoku-bot (e.g. --dry-run, --once).
#
# With no display at all (a fresh server, CI) it starts its own: Xvfb, openbox and
# GNOME Sudoku on Easy, plays one puzzle there, and leaves before/after screenshots in
# out/ for you to look at.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked 2>&1 | tail -n 1
bin="$PWD/target/release/sudoku-bot"

if [[ -n "${DISPLAY:-}" ]]; then
  exec "$bin" --window "${SUDOKU_WINDOW:-Sudoku}" -v "$@"
fi

echo "play: no display here: starting a virtual one with GNOME Sudoku" >&2
mkdir -p out
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# A free display number.
n=90
while [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]]; do n=$((n + 1)); done
export DISPLAY=":$n"
setsid Xvfb "$DISPLAY" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
setsid openbox >/dev/null 2>&1 & pids+=($!)
mkdir -p "$work/home/.local/share"
HOME="$work/home" setsid dbus-run-session -- /usr/games/gnome-sudoku >/dev/null 2>&1 & pids+=($!)

# GNOME Sudoku first asks for a difficulty: Easy is the highlighted row, Return picks
# it (pressed again until the game window shows: the first key can come too early).
wait_for() { for _ in $(seq "$2"); do xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1 | grep . && return 0; sleep 0.1; done; return 1; }
id=$(wait_for '^Select Difficulty$' 300) || { echo "play: GNOME Sudoku did not open its Select Difficulty window" >&2; exit 1; }
for _ in $(seq 60); do
  xdotool windowactivate --sync "$id" key Return 2>/dev/null || true
  wait_for '^Sudoku$' 3 >/dev/null && break
done
wait_for '^Sudoku$' 10 >/dev/null || { echo "play: GNOME Sudoku did not open its game window" >&2; exit 1; }
sleep 1

shot() { xwd -root -silent | convert xwd:- "out/$1"; }
shot before.png
status=0
"$bin" --window Sudoku --once -v "$@" || status=$?
sleep 2 # GNOME Sudoku dims the solved grid and draws its "well done" dialog
shot after.png
if [[ $status -eq 0 ]]; then
  echo "play: solved. Screenshots: out/before.png, out/after.png" >&2
else
  echo "play: the bot exited with $status. Screenshots: out/before.png, out/after.png" >&2
fi
exit $status
