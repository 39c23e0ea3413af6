# Solo's variants (Simon Tatham's Portable Puzzle Collection, Debian's sgt-puzzles):
# the shared part of zoo/games/sgt-solo-{x,jigsaw,jigsaw-x,killer}.sh. Each of those
# sets SOLO_PRESET (the preset it was generated from: `sgt-solo --list-presets`), SOLO_ID
# (a game ID that `sgt-solo --generate 1 PRESET` printed: the zoo deals the same puzzle
# every time) and SOLO_RULES (the rules beyond rows and columns, for the verdict's words:
# "boxes diagonals", "regions", ...), then sources this file.
#
# These are games the bot must REFUSE (ZOO_EXPECT=refuse): a version that plays classic
# sudoku only must not claim any of them solved (docs/zoo.md, "Variants the bot must
# refuse").
#
# Solo's own answer: `sgt-solo --generate 1 --print 1x1 --with-solutions ID` prints the
# puzzle of that game ID and, on a second page, its solution, as PostScript: page 1 holds
# the givens, page 2 all 81 digits, each drawn at its cell's centre (512 units a cell).
# Solo's solver makes that page, with the variant's rules; its puzzles have one solution
# under them. The players type that answer; the verdicts compare with it.
#
# The verdict:
# - X, jigsaw, jigsaw X: Solo's own text of its grid (Game > Copy, read with xclip; empty
#   cells are "." or, on a diagonal of an X puzzle, "_"; jigsaw regions are drawn with
#   | - + between the cells), which must be Solo's own solution. For the words, the grid
#   is also checked against rows, columns, the boxes or regions read from those walls,
#   and the diagonals.
# - killer: Solo cannot copy a killer grid (its Copy is greyed: "Formatting Killer
#   puzzles as text is currently unsupported", solo.c). Instead Solo draws its own
#   answer over the grid: the window is captured, Game > Solve is chosen (the menu is
#   seen open, then closed), and the window captured again; the grid is Solo's solution
#   when Solve changed no cell (and Solve is seen to have run: its grid differs from the
#   grid as dealt, captured at launch).

ZOO_KIND=GTK
ZOO_SOURCE=debian
ZOO_PACKAGE=sgt-puzzles
ZOO_VERSION=20230122.806ae71-2
ZOO_AUTHOR="Simon Tatham"
ZOO_LICENSE=MIT
ZOO_EXPECT=refuse

ZOO_NEEDS=(/usr/games/sgt-solo /usr/bin/xclip)

zoo_install() { zoo_apt sgt-puzzles xclip; }

# Solo's own answer for the game ID: "GIVENS SOLUTION", 81 characters each ('.' empty),
# from its printed puzzle and solution pages (made once a zoo run).
solo_answer() {
  local cache=$ZOO_RUN/solo-$SOLO_PRESET.answer
  if [[ ! -s $cache ]]; then
    /usr/games/sgt-solo --generate 1 --print 1x1 --with-solutions "$SOLO_ID" 2>/dev/null | python3 -c '
import re, sys
pages = re.split(r"%%Page: \d+ \d+\n", sys.stdin.read())[1:]
out = []
for page in pages[:2]:
    g = ["."] * 81
    # A big digit centred on its cell: "... 2 div Y exch sub X exch moveto pop pop" then "(D) dup stringwidth".
    for y, x, d in re.findall(r"2 div (\d+) exch sub (\d+) exch moveto pop pop\n\((\d)\) dup stringwidth", page):
        c, r = round(int(x) / 512) - 1, round((4609 - int(y)) / 512)
        if 0 <= r < 9 and 0 <= c < 9:
            g[9 * r + c] = d
    out.append("".join(g))
if len(out) == 2 and "." not in out[1]:
    print(*out)
' >"$cache"
  fi
  [[ $(cat "$cache" 2>/dev/null) =~ ^[1-9.]{81}\ [1-9]{81}$ ]] || { rm -f "$cache"; zoo_log "Solo printed no solution for $SOLO_ID"; return 1; }
  cat "$cache"
}

zoo_launch() {
  solo_answer >/dev/null || return 1
  rm -rf "$ZOO_RUN/home" && mkdir -p "$ZOO_RUN/home" # a fresh HOME: no saved game, no preferences
  HOME=$ZOO_RUN/home zoo_spawn game /usr/games/sgt-solo "$SOLO_ID"
  local w
  w=$(zoo_wait_window '^Solo$' 30) || return 1
  ZOO_WINDOW=Solo
  sleep 1
  # The grid as dealt, for the killer verdict's proof that Solve ran.
  rm -f "$ZOO_RUN/solo-dealt.png"
  timeout 20 import -window "$w" "$ZOO_RUN/solo-dealt.png" 2>/dev/null
  true
}

# Whether Solo's Game menu is up: an override-redirect window of sgt-solo's, mapped.
solo_menu_up() {
  local id
  for id in $(xwininfo -root -children 2>/dev/null | awk '/"sgt-solo"/ { print $1 }'); do
    xwininfo -id "$id" 2>/dev/null | grep -q 'Map State: IsViewable' &&
      xwininfo -id "$id" 2>/dev/null | grep -q 'Override Redirect State: yes' && return 0
  done
  return 1
}

# Chooses an item of Solo's Game menu by KEYS typed once the menu is seen up (from the
# menu's end: Up once is Exit, twice Solve, three times Copy; a greyed item is skipped),
# and sees it close. Fails when the menu never came up.
solo_game_menu() {
  local w tries i
  w=$(zoo_wait_window '^Solo$' 2) || return 1
  for tries in 1 2 3 4 5 6; do
    xdotool windowactivate "$w" 2>/dev/null
    xdotool mousemove --window "$w" 27 12 click 1
    for i in $(seq 20); do
      solo_menu_up && break
      sleep 0.1
    done
    if solo_menu_up; then
      sleep 0.2
      xdotool key "$@"
      for i in $(seq 20); do
        solo_menu_up || return 0
        sleep 0.1
      done
    fi
    xdotool key Escape
    sleep 0.3
  done
  return 1
}

# Solo's own text of its grid (Game > Copy): "GRID REGIONS", the 81 cells ('.' empty)
# and each cell's region (a letter), from the walls Solo draws in its text: '|' between
# two cells of a row, '-' or '+' under a cell (3x3 boxes in a classic or X grid, the
# jigsaw's own regions in a jigsaw).
solo_copied_grid() {
  local tries text
  for tries in 1 2 3; do
    printf '' | xclip -selection clipboard >/dev/null 2>&1
    solo_game_menu Up Up Up Return || continue
    sleep 0.3
    text=$(xclip -o -selection clipboard -t UTF8_STRING 2>/dev/null)
    [[ -n $text ]] || continue
    python3 -c '
import sys
lines = sys.stdin.read().split("\n")
rows = []  # (line number, the 9 cells, their columns in the line)
for n, line in enumerate(lines):
    at = [x for x, ch in enumerate(line) if ch in "123456789._" and (x == 0 or line[x - 1] == " ") and line[x + 1:x + 2] in ("", " ")]
    if len(at) == 9:
        rows.append((n, "".join(line[x] for x in at).replace("_", "."), at))
if len(rows) != 9:
    print("")
    sys.exit()
grid = "".join(cells for _, cells, _ in rows)
# Regions: neighbours with no wall between them share one.
part = list(range(81))
def find(i):
    while part[i] != i:
        part[i] = part[part[i]]
        i = part[i]
    return i
for r, (n, _, at) in enumerate(rows):
    line = lines[n]
    below = lines[n + 1] if r < 8 and n + 1 < len(lines) else ""
    for c, x in enumerate(at):
        if c < 8 and line[x + 1:at[c + 1]].strip() == "":
            part[find(9 * r + c)] = find(9 * r + c + 1)
        if r < 8 and below[x:x + 1] not in ("-", "+"):
            part[find(9 * r + c)] = find(9 * r + c + 9)
names = {}
regions = "".join(names.setdefault(find(i), "abcdefghijklmnopqrstuvwxyz"[min(len(names), 25)]) for i in range(81))
print(grid, regions)
' <<<"$text"
    return 0
  done
  return 1
}

# The verdict on Solo's copied grid and regions (solo_copied_grid), against Solo's own
# answer.
solo_judge_copy() {
  local givens solution
  read -r givens solution < <(solo_answer) || { echo "no verdict: Solo printed no solution"; return; }
  python3 - "$1" "$2" "$givens" "$solution" "$SOLO_RULES" <<'PY'
import sys
g, regions, givens, solution, rules = sys.argv[1:]
where = "Solo's copied grid"
if len(g) != 81:
    print(f"not solved: {where} holds no grid")
    sys.exit()
rows = [[9 * r + c for c in range(9)] for r in range(9)]
cols = [[9 * r + c for r in range(9)] for c in range(9)]
areas = [[i for i in range(81) if regions[i] == name] for name in sorted(set(regions))]
diags = [[10 * i for i in range(9)], [8 * i + 8 for i in range(9)]]
def ok(units):
    return len(units) == 9 and all(len({g[i] for i in u}) == 9 for u in units)
empty = g.count(".")
if g == solution:
    print(f"solved: {where} is Solo's own solution ({g[:9]}...)")
elif empty:
    dealt = " (all as dealt: nothing entered)" if g == givens else ""
    print(f"not solved: {where} has {empty} empty cells{dealt}")
else:
    diff = sum(a != b for a, b in zip(g, solution))
    checks = [("rows", ok(rows)), ("columns", ok(cols)), ("jigsaw regions" if "regions" in rules else "3x3 boxes", ok(areas))]
    if "diagonals" in rules:
        checks.append(("diagonals", ok(diags)))
    good = [n for n, v in checks if v]
    bad = [n for n, v in checks if not v]
    words = (", ".join(good) + " hold 1-9" if good else "") + ("; " if good and bad else "") + ("broken: " + ", ".join(bad) if bad else "")
    print(f"not solved: {where} differs from Solo's own solution in {diff} cells ({words}; {g[:9]}...)")
PY
}

# The killer verdict: the window before and after Game > Solve, cell by cell.
solo_judge_by_solve() {
  local w before=$ZOO_RUN/solo-before.png after=$ZOO_RUN/solo-after.png again=$ZOO_RUN/solo-again.png i
  w=$(zoo_wait_window '^Solo$' 2) || { echo "not solved: no Solo window"; return; }
  xdotool windowactivate "$w" 2>/dev/null
  sleep 0.3
  timeout 20 import -window "$w" "$before" 2>/dev/null || { echo "no verdict: no capture of Solo's window"; return; }
  solo_game_menu Up Up Return || { echo "no verdict: Solo's Game menu did not open for Solve"; return; }
  # Solve redraws at once; wait until two captures agree.
  sleep 0.5
  timeout 20 import -window "$w" "$after" 2>/dev/null
  for i in 1 2 3 4 5; do
    sleep 0.3
    timeout 20 import -window "$w" "$again" 2>/dev/null
    cmp -s <(convert "$after" ppm:- 2>/dev/null) <(convert "$again" ppm:- 2>/dev/null) && break
    cp "$again" "$after"
  done
  python3 - "$before" "$after" "$ZOO_RUN/solo-dealt.png" <<'PY'
import subprocess, sys
def load(path):
    data = subprocess.run(["convert", path, "ppm:-"], capture_output=True).stdout
    parts, pos = [], 0
    while len(parts) < 4:  # P6 W H MAX, each followed by one whitespace byte
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        parts.append(data[pos:end]); pos = end
    pos += 1
    w, h = int(parts[1]), int(parts[2])
    return w, h, data[pos:pos + 3 * w * h]
try:
    (w, h, before), (w2, h2, after), dealt = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
except Exception as e:
    print(f"no verdict: the captures of Solo's window could not be read ({e})")
    sys.exit()
if (w, h) != (w2, h2) or dealt[:2] != (w, h):
    print("no verdict: Solo's window changed size since it was dealt")
    sys.exit()
px = lambda img, x, y: img[3 * (w * y + x): 3 * (w * y + x) + 3]
# The grid's frame: the box round the black pixels (Solo draws its grid lines black).
black = [(x, y) for y in range(0, h, 1) for x in range(0, w, 2) if px(after, x, y) == b"\0\0\0"]
if not black:
    print("no verdict: no grid in Solo's window after Solve")
    sys.exit()
x0, x1 = min(x for x, _ in black), max(x for x, _ in black)
y0, y1 = min(y for _, y in black), max(y for _, y in black)
def changed(a, b):
    """The cells (r, c) inside the grid whose pixels differ between captures a and b."""
    cells = set()
    for y in range(y0, y1 + 1):
        ra, rb = a[3 * w * y: 3 * w * (y + 1)], b[3 * w * y: 3 * w * (y + 1)]
        if ra == rb:
            continue
        for x in range(x0, x1 + 1):
            if ra[3 * x: 3 * x + 3] != rb[3 * x: 3 * x + 3]:
                cells.add((min(8, 9 * (y - y0) // (y1 - y0 + 1)), min(8, 9 * (x - x0) // (x1 - x0 + 1))))
    return cells
solved_cells = changed(before, after)
# Solve must be seen to have run: its grid is not the grid as dealt (a killer grid is
# dealt with empty cells; Solve fills them all).
if not changed(dealt[2], after):
    print("no verdict: after Game > Solve the grid is as dealt (Solve did not run)")
    sys.exit()
entered = changed(dealt[2], before)
note = f"; {81 - len(entered)} of 81 cells as dealt" + (": nothing entered" if not entered else "")
if not solved_cells:
    print(f"solved: Game > Solve changed no cell: the grid was Solo's own solution{note}")
else:
    print(f"not solved: Game > Solve changed {len(solved_cells)} of 81 cells (Solo's own solution differs there{note})")
PY
}

zoo_verdict() {
  if [[ $SOLO_RULES == *cages* ]]; then
    solo_judge_by_solve
    return
  fi
  local grid regions
  read -r grid regions < <(solo_copied_grid) || { echo "not solved: Game > Copy put no grid on the clipboard"; return; }
  solo_judge_copy "$grid" "$regions"
}

# A grid that keeps the classic rules (rows, columns, 3x3 boxes) and the givens but is
# not Solo's solution, so it breaks the variant's own rule (an X puzzle: a diagonal; a
# killer puzzle, which has no givens: cages): the first such grid of a backtracking
# search. Fails when the classic puzzle has no other solution.
solo_classic_only() {
  python3 - "$1" "$2" <<'PY'
import sys
givens, solution = sys.argv[1:]
g = list(givens)
def options(i):
    r, c = divmod(i, 9)
    seen = {g[9 * r + k] for k in range(9)} | {g[9 * k + c] for k in range(9)}
    seen |= {g[9 * (3 * (r // 3) + k // 3) + 3 * (c // 3) + k % 3] for k in range(9)}
    return [d for d in "123456789" if d not in seen]
def search():
    empty = [i for i in range(81) if g[i] == "."]
    if not empty:
        return "".join(g) != solution
    i = min(empty, key=lambda i: len(options(i)))
    for d in options(i):
        g[i] = d
        if search():
            return True
    g[i] = "."
    return False
sys.exit(0 if search() and print("".join(g)) is None else 1)
PY
}

# The scripted player, with Solo's keyboard cursor (no dry run of the bot: the bot must
# refuse these grids): Up and Left to the top left cell, then the arrows to each empty
# cell, and the digit. MODE right types Solo's own answer; wrong leaves the last empty
# cell empty; classic types a grid that keeps the classic rules but not the variant's
# (solo_classic_only).
zoo_player() {
  local mode=$1 givens solution answer w
  read -r givens solution < <(solo_answer) || return 1
  answer=$solution
  if [[ $mode == classic ]]; then
    answer=$(solo_classic_only "$givens" "$solution") || { zoo_log "player: this puzzle has no other classic solution"; return 1; }
    zoo_log "player: a classic grid that is not Solo's solution: $answer"
  fi
  w=$(zoo_wait_window '^Solo$' 5) || return 1
  xdotool windowactivate "$w" 2>/dev/null
  sleep 0.3
  python3 - "$mode" "$givens" "$answer" <<'PY' | xargs -r xdotool key --delay "${ZOO_KEY_DELAY:-15}"
import sys
mode, givens, answer = sys.argv[1:]
empties = [i for i in range(81) if givens[i] == "."]
if mode == "wrong":
    empties = empties[:-1]
keys, r, c = ["Up"] * 8 + ["Left"] * 8, 0, 0
for i in empties:
    tr, tc = divmod(i, 9)
    keys += ["Down"] * max(tr - r, 0) + ["Up"] * max(r - tr, 0) + ["Right"] * max(tc - c, 0) + ["Left"] * max(c - tc, 0)
    keys.append(answer[i])
    r, c = tr, tc
print(" ".join(keys))
PY
}
