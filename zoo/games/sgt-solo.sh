# Solo from Simon Tatham's Portable Puzzle Collection (GTK 3), Debian's sgt-puzzles.
# It says nothing when solved (the grid flashes). Verdict: the game's own text of its
# grid, copied with its Game > Copy to the clipboard and read with xclip: full and every
# row, column and box 1-9.
ZOO_KIND=GTK
ZOO_SOURCE=debian
ZOO_PACKAGE=sgt-puzzles
ZOO_VERSION=20230122.806ae71-2
ZOO_AUTHOR="Simon Tatham"
ZOO_LICENSE=MIT
ZOO_VERDICT='its copied grid: full, valid'

ZOO_NEEDS=(/usr/games/sgt-solo /usr/bin/xclip)

zoo_install() { zoo_apt sgt-puzzles xclip; }

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home"  # a fresh HOME: no saved game
  HOME=$ZOO_RUN/home zoo_spawn game /usr/games/sgt-solo
  zoo_wait_window '^Solo$' 30 >/dev/null || return 1
  ZOO_WINDOW=Solo
  sleep 1
}

zoo_verdict() {
  local w text
  w=$(zoo_wait_window '^Solo$' 2) || { echo "not solved: no Solo window"; return; }
  xdotool windowactivate "$w" 2>/dev/null
  sleep 0.2
  printf '' | xclip -selection clipboard >/dev/null 2>&1
  # "Game" is the menu bar's first item; Copy is the third item from the menu's end
  # (Copy, Solve, Exit: always sensitive), so Up three times and Return choose it
  # without reading the menu. A try whose keys came before the menu was up leaves the
  # clipboard empty (the keys only move Solo's cursor): 8 tries, each waiting longer.
  local tries copied=0
  for tries in 1 2 3 4 5 6 7 8; do
    xdotool windowactivate "$w" 2>/dev/null
    xdotool mousemove --window "$w" 27 12 click 1
    sleep "$(( (3 + tries) / 10 )).$(( (3 + tries) % 10 ))"
    xdotool key Up Up Up Return
    sleep 0.5
    text=$(xclip -o -selection clipboard -t UTF8_STRING 2>/dev/null)
    [[ $text == *'|'* ]] && { copied=1; break; }
    xdotool key Escape
    sleep 0.3
  done
  ((copied)) || { echo "not solved: Game > Copy put no grid on the clipboard"; return; }
  zoo_judge_grid "$(zoo_text_grid "$text")" "Solo's copied grid"
}

zoo_player() { zoo_click_player "$1"; }
