#!/usr/bin/env bash
# The README's first command: install what is missing, build, play a puzzle.
#
# In a desktop session (DISPLAY or WAYLAND_DISPLAY is set) it watches the game window
# titled "Sudoku" (GNOME Sudoku; SUDOKU_WINDOW=... for another game) and plays every new
# puzzle until Ctrl+C. On GNOME's Wayland session the bot plays through Mutter (its
# gnome-wayland backend), on X11 through the X server. Extra arguments go to sudoku-bot
# (e.g. --dry-run, --once, --backend x11).
#
# With no display at all (a fresh server, CI) it starts its own: Xvfb, openbox and
# GNOME Sudoku on Easy, plays one puzzle there, and leaves before/after screenshots in
# out/ for you to look at (after.png: the solved grid, GNOME's "well done" dialog closed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Cargo's own progress shows (a bar on a terminal, a line per crate elsewhere): a first
# build takes minutes, and a compile error must show whole.
echo "play: building sudoku-bot (cargo build --release; the first build takes a few minutes)" >&2
cargo build --release --locked
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/sudoku-bot"

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec "$bin" --window "${SUDOKU_WINDOW:-Sudoku}" -v "$@"
fi

echo "play: no display here: starting a virtual one with GNOME Sudoku" >&2
mkdir -p out
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# A free display number. The server that answers must be ours (its pid in the lock
# file): another session's server can hold the number without a socket file here,
# and then ours exits. The next number is tried then.
ours_up() { xdpyinfo >/dev/null 2>&1 && [[ "$(tr -d ' ' <"/tmp/.X$n-lock" 2>/dev/null)" == "${pids[-1]}" ]]; }
n=$((90 + $$ % 50))
for _ in $(seq 20); do
  while [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]]; do n=$((n + 1)); done
  export DISPLAY=":$n"
  Xvfb "$DISPLAY" -screen 0 1280x1024x24 -nolisten tcp >"$work/xvfb.log" 2>&1 & pids+=($!)
  for _ in $(seq 100); do ours_up && break; kill -0 "${pids[-1]}" 2>/dev/null || break; sleep 0.1; done
  ours_up && break
  kill "${pids[-1]}" 2>/dev/null || true
  n=$((n + 1))
done
ours_up || { echo "play: Xvfb did not start: $(tail -n 3 "$work/xvfb.log" | paste -sd' ' -)" >&2; exit 1; }
# openbox must manage the screen before GNOME Sudoku maps its windows: focus and
# activation need a window manager.
# It now and then gives up at start (seen 2 runs in 4): started again then.
wm_up() { xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id"; }
for _ in 1 2 3; do
  setsid openbox --debug >"$work/openbox.log" 2>&1 & pids+=($!)
  for _ in $(seq 100); do wm_up && break; kill -0 "${pids[-1]}" 2>/dev/null || break; sleep 0.1; done
  wm_up && break
done
wm_up || { echo "play: openbox did not start: $(tail -n 3 "$work/openbox.log" | paste -sd' ' -)" >&2; exit 1; }
mkdir -p "$work/home/.local/share"
HOME="$work/home" setsid dbus-run-session -- /usr/games/gnome-sudoku >"$work/game.log" 2>&1 & pids+=($!)

# The first visible window whose title matches, managed by openbox (a window GTK has
# created but not yet mapped is not in _NET_CLIENT_LIST).
find_window() {
  local id
  for id in $(xdotool search --onlyvisible --name "$1" 2>/dev/null); do
    xprop -root _NET_CLIENT_LIST | grep -qi "$(printf '0x%x' "$id")" && { echo "$id"; return 0; }
  done
  return 1
}
wait_for() { for _ in $(seq "$2"); do find_window "$1" && return 0; sleep 0.1; done; return 1; }

# GNOME Sudoku first asks for a difficulty: Easy is the highlighted first row. Return
# picks it once the chooser has the focus, a click on the row picks it too; the two are
# tried in turn until the game window shows (the first can come too early).
# Why GNOME Sudoku is not there, in one line: its windows and its last words.
game_state() {
  local titles
  titles=$(for id in $(xdotool search --name '.' 2>/dev/null); do xdotool getwindowname "$id"; done | sort -u | paste -sd, -)
  echo "windows: ${titles:-none}; GNOME Sudoku said: $(tail -n 3 "$work/game.log" | paste -sd' ' -)"
}
chooser=$(wait_for '^Select Difficulty$' 600) || { echo "play: GNOME Sudoku did not open its Select Difficulty window ($(game_state))" >&2; exit 1; }
game=""
for try in $(seq 40); do
  xdotool windowactivate "$chooser" 2>/dev/null || true
  sleep 0.1
  if ((try % 2)); then
    xdotool key Return 2>/dev/null || true
  else
    xdotool mousemove --window "$chooser" 370 205 click 1 2>/dev/null || true
  fi
  game=$(wait_for '^Sudoku$' 5) && break
done
[[ -n "$game" ]] || { echo "play: GNOME Sudoku did not open its game window ($(game_state))" >&2; exit 1; }
sleep 1

shot() { xwd -root -silent | convert xwd:- "out/$1"; }
shot before.png
status=0
# It plays one puzzle here: a --once of the user's is not given twice.
args=()
for a in "$@"; do [[ "$a" == --once ]] || args+=("$a"); done
"$bin" --window Sudoku --once -v "${args[@]}" || status=$?
# GNOME Sudoku answers a solved grid with a "well done" dialog over it (a window
# transient for the game, with no title); closing it (Escape) leaves the solved grid in
# view for the picture.
dialog_of() {
  local w hex
  hex=$(printf '0x%x' "$1")
  for w in $(xprop -root _NET_CLIENT_LIST | grep -o '0x[0-9a-f]*'); do
    xprop -id "$w" WM_TRANSIENT_FOR 2>/dev/null | grep -q "# $hex\$" && { echo "$w"; return 0; }
  done
  return 1
}
dialog=""
for _ in $(seq 30); do dialog=$(dialog_of "$game") && break; sleep 0.1; done
if [[ -n "$dialog" ]]; then
  xdotool windowactivate --sync "$dialog" key Escape 2>/dev/null || true
  for _ in $(seq 30); do xprop -root _NET_CLIENT_LIST | grep -q "$dialog" || break; sleep 0.1; done
  # The dialog paused the game ("Paused" over a dark grid): its play button in the
  # header bar (window pixels) shows the grid again.
  xdotool mousemove --window "$game" 549 26 click 1 mousemove 0 0 2>/dev/null || true
  sleep 0.5
fi
shot after.png
if [[ $status -eq 0 ]] && "$bin" read out/after.png 2>/dev/null | head -n 1 | grep -q '\.'; then
  echo "play: out/after.png does not show a full grid" >&2
  status=1
fi
if [[ $status -eq 0 ]]; then
  echo "play: solved. Screenshots: out/before.png, out/after.png" >&2
else
  echo "play: the bot exited with $status. Screenshots: out/before.png, out/after.png" >&2
fi
exit $status
