//! Telling puzzles apart: the one being played (half played, perhaps with some of the
//! bot's digits in the wrong cells), the last one solved (perhaps under a banner), or a
//! new one.

use crate::grid::Grid;
use crate::vision::Reading;

/// Whether `grid` is `puzzle` being played: every given reads the same (a few may read
/// empty, hidden by a popover the pause left open), and the other cells are empty or
/// hold the solution, but for some wrong digits the bot will type over (at most 20). A
/// new puzzle has other givens in most of these places.
pub(super) fn same_puzzle_half_played(grid: &Grid, puzzle: &Grid, solution: &Grid) -> bool {
    let (g, p, s) = (grid.cells(), puzzle.cells(), solution.cells());
    let given_changed = (0..81).any(|i| p[i] != 0 && g[i] != 0 && g[i] != p[i]);
    let givens_hidden = (0..81).filter(|&i| p[i] != 0 && g[i] == 0).count();
    let wrong = (0..81)
        .filter(|&i| p[i] == 0 && g[i] != 0 && g[i] != s[i])
        .count();
    !given_changed && givens_hidden <= 9 && wrong <= 20
}

/// Why the grid read is still the last puzzle played (`puzzle` as read then, and its
/// `solution`), so that there is nothing to play: it is solved, or the solved grid is
/// partly covered (a banner, a fading animation). `None` for a new puzzle, or the same
/// puzzle dealt again (its givens alone).
pub(super) fn still_the_last_puzzle(grid: &Grid, puzzle: &Grid, solution: &Grid) -> Option<String> {
    if grid == solution {
        return Some("the puzzle in the window is already solved".into());
    }
    let read: Vec<usize> = (0..81).filter(|&i| grid.cells()[i] != 0).collect();
    let agree = read
        .iter()
        .filter(|&&i| grid.cells()[i] == solution.cells()[i])
        .count();
    // The player's digits of the last puzzle still show: the grid is that solution
    // with some cells hidden or misread under something drawn over them.
    let entries_show = read.iter().any(|&i| puzzle.cells()[i] == 0);
    let mostly_agree = read.len() >= 17 && agree * 10 >= read.len() * 7;
    (entries_show && mostly_agree).then(|| {
        format!(
            "the last puzzle's solved grid is partly covered ({} of its cells do not read as before)",
            81 - agree
        )
    })
}

/// Cells read with confidence below 0.8: the likely culprits of an unsolvable read.
pub(super) fn low_confidence_cells(reading: &Reading) -> Vec<usize> {
    reading
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.digit.is_some() && c.confidence < 0.8)
        .map(|(i, _)| i)
        .collect()
}
