# Solo from Simon Tatham's Portable Puzzle Collection (GTK 3), Debian's sgt-puzzles.
ZOO_KIND=GTK
ZOO_SOURCE=debian
ZOO_PACKAGE=sgt-puzzles
ZOO_VERSION=20220913.df783b9-2
ZOO_AUTHOR="Simon Tatham"
ZOO_LICENSE=MIT

zoo_install() { zoo_apt sgt-puzzles; }

zoo_launch() {
  mkdir -p "$ZOO_RUN/home"
  HOME=$ZOO_RUN/home zoo_spawn game /usr/games/sgt-solo
  zoo_wait_window '^Solo$' 30 >/dev/null || return 1
  ZOO_WINDOW=Solo
  sleep 1
}

zoo_verdict() { echo "not solved: no verdict yet"; }

zoo_player() { zoo_click_player "$1"; }
