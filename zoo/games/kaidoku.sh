# Kaidoku 1.0.1 (Tk), PyPI: a terminal program (in xterm) whose "bord" command opens a
# Tk window "KAIDOKU" of 30-pixel cells: clues as labels, entry widgets for the rest
# (which refuse a digit that clashes). Its "save" button hands the entries back to the
# terminal when the window closes. Verdict: the terminal's text after "c" (show the
# current position): "Now this problem is solved !".
ZOO_KIND=Tk
ZOO_SOURCE=pypi
ZOO_PACKAGE=kaidoku
ZOO_VERSION=1.0.1
ZOO_AUTHOR="Katsutoshi Seki"
ZOO_LICENSE=MIT
ZOO_VERDICT='its terminal: "Now this problem is solved !"'

ZOO_NEEDS=("$ZOO_DIR/py/bin/kaidoku" /usr/bin/xterm /usr/bin/tmux /usr/bin/wmctrl)

zoo_install() { zoo_pip "kaidoku==1.0.1" "configobj==5.0.9" "pillow==13.0.0" "PyX==0.18" && zoo_apt xterm tmux python3-tk wmctrl; }

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home"  # a fresh HOME: no saved game
  zoo_terminal kaidoku-terminal env HOME="$ZOO_RUN/home" "$ZOO_DIR/py/bin/kaidoku"
  zoo_wait_window '^kaidoku-terminal$' 20 >/dev/null || return 1
  sleep 1.5
  zoo_keys c Enter
  sleep 1
  zoo_keys bord Enter
  zoo_wait_window '^KAIDOKU$' 20 >/dev/null || return 1
  ZOO_WINDOW=KAIDOKU
  sleep 1
}

# The problem as the terminal showed it ("c"): rows "N|9    |8 5  |2 1 4|".
kaidoku_puzzle() {
  zoo_terminal_text | python3 -c '
import re, sys
rows = [l for l in sys.stdin.read().split("\n") if re.match(r"^[1-9]\|", l)][:9]
print("".join((l + " " * 20)[p] if (l + " " * 20)[p] in "123456789" else "." for l in rows for p in (2, 4, 6, 8, 10, 12, 14, 16, 18)))'
}

zoo_verdict() {
  local w
  if w=$(zoo_wait_window '^KAIDOKU$' 1); then
    # "save", the button under the grid (the window is 270x300).
    xdotool mousemove --window "$w" 135 288 click 1
    sleep 0.3
    wmctrl -i -c "$(printf "0x%x" "$w")"
    sleep 1
  fi
  zoo_keys c Enter
  sleep 1
  zoo_judge_words 'this problem is solved' '' "$(zoo_terminal_text)" "kaidoku's terminal"
}

# The scripted player: the problem from the terminal, solved, typed into the entries
# (each cell's centre from the layout: 30-pixel cells, in window pixels).
zoo_player() {
  local mode=$1 puzzle solution w x0 y0
  puzzle=$(kaidoku_puzzle)
  solution=$(zoo_any_solution "$puzzle") || { zoo_log "player: kaidoku's problem $puzzle has no solution"; return 1; }
  w=$(zoo_wait_window '^KAIDOKU$' 5) || return 1
  python3 - "$mode" "$puzzle" "$solution" <<'PY' | while read -r r c d; do
import sys
mode, p, s = sys.argv[1:]
cells = [i for i in range(81) if p[i] == "."]
if mode == "wrong":
    cells = cells[:-1]
for i in cells:
    print(i // 9, i % 9, s[i])
PY
    xdotool mousemove --window "$w" $((c * 30 + 15)) $((r * 30 + 15)) click 1
    sleep 0.05
    xdotool key "$d"
    sleep 0.03
  done
}
