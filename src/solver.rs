//! The sudoku solver: constraint propagation on digit bitboards with depth-first guessing,
//! which solves a puzzle and proves its solution unique.
//!
//! The method follows the band-based bitboard solvers (JCZSolve by Zhou Yundong, as
//! ported to Rust in the `sudoku` crate, and tdoku by Tom Dillon), written afresh here:
//! the state is, for each digit and each band (three rows), a 27-bit mask of the cells
//! where the digit may still go. These rules run to a fixpoint:
//!
//! - **Band shrink** (locked candidates, pointing and claiming between rows and boxes):
//!   in a band a digit occupies one mini-row (row x box) in each row and in each box, so
//!   its occupied mini-rows must form one of the six row->box permutations. A table of
//!   the 512 mini-row patterns keeps the mini-rows that belong to some permutation.
//! - **Column pointing**: a box where a digit is left in one column (a placed digit
//!   included) takes that column from the digit in the other two bands.
//! - **Hidden singles in rows** (and boxes, which the shrink turns into row singles): a
//!   row left with one cell for a digit solves that cell, which leaves the other digits.
//! - **Naked singles**: a cell left with one digit, found for all 27 cells of a band at
//!   once by bit-sliced counting over the nine digit masks. A cell with none is a dead end.
//! - **Hidden singles in columns**, tried only when the rules above are stuck.
//!
//! Choosing a digit for a cell only narrows that digit's mask to the cell in its row and
//! box; the band rules do the rest. When propagation stops, the solver guesses on a
//! two-candidate cell (see [`State::guess_cell`]): the state is a small `Copy` struct, so
//! a guess is a copy on the stack, and backtracking is dropping it.
//!
//! On x86-64 CPUs with POPCNT, BMI1/2, LZCNT and AVX2 (detected at run time) the search
//! runs a second copy of itself compiled for those instructions; elsewhere (older x86-64,
//! aarch64) the portable copy runs. The only `unsafe` is that call, after the detection.

use crate::grid::{Conflict, Grid};

/// The answer for a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solution {
    /// Exactly one solution.
    Unique(Grid),
    /// More than one solution; this is one of them.
    Multiple(Grid),
    /// The givens do not clash, but no grid completes them.
    Unsolvable,
    /// Givens clash: the same digit twice in a row, column or box (every clash listed,
    /// rows first).
    Invalid(Vec<Conflict>),
}

/// Solves `grid` and proves the solution unique (it searches for a second one).
pub fn solve(grid: &Grid) -> Solution {
    let Some(start) = State::from_grid(grid) else {
        return clash_or_unsolvable(grid);
    };
    let mut search = Search {
        limit: 2,
        count: 0,
        first: None,
    };
    search.run(start);
    match (search.count, search.first) {
        (0, _) | (_, None) => Solution::Unsolvable,
        (1, Some(g)) => Solution::Unique(g),
        (_, Some(g)) => Solution::Multiple(g),
    }
}

/// The number of solutions of `grid`, counting up to `limit` and stopping there. A grid
/// with clashing givens has none.
pub fn count_solutions(grid: &Grid, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let Some(start) = State::from_grid(grid) else {
        return 0;
    };
    let mut search = Search {
        limit,
        count: 0,
        first: None,
    };
    search.run(start);
    search.count
}

/// For each cell, the digits its row, column and box still allow, as a mask: bit `d - 1`
/// set when digit `d` may go there. A given cell has just its own digit. This is the plain
/// rule of the game (no propagation), so a digit read doubtfully can be checked against
/// the others cheaply.
pub fn candidates(grid: &Grid) -> [u16; 81] {
    const ALL: u16 = 0x1FF;
    let cells = grid.cells();
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let bit = 1 << (v - 1);
            rows[i / 9] |= bit;
            cols[i % 9] |= bit;
            boxes[box_of(i)] |= bit;
        }
    }
    let mut out = [0u16; 81];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = match cells[i] {
            0 => ALL & !(rows[i / 9] | cols[i % 9] | boxes[box_of(i)]),
            v => 1 << (v - 1),
        };
    }
    out
}

fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// The solver found the givens contradictory: say whether they clash outright.
fn clash_or_unsolvable(grid: &Grid) -> Solution {
    let conflicts = grid.conflicts();
    if conflicts.is_empty() {
        Solution::Unsolvable
    } else {
        Solution::Invalid(conflicts)
    }
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The three cells of column `c` (0..9) within a band.
const fn column_in_band(c: u32) -> u32 {
    0x40201 << c
}

/// Box occupancy (3 bits) of a 9-bit row.
const ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 0o7 != 0) as u8)
            | (((x & 0o70 != 0) as u8) << 1)
            | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// For a band's mini-row pattern (bit `3 * row + box` set when that mini-row has a
/// candidate), the cells of the mini-rows that lie on some row->box permutation whose
/// three mini-rows are all occupied; 0 when no permutation fits (a contradiction).
const SHRINK: [u32; 512] = {
    const PERMS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut allowed = 0u32;
        let mut k = 0;
        while k < 6 {
            let s = PERMS[k];
            let bits = (1 << s[0]) | (1 << (3 + s[1])) | (1 << (6 + s[2]));
            if p as u32 & bits == bits {
                allowed |= bits;
            }
            k += 1;
        }
        let mut cells = 0u32;
        let mut m = 0;
        while m < 9 {
            if allowed & (1 << m) != 0 {
                cells |= 0o7 << ((m / 3) * 9 + (m % 3) * 3);
            }
            m += 1;
        }
        t[p] = cells;
        p += 1;
    }
    t
};

/// For the columns open to a digit in a band (9 bits), the cells the other two bands keep:
/// a box where the digit is left in one column (pointing, or a placed digit) takes that
/// column from the other bands.
const COLUMN_POINTING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0u32;
    while cols < 512 {
        let mut remove = 0u32;
        let mut stack = 0u32;
        while stack < 3 {
            let bits = (cols >> (3 * stack)) & 0o7;
            if bits != 0 && bits & (bits - 1) == 0 {
                remove |= column_in_band(3 * stack + bits.trailing_zeros());
            }
            stack += 1;
        }
        t[cols as usize] = BAND & !remove;
        cols += 1;
    }
    t
};

/// For a cell of a band (0..27), its row and box within the band, itself included.
const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let row = 0x1FF << (p / 9 * 9);
        let boxm = (0o7 | 0o7 << 9 | 0o7 << 18) << (p % 9 / 3 * 3);
        t[p] = row | boxm;
        p += 1;
    }
    t
};

/// The search state: where each digit may still go, band by band.
#[derive(Clone, Copy)]
struct State {
    /// `cand[3 * digit + band]`: 27-bit mask of the cells of `band` open to `digit` (0-based
    /// digit). A placed digit keeps its own bit.
    cand: [u32; 27],
    /// The `cand` entries changed since the band rules last ran on them (bit `i` for
    /// `cand[i]`). Kept as each write happens: finding them by comparing with a copy
    /// made the processor wait on its store buffer (a vector load over fresh scalar
    /// stores), a fifth of the search's time.
    dirty: u32,
    /// Cells of each band with no digit placed yet.
    unsolved: [u32; 3],
}

impl State {
    fn from_grid(grid: &Grid) -> Option<State> {
        // Every mask starts dirty, so the first pass of the band rules visits them all.
        let mut s = State {
            cand: [BAND; 27],
            dirty: BAND,
            unsolved: [BAND; 3],
        };
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 && !s.place(v as usize - 1, i / 27, (i % 27) as u32) {
                return None;
            }
        }
        Some(s)
    }

    /// Places a given `digit` at cell `p` of `band` with all its consequences at once: the
    /// cell leaves the other digits, the digit leaves the cell's row, box and column.
    /// False when the digit is no longer open there (givens that clash).
    fn place(&mut self, digit: usize, band: usize, p: u32) -> bool {
        let bit = 1u32 << p;
        if self.cand[3 * digit + band] & bit == 0 {
            return false;
        }
        self.unsolved[band] &= !bit;
        let mut i = band;
        while i < 27 {
            self.cand[i] &= !bit;
            i += 3;
        }
        let base = 3 * digit;
        self.cand[base + band] |= bit;
        self.cand[base + band] &= !BAND_PEERS[p as usize] | bit;
        let column = column_in_band(p % 9);
        let (o1, o2) = OTHER_BANDS[band];
        self.cand[base + o1] &= !column;
        self.cand[base + o2] &= !column;
        true
    }

    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Runs the rules to a fixpoint; false on a contradiction.
    #[inline(always)]
    fn propagate(&mut self) -> bool {
        loop {
            if !self.update_bands() {
                return false;
            }
            if self.solved() {
                return true;
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Keeps `digit` at cell `p` of `band` and removes it from the rest of that row and
    /// box. The band update does the rest: the row is then solved, so the cell leaves the
    /// other digits and its column leaves the other bands.
    #[inline(always)]
    fn choose(&mut self, digit: usize, band: usize, p: u32) {
        self.narrow(3 * digit + band, !BAND_PEERS[p as usize] | (1 << p));
    }

    /// Keeps only the cells of `keep` in `cand[i]`, marking it dirty when that changes it.
    #[inline(always)]
    fn narrow(&mut self, i: usize, keep: u32) {
        narrow(&mut self.cand, &mut self.dirty, i, keep);
    }

    /// Runs [`State::update`] on every changed mask until none changes; false on a
    /// contradiction.
    #[inline(always)]
    fn update_bands(&mut self) -> bool {
        // A local copy of the dirty set stays in a register through the loop.
        let mut dirty = self.dirty;
        while dirty != 0 {
            let mut pass = dirty;
            while pass != 0 {
                let i = pass.trailing_zeros() as usize;
                pass &= pass - 1;
                if !self.update(i, &mut dirty) {
                    return false;
                }
            }
        }
        self.dirty = 0;
        true
    }

    /// The band rules for one digit in one band: the shrink (locked candidates between
    /// rows and boxes), columns locked in a box leave the other bands, and rows left with
    /// one cell are solved, so those cells leave the other digits. False on a
    /// contradiction (a row or box with no place for the digit).
    #[inline(always)]
    fn update(&mut self, i: usize, dirty: &mut u32) -> bool {
        let m = self.cand[i];
        let pattern = ROW_BOXES[(m & 0x1FF) as usize] as usize
            | (ROW_BOXES[((m >> 9) & 0x1FF) as usize] as usize) << 3
            | (ROW_BOXES[(m >> 18) as usize] as usize) << 6;
        let m = m & SHRINK[pattern];
        if m == 0 {
            return false;
        }
        let band = BAND_OF[i] as usize;
        let base = i - band;
        let columns = (m | m >> 9 | m >> 18) & 0x1FF;
        let keep = COLUMN_POINTING[columns as usize];
        let (o1, o2) = OTHER_BANDS[band];
        narrow(&mut self.cand, dirty, base + o1, keep);
        narrow(&mut self.cand, dirty, base + o2, keep);
        let r0 = m & 0x1FF;
        let r1 = m & (0x1FF << 9);
        let r2 = m & (0x1FF << 18);
        let solved = if r0 & (r0 - 1) == 0 { r0 } else { 0 }
            | if r1 & (r1 - 1) == 0 { r1 } else { 0 }
            | if r2 & (r2 - 1) == 0 { r2 } else { 0 };
        // Cells solved before already left the other digits.
        let new = solved & self.unsolved[band];
        if new != 0 {
            self.unsolved[band] &= !new;
            let mut j = band;
            while j < 27 {
                narrow(&mut self.cand, dirty, j, !new);
                j += 3;
            }
        }
        self.cand[i] = m;
        *dirty &= !(1 << i);
        true
    }

    /// Chooses every cell left with one digit. None on a cell with no digit left, else
    /// whether anything was chosen.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let mut chosen = false;
        for band in 0..3 {
            let (ones, twos) = self.count_band(band);
            let unsolved = self.unsolved[band];
            if unsolved & !ones != 0 {
                return None;
            }
            let singles = unsolved & !twos;
            if singles == 0 {
                continue;
            }
            chosen = true;
            for digit in 0..9 {
                let mut cells = singles & self.cand[3 * digit + band];
                while cells != 0 {
                    let p = cells.trailing_zeros();
                    cells &= cells - 1;
                    self.choose(digit, band, p);
                }
            }
        }
        Some(chosen)
    }

    /// Cells of a band with at least one, and at least two, open digits.
    #[inline(always)]
    fn count_band(&self, band: usize) -> (u32, u32) {
        let mut ones = 0;
        let mut twos = 0;
        let mut i = band;
        while i < 27 {
            let m = self.cand[i];
            twos |= ones & m;
            ones |= m;
            i += 3;
        }
        (ones, twos)
    }

    /// Chooses each digit that has one open cell left in some column. None on a column
    /// with no open cell for a digit, else whether anything was chosen.
    #[inline(always)]
    fn column_singles(&mut self) -> Option<bool> {
        let mut chosen = false;
        for digit in 0..9 {
            let base = 3 * digit;
            let mut seen = 0u32;
            let mut many = 0u32;
            for band in 0..3 {
                let m = self.cand[base + band];
                let (a, b, c) = (m & 0x1FF, (m >> 9) & 0x1FF, m >> 18);
                let in_band = a | b | c;
                let twice = (a & b) | (a & c) | (b & c);
                many |= twice | (seen & in_band);
                seen |= in_band;
            }
            if seen != 0x1FF {
                return None;
            }
            let once = seen & !many;
            if once == 0 {
                continue;
            }
            let once = once * 0x40201;
            for band in 0..3 {
                let mut hits = self.cand[base + band] & once & self.unsolved[band];
                while hits != 0 {
                    let p = hits.trailing_zeros();
                    hits &= hits - 1;
                    self.choose(digit, band, p);
                    chosen = true;
                }
            }
        }
        Some(chosen)
    }

    /// The cell to guess on, as (band, cell in band): among the two-candidate cells, the
    /// one that sees the most unsolved cells (so either answer settles the most), else the
    /// cell with the fewest candidates. On the tdoku corpora the "sees most" choice cuts
    /// guesses by a third against taking the first two-candidate cell.
    #[inline(always)]
    fn guess_cell(&self) -> (usize, u32) {
        let mut pick = None;
        let mut most_seen = 0;
        for band in 0..3 {
            let mut ones = 0;
            let mut twos = 0;
            let mut threes = 0;
            let mut i = band;
            while i < 27 {
                let m = self.cand[i];
                threes |= twos & m;
                twos |= ones & m;
                ones |= m;
                i += 3;
            }
            let mut pairs = self.unsolved[band] & twos & !threes;
            while pairs != 0 {
                let p = pairs.trailing_zeros();
                pairs &= pairs - 1;
                let column = column_in_band(p % 9);
                let seen = (self.unsolved[band] & BAND_PEERS[p as usize]).count_ones()
                    + (self.unsolved[0] & column).count_ones()
                    + (self.unsolved[1] & column).count_ones()
                    + (self.unsolved[2] & column).count_ones();
                if seen > most_seen {
                    most_seen = seen;
                    pick = Some((band, p));
                }
            }
        }
        if let Some(pick) = pick {
            return pick;
        }
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let p = open.trailing_zeros();
                open &= open - 1;
                let n = self.digits_at(band, p).count_ones();
                if n < best.2 {
                    best = (band, p, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The digits open at a cell, bit `d` for 0-based digit `d`.
    #[inline(always)]
    fn digits_at(&self, band: usize, p: u32) -> u32 {
        let mut mask = 0;
        for d in 0..9 {
            mask |= ((self.cand[3 * d + band] >> p) & 1) << d;
        }
        mask
    }

    fn grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for digit in 0..9 {
            for band in 0..3 {
                let mut m = self.cand[3 * digit + band];
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    cells[band * 27 + p] = digit as u8 + 1;
                }
            }
        }
        Grid::from_cells(cells)
    }
}

/// Keeps only the cells of `keep` in `cand[i]`, adding `i` to `dirty` when that changes it.
#[inline(always)]
fn narrow(cand: &mut [u32; 27], dirty: &mut u32, i: usize, keep: u32) {
    let old = cand[i];
    let new = old & keep;
    cand[i] = new;
    *dirty |= ((old != new) as u32) << i;
}

const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// The band of `cand[i]`: `i % 3`, looked up (the division costs more in the hot loop).
const BAND_OF: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = (i % 3) as u8;
        i += 1;
    }
    t
};

/// A depth-first search counting solutions up to `limit`, keeping the first.
struct Search {
    limit: usize,
    count: usize,
    first: Option<Grid>,
}

/// The search, once as written and, on x86-64, once more compiled for the instructions of
/// recent CPUs (POPCNT, BMI1/2, LZCNT, AVX2), picked at run time: the bit counting and
/// scanning of the search are single instructions there. Both copies recurse into
/// themselves.
macro_rules! search_fn {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
            fn $name(&mut self, mut state: State) {
                loop {
                    if !state.propagate() {
                        return;
                    }
                    if state.solved() {
                        self.count += 1;
                        if self.first.is_none() {
                            self.first = Some(state.grid());
                        }
                        return;
                    }
                    let (band, p) = state.guess_cell();
                    let mut digits = state.digits_at(band, p);
                    // Try every digit but the last on a copy; the last continues on `state`.
                    while digits & (digits - 1) != 0 {
                        let digit = digits.trailing_zeros() as usize;
                        digits &= digits - 1;
                        let mut trial = state;
                        trial.choose(digit, band, p);
                        self.$name(trial);
                        if self.count >= self.limit {
                            return;
                        }
                        state.narrow(3 * digit + band, !(1 << p));
                    }
                    if digits == 0 {
                        return;
                    }
                    state.choose(digits.trailing_zeros() as usize, band, p);
                }
            }
    };
}

impl Search {
    /// Counts the solutions reachable from `state` (up to `limit`).
    fn run(&mut self, state: State) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: `run_x86_v3` only needs the CPU features enabled on it, and every one
            // of them was just detected on this CPU.
            unsafe { self.run_x86_v3(state) };
            return;
        }
        self.run_portable(state);
    }

    search_fn!(run_portable);

    #[cfg(target_arch = "x86_64")]
    search_fn!(
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
        run_x86_v3
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTS: &str = include_str!("../fixtures/puzzles/counts.txt");
    const SEVENTEEN: &str = include_str!("../fixtures/puzzles/17_clue_sample.txt");
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(line: &str) -> Grid {
        Grid::parse(line).unwrap()
    }

    #[test]
    fn every_counted_puzzle_has_its_exact_number_of_solutions() {
        let mut checked = 0;
        for line in COUNTS.lines().filter(|l| !l.trim().is_empty()) {
            let mut fields = line.trim().split(':');
            let puzzle = grid(fields.next().unwrap());
            let count: usize = fields.next().unwrap().parse().unwrap();
            assert_eq!(count_solutions(&puzzle, 100_000), count, "{line}");
            match (solve(&puzzle), count) {
                (Solution::Unsolvable, 0) => {}
                (Solution::Unique(s), 1) => {
                    assert!(puzzle.is_solved_by(&s), "{line}");
                    if let Some(expected) = fields.next() {
                        assert_eq!(s.to_line(), expected, "{line}");
                    }
                }
                (Solution::Multiple(s), n) if n > 1 => assert!(puzzle.is_solved_by(&s), "{line}"),
                (other, _) => panic!("{line}: got {other:?}"),
            }
            checked += 1;
        }
        assert_eq!(checked, 43);
    }

    #[test]
    fn the_portable_search_counts_as_the_dispatched_one() {
        // On a CPU with the x86-64 extensions `solve` runs the other copy; this one runs on
        // older x86-64 and on aarch64.
        for line in COUNTS.lines().filter(|l| !l.trim().is_empty()) {
            let mut fields = line.trim().split(':');
            let puzzle = grid(fields.next().unwrap());
            let count: usize = fields.next().unwrap().parse().unwrap();
            let mut search = Search {
                limit: 100_000,
                count: 0,
                first: None,
            };
            if let Some(start) = State::from_grid(&puzzle) {
                search.run_portable(start);
            }
            assert_eq!(search.count, count, "{line}");
            assert_eq!(search.count, count_solutions(&puzzle, 100_000), "{line}");
        }
    }

    #[test]
    fn counting_stops_at_the_limit() {
        let many = COUNTS.lines().find(|l| l.contains(":847")).unwrap();
        let puzzle = grid(&many[..81]);
        assert_eq!(count_solutions(&puzzle, 10), 10);
        assert_eq!(count_solutions(&puzzle, 0), 0);
        assert_eq!(count_solutions(&Grid::EMPTY, 3), 3);
        assert!(matches!(solve(&Grid::EMPTY), Solution::Multiple(s) if s.is_complete()));
    }

    #[test]
    fn seventeen_clue_puzzles_solve_to_valid_grids_that_keep_the_givens() {
        let mut n = 0;
        for line in SEVENTEEN.lines().filter(|l| !l.trim().is_empty()) {
            let puzzle = grid(line);
            assert_eq!(puzzle.filled(), 17, "{line}");
            match solve(&puzzle) {
                Solution::Unique(s) => assert!(puzzle.is_solved_by(&s), "{line} -> {s}"),
                other => panic!("{line}: got {other:?}"),
            }
            n += 1;
        }
        assert_eq!(n, 200);
    }

    #[test]
    fn a_classic_puzzle_and_its_solution() {
        assert_eq!(solve(&grid(PUZZLE)), Solution::Unique(grid(SOLUTION)));
        // A full valid grid is its own unique solution.
        assert_eq!(solve(&grid(SOLUTION)), Solution::Unique(grid(SOLUTION)));
    }

    #[test]
    fn clashing_givens_are_explained() {
        let mut g = grid(PUZZLE);
        g.set(2, 8, 9); // row 3 already has a 9 at r3c3
        match solve(&g) {
            Solution::Invalid(conflicts) => {
                assert_eq!(conflicts[0].to_string(), "duplicate 9 in row 3");
            }
            other => panic!("got {other:?}"),
        }
        assert_eq!(count_solutions(&g, 2), 0);
    }

    #[test]
    fn consistent_givens_without_a_solution_are_unsolvable() {
        // r1c3 may hold only 1, 2 or 4 by its houses; give 1 and 2 elsewhere in its row and
        // 4 in its column: no clash, but no digit left for r1c3.
        let mut g = grid(PUZZLE);
        g.set(0, 6, 1);
        g.set(0, 3, 2);
        g.set(6, 2, 4);
        assert!(g.conflicts().is_empty());
        assert_eq!(solve(&g), Solution::Unsolvable);
    }

    #[test]
    fn candidates_follow_the_rules() {
        let c = candidates(&grid(PUZZLE));
        assert_eq!(c[0], 1 << 4); // the given 5
                                  // r1c3: row has 3,5,7; column 8; box 3,5,6,8,9 -> 1, 2, 4 remain.
        assert_eq!(c[2], 0b1011);
    }

    #[test]
    fn shrink_table_keeps_only_permutations() {
        // All nine mini-rows open: everything stays.
        assert_eq!(SHRINK[0x1FF], BAND);
        // Rows 0 and 1 both only in box 0: no permutation.
        assert_eq!(SHRINK[0b111_001_001], 0);
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        assert_eq!(SHRINK[0b111_111_001], 0o7 | (0o770 << 9) | (0o770 << 18));
    }
}
