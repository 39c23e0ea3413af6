# GNOME Sudoku 43 (GTK 4), Debian's gnome-sudoku. Verdict: its "Well done" dialog.
ZOO_KIND=GTK
ZOO_SOURCE=debian
ZOO_PACKAGE=gnome-sudoku
ZOO_VERSION=1:43.1-1
ZOO_AUTHOR="The GNOME Project"
ZOO_LICENSE=GPL-3+
ZOO_VERDICT='its "Well done" dialog'

ZOO_NEEDS=(/usr/games/gnome-sudoku)

zoo_install() { zoo_apt gnome-sudoku dbus; }

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home/.local/share"  # a fresh HOME: no saved game
  HOME=$ZOO_RUN/home zoo_spawn game dbus-run-session -- /usr/games/gnome-sudoku
  local chooser tries
  chooser=$(zoo_wait_window '^Select Difficulty$' 40) || return 1
  for tries in $(seq 20); do
    zoo_wait_window '^Sudoku$' 1 >/dev/null && break
    xdotool windowactivate "$chooser" 2>/dev/null
    sleep 0.1
    xdotool key Return
    sleep 0.5
  done
  ZOO_WINDOW=Sudoku
  sleep 0.7
}

zoo_verdict() {
  zoo_judge_words 'well done|completed the puzzle' 'mistake|wrong' "$(zoo_screen_words)" "GNOME Sudoku's screen"
}

zoo_player() { zoo_click_player "$1"; }
