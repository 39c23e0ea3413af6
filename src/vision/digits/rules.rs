//! The sudoku rules as the judge of doubtful reads.

use crate::grid::Grid;
use crate::solver::{count_solutions, is_proper_puzzle};
use crate::vision::glyphs::signature::Signature;
use crate::vision::reading::Method;

/// Look-alike glyphs: each group's look and its cells.
pub type Groups = Vec<(Signature, Vec<usize>)>;

/// A group's digit, the confidence in it, and how it was named.
pub type Answer = Option<(u8, f32, Method)>;

/// A group the rules cannot settle alone takes its readers' digit when the nearest look
/// named already is of that digit, at most this share of their bitmaps apart...
const MAX_LOOK_DISTANCE: f32 = 0.25;
/// ... and every look of another digit that fits is this many times farther.
const LOOK_MARGIN: f32 = 1.4;

/// Decides the digits of glyph groups that Tesseract could not read. Every group's
/// cells hold one digit, and distinct groups hold distinct digits (unless no distinct
/// digits fit: tiny glyphs of one digit may make two groups). `allowed` is a bit
/// mask (bit d for digit d) of the digits no readable group in the picture claims: an
/// app draws each digit one way, so a glyph unlike every known one is a digit not seen
/// yet (when that leaves no digit, every digit is tried). An assignment must leave the
/// grid free of clashes; among several, only those whose puzzle can be solved count.
/// Returns the digits only when exactly one assignment is left (at most 2 groups are
/// tried; more unknowns than that are not guessed).
pub fn decide_unknown_groups(grid: &Grid, groups: &[Vec<usize>], allowed: u16) -> Option<Vec<u8>> {
    if groups.is_empty() || groups.len() > 2 {
        return None;
    }
    let try_with = |allowed: u16, same_ok: bool| -> Vec<(Vec<u8>, Grid)> {
        let mut found = Vec::new();
        let mut assignment = vec![1u8; groups.len()];
        loop {
            let distinct = same_ok || assignment.len() < 2 || assignment[0] != assignment[1];
            if distinct && assignment.iter().all(|&d| allowed & (1 << d) != 0) {
                let mut g = *grid;
                for (k, members) in groups.iter().enumerate() {
                    for &i in members {
                        g.set(i / 9, i % 9, assignment[k]);
                    }
                }
                if g.conflicts().is_empty() {
                    found.push((assignment.clone(), g));
                }
            }
            // next assignment in 1..=9 ^ n
            let mut k = 0;
            loop {
                if k == assignment.len() {
                    return found;
                }
                assignment[k] += 1;
                if assignment[k] <= 9 {
                    break;
                }
                assignment[k] = 1;
                k += 1;
            }
        }
    };
    let all = 0b11_1111_1110;
    let mut found = try_with(
        if allowed & all != 0 {
            allowed & all
        } else {
            all
        },
        false,
    );
    if found.is_empty() && allowed & all != all {
        found = try_with(all, false);
    }
    // Glyphs of a few pixels: one digit drawn at two subpixel offsets may make two
    // groups; they may hold the same digit when no distinct digits fit.
    if found.is_empty() && groups.len() == 2 {
        found = try_with(all, true);
    }
    if found.len() > 1 {
        found.retain(|(_, g)| count_solutions(g, 1) >= 1);
    }
    (found.len() == 1).then(|| found.remove(0).0)
}

/// True when no other digit in `members`' cells leaves `grid` a puzzle with exactly
/// one solution.
pub(in crate::vision) fn only_fit(grid: &Grid, members: &[usize]) -> bool {
    only_fit_but(grid, members, 0)
}

/// [`only_fit`], the digits in `unlike` (a bit mask: digits the glyphs are sure not to
/// be) left out.
pub(in crate::vision) fn only_fit_but(grid: &Grid, members: &[usize], unlike: u16) -> bool {
    let d = grid.cells()[members[0]];
    (1..=9u8)
        .filter(|&o| o != d && unlike & 1 << o == 0)
        .all(|o| !fits(grid, members, o))
}

/// True when digit `o` in `members`' cells leaves `grid` a puzzle with exactly one
/// solution.
fn fits(grid: &Grid, members: &[usize], o: u8) -> bool {
    let mut other = *grid;
    for &i in members {
        other.set(i / 9, i % 9, o);
    }
    is_proper_puzzle(&other)
}

/// For group `g`, whose digit in `grid` is not the only one that leaves one solution:
/// whether the picture's other glyph groups agree, the nearest look among those whose
/// digit is sure (not in `unsure`) being of that digit, and every look of another
/// digit that would fit [`LOOK_MARGIN`] times farther. The two readers, the rules and
/// the glyphs then say the same.
pub(in crate::vision) fn nearest_look_agrees(
    grid: &Grid,
    groups: &Groups,
    unsure: &[usize],
    g: usize,
) -> bool {
    let (sig, members) = &groups[g];
    let d = grid.cells()[members[0]];
    let looks: Vec<(f32, u8)> = (0..groups.len())
        .filter(|h| *h != g && !unsure.contains(h))
        .map(|h| (sig.distance(&groups[h].0), grid.cells()[groups[h].1[0]]))
        .filter(|&(_, digit)| digit != 0)
        .collect();
    // The other digits seen, each tried once (a solve each).
    let seen = looks.iter().fold(0u16, |m, &(_, digit)| m | 1 << digit) & !(1 << d);
    let fitting = (1..=9u8)
        .filter(|&o| seen & 1 << o != 0 && fits(grid, members, o))
        .fold(0u16, |m, o| m | 1 << o);
    let nearest = |digits: u16| {
        looks
            .iter()
            .filter(|&&(_, digit)| digits & 1 << digit != 0)
            .map(|&(distance, _)| distance)
            .fold(1.0f32, f32::min)
    };
    let (own, other) = (nearest(1 << d), nearest(fitting));
    tracing::debug!(
        "r{}c{}: nearest look of {d} {own:.3}, of another digit that fits {other:.3}",
        members[0] / 9 + 1,
        members[0] % 9 + 1
    );
    own <= MAX_LOOK_DISTANCE && other >= own * LOOK_MARGIN
}

/// Whether two of `cells` are in one row, column or box.
pub(in crate::vision) fn clashes(cells: &[usize]) -> bool {
    let mut ones = [0u8; 81];
    cells.iter().for_each(|&i| ones[i] = 1);
    !Grid::from_cells(ones).conflicts().is_empty()
}

/// The groups whose digit clashes with another cell's in a row, column or box.
pub(in crate::vision) fn clashing_groups(groups: &Groups, answers: &[Answer]) -> Vec<usize> {
    let mut cells = [0u8; 81];
    let mut group_of = [usize::MAX; 81];
    for (g, (_, members)) in groups.iter().enumerate() {
        for &i in members {
            cells[i] = answers[g].map(|a| a.0).unwrap_or(0);
            group_of[i] = g;
        }
    }
    let mut out: Vec<usize> = Grid::from_cells(cells)
        .conflicts()
        .iter()
        .flat_map(|c| c.cells)
        .map(|i| group_of[i])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: u16 = 0b11_1111_1110;

    #[test]
    fn a_lone_unknown_group_is_decided_when_only_one_digit_fits() {
        // Row 1 holds 1..8 in columns 1..8; the unknown glyph in r1c9 can only be 9.
        let mut g = Grid::parse(&format!("12345678.{}", ".".repeat(72))).unwrap();
        assert_eq!(decide_unknown_groups(&g, &[vec![8]], ALL), Some(vec![9]));
        // With row 1 only half full, several digits fit: no guess.
        g.set(0, 0, 0);
        g.set(0, 1, 0);
        assert_eq!(decide_unknown_groups(&g, &[vec![8]], ALL), None);
        // ... unless the other glyphs in the picture already claim every digit but one.
        assert_eq!(decide_unknown_groups(&g, &[vec![8]], 1 << 1), Some(vec![1]));
    }
}
