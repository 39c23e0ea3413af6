# LEFT OUT of the zoo: random.sample() on a set loops forever on Python 3.11 ("Invalid
# Input for counts!!!") and no puzzle is ever drawn. Kept for the record.
# sudokuPackage 0.1 ("Game Sudoku", pygame 2 / SDL 2), PyPI. Verdict: "Successful!!" that
# it draws over the grid when the grid is full with no clash.
ZOO_KIND=pygame
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudokuPackage
ZOO_VERSION=0.1
ZOO_AUTHOR="Shveta Sharma, Tia Wang"
ZOO_LICENSE=MIT

zoo_install() { zoo_pip "sudokuPackage==0.1" "pygame==2.6.1" "numpy==2.3.5"; }

zoo_launch() {
  local dir
  dir=$("$ZOO_PY" -c 'import sudokuPackage, os; print(os.path.dirname(sudokuPackage.__file__))') || return 1
  (cd "$dir" && zoo_spawn game env SDL_VIDEODRIVER=x11 "$ZOO_PY" main.py)
  local w
  w=$(zoo_wait_window '^Game Sudoku$' 30) || return 1
  ZOO_WINDOW="Game Sudoku"
  sleep 1
  # Its first screen picks the level (EASY, the top third of the window), then "Press
  # Blank To Start": Space.
  xdotool mousemove --window "$w" 130 50 click 1
  sleep 1.5
  xdotool windowactivate "$w" 2>/dev/null
  xdotool key space
  sleep 1
}

zoo_verdict() { zoo_judge_words 'Successful' '' "$(zoo_screen_words)" "Game Sudoku's screen"; }

zoo_player() { zoo_click_player "$1"; }
