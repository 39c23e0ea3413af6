//! Sudoku variants this version does not play, told from the picture before any digit
//! is acted on: an X-sudoku (both diagonals shaded: Solo's "X" type), a jigsaw (regions
//! drawn with thick borders that are not the 3x3 boxes) and a killer (cages outlined
//! inside the cells). A reading of such a
//! grid as a classic sudoku would be a puzzle with other rules: its solution is not the
//! game's, so the reader refuses it, naming what it saw.
//!
//! Both tests compare the grid with itself, not with fixed colours or widths: the
//! diagonal cells' background against the other cells', and where the thick lines are
//! against where a classic grid has them.

use image::RgbImage;

use super::geometry::{Point, Rect};

/// What makes a grid a variant, as the refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Both diagonals shaded apart from the other cells.
    X,
    /// Thick borders off the 3x3 boxes' lines: irregular regions.
    Jigsaw,
    /// Cages: lines inside the cells along some of their sides, not all four.
    Killer,
}

impl Variant {
    /// The refusal's words.
    pub fn reason(self) -> String {
        let what = match self {
            Variant::X => "X: both diagonals shaded",
            Variant::Jigsaw => "jigsaw: thick region borders off the 3x3 boxes",
            Variant::Killer => "killer: cages outlined inside the cells",
        };
        format!("a sudoku variant ({what}) this version does not play")
    }

    /// The cells that show it: the diagonals, or every cell (a jigsaw's regions).
    pub fn cells(self) -> Vec<usize> {
        match self {
            Variant::X => (0..81).filter(|&i| on_a_diagonal(i)).collect(),
            Variant::Jigsaw | Variant::Killer => (0..81).collect(),
        }
    }
}

/// The variant the grid whose 81 cell boxes are `cells` shows in `rgb`, if any;
/// `pitch` maps grid units (cells) to picture pixels (the lines between cells).
pub fn variant_of(
    rgb: &RgbImage,
    cells: &[Rect],
    pitch: impl Fn(f32, f32) -> Point,
) -> Option<Variant> {
    if cells.len() != 81 {
        return None;
    }
    if shaded_diagonals(rgb, cells) {
        return Some(Variant::X);
    }
    // Cage lines lie between the cells' boxes too: cages first.
    if caged(rgb, cells, pitch) {
        return Some(Variant::Killer);
    }
    if irregular_regions(rgb, cells) {
        return Some(Variant::Jigsaw);
    }
    None
}

fn on_a_diagonal(i: usize) -> bool {
    let (r, c) = (i / 9, i % 9);
    r == c || r + c == 8
}

/// Colours at most this far apart (the largest channel difference) are one shade.
const SAME_SHADE: i32 = 6;
/// Cells of a diagonal (17) or off it (64) that may differ from their kind's shade: a
/// selected cell, a given's own shading, a highlighted row.
const ODD_DIAGONAL: usize = 3;
const ODD_OFF_DIAGONAL: usize = 8;

/// Both diagonals shaded: the diagonal cells' background is one shade, the other
/// cells' another, and hardly any cell off the diagonals has the diagonals' shade (a
/// checkerboard of shaded boxes shades the diagonals too, and half the rest).
fn shaded_diagonals(rgb: &RgbImage, cells: &[Rect]) -> bool {
    let shades: Vec<[i32; 3]> = cells.iter().map(|c| background(rgb, c)).collect();
    let (on, off): (Vec<usize>, Vec<usize>) = (0..81).partition(|&i| on_a_diagonal(i));
    let median = |ids: &[usize]| {
        let mut m = [0; 3];
        for (k, v) in m.iter_mut().enumerate() {
            let mut vs: Vec<i32> = ids.iter().map(|&i| shades[i][k]).collect();
            vs.sort_unstable();
            *v = vs[vs.len() / 2];
        }
        m
    };
    let (diagonal, rest) = (median(&on), median(&off));
    let near = |a: [i32; 3], b: [i32; 3]| (0..3).all(|k| (a[k] - b[k]).abs() <= SAME_SHADE);
    if near(diagonal, rest) {
        return false;
    }
    let odd_on = on.iter().filter(|&&i| !near(shades[i], diagonal)).count();
    let odd_off = off.iter().filter(|&&i| !near(shades[i], rest)).count();
    odd_on <= ODD_DIAGONAL && odd_off <= ODD_OFF_DIAGONAL
}

/// A cell's background: the median of each channel over its box, inset by a sixth
/// (a digit or pencil marks are the minority of its pixels).
fn background(rgb: &RgbImage, cell: &Rect) -> [i32; 3] {
    let (w, h) = rgb.dimensions();
    let inset = (cell.w.min(cell.h) / 6.0).max(1.0);
    let x0 = (cell.x + inset).max(0.0) as u32;
    let y0 = (cell.y + inset).max(0.0) as u32;
    let x1 = ((cell.x + cell.w - inset).max(0.0) as u32).min(w);
    let y1 = ((cell.y + cell.h - inset).max(0.0) as u32).min(h);
    let mut channels: [Vec<u8>; 3] = Default::default();
    for y in y0..y1 {
        for x in x0..x1 {
            let p = rgb.get_pixel(x, y).0;
            for k in 0..3 {
                channels[k].push(p[k]);
            }
        }
    }
    let mut out = [0; 3];
    for k in 0..3 {
        let v = &mut channels[k];
        if v.is_empty() {
            return [-1000; 3];
        }
        v.sort_unstable();
        out[k] = v[v.len() / 2] as i32;
    }
    out
}

/// Thick lines apart from thin by at least this many px (Solo's region borders are 2-3
/// px against 1 px lines).
const THICKER: f32 = 1.5;
/// A pixel this far (largest channel difference) from a cell's background is a line's.
const LINE_INK: i32 = 60;
/// Lines of the grid (of 16 between rows or columns) broken, at least this many: thick
/// along some of their 9 segments and thin along others.
const BROKEN_LINES: usize = 3;

/// Irregular regions: the lines between neighbouring cells, measured where each pair
/// of cells meets (the line's pixels in the gap between their boxes, at a third and at
/// two thirds of their shared side), split into thin and thick, and several lines of the
/// grid change from thick to thin along their length, as a jigsaw's region borders
/// wander. A classic grid's lines are one width end to end however uneven the widths (a
/// scaled or JPEG screenshot). The lattice's boxes alone cannot tell: it sets a line's
/// gap by its widest stretch.
fn irregular_regions(rgb: &RgbImage, cells: &[Rect]) -> bool {
    let (w, h) = rgb.dimensions();
    let backgrounds: Vec<[i32; 3]> = cells.iter().map(|c| background(rgb, c)).collect();
    // Line pixels (far from both cells' backgrounds: a tile's face and the page between
    // tiles are no line) from `from` to `to` inclusive, across (x varies, at row y) or
    // down (y varies, at column x).
    let line_px = |(i, j): (usize, usize), fixed: f32, from: f32, to: f32, across: bool| {
        let (lo, hi) = (from.round().max(0.0) as u32, to.round().max(0.0) as u32);
        let far = |p: [u8; 3], bg: [i32; 3]| (0..3).any(|k| (p[k] as i32 - bg[k]).abs() > LINE_INK);
        (lo..=hi)
            .filter(|&v| {
                let (x, y) = if across {
                    (v, fixed as u32)
                } else {
                    (fixed as u32, v)
                };
                x < w && y < h && {
                    let p = rgb.get_pixel(x, y).0;
                    far(p, backgrounds[i]) && far(p, backgrounds[j])
                }
            })
            .count() as f32
    };
    // gaps[line][segment]: lines 0..8 between columns, 8..16 between rows; each the
    // mean of two measures, at a third and two thirds of the cells' shared side. Only
    // between cells of one shade: a bevelled tile's edges differ with its face (FLTK's
    // givens raised, its empty cells sunk), which says nothing of regions.
    let mut gaps = [[f32::NAN; 9]; 16];
    let alike = |(i, j): (usize, usize)| {
        (0..3).all(|k| (backgrounds[i][k] - backgrounds[j][k]).abs() <= SAME_SHADE)
    };
    for k in 0..9 {
        for line in 0..8 {
            let pair = (k * 9 + line, k * 9 + line + 1);
            let (a, b) = (&cells[pair.0], &cells[pair.1]);
            gaps[line][k] = if !alike(pair) {
                f32::NAN
            } else {
                [1.0, 2.0]
                    .iter()
                    .map(|t| line_px(pair, a.y + a.h * t / 3.0, a.x + a.w, b.x - 1.0, true))
                    .sum::<f32>()
                    / 2.0
            };
            let pair = (line * 9 + k, (line + 1) * 9 + k);
            let (a, b) = (&cells[pair.0], &cells[pair.1]);
            gaps[8 + line][k] = if !alike(pair) {
                f32::NAN
            } else {
                [1.0, 2.0]
                    .iter()
                    .map(|t| line_px(pair, a.x + a.w * t / 3.0, a.y + a.h, b.y - 1.0, false))
                    .sum::<f32>()
                    / 2.0
            };
        }
    }
    let mut sorted: Vec<f32> = gaps
        .iter()
        .flatten()
        .copied()
        .filter(|g| !g.is_nan())
        .collect();
    if sorted.len() < 72 {
        return false;
    }
    sorted.sort_by(f32::total_cmp);
    let (thin, thick) = (sorted[sorted.len() / 2], sorted[sorted.len() * 19 / 20]);
    if thick - thin < THICKER {
        return false;
    }
    // Nearer thick than thin: a thin line a pixel wider at a rounding stays thin.
    let cut = thin + (thick - thin) * 0.6;
    let broken = gaps
        .iter()
        .filter(|line| {
            let thick = line.iter().filter(|&&g| g >= cut).count();
            let thin = line.iter().filter(|&&g| g < cut).count();
            thick >= 2 && thin >= 2
        })
        .count();
    broken >= BROKEN_LINES
}

/// Borders between neighbouring cells lined on both sides, at least this many, and at
/// least this many neighbours not so bordered (the cells of one cage): a theme that
/// frames every cell borders all 144.
const CAGE_BORDERS: usize = 20;
/// A cage line lies this far inside the cell's lines, as shares of the cell: past a
/// thick box line, and before a big digit's top.
const CAGE_INSET: (f32, f32) = (0.04, 0.12);
/// Share of a side's middle (from 20% to 80% of it) a cage line inks: dashed lines
/// count.
const CAGE_INKED: f32 = 0.45;
/// Share of a side's middle at most inked where the cell's face shows on either side
/// of a cage line.
const CAGE_GAP: f32 = 0.2;
/// A pixel this far (largest channel difference) from the cell's background is ink.
const CAGE_INK: i32 = 40;

/// A killer's cages: each cage outlined inside its cells, so that many borders between
/// neighbouring cells show a line inside both cells (with the cell's face between it
/// and the grid line), and many do not.
fn caged(rgb: &RgbImage, cells: &[Rect], pitch: impl Fn(f32, f32) -> Point) -> bool {
    let (w, h) = rgb.dimensions();
    let ink_at = |x: f32, y: f32, bg: [i32; 3]| {
        if x < 0.0 || y < 0.0 || x >= w as f32 || y >= h as f32 {
            return false;
        }
        let p = rgb.get_pixel(x as u32, y as u32).0;
        (0..3).any(|k| (p[k] as i32 - bg[k]).abs() > CAGE_INK)
    };
    // Each cell's lined sides, a bit a side.
    let mut masks = [0u8; 81];
    for i in 0..81 {
        let (r, c) = ((i / 9) as f32, (i % 9) as f32);
        let (a, b) = (pitch(c, r), pitch(c + 1.0, r + 1.0));
        let (cw, ch) = (b.x - a.x, b.y - a.y);
        if cw < 8.0 || ch < 8.0 {
            return false;
        }
        let bg = background(rgb, &cells[i]);
        // Each side: a point along it (t in 0..1) at depth d (px) inside the cell.
        let sides: [&dyn Fn(f32, f32) -> (f32, f32); 4] = [
            &|t, d| (a.x + t * cw, a.y + d),
            &|t, d| (a.x + t * cw, b.y - d),
            &|t, d| (a.x + d, a.y + t * ch),
            &|t, d| (b.x - d, a.y + t * ch),
        ];
        let lined: u8 = sides
            .iter()
            .enumerate()
            .filter(|(k, side)| {
                let across = if *k < 2 { ch } else { cw };
                let along = if *k < 2 { cw } else { ch };
                let (d0, d1) = (
                    (across * CAGE_INSET.0).max(2.0) as u32,
                    (across * CAGE_INSET.1).ceil() as u32,
                );
                let n = (along * 0.6) as u32;
                let share = |d: u32| {
                    let inked = (0..n)
                        .filter(|&j| {
                            let (x, y) = side(0.2 + j as f32 / along, d as f32);
                            ink_at(x, y, bg)
                        })
                        .count();
                    inked as f32 / n.max(1) as f32
                };
                let shares: Vec<f32> = (0..=d1).map(share).collect();
                // The grid line at the cell's edge, then a line with background on both
                // sides: the cell's face between it and the grid line (a bevel's shadow
                // runs from the grid line inward; tiles with a page between them have
                // no grid line, and a tile's own frame is one line, not two).
                let grid_line = shares[0].max(shares[1]) >= CAGE_INKED;
                grid_line
                    && (d0.max(2)..d1).any(|d| {
                        let d = d as usize;
                        shares[d] >= CAGE_INKED
                            && shares[1..d].iter().any(|&s| s <= CAGE_GAP)
                            && shares[d + 1..].iter().any(|&s| s <= CAGE_GAP)
                    })
            })
            .fold(0, |mask, (k, _)| mask | 1 << k);
        masks[i] = lined;
    }
    // Sides: 0 top, 1 bottom, 2 left, 3 right. A cage border between two cells is
    // lined in both; a tile's shadow on its right is not matched on its neighbour's left.
    let mut borders = 0;
    for r in 0..9 {
        for c in 0..8 {
            borders += usize::from(masks[r * 9 + c] & 8 != 0 && masks[r * 9 + c + 1] & 4 != 0);
            borders += usize::from(masks[c * 9 + r] & 2 != 0 && masks[(c + 1) * 9 + r] & 1 != 0);
        }
    }
    (CAGE_BORDERS..=144 - CAGE_BORDERS).contains(&borders)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 81 boxes of 20 px cells, `pitch` px apart, row by row.
    fn cells_of_20_px(pitch: usize) -> Vec<Rect> {
        (0..81)
            .map(|i| Rect {
                x: (i % 9 * pitch) as f32,
                y: (i / 9 * pitch) as f32,
                w: 20.0,
                h: 20.0,
            })
            .collect()
    }

    /// A grid of 20 px cells on white, 3 px apart (the lattice's boxes, set by each
    /// line's widest stretch), the line after cell (r, c) across drawn `across(r, c)` px
    /// wide in black, and the one below it `down(r, c)` px.
    fn lined(
        across: impl Fn(usize, usize) -> u32,
        down: impl Fn(usize, usize) -> u32,
    ) -> (RgbImage, Vec<Rect>) {
        let cells = cells_of_20_px(23);
        let mut rgb = RgbImage::from_pixel(207, 207, image::Rgb([255; 3]));
        for r in 0..9 {
            for c in 0..9 {
                let (x, y) = (c as u32 * 23, r as u32 * 23);
                for k in 0..3 {
                    for v in 0..23 {
                        if c < 8 && k < across(r, c) {
                            rgb.put_pixel(x + 20 + k, (y + v).min(206), image::Rgb([0; 3]));
                        }
                        if r < 8 && k < down(r, c) {
                            rgb.put_pixel((x + v).min(206), y + 20 + k, image::Rgb([0; 3]));
                        }
                    }
                }
            }
        }
        (rgb, cells)
    }

    #[test]
    fn a_classic_grid_has_no_irregular_regions_and_a_jigsaw_has() {
        let boxes = |_: usize, c: usize| if c % 3 == 2 { 3 } else { 1 };
        let rows = |r: usize, _: usize| if r % 3 == 2 { 3 } else { 1 };
        let (rgb, cells) = lined(boxes, rows);
        assert!(!irregular_regions(&rgb, &cells));
        // Uneven widths that stay one width along each line: classic.
        let (rgb, cells) = lined(
            |_, c| 1 + (c as u32 % 3 == 2) as u32 + (c == 4) as u32,
            rows,
        );
        assert!(!irregular_regions(&rgb, &cells));
        // Thick borders that wander off the box lines: a jigsaw.
        let jigsaw = |r: usize, c: usize| {
            if c == (r * 2 + 1) % 8 || c % 3 == 2 && r < 4 {
                3
            } else {
                1
            }
        };
        let (rgb, cells) = lined(jigsaw, |r, c| jigsaw(c, r));
        assert!(irregular_regions(&rgb, &cells));
    }

    fn painted(shade: impl Fn(usize) -> [u8; 3]) -> (RgbImage, Vec<Rect>) {
        let cells = cells_of_20_px(21);
        let rgb = RgbImage::from_fn(189, 189, |x, y| {
            let (c, r) = ((x / 21) as usize, (y / 21) as usize);
            if x % 21 == 20 || y % 21 == 20 {
                return image::Rgb([0, 0, 0]);
            }
            image::Rgb(shade(r * 9 + c))
        });
        (rgb, cells)
    }

    fn unit21(u: f32, v: f32) -> Point {
        Point {
            x: u * 21.0,
            y: v * 21.0,
        }
    }

    #[test]
    fn shaded_diagonals_are_an_x_sudoku_and_a_checkerboard_of_boxes_is_not() {
        let (rgb, cells) = painted(|i| {
            if on_a_diagonal(i) {
                [220, 220, 240]
            } else {
                [255; 3]
            }
        });
        assert_eq!(variant_of(&rgb, &cells, unit21), Some(Variant::X));
        let (rgb, cells) = painted(|i| {
            let b = (i / 27) * 3 + (i % 9) / 3;
            if b % 2 == 0 {
                [220, 220, 240]
            } else {
                [255; 3]
            }
        });
        assert_eq!(variant_of(&rgb, &cells, unit21), None);
        let (rgb, cells) = painted(|_| [255; 3]);
        assert_eq!(variant_of(&rgb, &cells, unit21), None);
    }
}
