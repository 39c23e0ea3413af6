//! The search state: for each digit and band, the 27-bit mask of cells where the digit
//! may still go, and the propagation rules that narrow it to a fixpoint (module docs
//! of [`super`]).

use super::tables::*;
use crate::grid::Grid;

/// The search state: where each digit may still go, band by band.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// `cand[3 * digit + band]`: 27-bit mask of the cells of `band` open to `digit` (0-based
    /// digit). A placed digit keeps its own bit.
    pub(super) cand: [u32; 27],
    /// The `cand` entries changed since the band rules last ran on them (bit `i` for
    /// `cand[i]`). Kept as each write happens: finding them by comparing with a copy
    /// made the processor wait on its store buffer (a vector load over fresh scalar
    /// stores), a fifth of the search's time.
    pub(super) dirty: u32,
    /// Cells of each band with no digit placed yet.
    pub(super) unsolved: [u32; 3],
}

impl State {
    pub(super) fn from_grid(grid: &Grid) -> Option<State> {
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
    pub(super) fn place(&mut self, digit: usize, band: usize, p: u32) -> bool {
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
    pub(super) fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Runs the rules to a fixpoint; false on a contradiction.
    #[inline(always)]
    pub(super) fn propagate(&mut self) -> bool {
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
    pub(super) fn choose(&mut self, digit: usize, band: usize, p: u32) {
        self.narrow(3 * digit + band, !BAND_PEERS[p as usize] | (1 << p));
    }

    /// Keeps only the cells of `keep` in `cand[i]`, marking it dirty when that changes it.
    #[inline(always)]
    pub(super) fn narrow(&mut self, i: usize, keep: u32) {
        narrow(&mut self.cand, &mut self.dirty, i, keep);
    }

    /// Runs [`State::update`] on every changed mask until none changes; false on a
    /// contradiction.
    #[inline(always)]
    pub(super) fn update_bands(&mut self) -> bool {
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
    pub(super) fn update(&mut self, i: usize, dirty: &mut u32) -> bool {
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
    pub(super) fn naked_singles(&mut self) -> Option<bool> {
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
    pub(super) fn count_band(&self, band: usize) -> (u32, u32) {
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
    pub(super) fn column_singles(&mut self) -> Option<bool> {
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
    pub(super) fn guess_cell(&self) -> (usize, u32) {
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
    pub(super) fn digits_at(&self, band: usize, p: u32) -> u32 {
        let mut mask = 0;
        for d in 0..9 {
            mask |= ((self.cand[3 * d + band] >> p) & 1) << d;
        }
        mask
    }

    pub(super) fn grid(&self) -> Grid {
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
