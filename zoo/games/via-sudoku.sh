# via-sudoku-solver 1.0.1 (OpenCV's highgui window, Qt backend), PyPI. It fills 30
# random cells that break no rule (the puzzle may have several solutions, or none; it
# takes any valid grid). Verdict: "Win!" that it draws under the grid when the grid is
# valid.
ZOO_KIND=OpenCV/Qt
ZOO_SOURCE=pypi
ZOO_PACKAGE=via-sudoku-solver
ZOO_VERSION=1.0.1
ZOO_AUTHOR="voilalex (Ilya Vouk)"
ZOO_LICENSE=MIT
ZOO_VERDICT='"Win!" under its grid'

ZOO_NEEDS=("$ZOO_DIR/py/bin/via-sudoku-solver")

zoo_install() { zoo_pip "via-sudoku-solver==1.0.1" "opencv-python==4.10.0.84" "click==8.1.7" "numpy==2.3.5"; }

# Its random boards often have no solution (with its default of 30 random clues that
# only break no rule, 21 boards in 21 here): it is started with 20 clues (its own
# --filled option), and the launch refills the board (key r) until it has a solution,
# 30 tries.
zoo_launch() {
  local w tries top puzzle
  zoo_spawn game env QT_QPA_PLATFORM=xcb "$ZOO_DIR/py/bin/via-sudoku-solver" --filled 20
  w=$(zoo_wait_window '^Sudoku$' 40) || return 1
  ZOO_WINDOW=Sudoku
  sleep 1
  for tries in $(seq 30); do
    if read -r top puzzle < <(via_board "$w") && [[ $(zoo_solve "$puzzle") =~ ^([1-9]{81}|multiple) ]]; then
      return 0
    fi
    xdotool windowactivate "$w" 2>/dev/null
    xdotool key r
    sleep 1
  done
  zoo_log "via-sudoku: no solvable board in 30 refills"
  return 1
}

# The words in its green bar under the grid (Tesseract on that strip alone).
zoo_verdict() {
  local w strip=$ZOO_RUN/via-bar.png words
  w=$(zoo_wait_window '^Sudoku$' 2) || { echo "not solved: no Sudoku window"; return; }
  timeout 20 import -window "$w" "$ZOO_RUN/via-verdict.png" 2>/dev/null
  "$ZOO_PY" - "$ZOO_RUN/via-verdict.png" "$strip" <<'PY' || { echo "not solved: no green bar under the grid"; return; }
import sys, cv2
im = cv2.imread(sys.argv[1])
rows = [y for y in range(im.shape[0]) if tuple(im[y, 5]) == (0, 255, 0)]
if not rows:
    sys.exit(1)
bar = cv2.cvtColor(im[rows[0]:rows[-1] + 1], cv2.COLOR_BGR2GRAY)
cv2.imwrite(sys.argv[2], cv2.resize(bar, None, fx=2, fy=2))
PY
  words=$(tesseract "$strip" - --psm 7 2>/dev/null | tr '\n' ' ')
  zoo_judge_words 'Win' '' "$words" "via-sudoku-solver's bar under the grid"
}

# The scripted player: the bot's reader refuses this game's cyan clue cells, so the player
# reads a copy of the board with cyan turned white and a frame drawn round it
# (`sudoku-bot read` on that picture),
# finds any solution (the game accepts any valid grid; its puzzles may have several),
# and clicks each empty cell (66-pixel cells of the 600-pixel board under the toolbar,
# as the game's own mouse handler counts them) and types the digit.
# Prints the board's top edge (window pixels) and the puzzle read, or fails.
via_board() {
  local w=$1 png=$ZOO_RUN/via-board.png top puzzle
  timeout 20 import -window "$w" "$ZOO_RUN/via-window.png" 2>/dev/null || return 1
  top=$("$ZOO_PY" - "$ZOO_RUN/via-window.png" "$png" <<'PY'
import sys, cv2, numpy as np
im = cv2.imread(sys.argv[1])
top = next(y for y in range(im.shape[0]) if tuple(im[y, 5]) != (239, 239, 239))
board = im[top:top + 600, 0:600].copy()
b, g, r = board[..., 0].astype(int), board[..., 1].astype(int), board[..., 2].astype(int)
board[(r < 100) & (g > 150) & (b > 150)] = 255
# The board fills the window's width, its outer lines cut by the window's edges: a frame
# and a white margin make it a whole grid for the reader.
cv2.rectangle(board, (0, 0), (599, 599), (0, 0, 0), 3)
board = cv2.copyMakeBorder(board, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(255, 255, 255))
cv2.imwrite(sys.argv[2], board)
print(top)
PY
  ) || return 1
  puzzle=$(zoo_bot read "$png" 2>"$ZOO_RUN/via-read.log" | head -n 1)
  [[ $puzzle =~ ^[1-9.]{81}$ ]] || { zoo_log "the board reads as \"$puzzle\": $(tail -n 1 "$ZOO_RUN/via-read.log")"; return 1; }
  echo "$top $puzzle"
}

# The scripted player clicks a cell, waits until the game shows it selected (pink), types
# the digit and waits until the digit is drawn, as a person looks before the next move:
# the game takes one key per turn of its loop and runs every click that came meanwhile
# first, so under load a digit typed before the next click is drawn may land in the next
# cell (or, the selection dropped, nowhere).
zoo_player() {
  local mode=$1 w top puzzle solution
  w=$(zoo_wait_window '^Sudoku$' 5) || return 1
  read -r top puzzle < <(via_board "$w") || return 1
  solution=$(zoo_any_solution "$puzzle") || { zoo_log "player: the board $puzzle has no solution"; return 1; }
  "$ZOO_PY" - "$mode" "$puzzle" "$solution" "$w" "$top" "$ZOO_RUN/via-move.png" <<'PY'
import subprocess, sys, time
import cv2
mode, p, s, w, top, png = sys.argv[1:]
top = int(top)
cells = [i for i in range(81) if p[i] == "."]
if mode == "wrong":
    cells = cells[:-1]

def cell(i):
    subprocess.run(["import", "-window", w, png], stderr=subprocess.DEVNULL)
    im = cv2.imread(png)
    r, c = divmod(i, 9)
    return im[top + r * 66 + 8 : top + r * 66 + 58, c * 66 + 8 : c * 66 + 58] if im is not None else None

def wait_for(i, test, secs=5.0):
    end = time.time() + secs
    while time.time() < end:
        patch = cell(i)
        if patch is not None and test(patch):
            return True
        time.sleep(0.05)
    return False

pink = lambda patch: tuple(int(v) for v in patch[2, 2]) == (200, 150, 200)
inked = lambda patch: not pink(patch) and (patch.min(axis=2) < 100).sum() > 30
for i in cells:
    r, c = divmod(i, 9)
    for attempt in range(3):
        subprocess.run(["xdotool", "mousemove", "--window", w, str(c * 66 + 33), str(top + r * 66 + 33), "click", "1"])
        if wait_for(i, pink):
            break
    subprocess.run(["xdotool", "key", s[i]])
    if not wait_for(i, inked):
        print(f"player: r{r + 1}c{c + 1} did not show its digit", file=sys.stderr)
PY
}
