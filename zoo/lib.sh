# The zoo's shared shell functions, sourced by scripts/zoo.sh and by each game's file
# under zoo/games/. A game file defines:
#   ZOO_KIND ZOO_SOURCE ZOO_PACKAGE ZOO_VERSION ZOO_AUTHOR ZOO_LICENSE (what it is and
#                    where it comes from), ZOO_VERDICT (a few words: how the game judges)
#   zoo_install      install it (apt-get, pip into $ZOO_DIR/py, npm into $ZOO_DIR/npm)
#   zoo_launch       start it on $DISPLAY, in the background, through zoo_spawn; set
#                    ZOO_WINDOW to the title the bot is given (--window)
#   zoo_verdict      print the game's own verdict, one line: "solved: EVIDENCE",
#                    "not solved: EVIDENCE" (never from the bot)
#   zoo_player MODE  the scripted player: MODE right enters the whole answer, MODE wrong
#                    leaves the last empty cell empty
# and may define zoo_after_bot (what a person does after the last digit before the
# game judges, e.g. press its "Check" button; run before the verdict of every run).

ZOO_DIR=${ZOO_DIR:-$HOME/.cache/sudoku-bot/zoo}
ZOO_ROOT=${ZOO_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ZOO_PY=$ZOO_DIR/py/bin/python

zoo_pids=()
zoo_log() { echo "zoo: $*" >&2; }

# Starts a program in its own process group; its output goes to $ZOO_RUN/NAME.log.
zoo_spawn() {
  local name=$1
  shift
  setsid "$@" >"$ZOO_RUN/$name.log" 2>&1 </dev/null &
  zoo_pids+=($!)
}

# Ends everything zoo_spawn started since the display came up (newest first), not the
# display itself.
zoo_stop_games() {
  local keep=${1:-2} i
  for ((i = ${#zoo_pids[@]} - 1; i >= keep; i--)); do
    kill -TERM -- "-${zoo_pids[i]}" 2>/dev/null || true
  done
  sleep 0.3
  for ((i = ${#zoo_pids[@]} - 1; i >= keep; i--)); do
    kill -KILL -- "-${zoo_pids[i]}" 2>/dev/null || true
  done
  zoo_pids=("${zoo_pids[@]:0:keep}")
  # A game may leave its own children (tmux servers are started through their socket).
  [[ -n "${ZOO_TMUX:-}" ]] && tmux -L "$ZOO_TMUX" kill-server 2>/dev/null
  true
}

zoo_stop_all() { zoo_stop_games 0; }

# Xvfb on a free display with openbox managing it; exports DISPLAY.
zoo_display() {
  local n=$((ZOO_DISPLAY_BASE + $$ % 40)) tries
  for tries in $(seq 20); do
    while [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]]; do n=$((n + 1)); done
    export DISPLAY=":$n"
    zoo_spawn xvfb Xvfb "$DISPLAY" -screen 0 1280x1024x24 -nolisten tcp
    local i
    for i in $(seq 100); do
      xdpyinfo >/dev/null 2>&1 && [[ "$(tr -d ' ' <"/tmp/.X$n-lock" 2>/dev/null)" == "${zoo_pids[-1]}" ]] && break
      sleep 0.1
    done
    if xdpyinfo >/dev/null 2>&1; then break; fi
    kill "${zoo_pids[-1]}" 2>/dev/null
    unset 'zoo_pids[-1]'
    n=$((n + 1))
  done
  for tries in 1 2 3; do
    zoo_spawn openbox openbox
    local i
    for i in $(seq 100); do
      xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q "window id" && return 0
      sleep 0.1
    done
    kill -- "-${zoo_pids[-1]}" 2>/dev/null
    unset 'zoo_pids[-1]'
  done
  zoo_log "openbox did not start on $DISPLAY"
  return 1
}
ZOO_DISPLAY_BASE=${ZOO_DISPLAY_BASE:-250}

# The id of the first window the window manager manages whose title (_NET_WM_NAME,
# else WM_NAME; Qt 5 leaves WM_NAME empty) matches the extended REGEX; waits up to
# SECONDS (30 by default). Fails when none came.
zoo_wait_window() {
  local regex=$1 secs=${2:-30} end w
  end=$((SECONDS + secs))
  while ((SECONDS < end)); do
    for w in $(zoo_clients); do
      if zoo_title "$w" | grep -qE "$regex"; then
        printf '%d\n' "$w"
        return 0
      fi
    done
    sleep 0.2
  done
  return 1
}

zoo_clients() { xprop -root _NET_CLIENT_LIST 2>/dev/null | sed -n 's/.*# //p' | tr ',' ' '; }

zoo_title() {
  xprop -id "$1" _NET_WM_NAME WM_NAME 2>/dev/null | sed -n 's/^[A-Z_]*NAME([A-Z_0-9]*) = "\(.*\)"$/\1/p' | grep -m1 .
}

# Titles of all managed windows, one a line.
zoo_titles() {
  local w
  for w in $(zoo_clients); do zoo_title "$w"; done
}

# The whole screen as PNG at PATH.
zoo_shot() { timeout 20 import -window root "$1" 2>/dev/null; }

# The words on the screen (Tesseract on a screenshot scaled up twice), one string.
zoo_screen_words() {
  local png=$ZOO_RUN/words.png
  zoo_shot "$png" && convert "$png" -resize 200% "$png" 2>/dev/null
  tesseract "$png" - 2>/dev/null | tr '\n' ' ' | tr -s ' '
}

# A verdict from words: SUCCESS and FAILURE are extended regexes (case-insensitive)
# matched against TEXT; prints "solved: ..." or "not solved: ...".
zoo_judge_words() {
  local success=$1 failure=$2 text where=$4
  text=$(tr '\n' ' ' <<<"$3" | tr -s ' ')
  if [[ -n "$failure" ]] && grep -qiE "$failure" <<<"$text"; then
    echo "not solved: $where says \"$(grep -oiE "$failure" <<<"$text" | head -n 1)\""
  elif grep -qiE "$success" <<<"$text"; then
    echo "solved: $where says \"$(grep -oiE "$success" <<<"$text" | head -n 1)\""
  else
    echo "not solved: $where shows no success words ($(cut -c1-80 <<<"$text" | iconv -f UTF-8 -t UTF-8 -c))"
  fi
}

# The bot as the scripted players use it (its dry run gives the cells' places, `read`
# and `solve` a puzzle): $ZOO_PLAYER_BOT, else this tree's build, else $SUDOKU_BOT. Not
# the bot under test: a build in progress that misreads a game must not fail its
# controls (a locator build refused game-sudoku's grid in the positive control).
zoo_bot() {
  local bot=${ZOO_PLAYER_BOT:-$ZOO_ROOT/target/release/sudoku-bot-full}
  [[ -x $bot ]] || bot=${SUDOKU_BOT:-$bot}
  "$bot" "$@"
}

# The scripted player for games that take a click on a cell and then a digit key: the
# moves come from the bot's dry run (its reading, which this control also checks), and
# xdotool clicks and types them. MODE wrong skips the last move. Extra keys to press
# after each digit (e.g. Return) in ZOO_KEYS_AFTER.
zoo_click_player() {
  local mode=$1 moves n=0 total cell digit x y
  moves=$(zoo_bot --window "$ZOO_WINDOW" --once --dry-run 2>"$ZOO_RUN/dry.log" | grep -E '^r[1-9]c[1-9]=[1-9] at ')
  total=$(grep -c . <<<"$moves")
  if ((total == 0)); then
    zoo_log "player: the dry run gave no moves: $(tail -n 1 "$ZOO_RUN/dry.log")"
    return 1
  fi
  while read -r cell _ xy; do
    n=$((n + 1))
    [[ $mode == wrong && $n == "$total" ]] && break
    digit=${cell#*=}
    xy=${xy#(}
    xy=${xy%)}
    x=${xy%,*}
    y=${xy#*,}
    xdotool mousemove "$x" "$y" click 1
    sleep "${ZOO_CLICK_PAUSE:-0.08}"
    xdotool key "$digit" ${ZOO_KEYS_AFTER:-}
    sleep "${ZOO_KEY_PAUSE:-0.05}"
  done <<<"$moves"
}

# Runs the terminal game COMMAND in tmux (socket $ZOO_TMUX) inside an xterm titled
# TITLE, so that the bot sees a window and the zoo reads the terminal's text.
zoo_terminal() {
  local title=$1
  shift
  ZOO_TMUX=zoo-$$-$RANDOM
  zoo_spawn xterm xterm -T "$title" -geometry 90x30 -fa Monospace -fs 13 \
    -xrm 'XTerm*allowTitleOps: false' -e tmux -L "$ZOO_TMUX" -f /dev/null new-session -s game "$*" \; set-option status off
}

# The terminal's text as the game left it.
zoo_terminal_text() { tmux -L "$ZOO_TMUX" capture-pane -p -t game 2>/dev/null; }

zoo_keys() { tmux -L "$ZOO_TMUX" send-keys -t game "$@"; }

# The 81-character puzzle in a game's text: the first nine lines that hold nine cells
# (a digit, '.' or blanks) between box-drawing bars (| or the line characters), or split
# by them.
zoo_text_grid() {
  python3 -c '
import re, sys
rows = []
for line in sys.stdin.read().split("\n"):
    bars = [i for i, ch in enumerate(line) if ch in "|\u2502\u2503"]
    if len(bars) < 2 and "|" not in line:
        continue
    for text in (line[bars[0] + 1 : bars[-1]], line):
        cells = []
        for part in re.split("[|\u2502\u2503]", text):
            cells += part.split() or ["."]
        if len(cells) == 9 and all(c in "123456789." for c in cells):
            rows.append("".join(cells))
            break
print("".join(rows[:9]) if len(rows) >= 9 else "")
' <<<"$1"
}

# The solution of an 81-character puzzle (the project's solver; the verdict never uses it).
zoo_solve() { zoo_bot solve "$1"; }

# One solution of a puzzle that may have several (games that deal such puzzles accept
# any valid grid), by a small backtracking search; fails when there is none.
zoo_any_solution() {
  python3 - "$1" <<'PY'
import sys
g = list(sys.argv[1])
def options(i):
    r, c = divmod(i, 9)
    seen = {g[9 * r + k] for k in range(9)} | {g[9 * k + c] for k in range(9)}
    seen |= {g[9 * (3 * (r // 3) + k // 3) + 3 * (c // 3) + k % 3] for k in range(9)}
    return [d for d in "123456789" if d not in seen]
def solve():
    empty = [i for i in range(81) if g[i] == "."]
    if not empty:
        return True
    i = min(empty, key=lambda i: len(options(i)))
    for d in options(i):
        g[i] = d
        if solve():
            return True
    g[i] = "."
    return False
def clash(i):
    d, g[i] = g[i], "."
    bad = d not in options(i)
    g[i] = d
    return bad
if any(g[i] != "." and clash(i) for i in range(81)):
    sys.exit(1)
sys.exit(0 if solve() and print("".join(g)) is None else 1)
PY
}

# Installs Debian packages that are missing (apt-get; root, or sudo).
zoo_apt() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  local sudo=
  ((EUID == 0)) || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Installs a pinned PyPI package into the zoo's own virtualenv ($ZOO_DIR/py).
zoo_pip() {
  zoo_apt python3-venv python3-tk
  [[ -x $ZOO_PY ]] || /usr/bin/python3 -m venv "$ZOO_DIR/py"
  "$ZOO_DIR/py/bin/pip" install -q "$@"
}

# Installs pinned npm packages into $ZOO_DIR/npm/NAME.
zoo_npm() {
  local name=$1
  shift
  mkdir -p "$ZOO_DIR/npm/$name"
  (cd "$ZOO_DIR/npm/$name" && { [[ -f package.json ]] || echo '{"private":true}' >package.json; } && npm install --no-audit --no-fund -q "$@")
}

# The puzzle in the terminal's text and one solution of it: "PUZZLE SOLUTION".
zoo_terminal_answer() {
  local puzzle solution
  puzzle=$(zoo_text_grid "$(zoo_terminal_text)")
  solution=$(zoo_any_solution "$puzzle")
  if [[ ! $solution =~ ^[1-9]{81}$ ]]; then
    zoo_log "player: the terminal's grid $puzzle has no solution"
    return 1
  fi
  echo "$puzzle $solution"
}

# The scripted player of a terminal game: the puzzle read from the terminal's text,
# solved, and typed with the game's own keys from the cursor's start at r1c1 (KEYS:
# left right up down, as tmux key names).
zoo_terminal_player() {
  local mode=$1 left=$2 right=$3 up=$4 down=$5
  local puzzle solution
  read -r puzzle solution < <(zoo_terminal_answer) || return 1
  python3 - "$mode" "$puzzle" "$solution" "$left" "$right" "$up" "$down" <<'PY' | while read -r key; do zoo_keys "$key"; sleep "${ZOO_KEY_PAUSE:-0.03}"; done
import sys
mode, puzzle, solution, left, right, up, down = sys.argv[1:]
empties = [i for i, c in enumerate(puzzle) if c == "."]
if mode == "wrong":
    empties = empties[:-1]
r = c = 0
for i in empties:
    tr, tc = divmod(i, 9)
    while r < tr: print(down); r += 1
    while r > tr: print(up); r -= 1
    while c < tc: print(right); c += 1
    while c > tc: print(left); c -= 1
    print(solution[i])
PY
}

# The scripted player of a terminal game that puts the terminal's cursor on the cell it
# selects (MODE LEFT RIGHT UP DOWN as zoo_terminal_player): it looks, as a person does,
# before each digit (the cursor, from tmux, on the cell's character) and after it (the
# digit there in the terminal's text), and moves or types again when a key was lost.
zoo_terminal_player_checked() {
  local puzzle solution
  read -r puzzle solution < <(zoo_terminal_answer) || return 1
  python3 - "$ZOO_TMUX" "$1" "$puzzle" "$solution" "$2" "$3" "$4" "$5" <<'PY'
import re, subprocess, sys, time
sock, mode, puzzle, solution, left, right, up, down = sys.argv[1:]
tmux = lambda *a: subprocess.run(["tmux", "-L", sock, *a], capture_output=True, text=True).stdout

def screen():
    return tmux("capture-pane", "-p", "-t", "game").split("\n")

def places(lines):
    """(line, column) of each of the 81 cells' characters in the terminal."""
    out = []
    for y, line in enumerate(lines):
        bars = [i for i, ch in enumerate(line) if ch == "|"]
        if len(bars) < 2:
            continue
        xs = [x for x in range(bars[0] + 1, bars[-1]) if line[x] in "123456789."]
        if len(xs) == 9:
            out += [(y, x) for x in xs]
    return out[:81]

def cursor():
    x, y = tmux("display", "-p", "-t", "game", "#{cursor_x} #{cursor_y}").split()
    return int(y), int(x)

def wait(test, secs=4.0):
    end = time.time() + secs
    while time.time() < end:
        if test():
            return True
        time.sleep(0.05)
    return False

at = places(screen())
if len(at) != 81:
    sys.exit(f"player: no grid of 81 cells in the terminal ({len(at)})")
empties = [i for i, ch in enumerate(puzzle) if ch == "."]
if mode == "wrong":
    empties = empties[:-1]
for i in empties:
    for attempt in range(4):
        now = cursor()
        if now not in at:
            time.sleep(0.1)
            continue
        r, c = divmod(at.index(now), 9)
        tr, tc = divmod(i, 9)
        keys = [down] * max(tr - r, 0) + [up] * max(r - tr, 0) + [right] * max(tc - c, 0) + [left] * max(c - tc, 0)
        for k in keys:
            tmux("send-keys", "-t", "game", k)
        if wait(lambda: cursor() == at[i]):
            break
    tmux("send-keys", "-t", "game", solution[i])
    y, x = at[i]
    if not wait(lambda: screen()[y][x:x + 1] == solution[i]):
        print(f"player: r{i // 9 + 1}c{i % 9 + 1} did not show {solution[i]}", file=sys.stderr)
PY
}

# Clicks the middle of the first words on the screen that match REGEX (Tesseract's
# word boxes on a screenshot scaled up twice, else on the screenshot as it is: on a
# fresh Debian 12 machine Tesseract's layout analysis lost sudoku-1440's button row in
# the smoothed enlargement of its window, and read it in the original).
zoo_click_words() {
  local shot=$ZOO_RUN/click-1.png png=$ZOO_RUN/click.png xy="" k
  zoo_shot "$shot" || { zoo_log "no screenshot"; return 1; }
  for k in 2 1; do
    if ((k == 2)); then convert "$shot" -resize 200% "$png" 2>/dev/null; else cp "$shot" "$png"; fi
    xy=$(tesseract "$png" - tsv 2>/dev/null | awk -F'\t' -v re="$1" -v k=$k 'NR > 1 && $12 ~ re && $11 > 30 { print int(($7 + $9 / 2) / k) " " int(($8 + $10 / 2) / k); exit }')
    [[ -n $xy ]] && break
  done
  [[ -n $xy ]] || { zoo_log "no \"$1\" on the screen"; return 1; }
  xdotool mousemove $xy click 1
}

# Chromium in app mode on PAGE (a file path, or an http:// address on 127.0.0.1),
# WIDTH,HEIGHT, with its DevTools port on 127.0.0.1 ($ZOO_CDP) for the verdict.
zoo_chromium() {
  local page=$1 size=$2
  [[ $page == http://* ]] || page=file://$page
  ZOO_CDP=$((9300 + RANDOM % 500))
  zoo_spawn browser chromium --no-sandbox --test-type --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --password-store=basic --user-data-dir="$(mktemp -d "$ZOO_RUN/chromium.XXXX")" --window-size="$size" \
    --window-position=0,0 --remote-debugging-address=127.0.0.1 --remote-debugging-port="$ZOO_CDP" \
    --app="$page"
}

# The value of a JavaScript EXPRESSION in the browser's page (JSON).
zoo_dom() { node --experimental-websocket --no-warnings "$ZOO_ROOT/zoo/web/cdp.mjs" "$ZOO_CDP" "$1"; }

# The scripted player for games where a click on an empty cell enters something by
# itself (KSudoku enters its palette's digit): one click on a given selects it, then
# arrow keys walk to each empty cell and a digit key fills it. The cells' places come
# from the bot's dry run (a line fitted through them gives every cell's centre).
zoo_arrow_player() {
  local mode=$1 moves
  moves=$(zoo_bot --window "$ZOO_WINDOW" --once --dry-run 2>"$ZOO_RUN/dry.log" | grep -E '^r[1-9]c[1-9]=[1-9] at ')
  [[ -n $moves ]] || { zoo_log "player: the dry run gave no moves: $(tail -n 1 "$ZOO_RUN/dry.log")"; return 1; }
  python3 -c '
import re, sys
mode = sys.argv[1]
moves = [tuple(map(int, m)) for m in re.findall(r"r(\d)c(\d)=(\d) at \((-?\d+),(-?\d+)\)", sys.stdin.read())]
def fit(pairs):  # least squares v = v0 + k * i
    n = len(pairs); si = sum(i for i, _ in pairs); sv = sum(v for _, v in pairs)
    sii = sum(i * i for i, _ in pairs); siv = sum(i * v for i, v in pairs)
    k = (n * siv - si * sv) / (n * sii - si * si); return (sv - k * si) / n, k
x0, kx = fit([(c, x) for r, c, d, x, y in moves]); y0, ky = fit([(r, y) for r, c, d, x, y in moves])
empty = {(r, c) for r, c, *_ in moves}
start = next((r, c) for r in range(1, 10) for c in range(1, 10) if (r, c) not in empty)
print("click", round(x0 + kx * start[1]), round(y0 + ky * start[0]))
if mode == "wrong":
    moves = moves[:-1]
r, c = start
for tr, tc, d, *_ in moves:
    for _ in range(abs(tr - r)): print("key", "Down" if tr > r else "Up")
    for _ in range(abs(tc - c)): print("key", "Right" if tc > c else "Left")
    r, c = tr, tc
    print("key", d)
' "$mode" <<<"$moves" | while read -r what a b; do
    if [[ $what == click ]]; then
      xdotool mousemove "$a" "$b" click 1
      sleep 0.3
    else
      xdotool key "$a"
      sleep "${ZOO_KEY_PAUSE:-0.05}"
    fi
  done
}

# The words in the first managed window whose title matches REGEX (Tesseract on a
# capture of it, scaled up twice); empty when there is no such window.
zoo_window_words() {
  local w png=$ZOO_RUN/window-words.png
  w=$(zoo_wait_window "$1" "${2:-1}") || return 0
  timeout 20 import -window "$w" "$png" 2>/dev/null && convert "$png" -resize 200% "$png" 2>/dev/null
  tesseract "$png" - 2>/dev/null | tr '\n' ' ' | tr -s ' '
}

# A verdict on an 81-character grid the game itself gave (its DOM, its copied text):
# solved when full and every row, column and box holds 1-9.
zoo_judge_grid() {
  python3 - "$1" "$2" <<'PY'
import sys
g, where = sys.argv[1], sys.argv[2]
units = [[9 * r + c for c in range(9)] for r in range(9)] + [[9 * r + c for r in range(9)] for c in range(9)] \
    + [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)]
if len(g) != 81:
    print(f"not solved: {where} holds no grid ({g[:20]})")
elif "!" in g:
    print(f"not solved: {where} marks {g.count('!')} cells as clashing")
elif any(ch not in "123456789" for ch in g):
    print(f"not solved: {where} has {sum(ch not in '123456789' for ch in g)} empty cells")
elif all(sorted(g[i] for i in u) == list("123456789") for u in units):
    print(f"solved: {where} is full and every row, column and box holds 1-9 ({g[:9]}...)")
else:
    print(f"not solved: {where} breaks a rule ({g[:9]}...)")
PY
}

# The screen position of the browser page's top left corner (ZOO_PAGE_X, ZOO_PAGE_Y):
# the browser's window, plus the frame Chromium draws itself inside it (outer minus
# inner size: borders on each side, the title bar on top).
zoo_page_origin() {
  local w frame
  w=$(zoo_wait_window "^$ZOO_WINDOW" 5) || return 1
  eval "$(xdotool getwindowgeometry --shell "$w")"
  frame=$(zoo_dom '[Math.round((outerWidth - innerWidth) / 2), Math.round(outerHeight - innerHeight - (outerWidth - innerWidth) / 2)]' | tr -d '[] ')
  ZOO_PAGE_X=$((X + ${frame%,*}))
  ZOO_PAGE_Y=$((Y + ${frame#*,}))
}

# The words drawn in COLOR (MODE text) or on a bar of COLOR (MODE bar) on the screen
# shot PNG: Tesseract on the box around the pixels of that colour alone, turned dark on
# light. For a game's message over its grid, which Tesseract misses on the whole screen.
zoo_color_words() {
  local png=$1 color=$2 mode=$3 box map
  box=$(convert "$png" -fuzz 12% -fill black +opaque "$color" -fill white -opaque "$color" -trim -format '%wx%h%X%Y' info: 2>/dev/null)
  [[ $box =~ ^([0-9]+)x([0-9]+)\+ ]] && ((BASH_REMATCH[1] > 40 && BASH_REMATCH[2] > 10)) || return 0
  if [[ $mode == bar ]]; then
    map=(-fill black +opaque "$color" -fill white -opaque "$color")
  else
    map=(-fill white +opaque "$color" -fill black -opaque "$color")
  fi
  convert "$png" -crop "$box" +repage -fuzz 12% "${map[@]}" -bordercolor white -border 20 -resize 200% png:- 2>/dev/null |
    tesseract - - --psm 7 2>/dev/null | tr '\n' ' ' | tr -s ' '
}
