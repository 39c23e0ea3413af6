# sudokuPackage 0.1 ("Game Sudoku", pygame 2 / SDL 2), PyPI. Verdict: "Successful!!" that
# it draws over the grid when the grid is full with no clash.
#
# It was written for Python <= 3.10: its generator calls random.sample() on a set, which
# Python 3.11 refuses (TypeError), and it then loops for ever printing "Invalid Input for
# counts!!!". The zoo starts its main.py unchanged with random.sample() taking a set again
# as Python 3.10 did (turned into a tuple first).
ZOO_KIND=pygame
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudokuPackage
ZOO_VERSION=0.1
ZOO_AUTHOR="Shveta Sharma, Tia Wang"
ZOO_LICENSE=MIT
ZOO_VERDICT='"Successful!!" over the grid'

ZOO_NEEDS=("$ZOO_DIR/py/lib/python3.11/site-packages/sudokuPackage/main.py")

zoo_install() { zoo_pip "sudokuPackage==0.1" "pygame==2.6.1" "numpy==2.3.5"; }

zoo_launch() {
  local dir
  dir=$("$ZOO_PY" -c 'import sudokuPackage, os; print(os.path.dirname(sudokuPackage.__file__))') || return 1
  zoo_spawn game env -C "$dir" SDL_VIDEODRIVER=x11 "$ZOO_PY" -c '
import random, runpy, sys
sample = random.sample
random.sample = lambda population, k, **kw: sample(tuple(population) if isinstance(population, (set, frozenset)) else population, k, **kw)
sys.argv = ["main.py"]
sys.path.insert(0, ".")
runpy.run_path("main.py", run_name="__main__")'
  local w i height
  w=$(zoo_wait_window '^Game Sudoku$' 30) || return 1
  ZOO_WINDOW="Game Sudoku"
  # Its first screen (260x300) picks the level: EASY, at the top; then the game's own
  # window (550x720) says "Press Blank To Start": Space. A click that comes too early is
  # lost: clicked again until the window grows.
  for i in $(seq 10); do
    sleep 1
    xdotool mousemove --window "$w" 130 50 click 1
    sleep 1
    w=$(zoo_wait_window '^Game Sudoku$' 5) || return 1
    height=$(xwininfo -id "$w" | awk '/Height:/ { print $2 }')
    ((height > 400)) && break
  done
  ((height > 400)) || return 1
  xdotool windowactivate "$w" 2>/dev/null
  xdotool key space
  # The window stays black while it digs the puzzle out of a full grid (seconds, more
  # under load): wait for it to be drawn.
  # A window still black after a minute has no puzzle (its generator can loop on): the
  # game did not start, and the run is not counted (it was once played as a bot's
  # failure: "no sudoku grid in the window").
  local png=$ZOO_RUN/drawn.png mean
  for i in $(seq 120); do
    sleep 0.5
    import -window "$w" "$png" 2>/dev/null || continue
    mean=$(convert "$png" -format '%[fx:mean]' info: 2>/dev/null)
    if awk -v m="${mean:-0}" 'BEGIN { exit !(m > 0.3) }'; then
      sleep 1
      return 0
    fi
  done
  zoo_log "game-sudoku: its window stayed black for 60 s (no puzzle)"
  return 1
}

# "Successful!!" in green (0,128,0) over the grid; Tesseract reads it on its own.
zoo_verdict() {
  local png=$ZOO_RUN/verdict.png
  zoo_shot "$png"
  zoo_judge_words 'Successful' '' "$(zoo_color_words "$png" 'srgb(0,128,0)' text)" "Game Sudoku's screen"
}

zoo_player() { zoo_click_player "$1"; }
