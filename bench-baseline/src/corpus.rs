//! The puzzle corpora: loading them, and relabelling each puzzle with a random symmetry
//! (seeded) so that no solver is flattered by the files' order.

use std::path::Path;

/// The puzzles of a corpus file: 81-character lines, '#' lines skipped.
pub(crate) fn load(path: &Path, limit: usize) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let puzzles: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.chars().take(81).collect())
        .take(limit)
        .collect();
    if puzzles.is_empty() {
        return Err(format!("{} holds no puzzles", path.display()));
    }
    Ok(puzzles)
}

/// sudoku-bot's answers, as `sudoku-bot solve` prints them.

/// A random symmetry of the grid: the solution-count-preserving permutations.
pub(crate) fn permute(puzzle: &str, rng: &mut Rng) -> String {
    let cells: Vec<char> = puzzle.chars().collect();
    let rows = line_order(rng);
    let cols = line_order(rng);
    let mut digits: Vec<char> = "123456789".chars().collect();
    rng.shuffle(&mut digits);
    let transpose = rng.below(2) == 1;
    let mut out = String::with_capacity(81);
    for r in 0..9 {
        for c in 0..9 {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            let ch = cells[rows[r] * 9 + cols[c]];
            out.push(match ch.to_digit(10) {
                Some(d @ 1..=9) => digits[d as usize - 1],
                _ => '.',
            });
        }
    }
    out
}

/// A random order of the nine rows (or columns) that keeps bands (stacks) together:
/// the bands shuffled, and the rows within each band.
pub(crate) fn line_order(rng: &mut Rng) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    rng.shuffle(&mut bands);
    let mut order = [0; 9];
    for (slot, band) in bands.iter().enumerate() {
        let mut within = [0, 1, 2];
        rng.shuffle(&mut within);
        for k in 0..3 {
            order[slot * 3 + k] = band * 3 + within[k];
        }
    }
    order
}

/// SplitMix64: tiny, seedable, good enough to shuffle puzzles.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }
}
