# via-sudoku-solver 1.0.1 (OpenCV's highgui window, Qt backend), PyPI. It fills 30
# random cells that break no rule (the puzzle may have several solutions; it takes any
# valid grid). Verdict: "Win!" that it draws under the grid when the grid is valid.
ZOO_KIND=OpenCV/Qt
ZOO_SOURCE=pypi
ZOO_PACKAGE=via-sudoku-solver
ZOO_VERSION=1.0.1
ZOO_AUTHOR="voilalex (Ilya Vouk)"
ZOO_LICENSE=MIT

ZOO_NEEDS=("$ZOO_DIR/py/bin/via-sudoku-solver")

zoo_install() { zoo_pip "via-sudoku-solver==1.0.1" "opencv-python==4.10.0.84" "click==8.1.7" "numpy==2.3.5"; }

zoo_launch() {
  zoo_spawn game env QT_QPA_PLATFORM=xcb "$ZOO_DIR/py/bin/via-sudoku-solver"
  zoo_wait_window '^Sudoku$' 40 >/dev/null || return 1
  ZOO_WINDOW=Sudoku
  sleep 1
}

zoo_verdict() { zoo_judge_words 'Win!?' '' "$(zoo_window_words '^Sudoku$')" "via-sudoku-solver's window"; }

zoo_player() { zoo_click_player "$1"; }
