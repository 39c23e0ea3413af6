//! Reading past a text caret: games whose cells are text fields draw a blinking bar
//! beside the digit of the focused cell, which the reader would take for part of the
//! glyph. The bar is painted over before the cell is read.
//!
//! A caret is told from a digit's stroke by its shape: one to three pixels wide, of
//! one width from top to bottom, apart from the other ink in the cell, and taller than
//! that ink by at least a sixth (a caret spans the text's line height, a digit only
//! its cap height), but not twice as tall. A cell with no other ink keeps its bar: that
//! may be a "1"; so does one whose other ink is short (a 1's flag).

use image::{Rgba, RgbaImage};

use crate::vision::Rect;

/// Grey levels from the cell's background that count as ink.
const INK: i32 = 60;
/// Grey levels from the background that anti-aliasing leaves beside a bar.
const FRINGE: i32 = 20;

/// Paints over a caret in the cell `cell` of `picture` (module docs). True when one was
/// found and painted over.
pub(super) fn erase_caret(picture: &mut RgbaImage, cell: &Rect) -> bool {
    let Some(cell_ink) = CellInk::of(picture, cell) else {
        return false;
    };
    let Some(bar) = find_bar(&cell_ink) else {
        return false;
    };
    // Paint the bar and its anti-aliased fringe with the background.
    let CellInk {
        x0,
        y0,
        w,
        h,
        ref greys,
        bg,
    } = cell_ink;
    let background = background_colour(picture, (x0, y0), w, h, greys, bg);
    let from = bar.x0.saturating_sub(1);
    let to = (bar.x1 + 1).min(w);
    for c in from..to {
        for y in bar.top.saturating_sub(1)..(bar.bottom + 1).min(h) {
            if (greys[y * w + c] - bg).abs() > FRINGE || (bar.x0..bar.x1).contains(&c) {
                picture.put_pixel(x0 + c as u32, y0 + y as u32, background);
            }
        }
    }
    true
}

/// The inside of a cell (away from the grid lines) as greys, with its background
/// grey (the median): `(x0, y0)` its top-left corner in the picture, `w` by `h`.
struct CellInk {
    x0: u32,
    y0: u32,
    w: usize,
    h: usize,
    greys: Vec<i32>,
    bg: i32,
}

impl CellInk {
    /// `None` for a cell too small to hold a caret beside a digit.
    fn of(picture: &RgbaImage, cell: &Rect) -> Option<CellInk> {
        let inset_x = cell.w * 0.08;
        let inset_y = cell.h * 0.08;
        let x0 = (cell.x + inset_x).max(0.0) as u32;
        let y0 = (cell.y + inset_y).max(0.0) as u32;
        let x1 = ((cell.x + cell.w - inset_x).max(0.0) as u32).min(picture.width());
        let y1 = ((cell.y + cell.h - inset_y).max(0.0) as u32).min(picture.height());
        if x1 <= x0 + 4 || y1 <= y0 + 8 {
            return None;
        }
        let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let grey = |x: usize, y: usize| {
            let p = picture.get_pixel(x0 + x as u32, y0 + y as u32);
            (i32::from(p[0]) * 299 + i32::from(p[1]) * 587 + i32::from(p[2]) * 114) / 1000
        };
        let greys: Vec<i32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| grey(x, y))
            .collect();
        let mut sorted = greys.clone();
        sorted.sort_unstable();
        let bg = sorted[sorted.len() / 2];
        Some(CellInk {
            x0,
            y0,
            w,
            h,
            greys,
            bg,
        })
    }

    fn ink(&self, x: usize, y: usize) -> bool {
        (self.greys[y * self.w + x] - self.bg).abs() > INK
    }

    /// Each column's longest run of ink: (start, length).
    fn column_runs(&self) -> Vec<(usize, usize)> {
        (0..self.w)
            .map(|x| {
                let (mut best, mut start) = ((0, 0), None);
                for y in 0..=self.h {
                    match (y < self.h && self.ink(x, y), start) {
                        (true, None) => start = Some(y),
                        (false, Some(s)) => {
                            if y - s > best.1 {
                                best = (s, y - s);
                            }
                            start = None;
                        }
                        _ => {}
                    }
                }
                best
            })
            .collect()
    }
}

/// A caret found: columns `x0..x1` and rows `top..bottom` of the cell's inside.
struct Bar {
    x0: usize,
    x1: usize,
    top: usize,
    bottom: usize,
}

/// The first run of tall, narrow columns that has a caret's shape (module docs).
fn find_bar(cell: &CellInk) -> Option<Bar> {
    let (w, h) = (cell.w, cell.h);
    let runs = cell.column_runs();
    let tall = |x: usize| runs[x].1 * 20 >= h * 9;
    let widest = 3.max(w / 12);
    let mut x = 0;
    while x < w {
        if !tall(x) {
            x += 1;
            continue;
        }
        let start = x;
        while x < w && tall(x) {
            x += 1;
        }
        let (gx0, gx1) = (start, x); // columns gx0..gx1
        if gx1 - gx0 > widest {
            continue;
        }
        // One width from top to bottom: the rows every column of the bar covers.
        let top = (gx0..gx1).map(|c| runs[c].0).max().unwrap_or(0);
        let bottom = (gx0..gx1).map(|c| runs[c].0 + runs[c].1).min().unwrap_or(0);
        if bottom <= top || (bottom - top) * 20 < h * 9 {
            continue;
        }
        // Apart from the other ink: the columns beside it are mostly background.
        let beside =
            |c: usize| (top..bottom).filter(|&y| cell.ink(c, y)).count() * 10 <= (bottom - top) * 3;
        if (gx0 > 0 && !beside(gx0 - 1)) || (gx1 < w && !beside(gx1)) {
            continue;
        }
        // The other ink, away from the bar and its fringe; rows inked across most of
        // the cell are a frame (a focused entry's ring), not the digit.
        let near = |c: usize| c + 1 >= gx0 && c <= gx1;
        let frame = |y: usize| (0..w).filter(|&c| cell.ink(c, y)).count() * 10 >= w * 6;
        let rows: Vec<usize> = (0..h)
            .filter(|&y| !frame(y) && (0..w).any(|c| !near(c) && cell.ink(c, y)))
            .collect();
        let (Some(&first), Some(&last)) = (rows.first(), rows.last()) else {
            continue;
        };
        let other = last + 1 - first;
        if (bottom - top) * 6 < other * 7 {
            continue;
        }
        // Ink less than half the bar's height is no digit beside a caret (a digit's
        // cap height is most of its line's): it is part of the bar, a 1's flag.
        if other * 2 < bottom - top {
            continue;
        }
        return Some(Bar {
            x0: gx0,
            x1: gx1,
            top,
            bottom,
        });
    }
    None
}

/// The mean colour of the pixels whose grey is the background's (within a few levels).
fn background_colour(
    picture: &RgbaImage,
    (x0, y0): (u32, u32),
    w: usize,
    h: usize,
    greys: &[i32],
    bg: i32,
) -> Rgba<u8> {
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for y in 0..h {
        for x in 0..w {
            if (greys[y * w + x] - bg).abs() <= 4 {
                let p = picture.get_pixel(x0 + x as u32, y0 + y as u32);
                for (s, v) in sum.iter_mut().zip(p.0) {
                    *s += u64::from(v);
                }
                n += 1;
            }
        }
    }
    let n = n.max(1);
    Rgba([
        (sum[0] / n) as u8,
        (sum[1] / n) as u8,
        (sum[2] / n) as u8,
        255,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgba<u8> = Rgba([250, 250, 250, 255]);
    const INK_BLUE: Rgba<u8> = Rgba([30, 60, 160, 255]);

    fn cell() -> (RgbaImage, Rect) {
        (
            RgbaImage::from_pixel(40, 40, WHITE),
            Rect {
                x: 0.0,
                y: 0.0,
                w: 40.0,
                h: 40.0,
            },
        )
    }

    fn fill(p: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32) {
        for yy in y..y + h {
            for xx in x..x + w {
                p.put_pixel(xx, yy, INK_BLUE);
            }
        }
    }

    /// A "6"-like glyph of 10x17 pixels at (12, 12): a ring with a bar on its left.
    fn glyph(p: &mut RgbaImage, x: u32) {
        fill(p, x, 12, 10, 2);
        fill(p, x, 12, 2, 17);
        fill(p, x + 8, 20, 2, 9);
        fill(p, x, 20, 10, 2);
        fill(p, x, 27, 10, 2);
    }

    #[test]
    fn a_caret_beside_a_digit_is_painted_over_and_the_digit_kept() {
        let (mut p, b) = cell();
        glyph(&mut p, 12);
        let digit = p.clone();
        // A caret of the line's height, two pixels right of the glyph.
        fill(&mut p, 24, 8, 1, 26);
        assert!(erase_caret(&mut p, &b));
        assert_eq!(p, digit);
    }

    #[test]
    fn a_one_alone_or_as_tall_as_the_caret_is_not_a_caret() {
        // A "1" that is a plain bar, alone in its cell.
        let (mut p, b) = cell();
        fill(&mut p, 19, 12, 2, 17);
        assert!(!erase_caret(&mut p.clone(), &b));
        // A bar as tall as the digit beside it (a "1" beside another glyph's stroke).
        glyph(&mut p, 6);
        let before = p.clone();
        assert!(!erase_caret(&mut p, &b));
        assert_eq!(p, before);
    }

    #[test]
    fn a_caret_beside_a_one_goes_and_the_one_stays() {
        let (mut p, b) = cell();
        fill(&mut p, 17, 12, 2, 17);
        let one = p.clone();
        fill(&mut p, 22, 8, 1, 26);
        assert!(erase_caret(&mut p, &b));
        assert_eq!(p, one);
    }

    #[test]
    fn a_caret_inside_a_focus_ring_is_painted_over_and_the_ring_kept() {
        // Kaidoku's focused entry: a 1 px ring round the field, inside the cell's
        // inset, above and below the caret.
        let (mut p, b) = cell();
        glyph(&mut p, 12);
        fill(&mut p, 4, 5, 32, 1);
        fill(&mut p, 4, 35, 32, 1);
        let digit = p.clone();
        fill(&mut p, 24, 8, 1, 26);
        assert!(erase_caret(&mut p, &b));
        assert_eq!(p, digit);
    }

    /// A cell cut from a real game's screenshot (fixtures/bot), whole.
    fn real_cell(name: &str) -> (RgbaImage, Rect) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/bot")
            .join(name);
        let p = image::open(&path).expect("fixture").to_rgba8();
        let b = Rect {
            x: 0.0,
            y: 0.0,
            w: p.width() as f32,
            h: p.height() as f32,
        };
        (p, b)
    }

    #[test]
    fn a_one_with_a_flag_is_not_a_caret() {
        // via-sudoku (OpenCV): its 1 has a short flag at the top; the flag is not a
        // digit beside a caret, and the 1 must read after the last move.
        let (mut p, b) = real_cell("via-sudoku-cell-one.png");
        let before = p.clone();
        assert!(!erase_caret(&mut p, &b));
        assert_eq!(p, before);
    }

    #[test]
    fn a_real_caret_beside_a_seven_goes() {
        // sudoku-1440 (Kivy): a 1 px red caret to the right of a typed 7.
        let (mut p, b) = real_cell("kivy-cell-seven-caret.png");
        assert!(erase_caret(&mut p, &b));
        // Inside the cell (the reader cuts its edges as frame): no red left.
        let (w, h) = (p.width(), p.height());
        let red = p
            .enumerate_pixels()
            .filter(|(x, y, _)| *x > w / 10 && *x < w - w / 10 && *y > h / 10 && *y < h - h / 10)
            .filter(|(_, _, q)| q[0] > 150 && q[1] < 120)
            .count();
        assert_eq!(red, 0, "the caret's red pixels are gone");
    }

    #[test]
    fn a_bar_touching_the_digit_is_part_of_it() {
        let (mut p, b) = cell();
        glyph(&mut p, 12);
        fill(&mut p, 22, 8, 1, 26);
        let before = p.clone();
        assert!(!erase_caret(&mut p, &b));
        assert_eq!(p, before);
    }
}
