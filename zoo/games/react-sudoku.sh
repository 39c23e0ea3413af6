# sudoku-react-component 0.0.5 (React 16, <input> cells), npm, in Chromium. The game
# marks clashing cells "collided" and has no win message: the verdict is its DOM, read
# through DevTools: 81 cells, all filled, none collided, every row, column and box 1-9.
ZOO_KIND=browser/React
ZOO_SOURCE=npm
ZOO_PACKAGE=sudoku-react-component
ZOO_VERSION=0.0.5
ZOO_AUTHOR="Matus Ledenyi"
ZOO_LICENSE=GPL-3.0
ZOO_VERDICT='its DOM: full, no clash'

ZOO_NEEDS=("$ZOO_DIR/npm/react-sudoku/react-sudoku.html" /usr/bin/chromium /usr/bin/node)

zoo_install() {
  zoo_npm react-sudoku sudoku-react-component@0.0.5 react@16.14.0 react-dom@16.14.0 &&
    cp "$ZOO_ROOT/zoo/web/react-sudoku.html" "$ZOO_DIR/npm/react-sudoku/"
}

zoo_launch() {
  zoo_chromium "$ZOO_DIR/npm/react-sudoku/react-sudoku.html" 900,900
  zoo_wait_window '^React Sudoku' 45 >/dev/null || return 1
  ZOO_WINDOW="React Sudoku"
  sleep 1.5
}

# The grid as the page holds it: 81 characters row by row ('.' empty), "!" when a
# cell is marked collided. Cells are .SudokuField.boxB.fieldF (box and place in it).
react_grid() {
  zoo_dom '(() => {
    const g = Array(81).fill("?");
    for (const el of document.querySelectorAll(".SudokuField")) {
      const b = +el.className.match(/box(\d)/)[1], f = +el.className.match(/field(\d)/)[1];
      const r = 3 * Math.floor(b / 3) + Math.floor(f / 3), c = 3 * (b % 3) + (f % 3);
      const input = el.querySelector("input");
      const v = (input ? input.value : el.textContent).trim();
      g[9 * r + c] = el.classList.contains("collided") && v ? "!" : (/^[1-9]$/.test(v) ? v : ".");
    }
    return g.join("");
  })()' | tr -d '"'
}

zoo_verdict() {
  local grid
  grid=$(react_grid) || { echo "not solved: the page's DOM could not be read"; return; }
  [[ $grid == *"?"* ]] && grid="no full grid: $grid"
  zoo_judge_grid "$grid" "the page's DOM"
}

zoo_player() { zoo_click_player "$1"; }
