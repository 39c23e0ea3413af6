# LEFT OUT of the zoo: its "New" button opened no puzzle window under Xvfb. Kept for
# the record.
# Sudoku as puzzle 0.1.28 (GTK 3 through PyGObject), PyPI, by Ηλίας Ηλιάδης. Verdict:
# its "Bravo. Puzzle solved." message. It makes its puzzles with qqwing (Debian).
ZOO_KIND=GTK/Python
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudokuaspuzzle
ZOO_VERSION=0.1.28
ZOO_AUTHOR="Ηλίας Ηλιάδης (Ilias Iliadis)"
ZOO_LICENSE=GPL-3+

ZOO_NEEDS=("$ZOO_DIR/py-gtk/bin/sudokuaspuzzle" /usr/bin/qqwing)

# PyGObject and GTK come from Debian: a virtualenv of its own that sees them.
zoo_install() {
  zoo_apt python3-venv python3-gi python3-gi-cairo gir1.2-gtk-3.0 qqwing || return 1
  [[ -x $ZOO_DIR/py-gtk/bin/python ]] || /usr/bin/python3 -m venv --system-site-packages "$ZOO_DIR/py-gtk"
  "$ZOO_DIR/py-gtk/bin/pip" install -q "sudokuaspuzzle==0.1.28"
}

zoo_launch() {
  mkdir -p "$ZOO_RUN/home"
  HOME=$ZOO_RUN/home zoo_spawn game dbus-run-session -- "$ZOO_DIR/py-gtk/bin/sudokuaspuzzle"
  local w
  w=$(zoo_wait_window '^Sudoku as puzzle$' 40) || return 1
  sleep 1
  # Its first window: "New" (the top button) opens the puzzle window.
  xdotool mousemove --window "$w" 175 22 click 1
  w=$(zoo_wait_window '^Sudoku as puzzle.' 40) || return 1
  ZOO_WINDOW=$(zoo_title "$w")
  sleep 1
}

zoo_verdict() { zoo_judge_words 'Bravo|Puzzle solved' '' "$(zoo_screen_words)" "Sudoku as puzzle's screen"; }

zoo_player() { zoo_click_player "$1"; }
