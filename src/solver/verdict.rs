//! The verdict on a reading ([`Verdict`], defined with the grid): given here, above
//! the solver, because it solves the grid read. The one place a reading is solved.

use super::{count_solutions, solve, Solution};
use crate::grid::{Grid, Verdict};

/// The fewest givens a sudoku with one solution has (McGuire, Tugemann and Civario,
/// 2012). A reading with fewer is no puzzle a game dealt: its digits were missed (a
/// typeface no reader names reads as empty cells), or no puzzle is shown yet. Playing
/// it would fill the grid with a made-up answer.
const FEWEST_GIVENS: usize = 17;

impl Verdict {
    /// The verdict on `grid` as read, where `unread` are the cells with ink that no
    /// reader could name. In this order: unread cells, clashing givens, no solution (the
    /// givens whose change would explain it are blamed, see [`suspect_givens`]), fewer
    /// than [`FEWEST_GIVENS`] givens, then one solution or several.
    pub fn of(grid: &Grid, unread: &[usize]) -> Verdict {
        if !unread.is_empty() {
            return Verdict::Doubtful {
                reason: format!("{} cells could not be read", unread.len()),
                cells: unread.to_vec(),
            };
        }
        match solve(grid) {
            Solution::Unique(solution) => Verdict::Unique(solution),
            Solution::Multiple(_) if grid.filled() < FEWEST_GIVENS => Verdict::Doubtful {
                reason: format!(
                    "only {} digits were read, and a sudoku needs at least {FEWEST_GIVENS} to \
                     have one solution (digits were missed, or no puzzle is shown)",
                    grid.filled()
                ),
                cells: Vec::new(),
            },
            Solution::Multiple(one) => Verdict::Several(one),
            Solution::Unsolvable => Verdict::Doubtful {
                reason: "the puzzle read has no solution".into(),
                cells: suspect_givens(grid),
            },
            Solution::Invalid(conflicts) => {
                let mut cells: Vec<usize> = conflicts.iter().flat_map(|c| c.cells).collect();
                cells.sort_unstable();
                cells.dedup();
                Verdict::Doubtful {
                    reason: format!("the digits read clash ({})", conflicts[0]),
                    cells,
                }
            }
        }
    }
}

/// Whether `grid` is a proper puzzle: givens that do not clash and exactly one solution.
/// The cheap test behind [`Verdict::Unique`] (no cells blamed), for readers that try
/// several readings and keep the one that is.
pub(crate) fn is_proper_puzzle(grid: &Grid) -> bool {
    grid.conflicts().is_empty() && count_solutions(grid, 2) == 1
}

/// The givens that could explain why a read puzzle has no solution: those whose change
/// to another digit makes it a proper puzzle. Falls back to every given when no single
/// cell explains it.
fn suspect_givens(grid: &Grid) -> Vec<usize> {
    let givens: Vec<usize> = (0..81).filter(|&i| grid.cells()[i] != 0).collect();
    let suspects: Vec<usize> = givens
        .iter()
        .copied()
        .filter(|&i| {
            let mut g = *grid;
            (1..=9u8).filter(|&d| d != grid.cells()[i]).any(|d| {
                g.set(i / 9, i % 9, d);
                is_proper_puzzle(&g)
            })
        })
        .collect();
    if suspects.is_empty() {
        givens
    } else {
        suspects
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn grid(line: &str) -> Grid {
        Grid::parse(line).unwrap()
    }

    #[test]
    fn a_proper_puzzle_has_its_one_solution() {
        let v = Verdict::of(&grid(PUZZLE), &[]);
        let Verdict::Unique(s) = &v else {
            panic!("{v}")
        };
        assert!(grid(PUZZLE).is_solved_by(s));
        assert_eq!(v.solution(), Some(s));
    }

    #[test]
    fn unread_cells_come_first_and_are_blamed() {
        let v = Verdict::of(&grid(PUZZLE), &[3, 40]);
        assert_eq!(
            v,
            Verdict::Doubtful {
                reason: "2 cells could not be read".into(),
                cells: vec![3, 40]
            }
        );
        assert_eq!(v.solution(), None);
    }

    #[test]
    fn clashing_givens_blame_both_cells() {
        // r1c3 read as 5: a second 5 in row 1.
        let mut g = grid(PUZZLE);
        g.set(0, 2, 5);
        let v = Verdict::of(&g, &[]);
        assert_eq!(
            v.to_string(),
            "the digits read clash (duplicate 5 in row 1) (doubtful cells: r1c1 r1c3)"
        );
    }

    #[test]
    fn no_solution_blames_the_givens_whose_change_would_mend_it() {
        // r1c1 read as 1 instead of 5: no clash, but no solution either; putting 5 back
        // mends it, so r1c1 is among the cells blamed, and a given that no change could
        // mend is not.
        let mut g = grid(PUZZLE);
        g.set(0, 0, 1);
        let Verdict::Doubtful { reason, cells } = Verdict::of(&g, &[]) else {
            panic!("an unsolvable grid must be doubtful")
        };
        assert_eq!(reason, "the puzzle read has no solution");
        assert!(cells.contains(&0), "{cells:?}");
        assert!(cells.len() < g.filled(), "{cells:?}");
    }

    #[test]
    fn several_solutions_are_kept_apart_and_refused_where_one_is_needed() {
        let mut g = grid(PUZZLE);
        for i in [0, 1, 4] {
            g.set(0, i, 0);
        }
        let v = Verdict::of(&g, &[]);
        assert!(
            matches!(v, Verdict::Several(s) if g.is_solved_by(&s)),
            "{v}"
        );
        assert_eq!(
            v.unique_only(|| vec![7]),
            Verdict::Doubtful {
                reason: "the puzzle read has more than one solution".into(),
                cells: vec![7]
            }
        );
        assert!(!is_proper_puzzle(&g));
        assert!(is_proper_puzzle(&grid(PUZZLE)));
    }

    #[test]
    fn fewer_than_17_givens_is_no_puzzle_to_play() {
        let sixteen =
            "53..7....6..195....98....6.8...6...34..8.3.......................................";
        for (line, n) in [(sixteen, 16), (&".".repeat(81)[..], 0)] {
            assert_eq!(
                Verdict::of(&grid(line), &[]),
                Verdict::Doubtful {
                    reason: format!(
                        "only {n} digits were read, and a sudoku needs at least 17 to have \
                         one solution (digits were missed, or no puzzle is shown)"
                    ),
                    cells: vec![]
                }
            );
        }
        // Seventeen givens with several solutions are still a puzzle a game may deal.
        let mut g = grid(sixteen);
        g.set(8, 8, 9);
        assert!(matches!(Verdict::of(&g, &[]), Verdict::Several(_)));
    }
}
