# nudoku 2.1.0 (ncurses), Debian's nudoku, in xterm. Verdict: its own check (the 'c' key),
# whose answer it prints in the terminal ("Solved", "Not correct", "Correct so far").
ZOO_KIND=curses
ZOO_SOURCE=debian
ZOO_PACKAGE=nudoku
ZOO_VERSION=2.1.0-0.1+b2
ZOO_AUTHOR="Michael Jung (jubalh)"
ZOO_LICENSE=GPL-3+
ZOO_VERDICT='its own check: "Solved"'

ZOO_NEEDS=(/usr/games/nudoku /usr/bin/xterm /usr/bin/tmux)

zoo_install() { zoo_apt nudoku xterm tmux; }

zoo_launch() {
  zoo_terminal nudoku /usr/games/nudoku
  ZOO_WINDOW=nudoku
  zoo_wait_window '^nudoku$' 20 >/dev/null || return 1
  sleep 1
}

zoo_verdict() {
  zoo_keys c
  sleep 0.5
  zoo_judge_words '\bSolved\b' 'Not correct|Correct so far' "$(zoo_terminal_text)" "nudoku's status line"
}

zoo_player() { zoo_terminal_player "$1" h l k j; }
