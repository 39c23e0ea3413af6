# FLTK's Sudoku (flsudoku, FLTK 1.3), Debian's fltk1.3-games. Verdict: the game's own
# success sign, every cell painted bright green (#00ff00) when the grid is full and right
# (it has no message); measured as the share of the screen in that green.
ZOO_KIND=FLTK
ZOO_SOURCE=debian
ZOO_PACKAGE=fltk1.3-games
ZOO_VERSION=1.3.8-5
ZOO_AUTHOR="Michael Sweet (FLTK)"
ZOO_LICENSE="LGPL-2+ with FLTK exceptions"
ZOO_VERDICT='its grid painted green'

ZOO_NEEDS=(/usr/games/flsudoku)

zoo_install() { zoo_apt fltk1.3-games; }

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home"  # a fresh HOME: no saved game
  HOME=$ZOO_RUN/home zoo_spawn game /usr/games/flsudoku
  local id i
  # Now and then its window is created but never mapped (seen 2 starts in 5, at the
  # window manager's start): mapped then by hand.
  for i in $(seq 150); do
    id=$(xdotool search --name '^Sudoku( - |$)' 2>/dev/null | head -n 1)
    [[ -n $id ]] && break
    sleep 0.2
  done
  [[ -n $id ]] || return 1
  # A map request can be lost too (a black screen, the zoo's first control under load
  # 6, 2026-11-26): asked again until the window manager manages the window.
  local managed=0
  for i in 1 2 3 4; do
    sleep 0.5
    xdotool windowmap "$id" 2>/dev/null
    zoo_wait_window '^Sudoku( - |$)' 5 >/dev/null && managed=1 && break
  done
  ((managed)) || return 1
  ZOO_WINDOW=$(xdotool getwindowname "$id")
  sleep 1
}

zoo_verdict() {
  local png=$ZOO_RUN/verdict.png share
  zoo_shot "$png"
  share=$(convert "$png" -fuzz 25% -fill black +opaque 'srgb(0,255,0)' -fill white -opaque 'srgb(0,255,0)' -format '%[fx:mean]' info:)
  if awk -v s="$share" 'BEGIN { exit !(s > 0.05) }'; then
    echo "solved: flsudoku painted its grid green ($share of the screen)"
  else
    echo "not solved: flsudoku's grid is not painted green ($share of the screen)"
  fi
}

zoo_player() { zoo_click_player "$1"; }
