//! What tells a sudoku's lattice of cells from other lattices: graph paper, a
//! checkerboard, a spreadsheet. A sudoku's cells step evenly, its 3x3 boxes are drawn
//! wider apart than its cells, it ends at its border, and its cells are painted alike.

use super::candidates::{Candidate, MAX_INNER_PITCH, MAX_PITCH};

/// True when the lines (or gaps) between 3x3 boxes are wider than those between the
/// cells inside them, across the columns or down the rows: nearly every sudoku draws
/// its boxes so; graph paper and a checkerboard do not.
pub(in crate::vision) fn has_box_lines(
    col_edges: &[(f32, f32); 9],
    row_edges: &[(f32, f32); 9],
) -> bool {
    let wider = |edges: &[(f32, f32); 9]| {
        let gap = |k: usize| edges[k + 1].0 - edges[k].1;
        let inner = [0, 1, 3, 4, 6, 7]
            .map(gap)
            .into_iter()
            .fold(f32::MIN, f32::max);
        gap(2).min(gap(5)) >= inner + BOX_LINE_EXTRA
    };
    wider(col_edges) || wider(row_edges)
}

/// Box lines are at least this many pixels wider than cell lines to count as such.
const BOX_LINE_EXTRA: f32 = 1.0;

/// True when cells like the lattice's own lie one step past its border, along at least
/// [`PAST_EDGE_CELLS`] of its outer rows and columns: the lattice is a 9x9 piece of a
/// pattern that goes on (graph paper, a checkerboard), not a grid with a border.
pub(in crate::vision) fn continues_past_edges(
    members: &[Candidate],
    cols: &[f32],
    rows: &[f32],
    s: f32,
) -> bool {
    let tol = s * 0.3;
    let index = |v: f32, centres: &[f32]| -> Option<i32> {
        let step = (centres[8] - centres[0]) / 8.0;
        if (v - (centres[0] - step)).abs() < tol {
            return Some(-1);
        }
        if (v - (centres[8] + step)).abs() < tol {
            return Some(9);
        }
        centres
            .iter()
            .position(|&p| (p - v).abs() < tol)
            .map(|k| k as i32)
    };
    let past = members
        .iter()
        .filter(|c| match (index(c.cx, cols), index(c.cy, rows)) {
            (Some(col), Some(row)) => {
                let inside = |k: i32| (0..9).contains(&k);
                (inside(row) && !inside(col)) || (inside(col) && !inside(row))
            }
            _ => false,
        })
        .count();
    past >= PAST_EDGE_CELLS
}

/// Cells found one step outside the lattice that make it part of an endless pattern:
/// one full side's worth.
const PAST_EDGE_CELLS: usize = 9;

/// True when most side-by-side cells inside the boxes differ in colour by more than
/// [`CHECKER_CONTRAST`]: a checkerboard. A sudoku paints its cells alike, but for a
/// highlighted row, column or box, or boxes shaded in turn.
pub(in crate::vision) fn checkered(slot: &[Option<Candidate>; 81]) -> bool {
    let (mut pairs, mut contrasting) = (0, 0);
    for r in 0..9 {
        for c in [0, 1, 3, 4, 6, 7] {
            for (a, b) in [(r * 9 + c, r * 9 + c + 1), (c * 9 + r, (c + 1) * 9 + r)] {
                if let (Some(a), Some(b)) = (&slot[a], &slot[b]) {
                    pairs += 1;
                    let (ma, mb) = (a.region.mean(), b.region.mean());
                    let diff: u32 = (0..3).map(|k| ma[k].abs_diff(mb[k]) as u32).sum();
                    contrasting += (diff > 3 * CHECKER_CONTRAST) as usize;
                }
            }
        }
    }
    pairs > 0 && contrasting * 2 > pairs
}

/// Colour difference (mean over the channels) of neighbouring cells in a checkerboard.
pub(in crate::vision) const CHECKER_CONTRAST: u32 = 60;

/// True when the 8 steps between 9 centres are all 0.9..MAX_PITCH cell sizes, the
/// steps inside each band of three are at most [`MAX_INNER_PITCH`] cell sizes (cells
/// sit close; a checkerboard's same-coloured squares are two sizes apart) and agree
/// within 15%. Returns the mean inner step.
pub(in crate::vision) fn regular(centres: &[f32], s: f32) -> Option<f32> {
    let steps: Vec<f32> = centres.windows(2).map(|w| w[1] - w[0]).collect();
    if steps.iter().any(|&d| d < 0.9 * s || d > MAX_PITCH * s) {
        return None;
    }
    let inner = [steps[0], steps[1], steps[3], steps[4], steps[6], steps[7]];
    let lo = inner.iter().cloned().fold(f32::INFINITY, f32::min);
    let hi = inner.iter().cloned().fold(0.0, f32::max);
    (hi <= lo * 1.15 + 2.0 && hi <= MAX_INNER_PITCH * s).then(|| inner.iter().sum::<f32>() / 6.0)
}

/// True when a box like the grid's own lies one step past the 3x3 of boxes, in any of
/// the 16 places around it (`box_at(i, j)`: whether one is at column `i`, row `j` of
/// the box pitch, 0..3 being the grid's): a pattern that goes on, not a grid.
pub(in crate::vision) fn boxes_go_on(box_at: impl Fn(i32, i32) -> bool) -> bool {
    (-1..=3)
        .flat_map(|j| (-1..=3).map(move |i| (i, j)))
        .filter(|&(i, j)| !((0..3).contains(&i) && (0..3).contains(&j)))
        .any(|(i, j)| box_at(i, j))
}
