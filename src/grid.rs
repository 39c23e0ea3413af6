//! The 81-cell sudoku grid: parsing from and printing to the one-line form, and the
//! clashes between givens that make a grid invalid.

use std::fmt;

mod verdict;
pub use verdict::Verdict;

/// A 9x9 sudoku grid. Each cell holds 0 (empty) or a digit 1-9, row by row.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; 81],
}

/// Why a line is not a puzzle. The `Display` form is the REASON of `invalid: REASON`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("line has {0} characters, need 81")]
    Length(usize),
    #[error("character '{ch}' at position {pos} is not a digit 1-9, '.' or '0'")]
    Character { ch: char, pos: usize },
}

/// Which house two clashing givens share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum House {
    Row(usize),
    Column(usize),
    Box(usize),
}

/// Two givens with the same digit in one house. Rows, columns and boxes are 0-based
/// here; `Display` speaks 1-based, as a user counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    pub digit: u8,
    pub house: House,
    /// The two cells (0..81) that hold the digit.
    pub cells: [usize; 2],
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.house {
            House::Row(r) => write!(f, "duplicate {} in row {}", self.digit, r + 1),
            House::Column(c) => write!(f, "duplicate {} in column {}", self.digit, c + 1),
            House::Box(b) => write!(f, "duplicate {} in box {}", self.digit, b + 1),
        }
    }
}

impl Grid {
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// A grid from 81 cell values (0 for empty). Values above 9 are treated as empty.
    pub fn from_cells(cells: [u8; 81]) -> Grid {
        let mut g = Grid { cells };
        for v in g.cells.iter_mut() {
            if *v > 9 {
                *v = 0;
            }
        }
        g
    }

    /// Parses the one-line form: 81 characters, digits 1-9, and '.' or '0' for empty.
    /// Surrounding white space is ignored.
    pub fn parse(line: &str) -> Result<Grid, ParseError> {
        let line = line.trim();
        let n = line.chars().count();
        if n != 81 {
            return Err(ParseError::Length(n));
        }
        let mut cells = [0u8; 81];
        for (pos, ch) in line.chars().enumerate() {
            cells[pos] = match ch {
                '1'..='9' => ch as u8 - b'0',
                '.' | '0' => 0,
                _ => return Err(ParseError::Character { ch, pos: pos + 1 }),
            };
        }
        Ok(Grid { cells })
    }

    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The value at (row, col), 0-based; 0 means empty.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * 9 + col]
    }

    pub fn set(&mut self, row: usize, col: usize, digit: u8) {
        self.cells[row * 9 + col] = digit;
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    pub fn is_complete(&self) -> bool {
        self.filled() == 81 && self.conflicts().is_empty()
    }

    /// The one-line form: digits and '.' for empty cells.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }

    /// Every pair of equal givens that share a row, column or box, rows first.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let mut out = Vec::new();
        for unit in 0..27 {
            let house = match unit / 9 {
                0 => House::Row(unit % 9),
                1 => House::Column(unit % 9),
                _ => House::Box(unit % 9),
            };
            let cells = house_cells(house);
            let mut seen = [usize::MAX; 10];
            for &i in &cells {
                let d = self.cells[i] as usize;
                if d == 0 {
                    continue;
                }
                if seen[d] != usize::MAX {
                    out.push(Conflict {
                        digit: d as u8,
                        house,
                        cells: [seen[d], i],
                    });
                } else {
                    seen[d] = i;
                }
            }
        }
        out
    }

    /// True when `solution` is full, breaks no rule (see [`Grid::is_complete`]) and keeps
    /// every given of `self`.
    pub fn is_solved_by(&self, solution: &Grid) -> bool {
        solution.is_complete()
            && self
                .cells
                .iter()
                .zip(solution.cells.iter())
                .all(|(&g, &s)| g == 0 || g == s)
    }
}

/// The nine cells (0..81) of a house.
pub fn house_cells(house: House) -> [usize; 9] {
    let mut out = [0; 9];
    for (k, slot) in out.iter_mut().enumerate() {
        *slot = match house {
            House::Row(r) => r * 9 + k,
            House::Column(c) => k * 9 + c,
            House::Box(b) => (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3,
        };
    }
    out
}

/// "r3c5" for cell index 22: the 1-based name a user reads.
pub fn cell_name(index: usize) -> String {
    format!("r{}c{}", index / 9 + 1, index % 9 + 1)
}

/// "r1c2 r3c4" for cells 1 and 22: a list of cells as a user reads it.
pub fn cell_names(cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&i| cell_name(i))
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..9 {
            writeln!(f, "{}", &self.to_line()[r * 9..r * 9 + 9])?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn parses_and_prints_round_trip() {
        let g = Grid::parse(P).unwrap();
        assert_eq!(g.to_line(), P);
        assert_eq!(g.get(0, 0), 5);
        assert_eq!(g.get(8, 8), 9);
        assert_eq!(g.filled(), 30);
    }

    #[test]
    fn zero_means_empty() {
        let g = Grid::parse(&P.replace('.', "0")).unwrap();
        assert_eq!(g.to_line(), P);
    }

    #[test]
    fn wrong_length_and_characters_are_explained() {
        assert_eq!(
            Grid::parse(&P[..80]).unwrap_err().to_string(),
            "line has 80 characters, need 81"
        );
        let bad = format!("x{}", &P[1..]);
        assert_eq!(
            Grid::parse(&bad).unwrap_err().to_string(),
            "character 'x' at position 1 is not a digit 1-9, '.' or '0'"
        );
    }

    #[test]
    fn conflicts_name_the_house_one_based() {
        let mut g = Grid::parse(P).unwrap();
        assert!(g.conflicts().is_empty());
        g.set(2, 0, 5); // row 3 col 1: clashes with the 5 at r1c1 in column 1 and box 1
        let c: Vec<String> = g.conflicts().iter().map(|c| c.to_string()).collect();
        assert_eq!(c, vec!["duplicate 5 in column 1", "duplicate 5 in box 1"]);
        let mut g = Grid::parse(P).unwrap();
        g.set(2, 8, 9); // row 3 already has a 9 at r3c2
        assert_eq!(g.conflicts()[0].to_string(), "duplicate 9 in row 3");
        assert_eq!(g.conflicts()[0].cells, [2 * 9 + 1, 2 * 9 + 8]);
    }

    #[test]
    fn house_cells_of_box_five() {
        assert_eq!(
            house_cells(House::Box(4)),
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
    }
}
