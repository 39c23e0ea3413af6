# sudokuPackage 0.1 ("Game Sudoku", pygame), PyPI. Verdict: "Successful!!" drawn over the
# grid when it is full and right.
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
  zoo_wait_window '^Game Sudoku$' 30 >/dev/null || return 1
  ZOO_WINDOW="Game Sudoku"
  sleep 1
}

zoo_verdict() { zoo_judge_words 'Successful' '' "$(zoo_screen_words)" "Game Sudoku's screen"; }

zoo_player() { zoo_click_player "$1"; }
