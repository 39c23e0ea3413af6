//! The solver's lookup tables, built at compile time: a band's cells, its columns, the
//! mini-row patterns that belong to a row->box permutation (band shrink), the columns a
//! box pattern points at, and each cell's peers in its band.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The three cells of column `c` (0..9) within a band.
pub(super) const fn column_in_band(c: u32) -> u32 {
    0x40201 << c
}

/// Box occupancy (3 bits) of a 9-bit row.
pub(super) const ROW_BOXES: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 0o7 != 0) as u8)
            | (((x & 0o70 != 0) as u8) << 1)
            | (((x & 0o700 != 0) as u8) << 2);
        x += 1;
    }
    t
};

/// For a band's mini-row pattern (bit `3 * row + box` set when that mini-row has a
/// candidate), the cells of the mini-rows that lie on some row->box permutation whose
/// three mini-rows are all occupied; 0 when no permutation fits (a contradiction).
pub(super) const SHRINK: [u32; 512] = {
    const PERMS: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut allowed = 0u32;
        let mut k = 0;
        while k < 6 {
            let s = PERMS[k];
            let bits = (1 << s[0]) | (1 << (3 + s[1])) | (1 << (6 + s[2]));
            if p as u32 & bits == bits {
                allowed |= bits;
            }
            k += 1;
        }
        let mut cells = 0u32;
        let mut m = 0;
        while m < 9 {
            if allowed & (1 << m) != 0 {
                cells |= 0o7 << ((m / 3) * 9 + (m % 3) * 3);
            }
            m += 1;
        }
        t[p] = cells;
        p += 1;
    }
    t
};

/// For the columns open to a digit in a band (9 bits), the cells the other two bands keep:
/// a box where the digit is left in one column (pointing, or a placed digit) takes that
/// column from the other bands.
pub(super) const COLUMN_POINTING: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0u32;
    while cols < 512 {
        let mut remove = 0u32;
        let mut stack = 0u32;
        while stack < 3 {
            let bits = (cols >> (3 * stack)) & 0o7;
            if bits != 0 && bits & (bits - 1) == 0 {
                remove |= column_in_band(3 * stack + bits.trailing_zeros());
            }
            stack += 1;
        }
        t[cols as usize] = BAND & !remove;
        cols += 1;
    }
    t
};

/// For a cell of a band (0..27), its row and box within the band, itself included.
pub(super) const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let row = 0x1FF << (p / 9 * 9);
        let boxm = (0o7 | 0o7 << 9 | 0o7 << 18) << (p % 9 / 3 * 3);
        t[p] = row | boxm;
        p += 1;
    }
    t
};

pub(super) const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// The band of `cand[i]`: `i % 3`, looked up (the division costs more in the hot loop).
pub(super) const BAND_OF: [u8; 27] = {
    let mut t = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        t[i] = (i % 3) as u8;
        i += 1;
    }
    t
};
