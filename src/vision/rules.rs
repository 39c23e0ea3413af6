//! The sudoku rules as the judge of doubtful reads.

use crate::grid::Grid;

/// Decides the digits of glyph groups that could not be read: every group's cells hold
/// one digit; try each assignment of digits to the groups and keep it when the grid is
/// free of clashes. Returns the digits only when exactly one assignment is valid (at
/// most 2 groups are tried; more unknowns than that are not guessed).
pub fn decide_unknown_groups(grid: &Grid, groups: &[Vec<usize>]) -> Option<Vec<u8>> {
    if groups.is_empty() || groups.len() > 2 {
        return None;
    }
    let mut found: Option<Vec<u8>> = None;
    let mut assignment = vec![1u8; groups.len()];
    loop {
        let mut g = *grid;
        for (k, members) in groups.iter().enumerate() {
            for &i in members {
                g.set(i / 9, i % 9, assignment[k]);
            }
        }
        let distinct = assignment.len() < 2 || assignment[0] != assignment[1];
        if distinct && g.conflicts().is_empty() {
            if found.is_some() {
                return None;
            }
            found = Some(assignment.clone());
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_unknown_group_is_decided_when_only_one_digit_fits() {
        // Row 1 holds 1..8 in columns 1..8; the unknown glyph in r1c9 can only be 9.
        let mut g = Grid::parse(&format!("12345678.{}", ".".repeat(72))).unwrap();
        assert_eq!(decide_unknown_groups(&g, &[vec![8]]), Some(vec![9]));
        // With row 1 only half full, several digits fit: no guess.
        g.set(0, 0, 0);
        g.set(0, 1, 0);
        assert_eq!(decide_unknown_groups(&g, &[vec![8]]), None);
    }
}
