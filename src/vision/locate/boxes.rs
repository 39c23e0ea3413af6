//! Locating the grid as nine 3x3 boxes, when the lines between cells do not separate
//! them as regions: dashed or dotted thin lines, faint thin lines that JPEG blurs into
//! the cells, or 1 px lines lost at a device scale under 1. Each box is one region
//! (its digits and broken lines are holes in it); the cells are the boxes cut along
//! the lines found inside them.

use super::candidates::{squares, Candidate};
use super::lattice::Lattice;
use super::lattice_checks::{boxes_go_on, CHECKER_CONTRAST};
use super::nearby::Buckets;
use super::regions::{is_ink, luminance, Regions, MIN_CELL};
use crate::vision::geometry::{box_corners, Rect};

/// Finds the grid as nine 3x3 boxes when the lines between cells do not separate them
/// as regions (dashed or dotted thin lines: each box is one region, its digits and the
/// dashes holes in it), or `None`.
///
/// Method: near-square regions alike in size, three by three at one regular pitch,
/// with none alike one step past the three (a pattern that goes on), painted alike
/// (not a checkerboard), and inside each box the broken lines themselves: at a third
/// and two thirds of its width and height, a line of pixels at least
/// [`MIN_DASH_INK`] of it ink. The cells are the boxes cut along those lines.
pub fn locate_boxes(regions: &Regions, img: &image::RgbImage) -> Option<Lattice> {
    let cands = squares(regions, 3 * MIN_CELL, BOX_ASPECT, 2);
    if cands.len() < 9 {
        return None;
    }
    let smallest = cands.iter().map(|c| c.size).fold(f32::MAX, f32::min);
    let index = Buckets::new(cands.iter().map(|c| (c.cx, c.cy)), smallest / 3.0);
    // The first candidate in the ranges that `fits`.
    let first_in = |x, y, fits: &dyn Fn(&Candidate) -> bool| {
        index.first_in(x, y, |i| fits(&cands[i])).map(|i| &cands[i])
    };
    let at = |x: f32, y: f32, s: f32| {
        first_in(
            (x - s * 0.15, x + s * 0.15),
            (y - s * 0.15, y + s * 0.15),
            &|c| {
                (c.cx - x).abs() < s * 0.15
                    && (c.cy - y).abs() < s * 0.15
                    && c.size.max(s) <= c.size.min(s) * BOX_SIZE_RATIO
            },
        )
    };
    let mut best: Option<(usize, Lattice)> = None;
    for a in &cands {
        let s = a.size;
        // Its right-hand neighbour gives the pitch.
        let right = (a.cx + s, a.cx + BOX_PITCH * s);
        let beside = (a.cy - s * 0.15, a.cy + s * 0.15);
        let Some(b) = first_in(right, beside, &|b| {
            let dx = b.cx - a.cx;
            (b.cy - a.cy).abs() < s * 0.15
                && dx >= s
                && dx <= BOX_PITCH * s
                && b.size.max(s) <= b.size.min(s) * BOX_SIZE_RATIO
        }) else {
            continue;
        };
        let p = b.cx - a.cx;
        // `a` may be any box but the right column's (a highlighted row or column
        // breaks some boxes' regions: those are missing, and placed by the pitch).
        for (i0, j0) in (0..2).flat_map(|i| (0..3).map(move |j| (i, j))) {
            let (ox, oy) = (a.cx - i0 as f32 * p, a.cy - j0 as f32 * p);
            let slots: Vec<Option<Candidate>> = (0..9)
                .map(|k| at(ox + (k % 3) as f32 * p, oy + (k / 3) as f32 * p, s).copied())
                .collect();
            let found = slots.iter().filter(|c| c.is_some()).count();
            if found < MIN_BOXES_FOUND || best.as_ref().is_some_and(|b| b.0 >= found) {
                continue;
            }
            if boxes_go_on(|i, j| at(ox + i as f32 * p, oy + j as f32 * p, s).is_some()) {
                tracing::debug!("boxes of a pattern that goes on, not a grid");
                continue;
            }
            if let Some(lattice) = cut_boxes(img, &slots, ox, oy, p, s) {
                best = Some((found, lattice));
            }
        }
    }
    best.map(|b| b.1)
}

/// How many regions could be boxes (the candidates [`locate_boxes`] starts from).
pub fn box_candidates(regions: &Regions) -> usize {
    squares(regions, 3 * MIN_CELL, BOX_ASPECT, 2).len()
}

/// The lattice of cells in nine boxes (`slots`, row by row; a missing box is placed at
/// its centre `(ox, oy)` + pitch `p` steps, size `s`): `None` when the boxes are not
/// painted alike or a box has no broken lines inside.
fn cut_boxes(
    img: &image::RgbImage,
    slots: &[Option<Candidate>],
    ox: f32,
    oy: f32,
    p: f32,
    s: f32,
) -> Option<Lattice> {
    let colours: Vec<[u8; 3]> = slots.iter().flatten().map(|c| c.region.mean()).collect();
    let mut median = [0u8; 3];
    for (k, m) in median.iter_mut().enumerate() {
        let mut v: Vec<u8> = colours.iter().map(|c| c[k]).collect();
        v.sort_unstable();
        *m = v[v.len() / 2];
    }
    if colours
        .iter()
        .any(|m| (0..3).any(|k| m[k].abs_diff(median[k]) as u32 > CHECKER_CONTRAST))
    {
        return None;
    }
    let (w, h) = (img.width(), img.height());
    let mut cells = [Rect::default(); 81];
    let mut outline = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for (k, slot) in slots.iter().enumerate() {
        let (x0, y0, x1, y1, bg) = match slot {
            Some(c) => (
                c.region.x0,
                c.region.y0,
                c.region.x1,
                c.region.y1,
                c.region.mean(),
            ),
            None => {
                let (cx, cy) = (ox + (k % 3) as f32 * p, oy + (k / 3) as f32 * p);
                let (x0, y0) = ((cx - s / 2.0).max(0.0), (cy - s / 2.0).max(0.0));
                let x1 = ((cx + s / 2.0) as u32).min(w - 1);
                let y1 = ((cy + s / 2.0) as u32).min(h - 1);
                (x0 as u32, y0 as u32, x1, y1, median)
            }
        };
        let Some((xs, ys)) = inner_lines(img, (x0, y0, x1, y1), bg) else {
            tracing::debug!("box {} has no lines between its cells", k + 1);
            return None;
        };
        outline = [
            outline[0].min(x0 as f32),
            outline[1].min(y0 as f32),
            outline[2].max(x1 as f32 + 1.0),
            outline[3].max(y1 as f32 + 1.0),
        ];
        let (br, bc) = (k / 3, k % 3);
        for r in 0..3 {
            for c in 0..3 {
                // Up to and including the next line (the last cell ends at the box's
                // edge, given as one past it).
                let (more_x, more_y) = ((c < 2) as u32, (r < 2) as u32);
                cells[(br * 3 + r) * 9 + bc * 3 + c] = Rect {
                    x: xs[c] as f32,
                    y: ys[r] as f32,
                    w: (xs[c + 1] + more_x - xs[c]) as f32,
                    h: (ys[r + 1] + more_y - ys[r]) as f32,
                };
            }
        }
    }
    let [left, top, right, bottom] = outline;
    tracing::debug!("grid found as nine boxes with broken lines inside");
    Some(Lattice {
        cells,
        // No labels: each cell's own background is measured (a selected or highlighted
        // cell is not its box's colour).
        labels: [None; 81],
        corners: box_corners(left, top, right, bottom),
    })
}

/// Cells under this many pixels may lose one of the two thin lines inside a box (a
/// 1 px line drawn at a device scale under 1 can vanish); the box is cut at its thirds.
pub const TINY_CELL: f32 = 16.0;

/// At least this many of the nine boxes are found as regions (a highlighted row and
/// column break up to four).
const MIN_BOXES_FOUND: usize = 5;
/// A box's width/height lies within [1/BOX_ASPECT, BOX_ASPECT].
const BOX_ASPECT: f32 = 1.15;
/// Boxes alike in size differ by at most this ratio.
const BOX_SIZE_RATIO: f32 = 1.15;
/// Neighbouring boxes' centres are 1.0 to this many box sizes apart.
const BOX_PITCH: f32 = 1.3;
/// A broken line between cells is ink over at least this share of its length (dashes
/// and dots cover about half; a digit never sits on a cell's border).
const MIN_DASH_INK: f32 = 0.25;
/// A faint solid line's pixels differ from the cell by at least this much luminance...
const FAINT_LINE: u32 = 8;
/// ... along at least this share of it (a digit never sits on a cell's border).
const MIN_FAINT_SHARE: f32 = 0.6;

/// The cell borders inside a box region: its outer edges and, near a third and two
/// thirds of its width and height, the pixel line with the most ink (at least
/// [`MIN_DASH_INK`] of it), else the faint solid line (at least [`MIN_FAINT_SHARE`] of
/// it [`FAINT_LINE`] off the cell), as x and y positions; `None` when a line is missing.
fn inner_lines(
    img: &image::RgbImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    bg: [u8; 3],
) -> Option<([u32; 4], [u32; 4])> {
    let ink = |x: u32, y: u32| is_ink(img.get_pixel(x, y).0, bg);
    let best = |lo: u32, span: u32, along: &dyn Fn(u32) -> f32| -> Option<[u32; 2]> {
        let (third, slack) = (span as f32 / 3.0, (span as f32 * 0.06).max(2.0));
        let mut found = [None; 2];
        for (n, o) in found.iter_mut().enumerate() {
            let centre = lo as f32 + third * (n + 1) as f32;
            let (a, b) = ((centre - slack) as u32, (centre + slack) as u32);
            let (pos, share) = (a..=b)
                .map(|v| (v, along(v)))
                .max_by(|x, y| x.1.total_cmp(&y.1))?;
            *o = (share >= MIN_DASH_INK).then_some(pos);
        }
        let third = third.round() as u32;
        match found {
            [Some(a), Some(b)] => Some([a, b]),
            // Tiny cells: a line under a pixel wide may be drawn as none at all; the
            // other line is a third of the box from the one found.
            _ if span as f32 >= 3.0 * TINY_CELL => None,
            [Some(a), None] => Some([a, a + third]),
            [None, Some(b)] => Some([b.saturating_sub(third), b]),
            [None, None] => None,
        }
    };
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // The share of a line's pixels that are `is_line`, counted as none below `min`.
    let share = |n: u32, on: usize, min: f32| {
        let share = on as f32 / n as f32;
        if share >= min {
            share
        } else {
            0.0
        }
    };
    let column = |x: u32, is_line: &dyn Fn(u32, u32) -> bool, min: f32| {
        share(h, (y0..=y1).filter(|&y| is_line(x, y)).count(), min)
    };
    let row = |y: u32, is_line: &dyn Fn(u32, u32) -> bool, min: f32| {
        share(w, (x0..=x1).filter(|&x| is_line(x, y)).count(), min)
    };
    // Dashes and dots are ink; a faint solid line (a dark theme's thin line after JPEG,
    // a few levels off the cell) is a line of pixels each a little off the cell.
    let faint =
        |x: u32, y: u32| luminance(img.get_pixel(x, y).0).abs_diff(luminance(bg)) >= FAINT_LINE;
    let xs = best(x0, w, &|x| column(x, &ink, MIN_DASH_INK))
        .or_else(|| best(x0, w, &|x| column(x, &faint, MIN_FAINT_SHARE)))?;
    let ys = best(y0, h, &|y| row(y, &ink, MIN_DASH_INK))
        .or_else(|| best(y0, h, &|y| row(y, &faint, MIN_FAINT_SHARE)))?;
    // The cells run from line to line, both included, so that the dashes lie on their
    // edges (frames, not glyphs).
    Some(([x0, xs[0], xs[1], x1 + 1], [y0, ys[0], ys[1], y1 + 1]))
}

#[cfg(test)]
mod tests {
    use super::super::lattice::locate_lattice;
    use super::super::regions::label_regions;
    use super::super::tests::{draw_grid, graph_paper};
    use super::*;
    use image::{Rgb, RgbImage};

    /// A grid whose thin lines are dashed (`dash` px on, `dash` px off), thick box
    /// lines solid: 36 px cells at (40, 30).
    fn dashed_grid(dash: u32) -> RgbImage {
        let mut img = draw_grid(500, 420, 40, 30, 36, 1, 3, [0, 0, 0], [255, 255, 255]);
        for (x, y) in (0..500).flat_map(|x| (0..420).map(move |y| (x, y))) {
            let p = *img.get_pixel(x, y);
            // a thin line's pixel: black, with white on both sides across it
            let across_x = x > 0 && x < 499 && img.get_pixel(x - 1, y)[0] == 255;
            let across_y = y > 0 && y < 419 && img.get_pixel(x, y - 1)[0] == 255;
            let thin_v = across_x && img.get_pixel(x + 1, y)[0] == 255;
            let thin_h = across_y && img.get_pixel(x, y + 1)[0] == 255;
            let off_v = thin_v && (y / dash) % 2 == 1;
            let off_h = thin_h && (x / dash) % 2 == 1;
            if p[0] == 0 && (off_v || off_h) {
                img.put_pixel(x, y, Rgb([255, 255, 255]));
            }
        }
        img
    }

    #[test]
    fn a_grid_with_dashed_thin_lines_is_found_as_nine_boxes() {
        for dash in [2, 4] {
            let img = dashed_grid(dash);
            let regions = label_regions(&img);
            assert!(
                locate_lattice(&regions).is_none(),
                "cells merge across dashes"
            );
            let lat = locate_boxes(&regions, &img).expect("nine boxes");
            // Cell r1c1 starts inside the outer line; cell r5c5 is the middle one.
            assert_eq!((lat.cells[0].x, lat.cells[0].y), (43.0, 33.0));
            let mid = lat.cells[40].center();
            let want = 40.0 + 3.0 + 3.0 + 36.0 * 4.5 + 3.0;
            assert!((mid.x - want).abs() <= 2.0, "{mid:?}");
            assert!((lat.cells[80].w - 36.0).abs() <= 1.5, "{:?}", lat.cells[80]);
        }
    }

    #[test]
    fn nine_squares_without_lines_inside_are_not_a_grid_of_boxes() {
        let paper = graph_paper(900, 700, 120, 2);
        assert!(locate_boxes(&label_regions(&paper), &paper).is_none());
        let board = RgbImage::from_fn(1000, 800, |x, y| {
            Rgb([if (x / 100 + y / 100) % 2 == 0 { 0 } else { 255 }; 3])
        });
        assert!(locate_boxes(&label_regions(&board), &board).is_none());
        // three by three big keys alone
        let mut img = RgbImage::from_pixel(400, 400, Rgb([255, 255, 255]));
        for (k, j) in (0..3).flat_map(|k| (0..3).map(move |j| (k, j))) {
            for (x, y) in (0..100).flat_map(|x| (0..100).map(move |y| (x, y))) {
                img.put_pixel(20 + k * 110 + x, 20 + j * 110 + y, Rgb([200, 200, 230]));
            }
        }
        assert!(locate_boxes(&label_regions(&img), &img).is_none());
    }
}
