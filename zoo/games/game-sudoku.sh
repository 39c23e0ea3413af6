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

# Its generator is random and sometimes takes minutes (a backtracking search on random
# clues; on a busy machine the window was once still black after a minute, and the
# negative control got no game). So a launch that shows no drawn grid in time is ended
# and made once more, said on stderr; a second failure is the game's failure.
zoo_launch() {
  game_sudoku_launch && return 0
  zoo_log "game-sudoku: launch 1 failed ($game_sudoku_why); ending it and launching again"
  zoo_stop_games 2
  game_sudoku_launch && return 0
  zoo_log "game-sudoku: launch 2 failed ($game_sudoku_why)"
  return 1
}

# One launch (in this shell: it adds to zoo_pids and sets ZOO_WINDOW); on failure
# returns 1 with why in game_sudoku_why.
game_sudoku_why=
game_sudoku_fail() { game_sudoku_why=$1; return 1; }
game_sudoku_launch() {
  local dir
  dir=$("$ZOO_PY" -c 'import sudokuPackage, os; print(os.path.dirname(sudokuPackage.__file__))') ||
    { game_sudoku_fail "sudokuPackage is not installed"; return; }
  zoo_spawn game env -C "$dir" SDL_VIDEODRIVER=x11 "$ZOO_PY" -c '
import random, runpy, sys
sample = random.sample
random.sample = lambda population, k, **kw: sample(tuple(population) if isinstance(population, (set, frozenset)) else population, k, **kw)
sys.argv = ["main.py"]
sys.path.insert(0, ".")
runpy.run_path("main.py", run_name="__main__")'
  local w i height
  w=$(zoo_wait_window '^Game Sudoku$' 60) || { game_sudoku_fail "no window in 60 s"; return; }
  ZOO_WINDOW="Game Sudoku"
  # Its first screen (260x300) picks the level: EASY, at the top; then the game's own
  # window (550x720) says "Press Blank To Start": Space. A click that comes too early is
  # lost: clicked again until the window grows.
  for i in $(seq 20); do
    sleep 1
    xdotool mousemove --window "$w" 130 50 click 1
    sleep 1
    w=$(zoo_wait_window '^Game Sudoku$' 5) || { game_sudoku_fail "its window went away"; return; }
    height=$(xwininfo -id "$w" | awk '/Height:/ { print $2 }')
    ((height > 400)) && break
  done
  ((height > 400)) || { game_sudoku_fail "its level screen took no click in 40 s"; return; }
  xdotool windowactivate "$w" 2>/dev/null
  xdotool key space
  # The window stays black while it digs the puzzle out of a full grid (seconds, more
  # under load). Ready is its grid drawn and started: the blue box border at the
  # grid's left edge (window x 5, y 200) and no grey "Press Blank To Start" panel
  # (192,192,192 at 110,260). Space again now and then: a key sent before its window
  # took the focus is lost.
  local png=$ZOO_RUN/drawn.png border panel
  for i in $(seq 120); do
    sleep 0.5
    timeout 20 import -window "$w" "$png" 2>/dev/null || continue
    border=$(convert "$png" -format '%[pixel:p{5,200}]' info: 2>/dev/null)
    panel=$(convert "$png" -format '%[pixel:p{110,260}]' info: 2>/dev/null)
    if [[ $border == "srgb(65,105,225)" && $panel != "srgb(192,192,192)" ]]; then
      sleep 1
      return 0
    fi
    if [[ $border == "srgb(65,105,225)" ]] && ((i % 4 == 0)); then
      xdotool windowactivate "$w" 2>/dev/null
      xdotool key space
    fi
  done
  if [[ ${border:-} == "srgb(65,105,225)" ]]; then
    game_sudoku_fail "its grid was drawn, but it did not start on Space in 60 s"
  else
    game_sudoku_fail "its window stayed black for 60 s (no puzzle)"
  fi
}

# "Successful!!" in green (0,128,0) over the grid; Tesseract reads it on its own.
zoo_verdict() {
  local png=$ZOO_RUN/verdict.png
  zoo_shot "$png"
  zoo_judge_words 'Successful' '' "$(zoo_color_words "$png" 'srgb(0,128,0)' text)" "Game Sudoku's screen"
}

zoo_player() { zoo_click_player "$1"; }
