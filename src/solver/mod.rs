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

mod search;
mod state;
mod tables;
mod verdict;

use crate::grid::{Conflict, Grid};
use search::Search;
use state::State;
#[cfg(test)]
use tables::*;
pub(crate) use verdict::is_proper_puzzle;

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

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTS: &str = include_str!("../../fixtures/puzzles/counts.txt");
    const SEVENTEEN: &str = include_str!("../../fixtures/puzzles/17_clue_sample.txt");
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
