# sudoku9 0.1.0 (PyQt6, QLineEdit cells), PyPI. Verdict: its "Validate" button, which
# opens "Congratulations!" (Puzzle is correct) or "Incorrect"; the button is enabled only
# once every cell is filled.
ZOO_KIND=Qt
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudoku9
ZOO_VERSION=0.1.0
ZOO_AUTHOR="Kunal Kumar"
ZOO_LICENSE=MIT
ZOO_VERDICT='its Validate: "Congratulations!" (pressed by the zoo)'

ZOO_NEEDS=("$ZOO_DIR/py/bin/sudoku9")

zoo_install() { zoo_pip "sudoku9==0.1.0" "PyQt6==6.11.0" "PyQt6-Qt6==6.11.2" "pyqtdarktheme==2.1.0" "rich==15.0.0" && zoo_apt libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0; }

zoo_launch() {
  zoo_spawn game env QT_QPA_PLATFORM=xcb "$ZOO_DIR/py/bin/sudoku9" play easy
  zoo_wait_window '^Sudoku - Easy$' 40 >/dev/null || return 1
  ZOO_WINDOW="Sudoku - Easy"
  sleep 1
}

# The "Validate" button: the full-width button at the bottom of the window.
zoo_after_bot() {
  local w width height
  w=$(zoo_wait_window '^Sudoku - Easy$' 2) || return 0
  read -r width height < <(xwininfo -id "$w" | awk '/Width:/ { w = $2 } /Height:/ { h = $2 } END { print w, h }')
  xdotool mousemove --window "$w" $((width / 2)) $((height - 27)) click 1
  sleep 1
}

zoo_verdict() {
  local titles
  titles=$(zoo_titles)
  if grep -qx 'Congratulations!' <<<"$titles"; then
    echo 'solved: sudoku9 opened its "Congratulations!" dialog (Puzzle is correct)'
  elif grep -qx 'Incorrect' <<<"$titles"; then
    echo 'not solved: sudoku9 opened its "Incorrect" dialog'
  else
    echo "not solved: no verdict window (its Validate button stays disabled until every cell is filled); windows: $(paste -sd, <<<"$titles")"
  fi
}

zoo_player() { zoo_click_player "$1"; }
