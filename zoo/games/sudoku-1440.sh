# sudoku_1440 3.2.2 (Kivy 2.3, TextInput cells), PyPI. Started on its "generate a random
# puzzle" button (as a person starts a game). Verdict: its "Submit!" button (pressed by
# the zoo, as the person would, after the last digit), which shows "Correct!",
# "Incorrect!" or "Please fill the entire grid!" for two seconds.
#
# When it starts it fetches a list of puzzles from the network for its other button
# ("read random puzzle from file"), which fails here ("failed to lookup address
# information"). Its own reader (lib_sudoku.PuzzleReader) also reads a local file: the
# zoo hands it one, written at install by lib_sudoku's own generator. The game's code is
# run unchanged; the zoo never presses that button.
ZOO_KIND=Kivy
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudoku-1440
ZOO_VERSION=3.2.2
ZOO_AUTHOR="shaggysa"
ZOO_LICENSE=MIT
ZOO_VERDICT='its Submit!: "Correct!" (pressed by the zoo)'

S1440_CSV=$ZOO_DIR/sudoku-1440-puzzles.csv
ZOO_NEEDS=("$ZOO_DIR/py/bin/sudoku_1440" "$S1440_CSV")

zoo_install() {
  zoo_pip "sudoku-1440==3.2.2" "Kivy==2.3.1" "lib_sudoku==2.2.0" && zoo_apt libmtdev1 libgl1 libgl1-mesa-dri xclip || return 1
  # The local puzzle list, in the format of the one it fetches: a header, then
  # "puzzle,solution" lines (81 digits each); it picks line 2-1001 at random.
  "$ZOO_PY" -c '
import lib_sudoku as s
print("quizzes,solutions")
for _ in range(1002):
    p = list(s.gen_unsolved(30))
    print("".join(map(str, p)) + "," + "".join(map(str, s.solve(p))))' >"$S1440_CSV.tmp" && mv "$S1440_CSV.tmp" "$S1440_CSV"
}

zoo_launch() {
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home"  # a fresh HOME: Kivy's own settings
  HOME=$ZOO_RUN/home KIVY_NO_ARGS=1 zoo_spawn game "$ZOO_PY" -c "
import lib_sudoku
fetch = lib_sudoku.PuzzleReader
lib_sudoku.PuzzleReader = lambda address, remote: fetch('$S1440_CSV', False)
from sudoku_1440.main import main
main()"
  zoo_wait_window '^Sudoku$' 60 >/dev/null || return 1
  ZOO_WINDOW=Sudoku
  # Kivy draws its buttons a while after the window maps (2 s was enough until a fresh
  # machine's first starts took longer): the button is waited for, 30 s at most.
  local tries=0
  sleep 2
  until zoo_click_words 'generate'; do
    ((++tries < 15)) || return 1
    sleep 2
  done
  sleep 1.5
}

# Its "Submit!" button (the middle of the bar under the grid), pressed as the person
# would after the last digit. The message lasts two seconds, white on a green bar over
# the grid: the verdict looks for the bar a few times and reads it (Tesseract on the bar
# alone, dark on light).
zoo_verdict() {
  local w png=$ZOO_RUN/verdict.png words i
  w=$(zoo_wait_window '^Sudoku$' 2) || { echo "not solved: no sudoku_1440 window"; return; }
  eval "$(xdotool getwindowgeometry --shell "$w")"
  xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT * 934 / 1000)) click 1
  for i in $(seq 8); do
    sleep 0.2
    zoo_shot "$png"
    words=$(zoo_color_words "$png" 'srgb(51,178,76)' bar)
    [[ -n ${words// /} ]] && break
  done
  zoo_judge_words 'Correct!' 'Incorrect|fill the entire' "${words:-}" "sudoku_1440's message"
}

# Kivy loses a click that comes too soon after a key on this busy machine: a person's
# pace.
zoo_player() { ZOO_CLICK_PAUSE=0.3 ZOO_KEY_PAUSE=0.2 zoo_click_player "$1"; }
