# The zoo's shared shell functions, sourced by scripts/zoo.sh and by each game's file
# under zoo/games/. A game file defines:
#   ZOO_KIND ZOO_SOURCE ZOO_PACKAGE ZOO_VERSION (what it is and where it comes from)
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

# The id of the first mapped, managed window whose title matches REGEX (waits up to
# SECONDS, 30 by default); empty when none came.
zoo_wait_window() {
  local regex=$1 secs=${2:-30} end id
  end=$((SECONDS + secs))
  while ((SECONDS < end)); do
    for id in $(xdotool search --onlyvisible --name "$regex" 2>/dev/null); do
      if xprop -root _NET_CLIENT_LIST 2>/dev/null | grep -qi "$(printf '0x%x' "$id")"; then
        echo "$id"
        return 0
      fi
    done
    sleep 0.2
  done
  return 1
}

# Titles of all managed windows, one a line.
zoo_titles() {
  local w
  for w in $(xprop -root _NET_CLIENT_LIST 2>/dev/null | sed 's/.*# //; s/,/ /g'); do
    xprop -id "$w" _NET_WM_NAME WM_NAME 2>/dev/null | sed -n 's/^[A-Z_]*NAME([A-Z_0-9]*) = "\(.*\)"$/\1/p' | head -n 1
  done
}

# The whole screen as PNG at PATH.
zoo_shot() { import -window root "$1" 2>/dev/null; }

# The words on the screen (Tesseract on a screenshot scaled up twice), one string.
zoo_screen_words() {
  local png=$ZOO_RUN/words.png
  zoo_shot "$png" && convert "$png" -resize 200% "$png" 2>/dev/null
  tesseract "$png" - 2>/dev/null | tr '\n' ' ' | tr -s ' '
}

# A verdict from words: SUCCESS and FAILURE are extended regexes (case-insensitive)
# matched against TEXT; prints "solved: ..." or "not solved: ...".
zoo_judge_words() {
  local success=$1 failure=$2 text=$3 where=$4
  if [[ -n "$failure" ]] && grep -qiE "$failure" <<<"$text"; then
    echo "not solved: $where says \"$(grep -oiE "$failure" <<<"$text" | head -n 1)\""
  elif grep -qiE "$success" <<<"$text"; then
    echo "solved: $where says \"$(grep -oiE "$success" <<<"$text" | head -n 1)\""
  else
    echo "not solved: $where shows no success words ($(cut -c1-80 <<<"$text"))"
  fi
}

# The bot, as a user runs it: the executable from SUDOKU_BOT, else this worktree's build.
zoo_bot() {
  local bot=${SUDOKU_BOT:-$ZOO_ROOT/target/release/sudoku-bot-full}
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
    -xrm 'XTerm*allowTitleOps: false' -e tmux -L "$ZOO_TMUX" -f /dev/null new-session -s game "$*"
}

# The terminal's text as the game left it.
zoo_terminal_text() { tmux -L "$ZOO_TMUX" capture-pane -p -t game 2>/dev/null; }

zoo_keys() { tmux -L "$ZOO_TMUX" send-keys -t game "$@"; }

# The 81-character puzzle in a grid of text lines: every line with 9 cells of a digit or
# a blank/dot, read from column offsets COL0 + i*STEP, on rows ROW0 + j*RSTEP.
zoo_text_grid() {
  local text=$1 row0=$2 rstep=$3 col0=$4 step=$5
  python3 - "$row0" "$rstep" "$col0" "$step" <<EOF
import sys
row0, rstep, col0, step = map(int, sys.argv[1:])
lines = """$text""".split("\n")
out = ""
for j in range(9):
    line = lines[row0 + j * rstep] if row0 + j * rstep < len(lines) else ""
    for i in range(9):
        c = line[col0 + i * step] if col0 + i * step < len(line) else " "
        out += c if c in "123456789" else "."
print(out)
EOF
}

# The solution of an 81-character puzzle (the project's solver; the verdict never uses it).
zoo_solve() { zoo_bot solve "$1"; }

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

# The scripted player of a terminal game: the puzzle read from the terminal's text (grid
# at ROW0 + j*RSTEP, COL0 + i*STEP), solved, and typed with the game's own keys from
# the cursor's start at r1c1 (KEYS: left right up down, as tmux key names).
zoo_terminal_player() {
  local mode=$1 row0=$2 rstep=$3 col0=$4 step=$5 left=$6 right=$7 up=$8 down=$9
  local puzzle solution
  puzzle=$(zoo_text_grid "$(zoo_terminal_text)" "$row0" "$rstep" "$col0" "$step")
  solution=$(zoo_solve "$puzzle")
  if [[ ! $solution =~ ^[1-9]{81}$ ]]; then
    zoo_log "player: the terminal's grid $puzzle does not solve: $solution"
    return 1
  fi
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
