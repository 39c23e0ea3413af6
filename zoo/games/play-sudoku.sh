# play-sudoku 0.0.9 (Python curses), PyPI, in xterm. Verdict: the terminal's text.
ZOO_KIND=curses
ZOO_SOURCE=pypi
ZOO_PACKAGE=play-sudoku
ZOO_VERSION=0.0.9
ZOO_AUTHOR="4sushi"
ZOO_LICENSE=MIT
ZOO_VERDICT='its "Victory!" screen'

ZOO_NEEDS=("$ZOO_DIR/py/bin/play-sudoku" /usr/bin/xterm /usr/bin/tmux)

zoo_install() { zoo_pip "play-sudoku==0.0.9" && zoo_apt xterm tmux; }

zoo_launch() {
  zoo_terminal play-sudoku "$ZOO_DIR/py/bin/play-sudoku"
  ZOO_WINDOW=play-sudoku
  zoo_wait_window '^play-sudoku$' 20 >/dev/null || return 1
  sleep 1.5
}

zoo_verdict() {
  zoo_judge_words 'Victory|You have won' '' "$(zoo_terminal_text)" "play-sudoku's terminal"
}

zoo_player() { zoo_terminal_player "$1" Left Right Up Down; }
