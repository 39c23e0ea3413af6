//! The sudoku rules as the judge of doubtful reads.

use crate::grid::Grid;
use crate::solver::count_solutions;

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
