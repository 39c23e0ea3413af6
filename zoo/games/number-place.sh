# NiceGUI Number Place 0.1.3 (PyPI nicegui-number-place, NiceGUI 2 = Vue 3 + Quasar in
# the browser), in Chromium. A PAD-ONLY game: keys do nothing; a person picks a digit on
# the pad of buttons 1-9 beside the grid (the picked button turns green), then clicks the
# cells that take it (a click on a cell that already holds the picked digit empties it).
# Its own verdict is the line above the grid: "残り N" (N left), "不正解!" (wrong) or
# "クリア!" (cleared), read from its DOM through DevTools on 127.0.0.1.
#
# It asks for Python >= 3.12 but uses nothing newer than 3.10: installed with
# --ignore-requires-python into a virtualenv of its own on Debian's Python 3.11. Its
# server is started the way its own run_game() starts it, with the host set to
# 127.0.0.1 (its default is every address) and no browser of its own.
ZOO_KIND=browser/NiceGUI
ZOO_SOURCE=pypi
ZOO_PACKAGE=nicegui-number-place
ZOO_VERSION=0.1.3
ZOO_AUTHOR="Saito Tsutomu"
ZOO_LICENSE=Apache-2.0
ZOO_VERDICT='its line "クリア!" (DOM)'

NP_PY=$ZOO_DIR/py-nicegui/bin/python
ZOO_NEEDS=("$ZOO_DIR/py-nicegui/bin/number-place" /usr/bin/chromium /usr/bin/node)

zoo_install() {
  zoo_apt python3-venv chromium nodejs || return 1
  [[ -x $NP_PY ]] || /usr/bin/python3 -m venv "$ZOO_DIR/py-nicegui" || return 1
  "$ZOO_DIR/py-nicegui/bin/pip" install -q "nicegui==2.11.1" "fire==0.7.0" "numpy==2.2.3" &&
    "$ZOO_DIR/py-nicegui/bin/pip" install -q --no-deps --ignore-requires-python "nicegui-number-place==0.1.3"
}

zoo_launch() {
  local port=$((8400 + RANDOM % 500)) i
  BROWSER=/bin/true zoo_spawn server "$NP_PY" -c "
from nicegui import ui
from nicegui_number_place import Game
Game()
ui.run(title='Number Place', reload=False, host='127.0.0.1', port=$port, show=False)"
  for i in $(seq 150); do
    curl -sf "http://127.0.0.1:$port/" >/dev/null && break
    sleep 0.2
  done
  zoo_chromium "http://127.0.0.1:$port/" 900,760
  zoo_wait_window '^Number Place' 45 >/dev/null || return 1
  ZOO_WINDOW="Number Place"
  # The page draws its grid once its websocket is up.
  for i in $(seq 50); do
    [[ $(np_grid) =~ ^[.1-9]{81}$ ]] && break
    sleep 0.2
  done
  sleep 0.5
}

# The 81 cells row by row ('.' empty), from the page's DOM.
np_grid() {
  zoo_dom '(() => {
    const cells = [...document.querySelectorAll("div.w-12.h-12.border-black")];
    return cells.length == 81 ? cells.map((c) => /^[1-9]$/.test(c.textContent.trim()) ? c.textContent.trim() : ".").join("") : "";
  })()' 2>/dev/null | tr -d '"'
}

# The game's own line above the grid.
np_message() {
  zoo_dom '(() => { const m = document.querySelector("div.text-3xl:not(.w-12)"); return m ? m.textContent.trim() : ""; })()' 2>/dev/null | tr -d '"'
}

zoo_verdict() {
  local message
  message=$(np_message)
  case $message in
    "クリア!") echo "solved: Number Place says \"クリア!\" (cleared)" ;;
    "不正解!") echo "not solved: Number Place says \"不正解!\" (wrong)" ;;
    "") echo "not solved: Number Place's page shows no message (its DOM could not be read)" ;;
    *) echo "not solved: Number Place says \"$message\"" ;;
  esac
}

# The scripted player, as a person plays it: for each digit, a click on its pad button,
# then a click on every empty cell whose answer it is. The puzzle comes from the DOM; the
# places from the elements' boxes, offset by the page's place on the screen.
zoo_player() {
  local mode=$1 puzzle solution
  puzzle=$(np_grid)
  solution=$(zoo_any_solution "$puzzle") || { zoo_log "player: no solution for $puzzle"; return 1; }
  local boxes
  boxes=$(zoo_dom '(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; };
    const cells = [...document.querySelectorAll("div.w-12.h-12.border-black")].map(box);
    const pad = {};
    for (const b of document.querySelectorAll("button")) { const t = b.textContent.trim(); if (/^[1-9]$/.test(t)) pad[t] = box(b); }
    return { cells, pad };
  })()') || return 1
  zoo_page_origin || return 1
  python3 - "$mode" "$puzzle" "$solution" "$boxes" "$ZOO_PAGE_X" "$ZOO_PAGE_Y" <<'PY' | while read -r x y; do xdotool mousemove "$x" "$y" click 1; sleep "${ZOO_CLICK_PAUSE:-0.12}"; done
import json, sys
mode, puzzle, solution, boxes, ox, oy = sys.argv[1:]
boxes, ox, oy = json.loads(boxes), int(ox), int(oy)
todo = [i for i, c in enumerate(puzzle) if c == "."]
if mode == "wrong":
    todo = todo[:-1]
for d in "123456789":
    cells = [i for i in todo if solution[i] == d]
    if not cells:
        continue
    x, y = boxes["pad"][d]
    print(ox + x, oy + y)
    for i in cells:
        x, y = boxes["cells"][i]
        print(ox + x, oy + y)
PY
}
