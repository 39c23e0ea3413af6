#!/usr/bin/env bash
# Regenerates fixtures/screens/: the labelled sudoku screenshots the reader is tested
# against, and their MANIFEST (one line a picture: FILE GRID  # what it shows).
#
#   scripts/make-fixtures.sh            all groups (5-7 minutes on 2 busy cores)
#   scripts/make-fixtures.sh web        only some groups: web, gnome, solo, fltk, nudoku
#
# Not run by CI. Requirements (Debian 12 packages):
#   chromium fonts-dejavu-core fonts-liberation   the web page (headless screenshots)
#   fonts-dseg fonts-allerta fonts-dotgothic16    segment, stencil and pixel digits
#   fonts-urw-base35                              a handwriting-style script (Z003)
#   fonts-dejavu-extra                            condensed digits
#   xvfb openbox x11-utils xdotool imagemagick    a virtual screen, window control, capture
#   gnome-sudoku dbus dbus-x11                    GNOME Sudoku 43
#   sgt-puzzles                                   Simon Tatham's "solo"
#   fltk1.3-games                                 FLTK's sudoku (flsudoku)
#   nudoku tmux                                   a terminal sudoku, and reading its screen
#   xterm x11-apps                                other windows for whole-screen pictures
#   python3 python3-tk                            labels and checks (tkinter reads the clipboard)
# and the puzzle corpora in ../shared/datasets/puzzles (or set SUDOKU_DATASETS).
# The script starts its own Xvfb (1280x1024) and openbox on a free display and stops
# them at the end. Every label is computed and checked, never typed: see
# fixtures/screens/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures=$root/scripts/fixtures
out=$root/fixtures/screens
groups=("$@")
((${#groups[@]})) || groups=(web gnome solo fltk nudoku)
mkdir -p "$out"
parts=$(mktemp -d)

display_pids=()
cleanup() {
  local p
  for p in "${display_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$parts"
}
trap cleanup EXIT

start_display() {
  local n
  for n in $(seq 90 130); do
    [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
    Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
    display_pids+=($!)
    export DISPLAY=":$n"
    for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
    openbox >/dev/null 2>&1 &
    display_pids+=($!)
    sleep 1
    echo "make-fixtures: virtual display $DISPLAY" >&2
    return 0
  done
  echo "make-fixtures: no free X display number in 90..130" >&2
  exit 1
}

needs_display=0
for g in "${groups[@]}"; do [[ $g == web ]] || needs_display=1; done
((needs_display)) && start_display

for g in "${groups[@]}"; do
  echo "make-fixtures: group $g" >&2
  rm -f "$out/$g"-*.png "$out/$g"-*.jpg
  case $g in
    web) python3 "$fixtures/web_fixtures.py" "$out" >"$parts/$g" ;;
    gnome) "$fixtures/gnome.sh" "$out" >"$parts/$g" ;;
    solo) "$fixtures/solo.sh" "$out" >"$parts/$g" ;;
    fltk) "$fixtures/fltk.sh" "$out" >"$parts/$g" ;;
    nudoku) "$fixtures/nudoku.sh" "$out" >"$parts/$g" ;;
    *) echo "make-fixtures: unknown group $g (web, gnome, solo, fltk, nudoku)" >&2; exit 2 ;;
  esac
done

# Merge: the regenerated groups replace their lines; other groups' lines are kept.
manifest=$out/MANIFEST
touch "$manifest"
keep=$(mktemp)
cp "$manifest" "$keep"
for g in "${groups[@]}"; do grep -v "^$g-" "$keep" >"$keep.new" || true; mv "$keep.new" "$keep"; done
cat "$keep" "$parts"/* | sort >"$manifest"
rm -f "$keep"

# Every picture has a line and every line a picture, and each grid is 81 characters.
status=0
while read -r file grid _; do
  [[ -f "$out/$file" ]] || { echo "make-fixtures: $file is in MANIFEST but missing" >&2; status=1; }
  [[ $grid =~ ^[1-9.]{81}$ ]] || { echo "make-fixtures: bad grid for $file" >&2; status=1; }
done < <(grep -v '^#' "$manifest")
for f in "$out"/*.png "$out"/*.jpg; do
  [[ -e $f ]] || continue
  grep -q "^$(basename "$f") " "$manifest" || { echo "make-fixtures: $(basename "$f") has no MANIFEST line" >&2; status=1; }
done
echo "make-fixtures: $(wc -l <"$manifest") pictures, $(du -sh "$out" | cut -f1)" >&2
exit $status
