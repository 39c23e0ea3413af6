# KSudoku (KDE, Qt 5), Debian's ksudoku. Verdict: the message it opens on a full grid.
# A click on an empty cell enters the palette's selected digit (1 at the start), so the
# scripted player selects a given with its one click and walks with arrow keys.
ZOO_KIND=Qt/KDE
ZOO_SOURCE=debian
ZOO_PACKAGE=ksudoku
ZOO_VERSION=4:22.12.3-1
ZOO_AUTHOR="The KDE community"
ZOO_LICENSE=GPL-2+
ZOO_VERDICT='its "Congratulations!" message'

ZOO_NEEDS=(/usr/games/ksudoku)

zoo_install() { zoo_apt ksudoku dbus; }

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home"  # a fresh HOME: no saved game
  HOME=$ZOO_RUN/home zoo_spawn game dbus-run-session -- /usr/games/ksudoku
  local w d
  w=$(zoo_wait_window '^KSudoku$' 60) || return 1
  ZOO_WINDOW=KSudoku
  sleep 2
  # Its start page: "Sudoku Standard (9x9)" is chosen; "Generate A Puzzle" (Very Easy),
  # then OK in its "Difficulty Level" message; the window made big enough to see.
  zoo_click_words 'Generate' || return 1
  d=$(zoo_wait_window '^Difficulty Level' 20) || return 1
  xdotool windowactivate "$d" 2>/dev/null
  sleep 0.3
  xdotool key Return
  sleep 1
  xdotool windowmove "$w" 0 0 windowsize "$w" 900 850
  sleep 1.5
}

# On a full grid KSudoku opens "Information — KSudoku": "Congratulations! You made it
# in ..." or "Sorry, your solution contains mistakes."
zoo_verdict() {
  zoo_judge_words 'Congratulations|You made it' 'mistakes|Sorry' "$(zoo_window_words '^Information')" "KSudoku's message"
}

zoo_player() { zoo_arrow_player "$1"; }
