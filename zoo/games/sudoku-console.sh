# sudoku 1.0.5 (Michael Kennett's console sudoku, curses), Debian's sudoku, in xterm.
# Verdict: its status line ("Well done - you've completed the puzzle!").
ZOO_KIND=curses
ZOO_SOURCE=debian
ZOO_PACKAGE=sudoku
ZOO_VERSION=1.0.5-2.1
ZOO_AUTHOR="Michael Kennett"
ZOO_LICENSE="public domain"
ZOO_VERDICT='its status line "Well done"'

ZOO_NEEDS=(/usr/games/sudoku /usr/bin/xterm /usr/bin/tmux)

zoo_install() { zoo_apt sudoku xterm tmux; }

zoo_launch() {
  zoo_terminal sudoku-console /usr/games/sudoku
  ZOO_WINDOW=sudoku-console
  zoo_wait_window '^sudoku-console$' 20 >/dev/null || return 1
  sleep 1
}

zoo_verdict() { zoo_judge_words 'Well done|completed the puzzle' 'wrong|invalid' "$(zoo_terminal_text)" "sudoku's status line"; }

# A key every 80 ms: at 30 ms, keys were lost on this loaded machine (a positive control
# left cells empty).
# The player looks before and after each key (the cursor, the digit): under load keys
# sent blind at 80 ms each left cells empty or wrong (the positive control failed).
zoo_player() { zoo_terminal_player_checked "$1" h l k j; }
